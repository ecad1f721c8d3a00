// Parent mode "after" (after Fu, Dasari, Berzins & Thompson, "Parallel breadth first search
// on GPU clusters", IEEE BigData 2014): the bottom-up levels record levels only; afterwards
// each vertex v they found, at level L, takes as parent its smallest-id in-neighbour at level
// L - 1. (Top-down levels already set min parents: their push finds them for free, while a
// vertex found top-down has few in-neighbours one level up, so a scan for one would read
// most of its in-edges.) Each rank reads its block's in-edges with the levels of its row and
// column blocks, and the candidates go to the owners along the grid column, where the
// smallest wins.
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

namespace gridblas {

namespace {

/// The row- or column-block copy of `piece` (see gather_block), for any element type.
template <class L>
void gather_levels(ProcessGrid& grid, const Distribution& dist, const std::vector<L>& piece,
                   bool along_row, std::vector<L>& out, std::vector<int>& counts) {
    comm::Communicator& c = along_row ? grid.row() : grid.col();
    c.allgatherv(std::span<const L>(piece), out, counts, "bfs-parents-after");
    out.resize(along_row ? dist.block_rows() : dist.block_cols(), L(0));
}

/// cand[k] = the smallest row u of stored column position k whose level is the column's
/// level - 1 (levels as stored: `none` = unreached; in `lcol` also where no parent is
/// wanted), or -1. Reads each column's in-edges in
/// ascending row order and stops at the first match, in parallel over the columns.
template <class L>
void scan_candidates(const kernels::CompressedView<Pattern>& view, const L* lrow, const L* lcol,
                     L none, const Distribution& dist, int my_row, std::vector<gindex_t>& cand) {
    const std::size_t cols = view.num_outer;
    cand.assign(cols, -1);
    gindex_t* out = cand.data();
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
                out[k] = dist.global_row(my_row, u);
                break;
            }
        }
    }
}

}  // namespace

void BfsSolver::Impl::parents_from_levels(BfsResult& r) {
    AfterBuffers& b = after;
    const CompressedBlock<Pattern>& bc = a.by_col();
    const kernels::CompressedView<Pattern> view = bc.format() == LocalFormat::csr
                                                      ? kernels::make_view(bc.csr())
                                                      : kernels::make_view(bc.dcsc());
    const int my_row = grid.my_row();
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
        scan_candidates<std::uint8_t>(view, b.row.data(), b.col.data(), 0, dist, my_row, b.cand);
    } else {
        std::vector<gindex_t> level_row, level_col, open(r.level);
        for (std::size_t i = 0; i < open.size(); ++i) {
            if (r.parent[i] >= 0) open[i] = -1;
        }
        detail::gather_block(grid, dist, r.level, true, level_row, -1);
        detail::gather_block(grid, dist, open, false, level_col, -1);
        scan_candidates<gindex_t>(view, level_row.data(), level_col.data(), -1, dist, my_row,
                                  b.cand);
    }
    // Candidates to the owners along the grid column; columns ascend, so the entries come
    // out grouped by destination (grid row) in order.
    const gindex_t nb = dist.nb;
    b.send.clear();
    b.send_counts.assign(std::size_t(grid.pr()), 0);
    for (std::size_t k = 0; k < b.cand.size(); ++k) {
        if (b.cand[k] < 0) continue;
        const gindex_t v = view.outer_id(k);
        ++b.send_counts[std::size_t(v / nb)];
        b.send.push_back({lindex_t(v % nb), b.cand[k]});
    }
    grid.col().alltoallv(std::span<const detail::RoutedEntry<gindex_t>>(b.send),
                         std::span<const int>(b.send_counts), b.recv, b.recv_counts,
                         "bfs-parents-after");
    for (const auto& e : b.recv) {
        gindex_t& p = r.parent[e.index];
        if (p < 0 || e.val < p) p = e.val;
    }
    if (r.source >= begin && r.source < begin + gindex_t(local_n)) {
        r.parent[std::size_t(r.source - begin)] = r.source;
    }
}

}  // namespace gridblas
