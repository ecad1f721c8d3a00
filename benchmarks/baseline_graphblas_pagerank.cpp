// gridblas-baseline-graphblas-pagerank: PageRank on SuiteSparse:GraphBLAS (Davis 2019), the
// comparison point of `gridblas-graph pagerank`. LAGraph, which ships PageRank for
// SuiteSparse, has no Debian package, so the same method is written here with GraphBLAS
// operations, on the same Kronecker graph (gridblas' generator, self-loops dropped,
// symmetrised): the LDBC Graphalytics definition, as gridblas' pagerank() computes it, with
// damping d, a fixed iteration count and the rank of dangling vertices spread evenly. Each
// iteration:
//   w = r ./ dout                      (eWiseMult: only where the out-degree is non-zero)
//   dangling = sum of r where dout has no entry (apply under the complemented mask, reduce)
//   t = A w over (plus, second)        (GrB_mxv: the pull over A's rows; A is symmetric)
//   r' = (1 - d)/n + d dangling / n + d t, and the L1 change |r' - r|.
// The time includes turning the degrees into doubles, as gridblas' includes computing them.

// GraphBLAS.h of SuiteSparse:GraphBLAS 7 declares its C functions without extern "C".
extern "C" {
#include <GraphBLAS.h>
}

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "common/cli.hpp"
#include "common/graph500_stats.hpp"
#include "common/graphblas_graph.hpp"

namespace {

using gridblas::bench::build_graph;
using gridblas::bench::Graph;
using gridblas::bench::now;

const char* kHelp = R"(gridblas-baseline-graphblas-pagerank: PageRank on SuiteSparse:GraphBLAS

  --scale S          2^S vertices (default 16)
  --edgefactor E     edges per vertex (default 16)
  --seed X           generator seed (default 1)
  --iterations K     iterations (default 20)
  --damping D        damping factor (default 0.85)
  --trials N         timed runs after one warm-up (default 3)
  --threads T        GraphBLAS / OpenMP threads (default: all)
  --help
Prints mean_time / min_time (seconds per run of all iterations), the last iteration's L1
change and the sum of the ranks (1 up to rounding).
)";

/// The result of one run.
struct Ranks {
    double residual = 0.0;
    double sum = 0.0;
    double first = 0.0;  ///< the rank of vertex 0
};

/// One PageRank run of `iterations` iterations over the graph; `seconds` gets its time.
Ranks pagerank(const Graph& g, int iterations, double d, double& seconds) {
    const GrB_Index n = g.n;
    const double nd = double(n);
    GrB_Vector dout = nullptr, r = nullptr, next = nullptr, w = nullptr, t = nullptr,
               sink = nullptr;
    for (GrB_Vector* v : {&dout, &r, &next, &w, &t, &sink}) {
        CHECK_GRB(GrB_Vector_new(v, GrB_FP64, n));
    }
    const double t0 = now();
    CHECK_GRB(GrB_Vector_apply(dout, nullptr, nullptr, GrB_IDENTITY_FP64, g.degree, nullptr));
    CHECK_GRB(GrB_Vector_assign_FP64(r, nullptr, nullptr, 1.0 / nd, GrB_ALL, n, nullptr));
    Ranks out;
    for (int it = 0; it < iterations; ++it) {
        CHECK_GRB(
            GrB_Vector_eWiseMult_BinaryOp(w, nullptr, nullptr, GrB_DIV_FP64, r, dout, nullptr));
        // The dangling vertices' rank: r where dout has no entry.
        CHECK_GRB(GrB_Vector_apply(sink, dout, nullptr, GrB_IDENTITY_FP64, r, GrB_DESC_RSC));
        double dangling = 0.0;
        CHECK_GRB(GrB_Vector_reduce_FP64(&dangling, nullptr, GrB_PLUS_MONOID_FP64, sink, nullptr));
        CHECK_GRB(GrB_mxv(t, nullptr, nullptr, GxB_PLUS_SECOND_FP64, g.a, w, GrB_DESC_R));
        const double base = (1.0 - d) / nd + d * dangling / nd;
        CHECK_GRB(GrB_Vector_assign_FP64(next, nullptr, nullptr, base, GrB_ALL, n, nullptr));
        CHECK_GRB(GrB_Vector_apply_BinaryOp2nd_FP64(next, nullptr, GrB_PLUS_FP64, GrB_TIMES_FP64, t,
                                                    d, nullptr));
        // The L1 change, in w (no longer needed this iteration).
        CHECK_GRB(
            GrB_Vector_eWiseAdd_BinaryOp(w, nullptr, nullptr, GrB_MINUS_FP64, next, r, nullptr));
        CHECK_GRB(GrB_Vector_apply(w, nullptr, nullptr, GrB_ABS_FP64, w, nullptr));
        CHECK_GRB(GrB_Vector_reduce_FP64(&out.residual, nullptr, GrB_PLUS_MONOID_FP64, w, nullptr));
        std::swap(r, next);
    }
    CHECK_GRB(GrB_Vector_wait(r, GrB_MATERIALIZE));
    seconds = now() - t0;
    CHECK_GRB(GrB_Vector_reduce_FP64(&out.sum, nullptr, GrB_PLUS_MONOID_FP64, r, nullptr));
    CHECK_GRB(GrB_Vector_extractElement_FP64(&out.first, r, 0));
    for (GrB_Vector* v : {&dout, &r, &next, &w, &t, &sink}) GrB_Vector_free(v);
    return out;
}

int run(int argc, char** argv) {
    gridblas::bench::Cli cli(
        argc, argv, {"scale", "edgefactor", "seed", "iterations", "damping", "trials", "threads"},
        {"help"});
    if (cli.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const gridblas::KroneckerParams kp = gridblas::bench::kronecker_options(cli);
    const int iterations = int(cli.integer("iterations", 20, 0, 1 << 20));
    const int trials = int(cli.integer("trials", 3, 1, 1 << 20));
    const double damping = cli.real("damping", 0.85);
    if (!(damping >= 0.0 && damping <= 1.0)) {
        throw std::invalid_argument("option --damping: " + std::to_string(damping) +
                                    " is outside [0, 1]");
    }
    gridblas::bench::start_graphblas(cli);
    double gen_s = 0, build_s = 0;
    Graph g = build_graph(kp, gen_s, build_s);
    std::printf("graph: kronecker scale %d edgefactor %d, %llu vertices, %llu stored entries\n",
                kp.scale, kp.edgefactor, (unsigned long long)g.n, (unsigned long long)g.entries);
    std::printf("SuiteSparse:GraphBLAS %d.%d.%d threads: %d trials: %d iterations: %d\n",
                GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR, GxB_IMPLEMENTATION_SUB,
                omp_get_max_threads(), trials, iterations);
    std::vector<double> times;
    Ranks last;
    for (int k = 0; k <= trials; ++k) {
        double s = 0.0;
        last = pagerank(g, iterations, damping, s);
        if (k > 0) times.push_back(s);  // the first run is the warm-up
    }
    const gridblas::bench::Summary s = gridblas::bench::summarize(times);
    std::printf("mean_time: %.6g\nmin_time: %.6g\nresidual: %.6g\nrank_sum: %.12g\nrank_0: %.12g\n",
                s.mean, s.min, last.residual, last.sum, last.first);
    GrB_Matrix_free(&g.a);
    GrB_Vector_free(&g.degree);
    CHECK_GRB(GrB_finalize());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::guarded_main("gridblas-baseline-graphblas-pagerank", run, argc, argv);
}
