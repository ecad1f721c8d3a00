// gridblas-baseline-graphblas-bc: betweenness centrality from a batch of sources on
// SuiteSparse:GraphBLAS, the comparison point of `gridblas-graph bc`. Brandes' algorithm
// (Brandes, "A faster algorithm for betweenness centrality", J. Math. Sociol. 2001) in the
// language of linear algebra, the k searches advancing together as LAGraph's batch
// betweenness does (LAGraph has no Debian package): with the frontier F_d a k x n matrix
// holding the number of shortest paths from source i to vertex v at depth d,
//   forward:  F_0 = (i, s_i, 1); F_{d+1}<!P, structural, replace> = F_d (plus.first) A and
//             P += F_{d+1} (GrB_mxm over GxB_PLUS_FIRST_FP64; P = path counts sigma)
//             until the frontier is empty;
//   backward: U = 1 + delta starts at 1 everywhere; for d = D .. 2
//             W<F_d, structural> = U ./ P, then U += (W (plus.first) A')<F_{d-1}> .* P;
//   centrality(v) = sum_i (U(i, v) - 1), halved on an undirected graph.
// This is the value gridblas-graph bc writes (the unnormalised
// networkx.betweenness_centrality_subset over the sources, every vertex a target): the
// sources' own dependencies never accumulate (the sweep stops above depth 1), and on an
// undirected graph every path is seen from both of its ends. The graph is the file's,
// undirected (a general file symmetrised, as gridblas-graph and GapBS -s do) unless
// --directed keeps a general file's directions (then A' is transposed once, inside the time).

// GraphBLAS.h of SuiteSparse:GraphBLAS 7 declares its C functions without extern "C".
extern "C" {
#include <GraphBLAS.h>
}

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
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
    R"(gridblas-baseline-graphblas-bc: batched Brandes betweenness on SuiteSparse:GraphBLAS

  --file F             Matrix Market graph (coordinate; pattern, integer or real; general
                       files are symmetrised, self-loops dropped), as gridblas-graph --file
  --directed           keep a general file's edge directions (no halving)
  --sources S1,S2,...  source vertices, 0-based (default 0)
  --trials N           timed runs after one warm-up (default 3)
  --threads T          GraphBLAS / OpenMP threads (default: all)
  --output FILE        "vertex centrality" per vertex, as gridblas-graph bc --output
  --help
Prints mean_time / min_time (seconds per run of all sources together), the depth of the
deepest search, and the sum and maximum of the centralities.
)";

/// The result of one run.
struct Centrality {
    std::vector<double> value;  ///< of every vertex
    int depth = 0;
};

/// One batched run from `sources` over A (edges u -> v as A(u, v)); `seconds` gets its time.
Centrality brandes(const FileGraph& g, const std::vector<GrB_Index>& sources, bool directed,
                   double& seconds) {
    const GrB_Index n = g.n, k = sources.size();
    std::vector<GrB_Index> rows(k);
    std::iota(rows.begin(), rows.end(), GrB_Index(0));
    const std::vector<double> ones(k, 1.0);
    GrB_Matrix at = nullptr, paths = nullptr, w = nullptr, up = nullptr, u = nullptr;
    std::vector<GrB_Matrix> frontier(1, nullptr);
    GrB_Vector sum = nullptr;

    const double t0 = now();
    if (directed) {  // the backward sweep walks the edges against their direction
        CHECK_GRB(GrB_Matrix_new(&at, GrB_BOOL, n, n));
        CHECK_GRB(GrB_transpose(at, nullptr, nullptr, g.a, nullptr));
    }
    const GrB_Matrix back = directed ? at : g.a;
    // Forward sweep: the frontiers, kept for the backward sweep, and the path counts P.
    CHECK_GRB(GrB_Matrix_new(&frontier[0], GrB_FP64, k, n));
    CHECK_GRB(GrB_Matrix_build_FP64(frontier[0], rows.data(), sources.data(), ones.data(), k,
                                    GrB_PLUS_FP64));
    CHECK_GRB(GrB_Matrix_dup(&paths, frontier[0]));
    for (;;) {
        GrB_Matrix next = nullptr;
        CHECK_GRB(GrB_Matrix_new(&next, GrB_FP64, k, n));
        CHECK_GRB(
            GrB_mxm(next, paths, nullptr, GxB_PLUS_FIRST_FP64, frontier.back(), g.a, GrB_DESC_RSC));
        GrB_Index reached = 0;
        CHECK_GRB(GrB_Matrix_nvals(&reached, next));
        if (reached == 0) {
            GrB_Matrix_free(&next);
            break;
        }
        CHECK_GRB(GrB_Matrix_eWiseAdd_BinaryOp(paths, nullptr, nullptr, GrB_PLUS_FP64, paths, next,
                                               nullptr));
        frontier.push_back(next);
    }
    Centrality out;
    out.depth = int(frontier.size()) - 1;

    // Backward sweep: U = 1 + delta, full.
    CHECK_GRB(GrB_Matrix_new(&u, GrB_FP64, k, n));
    CHECK_GRB(GrB_Matrix_new(&w, GrB_FP64, k, n));
    CHECK_GRB(GrB_Matrix_new(&up, GrB_FP64, k, n));
    CHECK_GRB(GrB_Matrix_assign_FP64(u, nullptr, nullptr, 1.0, GrB_ALL, k, GrB_ALL, n, nullptr));
    for (int d = out.depth; d >= 2; --d) {
        CHECK_GRB(GrB_Matrix_eWiseMult_BinaryOp(w, frontier[d], nullptr, GrB_DIV_FP64, u, paths,
                                                GrB_DESC_RS));
        CHECK_GRB(GrB_mxm(up, frontier[d - 1], nullptr, GxB_PLUS_FIRST_FP64, w, back, GrB_DESC_RS));
        CHECK_GRB(GrB_Matrix_eWiseMult_BinaryOp(u, nullptr, GrB_PLUS_FP64, GrB_TIMES_FP64, up,
                                                paths, nullptr));
    }
    // centrality = column sums of U - 1 (halved when undirected).
    CHECK_GRB(
        GrB_Matrix_apply_BinaryOp2nd_FP64(u, nullptr, nullptr, GrB_MINUS_FP64, u, 1.0, nullptr));
    CHECK_GRB(GrB_Vector_new(&sum, GrB_FP64, n));
    CHECK_GRB(
        GrB_Matrix_reduce_Monoid(sum, nullptr, nullptr, GrB_PLUS_MONOID_FP64, u, GrB_DESC_T0));
    if (!directed) {
        CHECK_GRB(GrB_Vector_apply_BinaryOp2nd_FP64(sum, nullptr, nullptr, GrB_TIMES_FP64, sum, 0.5,
                                                    nullptr));
    }
    CHECK_GRB(GrB_Vector_wait(sum, GrB_MATERIALIZE));
    seconds = now() - t0;

    out.value.assign(n, 0.0);
    std::vector<GrB_Index> idx(n);
    std::vector<double> val(n);
    GrB_Index len = n;
    CHECK_GRB(GrB_Vector_extractTuples_FP64(idx.data(), val.data(), &len, sum));
    for (GrB_Index j = 0; j < len; ++j) out.value[idx[j]] = val[j];
    for (GrB_Matrix& f : frontier) GrB_Matrix_free(&f);
    for (GrB_Matrix* m : {&at, &paths, &w, &up, &u}) GrB_Matrix_free(m);
    GrB_Vector_free(&sum);
    return out;
}

