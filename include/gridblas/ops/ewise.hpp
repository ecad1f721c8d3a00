#pragma once
/// @file ewise.hpp
/// @brief Element-wise addition (union) and multiplication (intersection) of distributed
/// vectors, GrB_eWiseAdd / GrB_eWiseMult of the GraphBLAS C API 2.1 (§4.3.4, §4.3.5), and
/// SuiteSparse's GxB_eWiseUnion:
///
///     w⟨mask⟩ = accum(w, u ⊕ v)      ewise_add:   t = u ∪ v, op(u(i), v(i)) where both exist
///     w⟨mask⟩ = accum(w, u ⊗ v)      ewise_mult:  t = u ∩ v, op(u(i), v(i))
///     w⟨mask⟩ = accum(w, u ∪ v)      ewise_union: t = u ∪ v, op(u(i) or alpha, v(i) or beta)
///
/// u, v, w and the mask share one distribution, so after the argument checks each rank
/// merges its own pieces: no communication. w may be the same object as u, v or the mask.

#include <cstddef>
#include <type_traits>

#include "gridblas/ops/arg_checks.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "gridblas/vector/dist_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas {

namespace detail {

/// Type of op(u, v) for element types U and V.
template <class Op, class U, class V>
using binary_result_t = std::decay_t<std::invoke_result_t<Op&, const U&, const V&>>;

/// Union of two sorted sparse pieces: op where both have an entry, the entry otherwise.
template <class Op, class U, class V>
SparseVector<binary_result_t<Op, U, V>> union_merge(const SparseVector<U>& a,
                                                    const SparseVector<V>& b, Op& op) {
    using T = binary_result_t<Op, U, V>;
    SparseVector<T> t(a.size());
    const auto& ai = a.indices();
    const auto& bi = b.indices();
    std::size_t p = 0, q = 0;
    while (p < ai.size() && q < bi.size()) {
        if (ai[p] < bi[q]) {
            t.push_back(ai[p], T(a.values()[p]));
            ++p;
        } else if (bi[q] < ai[p]) {
            t.push_back(bi[q], T(b.values()[q]));
            ++q;
        } else {
            t.push_back(ai[p], T(op(a.values()[p], b.values()[q])));
            ++p;
            ++q;
        }
    }
    for (; p < ai.size(); ++p) t.push_back(ai[p], T(a.values()[p]));
    for (; q < bi.size(); ++q) t.push_back(bi[q], T(b.values()[q]));
    return t;
}

/// Intersection of two sorted sparse pieces, op(a(i), b(i)).
template <class Op, class U, class V>
SparseVector<binary_result_t<Op, U, V>> intersect_merge(const SparseVector<U>& a,
                                                        const SparseVector<V>& b, Op& op) {
    using T = binary_result_t<Op, U, V>;
    SparseVector<T> t(a.size());
    const auto& ai = a.indices();
    const auto& bi = b.indices();
    std::size_t p = 0, q = 0;
    while (p < ai.size() && q < bi.size()) {
        if (ai[p] < bi[q]) {
            ++p;
        } else if (bi[q] < ai[p]) {
            ++q;
        } else {
            t.push_back(ai[p], T(op(a.values()[p], b.values()[q])));
            ++p;
            ++q;
        }
    }
    return t;
}

/// Union of two sorted sparse pieces with stand-ins: op(a(i), b(i)) where both have an
/// entry, op(a(i), beta) where only a has one, op(alpha, b(i)) where only b has one.
template <class Op, class U, class V>
SparseVector<binary_result_t<Op, U, V>> union_scalar_merge(const SparseVector<U>& a,
                                                           const SparseVector<V>& b, Op& op,
                                                           const U& alpha, const V& beta) {
    using T = binary_result_t<Op, U, V>;
    SparseVector<T> t(a.size());
    const auto& ai = a.indices();
    const auto& bi = b.indices();
    std::size_t p = 0, q = 0;
    while (p < ai.size() || q < bi.size()) {
        const lindex_t ia = p < ai.size() ? ai[p] : lindex_t(-1);
        const lindex_t ib = q < bi.size() ? bi[q] : lindex_t(-1);
        if (ia < ib) {
            t.push_back(ia, T(op(a.values()[p], beta)));
            ++p;
        } else if (ib < ia) {
            t.push_back(ib, T(op(alpha, b.values()[q])));
            ++q;
        } else {
            t.push_back(ia, T(op(a.values()[p], b.values()[q])));
            ++p;
            ++q;
        }
    }
    return t;
}

/// Common front of the operations: checks, then the output stage on the merged pieces.
template <class W, class Mask, class Accum, class U, class V, class Merge>
void ewise(const char* name, DistVector<W>& w, const Mask& mask, Accum accum,
           const DistVector<U>& u, const DistVector<V>& v, const Descriptor& desc, Merge merge) {
    check_initialised(name, "w", w);
    check_conformant(name, w, "u", u);
    check_conformant(name, w, "v", v);
    check_mask(name, w, mask);
    // t is computed into its own storage before w is written, so w may be u, v or the mask.
    to_sparse_first(w, u, v);
    const LocalMask m = make_local_mask(mask, desc);
    const auto t = merge(u.sparse(), v.sparse());
    apply_output_stage(w, m, accum, t, desc);
}

}  // namespace detail

