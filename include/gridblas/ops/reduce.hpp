#pragma once
/// @file reduce.hpp
/// @brief Reductions, GrB_reduce and GrB_*_nvals of the GraphBLAS C API 2.1 (§4.3.10,
/// §4.2.5.6, §4.2.6.7):
///
///     s = ⊕_i u(i)                   reduce(u, add, identity)      vector to scalar
///     s = ⊕_ij A(i, j)               reduce(A, add, identity)      matrix to scalar
///     w⟨mask⟩ = accum(w, ⊕_j A(:, j)) reduce(w, mask, accum, add, A, desc)   rows to vector
///     nvals(u), nvals(A)
///
/// `add` must be the associative operation of a monoid whose identity is `identity`; the
/// matrix reductions also assume it commutative (as the C API does). Every rank folds its
/// entries, then the partial results are exchanged and folded in one fixed order on every
/// rank, so every rank returns the same value, bit for bit (the vector reduction folds in
/// index order, as a serial loop would). Entries of a Pattern vector or matrix count as the
/// value 1 (a pattern entry is "true").

#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/comm/communicator.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/apply.hpp"
#include "gridblas/ops/arg_checks.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "gridblas/vector/dist_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas {

namespace detail {

/// An entry's value in the reduction's domain S (Pattern counts as 1).
template <class S, class T>
S reduce_value(const T& x) {
    if constexpr (std::is_same_v<T, Pattern>) {
        return S(1);
    } else {
        return S(x);
    }
}

/// Gathers one partial result per world rank and folds them, starting from `identity`, in
/// the rank order given by `rank_at(k)` for k = 0..p-1. Collective.
template <class S, class Add, class RankAt>
S fold_partials(comm::Communicator& world, const S& mine, Add& add, const S& identity,
                RankAt rank_at) {
    static_assert(std::is_trivially_copyable_v<S>,
                  "reduce: the result type must be trivially copyable");
    std::vector<S> all;
    std::vector<int> counts;
    world.allgatherv(std::span<const S>(&mine, 1), all, counts, "reduce");
    S acc = identity;
    for (int k = 0; k < world.size(); ++k) acc = add(acc, all[std::size_t(rank_at(k))]);
    return acc;
}

/// A partial row (or column) result travelling to the owner of the vector entry.
template <class W>
struct RowPartial {
    lindex_t index;  ///< local index in the owner's vector piece
    W val;
};

}  // namespace detail

/// Number of entries of u. Collective.
template <class T>
gindex_t nvals(const DistVector<T>& u) {
    detail::check_initialised("nvals", "u", u);
    return u.nvals();
}

/// Number of entries of A. Collective.
template <class T>
gindex_t nvals(const DistMatrix<T>& a) {
    detail::check_initialised("nvals", "A", a);
    return a.nvals();
}

/// s = identity ⊕ u(i0) ⊕ u(i1) ⊕ ... over the entries of u in index order; `identity` for
/// an empty vector. The result type S is the type of `identity` (entries are cast to it).
/// Collective; every rank returns the same value.
/// @throws InvalidValue when u is uninitialised (on every rank alike).
template <class T, class Add, class S>
S reduce(const DistVector<T>& u, Add add, const S& identity) {
    detail::check_initialised("reduce", "u", u);
    S acc = identity;
    u.for_each_local([&](gindex_t, const T& x) { acc = add(acc, detail::reduce_value<S>(x)); });
    const ProcessGrid& g = *u.grid();
    const Distribution& d = u.dist();
    // Piece k lives on grid position (k % pr, k / pr): folding in piece order is index order.
    return detail::fold_partials(g.world(), acc, add, identity, [&](int k) {
        return g.rank_of(d.row_of_piece(k), d.col_of_piece(k));
    });
}

/// s = ⊕ of every entry of A (identity for an empty matrix); `add` must be commutative.
/// Collective; every rank returns the same value.
/// @throws InvalidValue when A is uninitialised (on every rank alike).
template <class T, class Add, class S>
S reduce(const DistMatrix<T>& a, Add add, const S& identity) {
    detail::check_initialised("reduce", "A", a);
    S acc = identity;
    a.for_each_local(
        [&](gindex_t, gindex_t, const T& x) { acc = add(acc, detail::reduce_value<S>(x)); });
    return detail::fold_partials(a.grid()->world(), acc, add, identity, [](int k) { return k; });
}

