#pragma once
/// @file spmv_witness.hpp
/// @brief vxm_witness / mxv_witness: for every output index of a vxm (mxv) over full vectors,
/// the smallest input index whose product reaches a given target value — which in-neighbour
/// of a vertex attains its final value. A shortest-path search finds its parents this way
/// once the distances are final (the target of v is d(v), the products d(u) + w(u, v)), with
/// an early exit per output and one value per input index, where the same result as a
/// semiring (an argmin on (value, index) pairs) reads every edge with pairs twice the size.
///
/// The stages of spmv_full.hpp (spmv_layout.hpp says which grid dimension does what):
///  1. checks, on every rank, before any communication;
///  2. expand: the pieces of u gathered along the expand dimension (one allgatherv);
///  3. the targets of the block's output range gathered along the fold dimension (one
///     allgatherv), since every rank of it scans its own input range for the same outputs;
///  4. the scan of kernels/cpu/spmv_witness.hpp over the block compressed by output index;
///  5. fold: each rank's smallest witness per output, as a global index, goes to the output's
///     owner (one alltoallv), which keeps the smallest. Skipped when the fold dimension has
///     one rank.

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gridblas/core/collective_check.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/spmv_witness.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/spmv_full.hpp"
#include "gridblas/ops/spmv_layout.hpp"

namespace gridblas {

/// Buffers of vxm_witness / mxv_witness, reused between calls: input values X, targets Y.
template <class X, class Y>
struct WitnessSpmvWorkspace {
    kernels::ParallelPolicy policy;  ///< threading of the local scan
    std::vector<X> in;               ///< the gathered input over the block's input range
    std::vector<Y> targets;          ///< the gathered targets over the block's output range
    std::vector<lindex_t> local;     ///< the block's witnesses, block input numbering
    std::vector<gindex_t> part;      ///< the same as global indices (-1: none)
    std::vector<gindex_t> recv;      ///< the parts of this rank's piece, in fold rank order
    std::vector<int> counts;
    std::vector<int> send_counts;
    std::uint64_t last_entries = 0;  ///< matrix entries the last call read on this rank
};

namespace detail {

/// The whole operation; `input_is_rows` as in spmv_dist (true for vxm).
template <class S, class X, class T>
void spmv_witness(std::span<gindex_t> witness, std::span<const typename S::value_type> target,
                  std::span<const X> u, const DistMatrix<T>& a, const typename S::value_type& skip,
                  bool input_is_rows, WitnessSpmvWorkspace<X, typename S::value_type>& ws,
                  const char* name) {
    using Y = typename S::value_type;
    ProcessGrid& grid = check_array_spmv(a, name);
    const SpmvLayout<T> L(a, input_is_rows);
    const lindex_t in_len = L.in_len;
    const lindex_t out_len = L.out_len;
    run_collectively(grid.world(), [&] {
        if (u.size() != in_len || target.size() != out_len || witness.size() != out_len) {
            throw DimensionMismatch(std::string(name) + ": u has " + std::to_string(u.size()) +
                                    ", the targets " + std::to_string(target.size()) +
                                    " and the witnesses " + std::to_string(witness.size()) +
                                    " values, but this rank's pieces have " +
                                    std::to_string(in_len) + " and " + std::to_string(out_len));
        }
    });
    // Stages 2 and 3: the block's whole input range and its outputs' targets.
    const std::span<const X> x =
        gather_block_range(*L.expand, u, in_len, L.n_in, X{}, ws.in, ws.counts, name);
    const std::span<const Y> t =
        gather_block_range(*L.fold, target, out_len, L.n_out, skip, ws.targets, ws.counts, name);
    // Stage 4: the block's witnesses.
    ws.local.resize(L.n_out);
    std::uint64_t lookup_for = 0;
    const auto view = view_of(*L.pull_block, nullptr, lookup_for);
    ws.last_entries =
        kernels::spmv_witness<S>(view, x, t, skip, std::span<lindex_t>(ws.local), ws.policy);
    const auto global = [&](lindex_t i) {
        return i == kernels::no_witness ? gindex_t(-1) : L.input_global(i);
    };
    comm::Communicator& fold = *L.fold;
    if (fold.size() == 1) {
        for (lindex_t k = 0; k < out_len; ++k) witness[k] = global(ws.local[L.out_offset + k]);
        return;
    }
    // Stage 5: each fold rank gets its piece of every rank's witnesses and keeps the smallest.
    const int q = fold.size();
    const std::size_t total = fold_piece_counts(L, grid, ws.send_counts);
    ws.part.resize(total);
    for (std::size_t k = 0; k < total; ++k) ws.part[k] = global(ws.local[k]);
    fold.alltoallv(std::span<const gindex_t>(ws.part), std::span<const int>(ws.send_counts),
                   ws.recv, ws.counts, name);
    std::copy(ws.recv.begin(), ws.recv.begin() + out_len, witness.begin());
    for (int r = 1; r < q; ++r) {
        const gindex_t* part = ws.recv.data() + std::size_t(r) * std::size_t(out_len);
        for (lindex_t k = 0; k < out_len; ++k) {
            if (part[k] >= 0 && (witness[k] < 0 || part[k] < witness[k])) witness[k] = part[k];
        }
    }
}

}  // namespace detail

/// For the k-th index j of this rank's piece of A's column space, witness[k] = the smallest
/// row index i with S::mul(A(i, j), u(i)) == target[k] (compared with operator==), or -1
/// where there is none or target[k] == skip (such outputs are not searched). u is this rank's
/// piece of A's row space. Only S::mul is used. Collective over A's grid.
/// @throws InvalidValue (uninitialised matrix), NotSupported (cuda backend, relabelled
///         matrix), before communicating; DimensionMismatch (a piece of the wrong length on
///         any rank) on every rank after one reduction
template <class S, class X, class T>
void vxm_witness(std::span<gindex_t> witness, std::span<const typename S::value_type> target,
                 std::span<const X> u, const DistMatrix<T>& a, const typename S::value_type& skip,
                 WitnessSpmvWorkspace<X, typename S::value_type>& ws) {
    detail::spmv_witness<S>(witness, target, u, a, skip, true, ws, "vxm_witness");
}

/// The same over the rows of A as outputs: witness[k] = the smallest column index j with
/// S::mul(A(i, j), u(j)) == target[k] for the k-th row i of this rank's piece.
template <class S, class X, class T>
void mxv_witness(std::span<gindex_t> witness, std::span<const typename S::value_type> target,
                 std::span<const X> u, const DistMatrix<T>& a, const typename S::value_type& skip,
                 WitnessSpmvWorkspace<X, typename S::value_type>& ws) {
    detail::spmv_witness<S>(witness, target, u, a, skip, false, ws, "mxv_witness");
}

}  // namespace gridblas
