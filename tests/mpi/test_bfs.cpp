// BFS against a serial BFS on files of the peer test suite and on synthetic graphs, for every
// grid shape of the rank count, every direction mode, parent mode and comm backend; and the
// Graph500 validator catching each kind of planted error.

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdlib>
#include <random>
#include <set>
#include <string>

#include "dist_test_util.hpp"
#include "gridblas/algorithms/bfs.hpp"
#include "gridblas/matrix/generators.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "gridblas/matrix/matrix_market.hpp"
#include "reference/bfs_reference.hpp"

using namespace gridblas;
using test::all_grids;

namespace {

const std::string kData = GRIDBLAS_TEST_DATA_DIR;

struct EdgeList {
    gindex_t n = 0;
    std::vector<gindex_t> src, dst;
};

EdgeList load(const std::string& file, bool symmetrize) {
    ReadOptions o;
    o.duplicates = DuplicatePolicy::combine;
    auto coo = read_matrix_market<Pattern>(kData + "/" + file, o);
    EdgeList e{coo.nrows, coo.rows, coo.cols};
    if (symmetrize) {
        const std::size_t m = e.src.size();
        for (std::size_t k = 0; k < m; ++k) {
            e.src.push_back(e.dst[k]);
            e.dst.push_back(e.src[k]);
        }
    }
    return e;
}

/// Gathers a BfsResult into full arrays (vertex order) on every rank.
void gather(ProcessGrid& g, const BfsResult& r, std::vector<gindex_t>& parent,
            std::vector<gindex_t>& level) {
    std::vector<gindex_t> mine, all;
    for (std::size_t k = 0; k < r.parent.size(); ++k) {
        mine.insert(mine.end(), {r.local_begin + gindex_t(k), r.parent[k], r.level[k]});
    }
    std::vector<int> counts;
    g.world().allgatherv(std::span<const gindex_t>(mine), all, counts, "test");
    parent.assign(std::size_t(r.dist.length), -2);
    level.assign(std::size_t(r.dist.length), -2);
    for (std::size_t k = 0; k + 2 < all.size(); k += 3) {
        parent[std::size_t(all[k])] = all[k + 1];
        level[std::size_t(all[k])] = all[k + 2];
    }
}

/// Runs BFS from each source in `sources` with `opt` and compares with the serial oracle.
void check_graph(const std::shared_ptr<ProcessGrid>& grid, const EdgeList& e,
                 const DistMatrix<Pattern>& a, const std::vector<gindex_t>& sources,
                 const BfsOptions& opt, const std::string& what) {
    BfsSolver solver(a, opt);
    BfsResult r;
    for (gindex_t s : sources) {
        solver.run(s, r);
        const auto ref = ref::serial_bfs(e.n, e.src, e.dst, s);
        std::vector<gindex_t> parent, level;
        gather(*grid, r, parent, level);
        const std::string ctx = what + " source " + std::to_string(s) + " grid " +
                                std::to_string(grid->pr()) + "x" + std::to_string(grid->pc()) +
                                " dir " + to_string(opt.direction) + " parents " +
                                to_string(opt.parents);
        ASSERT_EQ(level, ref.level) << ctx;
        if (opt.parents != ParentMode::any) {
            ASSERT_EQ(parent, ref.parent) << ctx;
        }
        const BfsValidation v = validate_bfs(a, r);
        ASSERT_TRUE(v.ok()) << ctx << ": " << v.summary();
        gindex_t reached = 0;
        for (gindex_t l : ref.level) reached += l >= 0;
        ASSERT_EQ(r.reached, reached) << ctx;
        // The out-degree sum the solver keeps as it records each level (the TEPS count).
        const auto& deg = solver.local_degrees();
        gindex_t degrees = 0;
        for (std::size_t k = 0; k < r.level.size(); ++k) degrees += r.level[k] >= 0 ? deg[k] : 0;
        ASSERT_EQ(r.reached_degree_sum,
                  grid->world().allreduce(degrees, comm::ReduceOp::sum, "test"))
            << ctx;
    }
}

/// The wide sweep (every direction x parent mode, every source of karate) runs when
/// GRIDBLAS_TEST_WIDE=1 (scripts/bfs-sweep.sh); CI runs a covering subset.
bool wide() {
    const char* w = std::getenv("GRIDBLAS_TEST_WIDE");
    return w != nullptr && std::string(w) == "1";
}

std::vector<BfsOptions> all_modes() {
    std::vector<BfsOptions> m;
    for (auto d : {BfsDirection::automatic, BfsDirection::top_down, BfsDirection::bottom_up}) {
        for (auto p : {ParentMode::min, ParentMode::any, ParentMode::after}) {
            // Subset: each direction once with each parent mode across the three, and "after"
            // with both directions in one search (min parents from the top-down levels, the
            // bottom-up ones recovered afterwards).
            const bool mixed_after = d == BfsDirection::automatic && p == ParentMode::after;
            if (!wide() && int(d) != int(p) && !mixed_after) continue;
            BfsOptions o;
            o.direction = d;
            o.parents = p;
            // Small graphs: make "auto" switch early so both directions run.
            o.alpha = 2;
            o.beta = 4;
            m.push_back(o);
        }
    }
    return m;
}

}  // namespace

