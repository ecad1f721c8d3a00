// BFS over a matrix declared symmetric runs its levels as mxv on grids of several rows (the
// vxm otherwise): the same levels and min parents as a serial BFS, and bottom-up levels
// that read exactly the entries one rank reads — each unvisited vertex its in-edges in
// ascending order up to its first frontier neighbour — on every grid shape. Without the
// declaration the vxm's strided row blocks may read more on grids of several rows and
// columns, never fewer. A directed graph stored by column (its transpose, searched with
// BfsOptions::edges = by_column) runs every level as mxv and reads exactly one rank's
// entries on every grid too, in every parent mode; validate_bfs follows the layout.

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
/// by then reads its in-neighbours (`in_adj`, ascending) up to the first one at level l.
std::uint64_t one_rank_bottom_up_entries(const std::vector<std::vector<gindex_t>>& in_adj,
                                         const std::vector<gindex_t>& level, gindex_t l) {
    std::uint64_t entries = 0;
    for (std::size_t v = 0; v < in_adj.size(); ++v) {
        const gindex_t lv = level[v];
        if (lv >= 0 && lv <= l) continue;
        for (gindex_t u : in_adj[v]) {
            ++entries;
            if (level[std::size_t(u)] == l) break;
        }
    }
    return entries;
}

/// This rank's share (every p-th) of the edges.
void my_share(const ProcessGrid& grid, const std::vector<gindex_t>& s,
              const std::vector<gindex_t>& d, std::vector<gindex_t>& ms,
              std::vector<gindex_t>& md) {
    const std::size_t p = std::size_t(grid.size());
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (int(k % p) == grid.rank()) ms.push_back(s[k]), md.push_back(d[k]);
    }
}

/// Vertices whose level or parent differs from the reference, summed over the ranks (so
/// that every rank fails alike and none is left waiting in the next search).
gindex_t count_wrong(ProcessGrid& grid, const BfsResult& r, const ref::SerialBfs& want,
                     bool check_parents) {
    gindex_t wrong = 0;
    for (std::size_t k = 0; k < r.level.size(); ++k) {
        const std::size_t v = std::size_t(r.local_begin) + k;
        wrong += r.level[k] != want.level[v] || (check_parents && r.parent[k] != want.parent[v]);
    }
    return grid.world().allreduce(wrong, comm::ReduceOp::sum, "test");
}

}  // namespace

