// Triangle counting and local clustering coefficients (src/algorithms/triangle_count.cpp)
// against a serial count over the adjacency sets, on graph files of the peer test suite and
// on a Kronecker graph, for every grid shape, with and without the degree renumbering and
// with each local kernel; and the argument errors on every rank.

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "dist_test_util.hpp"
#include "gridblas/algorithms/triangle_count.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "reference/algo_reference.hpp"

using namespace gridblas;
using test::all_grids;

namespace {

const std::string kData = GRIDBLAS_TEST_DATA_DIR;

struct SerialTriangles {
    gindex_t total = 0;
    std::vector<gindex_t> per_vertex;
    std::vector<double> lcc;
};

// Triangles {u < v < w} by walking the adjacency sets (self-loops ignored).
SerialTriangles serial_triangles(gindex_t n, const std::vector<gindex_t>& src,
                                 const std::vector<gindex_t>& dst) {
    std::vector<std::set<gindex_t>> adj(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < src.size(); ++i) {
        if (src[i] == dst[i]) continue;
        adj[std::size_t(src[i])].insert(dst[i]);
        adj[std::size_t(dst[i])].insert(src[i]);
    }
    SerialTriangles s;
    s.per_vertex.assign(std::size_t(n), 0);
    s.lcc.assign(std::size_t(n), 0.0);
    for (gindex_t u = 0; u < n; ++u) {
        for (gindex_t v : adj[std::size_t(u)]) {
            if (v <= u) continue;
            for (gindex_t w : adj[std::size_t(v)]) {
                if (w > v && adj[std::size_t(u)].count(w)) {
                    ++s.total;
                    ++s.per_vertex[std::size_t(u)];
                    ++s.per_vertex[std::size_t(v)];
                    ++s.per_vertex[std::size_t(w)];
                }
            }
        }
    }
    for (gindex_t u = 0; u < n; ++u) {
        const double d = double(adj[std::size_t(u)].size());
        if (d >= 2)
            s.lcc[std::size_t(u)] = 2.0 * double(s.per_vertex[std::size_t(u)]) / (d * (d - 1));
    }
    return s;
}

void check_graph(const std::shared_ptr<ProcessGrid>& grid, const DistMatrix<Pattern>& a,
                 const SerialTriangles& want, const std::string& what) {
    const std::string ctx =
        what + " grid " + std::to_string(grid->pr()) + "x" + std::to_string(grid->pc());
    for (DegreeSort ps : {DegreeSort::automatic, DegreeSort::always, DegreeSort::never}) {
        for (MxmMethod m :
             {MxmMethod::automatic, MxmMethod::gustavson, MxmMethod::hash, MxmMethod::dot}) {
            TriangleOptions o;
            o.presort = ps;
            o.method = m;
            const TriangleResult r = triangle_count(a, o);
            ASSERT_EQ(r.triangles, want.total)
                << ctx << " presort " << int(ps) << " method " << int(m);
            if (ps != DegreeSort::automatic) {
                EXPECT_EQ(r.presorted, ps == DegreeSort::always) << ctx;
            }
        }
    }
    const LccResult l = local_clustering(a);
    const auto tri = test::gather_piece(*grid, a.nrows(), l.local_begin, l.triangles);
    const auto lcc = test::gather_piece(*grid, a.nrows(), l.local_begin, l.coefficient);
    ASSERT_EQ(tri, want.per_vertex) << ctx;
    for (std::size_t v = 0; v < lcc.size(); ++v) {
        ASSERT_NEAR(lcc[v], want.lcc[v], 1e-12) << ctx << " vertex " << v;
    }
}

}  // namespace

TEST(TriangleCount, FilesEveryGridEveryKernel) {
    for (const char* f : {"karate.mtx", "jagmesh7.mtx", "ldbc-undirected-example.mtx"}) {
        const auto e = test::load_edges(kData + "/" + f, false);
        const SerialTriangles want = serial_triangles(e.n, e.src, e.dst);
        ASSERT_GT(want.total, 0) << f;
        for (auto& grid : all_grids()) {
            check_graph(grid, read_graph_matrix_market(grid, kData + "/" + f), want, f);
        }
    }
}

// A skewed Kronecker graph takes the degree renumbering under `automatic`.
TEST(TriangleCount, KroneckerGraphIsRenumberedByDegree) {
    KroneckerParams kp;
    kp.scale = 10;
    kp.edgefactor = 8;
    std::vector<gindex_t> src, dst;
    kronecker_edges(kp, 0, num_edges(kp), src, dst);
    const SerialTriangles want = serial_triangles(num_vertices(kp), src, dst);
    for (auto& grid : all_grids()) {
        const auto a = kronecker_graph(grid, kp);
        const TriangleResult r = triangle_count(a);
        EXPECT_TRUE(r.presorted);
        ASSERT_EQ(r.triangles, want.total);
        check_graph(grid, a, want, "kronecker scale 10");
    }
}

// Self-loops and CSR blocks: the degree order reaches the product by
// renumbering the local block on one rank and by selection otherwise; every path must drop
// the self-loops and count each triangle once.
TEST(TriangleCount, SelfLoopsAndCsrBlocks) {
    KroneckerParams kp;
    kp.scale = 9;
    kp.edgefactor = 8;
    std::vector<gindex_t> src, dst;
    kronecker_edges(kp, 0, num_edges(kp), src, dst);
    const gindex_t n = num_vertices(kp);
    for (gindex_t v = 0; v < n; v += 7) {  // self-loops on a seventh of the vertices
        src.push_back(v);
        dst.push_back(v);
    }
    const SerialTriangles want = serial_triangles(n, src, dst);
    ASSERT_GT(want.total, 0);
    std::vector<gindex_t> rows(src), cols(dst);
    rows.insert(rows.end(), dst.begin(), dst.end());
    cols.insert(cols.end(), src.begin(), src.end());
    for (auto& grid : all_grids()) {
        // Every rank passes all tuples; keep one copy by giving them to rank 0 only.
        const bool mine = grid->world().rank() == 0;
        const std::span<const gindex_t> r =
            mine ? std::span<const gindex_t>(rows) : std::span<const gindex_t>();
        const std::span<const gindex_t> c =
            mine ? std::span<const gindex_t>(cols) : std::span<const gindex_t>();
        const ValueArray<Pattern> vals(r.size());
        for (int variant = 0; variant < 2; ++variant) {
            BuildOptions o;
            o.duplicates = DuplicatePolicy::combine;
            if (variant == 1) o.format = LocalFormat::csr;
            const auto a = DistMatrix<Pattern>::from_tuples(grid, n, n, r, c, vals, o);
            for (DegreeSort ps : {DegreeSort::always, DegreeSort::never}) {
                TriangleOptions to;
                to.presort = ps;
                EXPECT_EQ(triangle_count(a, to).triangles, want.total)
                    << "grid " << grid->pr() << "x" << grid->pc() << " variant " << variant
                    << " presort " << int(ps);
            }
        }
    }
}

TEST(TriangleCount, ArgumentErrorsOnEveryRank) {
    for (auto& grid : all_grids()) {
        std::vector<gindex_t> r, c;
        ValueArray<Pattern> v;
        const auto rect = DistMatrix<Pattern>::from_tuples(grid, 5, 7, r, c, v);
        EXPECT_THROW(triangle_count(rect), DimensionMismatch);
        EXPECT_THROW(local_clustering(rect), DimensionMismatch);
        EXPECT_THROW(triangle_count(DistMatrix<Pattern>()), InvalidValue);
    }
}