TEST(Bfs, KarateEverySourceEveryGrid) {
    const EdgeList e = load("karate.mtx", true);
    for (auto& grid : all_grids()) {
        auto a = read_graph_matrix_market(grid, kData + "/karate.mtx");
        std::vector<gindex_t> all;
        for (gindex_t v = 0; v < e.n; v += wide() ? 1 : 5) all.push_back(v);
        BfsOptions o;
        o.alpha = 2;
        check_graph(grid, e, a, all, o, "karate");
    }
}

TEST(Bfs, FilesAllModesAllGrids) {
    struct F {
        const char* name;
        bool directed;
    };
    for (const F f :
         {F{"pushpull.mtx", false}, F{"west0067.mtx", true}, F{"ldbc-directed-example.mtx", true},
          F{"ldbc-undirected-example.mtx", false}, F{"ldbc-wcc-example.mtx", true}}) {
        const EdgeList e = load(f.name, !f.directed);
        for (auto& grid : all_grids()) {
            GraphOptions g;
            g.symmetrize = !f.directed;
            auto a = read_graph_matrix_market(grid, kData + "/" + f.name, g);
            for (const BfsOptions& o : all_modes()) {
                check_graph(grid, e, a, {0, e.n / 2, e.n - 1}, o, f.name);
            }
        }
    }
}

// A search records levels and parents in 32-bit entries and writes the result out at the end
// when every vertex id fits; GRIDBLAS_BFS_WIDE_RECORD=1 takes the path of larger graphs,
// where each level writes the result directly. Both must give the serial oracle's answer.
TEST(Bfs, WideRecordPathMatchesSerial) {
    ASSERT_EQ(setenv("GRIDBLAS_BFS_WIDE_RECORD", "1", 1), 0);
    const EdgeList e = load("ldbc-undirected-example.mtx", true);
    const EdgeList k = load("karate.mtx", true);
    for (auto& grid : all_grids()) {
        GraphOptions g;
        g.symmetrize = true;
        auto a = read_graph_matrix_market(grid, kData + "/ldbc-undirected-example.mtx", g);
        auto ak = read_graph_matrix_market(grid, kData + "/karate.mtx");
        for (const BfsOptions& o : all_modes()) {
            check_graph(grid, e, a, {0, e.n - 1}, o, "wide record");
            check_graph(grid, k, ak, {0, 33}, o, "wide record karate");
        }
    }
    unsetenv("GRIDBLAS_BFS_WIDE_RECORD");
}

TEST(Bfs, CommBackendsAndLocalFormats) {
    const EdgeList e = load("pushpull.mtx", true);
    for (auto backend : {comm::Backend::mpi, comm::Backend::butterfly, comm::Backend::ring}) {
        for (auto fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            comm::Options co;
            co.backend = backend;
            co.fanout = 3;
            // The ring runs with uncompressed messages (the bottom-up rotation's raw path).
            co.wire = backend == comm::Backend::ring ? comm::WireFormat::raw
                                                     : comm::WireFormat::automatic;
            for (auto [pr, pc] : test::grid_shapes(test::world_size())) {
                auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc, co);
                GraphOptions g;
                g.format = fmt;
                auto a = read_graph_matrix_market(grid, kData + "/pushpull.mtx", g);
                BfsOptions o;
                o.alpha = 2;
                check_graph(grid, e, a, {1, 5}, o, "pushpull/" + comm::to_string(backend));
            }
        }
    }
}

