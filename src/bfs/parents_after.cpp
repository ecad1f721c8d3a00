// Parent mode "after" (after Fu, Dasari, Berzins & Thompson, "Parallel breadth first search
// on GPU clusters", IEEE BigData 2014): the bottom-up levels record levels only; afterwards
// each vertex v they found, at level L, takes as parent its smallest-id in-neighbour at level
// L - 1. (Top-down levels already set min parents: their push finds them for free, while a
// vertex found top-down has few in-neighbours one level up, so a scan for one would read
// most of its in-edges.) Each rank reads its block's in-edges with the levels of its row and
// column blocks, and the candidates go to the owners along the grid column, where the
// smallest wins. They travel as 4-byte local row ids with no vertex id: the ranks of a grid
// column first share one bit per column ("found a candidate"), so that an owner knows which
// of its vertices each sender's ascending list covers and the sender's grid row turns the
// local id back into a global one — a quarter of the bytes of (vertex, parent) pairs.
//
// The levels travel and are read as one byte each (level + 1, 0 = unreached) when the search
// is shallower than 255 levels — an eighth of the bytes, and a row block's levels that stay
// in cache for the scan's random reads; deeper searches fall back to 8-byte levels.

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <span>

#include "bfs/bfs_impl.hpp"
#include "bfs/levels_gather.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/vector/bitmap_vector.hpp"

namespace gridblas {

namespace {

constexpr lindex_t kNoCandidate = ~lindex_t(0);

/// The row- or column-block copy of `piece` (see gather_block), for any element type.
template <class L>
void gather_levels(ProcessGrid& grid, const Distribution& dist, const std::vector<L>& piece,
                   bool along_row, std::vector<L>& out, std::vector<int>& counts) {
    comm::Communicator& c = along_row ? grid.row() : grid.col();
    c.allgatherv(std::span<const L>(piece), out, counts, "bfs-parents-after");
    out.resize(along_row ? dist.block_rows() : dist.block_cols(), L(0));
}

/// cand[k] = the smallest local row u of stored column position k whose level is the
/// column's level - 1 (levels as stored: `none` = unreached; in `lcol` also where no parent
/// is wanted), or kNoCandidate. Reads each column's in-edges in ascending row order (global
/// rows of a row block increase with the local row) and stops at the first match, in
/// parallel over the columns.
template <class L>
void scan_candidates(const kernels::CompressedView<Pattern>& view, const L* lrow, const L* lcol,
                     L none, std::vector<lindex_t>& cand) {
    const std::size_t cols = view.num_outer;
    cand.assign(cols, kNoCandidate);
    lindex_t* out = cand.data();
    const int threads = cols >= (std::size_t(1) << 14) ? omp_get_max_threads() : 1;
    // Few columns want a parent and their in-edges sit at random places in a large array:
    // the first in-edge of the column `ahead` positions on is prefetched when it wants one.
    constexpr std::size_t ahead = 16;
    const auto wanted = [none](L lv) { return lv != none && lv != L(none + 1); };  // not the source
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) if (threads > 1)
    for (std::size_t k = 0; k < cols; ++k) {
        if (k + ahead < cols && wanted(lcol[view.outer_id(k + ahead)])) {
            __builtin_prefetch(view.inner + view.ptr[k + ahead]);
        }
        const L lv = lcol[view.outer_id(k)];
        if (!wanted(lv)) continue;
        const L want = L(lv - 1);
        for (offset_t p = view.ptr[k]; p < view.ptr[k + 1]; ++p) {
            const lindex_t u = view.inner[p];
            if (lrow[u] == want) {
                out[k] = u;
                break;
            }
        }
    }
}

/// Shares along the grid column which columns have a candidate on this rank, and sends the
/// candidates (local rows, in ascending column order) to the owners of their columns; keeps
/// those of this rank's own piece in `b.own`.
void send_candidates(ProcessGrid& grid, const Distribution& dist,
                     const kernels::CompressedView<Pattern>& view, std::size_t local_n,
                     detail::AfterBuffers& b) {
    const int me = grid.my_row();
    const gindex_t nb = dist.nb;
    const gindex_t first = gindex_t(me) * nb;  // first column of this rank's piece
    b.has.assign(bitmap_words(dist.block_cols()), 0);
    b.own.assign(local_n, kNoCandidate);
    b.send.clear();
    b.send_counts.assign(std::size_t(grid.pr()), 0);
    for (std::size_t k = 0; k < b.cand.size(); ++k) {
        if (b.cand[k] == kNoCandidate) continue;
        const lindex_t v = view.outer_id(k);
        b.has[v / 64] |= std::uint64_t(1) << (v % 64);
        const int dest = int(gindex_t(v) / nb);
        if (dest == me) {
            b.own[std::size_t(gindex_t(v) - first)] = b.cand[k];
        } else {
            ++b.send_counts[std::size_t(dest)];
            b.send.push_back(b.cand[k]);
        }
    }
    comm::Communicator& col = grid.col();
    col.allgatherv(std::span<const std::uint64_t>(b.has), b.has_all, b.counts, "bfs-parents-after");
    col.alltoallv(std::span<const lindex_t>(b.send), std::span<const int>(b.send_counts), b.recv,
                  b.recv_counts, "bfs-parents-after");
}

/// Each vertex of this rank's piece takes the smallest (global id) of the candidates the
/// ranks of its grid column found, its own included: rank w's list holds one local row of
/// grid row w per column whose bit w set, in column order.
void take_smallest_candidates(const ProcessGrid& grid, const Distribution& dist,
                              detail::AfterBuffers& b, BfsResult& r) {
    const int me = grid.my_row();
    const std::size_t pr = std::size_t(grid.pr());
    const std::size_t words = b.has.size();
    b.next.assign(pr, 0);
    for (std::size_t w = 1; w < pr; ++w) {
        b.next[w] = b.next[w - 1] + std::size_t(b.recv_counts[w - 1]);
    }
    const gindex_t first = gindex_t(me) * dist.nb;
    for (std::size_t i = 0; i < b.own.size(); ++i) {
        const gindex_t v = first + gindex_t(i);
        const std::size_t word = std::size_t(v / 64);
        const std::uint64_t bit = std::uint64_t(1) << (v % 64);
        gindex_t best = -1;
        for (std::size_t w = 0; w < pr; ++w) {
            if ((b.has_all[w * words + word] & bit) == 0) continue;
            const lindex_t u = int(w) == me ? b.own[i] : b.recv[b.next[w]++];
            const gindex_t g = dist.global_row(int(w), u);
            if (best < 0 || g < best) best = g;
        }
        gindex_t& p = r.parent[i];
        if (best >= 0 && (p < 0 || best < p)) p = best;
    }
}

}  // namespace

