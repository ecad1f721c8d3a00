// SSSP (delta-stepping) against a serial Dijkstra on the weighted files of the peer test
// suite and on weighted Kronecker graphs, every grid shape and several bucket widths; the
// validator accepting every result and catching planted errors; argument errors.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "dist_test_util.hpp"
#include "gridblas/algorithms/sssp.hpp"
#include "gridblas/matrix/weighted_graphs.hpp"
#include "reference/algo_reference.hpp"

using namespace gridblas;
using test::all_grids;

namespace {

const std::string kData = GRIDBLAS_TEST_DATA_DIR;
constexpr double kInf = std::numeric_limits<double>::infinity();

void check(ProcessGrid& grid, const DistMatrix<double>& a, const test::WeightedEdges& e,
           gindex_t source, double delta, const std::string& what) {
    SsspOptions o;
    o.delta = delta;
    const SsspResult r = sssp(a, source, o);
    const auto dist = test::gather_piece(grid, e.n, r.local_begin, r.distance);
    const auto parent = test::gather_piece(grid, e.n, r.local_begin, r.parent);
    const auto [want_d, want_p] = test::serial_dijkstra(e, source);
    const std::string ctx = what + " source " + std::to_string(source) + " delta " +
                            std::to_string(delta) + " grid " + std::to_string(grid.pr()) + "x" +
                            std::to_string(grid.pc());
    ASSERT_EQ(dist, want_d) << ctx;
    ASSERT_EQ(parent, want_p) << ctx;
    gindex_t reached = 0;
    for (double x : want_d) reached += x != kInf;
    EXPECT_EQ(r.reached, reached) << ctx;
    const SsspValidation v = validate_sssp(a, r);
    EXPECT_TRUE(v.ok()) << ctx << ": " << v.summary();
    // Distances only: the same distances, no parents, and valid as such.
    o.parents = false;
    const SsspResult rd = sssp(a, source, o);
    EXPECT_FALSE(rd.has_parents) << ctx;
    EXPECT_TRUE(rd.parent.empty()) << ctx;
    EXPECT_EQ(rd.distance, r.distance) << ctx;
    const SsspValidation vd = validate_sssp(a, rd);
    EXPECT_TRUE(vd.ok()) << ctx << " without parents: " << vd.summary();
}

}  // namespace

TEST(Sssp, WeightedFilesEveryGrid) {
    struct F {
        const char* name;
        bool directed;
    };
    for (const F f :
         {F{"ldbc-directed-example.mtx", true}, F{"ldbc-undirected-example.mtx", false},
          F{"west0067.mtx", true}, F{"ldbc-wcc-example.mtx", false}, F{"karate.mtx", false}}) {
        auto e = test::load_edges(kData + "/" + f.name, f.directed);
        // west0067 holds negative values: shortest paths need positive weights.
        for (double& w : e.w) w = std::abs(w);
        for (auto& grid : all_grids()) {
            GraphOptions g;
            g.symmetrize = !f.directed;
            auto a = read_weighted_graph_matrix_market(grid, kData + "/" + f.name, g);
            a = apply(a, [](double w) { return std::abs(w); });
            // 1e-6 puts most buckets beyond the ring of pending buckets (sssp_buckets.hpp),
            // in its ordered map.
            for (double delta : {0.0, 0.25, 1e-6, kInf}) {
                check(*grid, a, e, 0, delta, f.name);
                check(*grid, a, e, e.n - 1, delta, f.name);
            }
        }
    }
}

namespace {

/// The weighted Kronecker graph of weighted_kronecker_graph(kp) as a serial edge list (both
/// directions, self-loops dropped), each weight passed through `f`; two of its vertices in
/// `sources`.
template <class F>
test::WeightedEdges kronecker_weighted_edges(const KroneckerParams& kp, F f,
                                             std::vector<gindex_t>& sources) {
    std::vector<gindex_t> s, d;
    kronecker_edges(kp, 0, num_edges(kp), s, d);
    test::WeightedEdges e;
    e.n = num_vertices(kp);
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (s[k] == d[k]) continue;
        const double w = f(kronecker_edge_weight(kp.seed, k));
        e.src.push_back(s[k]), e.dst.push_back(d[k]), e.w.push_back(w);
        e.src.push_back(d[k]), e.dst.push_back(s[k]), e.w.push_back(w);
    }
    sources = {s[0], d[5]};
    return e;
}

}  // namespace

