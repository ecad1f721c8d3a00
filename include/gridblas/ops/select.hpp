#pragma once
/// @file select.hpp
/// @brief Keeping the entries that satisfy a predicate, GrB_select of the GraphBLAS C API
/// 2.1 (§4.3.9), with the predicate given its entry's global index (or row and column) and
/// value, as a GrB_IndexUnaryOp returning bool:
///
///     w⟨mask⟩ = accum(w, {(i, u(i)) : pred(i, u(i))})      select on a vector
///     C = {(i, j, A(i, j)) : pred(i, j, A(i, j))}          select on a matrix (new matrix)
///
/// The vector form needs no communication after the argument checks and allows w to be u or
/// the mask. The matrix form keeps every entry where it is and rebuilds the blocks.

#include <optional>

#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/apply.hpp"
#include "gridblas/ops/arg_checks.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "gridblas/vector/dist_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas {

/// w⟨mask⟩ = accum(w, t) with t the entries (i, u(i)) of u for which pred(i, u(i)) is true
/// (i is the global index).
///
/// Not collective: every rank works on its own piece.
/// @param mask  no_mask or a DistVector (valued or structural, complemented, per `desc`)
/// @param accum no_accum or a callable accum(w(i), u(i))
/// @param pred  callable pred(gindex_t i, u(i)) -> bool
/// @throws InvalidValue (operand uninitialised or on another grid) or DimensionMismatch
///         (length differs from w's), on every rank alike, with w unchanged.
template <class W, class Mask, class Accum, class Pred, class U>
void select(DistVector<W>& w, const Mask& mask, Accum accum, Pred pred, const DistVector<U>& u,
            const Descriptor& desc = {}) {
    constexpr const char* name = "select";
    detail::check_initialised(name, "w", w);
    detail::check_conformant(name, w, "u", u);
    detail::check_mask(name, w, mask);
    detail::to_sparse_first(w, u);
    const detail::LocalMask m = detail::make_local_mask(mask, desc);
    const SparseVector<U>& s = u.sparse();
    SparseVector<U> t(s.size());
    const gindex_t begin = u.local_begin();
    for (std::size_t k = 0; k < s.nvals(); ++k) {
        const lindex_t i = s.indices()[k];
        if (pred(begin + gindex_t(i), s.values()[k])) t.push_back(i, s.values()[k]);
    }
    apply_output_stage(w, m, accum, t, desc);
}

/// C = the entries of A for which pred(i, j, A(i, j)) is true (global ids): a new matrix
/// with A's shape, grid and local format. `select(A, [](gindex_t i, gindex_t j, auto) {
/// return i != j; })` drops the diagonal (GrB_OFFDIAG). Collective (the blocks are rebuilt;
/// no entry leaves its rank).
/// @throws InvalidValue when A is uninitialised (on every rank alike).
template <class Pred, class T>
DistMatrix<T> select(const DistMatrix<T>& a, Pred pred) {
    detail::check_initialised("select", "A", a);
    return detail::rebuild_entries<T>(a, [&](gindex_t i, gindex_t j, const T& x) {
        return pred(i, j, x) ? std::optional<T>(x) : std::nullopt;
    });
}

}  // namespace gridblas