/// The vertex ids of "S1,S2,...", each below n.
std::vector<GrB_Index> parse_sources(const std::string& list, GrB_Index n) {
    std::vector<GrB_Index> out;
    for (const std::int64_t v : gridblas::bench::parse_id_list(list, "--sources")) {
        if (GrB_Index(v) >= n) {
            throw std::invalid_argument("option --sources: " + std::to_string(v) +
                                        " is not a vertex (the graph has " + std::to_string(n) +
                                        ")");
        }
        out.push_back(GrB_Index(v));
    }
    if (out.empty()) throw std::invalid_argument("option --sources: no source given");
    return out;
}

int run(int argc, char** argv) {
    gridblas::bench::Cli cli(argc, argv, {"file", "sources", "trials", "threads", "output"},
                             {"directed", "help"});
    if (cli.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (!cli.has("file")) throw std::invalid_argument("--file is required (see --help)");
    const std::string path = cli.str("file", "");
    const int trials = int(cli.integer("trials", 3, 1, 1 << 20));
    const bool directed = cli.has("directed");
    gridblas::bench::start_graphblas(cli);
    const double t0 = now();
    FileGraph g = gridblas::bench::read_graph_mtx(path, GrB_BOOL, !directed);
    const std::vector<GrB_Index> sources = parse_sources(cli.str("sources", "0"), g.n);
    std::printf("graph: %s, %s, %llu vertices, %llu stored entries (read in %.2f s)\n",
                path.c_str(), directed ? "directed" : "undirected", (unsigned long long)g.n,
                (unsigned long long)g.entries, now() - t0);
    std::printf("SuiteSparse:GraphBLAS %d.%d.%d threads: %d trials: %d sources: %zu\n",
                GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR, GxB_IMPLEMENTATION_SUB,
                omp_get_max_threads(), trials, sources.size());
    std::vector<double> times;
    Centrality last;
    for (int k = 0; k <= trials; ++k) {
        double s = 0.0;
        last = brandes(g, sources, directed, s);
        if (k > 0) times.push_back(s);  // the first run is the warm-up
    }
    double total = 0.0, top = 0.0;
    for (double x : last.value) {
        total += x;
        top = std::max(top, x);
    }
    const gridblas::bench::Summary s = gridblas::bench::summarize(times);
    std::printf("mean_time: %.6g\nmin_time: %.6g\ndepth: %d\nbc_sum: %.12g\nbc_max: %.12g\n",
                s.mean, s.min, last.depth, total, top);
    if (cli.has("output")) gridblas::bench::write_vertex_values(cli.str("output", ""), last.value);
    GrB_Matrix_free(&g.a);
    CHECK_GRB(GrB_finalize());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::guarded_main("gridblas-baseline-graphblas-bc", run, argc, argv);
}