TEST(BfsOrientation, BottomUpReadsOneRanksEntriesOnEveryGrid) {
    const Graph g = make_graph();
    std::vector<gindex_t> both_src = g.src, both_dst = g.dst;
    both_src.insert(both_src.end(), g.dst.begin(), g.dst.end());
    both_dst.insert(both_dst.end(), g.src.begin(), g.src.end());
    for (auto& grid : all_grids()) {
        for (bool declared : {true, false}) {
            // Declared: the builder mirrors each edge. Not declared: both directions given.
            const auto& s = declared ? g.src : both_src;
            const auto& d = declared ? g.dst : both_dst;
            std::vector<gindex_t> ms, md;
            my_share(*grid, s, d, ms, md);
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
                    EXPECT_EQ(count_wrong(*grid, r, ref, true), 0)
                        << ctx << ": vertices with a wrong level or parent";
                    int bottom_up_levels = 0;
                    for (const BfsLevelStats& st : r.levels) {
                        // The largest rank's reading lies between the mean and the total.
                        EXPECT_LE(st.edges_examined_max_rank, st.edges_examined)
                            << ctx << " level " << st.level;
                        EXPECT_GE(st.edges_examined_max_rank * std::uint64_t(grid->size()),
                                  st.edges_examined)
                            << ctx << " level " << st.level;
                        if (grid->size() == 1) {
                            EXPECT_EQ(st.edges_examined_max_rank, st.edges_examined)
                                << ctx << " level " << st.level;
                        }
                        if (!st.bottom_up) continue;
                        ++bottom_up_levels;
                        const std::uint64_t want =
                            one_rank_bottom_up_entries(g.adj, ref.level, gindex_t(st.level));
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

TEST(BfsOrientation, DirectedGraphByColumnReadsOneRanksEntriesOnEveryGrid) {
    // The random graph's edges as arcs u -> v only, and the path's arcs forward.
    const Graph g = make_graph();
    std::vector<std::vector<gindex_t>> in_adj(std::size_t(g.n));
    for (std::size_t k = 0; k < g.src.size(); ++k)
        in_adj[std::size_t(g.dst[k])].push_back(g.src[k]);
    std::vector<gindex_t> out_degree(std::size_t(g.n), 0);
    for (auto& l : in_adj) {
        std::sort(l.begin(), l.end());
        l.erase(std::unique(l.begin(), l.end()), l.end());
        for (gindex_t u : l) ++out_degree[std::size_t(u)];
    }
    for (auto& grid : all_grids()) {
        std::vector<gindex_t> ms, md;
        my_share(*grid, g.src, g.dst, ms, md);
        for (EdgeLayout layout : {EdgeLayout::by_row, EdgeLayout::by_column}) {
            GraphOptions go;
            go.symmetrize = false;
            go.transpose = layout == EdgeLayout::by_column;
            const auto a = graph_from_edges(grid, g.n, ms, md, go);
            const bool exact =
                layout == EdgeLayout::by_column || grid->pr() == 1 || grid->pc() == 1;
            for (ParentMode parents : {ParentMode::min, ParentMode::any, ParentMode::after}) {
                BfsOptions o;
                o.direction = BfsDirection::automatic;
                o.alpha = 2;
                o.beta = 4;
                o.parents = parents;
                o.edges = layout;
                BfsSolver solver(a, o);
                grid->row().reset_counters();
                grid->col().reset_counters();
                for (gindex_t source : {gindex_t(0), gindex_t(5), gindex_t(640)}) {
                    const BfsResult r = solver.run(source);
                    const auto ref = ref::serial_bfs(g.n, g.src, g.dst, source);
                    const std::string ctx = "grid " + std::to_string(grid->pr()) + "x" +
                                            std::to_string(grid->pc()) + " layout " +
                                            to_string(layout) + " parents " + to_string(parents) +
                                            " source " + std::to_string(source);
                    // min and after give the smallest-id parent; any some parent, which the
                    // validation checks.
                    EXPECT_EQ(count_wrong(*grid, r, ref, parents != ParentMode::any), 0)
                        << ctx << ": vertices with a wrong level or parent";
                    const BfsValidation v = validate_bfs(a, r, layout);
                    EXPECT_TRUE(v.ok()) << ctx << ": " << v.summary();
                    gindex_t degrees = 0;  // the TEPS count: out-degrees of the reached vertices
                    for (std::size_t u = 0; u < out_degree.size(); ++u)
                        degrees += ref.level[u] >= 0 ? out_degree[u] : 0;
                    EXPECT_EQ(r.reached_degree_sum, degrees) << ctx;
                    if (parents != ParentMode::min) continue;
                    int bottom_up_levels = 0;
                    for (const BfsLevelStats& st : r.levels) {
                        if (!st.bottom_up) continue;
                        ++bottom_up_levels;
                        const std::uint64_t want =
                            one_rank_bottom_up_entries(in_adj, ref.level, gindex_t(st.level));
                        if (exact) {
                            EXPECT_EQ(st.edges_examined, want) << ctx << " level " << st.level;
                        } else {
                            EXPECT_GE(st.edges_examined, want) << ctx << " level " << st.level;
                        }
                    }
                    EXPECT_GT(bottom_up_levels, 0) << ctx;
                }
                // "after" recovers parents only where the bottom-up levels' input blocks
                // interleave (by row on a grid of several rows and columns); elsewhere the
                // search finds min parents at any's cost and runs as min.
                if (parents == ParentMode::after) {
                    const bool recovered = grid->row().counters().contains("bfs-parents-after") ||
                                           grid->col().counters().contains("bfs-parents-after");
                    EXPECT_EQ(recovered, !exact)
                        << "grid " << grid->pr() << "x" << grid->pc() << " layout "
                        << to_string(layout) << ": recovery pass "
                        << (recovered ? "ran" : "did not run");
                }
            }
        }
    }
}

TEST(BfsOrientation, ValidationAndOptionsFollowTheLayout) {
    // A directed chain 0 -> 1 -> ... -> n-1 stored by column: searched by column it reaches
    // every vertex; validated as if stored by row, its tree edges are missing from the graph.
    const gindex_t n = 40;
    for (auto& grid : all_grids()) {
        std::vector<gindex_t> s, d, ms, md;
        for (gindex_t v = 0; v + 1 < n; ++v) s.push_back(v), d.push_back(v + 1);
        my_share(*grid, s, d, ms, md);
        GraphOptions go;
        go.symmetrize = false;
        go.transpose = true;
        const auto a = graph_from_edges(grid, n, ms, md, go);
        BfsOptions o;
        o.edges = EdgeLayout::by_column;
        BfsSolver solver(a, o);
        const BfsResult r = solver.run(0);
        EXPECT_EQ(r.reached, n);
        EXPECT_TRUE(validate_bfs(a, r, EdgeLayout::by_column).ok());
        const BfsValidation wrong = validate_bfs(a, r, EdgeLayout::by_row);
        EXPECT_EQ(wrong.parent_not_edge, std::uint64_t(n - 1)) << wrong.summary();
        // Searched as stored by row, the same matrix is the reversed chain: 0 reaches nothing.
        EXPECT_EQ(bfs(a, 0).reached, 1);
        // The layout is fixed when the solver is built, on every rank alike.
        BfsOptions other = o;
        other.edges = EdgeLayout::by_row;
        EXPECT_THROW(solver.set_options(other), InvalidValue);
        other = o;
        other.parents = ParentMode::any;
        EXPECT_NO_THROW(solver.set_options(other));
    }
}

TEST(BfsOrientation, ByColumnIsRefusedOnACudaGrid) {
    auto grid = ProcessGrid::create(MPI_COMM_WORLD);
    const std::string why = test::try_exec_backend(*grid, ExecBackend::cuda);
    if (!why.empty()) GTEST_SKIP() << why;
    GraphOptions go;
    go.symmetrize = false;
    go.transpose = true;
    std::vector<gindex_t> s, d;
    if (grid->rank() == 0) s = {0, 1}, d = {1, 2};
    const auto a = graph_from_edges(grid, 3, s, d, go);
    BfsOptions o;
    o.edges = EdgeLayout::by_column;
    // Refused on every rank, before any collective.
    EXPECT_THROW(BfsSolver(a, o), NotSupported);
}
