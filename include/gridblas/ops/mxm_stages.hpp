#pragma once
/// @file mxm_stages.hpp
/// @brief The operand movement of Sparse SUMMA for mxm (Buluç & Gilbert, "Parallel sparse
/// matrix-matrix multiplication and indexing: implementation and experiments", SIAM J. Sci.
/// Comput. 2012), fitted to gridblas' layout.
///
/// The inner index space k of C = A·B is cut into pr*pc pieces dealt column by column
/// (distribution.hpp): piece q sits in A's column block q / pr and in B's row block q % pr.
/// Stage s (s = 0 .. pc-1) covers A's column block s, that is pieces s*pr .. s*pr+pr-1:
///
///  - A's block on P(i, s) is broadcast along grid row i (one broadcast per stage), and
///  - in grid column j, each P(r, j) contributes the rows of its B block that belong to piece
///    s*pr + r, and an allgather along the grid column gives every P(·, j) all of them.
///
/// Before the allgather the ranks of a grid column exchange the inner ids their A blocks use
/// in the stage (site "mxm-b-ids"), and B's owners send only those rows: a sparse A (a
/// frontier, in batched BFS) fetches only the rows of B it multiplies.
///
/// After stage s every P(i, j) holds A(rows of i, pieces of stage s) and B(same pieces,
/// columns of j), both numbered by A's column-block-s local ids, and multiplies them locally.
/// A stage therefore holds one block of A (about nnz(A)/p entries) and pr pieces of B (about
/// nnz(B)/p entries) besides the running result, 12 bytes per entry plus the value on the
/// wire, whatever the grid. Everything moves through the grid's communicators, so the
/// counters see it under the sites "mxm-a" and "mxm-b".

#include <algorithm>
#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "gridblas/core/process_grid.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"

