// Connected components (FastSV) against a serial union-find on files of the peer test suite
// and on synthetic graphs, for every grid shape of the rank count; weakly connected
// components of directed graphs; argument errors on every rank.

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "dist_test_util.hpp"
#include "gridblas/algorithms/connected_components.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "reference/algo_reference.hpp"

using namespace gridblas;
using test::all_grids;

namespace {

const std::string kData = GRIDBLAS_TEST_DATA_DIR;

void check(ProcessGrid& grid, const DistMatrix<Pattern>& a, const test::WeightedEdges& e,
           const CcOptions& o, const std::string& what) {
    const CcResult r = connected_components(a, o);
    const auto got = test::gather_piece(grid, e.n, r.local_begin, r.component);
    const auto want = test::serial_components(e);
    const std::string ctx =
        what + " grid " + std::to_string(grid.pr()) + "x" + std::to_string(grid.pc());
    ASSERT_EQ(got, want) << ctx;
    const std::set<gindex_t> labels(want.begin(), want.end());
    EXPECT_EQ(r.components, gindex_t(labels.size())) << ctx;
    EXPECT_GE(r.iterations, 1) << ctx;
}

}  // namespace

TEST(ConnectedComponents, FilesEveryGrid) {
    for (const char* f : {"karate.mtx", "ldbc-wcc-example.mtx", "ldbc-undirected-example.mtx",
                          "west0067.mtx", "jagmesh7.mtx", "msf1.mtx"}) {
        const auto e = test::load_edges(kData + "/" + f, false);
        for (auto& grid : all_grids()) {
            auto a = read_graph_matrix_market(grid, kData + "/" + f);
            check(*grid, a, e, {}, f);
        }
    }
}

TEST(ConnectedComponents, DirectedFilesGiveWeakComponents) {
    for (const char* f :
         {"ldbc-directed-example.mtx", "west0067.mtx", "ldbc-cdlp-directed-example.mtx"}) {
        const auto e = test::load_edges(kData + "/" + f, true);
        for (auto& grid : all_grids()) {
            GraphOptions g;
            g.symmetrize = false;
            auto a = read_graph_matrix_market(grid, kData + "/" + f, g);
            CcOptions o;
            o.symmetric = false;
            check(*grid, a, e, o, f);
        }
    }
}

TEST(ConnectedComponents, SyntheticGraphsEveryGrid) {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 4; ++trial) {
        // Several random clusters with ids interleaved, a long path, isolated vertices.
        test::WeightedEdges e;
        e.n = 300 + 37 * trial;
        std::uniform_int_distribution<gindex_t> any(0, e.n - 1);
        const int clusters = 3 + trial;
        for (int k = 0; k < 200; ++k) {
            const gindex_t u = any(rng);
            gindex_t v = any(rng);
            v = v - v % clusters + u % clusters;  // same cluster as u
            if (v >= e.n || u == v) continue;
            e.src.push_back(u), e.dst.push_back(v), e.w.push_back(1.0);
            e.src.push_back(v), e.dst.push_back(u), e.w.push_back(1.0);
        }
        for (gindex_t v = e.n - 1; v > e.n - 60; --v) {  // a path walking down the ids
            e.src.push_back(v), e.dst.push_back(v - 1), e.w.push_back(1.0);
            e.src.push_back(v - 1), e.dst.push_back(v), e.w.push_back(1.0);
        }
        for (auto& grid : all_grids()) {
            GraphOptions g;
            g.symmetrize = false;  // e already holds both directions
            auto a = graph_from_edges(grid, e.n, e.src, e.dst, g);
            check(*grid, a, e, {}, "synthetic " + std::to_string(trial));
        }
    }
}

TEST(ConnectedComponents, KroneckerEveryGrid) {
    KroneckerParams kp;
    kp.scale = 9;
    kp.edgefactor = 4;
    std::vector<gindex_t> s, d;
    kronecker_edges(kp, 0, num_edges(kp), s, d);
    test::WeightedEdges e;
    e.n = num_vertices(kp);
    for (std::size_t k = 0; k < s.size(); ++k) {
        e.src.push_back(s[k]), e.dst.push_back(d[k]), e.w.push_back(1.0);
        e.src.push_back(d[k]), e.dst.push_back(s[k]), e.w.push_back(1.0);
    }
    for (auto& grid : all_grids()) {
        auto a = kronecker_graph(grid, kp);
        check(*grid, a, e, {}, "kronecker 9");
    }
}

TEST(ConnectedComponents, ErrorsOnEveryRank) {
    for (auto& grid : all_grids()) {
        std::vector<gindex_t> r, c;  // one edge 0 -> 1, held by rank 0
        if (grid->rank() == 0) r.push_back(0), c.push_back(1);
        auto rect =
            DistMatrix<Pattern>::from_tuples(grid, 3, 4, r, c, ValueArray<Pattern>(r.size()));
        EXPECT_THROW(connected_components(rect), DimensionMismatch);
        std::string why = test::try_exec_backend(*grid, ExecBackend::cuda);
        if (!why.empty()) continue;  // no device on every rank: the cpu checks above suffice
        auto sq = DistMatrix<Pattern>::from_tuples(grid, 4, 4, r, c, ValueArray<Pattern>(r.size()));
        EXPECT_THROW(connected_components(sq), NotSupported);
        grid->set_exec_backend(ExecBackend::cpu);
    }
}

TEST(ConnectedComponents, TinyGraphsWithEmptyPieces) {
    // n below the rank count leaves some ranks without vertices.
    for (gindex_t n : {1, 3, 5}) {
        test::WeightedEdges e;
        e.n = n;
        if (n == 5) {
            e.src = {4, 2}, e.dst = {2, 4}, e.w = {1.0, 1.0};
        }
        for (auto& grid : all_grids()) {
            GraphOptions g;
            g.symmetrize = false;
            auto a = graph_from_edges(grid, n, e.src, e.dst, g);
            check(*grid, a, e, {}, "tiny " + std::to_string(n));
        }
    }
}
