// Connected components (with subgraph sampling, and FastSV alone) against a serial union-find
// on files of the peer test suite and on synthetic graphs, for every grid shape of the rank
// count; weakly connected components of directed graphs; graphs with a giant component
// among many small ones and isolated vertices; argument errors on every rank.

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
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

// Checks the options given and, unless they say so already, FastSV alone.
void check(ProcessGrid& grid, const DistMatrix<Pattern>& a, const test::WeightedEdges& e,
           const CcOptions& o, const std::string& what) {
    const auto want = test::serial_components(e);
    const std::set<gindex_t> labels(want.begin(), want.end());
    std::vector<int> samples{o.sample_neighbors};
    if (o.sample_neighbors != 0) samples.push_back(0);
    for (int s : samples) {
        CcOptions os = o;
        os.sample_neighbors = s;
        const CcResult r = connected_components(a, os);
        const auto got = test::gather_piece(grid, e.n, r.local_begin, r.component);
        const std::string ctx = what + " grid " + std::to_string(grid.pr()) + "x" +
                                std::to_string(grid.pc()) + " samples " + std::to_string(s);
        ASSERT_EQ(got, want) << ctx;
        EXPECT_EQ(r.components, gindex_t(labels.size())) << ctx;
        EXPECT_GE(r.iterations, 1) << ctx;
    }
}

void add_edge(test::WeightedEdges& e, gindex_t u, gindex_t v, bool both) {
    e.src.push_back(u), e.dst.push_back(v), e.w.push_back(1.0);
    if (both) e.src.push_back(v), e.dst.push_back(u), e.w.push_back(1.0);
}

// A giant component over most vertices (random edges among them), many small components
// (paths and stars of 2 to 6 vertices) and isolated vertices, all under a random relabelling
// so that the ids of every kind interleave; with `both`, every edge in both directions.
test::WeightedEdges giant_and_small(gindex_t n, std::uint64_t seed, bool both) {
    std::mt19937_64 rng(seed);
    std::vector<gindex_t> id(static_cast<std::size_t>(n));
    std::iota(id.begin(), id.end(), gindex_t(0));
    std::shuffle(id.begin(), id.end(), rng);
    test::WeightedEdges e;
    e.n = n;
    const gindex_t giant = n * 6 / 10, small_end = n * 9 / 10;  // the rest isolated
    std::uniform_int_distribution<gindex_t> in_giant(0, giant - 1);
    for (gindex_t v = 1; v < giant; ++v) {  // a random tree keeps the giant connected
        add_edge(e, id[std::size_t(v)],
                 id[std::size_t(std::uniform_int_distribution<gindex_t>(0, v - 1)(rng))], both);
    }
    for (gindex_t k = 0; k < 2 * giant; ++k) {
        const gindex_t u = in_giant(rng), v = in_giant(rng);
        if (u != v) add_edge(e, id[std::size_t(u)], id[std::size_t(v)], both);
    }
    for (gindex_t v = giant; v < small_end;) {
        const gindex_t len = std::min<gindex_t>(2 + gindex_t(rng() % 5), small_end - v);
        const bool star = rng() % 2 == 0;
        for (gindex_t k = 1; k < len; ++k) {
            add_edge(e, id[std::size_t(star ? v : v + k - 1)], id[std::size_t(v + k)], both);
        }
        v += len;
    }
    return e;
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
        {
            auto sq =
                DistMatrix<Pattern>::from_tuples(grid, 4, 4, r, c, ValueArray<Pattern>(r.size()));
            CcOptions o;
            o.sample_neighbors = -1;
            EXPECT_THROW(connected_components(sq, o), InvalidValue);
        }
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

TEST(ConnectedComponents, GiantAndSmallComponentsEveryGrid) {
    for (std::uint64_t seed : {1, 2, 3}) {
        const gindex_t n = 500 + gindex_t(seed) * 77;
        const auto e = giant_and_small(n, seed, true);
        for (auto& grid : all_grids()) {
            GraphOptions g;
            g.symmetrize = false;  // e holds both directions
            if (seed == 2) g.format = LocalFormat::csr;
            auto a = graph_from_edges(grid, e.n, e.src, e.dst, g);
            for (int s : {1, 2, 5}) {
                CcOptions o;
                o.sample_neighbors = s;
                check(*grid, a, e, o, "giant seed " + std::to_string(seed));
            }
        }
    }
}

TEST(ConnectedComponents, GiantAndSmallDirectedGiveWeakComponents) {
    for (std::uint64_t seed : {4, 5}) {
        const auto e = giant_and_small(640, seed, false);
        for (auto& grid : all_grids()) {
            GraphOptions g;
            g.symmetrize = false;
            auto a = graph_from_edges(grid, e.n, e.src, e.dst, g);
            CcOptions o;
            o.symmetric = false;
            check(*grid, a, e, o, "directed giant seed " + std::to_string(seed));
        }
    }
}

TEST(ConnectedComponents, NoGiantComponentAndLongPaths) {
    // Only small components (the sampled label is one of them), then two long paths whose
    // ids run against the order in which the rows are read.
    for (int kind = 0; kind < 2; ++kind) {
        test::WeightedEdges e;
        e.n = 420;
        if (kind == 0) {
            for (gindex_t v = 0; v + 1 < e.n; ++v) {
                if (v % 7 != 6) add_edge(e, v, v + 1, true);
            }
        } else {
            for (gindex_t v = e.n - 1; v > e.n / 2; --v) add_edge(e, v, v - 1, true);
            for (gindex_t v = 0; v + 2 < e.n / 2; v += 2) add_edge(e, v, v + 2, true);
        }
        for (auto& grid : all_grids()) {
            GraphOptions g;
            g.symmetrize = false;
            auto a = graph_from_edges(grid, e.n, e.src, e.dst, g);
            check(*grid, a, e, {}, "paths " + std::to_string(kind));
        }
    }
}
