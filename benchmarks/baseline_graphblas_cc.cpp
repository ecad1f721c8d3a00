// gridblas-baseline-graphblas-cc: connected components on SuiteSparse:GraphBLAS, the
// comparison point of `gridblas-graph cc`. The method is FastSV (Zhang, Azad & Hu, "FastSV: a
// distributed-memory connected component algorithm with fast convergence", SIAM PP 2020),
// written with GraphBLAS operations as LAGraph's FastSV is (LAGraph has no Debian package).
// Every vertex u keeps a parent f[u] (initially u) and the grandparent gf[u] = f[f[u]]; each
// iteration:
//   mngf = gf min (A min.second gf)      the smallest grandparent among u and its neighbours
//                                        (GrB_mxv over GrB_MIN_SECOND_SEMIRING_UINT64)
//   f[f[u]] = min(f[f[u]], mngf[u])      stochastic hooking: the hook of every parent p is
//                                        min{mngf[u] : f[u] = p}, a GrB_Vector_build with
//                                        GrB_MIN_UINT64 combining the repeats of p
//   f = min(f, mngf)                     aggressive hooking (GrB_eWiseAdd, min)
//   f = min(f, gf)                       shortcutting
//   gf = f[f]                            GrB_Vector_extract with f's values as the indices
// until no grandparent changes. Parents only decrease, and every tree ends at the smallest
// vertex id of its component: the component id gridblas-graph cc reports. The graph is the
// file's, undirected (a general file is symmetrised, as gridblas-graph and GapBS -s do).

// GraphBLAS.h of SuiteSparse:GraphBLAS 7 declares its C functions without extern "C".
extern "C" {
#include <GraphBLAS.h>
}

#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "common/cli.hpp"
#include "common/graph500_stats.hpp"
#include "common/graphblas_graph.hpp"
#include "common/graphblas_mtx.hpp"

namespace {

using gridblas::bench::FileGraph;
using gridblas::bench::now;

const char* kHelp =
    R"(gridblas-baseline-graphblas-cc: FastSV connected components on SuiteSparse:GraphBLAS

  --file F           Matrix Market graph (coordinate; pattern, integer or real; general
                     files are symmetrised, self-loops dropped), as gridblas-graph --file
  --trials N         timed runs after one warm-up (default 3)
  --threads T        GraphBLAS / OpenMP threads (default: all)
  --output FILE      "vertex component" per vertex (the smallest vertex id of its
                     component, 0-based), as gridblas-graph cc --output
  --help
Prints mean_time / min_time (seconds per run), the number of components and of FastSV
iterations.
)";

/// The result of one run.
struct Components {
    std::vector<GrB_Index> parent;  ///< the component id of every vertex
    int iterations = 0;
};

/// One FastSV run over the graph; `seconds` gets its time.
Components fastsv(const FileGraph& g, double& seconds) {
    const GrB_Index n = g.n;
    GrB_Vector f = nullptr, gf = nullptr, prev = nullptr, mngf = nullptr, hook = nullptr,
               changed = nullptr;
    for (GrB_Vector* v : {&f, &gf, &prev, &mngf, &hook}) {
        CHECK_GRB(GrB_Vector_new(v, GrB_UINT64, n));
    }
    CHECK_GRB(GrB_Vector_new(&changed, GrB_BOOL, n));
    std::vector<GrB_Index> ids(n), fval(n), mval(n);
    std::iota(ids.begin(), ids.end(), GrB_Index(0));

    const double t0 = now();
    Components out;
    // f = gf = (0, 1, ..., n-1).
    CHECK_GRB(GrB_Vector_build_UINT64(f, ids.data(), ids.data(), n, GrB_PLUS_UINT64));
    CHECK_GRB(GrB_Vector_assign(gf, nullptr, nullptr, f, GrB_ALL, n, nullptr));
    bool more = n > 0;
    while (more) {
        ++out.iterations;
        // mngf = min(gf, smallest grandparent of a neighbour).
        CHECK_GRB(GrB_Vector_assign(mngf, nullptr, nullptr, gf, GrB_ALL, n, nullptr));
        CHECK_GRB(GrB_mxv(mngf, nullptr, GrB_MIN_UINT64, GrB_MIN_SECOND_SEMIRING_UINT64, g.a, gf,
                          nullptr));
        // Stochastic hooking: hook[p] = min mngf[u] over the children u of p, then f min= hook.
        // (f and mngf are full: their values come out in vertex order.)
        GrB_Index len = n;
        CHECK_GRB(GrB_Vector_extractTuples_UINT64(nullptr, fval.data(), &len, f));
        len = n;
        CHECK_GRB(GrB_Vector_extractTuples_UINT64(nullptr, mval.data(), &len, mngf));
        CHECK_GRB(GrB_Vector_clear(hook));
        CHECK_GRB(GrB_Vector_build_UINT64(hook, fval.data(), mval.data(), n, GrB_MIN_UINT64));
        CHECK_GRB(
            GrB_Vector_eWiseAdd_BinaryOp(f, nullptr, nullptr, GrB_MIN_UINT64, f, hook, nullptr));
        // Aggressive hooking and shortcutting.
        CHECK_GRB(
            GrB_Vector_eWiseAdd_BinaryOp(f, nullptr, nullptr, GrB_MIN_UINT64, f, mngf, nullptr));
        CHECK_GRB(
            GrB_Vector_eWiseAdd_BinaryOp(f, nullptr, nullptr, GrB_MIN_UINT64, f, gf, nullptr));
        // The new grandparents gf = f[f]; stop when none changed.
        std::swap(gf, prev);
        len = n;
        CHECK_GRB(GrB_Vector_extractTuples_UINT64(nullptr, fval.data(), &len, f));
        CHECK_GRB(GrB_Vector_extract(gf, nullptr, nullptr, f, fval.data(), n, nullptr));
        CHECK_GRB(GrB_Vector_eWiseMult_BinaryOp(changed, nullptr, nullptr, GrB_NE_UINT64, gf, prev,
                                                nullptr));
        CHECK_GRB(GrB_Vector_reduce_BOOL(&more, nullptr, GrB_LOR_MONOID_BOOL, changed, nullptr));
    }
    out.parent.resize(n);
    GrB_Index len = n;
    CHECK_GRB(GrB_Vector_extractTuples_UINT64(nullptr, out.parent.data(), &len, f));
    seconds = now() - t0;
    for (GrB_Vector* v : {&f, &gf, &prev, &mngf, &hook, &changed}) GrB_Vector_free(v);
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
    const Components last = gridblas::bench::warm_then_time(
        trials, times, [&](double& seconds) { return fastsv(g, seconds); });
    std::uint64_t components = 0;
    for (GrB_Index v = 0; v < g.n; ++v) components += last.parent[v] == v;
    const gridblas::bench::Summary s = gridblas::bench::summarize(times);
    std::printf("mean_time: %.6g\nmin_time: %.6g\ncomponents: %llu\niterations: %d\n", s.mean,
                s.min, (unsigned long long)components, last.iterations);
    if (cli.has("output")) gridblas::bench::write_vertex_values(cli.str("output", ""), last.parent);
    GrB_Matrix_free(&g.a);
    CHECK_GRB(GrB_finalize());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::guarded_main("gridblas-baseline-graphblas-cc", run, argc, argv);
}