/// w⟨mask⟩ = accum(w, t) with t(i) = ⊕_j A(i, j) over the stored entries of row i (rows
/// without entries give no entry of t), or over the columns when `desc.transpose_a` is set
/// (GrB_Matrix_reduce_Monoid with GrB_INP0 = GrB_TRAN). Entries are cast to W; a Pattern
/// matrix counts each entry as 1, so `reduce(deg, no_mask, no_accum, std::plus<>{}, A)`
/// gives the out-degrees. `add` must be associative and commutative.
///
/// Collective: each rank folds its block's rows, then sends each row's partial result to
/// the owner of that entry of w along its grid row (grid column when transposed).
/// @throws InvalidValue (an operand uninitialised, or A, w, mask on different grids) or
///         DimensionMismatch (w's length is not A's row count, or column count when
///         transposed; the mask's length is not w's), on every rank alike, with w unchanged.
template <class W, class Mask, class Accum, class Add, class T>
void reduce(DistVector<W>& w, const Mask& mask, Accum accum, Add add, const DistMatrix<T>& a,
            const Descriptor& desc = {}) {
    constexpr const char* name = "reduce";
    detail::check_initialised(name, "w", w);
    detail::check_initialised(name, "A", a);
    if (a.grid() != w.grid()) throw InvalidValue("reduce: w and A live on different process grids");
    if (a.relabel() != nullptr) {
        throw NotSupported(
            "reduce: A is stored relabelled; build it without relabel to reduce "
            "its rows into a vector");
    }
    const bool by_col = desc.transpose_a;
    const gindex_t want = by_col ? a.ncols() : a.nrows();
    if (w.size() != want) {
        throw DimensionMismatch(std::string("reduce: w has size ") + std::to_string(w.size()) +
                                " but A" + (by_col ? "ᵀ" : "") + " has " + std::to_string(want) +
                                " rows");
    }
    detail::check_mask(name, w, mask);
    detail::to_sparse_first(w);
    const detail::LocalMask m = detail::make_local_mask(mask, desc);

    // 1. Partial result of every non-empty local row (column), outer index ascending.
    const CompressedBlock<T>& block = by_col ? a.by_col() : a.by_row();
    const gindex_t nb = by_col ? a.col_dist().nb : a.row_dist().nb;
    comm::Communicator& comm = by_col ? a.grid()->col() : a.grid()->row();
    std::vector<detail::RowPartial<W>> send;
    std::vector<int> send_counts(std::size_t(comm.size()), 0);
    lindex_t last = lindex_t(-1);  // outer index of send.back(); none yet
    block.for_each([&](lindex_t outer, lindex_t, const T& x) {
        const W v = detail::reduce_value<W>(x);
        if (outer == last) {
            send.back().val = add(send.back().val, v);
            return;
        }
        last = outer;
        // Outer ids ascend, so the partials come out grouped by destination, in order.
        send.push_back({lindex_t(gindex_t(outer) % nb), v});
        ++send_counts[std::size_t(gindex_t(outer) / nb)];
    });

    // 2. The piece of w holding local row r of the block is owned by rank r / nb of the
    //    grid row (of the grid column when transposed), at local index r % nb.
    std::vector<detail::RowPartial<W>> recv;
    std::vector<int> recv_counts;
    comm.alltoallv(std::span<const detail::RowPartial<W>>(send), std::span<const int>(send_counts),
                   recv, recv_counts, "reduce-rows");

    // 3. Fold what arrived, in source order, with a dense accumulator over the piece.
    std::vector<W> acc(w.local_size());
    std::vector<char> has(w.local_size(), 0);
    for (const auto& e : recv) {
        if (has[e.index]) {
            acc[e.index] = add(acc[e.index], e.val);
        } else {
            acc[e.index] = e.val;
            has[e.index] = 1;
        }
    }
    SparseVector<W> t(w.local_size());
    for (lindex_t i = 0; i < w.local_size(); ++i) {
        if (has[i]) t.push_back(i, acc[i]);
    }
    apply_output_stage(w, m, accum, t, desc);
}

}  // namespace gridblas