namespace gridblas::detail {

/// One entry in flight during a stage: outer id, inner id, value.
template <class T>
struct StageEntry {
    lindex_t outer;
    lindex_t inner;
    T val;
};

/// CSR of `n_outer` x `n_inner` from entries sorted by outer id (inner ascending within).
template <class T>
Csr<T> csr_from_sorted(lindex_t n_outer, lindex_t n_inner, const std::vector<StageEntry<T>>& e) {
    std::vector<offset_t> ptr(std::size_t(n_outer) + 1, 0);
    for (const auto& x : e) ++ptr[x.outer + 1];
    for (lindex_t r = 0; r < n_outer; ++r) ptr[r + 1] += ptr[r];
    std::vector<lindex_t> inner(e.size());
    ValueArray<T> vals(e.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < std::int64_t(e.size()); ++k) {
        inner[std::size_t(k)] = e[std::size_t(k)].inner;
        if constexpr (!std::is_same_v<T, Pattern>) vals[std::size_t(k)] = e[std::size_t(k)].val;
    }
    return Csr<T>::from_arrays(n_outer, n_inner, std::move(ptr), std::move(inner), std::move(vals));
}

/// CSR from entries in any outer order; a stable counting sort keeps the order of entries of
/// one outer id (inner ids must already ascend in that order).
template <class T>
Csr<T> csr_from_grouped(lindex_t n_outer, lindex_t n_inner, const std::vector<StageEntry<T>>& e) {
    std::vector<offset_t> ptr(std::size_t(n_outer) + 1, 0);
    for (const auto& x : e) ++ptr[x.outer + 1];
    for (lindex_t r = 0; r < n_outer; ++r) ptr[r + 1] += ptr[r];
    std::vector<offset_t> at(ptr.begin(), ptr.end() - 1);
    std::vector<lindex_t> inner(e.size());
    ValueArray<T> vals(e.size());
    for (const auto& x : e) {
        const offset_t p = at[x.outer]++;
        inner[p] = x.inner;
        if constexpr (!std::is_same_v<T, Pattern>) vals[p] = x.val;
    }
    return Csr<T>::from_arrays(n_outer, n_inner, std::move(ptr), std::move(inner), std::move(vals));
}

/// This rank's block of `a` compressed by row, as stage entries (row, col, value).
template <class T>
std::vector<StageEntry<T>> block_entries(const DistMatrix<T>& a) {
    std::vector<StageEntry<T>> out;
    out.reserve(a.local_nvals());
    a.by_row().for_each([&](lindex_t r, lindex_t c, const auto& v) {
        out.push_back(StageEntry<T>{r, c, v});
    });
    return out;
}

/// Stage s's A operand on this rank: A's block of grid position (my_row, s), by row.
template <class T>
Csr<T> stage_a(const DistMatrix<T>& a, int s, const std::vector<StageEntry<T>>& mine) {
    const ProcessGrid& g = *a.grid();
    comm::Communicator& row = g.row();
    std::vector<StageEntry<T>> buf;
    std::uint64_t count = g.my_col() == s ? mine.size() : 0;
    row.broadcast(std::span<std::uint64_t>(&count, 1), s, "mxm-a");
    if (g.my_col() == s) {
        buf = mine;
    } else {
        buf.resize(count);
    }
    if (count > 0) row.broadcast(std::span<StageEntry<T>>(buf), s, "mxm-a");
    return csr_from_sorted(a.row_dist().block_rows(), a.col_dist().block_cols(), buf);
}

/// The rows of this rank's B block that lie in inner piece s*pr + my_row, renumbered to A's
/// column-block-s ids, when `by_rows`; else the same entries grouped by B's local column
/// (outer = column, inner = renumbered row).
template <class T>
std::vector<StageEntry<T>> stage_b_piece(const DistMatrix<T>& b, int s, bool by_rows,
                                         const std::vector<lindex_t>* wanted = nullptr) {
    const ProcessGrid& g = *b.grid();
    const gindex_t nb = b.row_dist().nb;
    const lindex_t lo = lindex_t(gindex_t(s) * nb);
    const lindex_t hi = lindex_t(gindex_t(s + 1) * nb);
    const lindex_t shift_to = lindex_t(gindex_t(g.my_row()) * nb);
    std::vector<StageEntry<T>> out;
    if (by_rows) {
        const RowAccess<T> rows(b.by_row());
        const auto& v = rows.view();
        const kernels::detail::ValueReader<T> val(v.vals);
        // Outer positions whose row id lies in [lo, hi).
        std::size_t k0 = lo, k1 = std::min<std::size_t>(hi, v.num_outer);
        if (v.outer_ids) {
            k0 = std::size_t(std::lower_bound(v.outer_ids, v.outer_ids + v.num_outer, lo) -
                             v.outer_ids);
            k1 = std::size_t(std::lower_bound(v.outer_ids, v.outer_ids + v.num_outer, hi) -
                             v.outer_ids);
        }
        auto emit_row = [&](std::size_t k) {
            const lindex_t r = v.outer_id(k) - lo + shift_to;
            for (offset_t p = v.ptr[k]; p < v.ptr[k + 1]; ++p) {
                out.push_back(StageEntry<T>{r, v.inner[p], val(p)});
            }
        };
        if (wanted) {
            // Only the rows some rank of the grid column multiplies: `wanted` holds sorted
            // stage ids; this rank's lie in [shift_to, shift_to + nb).
            auto first = std::lower_bound(wanted->begin(), wanted->end(), shift_to);
            auto last = std::lower_bound(first, wanted->end(), lindex_t(shift_to + nb));
            for (auto it = first; it != last; ++it) {
                const lindex_t row = *it - shift_to + lo;
                if (row >= hi || (!v.outer_ids && row >= v.num_outer)) continue;
                const std::size_t k =
                    v.outer_ids
                        ? std::size_t(std::lower_bound(v.outer_ids + k0, v.outer_ids + k1, row) -
                                      v.outer_ids)
                        : std::size_t(row);
                if (k < k1 && v.outer_id(k) == row) emit_row(k);
            }
        } else {
            for (std::size_t k = k0; k < k1; ++k) emit_row(k);
        }
    } else {
        const RowAccess<T> cols(b.by_col());
        const auto& v = cols.view();
        const kernels::detail::ValueReader<T> val(v.vals);
        for (std::size_t k = 0; k < v.num_outer; ++k) {
            const lindex_t* first = v.inner + v.ptr[k];
            const lindex_t* last = v.inner + v.ptr[k + 1];
            const lindex_t* a0 = std::lower_bound(first, last, lo);
            const lindex_t* a1 = std::lower_bound(a0, last, hi);
            for (const lindex_t* p = a0; p < a1; ++p) {
                out.push_back(StageEntry<T>{v.outer_id(k), *p - lo + shift_to,
                                            val(std::size_t(p - v.inner))});
            }
        }
    }
    return out;
}

/// Stage s's B operand on this rank: B(pieces of stage s, columns of my grid column), by
/// rows (k x n block) or, when `by_rows` is false, by columns (the n x k block of Bᵀ).
template <class T>
Csr<T> stage_b(const DistMatrix<T>& b, int s, bool by_rows,
               const std::vector<lindex_t>* wanted = nullptr) {
    const ProcessGrid& g = *b.grid();
    const std::vector<StageEntry<T>> mine = stage_b_piece(b, s, by_rows, wanted);
    std::vector<StageEntry<T>> all;
    std::vector<int> counts;
    g.col().allgatherv(std::span<const StageEntry<T>>(mine), all, counts, "mxm-b");
    // Inner ids of a stage: A's column-block numbering, pr pieces of the inner space.
    const lindex_t k_ids = b.row_dist().block_cols();
    const lindex_t n_ids = b.col_dist().block_cols();
    // Pieces arrive in grid-row order, so rows (by_rows) are already sorted.
    return by_rows ? csr_from_sorted(k_ids, n_ids, all) : csr_from_grouped(n_ids, k_ids, all);
}

/// The stage ids (inner ids of the stage) that the A blocks of this rank's grid column use:
/// each rank's distinct column ids of its stage block of A, united along the grid column, so
/// that B's owners send only the rows someone multiplies. Sorted. Collective over the grid
/// column.
template <class TA>
std::vector<lindex_t> wanted_stage_ids(const ProcessGrid& g, const Csr<TA>& a_stage) {
    std::vector<lindex_t> mine(a_stage.colind().begin(), a_stage.colind().end());
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
    std::vector<lindex_t> all;
    std::vector<int> counts;
    g.col().allgatherv(std::span<const lindex_t>(mine), all, counts, "mxm-b-ids");
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

}  // namespace gridblas::detail