TEST(Bfs, SyntheticShapes) {
    const int p = test::world_size();
    auto make = [&](gindex_t n, std::vector<gindex_t> s, std::vector<gindex_t> d) {
        EdgeList e{n, s, d};
        const std::size_t m = s.size();
        for (std::size_t k = 0; k < m; ++k) {
            e.src.push_back(d[k]);
            e.dst.push_back(s[k]);
        }
        return e;
    };
    std::vector<std::pair<std::string, EdgeList>> graphs;
    {  // long path
        std::vector<gindex_t> s, d;
        for (gindex_t v = 0; v + 1 < 200; ++v) s.push_back(v), d.push_back(v + 1);
        graphs.emplace_back("path", make(200, s, d));
    }
    {  // star
        std::vector<gindex_t> s, d;
        for (gindex_t v = 1; v < 150; ++v) s.push_back(0), d.push_back(v);
        graphs.emplace_back("star", make(150, s, d));
    }
    {  // two components, isolated vertices, self-loops and duplicates
        std::mt19937_64 rng(42);
        std::uniform_int_distribution<gindex_t> half(0, 39);
        std::vector<gindex_t> s, d;
        for (int k = 0; k < 120; ++k) {
            const gindex_t off = (k % 2) * 50;
            s.push_back(off + half(rng));
            d.push_back(off + half(rng));
        }
        s.push_back(3), d.push_back(3);
        s.push_back(3), d.push_back(7);
        s.push_back(3), d.push_back(7);
        graphs.emplace_back("random", make(97, s, d));
    }
    graphs.emplace_back("single", make(1, {}, {}));
    graphs.emplace_back("fewer-vertices-than-ranks", make(2, {0}, {1}));
    for (auto& [name, e] : graphs) {
        for (auto& grid : all_grids()) {
            // Every rank passes the edges k with k % p == rank.
            std::vector<gindex_t> ms, md;
            for (std::size_t k = 0; k < e.src.size() / 2; ++k) {
                if (int(k) % p == grid->rank()) {
                    ms.push_back(e.src[k]);
                    md.push_back(e.dst[k]);
                }
            }
            auto a = graph_from_edges(grid, e.n, ms, md);
            for (const BfsOptions& o : all_modes()) {
                check_graph(grid, e, a, {0, e.n - 1}, o, name);
            }
        }
    }
}

TEST(Bfs, BadSourceAndEmptyGraphThrowOnEveryRank) {
    for (auto& grid : all_grids()) {
        auto a = graph_from_edges(grid, 10, {}, {});
        BfsSolver solver(a);
        EXPECT_THROW(solver.run(10), IndexOutOfBounds);
        EXPECT_THROW(solver.run(-1), IndexOutOfBounds);
        const BfsResult r = solver.run(4);  // isolated vertex: reaches itself only
        EXPECT_EQ(r.reached, 1);
        EXPECT_TRUE(validate_bfs(a, r).ok());
        auto empty = graph_from_edges(grid, 0, {}, {});
        BfsSolver s0(empty);
        EXPECT_THROW(s0.run(0), IndexOutOfBounds);
    }
}