TEST(Sssp, WeightedKroneckerEveryGrid) {
    KroneckerParams kp;
    kp.scale = 8;
    kp.edgefactor = 8;
    std::vector<gindex_t> sources;
    const test::WeightedEdges e = kronecker_weighted_edges(
        kp, [](double w) { return w; }, sources);
    for (const double w : e.w) {
        ASSERT_GT(w, 0.0);
        ASSERT_LT(w, 1.0);
    }
    for (auto& grid : all_grids()) {
        auto a = weighted_kronecker_graph(grid, kp);
        for (gindex_t src : sources) check(*grid, a, e, src, 0.0, "kronecker 8");
    }
}

// Float weights: integer weights in [1, 255] keep every sum exact in float, so the float
// search must give Dijkstra's distances and parents exactly; its validator must accept the
// result and catch a planted error; a weight that is not finite as a float is refused.
TEST(Sssp, FloatWeightsEveryGrid) {
    KroneckerParams kp;
    kp.scale = 8;
    kp.edgefactor = 8;
    const auto integer_weight = [](double w) { return 1.0 + std::floor(w * 255.0); };
    std::vector<gindex_t> sources;
    const test::WeightedEdges e = kronecker_weighted_edges(kp, integer_weight, sources);
    for (auto& grid : all_grids()) {
        const auto ad = weighted_kronecker_graph(grid, kp);
        const DistMatrix<float> a = apply(ad, [&](double w) { return float(integer_weight(w)); });
        for (gindex_t src : sources) {
            const std::string ctx = "source " + std::to_string(src) + " grid " +
                                    std::to_string(grid->pr()) + "x" + std::to_string(grid->pc());
            // The parent rides in the label during the search: with ties everywhere (integer
            // weights), every bucket width must give the smallest-id parent, as Dijkstra's
            // reference picks it — narrow buckets, the default, wide ones, and one bucket
            // (Bellman-Ford, where a vertex is expanded at several distances).
            const auto [want_d, want_p] = test::serial_dijkstra(e, src);
            for (const double delta : {1.0, 3.5, 40.0, kInf}) {
                SsspOptions o;
                o.delta = delta;
                const SsspResult rd = sssp(a, src, o);
                ASSERT_EQ(test::gather_piece(*grid, e.n, rd.local_begin, rd.distance), want_d)
                    << ctx << " delta " << delta;
                ASSERT_EQ(test::gather_piece(*grid, e.n, rd.local_begin, rd.parent), want_p)
                    << ctx << " delta " << delta;
            }
            SsspResult r = sssp(a, src);
            const auto dist = test::gather_piece(*grid, e.n, r.local_begin, r.distance);
            const auto parent = test::gather_piece(*grid, e.n, r.local_begin, r.parent);
            ASSERT_EQ(dist, want_d) << ctx;
            ASSERT_EQ(parent, want_p) << ctx;
            EXPECT_TRUE(validate_sssp(a, r).ok()) << ctx;
            // One reached vertex other than the source claims a distance one too small: its
            // parent edge no longer gives it, on whichever rank owns it.
            std::size_t planted = 0;
            for (std::size_t k = 0; k < r.distance.size() && planted == 0; ++k) {
                if (r.distance[k] != kInf && r.local_begin + gindex_t(k) != src) {
                    r.distance[k] -= 1.0;
                    planted = 1;
                }
            }
            const gindex_t any =
                grid->world().allreduce(gindex_t(planted), comm::ReduceOp::sum, "test");
            ASSERT_GT(any, 0) << ctx;
            EXPECT_FALSE(validate_sssp(a, r).ok()) << ctx;
        }
        const DistMatrix<float> huge = apply(ad, [](double) { return float(1e39); });  // inf
        EXPECT_THROW(sssp(huge, 0), InvalidValue);
    }
}