void BfsSolver::Impl::parents_from_levels(BfsResult& r) {
    detail::AfterBuffers& b = after;
    const CompressedBlock<Pattern>& bc = a.by_col();
    const kernels::CompressedView<Pattern> view = bc.format() == LocalFormat::csr
                                                      ? kernels::make_view(bc.csr())
                                                      : kernels::make_view(bc.dcsc());
    // Every rank knows the depth (the level loop's allreduces), so all take the same path.
    if (r.levels.size() < 255) {
        const std::size_t m = r.level.size();
        b.mine.resize(m);
        b.mine_open.resize(m);
        for (std::size_t i = 0; i < m; ++i) {
            b.mine[i] = std::uint8_t(r.level[i] + 1);
            b.mine_open[i] = r.parent[i] < 0 ? b.mine[i] : std::uint8_t(0);
        }
        gather_levels(grid, dist, b.mine, true, b.row, b.counts);
        gather_levels(grid, dist, b.mine_open, false, b.col, b.counts);
        scan_candidates<std::uint8_t>(view, b.row.data(), b.col.data(), 0, b.cand);
    } else {
        std::vector<gindex_t> level_row, level_col, open(r.level);
        for (std::size_t i = 0; i < open.size(); ++i) {
            if (r.parent[i] >= 0) open[i] = -1;
        }
        detail::gather_block(grid, dist, r.level, true, level_row, -1);
        detail::gather_block(grid, dist, open, false, level_col, -1);
        scan_candidates<gindex_t>(view, level_row.data(), level_col.data(), -1, b.cand);
    }
    send_candidates(grid, dist, view, r.parent.size(), b);
    take_smallest_candidates(grid, dist, b, r);
    if (r.source >= begin && r.source < begin + gindex_t(local_n)) {
        r.parent[std::size_t(r.source - begin)] = r.source;
    }
}

}  // namespace gridblas
