// The single-GPU BFS against a serial BFS: levels equal, parents the smallest in-neighbour one
// level up, statistics consistent, for top-down, bottom-up and direction-optimizing runs on
// random, Kronecker (skewed, with rows longer than a warp), path, star and disconnected
// graphs, and on a directed graph through the transpose. Skips without a device.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda/cuda_test_util.hpp"
#include "gridblas/cuda/bfs.hpp"
#include "gridblas/matrix/generators.hpp"

namespace {

using namespace gridblas;

struct NamedGraph {
    std::string name;
    Csr<Pattern> g;
    bool symmetric = true;
};

std::vector<NamedGraph> graphs() {
    std::vector<NamedGraph> out;
    out.push_back({"random", ct::random_graph(3000, 9000, 1, true)});
    {
        KroneckerParams p;
        p.scale = 11;
        p.edgefactor = 8;
        p.seed = 5;
        std::vector<gindex_t> s, d;
        kronecker_edges(p, 0, num_edges(p), s, d);
        std::vector<lindex_t> s32(s.begin(), s.end()), d32(d.begin(), d.end());
        out.push_back(
            {"kronecker-11", ct::graph_from_edges(lindex_t(num_vertices(p)), s32, d32, true)});
    }
    {
        std::vector<lindex_t> s, d;
        for (lindex_t v = 0; v + 1 < 400; ++v) {
            s.push_back(v);
            d.push_back(v + 1);
        }
        out.push_back({"path", ct::graph_from_edges(400, s, d, true)});
    }
    {
        std::vector<lindex_t> s, d;
        for (lindex_t v = 1; v < 5000; ++v) {
            s.push_back(0);
            d.push_back(v);
        }
        out.push_back({"star", ct::graph_from_edges(5000, s, d, true)});
    }
    {
        // Parents far into long rows (the parents kernel scans 32 entries a round): from
        // source 0, vertex 100 is reached through 99 and 150 (both level 1), and its other
        // in-neighbours 1..98 only through 100; so the smallest parent sits at position 98
        // of a row of 100. Vertex 199 (the third source) joins through 150.
        std::vector<lindex_t> s, d;
        for (lindex_t v = 1; v < 99; ++v) {
            s.push_back(100);
            d.push_back(v);
        }
        for (lindex_t v : {99, 150}) {
            s.push_back(0);
            d.push_back(v);
            s.push_back(v);
            d.push_back(100);
        }
        s.push_back(150);
        d.push_back(199);
        out.push_back({"late-parent", ct::graph_from_edges(200, s, d, true)});
    }
    {
        // Two random components: vertices < 500 and >= 500 never meet.
        std::mt19937_64 rng(9);
        std::vector<lindex_t> s, d;
        for (int k = 0; k < 3000; ++k) {
            const lindex_t base = (k % 2) ? 500 : 0;
            s.push_back(base + lindex_t(rng() % 500));
            d.push_back(base + lindex_t(rng() % 500));
        }
        out.push_back({"two-components", ct::graph_from_edges(1000, s, d, true)});
    }
    out.push_back({"directed", ct::random_graph(2000, 5000, 3, false), false});
    return out;
}

void check_run(const NamedGraph& ng, const cuda::BfsGpuResult& r, lindex_t source) {
    const auto expected = ct::serial_bfs(ng.g, source);
    const auto& level = expected.level;
    ASSERT_EQ(r.level, level);
    EXPECT_EQ(r.parent, expected.parent);
    const gindex_t reached =
        gindex_t(std::count_if(level.begin(), level.end(), [](gindex_t l) { return l >= 0; }));
    EXPECT_EQ(r.reached, reached);
    const gindex_t max_level = *std::max_element(level.begin(), level.end());
    EXPECT_EQ(r.depth, int(max_level + 1));
    ASSERT_EQ(r.levels.size(), std::size_t(r.depth));
    gindex_t discovered = 1;
    for (const auto& ls : r.levels) discovered += ls.discovered;
    EXPECT_EQ(discovered, reached);
    EXPECT_EQ(r.source, gindex_t(source));
}

TEST(CudaBfs, MatchesSerialBfsInEveryDirection) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    for (const NamedGraph& ng : graphs()) {
        for (BfsDirection dir :
             {BfsDirection::top_down, BfsDirection::bottom_up, BfsDirection::automatic}) {
            cuda::BfsGpuOptions opt;
            opt.direction = dir;
            opt.symmetric = ng.symmetric;
            cuda::BfsGpuSolver solver(ng.g, opt);
            cuda::BfsGpuResult r;
            for (lindex_t source :
                 {lindex_t(0), lindex_t(ng.g.nrows() / 2), lindex_t(ng.g.nrows() - 1)}) {
                SCOPED_TRACE(ng.name + ", " + to_string(dir) + ", source " +
                             std::to_string(source));
                solver.run(source, r);  // the same solver and result, reused
                check_run(ng, r, source);
                for (const auto& ls : r.levels) {
                    if (dir != BfsDirection::automatic) {
                        EXPECT_EQ(ls.bottom_up, dir == BfsDirection::bottom_up);
                    }
                }
            }
        }
    }
}

