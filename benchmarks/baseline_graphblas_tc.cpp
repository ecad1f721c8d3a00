// gridblas-baseline-graphblas-tc: the whole triangle count on SuiteSparse:GraphBLAS, the
// comparison point of `gridblas-graph tc` on the same Matrix Market file. It is the
// Sandia "LUT" count that LAGraph ships (Wolf, Deveci, Berry, Hammond & Rajamanickam, "Fast
// linear algebra-based triangle counting with KokkosKernels", HPEC 2017), written with
// GraphBLAS calls since LAGraph has no Debian package. Each timed run does all of it:
//   d = A's row degrees                       GrB_reduce with GrB_PLUS_MONOID_INT64
//   when the degrees are skewed (the rule of gridblas' triangle_count and GapBS),
//   A = A(p, p) with p by ascending degree    GrB_extract (gridblas' own numbering)
//   L = tril(A, -1), U = triu(A, 1)           GrB_select
//   C⟨L, structural⟩ = L ⊕.⊗ U                GrB_mxm over GxB_PLUS_PAIR_INT64
//   triangles = Σ C                           GrB_reduce
// so its time compares with gridblas-graph tc's, which renumbers and splits the graph too.

// GraphBLAS.h of SuiteSparse:GraphBLAS 7 declares its C functions without extern "C".
extern "C" {
#include <GraphBLAS.h>
}

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/graph500_stats.hpp"
#include "common/graphblas_graph.hpp"
#include "common/graphblas_mtx.hpp"
#include "gridblas/algorithms/triangle_count.hpp"

namespace {

using gridblas::bench::FileGraph;
using gridblas::bench::now;

const char* kHelp =
    R"(gridblas-baseline-graphblas-tc: triangle count on SuiteSparse:GraphBLAS

  --file F           Matrix Market graph (coordinate; pattern, integer or real; general
                     files are symmetrised, self-loops dropped), as gridblas-graph --file
  --trials N         timed runs after one warm-up (default 3)
  --threads T        GraphBLAS / OpenMP threads (default: all)
  --output FILE      the line "triangles N", as gridblas-graph tc --output
  --help
Prints mean_time / min_time (seconds per whole count), the count, and whether the graph
was renumbered by degree.
)";

/// The result of one whole count.
struct Count {
    std::int64_t triangles = 0;
    bool renumbered = false;
};

/// One whole count of the triangles of `g`; `seconds` gets its time.
Count count_triangles(const FileGraph& g, double& seconds) {
    const GrB_Index n = g.n;
    const double t0 = now();
    Count out;
    // Row degrees (bool entries count 1 each under the INT64 plus monoid).
    GrB_Vector d = nullptr;
    CHECK_GRB(GrB_Vector_new(&d, GrB_INT64, n));
    CHECK_GRB(GrB_Matrix_reduce_Monoid(d, nullptr, nullptr, GrB_PLUS_MONOID_INT64, g.a, nullptr));
    GrB_Index len = 0;
    CHECK_GRB(GrB_Vector_nvals(&len, d));
    std::vector<GrB_Index> idx(len);
    std::vector<std::int64_t> val(len);
    CHECK_GRB(GrB_Vector_extractTuples_INT64(idx.data(), val.data(), &len, d));
    GrB_Vector_free(&d);
    std::vector<gridblas::gindex_t> degree(n, 0);
    for (GrB_Index k = 0; k < len; ++k) degree[idx[k]] = val[k];

    GrB_Matrix sorted = nullptr, l = nullptr, u = nullptr, c = nullptr;
    out.renumbered = gridblas::detail::degrees_skewed(degree);
    if (out.renumbered) {
        // A(p, p): row and column k of the result are vertex p[k], the one numbered k.
        const std::vector<gridblas::gindex_t> new_id = gridblas::detail::ids_by_degree(degree);
        std::vector<GrB_Index> p(n);
        for (GrB_Index v = 0; v < n; ++v) p[GrB_Index(new_id[v])] = v;
        CHECK_GRB(GrB_Matrix_new(&sorted, GrB_BOOL, n, n));
        CHECK_GRB(
            GrB_Matrix_extract(sorted, nullptr, nullptr, g.a, p.data(), n, p.data(), n, nullptr));
    }
    const GrB_Matrix src = out.renumbered ? sorted : g.a;
    CHECK_GRB(GrB_Matrix_new(&l, GrB_BOOL, n, n));
    CHECK_GRB(GrB_Matrix_new(&u, GrB_BOOL, n, n));
    CHECK_GRB(GrB_Matrix_select_INT64(l, nullptr, nullptr, GrB_TRIL, src, -1, nullptr));
    CHECK_GRB(GrB_Matrix_select_INT64(u, nullptr, nullptr, GrB_TRIU, src, 1, nullptr));
    if (sorted) GrB_Matrix_free(&sorted);
    CHECK_GRB(GrB_Matrix_new(&c, GrB_INT64, n, n));
    CHECK_GRB(GrB_mxm(c, l, nullptr, GxB_PLUS_PAIR_INT64, l, u, GrB_DESC_S));
    CHECK_GRB(GrB_Matrix_reduce_INT64(&out.triangles, nullptr, GrB_PLUS_MONOID_INT64, c, nullptr));
    seconds = now() - t0;
    for (GrB_Matrix* m : {&l, &u, &c}) GrB_Matrix_free(m);
    return out;
}

int run(int argc, char** argv) {
    gridblas::bench::Cli cli(argc, argv, {"file", "trials", "threads", "output"}, {"help"});
    if (cli.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const int trials = int(cli.integer("trials", 3, 1, 1 << 20));
    gridblas::bench::start_graphblas(cli);
    FileGraph g = gridblas::bench::read_reported_graph(cli, GrB_BOOL, trials);
    std::vector<double> times;
    const Count last = gridblas::bench::warm_then_time(
        trials, times, [&](double& seconds) { return count_triangles(g, seconds); });
    const gridblas::bench::Summary s = gridblas::bench::summarize(times);
    std::printf("mean_time: %.6g\nmin_time: %.6g\ntriangles: %lld\nrenumbered_by_degree: %s\n",
                s.mean, s.min, (long long)last.triangles, last.renumbered ? "yes" : "no");
    if (cli.has("output")) {
        const std::string out = cli.str("output", "");
        std::ofstream f(out);
        f << "triangles " << last.triangles << '\n';
        if (!f) throw std::runtime_error("cannot write " + out);
    }
    GrB_Matrix_free(&g.a);
    CHECK_GRB(GrB_finalize());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::guarded_main("gridblas-baseline-graphblas-tc", run, argc, argv);
}
