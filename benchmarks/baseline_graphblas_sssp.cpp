// gridblas-baseline-graphblas-sssp: single-source shortest paths on SuiteSparse:GraphBLAS,
// the comparison point of `gridblas-graph sssp --no-parents` (and of GapBS's sssp, which also
// computes distances only). Delta-stepping (Meyer & Sanders, "Delta-stepping: a
// parallelizable shortest path algorithm", J. Algorithms 2003) in GraphBLAS form, as LAGraph's
// single-source shortest path is written (LAGraph has no Debian package):
//   - the edges are split once into light (weight <= delta) and heavy ones (GrB_select with
//     GrB_VALUELE_FP64 / GrB_VALUEGT_FP64);
//   - the distances t are a full vector, inf where unreached; bucket i holds the vertices
//     with t in [i delta, (i+1) delta), found by two GrB_select over t;
//   - within a bucket: req = front (min.+) L (GrB_vxm over GrB_MIN_PLUS_SEMIRING_FP64),
//     better = req < t, t = min(t, req) (an assign accumulating with min: only req's
//     entries are touched), and the next front is the improved vertices still in the bucket;
//     every front is gathered (with min) into the bucket's settled distances;
//   - once the bucket is settled, its vertices relax their heavy edges once, t = min(t,
//     bucket (min.+) H), and the search goes on with the next non-empty bucket (the
//     smallest t beyond the bucket), until none is left.
// --delta defaults to gridblas' default: the largest weight over the average degree (stored
// entries / vertices). The graph is the file's, undirected (a general file symmetrised, as
// gridblas-graph and GapBS -s do) unless --directed; weights are the file's values (pattern
// files: 1), the smallest of repeated entries, and must be positive.

// GraphBLAS.h of SuiteSparse:GraphBLAS 7 declares its C functions without extern "C".
extern "C" {
#include <GraphBLAS.h>
}

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/graph500_stats.hpp"
#include "common/graphblas_graph.hpp"
#include "common/graphblas_mtx.hpp"

namespace {

using gridblas::bench::FileGraph;
using gridblas::bench::now;

const char* kHelp =
    R"(gridblas-baseline-graphblas-sssp: delta-stepping SSSP on SuiteSparse:GraphBLAS

