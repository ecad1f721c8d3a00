#pragma once
/// @file spmv_update.hpp
/// @brief vxm_update / mxv_update: a sparse input pushed through A and accumulated with the
/// semiring's add into a full output held as a plain array over each rank's piece,
/// w = w ⊕ (uᵀ ⊕.⊗ A) (GrB_vxm with accum = ⊕ into a full w), listing the entries of w that
/// changed. The relaxation step of label-correcting searches (delta-stepping SSSP): the work
/// and the traffic are those of the input's edges, never of the whole vector.
///
/// The stages of spmv.hpp (spmv_layout.hpp says which grid dimension does what):
///  1. checks on every rank (argument lengths are made collective: one reduction);
///  2. expand: the input's (index, value) pairs gathered along the expand dimension by
///     allgatherv (the pieces are disjoint and ascending, so the concatenation is sorted);
///     skipped when that dimension has one rank;
///  3. local push (kernels/cpu/spmspv_update.hpp) over the block compressed by input index:
///     straight into w when the fold dimension has one rank, else into a partial accumulator
///     over the block's output range (kept at S::zero() between calls);
///  4. fold: the partial results go to their owners with Communicator::reduce_scatter_pairs
///     (combined with the semiring's add) and are added into w there.

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gridblas/core/collective_check.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/spmspv_update.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/spmv_layout.hpp"
#include "gridblas/semirings/semiring.hpp"

