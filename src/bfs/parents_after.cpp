// Parent mode "after" (seed 004, Fu et al.): the search records levels only; afterwards each
// vertex v at level L > 0 takes as parent its smallest-id in-neighbour at level L - 1. Each
// rank reads its block's in-edges with the levels of its row and column blocks, and the
// candidates go to the owners along the grid column, where the smallest wins.

#include <algorithm>

#include "bfs/bfs_impl.hpp"
#include "bfs/levels_gather.hpp"

namespace gridblas {

void BfsSolver::Impl::parents_from_levels(BfsResult& r) {
    std::vector<gindex_t> level_row, level_col;
    detail::gather_block(grid, dist, r.level, true, level_row, -1);
    detail::gather_block(grid, dist, r.level, false, level_col, -1);
    const gindex_t nb = dist.nb;
    const int my_row = grid.my_row();

    // Candidates per destination (grid row of the column communicator).
    std::vector<std::vector<detail::RoutedEntry<gindex_t>>> out(std::size_t(grid.pr()));
    a.by_col().for_each([&](lindex_t v, lindex_t u, Pattern) {
        const gindex_t lv = level_col[v];
        if (lv <= 0 || level_row[u] != lv - 1) return;
        auto& dest = out[std::size_t(gindex_t(v) / nb)];
        const lindex_t vp = lindex_t(gindex_t(v) % nb);
        const gindex_t p = dist.global_row(my_row, u);
        // Inner ids ascend within a column, so the first match is this block's smallest.
        if (!dest.empty() && dest.back().index == vp) return;
        dest.push_back({vp, p});
    });
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
