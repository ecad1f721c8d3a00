// Multi-source BFS (src/algorithms/multi_source_bfs.cpp) against one serial BFS per source, on
// graph files (undirected and directed) and a Kronecker graph, for every grid shape; repeated
// sources; and the argument errors on every rank.

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "dist_test_util.hpp"
#include "gridblas/algorithms/multi_source_bfs.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "reference/algo_reference.hpp"

using namespace gridblas;
using test::all_grids;

namespace {

const std::string kData = GRIDBLAS_TEST_DATA_DIR;

// (source row, vertex) -> level, from one queue BFS per source over the edge list.
std::map<std::pair<gindex_t, gindex_t>, gindex_t> serial_levels(
    gindex_t n, const std::vector<gindex_t>& src, const std::vector<gindex_t>& dst,
    const std::vector<gindex_t>& sources) {
    std::vector<std::vector<gindex_t>> out(static_cast<std::size_t>(n));
    for (std::size_t k = 0; k < src.size(); ++k) out[std::size_t(src[k])].push_back(dst[k]);
    std::map<std::pair<gindex_t, gindex_t>, gindex_t> want;
    for (std::size_t s = 0; s < sources.size(); ++s) {
        std::vector<gindex_t> level(static_cast<std::size_t>(n), -1);
        std::deque<gindex_t> q{sources[s]};
        level[std::size_t(sources[s])] = 0;
        while (!q.empty()) {
            const gindex_t u = q.front();
            q.pop_front();
            for (gindex_t v : out[std::size_t(u)]) {
                if (level[std::size_t(v)] < 0) {
                    level[std::size_t(v)] = level[std::size_t(u)] + 1;
                    q.push_back(v);
                }
            }
        }
        for (gindex_t v = 0; v < n; ++v) {
            if (level[std::size_t(v)] >= 0) want[{gindex_t(s), v}] = level[std::size_t(v)];
        }
    }
    return want;
}

void check(const DistMatrix<Pattern>& a, const std::vector<gindex_t>& sources,
           const std::map<std::pair<gindex_t, gindex_t>, gindex_t>& want, const std::string& what) {
    const MultiSourceBfsResult r = multi_source_bfs(a, sources);
    const auto got = test::to_map(r.levels);
    ASSERT_EQ(got.size(), want.size()) << what;
    for (const auto& [key, level] : want) {
        const auto it = got.find(key);
        ASSERT_TRUE(it != got.end())
            << what << ": source row " << key.first << " vertex " << key.second << " unreached";
        ASSERT_EQ(it->second, level) << what;
    }
    gindex_t deepest = 0;
    for (const auto& [key, level] : want) deepest = std::max(deepest, level);
    EXPECT_EQ(r.depth, int(deepest)) << what;
}

}  // namespace

TEST(MultiSourceBfs, FilesEveryGrid) {
    for (auto [f, directed] : {std::pair{"karate.mtx", false}, std::pair{"west0067.mtx", true},
                               std::pair{"ldbc-directed-example.mtx", true}}) {
        const auto e = test::load_edges(kData + "/" + f, directed);
        const std::vector<gindex_t> sources{0, e.n / 2, e.n - 1, 0};
        const auto want = serial_levels(e.n, e.src, e.dst, sources);
        for (auto& grid : all_grids()) {
            GraphOptions g;
            g.symmetrize = !directed;
            const auto a = read_graph_matrix_market(grid, kData + "/" + f, g);
            check(a, sources, want,
                  std::string(f) + " grid " + std::to_string(grid->pr()) + "x" +
                      std::to_string(grid->pc()));
        }
    }
}

TEST(MultiSourceBfs, KroneckerGraph) {
    KroneckerParams kp;
    kp.scale = 9;
    kp.edgefactor = 8;
    std::vector<gindex_t> s2, d2;
    test::prepared_kronecker_edges(kp, s2, d2);
    const std::vector<gindex_t> sources{1, 7, 100, 511, 250, 3, 64, 65};
    const auto want = serial_levels(num_vertices(kp), s2, d2, sources);
    for (auto& grid : all_grids()) check(kronecker_graph(grid, kp), sources, want, "kronecker");
}

TEST(MultiSourceBfs, ArgumentErrorsOnEveryRank) {
    for (auto& grid : all_grids()) {
        KroneckerParams kp;
        kp.scale = 5;
        const auto a = kronecker_graph(grid, kp);
        EXPECT_THROW(multi_source_bfs(a, {}), InvalidValue);
        EXPECT_THROW(multi_source_bfs(a, {0, 32}), IndexOutOfBounds);
        EXPECT_THROW(multi_source_bfs(a, {-1}), IndexOutOfBounds);
    }
}