/// w⟨mask⟩ = accum(w, u ∪ v): the union of u and v, `op(u(i), v(i))` where both hold an
/// entry and the single entry (cast to op's result type) where only one does.
///
/// Not collective: every rank works on its own piece.
/// @param w     output (read too when accum is given or the mask leaves entries alone)
/// @param mask  no_mask or a DistVector (valued or structural, complemented, per `desc`)
/// @param accum no_accum or a callable accum(w(i), t(i))
/// @param op    callable op(u(i), v(i))
/// @throws InvalidValue when an operand is uninitialised or on another grid than w, and
///         DimensionMismatch when a length differs from w's; thrown by every rank alike,
///         with w unchanged.
template <class W, class Mask, class Accum, class Op, class U, class V>
void ewise_add(DistVector<W>& w, const Mask& mask, Accum accum, Op op, const DistVector<U>& u,
               const DistVector<V>& v, const Descriptor& desc = {}) {
    detail::ewise("ewise_add", w, mask, accum, u, v, desc,
                  [&](const auto& a, const auto& b) { return detail::union_merge(a, b, op); });
}

/// w⟨mask⟩ = accum(w, u ∩ v): `op(u(i), v(i))` at the indices where both u and v hold an
/// entry. Same arguments, errors and (absence of) communication as ewise_add().
template <class W, class Mask, class Accum, class Op, class U, class V>
void ewise_mult(DistVector<W>& w, const Mask& mask, Accum accum, Op op, const DistVector<U>& u,
                const DistVector<V>& v, const Descriptor& desc = {}) {
    detail::ewise("ewise_mult", w, mask, accum, u, v, desc,
                  [&](const auto& a, const auto& b) { return detail::intersect_merge(a, b, op); });
}

/// w⟨mask⟩ = accum(w, t) with t over the union of u and v: `op(u(i), v(i))` where both hold
/// an entry, `op(u(i), beta)` where only u does and `op(alpha, v(i))` where only v does
/// (SuiteSparse's GxB_eWiseUnion). alpha is converted to u's value type, beta to v's. Same
/// arguments, errors and (absence of) communication as ewise_add().
template <class W, class Mask, class Accum, class Op, class U, class Alpha, class V, class Beta>
void ewise_union(DistVector<W>& w, const Mask& mask, Accum accum, Op op, const DistVector<U>& u,
                 const Alpha& alpha, const DistVector<V>& v, const Beta& beta,
                 const Descriptor& desc = {}) {
    detail::check_initialised("ewise_union", "w", w);
    detail::check_cpu_grid("ewise_union", *w.grid());
    const U al = U(alpha);
    const V be = V(beta);
    detail::ewise("ewise_union", w, mask, accum, u, v, desc, [&](const auto& a, const auto& b) {
        return detail::union_scalar_merge(a, b, op, al, be);
    });
}

}  // namespace gridblas