TEST(CudaBfs, SwitchesDirectionBothWays) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    // A star (centre 0, leaves 1..4999) with a path of 200 vertices hanging off leaf 1. From
    // the centre: the first level's out-edges are most of the graph (-> bottom-up), the
    // frontier then collapses to the path's first vertex (-> top-down along the path).
    std::vector<lindex_t> s, d;
    for (lindex_t v = 1; v < 5000; ++v) {
        s.push_back(0);
        d.push_back(v);
    }
    for (lindex_t v = 5000; v < 5200; ++v) {
        s.push_back(v == 5000 ? 1 : v - 1);
        d.push_back(v);
    }
    const auto g = ct::graph_from_edges(5200, s, d, true);
    cuda::BfsGpuOptions opt;
    opt.alpha = 2.0;
    opt.beta = 1.0;  // leave bottom-up as soon as the frontier shrinks
    cuda::BfsGpuSolver solver(g, opt);
    const auto r = solver.run(0);
    check_run({"star+path", g, true}, r, 0);
    ASSERT_GE(r.levels.size(), 3u);
    EXPECT_TRUE(r.levels[0].bottom_up);
    EXPECT_TRUE(r.levels[1].bottom_up);
    EXPECT_FALSE(r.levels[2].bottom_up);
}

TEST(CudaBfs, OneShotAndErrors) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    const auto g = ct::random_graph(100, 300, 2, true);
    const auto r = cuda::bfs_single_gpu(g, 5);
    check_run({"small", g, true}, r, 5);
    cuda::BfsGpuSolver solver(g);
    EXPECT_THROW(solver.run(-1), IndexOutOfBounds);
    EXPECT_THROW(solver.run(100), IndexOutOfBounds);
    // An isolated vertex: only itself is reached.
    const auto lonely = Csr<Pattern>(3, 3);
    const auto r1 = cuda::bfs_single_gpu(lonely, 1);
    EXPECT_EQ(r1.level, (std::vector<gindex_t>{-1, 0, -1}));
    EXPECT_EQ(r1.parent, (std::vector<gindex_t>{-1, 1, -1}));
    EXPECT_EQ(r1.depth, 1);
}

TEST(CudaBfs, DirectedGraphUsesInEdgesForParents) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    // 0 -> 1 -> 2, 0 -> 3, 3 -> 2, 2 -> 0: from 0, vertex 2 is at level 2 with parents 1 or 3.
    const std::vector<lindex_t> s{0, 1, 0, 3, 2}, d{1, 2, 3, 2, 0};
    const auto g = ct::graph_from_edges(4, s, d, false);
    cuda::BfsGpuOptions opt;
    opt.symmetric = false;
    opt.direction = BfsDirection::bottom_up;
    const auto r = cuda::bfs_single_gpu(g, 0, opt);
    EXPECT_EQ(r.level, (std::vector<gindex_t>{0, 1, 2, 1}));
    EXPECT_EQ(r.parent, (std::vector<gindex_t>{0, 0, 1, 0}));
}

}  // namespace