TEST(Bfs, ValidatorCatchesPlantedErrors) {
    const EdgeList e = load("karate.mtx", true);
    for (auto& grid : all_grids()) {
        auto a = read_graph_matrix_market(grid, kData + "/karate.mtx");
        BfsSolver solver(a);
        const BfsResult good = solver.run(0);
        ASSERT_TRUE(validate_bfs(a, good).ok());
        const auto ref = ref::serial_bfs(e.n, e.src, e.dst, 0);
        // Each planting edits the entry of vertex v on its owner only.
        auto plant = [&](gindex_t v, auto&& edit) {
            BfsResult r = good;
            if (v >= r.local_begin && v < r.local_begin + gindex_t(r.parent.size())) {
                edit(r, std::size_t(v - r.local_begin));
            }
            return validate_bfs(a, r);
        };
        // Vertex 33 is at level 2 from 0 in karate; 31 is its level-1 neighbour.
        ASSERT_EQ(ref.level[33], 2);
        // A cycle: 33 -> 32 -> 33 (levels made to disagree with the parents).
        BfsResult cyc = good;
        for (gindex_t v : {32, 33}) {
            if (v >= cyc.local_begin && v < cyc.local_begin + gindex_t(cyc.parent.size())) {
                cyc.parent[std::size_t(v - cyc.local_begin)] = v == 32 ? 33 : 32;
            }
        }
        EXPECT_GT(validate_bfs(a, cyc).bad_level, 0u);
        // A wrong level.
        EXPECT_GT(
            plant(33, [](BfsResult& r, std::size_t k) { r.level[k] = 5; }).bad_level +
                plant(33, [](BfsResult& r, std::size_t k) { r.level[k] = 5; }).edge_spans_levels,
            0u);
        // A parent that is not an edge: 33's parent set to 1 (1 and 33 are not adjacent, and
        // 1 is at level 1 so only the edge rule can catch it).
        ASSERT_EQ(ref.level[1], 1);
        EXPECT_GT(plant(33, [](BfsResult& r, std::size_t k) { r.parent[k] = 1; }).parent_not_edge,
                  0u);
        // A missed vertex.
        EXPECT_GT(plant(33,
                        [](BfsResult& r, std::size_t k) {
                            r.parent[k] = -1;
                            r.level[k] = -1;
                        })
                      .missed_vertex,
                  0u);
        // An edge spanning two levels: 33 moved to level 3 with a level-2 parent (32's
        // parent is at level 1, so give 33 the parent 32 after pushing 32 down is complex;
        // instead move 31 (level 1, neighbour of 0) to level 3: edge 0-31 spans 3 levels).
        EXPECT_GT(plant(31, [](BfsResult& r, std::size_t k) { r.level[k] = 3; }).edge_spans_levels,
                  0u);
        // The root not its own parent.
        EXPECT_GT(plant(0, [](BfsResult& r, std::size_t k) { r.parent[k] = 1; }).bad_root, 0u);
    }
}

// The validator reads levels one byte each while the deepest is below 254 and in 8 bytes
// beyond: paths on both sides of that bound validate, and planted errors are caught in both
// widths (a planted level of 300 in a shallow search moves it to the wide one).
TEST(Bfs, ValidatorLevelWidthsOnDeepAndShallowSearches) {
    const int p = test::world_size();
    for (gindex_t n : {254, 255, 256, 300}) {
        for (auto& grid : all_grids()) {
            std::vector<gindex_t> s, d;
            for (gindex_t v = 0; v + 1 < n; ++v) {
                if (int(v) % p == grid->rank()) s.push_back(v), d.push_back(v + 1);
            }
            auto a = graph_from_edges(grid, n, s, d);
            BfsSolver solver(a);
            const BfsResult good = solver.run(0);
            ASSERT_EQ(good.depth, int(n)) << "path of " << n;
            EXPECT_TRUE(validate_bfs(a, good).ok()) << "path of " << n;
            // Vertex n/2 one level too deep: two levels below its parent.
            BfsResult bad = good;
            const gindex_t v = n / 2;
            if (v >= bad.local_begin && v < bad.local_begin + gindex_t(bad.level.size())) {
                bad.level[std::size_t(v - bad.local_begin)] += 1;
            }
            EXPECT_GT(validate_bfs(a, bad).bad_level, 0u) << "path of " << n;
        }
    }
    for (auto& grid : all_grids()) {
        auto a = read_graph_matrix_market(grid, kData + "/karate.mtx");
        BfsResult r = BfsSolver(a).run(0);
        if (33 >= r.local_begin && 33 < r.local_begin + gindex_t(r.level.size())) {
            r.level[std::size_t(33 - r.local_begin)] = 300;
        }
        const BfsValidation v = validate_bfs(a, r);
        EXPECT_GT(v.bad_level + v.edge_spans_levels, 0u);
    }
}

