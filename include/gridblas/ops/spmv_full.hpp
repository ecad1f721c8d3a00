#pragma once
/// @file spmv_full.hpp
/// @brief vxm_full / mxv_full: distributed vxm and mxv on full (dense) vectors held as plain
/// arrays over each rank's piece. Every input entry is present and every output entry is
/// written, S::zero() where no product exists — the step of iterative methods over all
/// vertices (PageRank), which the general vxm (spmv.hpp) would run with id lists, a bitmap
/// input and a sparse output.
///
/// The stages of spmv.hpp without the id machinery (spmv_layout.hpp says which grid dimension
/// does what):
///  1. checks, on every rank, before any communication;
///  2. expand: the pieces of u gathered along the expand dimension by one allgatherv of values
///     (pieces are full except at the end, so rank k's values land at k·nb); skipped when
///     that dimension has one rank;
///  3. the dense SpMV of kernels/cpu/spmv_dense.hpp over the block compressed by output
///     index: one pass over the block's entries;
///  4. fold: the partial output range is cut into the pieces of the fold dimension's ranks and
///     exchanged with one alltoallv; each rank combines the parts of its piece with the
///     semiring's add in rank order (so results do not depend on the communication backend).
///     Skipped when the fold dimension has one rank: the kernel writes w directly.
/// No mask, no accumulator: callers combine the arrays themselves.

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gridblas/core/collective_check.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/spmv_dense.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/spmv_layout.hpp"
#include "gridblas/semirings/semiring.hpp"

