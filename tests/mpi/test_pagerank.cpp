// PageRank (LDBC Graphalytics definition) against a serial power iteration on files of the
// peer test suite and on generated graphs, every grid shape; the tolerance stop; argument
// errors on every rank.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dist_test_util.hpp"
#include "gridblas/algorithms/pagerank.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "reference/algo_reference.hpp"

using namespace gridblas;
using test::all_grids;

namespace {

const std::string kData = GRIDBLAS_TEST_DATA_DIR;

void check(ProcessGrid& grid, const DistMatrix<Pattern>& a, const test::WeightedEdges& e,
           int iterations, const std::string& what) {
    PageRankOptions o;
    o.iterations = iterations;
    const PageRankResult r = pagerank(a, o);
    const auto got = test::gather_piece(grid, e.n, r.local_begin, r.rank);
    const auto want = test::serial_pagerank(e, 0.85, iterations);
    const std::string ctx =
        what + " grid " + std::to_string(grid.pr()) + "x" + std::to_string(grid.pc());
    ASSERT_EQ(r.iterations, iterations) << ctx;
    double sum = 0.0;
    for (std::size_t v = 0; v < want.size(); ++v) {
        ASSERT_NEAR(got[v], want[v], 1e-12) << ctx << " vertex " << v;
        sum += got[v];
    }
    EXPECT_NEAR(sum, 1.0, 1e-9) << ctx;  // dangling rank is redistributed, not lost
}

}  // namespace

TEST(PageRank, FilesEveryGrid) {
    struct F {
        const char* name;
        bool directed;
    };
    for (const F f : {F{"karate.mtx", false}, F{"ldbc-directed-example.mtx", true},
                      F{"ldbc-undirected-example.mtx", false}, F{"west0067.mtx", true},
                      F{"ldbc-cdlp-directed-example.mtx", true}}) {
        const auto e = test::load_edges(kData + "/" + f.name, f.directed);
        for (auto& grid : all_grids()) {
            GraphOptions g;
            g.symmetrize = !f.directed;
            auto a = read_graph_matrix_market(grid, kData + "/" + f.name, g);
            check(*grid, a, e, 30, f.name);
        }
    }
}

TEST(PageRank, DirectedUniformGraphWithDanglingVertices) {
    UniformParams up;
    up.num_vertices = 257;
    up.num_edges = 600;
    up.seed = 3;
    std::vector<gindex_t> s, d;
    uniform_edges(up, 0, up.num_edges, s, d);
    test::WeightedEdges e;
    e.n = up.num_vertices;
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (s[k] == d[k]) continue;
        e.src.push_back(s[k]), e.dst.push_back(d[k]), e.w.push_back(1.0);
    }
    for (auto& grid : all_grids()) {
        GraphOptions g;
        g.symmetrize = false;
        auto a = uniform_graph(grid, up, g);
        check(*grid, a, e, 25, "uniform directed");
    }
}

TEST(PageRank, ToleranceStopsEarly) {
    for (auto& grid : all_grids()) {
        auto a = read_graph_matrix_market(grid, kData + "/karate.mtx");
        PageRankOptions o;
        o.iterations = 1000;
        o.tolerance = 1e-10;
        const PageRankResult r = pagerank(a, o);
        EXPECT_LT(r.iterations, 1000);
        EXPECT_LE(r.residual, 1e-10);
        // One more iteration barely moves it: the fixed point was reached.
        o.iterations = r.iterations + 1;
        o.tolerance = 0;
        const PageRankResult r2 = pagerank(a, o);
        EXPECT_LE(r2.residual, 1e-10);
    }
}

TEST(PageRank, ErrorsOnEveryRank) {
    for (auto& grid : all_grids()) {
        auto a = read_graph_matrix_market(grid, kData + "/karate.mtx");
        PageRankOptions o;
        o.damping = 1.5;
        EXPECT_THROW(pagerank(a, o), InvalidValue);
        o = {};
        o.iterations = -1;
        EXPECT_THROW(pagerank(a, o), InvalidValue);
        std::vector<gindex_t> r, c;  // one edge 0 -> 1, held by rank 0
        if (grid->rank() == 0) r.push_back(0), c.push_back(1);
        auto rect =
            DistMatrix<Pattern>::from_tuples(grid, 3, 4, r, c, ValueArray<Pattern>(r.size()));
        EXPECT_THROW(pagerank(rect), DimensionMismatch);
        if (!test::try_exec_backend(*grid, ExecBackend::cuda).empty()) continue;
        EXPECT_THROW(pagerank(a), NotSupported);
        grid->set_exec_backend(ExecBackend::cpu);
    }
}

TEST(PageRank, EdgelessGraphWithEmptyPieces) {
    // Every vertex dangling; n below the rank count leaves some ranks without vertices.
    for (gindex_t n : {1, 3}) {
        test::WeightedEdges e;
        e.n = n;
        for (auto& grid : all_grids()) {
            auto a = graph_from_edges(grid, n, {}, {});
            check(*grid, a, e, 5, "edgeless " + std::to_string(n));
        }
    }
}