// Top-down levels that expand hubs, on two threads: the claim kernel then gives each thread
// one range of the outputs (where a block has 16,384 outputs or more: here on 1 and 2 ranks)
// and the drain records the level's vertices. The source reaches ten hubs of 4,000 random
// neighbours each, so its first level has 40,000 products from ten inputs. Against the
// serial BFS, every parent mode, forced top-down and automatic.
TEST(Bfs, HubLevelsOnTwoThreadsMatchSerial) {
    const int p = test::world_size();
    if (p > 2) {
        GTEST_SKIP() << "beyond 2 ranks every block of this 40,000-vertex graph has fewer than "
                        "16,384 outputs, so the output split this test is for is not taken "
                        "(the other tests cover those grids)";
    }
    const int saved_threads = omp_get_max_threads();
    omp_set_num_threads(2);
    const gindex_t n = 40000;
    const gindex_t source = n - 1;
    EdgeList e{n, {}, {}};
    std::mt19937_64 rng(9);
    std::uniform_int_distribution<gindex_t> any_vertex(10, n - 2);
    for (gindex_t hub = 0; hub < 10; ++hub) {
        e.src.push_back(source);
        e.dst.push_back(hub);
        for (int k = 0; k < 4000; ++k) {
            e.src.push_back(hub);
            e.dst.push_back(any_vertex(rng));
        }
    }
    for (gindex_t v = 10; v < n - 1; ++v) {
        e.src.push_back(v);
        e.dst.push_back(any_vertex(rng));
    }
    const std::size_t m = e.src.size();
    for (std::size_t k = 0; k < m; ++k) {
        e.src.push_back(e.dst[k]);
        e.dst.push_back(e.src[k]);
    }
    for (auto& grid : all_grids()) {
        std::vector<gindex_t> ms, md;
        for (std::size_t k = 0; k < m; ++k) {
            if (int(k) % p == grid->rank()) {
                ms.push_back(e.src[k]);
                md.push_back(e.dst[k]);
            }
        }
        const auto a = graph_from_edges(grid, e.n, ms, md);
        for (auto d : {BfsDirection::top_down, BfsDirection::automatic}) {
            for (auto parents : {ParentMode::min, ParentMode::any, ParentMode::after}) {
                BfsOptions o;
                o.direction = d;
                o.parents = parents;
                check_graph(grid, e, a, {source, 0}, o, "hubs on two threads");
            }
        }
    }
    omp_set_num_threads(saved_threads);
}

// The validator's rules run on several threads from 16,384 parent queries and 65,536 stored
// entries a rank: a scale-15 Kronecker search on two threads validates, and planted errors
// (a wrong level, a missed vertex) are still counted.
TEST(Bfs, ValidatorOnThreadsCatchesPlantedErrors) {
    const int saved_threads = omp_get_max_threads();
    omp_set_num_threads(2);
    KroneckerParams kp;
    kp.scale = 15;
    for (auto& grid : all_grids()) {
        const auto a = kronecker_graph(grid, kp);
        BfsSolver solver(a);
        const gindex_t root = 0;
        const BfsResult good = solver.run(root);
        ASSERT_GT(good.reached, 16384);
        EXPECT_TRUE(validate_bfs(a, good).ok());
        // Every reached vertex of this rank but the root one level deeper: each breaks the
        // level rule, and their edges to the root's level break the edge rule.
        BfsResult deeper = good;
        std::uint64_t planted = 0;
        for (std::size_t k = 0; k < deeper.level.size(); ++k) {
            if (deeper.level[k] > 0 && deeper.local_begin + gindex_t(k) != root) {
                deeper.level[k] += 1;
                ++planted;
            }
        }
        const std::uint64_t total = grid->world().allreduce(planted, comm::ReduceOp::sum, "test");
        const BfsValidation v = validate_bfs(a, deeper);
        EXPECT_GT(v.bad_level, 0u);
        EXPECT_GT(v.edge_spans_levels, 0u);
        EXPECT_LE(v.bad_level, total);
        // Every reached vertex of rank 0's piece but the root unreached.
        BfsResult missed = good;
        if (grid->rank() == 0) {
            for (std::size_t k = 0; k < missed.level.size(); ++k) {
                if (missed.local_begin + gindex_t(k) != root) {
                    missed.level[k] = -1;
                    missed.parent[k] = -1;
                }
            }
        }
        EXPECT_GT(validate_bfs(a, missed).missed_vertex, 0u);
    }
    omp_set_num_threads(saved_threads);
}

