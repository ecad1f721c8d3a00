// Parent mode "after" (after Fu, Dasari, Berzins & Thompson, "Parallel breadth first search
// on GPU clusters", IEEE BigData 2014): the search records levels only; afterwards each
// vertex v at level L > 0 takes as parent its smallest-id in-neighbour at level L - 1. Each
// rank reads its block's in-edges with the levels of its row and column blocks, and the
// candidates go to the owners along the grid column, where the smallest wins.

#include <omp.h>

#include <algorithm>

#include "bfs/bfs_impl.hpp"
#include "bfs/levels_gather.hpp"
#include "gridblas/kernels/cpu/view.hpp"

namespace gridblas {

void BfsSolver::Impl::parents_from_levels(BfsResult& r) {
    std::vector<gindex_t> level_row, level_col;
    detail::gather_block(grid, dist, r.level, true, level_row, -1);
    detail::gather_block(grid, dist, r.level, false, level_col, -1);
    const gindex_t nb = dist.nb;
    const int my_row = grid.my_row();

    // Each stored column v of the block (in-edges of v) with level L > 0 reads its in-edges in
    // ascending row order until the first one at level L - 1: that is this block's smallest
    // candidate, so the read stops there (an early exit, as in a bottom-up step). Parallel
    // over the columns; cand[k] is column position k's candidate or -1.
    const CompressedBlock<Pattern>& bc = a.by_col();
    const kernels::CompressedView<Pattern> view = bc.format() == LocalFormat::csr
                                                      ? kernels::make_view(bc.csr())
                                                      : kernels::make_view(bc.dcsc());
    std::vector<gindex_t> cand(view.num_outer, -1);
    const std::size_t cols = view.num_outer;
    const int threads = cols >= (std::size_t(1) << 14) ? omp_get_max_threads() : 1;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) if (threads > 1)
    for (std::size_t k = 0; k < cols; ++k) {
        const gindex_t lv = level_col[view.outer_id(k)];
        if (lv <= 0) continue;
        for (offset_t p = view.ptr[k]; p < view.ptr[k + 1]; ++p) {
            const lindex_t u = view.inner[p];
            if (level_row[u] == lv - 1) {
                cand[k] = dist.global_row(my_row, u);
                break;
            }
        }
    }
    // Candidates per destination (grid row of the column communicator); columns ascend, so
    // each destination's list comes out ascending.
    std::vector<std::vector<detail::RoutedEntry<gindex_t>>> out(std::size_t(grid.pr()));
    for (std::size_t k = 0; k < cols; ++k) {
        if (cand[k] < 0) continue;
        const lindex_t v = view.outer_id(k);
        out[std::size_t(gindex_t(v) / nb)].push_back({lindex_t(gindex_t(v) % nb), cand[k]});
    }
    std::vector<detail::RoutedEntry<gindex_t>> send, recv;
    std::vector<int> counts, recv_counts;
    for (auto& o : out) {
        counts.push_back(int(o.size()));
        send.insert(send.end(), o.begin(), o.end());
    }
    grid.col().alltoallv(std::span<const detail::RoutedEntry<gindex_t>>(send),
                         std::span<const int>(counts), recv, recv_counts, "bfs-parents-after");
    for (const auto& e : recv) {
        gindex_t& p = r.parent[e.index];
        if (p < 0 || e.val < p) p = e.val;
    }
    if (r.source >= begin && r.source < begin + gindex_t(local_n)) {
        r.parent[std::size_t(r.source - begin)] = r.source;
    }
}

}  // namespace gridblas