namespace gridblas {

/// Buffers of vxm_full / mxv_full, reused between calls: input values X, output values Y.
template <class X, class Y>
struct FullSpmvWorkspace {
    kernels::ParallelPolicy policy;  ///< threading of the local kernel
    std::vector<X> in;               ///< the gathered input over the block's input range
    std::vector<Y> part;             ///< the block's partial output over its output range
    std::vector<Y> recv;             ///< the parts of this rank's piece, in fold rank order
    std::vector<int> counts;         ///< receive counts
    std::vector<int> send_counts;
    std::uint64_t last_entries = 0;  ///< matrix entries the last call read on this rank
};

namespace detail {

/// Length of the piece that rank `r` of the fold (or expand) communicator owns, when the
/// communicator runs along the grid column (`along_col`) or along the grid row.
inline lindex_t comm_piece_size(const Distribution& d, const ProcessGrid& grid, bool along_col,
                                int r) {
    const int k = along_col ? d.piece_at(r, grid.my_col()) : d.piece_at(grid.my_row(), r);
    return lindex_t(d.piece_size(k));
}

/// The counts of a fold's alltoallv: rank r of the fold communicator gets its piece of the
/// block's output range. Returns their total.
template <class T>
std::size_t fold_piece_counts(const SpmvLayout<T>& L, const ProcessGrid& grid,
                              std::vector<int>& counts) {
    const int q = L.fold->size();
    counts.assign(std::size_t(q), 0);
    std::size_t total = 0;
    for (int r = 0; r < q; ++r) {
        // vxm (input along the rows) folds along the grid column
        counts[std::size_t(r)] = int(comm_piece_size(*L.out, grid, L.input_is_rows, r));
        total += std::size_t(counts[std::size_t(r)]);
    }
    return total;
}

/// A full vector over a block's whole range (`range` values) from the pieces of the ranks of
/// `c` (this rank's `mine`, `my_len` values): one allgatherv when `c` has several ranks (rank
/// k's piece lands at k·nb, pieces being full except at the end), the tail padded with
/// `fill`. Returns `mine` itself when it already is the whole range, else a view of `buf`.
template <class V>
std::span<const V> gather_block_range(comm::Communicator& c, std::span<const V> mine,
                                      lindex_t my_len, lindex_t range, const V& fill,
                                      std::vector<V>& buf, std::vector<int>& counts,
                                      const char* name) {
    if (c.size() == 1 && my_len == range) return mine;
    if (c.size() > 1) {
        c.allgatherv(mine, buf, counts, name);
    } else {
        buf.assign(mine.begin(), mine.end());
    }
    buf.resize(range, fill);
    return std::span<const V>(buf);
}

/// The whole operation; `input_is_rows` as in spmv_dist (true for vxm).
template <class S, class X, class T>
void spmv_full(std::span<typename S::value_type> w, std::span<const X> u, const DistMatrix<T>& a,
               bool input_is_rows, FullSpmvWorkspace<X, typename S::value_type>& ws,
               const char* name) {
    using Y = typename S::value_type;
    static_assert(!semiring_is_positional<S>(),
                  "vxm_full / mxv_full: positional semirings need the general vxm / mxv");
    ProcessGrid& grid = check_array_spmv(a, name);
    const SpmvLayout<T> L(a, input_is_rows);
    const lindex_t in_len = L.in_len;
    const lindex_t out_len = L.out_len;
    // The lengths are this rank's own: a wrong one makes every rank throw (one reduction).
    run_collectively(grid.world(), [&] {
        if (u.size() != in_len || w.size() != out_len) {
            throw DimensionMismatch(std::string(name) + ": u has " + std::to_string(u.size()) +
                                    " and w " + std::to_string(w.size()) +
                                    " values, but this rank's pieces have " +
                                    std::to_string(in_len) + " and " + std::to_string(out_len));
        }
    });
    // Stage 2: the block's whole input range.
    const std::span<const X> x =
        gather_block_range(*L.expand, u, in_len, L.n_in, X{}, ws.in, ws.counts, name);
    // Stage 3: the block's partial output, straight into w when no fold is needed.
    const bool direct = L.fold->size() == 1 && out_len == L.n_out;
    std::span<Y> y = w;
    if (!direct) {
        ws.part.resize(L.n_out);
        y = std::span<Y>(ws.part);
    }
    std::uint64_t lookup_for = 0;
    const auto view = view_of(*L.pull_block, nullptr, lookup_for);
    ws.last_entries = kernels::spmv_dense<S>(view, x, y, ws.policy).entries;
    if (direct) return;
    // Stage 4: each fold rank gets its piece of every rank's partial output.
    comm::Communicator& fold = *L.fold;
    const int q = fold.size();
    const std::size_t total = fold_piece_counts(L, grid, ws.send_counts);
    fold.alltoallv(std::span<const Y>(ws.part.data(), total), std::span<const int>(ws.send_counts),
                   ws.recv, ws.counts, name);
    std::copy(ws.recv.begin(), ws.recv.begin() + out_len, w.begin());
    for (int r = 1; r < q; ++r) {
        const Y* part = ws.recv.data() + std::size_t(r) * out_len;
        for (lindex_t i = 0; i < out_len; ++i) w[i] = S::add(w[i], part[i]);
    }
}

}  // namespace detail

/// w = uᵀ ⊕.⊗ A over full vectors: w[k] = ⊕_i S::mul(A(i, j), u(i)) for the k-th index j of
/// this rank's piece of A's column space (S::zero() where no entry), u this rank's piece of
/// A's row space. Collective over A's grid.
/// @param w this rank's piece of the output (its length, written entirely)
/// @param u this rank's piece of the input (its length); may not overlap w
/// @throws InvalidValue (uninitialised matrix), NotSupported (cuda backend, relabelled
///         matrix), before communicating; DimensionMismatch (a piece of the wrong length on
///         any rank) on every rank after one reduction
template <class S, class X, class T>
void vxm_full(std::span<typename S::value_type> w, std::span<const X> u, const DistMatrix<T>& a,
              FullSpmvWorkspace<X, typename S::value_type>& ws) {
    detail::spmv_full<S>(w, u, a, true, ws, "vxm_full");
}

/// w = A ⊕.⊗ u over full vectors (the rows of A as outputs); same conventions as vxm_full.
template <class S, class X, class T>
void mxv_full(std::span<typename S::value_type> w, std::span<const X> u, const DistMatrix<T>& a,
              FullSpmvWorkspace<X, typename S::value_type>& ws) {
    detail::spmv_full<S>(w, u, a, false, ws, "mxv_full");
}

}  // namespace gridblas
