// BFS over a matrix declared symmetric runs its levels as mxv on grids of several rows (the
// vxm otherwise): the same levels and min parents as a serial BFS, and bottom-up levels
// that read exactly the entries one rank reads — each unvisited vertex its in-edges in
// ascending order up to its first frontier neighbour — on every grid shape. Without the
// declaration the vxm's strided row blocks may read more on grids of several rows and
// columns, never fewer.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "dist_test_util.hpp"
#include "gridblas/algorithms/bfs.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "reference/bfs_reference.hpp"

using namespace gridblas;
using test::all_grids;

namespace {

/// A sparse uniform random graph (parents spread over every piece, so that the vxm's
/// strided blocks do read more on grids of several rows and columns), no self-loops, and a
/// path of 50 vertices that no search from the rest reaches.
struct Graph {
    gindex_t n = 700;
    std::vector<gindex_t> src, dst;          ///< each undirected edge once
    std::vector<std::vector<gindex_t>> adj;  ///< ascending, distinct
};

Graph make_graph() {
    Graph g;
    std::mt19937_64 rng(77);
    const gindex_t big = 650;
    std::uniform_int_distribution<gindex_t> x(0, big - 1);
    for (int k = 0; k < 2000; ++k) {
        const gindex_t u = x(rng), v = x(rng);
        if (u != v) g.src.push_back(u), g.dst.push_back(v);
    }
    for (gindex_t v = big; v + 1 < g.n; ++v) g.src.push_back(v), g.dst.push_back(v + 1);
    g.adj.resize(std::size_t(g.n));
    for (std::size_t k = 0; k < g.src.size(); ++k) {
        g.adj[std::size_t(g.src[k])].push_back(g.dst[k]);
        g.adj[std::size_t(g.dst[k])].push_back(g.src[k]);
    }
    for (auto& a : g.adj) {
        std::sort(a.begin(), a.end());
        a.erase(std::unique(a.begin(), a.end()), a.end());
    }
    return g;
}

/// Entries one rank reads in the bottom-up level after level `l`: every vertex not reached
/// by then reads its neighbours in ascending order up to the first one at level l.
std::uint64_t one_rank_bottom_up_entries(const Graph& g, const std::vector<gindex_t>& level,
                                         gindex_t l) {
    std::uint64_t entries = 0;
    for (gindex_t v = 0; v < g.n; ++v) {
        const gindex_t lv = level[std::size_t(v)];
        if (lv >= 0 && lv <= l) continue;
        for (gindex_t u : g.adj[std::size_t(v)]) {
            ++entries;
            if (level[std::size_t(u)] == l) break;
        }
    }
    return entries;
}

}  // namespace

TEST(BfsOrientation, BottomUpReadsOneRanksEntriesOnEveryGrid) {
    const Graph g = make_graph();
    std::vector<gindex_t> both_src = g.src, both_dst = g.dst;
    both_src.insert(both_src.end(), g.dst.begin(), g.dst.end());
    both_dst.insert(both_dst.end(), g.src.begin(), g.src.end());
    for (auto& grid : all_grids()) {
        const int p = grid->size();
        for (bool declared : {true, false}) {
            // Declared: the builder mirrors each edge. Not declared: both directions given.
            const auto& s = declared ? g.src : both_src;
            const auto& d = declared ? g.dst : both_dst;
            std::vector<gindex_t> ms, md;
            for (std::size_t k = 0; k < s.size(); ++k) {
                if (int(k % std::size_t(p)) == grid->rank()) ms.push_back(s[k]), md.push_back(d[k]);
            }
            GraphOptions go;
            go.symmetrize = declared;
            const auto a = graph_from_edges(grid, g.n, ms, md, go);
            ASSERT_EQ(a.symmetric_pattern(), declared);
            const bool exact = declared || grid->pr() == 1 || grid->pc() == 1;
            for (auto dir : {BfsDirection::bottom_up, BfsDirection::automatic}) {
                BfsOptions o;
                o.direction = dir;
                o.alpha = 2;
                o.beta = 4;
                BfsSolver solver(a, o);
                for (gindex_t source : {gindex_t(0), gindex_t(5), gindex_t(640), g.n - 1}) {
                    const BfsResult r = solver.run(source);
                    const auto ref = ref::serial_bfs(g.n, both_src, both_dst, source);
                    const std::string ctx = "grid " + std::to_string(grid->pr()) + "x" +
                                            std::to_string(grid->pc()) + " declared " +
                                            std::to_string(declared) + " dir " + to_string(dir) +
                                            " source " + std::to_string(source);
                    // Mismatches counted on every rank, so that all ranks fail alike and none
                    // leaves the others waiting in the next search.
                    gindex_t wrong = 0;
                    for (std::size_t k = 0; k < r.level.size(); ++k) {
                        const std::size_t v = std::size_t(r.local_begin) + k;
                        wrong += r.level[k] != ref.level[v] || r.parent[k] != ref.parent[v];
                    }
                    wrong = grid->world().allreduce(wrong, comm::ReduceOp::sum, "test");
                    EXPECT_EQ(wrong, 0) << ctx << ": vertices with a wrong level or parent";
                    int bottom_up_levels = 0;
                    for (const BfsLevelStats& st : r.levels) {
                        if (!st.bottom_up) continue;
                        ++bottom_up_levels;
                        const std::uint64_t want =
                            one_rank_bottom_up_entries(g, ref.level, gindex_t(st.level));
                        if (exact) {
                            EXPECT_EQ(st.edges_examined, want) << ctx << " level " << st.level;
                        } else {
                            EXPECT_GE(st.edges_examined, want) << ctx << " level " << st.level;
                        }
                    }
                    if (source != g.n - 1) {
                        EXPECT_GT(bottom_up_levels, 0) << ctx;
                    }
                }
            }
        }
    }
}