namespace gridblas {

/// Buffers of vxm_update / mxv_update, reused between calls: input values X, output values Y.
template <class X, class Y>
struct UpdateSpmvWorkspace {
    kernels::UpdateWorkspace kernel;  ///< the local push's buffers and threading knobs
    kernels::OuterLookup lookup;      ///< bucket index of a DCSC block's outer ids
    std::uint64_t lookup_for = 0;     ///< stamp() of the block `lookup` was made for
    std::vector<lindex_t> my_ids;     ///< this rank's input in block numbering
    std::vector<lindex_t> in_ids;     ///< the gathered input ...
    std::vector<X> in_vals;           ///< ... and its values
    std::vector<int> counts;
    std::vector<Y> partial;  ///< partial output over the block's range; S::zero() between calls
    std::vector<lindex_t> touched;
    std::vector<Y> send_vals;
    std::vector<int> send_counts;
    std::vector<lindex_t> got_ids;
    std::vector<Y> got_vals;
    std::uint64_t last_entries = 0;  ///< matrix entries the last call's push covered
};

namespace detail {

/// The whole operation; `input_is_rows` as in spmv_dist (true for vxm).
template <class S, class X, class T>
void spmv_update(std::span<typename S::value_type> w, std::span<const lindex_t> u_ids,
                 std::span<const X> u_vals, const DistMatrix<T>& a, bool input_is_rows,
                 UpdateSpmvWorkspace<X, typename S::value_type>& ws, std::vector<lindex_t>& changed,
                 const char* name) {
    using Y = typename S::value_type;
    static_assert(!semiring_is_positional<S>(),
                  "vxm_update / mxv_update: positional semirings need the general vxm / mxv");
    ProcessGrid& grid = check_array_spmv(a, name);
    const SpmvLayout<T> L(a, input_is_rows);
    const lindex_t in_len = L.in_len;
    const lindex_t out_len = L.out_len;
    run_collectively(grid.world(), [&] {
        if (w.size() != out_len || u_ids.size() != u_vals.size()) {
            throw DimensionMismatch(std::string(name) + ": w has " + std::to_string(w.size()) +
                                    " values for a piece of " + std::to_string(out_len) +
                                    "; u has " + std::to_string(u_ids.size()) + " indices and " +
                                    std::to_string(u_vals.size()) + " values");
        }
        for (std::size_t k = 0; k < u_ids.size(); ++k) {
            if (u_ids[k] >= in_len || (k > 0 && u_ids[k] <= u_ids[k - 1])) {
                throw InvalidValue(std::string(name) + ": u's indices must ascend below " +
                                   std::to_string(in_len));
            }
        }
    });
    // Stage 2: the input over the block's input range.
    std::span<const lindex_t> ids = u_ids;
    std::span<const X> vals = u_vals;
    if (L.expand->size() > 1 || L.in_offset != 0) {
        ws.my_ids.resize(u_ids.size());
        for (std::size_t k = 0; k < u_ids.size(); ++k) ws.my_ids[k] = L.in_offset + u_ids[k];
        L.expand->allgatherv(std::span<const lindex_t>(ws.my_ids), ws.in_ids, ws.counts, name);
        L.expand->allgatherv(u_vals, ws.in_vals, ws.counts, name);
        ids = ws.in_ids;
        vals = ws.in_vals;
    }
    // Stage 3: the local push.
    const auto view = view_of(*L.push_block, &ws.lookup, ws.lookup_for);
    comm::Communicator& fold = *L.fold;
    if (fold.size() == 1) {
        ws.last_entries = kernels::spmspv_update<S>(view, ids, vals, w, changed, ws.kernel);
        return;
    }
    if (ws.partial.size() < L.n_out) ws.partial.resize(L.n_out, S::zero());
    ws.last_entries =
        kernels::spmspv_update<S>(view, ids, vals, std::span<Y>(ws.partial), ws.touched, ws.kernel);
    // Stage 4: the touched outputs, ascending and so grouped by owner, in the owner's ids.
    const gindex_t nb = L.out->nb;
    ws.send_counts.assign(std::size_t(fold.size()), 0);
    ws.send_vals.resize(ws.touched.size());
    for (std::size_t k = 0; k < ws.touched.size(); ++k) {
        const lindex_t j = ws.touched[k];
        const int dest = int(gindex_t(j) / nb);
        ++ws.send_counts[std::size_t(dest)];
        ws.send_vals[k] = ws.partial[j];
        ws.partial[j] = S::zero();
        ws.touched[k] = lindex_t(gindex_t(j) - gindex_t(dest) * nb);
    }
    fold.reduce_scatter_pairs(
        std::span<const lindex_t>(ws.touched), std::span<const Y>(ws.send_vals),
        std::span<const int>(ws.send_counts), lindex_t(nb), [](Y x, Y y) { return S::add(x, y); },
        ws.got_ids, ws.got_vals, name);
    changed.clear();
    for (std::size_t k = 0; k < ws.got_ids.size(); ++k) {
        const lindex_t i = ws.got_ids[k];
        const Y now = S::add(w[i], ws.got_vals[k]);
        if (now == w[i]) continue;
        w[i] = now;
        changed.push_back(i);
    }
}

}  // namespace detail

/// w = w ⊕ (uᵀ ⊕.⊗ A) for a sparse u and a full w: for every entry (i, x) of u and stored
/// A(i, j), w(j) = S::add(w(j), S::mul(A(i, j), x)). `changed` gets the ascending local
/// indices of this rank's piece of w whose value changed (Y's operator==). Collective over
/// A's grid.
/// @param w this rank's piece of A's column space (its whole length)
/// @param u_ids ascending local indices of this rank's piece of A's row space
/// @param u_vals their values
/// @throws InvalidValue (uninitialised matrix), NotSupported (cuda backend, relabelled
///         matrix), before communicating; DimensionMismatch (a wrong length) or InvalidValue
///         (indices not ascending inside the piece) on every rank after one reduction
template <class S, class X, class T>
void vxm_update(std::span<typename S::value_type> w, std::span<const lindex_t> u_ids,
                std::span<const X> u_vals, const DistMatrix<T>& a,
                UpdateSpmvWorkspace<X, typename S::value_type>& ws,
                std::vector<lindex_t>& changed) {
    detail::spmv_update<S>(w, u_ids, u_vals, a, true, ws, changed, "vxm_update");
}

/// w = w ⊕ (A ⊕.⊗ u) (the rows of A as outputs); same conventions as vxm_update.
template <class S, class X, class T>
void mxv_update(std::span<typename S::value_type> w, std::span<const lindex_t> u_ids,
                std::span<const X> u_vals, const DistMatrix<T>& a,
                UpdateSpmvWorkspace<X, typename S::value_type>& ws,
                std::vector<lindex_t>& changed) {
    detail::spmv_update<S>(w, u_ids, u_vals, a, false, ws, changed, "mxv_update");
}

}  // namespace gridblas
