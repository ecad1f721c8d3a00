#pragma once
/// @file apply.hpp
/// @brief Applying an operator to every entry, GrB_apply of the GraphBLAS C API 2.1
/// (§4.3.8): with a unary operator f(x), or with an index operator f(i, x) (the C API's
/// GrB_IndexUnaryOp, e.g. GrB_ROWINDEX, which BFS uses to turn a frontier's values into
/// its vertex ids):
///
///     w⟨mask⟩ = accum(w, f(u))          apply / apply_index on a vector
///     C = f(A)                          apply / apply_index on a matrix (new matrix)
///
/// The vector forms need no communication after the argument checks and allow w to be u or
/// the mask. The matrix forms keep every entry on its rank and rebuild the blocks there.

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/arg_checks.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "gridblas/vector/dist_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas {

namespace detail {

/// Vector apply with f(global index, value); the front of apply() and apply_index().
template <class W, class Mask, class Accum, class U, class F>
void apply_vector(const char* name, DistVector<W>& w, const Mask& mask, Accum accum,
                  const DistVector<U>& u, const Descriptor& desc, F f) {
    check_initialised(name, "w", w);
    check_conformant(name, w, "u", u);
    check_mask(name, w, mask);
    to_sparse_first(w, u);
    const LocalMask m = make_local_mask(mask, desc);
    const SparseVector<U>& s = u.sparse();
    using T = std::decay_t<std::invoke_result_t<F&, gindex_t, const U&>>;
    SparseVector<T> t(s.size());
    t.indices().reserve(s.nvals());
    t.values().reserve(s.nvals());
    const gindex_t begin = u.local_begin();
    for (std::size_t k = 0; k < s.nvals(); ++k) {
        t.push_back(s.indices()[k], f(begin + gindex_t(s.indices()[k]), s.values()[k]));
    }
    apply_output_stage(w, m, accum, t, desc);
}

/// A new matrix on A's grid with A's shape and local format, holding f(i, j, A(i, j)) for
/// every entry of A where that optional is set (i, j global ids). Entries stay on their rank,
/// so the blocks are rebuilt locally, row by row. Not collective.
template <class R, class T, class F>
DistMatrix<R> rebuild_entries(const DistMatrix<T>& a, F f) {
    BuildOptions keep{DuplicatePolicy::reject, a.local_format()};
    if (a.relabel()) {
        keep.relabel = true;
        keep.relabel_seed = a.relabel()->seed();
    }
    DistMatrix<R> c = DistMatrix<R>::shell(a.grid(), a.nrows(), a.ncols(), keep);
    const int gi = a.grid()->my_row();
    const int gj = a.grid()->my_col();
    c.assemble_rows(block_rows<R>(a, [&](lindex_t r, lindex_t k, const T& x) {
        return f(a.external_id(a.row_dist().global_row(gi, r)),
                 a.external_id(a.col_dist().global_col(gj, k)), x);
    }));
    return c;
}

}  // namespace detail

/// w⟨mask⟩ = accum(w, f(u)): t(i) = f(u(i)) for every entry of u.
///
/// Not collective: every rank works on its own piece.
/// @param mask  no_mask or a DistVector (valued or structural, complemented, per `desc`)
/// @param accum no_accum or a callable accum(w(i), t(i))
/// @param f     callable f(u(i))
/// @throws InvalidValue (operand uninitialised or on another grid) or DimensionMismatch
///         (length differs from w's), on every rank alike, with w unchanged.
template <class W, class Mask, class Accum, class F, class U>
void apply(DistVector<W>& w, const Mask& mask, Accum accum, F f, const DistVector<U>& u,
           const Descriptor& desc = {}) {
    detail::apply_vector("apply", w, mask, accum, u, desc,
                         [&](gindex_t, const U& x) { return f(x); });
}

/// w⟨mask⟩ = accum(w, f(i, u)): t(i) = f(i, u(i)) with i the global index (the C API's
/// GrB_apply with a GrB_IndexUnaryOp). `apply_index(w, no_mask, no_accum, [](gindex_t i,
/// auto) { return i; }, u)` gives every entry of u its own index (GrB_ROWINDEX_INT64).
///
/// Not collective. Same errors as apply().
template <class W, class Mask, class Accum, class F, class U>
void apply_index(DistVector<W>& w, const Mask& mask, Accum accum, F f, const DistVector<U>& u,
                 const Descriptor& desc = {}) {
    detail::apply_vector("apply_index", w, mask, accum, u, desc, f);
}

/// C = f(A): a new matrix with A's pattern, grid and local format, C(i, j) = f(A(i, j)).
/// Collective (the blocks are rebuilt; no entry leaves its rank).
/// @throws InvalidValue when A is uninitialised (on every rank alike).
template <class F, class T>
auto apply(const DistMatrix<T>& a, F f) {
    detail::check_initialised("apply", "A", a);
    using R = std::decay_t<std::invoke_result_t<F&, const T&>>;
    return detail::rebuild_entries<R>(
        a, [&](gindex_t, gindex_t, const T& x) { return std::optional<R>(f(x)); });
}

/// C = f(i, j, A): as apply() on a matrix, with C(i, j) = f(i, j, A(i, j)) (global ids).
template <class F, class T>
auto apply_index(const DistMatrix<T>& a, F f) {
    detail::check_initialised("apply_index", "A", a);
    using R = std::decay_t<std::invoke_result_t<F&, gindex_t, gindex_t, const T&>>;
    return detail::rebuild_entries<R>(
        a, [&](gindex_t i, gindex_t j, const T& x) { return std::optional<R>(f(i, j, x)); });
}

}  // namespace gridblas
