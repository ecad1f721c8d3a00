// Batched betweenness centrality (src/algorithms/betweenness.cpp) against a serial Brandes
// over the edge list (queue BFS, path counts, dependencies in reverse BFS order), on
// undirected and directed graph files and a Kronecker graph, for every grid shape; and the
// argument errors on every rank.

#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <string>
#include <vector>

#include "dist_test_util.hpp"
#include "gridblas/algorithms/betweenness.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "reference/algo_reference.hpp"

using namespace gridblas;
using test::all_grids;

namespace {

const std::string kData = GRIDBLAS_TEST_DATA_DIR;

// Σ over sources of Brandes' dependency δ_s(v), halved when `undirected`. Duplicate edges in
// the list are dropped (the library's graphs have none).
std::vector<double> serial_brandes(gindex_t n, const std::vector<gindex_t>& src,
                                   const std::vector<gindex_t>& dst,
                                   const std::vector<gindex_t>& sources, bool undirected) {
    std::vector<std::vector<gindex_t>> out(static_cast<std::size_t>(n));
    for (std::size_t k = 0; k < src.size(); ++k) out[std::size_t(src[k])].push_back(dst[k]);
    for (auto& o : out) {
        std::sort(o.begin(), o.end());
        o.erase(std::unique(o.begin(), o.end()), o.end());
    }
    std::vector<double> bc(static_cast<std::size_t>(n), 0.0);
    for (gindex_t s : sources) {
        std::vector<gindex_t> dist(static_cast<std::size_t>(n), -1), order;
        std::vector<double> sigma(static_cast<std::size_t>(n), 0.0), delta(sigma);
        dist[std::size_t(s)] = 0;
        sigma[std::size_t(s)] = 1;
        std::deque<gindex_t> q{s};
        while (!q.empty()) {
            const gindex_t u = q.front();
            q.pop_front();
            order.push_back(u);
            for (gindex_t v : out[std::size_t(u)]) {
                if (dist[std::size_t(v)] < 0) {
                    dist[std::size_t(v)] = dist[std::size_t(u)] + 1;
                    q.push_back(v);
                }
                if (dist[std::size_t(v)] == dist[std::size_t(u)] + 1) {
                    sigma[std::size_t(v)] += sigma[std::size_t(u)];
                }
            }
        }
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const gindex_t u = *it;
            for (gindex_t v : out[std::size_t(u)]) {
                if (dist[std::size_t(v)] == dist[std::size_t(u)] + 1) {
                    delta[std::size_t(u)] += sigma[std::size_t(u)] / sigma[std::size_t(v)] *
                                             (1.0 + delta[std::size_t(v)]);
                }
            }
            if (u != s) bc[std::size_t(u)] += delta[std::size_t(u)];
        }
    }
    if (undirected) {
        for (double& x : bc) x *= 0.5;
    }
    return bc;
}

void check(ProcessGrid& grid, const DistMatrix<Pattern>& a, const std::vector<gindex_t>& sources,
           bool undirected, const std::vector<double>& want, const std::string& what) {
    BcOptions o;
    o.symmetric = undirected;
    const BcResult r = betweenness_centrality(a, sources, o);
    const auto got = test::gather_piece(grid, a.nrows(), r.local_begin, r.centrality);
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t v = 0; v < want.size(); ++v) {
        ASSERT_NEAR(got[v], want[v], 1e-9 * std::max(1.0, std::abs(want[v])))
            << what << " vertex " << v;
    }
}

}  // namespace

TEST(Betweenness, FilesEveryGrid) {
    for (auto [f, directed] :
         {std::pair{"karate.mtx", false}, std::pair{"jagmesh7.mtx", false},
          std::pair{"west0067.mtx", true}, std::pair{"ldbc-directed-example.mtx", true}}) {
        const auto e = test::load_edges(kData + "/" + f, directed);
        const std::vector<gindex_t> sources{0, e.n / 3, e.n / 2, e.n - 1};
        const auto want = serial_brandes(e.n, e.src, e.dst, sources, !directed);
        for (auto& grid : all_grids()) {
            GraphOptions g;
            g.symmetrize = !directed;
            const auto a = read_graph_matrix_market(grid, kData + "/" + f, g);
            check(*grid, a, sources, !directed, want,
                  std::string(f) + " grid " + std::to_string(grid->pr()) + "x" +
                      std::to_string(grid->pc()));
        }
    }
}

TEST(Betweenness, KroneckerGraph) {
    KroneckerParams kp;
    kp.scale = 9;
    kp.edgefactor = 8;
    std::vector<gindex_t> s2, d2;
    test::prepared_kronecker_edges(kp, s2, d2);
    const std::vector<gindex_t> sources{1, 7, 100, 511, 250, 3};
    const auto want = serial_brandes(num_vertices(kp), s2, d2, sources, true);
    for (auto& grid : all_grids()) {
        check(*grid, kronecker_graph(grid, kp), sources, true, want, "kronecker");
    }
}

TEST(Betweenness, ArgumentErrorsOnEveryRank) {
    for (auto& grid : all_grids()) {
        KroneckerParams kp;
        kp.scale = 5;
        const auto a = kronecker_graph(grid, kp);
        EXPECT_THROW(betweenness_centrality(a, {}), InvalidValue);
        EXPECT_THROW(betweenness_centrality(a, {3, 32}), IndexOutOfBounds);
        std::vector<gindex_t> r, c;
        ValueArray<Pattern> v;
        const auto rect = DistMatrix<Pattern>::from_tuples(grid, 4, 6, r, c, v);
        EXPECT_THROW(betweenness_centrality(rect, {0}), DimensionMismatch);
    }
}