TEST(Sssp, ValidatorCatchesPlantedErrors) {
    const auto e = test::load_edges(kData + "/ldbc-undirected-example.mtx", false);
    for (auto& grid : all_grids()) {
        auto a = read_weighted_graph_matrix_market(grid, kData + "/ldbc-undirected-example.mtx");
        const SsspResult good = sssp(a, 0);
        ASSERT_TRUE(validate_sssp(a, good).ok());
        // The owner of vertex 4 plants each error in turn.
        const gindex_t v = 4;
        const bool mine =
            v >= good.local_begin && v < good.local_begin + gindex_t(good.distance.size());
        const auto k = std::size_t(v - good.local_begin);
        SsspResult r = good;
        if (mine) r.distance[k] += 0.5;  // too long: an edge relaxes it, no parent gives it
        EXPECT_FALSE(validate_sssp(a, r).ok());
        r = good;
        if (mine) r.parent[k] = v;  // a parent without that edge
        EXPECT_GT(validate_sssp(a, r).bad_parent, 0u);
        r = good;
        if (mine) r.parent[k] = -1;  // reached without a parent
        EXPECT_GT(validate_sssp(a, r).inconsistent, 0u);
        r = good;
        if (mine) r.distance[k] = kInf, r.parent[k] = -1;  // reachable but unreached
        EXPECT_GT(validate_sssp(a, r).edge_relaxes, 0u);
        // Without parents: a distance no in-edge gives, and one an edge relaxes.
        SsspOptions no_parents;
        no_parents.parents = false;
        const SsspResult dist_only = sssp(a, 0, no_parents);
        ASSERT_TRUE(validate_sssp(a, dist_only).ok());
        r = dist_only;
        if (mine) r.distance[k] -= 0.25;
        EXPECT_GT(validate_sssp(a, r).bad_parent, 0u);
        r = dist_only;
        if (mine) r.distance[k] += 0.25;
        EXPECT_GT(validate_sssp(a, r).edge_relaxes, 0u);
        // Parents on some ranks only: every rank throws instead of waiting in a gather.
        if (grid->size() > 1) {
            r = grid->rank() == 0 ? dist_only : good;
            EXPECT_THROW(validate_sssp(a, r), InvalidValue);
        }
    }
}

TEST(Sssp, ErrorsOnEveryRank) {
    for (auto& grid : all_grids()) {
        auto a = read_weighted_graph_matrix_market(grid, kData + "/ldbc-directed-example.mtx");
        EXPECT_THROW(sssp(a, -1), IndexOutOfBounds);
        EXPECT_THROW(sssp(a, a.nrows()), IndexOutOfBounds);
        SsspOptions o;
        o.delta = -1;
        EXPECT_THROW(sssp(a, 0, o), InvalidValue);
        auto neg = apply(a, [](double w) { return w - 0.5; });  // some weights <= 0
        EXPECT_THROW(sssp(neg, 0), InvalidValue);
        if (!test::try_exec_backend(*grid, ExecBackend::cuda).empty()) continue;
        EXPECT_THROW(sssp(a, 0), NotSupported);
        grid->set_exec_backend(ExecBackend::cpu);
    }
}

TEST(Sssp, TinyGraphsWithEmptyPieces) {
    // n below the rank count leaves some ranks without vertices.
    for (gindex_t n : {1, 3, 5}) {
        test::WeightedEdges e;
        e.n = n;
        if (n == 5) e.src = {4, 2, 2}, e.dst = {2, 0, 3}, e.w = {0.5, 2.0, 1.0};
        for (auto& grid : all_grids()) {
            ValueArray<double> w;
            std::vector<gindex_t> s, d;
            if (grid->rank() == 0) {
                s = e.src, d = e.dst;
                for (double x : e.w) w.push_back(x);
            }
            auto a = DistMatrix<double>::from_tuples(grid, n, n, s, d, w);
            check(*grid, a, e, n - 1, 0.0, "tiny " + std::to_string(n));
        }
    }
}