  --file F           weighted Matrix Market graph (coordinate; integer or real, pattern:
                     weight 1; general files are symmetrised, self-loops dropped, the
                     smallest of repeated weights kept), as gridblas-graph --file
  --directed         keep a general file's edge directions
  --source S         source vertex, 0-based (default 0)
  --delta D          bucket width (default 0: the largest weight / average degree, as
                     gridblas-graph's default)
  --trials N         timed runs after one warm-up (default 3)
  --threads T        GraphBLAS / OpenMP threads (default: all)
  --output FILE      "vertex distance" per vertex, inf where unreached, as gridblas-graph
                     sssp --no-parents --output
  --help
Prints mean_time / min_time (seconds per search), delta, the non-empty buckets, the vertices
reached and the sum of their distances.
)";

/// The result of one search.
struct Distances {
    std::vector<double> dist;  ///< of every vertex, inf where unreached
    int buckets = 0;           ///< non-empty buckets processed
};

/// One delta-stepping search from `source`; `seconds` gets its time.
Distances delta_stepping(const FileGraph& g, GrB_Index source, double delta, double& seconds) {
    const GrB_Index n = g.n;
    const double inf = std::numeric_limits<double>::infinity();
    GrB_Matrix light = nullptr, heavy = nullptr;
    GrB_Vector t = nullptr, front = nullptr, req = nullptr, beyond = nullptr, bucket = nullptr,
               better = nullptr;
    for (GrB_Matrix* m : {&light, &heavy}) CHECK_GRB(GrB_Matrix_new(m, GrB_FP64, n, n));
    for (GrB_Vector* v : {&t, &front, &req, &beyond, &bucket}) {
        CHECK_GRB(GrB_Vector_new(v, GrB_FP64, n));
    }
    CHECK_GRB(GrB_Vector_new(&better, GrB_BOOL, n));

    const double t0 = now();
    Distances out;
    CHECK_GRB(
        GrB_Matrix_select_FP64(light, nullptr, nullptr, GrB_VALUELE_FP64, g.a, delta, nullptr));
    CHECK_GRB(
        GrB_Matrix_select_FP64(heavy, nullptr, nullptr, GrB_VALUEGT_FP64, g.a, delta, nullptr));
    CHECK_GRB(GrB_Vector_assign_FP64(t, nullptr, nullptr, inf, GrB_ALL, n, nullptr));
    CHECK_GRB(GrB_Vector_setElement_FP64(t, 0.0, source));
    double i = 0.0;  // the bucket index
    for (;;) {
        const double lo = i == 0.0 ? 0.0 : i * delta, hi = (i + 1.0) * delta;
        CHECK_GRB(
            GrB_Vector_select_FP64(front, nullptr, nullptr, GrB_VALUEGE_FP64, t, lo, nullptr));
        CHECK_GRB(
            GrB_Vector_select_FP64(front, nullptr, nullptr, GrB_VALUELT_FP64, front, hi, nullptr));
        GrB_Index size = 0;
        CHECK_GRB(GrB_Vector_nvals(&size, front));
        if (size == 0) {  // on to the bucket of the smallest distance beyond this one, if any
            CHECK_GRB(
                GrB_Vector_select_FP64(beyond, nullptr, nullptr, GrB_VALUEGE_FP64, t, hi, nullptr));
            double next = inf;
            CHECK_GRB(GrB_Vector_reduce_FP64(&next, nullptr, GrB_MIN_MONOID_FP64, beyond, nullptr));
            if (!std::isfinite(next) || !std::isfinite(hi)) break;
            double j = std::floor(next / delta);
            if (j * delta > next) j -= 1.0;  // rounding: the bucket whose bounds hold next
            i = std::max(i + 1.0, j);
            continue;
        }
        ++out.buckets;
        CHECK_GRB(GrB_Vector_clear(bucket));
        while (size > 0) {
            // The light edges of the front; the vertices they improve that stay in the bucket
            // are the next front.
            CHECK_GRB(GrB_Vector_assign(bucket, nullptr, GrB_MIN_FP64, front, GrB_ALL, n, nullptr));
            CHECK_GRB(
                GrB_vxm(req, nullptr, nullptr, GrB_MIN_PLUS_SEMIRING_FP64, front, light, nullptr));
            CHECK_GRB(GrB_Vector_eWiseMult_BinaryOp(better, nullptr, nullptr, GrB_LT_FP64, req, t,
                                                    nullptr));
            CHECK_GRB(GrB_Vector_assign(t, nullptr, GrB_MIN_FP64, req, GrB_ALL, n, nullptr));
            CHECK_GRB(GrB_Vector_select_FP64(front, better, nullptr, GrB_VALUELT_FP64, req, hi,
                                             GrB_DESC_R));
            CHECK_GRB(GrB_Vector_nvals(&size, front));
        }
        // The bucket is settled: its heavy edges, once.
        CHECK_GRB(
            GrB_vxm(req, nullptr, nullptr, GrB_MIN_PLUS_SEMIRING_FP64, bucket, heavy, nullptr));
        CHECK_GRB(GrB_Vector_assign(t, nullptr, GrB_MIN_FP64, req, GrB_ALL, n, nullptr));
        if (!std::isfinite(hi)) break;  // delta = inf: one bucket holds every distance
        i += 1.0;
    }
    CHECK_GRB(GrB_Vector_wait(t, GrB_MATERIALIZE));
    seconds = now() - t0;

    out.dist.assign(n, inf);
    std::vector<GrB_Index> idx(n);
    std::vector<double> val(n);
    GrB_Index len = n;
    CHECK_GRB(GrB_Vector_extractTuples_FP64(idx.data(), val.data(), &len, t));
    for (GrB_Index k = 0; k < len; ++k) out.dist[idx[k]] = val[k];
    for (GrB_Matrix* m : {&light, &heavy}) GrB_Matrix_free(m);
    for (GrB_Vector* v : {&t, &front, &req, &beyond, &bucket, &better}) GrB_Vector_free(v);
    return out;
}

/// The largest weight; throws unless every weight is positive and finite.
double max_weight(const FileGraph& g, const std::string& path) {
    GrB_Matrix ok = nullptr;
    CHECK_GRB(GrB_Matrix_new(&ok, GrB_FP64, g.n, g.n));
    CHECK_GRB(GrB_Matrix_select_FP64(ok, nullptr, nullptr, GrB_VALUEGT_FP64, g.a, 0.0, nullptr));
    CHECK_GRB(GrB_Matrix_select_FP64(ok, nullptr, nullptr, GrB_VALUELT_FP64, ok,
                                     std::numeric_limits<double>::infinity(), nullptr));
    GrB_Index good = 0;
    CHECK_GRB(GrB_Matrix_nvals(&good, ok));
    GrB_Matrix_free(&ok);
    if (good != g.entries) {
        throw std::runtime_error(path + ": " + std::to_string(g.entries - good) + " of " +
                                 std::to_string(g.entries) +
                                 " edge weights are not positive and finite");
    }
    double maxw = 0.0;
    CHECK_GRB(GrB_Matrix_reduce_FP64(&maxw, nullptr, GrB_MAX_MONOID_FP64, g.a, nullptr));
    return maxw;
}

int run(int argc, char** argv) {
    gridblas::bench::Cli cli(argc, argv, {"file", "source", "delta", "trials", "threads", "output"},
                             {"directed", "help"});
    if (cli.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (!cli.has("file")) throw std::invalid_argument("--file is required (see --help)");
    const std::string path = cli.str("file", "");
    const int trials = int(cli.integer("trials", 3, 1, 1 << 20));
    const auto source = GrB_Index(cli.integer("source", 0, 0, std::int64_t(1) << 62));
    double delta = cli.real("delta", 0.0);
    if (!(delta >= 0.0)) {
        throw std::invalid_argument("option --delta: " + cli.str("delta", "") +
                                    " is negative or not a number");
    }
    const bool directed = cli.has("directed");
    gridblas::bench::start_graphblas(cli);
    const double t0 = now();
    FileGraph g = gridblas::bench::read_graph_mtx(path, GrB_FP64, !directed);
    if (source >= g.n) {
        throw std::invalid_argument("option --source: " + std::to_string(source) +
                                    " is not a vertex (the graph has " + std::to_string(g.n) + ")");
    }
    const double maxw = max_weight(g, path);
    if (delta == 0.0) {  // gridblas' default
        const double avg_degree = g.n > 0 ? double(g.entries) / double(g.n) : 1.0;
        delta = maxw / std::max(1.0, avg_degree);
        if (!(delta > 0.0)) delta = 1.0;
    }
    std::printf("graph: %s, %s, %llu vertices, %llu stored entries (read in %.2f s)\n",
                path.c_str(), directed ? "directed" : "undirected", (unsigned long long)g.n,
                (unsigned long long)g.entries, now() - t0);
    std::printf("SuiteSparse:GraphBLAS %d.%d.%d threads: %d trials: %d\n", GxB_IMPLEMENTATION_MAJOR,
                GxB_IMPLEMENTATION_MINOR, GxB_IMPLEMENTATION_SUB, omp_get_max_threads(), trials);
    std::vector<double> times;
    Distances last;
    for (int k = 0; k <= trials; ++k) {
        double s = 0.0;
        last = delta_stepping(g, source, delta, s);
        if (k > 0) times.push_back(s);  // the first run is the warm-up
    }
    std::uint64_t reached = 0;
    double total = 0.0;
    for (double d : last.dist) {
        if (std::isfinite(d)) {
            ++reached;
            total += d;
        }
    }
    const gridblas::bench::Summary s = gridblas::bench::summarize(times);
    std::printf(
        "mean_time: %.6g\nmin_time: %.6g\nsource: %llu\ndelta: %.6g\nbuckets: %d\nreached: "
        "%llu\ndistance_sum: %.17g\n",
        s.mean, s.min, (unsigned long long)source, delta, last.buckets, (unsigned long long)reached,
        total);
    if (cli.has("output")) gridblas::bench::write_vertex_values(cli.str("output", ""), last.dist);
    GrB_Matrix_free(&g.a);
    CHECK_GRB(GrB_finalize());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::guarded_main("gridblas-baseline-graphblas-sssp", run, argc, argv);
}
