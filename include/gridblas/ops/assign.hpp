#pragma once
/// @file assign.hpp
/// @brief Assignment of a vector or of a scalar to every index of a distributed vector,
/// GrB_Vector_assign and GrB_Vector_assign_<type> with GrB_ALL as the index list (GraphBLAS
/// C API 2.1 §4.3.7.1 and §4.3.7.5):
///
///     w⟨mask⟩ = accum(w, u)         assign
///     w⟨mask⟩ = accum(w, value)     assign_scalar: t holds `value` at every index
///
/// With GrB_ALL the assign-specific mask rules coincide with the common output stage. No
/// communication after the argument checks; w may be the same object as u or the mask.

#include "gridblas/ops/arg_checks.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "gridblas/vector/dist_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas {

/// w⟨mask⟩ = accum(w, u).
///
/// Not collective: every rank works on its own piece.
/// @param mask  no_mask or a DistVector (valued or structural, complemented, per `desc`)
/// @param accum no_accum or a callable accum(w(i), u(i))
/// @throws InvalidValue (operand uninitialised or on another grid) or DimensionMismatch
///         (length differs from w's), on every rank alike, with w unchanged.
template <class W, class Mask, class Accum, class U>
void assign(DistVector<W>& w, const Mask& mask, Accum accum, const DistVector<U>& u,
            const Descriptor& desc = {}) {
    constexpr const char* name = "assign";
    detail::check_initialised(name, "w", w);
    detail::check_conformant(name, w, "u", u);
    detail::check_mask(name, w, mask);
    detail::to_sparse_first(w, u);
    const detail::LocalMask m = detail::make_local_mask(mask, desc);
    if (static_cast<const void*>(&u) == static_cast<const void*>(&w)) {
        // t = w: copy it, as the output stage may rewrite w's piece while reading t.
        const SparseVector<U> t = u.sparse();
        apply_output_stage(w, m, accum, t, desc);
    } else {
        apply_output_stage(w, m, accum, u.sparse(), desc);
    }
}

/// w⟨mask⟩ = accum(w, value): every index the mask allows receives `value` (accumulated
/// into w's entry where there is one and accum is given).
///
/// Not collective. Same errors as assign().
template <class W, class Mask, class Accum, class S>
void assign_scalar(DistVector<W>& w, const Mask& mask, Accum accum, const S& value,
                   const Descriptor& desc = {}) {
    constexpr const char* name = "assign_scalar";
    detail::check_initialised(name, "w", w);
    detail::check_mask(name, w, mask);
    detail::to_sparse_first(w);
    const detail::LocalMask m = detail::make_local_mask(mask, desc);
    // t is full, but the output stage ignores t outside the mask: store only the allowed
    // indices.
    SparseVector<S> t(w.local_size());
    for (lindex_t i = 0; i < w.local_size(); ++i) {
        if (m.allows(i)) t.push_back(i, value);
    }
    apply_output_stage(w, m, accum, t, desc);
}

}  // namespace gridblas
