// gridblas-baseline-graphblas-mxm: the SuiteSparse:GraphBLAS (Davis 2019) comparison point of
// gridblas-mxm-bench. On the same Kronecker graph (gridblas' generator, self-loops dropped,
// symmetrised) it times, after one warm-up, GrB_mxm for C = A·A and C = A·Aᵀ over
// GxB_PLUS_PAIR_INT64, and the masked product of triangle counting, C⟨L, structural⟩ = L·U
// with L = tril(A, -1) and U = triu(A, 1), on the graph renumbered by ascending degree when
// its degrees are skewed (the rule and the order of gridblas' triangle_count). Every product
// is followed by GrB_Matrix_wait so that the time includes finishing it.

// GraphBLAS.h of SuiteSparse:GraphBLAS 7 declares its C functions without extern "C".
extern "C" {
#include <GraphBLAS.h>
}

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/graph500_stats.hpp"
#include "common/graphblas_graph.hpp"
#include "common/mxm_options.hpp"
#include "gridblas/algorithms/triangle_count.hpp"

namespace {

using gridblas::bench::build_graph;
using gridblas::bench::Graph;
using gridblas::bench::now;

const char* kHelp = R"(gridblas-baseline-graphblas-mxm: mxm products on SuiteSparse:GraphBLAS

  --scale S          2^S vertices (default 16)
  --edgefactor E     edges per vertex (default 16)
  --seed X           generator seed (default 1)
  --products LIST    comma-separated: aa, aat, tc (default all)
  --presort P        tc: auto | always | never (default auto)
  --trials N         timed runs after one warm-up (default 3)
  --threads T        GraphBLAS / OpenMP threads (default: all)
  --help
)";

/// A renumbered by ascending (degree, id), with gridblas' triangle_count's own numbering.
GrB_Matrix renumber_by_degree(const Graph& g) {
    const std::vector<gridblas::gindex_t> new_id = gridblas::detail::ids_by_degree(g.host_degree);
    GrB_Index nz = g.entries;
    std::vector<GrB_Index> r(nz), c(nz);
    std::unique_ptr<bool[]> v(new bool[nz]);
    CHECK_GRB(GrB_Matrix_extractTuples_BOOL(r.data(), c.data(), v.get(), &nz, g.a));
    for (GrB_Index k = 0; k < nz; ++k) {
        r[k] = GrB_Index(new_id[r[k]]);
        c[k] = GrB_Index(new_id[c[k]]);
    }
    GrB_Matrix b = nullptr;
    CHECK_GRB(GrB_Matrix_new(&b, GrB_BOOL, g.n, g.n));
    CHECK_GRB(GrB_Matrix_build_BOOL(b, r.data(), c.data(), v.get(), nz, GrB_LOR));
    CHECK_GRB(GrB_Matrix_wait(b, GrB_MATERIALIZE));
    return b;
}

int run(int argc, char** argv) {
    gridblas::bench::Cli cli(
        argc, argv, {"scale", "edgefactor", "seed", "products", "presort", "trials", "threads"},
        {"help"});
    if (cli.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const gridblas::KroneckerParams kp = gridblas::bench::kronecker_options(cli);
    const int trials = int(cli.integer("trials", 3, 1, 1 << 20));
    const gridblas::DegreeSort presort =
        gridblas::bench::parse_degree_sort(cli.str("presort", "auto"));
    std::vector<std::string> products;
    {
        std::stringstream ss(cli.str("products", "aa,aat,tc"));
        for (std::string p; std::getline(ss, p, ',');) {
            if (p != "aa" && p != "aat" && p != "tc") {
                throw std::invalid_argument("option --products: '" + p + "'");
            }
            products.push_back(p);
        }
    }
    gridblas::bench::start_graphblas(cli);
    double gen_s = 0, build_s = 0;
    Graph g = build_graph(kp, gen_s, build_s);
    std::printf("graph: kronecker scale %d edgefactor %d, %llu vertices, %llu stored entries\n",
                kp.scale, kp.edgefactor, (unsigned long long)g.n, (unsigned long long)g.entries);
    std::printf("SuiteSparse:GraphBLAS %d.%d.%d threads: %d trials: %d\n", GxB_IMPLEMENTATION_MAJOR,
                GxB_IMPLEMENTATION_MINOR, GxB_IMPLEMENTATION_SUB, omp_get_max_threads(), trials);
    std::printf("%-5s %12s %12s %14s\n", "prod", "mean_s", "min_s", "nvals");
    for (const std::string& p : products) {
        std::vector<double> times;
        GrB_Index nvals = 0;
        std::int64_t triangles = 0;
        GrB_Matrix l = nullptr, u = nullptr, sorted = nullptr;
        if (p == "tc") {
            const bool sort = presort == gridblas::DegreeSort::always ||
                              (presort == gridblas::DegreeSort::automatic &&
                               gridblas::detail::degrees_skewed(g.host_degree));
            if (sort) sorted = renumber_by_degree(g);
            GrB_Matrix src = sort ? sorted : g.a;
            CHECK_GRB(GrB_Matrix_new(&l, GrB_BOOL, g.n, g.n));
            CHECK_GRB(GrB_Matrix_new(&u, GrB_BOOL, g.n, g.n));
            CHECK_GRB(GrB_Matrix_select_INT64(l, nullptr, nullptr, GrB_TRIL, src, -1, nullptr));
            CHECK_GRB(GrB_Matrix_select_INT64(u, nullptr, nullptr, GrB_TRIU, src, 1, nullptr));
            CHECK_GRB(GrB_Matrix_wait(l, GrB_MATERIALIZE));
            CHECK_GRB(GrB_Matrix_wait(u, GrB_MATERIALIZE));
        }
        for (int k = 0; k <= trials; ++k) {
            GrB_Matrix c = nullptr;
            CHECK_GRB(GrB_Matrix_new(&c, GrB_INT64, g.n, g.n));
            const double t0 = now();
            if (p == "tc") {
                CHECK_GRB(GrB_mxm(c, l, nullptr, GxB_PLUS_PAIR_INT64, l, u, GrB_DESC_S));
            } else {
                CHECK_GRB(GrB_mxm(c, nullptr, nullptr, GxB_PLUS_PAIR_INT64, g.a, g.a,
                                  p == "aat" ? GrB_DESC_T1 : nullptr));
            }
            CHECK_GRB(GrB_Matrix_wait(c, GrB_MATERIALIZE));
            const double t = now() - t0;
            if (k > 0) times.push_back(t);
            CHECK_GRB(GrB_Matrix_nvals(&nvals, c));
            if (p == "tc") {
                CHECK_GRB(GrB_Matrix_reduce_INT64(&triangles, nullptr, GrB_PLUS_MONOID_INT64, c,
                                                  nullptr));
            }
            GrB_Matrix_free(&c);
        }
        const gridblas::bench::Summary s = gridblas::bench::summarize(times);
        std::printf("%-5s %12.6f %12.6f %14llu\n", p.c_str(), s.mean, s.min,
                    (unsigned long long)nvals);
        if (p == "tc") std::printf("triangles: %lld\n", (long long)triangles);
        if (l) GrB_Matrix_free(&l);
        if (u) GrB_Matrix_free(&u);
        if (sorted) GrB_Matrix_free(&sorted);
    }
    GrB_Matrix_free(&g.a);
    GrB_Vector_free(&g.degree);
    CHECK_GRB(GrB_finalize());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::guarded_main("gridblas-baseline-graphblas-mxm", run, argc, argv);
}