TEST(Bfs, RelabelledGraphGivesResultsInCallerIds) {
    const EdgeList e = load("karate.mtx", true);
    for (auto& grid : all_grids()) {
        GraphOptions g;
        g.relabel = true;
        g.relabel_seed = 99;
        auto a = read_graph_matrix_market(grid, kData + "/karate.mtx", g);
        ASSERT_NE(a.relabel(), nullptr);
        BfsSolver solver(a);
        for (gindex_t s : {0, 16, 33}) {
            for (auto dir : {BfsDirection::top_down, BfsDirection::bottom_up}) {
                BfsOptions o;
                o.direction = dir;
                solver.set_options(o);
                const BfsResult r = solver.run(s);
                std::vector<gindex_t> parent, level;
                gather(*grid, r, parent, level);
                EXPECT_EQ(level, ref::serial_bfs(e.n, e.src, e.dst, s).level);
                EXPECT_EQ(parent[std::size_t(s)], s);
                const BfsValidation v = validate_bfs(a, r);
                EXPECT_TRUE(v.ok()) << v.summary();
            }
        }
        // Degrees are reported in the caller's ids.
        std::set<std::pair<gindex_t, gindex_t>> edges;
        for (std::size_t k = 0; k < e.src.size(); ++k) edges.insert({e.src[k], e.dst[k]});
        std::vector<gindex_t> deg(static_cast<std::size_t>(e.n), 0);
        for (const auto& [u, v] : edges) ++deg[std::size_t(u)];
        DistVector<Pattern> shape(grid, e.n);
        for (std::size_t k = 0; k < solver.local_degrees().size(); ++k) {
            EXPECT_EQ(solver.local_degrees()[k], deg[std::size_t(shape.local_begin()) + k]);
        }
    }
}

namespace {
class BfsOnBackend : public ::testing::TestWithParam<ExecBackend> {};
}  // namespace

// The same searches on the cpu and cuda execution backends (the cuda case skips, saying why,
// where a rank has no device): undirected and directed files, both local formats, every grid
// shape, every direction x parent mode of all_modes().
TEST_P(BfsOnBackend, FilesFormatsModesMatchSerial) {
    struct F {
        const char* name;
        bool directed;
    };
    for (const F f : {F{"karate.mtx", false}, F{"west0067.mtx", true}, F{"pushpull.mtx", false}}) {
        const EdgeList e = load(f.name, !f.directed);
        for (auto fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            for (auto [pr, pc] : test::grid_shapes(test::world_size())) {
                auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc);
                const std::string why = test::try_exec_backend(*grid, GetParam());
                if (!why.empty()) GTEST_SKIP() << why;
                GraphOptions g;
                g.symmetrize = !f.directed;
                g.format = fmt;
                auto a = read_graph_matrix_market(grid, kData + "/" + f.name, g);
                for (const BfsOptions& o : all_modes()) {
                    check_graph(grid, e, a, {0, e.n / 2, e.n - 1}, o,
                                std::string(f.name) + "/" + to_string(GetParam()));
                }
            }
        }
    }
}

// Fewer vertices than the rank count makes empty pieces (7 vertices on 6 ranks: pieces of
// 2, 2, 2, 1, 0, 0) and short last pieces, in both local formats.
TEST_P(BfsOnBackend, TinyGraphsWithEmptyPieces) {
    for (gindex_t n : {gindex_t(7), gindex_t(3)}) {
        EdgeList e{n, {}, {}};
        for (gindex_t v = 0; v + 1 < n; ++v) {
            e.src.push_back(v), e.dst.push_back(v + 1);
            e.src.push_back(v + 1), e.dst.push_back(v);
        }
        e.src.push_back(0), e.dst.push_back(n - 1);
        e.src.push_back(n - 1), e.dst.push_back(0);
        for (auto fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            for (auto [pr, pc] : test::grid_shapes(test::world_size())) {
                auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc);
                const std::string why = test::try_exec_backend(*grid, GetParam());
                if (!why.empty()) GTEST_SKIP() << why;
                std::vector<gindex_t> ms, md;
                if (grid->rank() == 0) ms = e.src, md = e.dst;
                GraphOptions g;
                g.format = fmt;
                auto a = graph_from_edges(grid, n, ms, md, g);
                for (const BfsOptions& o : all_modes()) {
                    check_graph(grid, e, a, {0, n - 1}, o, "ring" + std::to_string(n));
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, BfsOnBackend, ::testing::ValuesIn(test::exec_backends()),
                         [](const auto& info) { return to_string(info.param); });
