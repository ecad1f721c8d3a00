// gridblas-graph: runs one graph algorithm of the library (connected components, PageRank,
// SSSP, triangle count, local clustering coefficient, multi-source BFS, betweenness) on a Matrix
// Market file or a generated Kronecker graph, times it over --trials runs after an untimed warm-up,
// validates SSSP, and writes one line per vertex. See --help.

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/graph500_stats.hpp"
#include "common/mpi_main.hpp"
#include "common/mxm_options.hpp"
#include "gridblas/algorithms/betweenness.hpp"
#include "gridblas/algorithms/connected_components.hpp"
#include "gridblas/algorithms/multi_source_bfs.hpp"
#include "gridblas/algorithms/pagerank.hpp"
#include "gridblas/algorithms/sssp.hpp"
#include "gridblas/algorithms/triangle_count.hpp"
#include "gridblas/config.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "gridblas/matrix/weighted_graphs.hpp"
#include "gridblas/ops/apply.hpp"
#include "gridblas/ops/extract.hpp"

using namespace gridblas;

namespace {

const char* kHelp = R"(gridblas-graph: run a graph algorithm of gridblas

Usage: gridblas-graph ALGO [options]
ALGO:
  cc                   connected components (Afforest sampling): vertex -> smallest vertex id
                       of its component (weakly connected components with --directed)
  pagerank             PageRank, LDBC Graphalytics definition (dangling rank spread evenly)
  sssp                 single-source shortest paths, delta-stepping; validated after each run
  tc                   triangle count, C<L> = L*U over plus_pair (undirected graphs only)
  lcc                  local clustering coefficient of every vertex (undirected graphs only)
  msbfs                levels from several sources at once (frontier as a k x n matrix)
  bc                   betweenness centrality over the shortest paths from --sources
                       (Brandes; halved on undirected graphs, as networkx does)
Graph (one of):
  --file PATH          Matrix Market file (symmetrised unless --directed); sssp reads its
                       real/integer values as weights (pattern files: weight 1)
  --directed           keep the file's edge directions
  --scale S            Kronecker graph with 2^S vertices (Graph500 generator)
  --edgefactor E       edges per vertex (default 16)
  --seed X             generator seed (default 1)
  --weighted           sssp on --scale: Graph500 weights, uniform in [0, 1) (default: 1)
Algorithm:
  --source S           sssp source vertex, 0-based (default 0)
  --sources S1,S2,...  msbfs and bc source vertices, 0-based (default 0)
  --delta D            sssp bucket width (default: max weight / average degree)
  --no-parents         sssp: distances only (no parent pass; --output writes "vertex distance")
  --weights T          sssp: weight and distance type, double (default) or float (half the
                       bytes per edge; Graph500's kernel 3 specifies float weights)
  --iterations K       pagerank iterations (default 100)
  --tolerance T        pagerank: stop once the L1 change is <= T (default 0: run all)
  --damping D          pagerank damping factor (default 0.85)
  --presort P          tc: order the vertices by ascending degree: auto | always | never
                       (default auto: when the degrees are skewed)
  --method M           tc: local product kernel: auto | gustavson | hash | dot (default auto)
Run:
  --trials N           timed runs after one untimed warm-up (default 1)
  --no-validate        skip the sssp validation
  --output FILE        one line per vertex: "vertex value" (cc: component, pagerank: rank,
                       lcc: coefficient, bc: centrality), sssp: "vertex distance parent" with inf / -1
                       where unreached; tc: the single line "triangles N"; msbfs:
                       "source vertex level" for every reached vertex of every source
  --json FILE          configuration, times and result summary as JSON
Execution:
  --grid RxC           process grid (default: most square)
  --threads T          OpenMP threads per rank
  --help
)";

const std::set<std::string> kImplemented{"cc", "pagerank", "sssp", "tc", "lcc", "msbfs", "bc"};

/// Every rank's (vertex, value) rows, on rank 0 only, sorted by vertex. Collective.
template <class T>
std::vector<std::pair<gindex_t, T>> gather_rows(ProcessGrid& grid, gindex_t begin,
                                                const std::vector<T>& piece) {
    struct Row {
        gindex_t v;
        T x;
    };
    std::vector<Row> mine(piece.size()), all;
    for (std::size_t k = 0; k < piece.size(); ++k) mine[k] = {begin + gindex_t(k), piece[k]};
    std::vector<int> counts(std::size_t(grid.size()), 0), recv_counts;
    counts[0] = int(mine.size());
    grid.world().alltoallv(std::span<const Row>(mine), std::span<const int>(counts), all,
                           recv_counts, "output");
    std::vector<std::pair<gindex_t, T>> out;
    for (const Row& r : all) out.emplace_back(r.v, r.x);
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    return out;
}

std::string real_text(double x) {
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

std::ofstream open_output(const std::string& path) {
    std::ofstream f(path);
    if (!f) throw IoError("cannot write " + path);
    return f;
}

void print_times(const bench::Summary& s) {
    std::printf(
        "min_time: %.6g\nfirstquartile_time: %.6g\nmedian_time: %.6g\nthirdquartile_time: "
        "%.6g\nmax_time: %.6g\nmean_time: %.6g\nstddev_time: %.6g\n",
        s.min, s.firstquartile, s.median, s.thirdquartile, s.max, s.mean, s.stddev);
}

/// What one run reports besides its time.
struct RunSummary {
    std::string json;  // "key":value pairs
    std::string text;  // "key: value" lines
};

int run(int argc_all, char** argv_all, int world_rank) {
    if (argc_all >= 2 &&
        (std::string(argv_all[1]) == "--help" || std::string(argv_all[1]) == "-h")) {
        if (world_rank == 0) std::fputs(kHelp, stdout);
        return 0;
    }
    if (argc_all < 2 || std::string(argv_all[1]).rfind("--", 0) == 0) {
        throw std::invalid_argument(
            "missing ALGO (one of cc, pagerank, sssp, tc, lcc, msbfs, bc; see --help)");
    }
    const std::string algo = argv_all[1];
    if (!kImplemented.count(algo)) {
        throw std::invalid_argument("unknown ALGO '" + algo +
                                    "' (expected cc, pagerank, sssp, tc, lcc, msbfs or bc)");
    }
    // The options follow ALGO; the parser sees them as a program's arguments.
    const int argc = argc_all - 1;
    char** argv = argv_all + 1;
    bench::Cli cli(argc, argv,
                   {"file", "scale", "edgefactor", "seed", "source", "sources", "delta",
                    "iterations", "tolerance", "damping", "presort", "method", "trials", "output",
                    "json", "grid", "threads", "weights"},
                   {"directed", "weighted", "no-validate", "no-parents", "help"});
    if (cli.has("help")) {
        if (world_rank == 0) std::fputs(kHelp, stdout);
        return 0;
    }
    const bool from_file = cli.has("file");
    if (from_file == cli.has("scale")) {
        throw std::invalid_argument("give one graph: --file PATH or --scale S");
    }
    if (from_file && (cli.has("edgefactor") || cli.has("weighted"))) {
        throw std::invalid_argument("--edgefactor and --weighted go with --scale, not --file");
    }
    if (algo != "sssp" && (cli.has("source") || cli.has("delta") || cli.has("weighted") ||
                           cli.has("no-parents") || cli.has("weights"))) {
        throw std::invalid_argument(
            "--source, --delta, --weighted, --weights and --no-parents apply to sssp only");
    }
    const std::string weights = cli.str("weights", "double");
    if (weights != "double" && weights != "float") {
        throw std::invalid_argument("option --weights: '" + weights +
                                    "' is not a weight type (expected double or float)");
    }
    const bool float_weights = weights == "float";
    if (algo != "pagerank" &&
        (cli.has("iterations") || cli.has("tolerance") || cli.has("damping"))) {
        throw std::invalid_argument(
            "--iterations, --tolerance and --damping apply to pagerank only");
    }
    if (algo != "msbfs" && algo != "bc" && cli.has("sources")) {
        throw std::invalid_argument("--sources applies to msbfs and bc only");
    }
    std::vector<gindex_t> sources;
    for (const std::int64_t v : bench::parse_id_list(cli.str("sources", "0"), "--sources")) {
        sources.push_back(gindex_t(v));
    }
    if (algo != "tc" && (cli.has("presort") || cli.has("method"))) {
        throw std::invalid_argument("--presort and --method apply to tc only");
    }
    if ((algo == "tc" || algo == "lcc") && cli.has("directed")) {
        throw std::invalid_argument(algo +
                                    " counts triangles of an undirected graph; drop --directed");
    }
    TriangleOptions to;
    to.presort = bench::parse_degree_sort(cli.str("presort", "auto"));
    to.method = bench::parse_mxm_method(cli.str("method", "auto"));
    KroneckerParams kp;
    kp.scale = int(cli.integer("scale", 16, 1, 40));
    kp.edgefactor = int(cli.integer("edgefactor", 16, 1, 1024));
    kp.seed = std::uint64_t(cli.integer("seed", 1, 0, std::int64_t(1) << 62));
    const int trials = int(cli.integer("trials", 1, 1, 1 << 20));
    const gindex_t source = cli.integer("source", 0, 0, std::int64_t(1) << 62);
    SsspOptions so;
    so.delta = cli.real("delta", 0.0);
    so.parents = !cli.has("no-parents");
    PageRankOptions po;
    po.iterations = int(cli.integer("iterations", 100, 0, 1 << 30));
    po.tolerance = cli.real("tolerance", 0.0);
    po.damping = cli.real("damping", 0.85);
    if (cli.has("threads")) omp_set_num_threads(int(cli.integer("threads", 1, 1, 4096)));
    GraphOptions go;
    go.symmetrize = !cli.has("directed");
    int pr = 0, pc = 0;
    if (cli.has("grid")) {
        const std::string g = cli.str("grid", "");
        if (std::sscanf(g.c_str(), "%dx%d", &pr, &pc) != 2 || pr <= 0 || pc <= 0) {
            throw std::invalid_argument("option --grid: '" + g + "' is not RxC");
        }
    }
    auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc);
    const bool root0 = grid->rank() == 0;
    const std::string path = cli.str("file", "");

    // Construction.
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    DistMatrix<Pattern> a;
    DistMatrix<double> aw;
    DistMatrix<float> awf;  // --weights float: the weights rounded to float
    if (algo == "sssp") {
        if (from_file) {
            aw = read_weighted_graph_matrix_market(grid, path, go);
        } else {
            aw = weighted_kronecker_graph(grid, kp, go);
            if (!cli.has("weighted")) aw = apply(aw, [](double) { return 1.0; });
        }
        if (float_weights) {
            awf = apply(aw, [](double w) { return float(w); });
            aw = DistMatrix<double>();
        }
    } else {
        a = from_file ? read_graph_matrix_market(grid, path, go) : kronecker_graph(grid, kp, go);
    }
    const double construction =
        grid->world().allreduce(MPI_Wtime() - t0, comm::ReduceOp::max, "construction");
    const gindex_t n = algo != "sssp" ? a.nrows() : float_weights ? awf.nrows() : aw.nrows();
    const gindex_t nnz = algo != "sssp" ? a.nvals() : float_weights ? awf.nvals() : aw.nvals();
    if (algo == "sssp" && source >= n) {
        throw IndexOutOfBounds("--source " + std::to_string(source) +
                               " is not a vertex (the graph has " + std::to_string(n) + ")");
    }
    if (root0) {
        std::fprintf(stderr,
                     "gridblas-graph: %lld vertices, %lld stored entries, built in %.2f s\n",
                     (long long)n, (long long)nnz, construction);
    }

    // One run of the algorithm; the last result is kept for the output.
    CcResult cc;
    PageRankResult prr;
    SsspResult sp;
    TriangleResult tr;
    MultiSourceBfsResult ms;
    BcResult bcr;
    LccResult lc;
    std::uint64_t failures = 0;
    const bool validate = !cli.has("no-validate");
    auto once = [&]() -> double {
        if (algo == "cc") {
            CcOptions o;
            o.symmetric = go.symmetrize;
            cc = connected_components(a, o);
            return cc.seconds;
        }
        if (algo == "pagerank") {
            prr = pagerank(a, po);
            return prr.seconds;
        }
        if (algo == "tc") {
            tr = triangle_count(a, to);
            return tr.seconds;
        }
        if (algo == "lcc") {
            lc = local_clustering(a);
            return lc.seconds;
        }
        if (algo == "msbfs") {
            ms = multi_source_bfs(a, sources);
            return ms.seconds;
        }
        if (algo == "bc") {
            BcOptions bo;
            bo.symmetric = go.symmetrize;
            bcr = betweenness_centrality(a, sources, bo);
            return bcr.seconds;
        }
        sp = float_weights ? sssp(awf, source, so) : sssp(aw, source, so);
        return sp.seconds;
    };
    once();  // untimed warm-up
    std::vector<double> times;
    for (int k = 0; k < trials; ++k) {
        times.push_back(once());
        if (algo == "sssp" && validate) {
            const SsspValidation v = float_weights ? validate_sssp(awf, sp) : validate_sssp(aw, sp);
            if (!v.ok()) {
                ++failures;
                if (root0) std::fprintf(stderr, "run %d: %s\n", k, v.summary().c_str());
            }
        }
    }

    RunSummary rs;
    {
        std::ostringstream j, t;
        if (algo == "cc") {
            j << "\"components\":" << cc.components << ",\"iterations\":" << cc.iterations;
            t << "components: " << cc.components << "\niterations: " << cc.iterations << '\n';
        } else if (algo == "pagerank") {
            j << "\"iterations\":" << prr.iterations << ",\"residual\":" << prr.residual;
            t << "iterations: " << prr.iterations << "\nresidual: " << prr.residual << '\n';
        } else if (algo == "tc") {
            const double mp =
                grid->world().allreduce(double(tr.product.flops), comm::ReduceOp::sum, "tc-flops");
            j << "\"triangles\":" << tr.triangles
              << ",\"presorted\":" << (tr.presorted ? "true" : "false")
              << ",\"product_seconds\":" << tr.seconds_product << ",\"product_flops\":" << mp;
            t << "triangles: " << tr.triangles << "\npresorted: " << (tr.presorted ? 1 : 0)
              << "\nproduct_time: " << tr.seconds_product << "\nproduct_flops: " << mp
              << "\nproduct_method: " << int(tr.product.method) << '\n';
        } else if (algo == "bc") {
            j << "\"sources\":" << sources.size() << ",\"depth\":" << bcr.depth;
            t << "sources: " << sources.size() << "\ndepth: " << bcr.depth << '\n';
        } else if (algo == "msbfs") {
            const gindex_t reached = ms.levels.nvals();
            j << "\"sources\":" << ms.sources.size() << ",\"depth\":" << ms.depth
              << ",\"reached\":" << reached;
            t << "sources: " << ms.sources.size() << "\ndepth: " << ms.depth
              << "\nreached: " << reached << '\n';
        } else if (algo == "lcc") {
            double sum = 0;
            for (double x : lc.coefficient) sum += x;
            sum = grid->world().allreduce(sum, comm::ReduceOp::sum, "lcc-sum");
            j << "\"mean_coefficient\":" << sum / double(std::max<gindex_t>(n, 1));
            t << "mean_coefficient: " << sum / double(std::max<gindex_t>(n, 1)) << '\n';
        } else {
            j << "\"source\":" << source << ",\"reached\":" << sp.reached
              << ",\"delta\":" << sp.delta << ",\"buckets\":" << sp.buckets
              << ",\"rounds\":" << sp.rounds << ",\"relaxed_edges\":" << sp.relaxed_edges
              << ",\"parent_seconds\":" << sp.parent_seconds << ",\"weights\":\"" << weights << '"';
            t << "weights: " << weights << "\nsource: " << source << "\nreached: " << sp.reached
              << "\ndelta: " << sp.delta << "\nbuckets: " << sp.buckets << "\nrounds: " << sp.rounds
              << "\nrelaxed_edges: " << sp.relaxed_edges
              << "\nparent_seconds: " << sp.parent_seconds << '\n';
        }
        rs.json = j.str();
        rs.text = t.str();
    }

    if (cli.has("output")) {
        const std::string out = cli.str("output", "");
        if (algo == "cc") {
            const auto rows = gather_rows(*grid, cc.local_begin, cc.component);
            if (root0) {
                auto f = open_output(out);
                for (const auto& [v, c] : rows) f << v << ' ' << c << '\n';
                if (!f) throw IoError("error writing " + out);
            }
        } else if (algo == "tc") {
            if (root0) {
                auto f = open_output(out);
                f << "triangles " << tr.triangles << '\n';
                if (!f) throw IoError("error writing " + out);
            }
        } else if (algo == "bc") {
            const auto rows = gather_rows(*grid, bcr.local_begin, bcr.centrality);
            if (root0) {
                auto f = open_output(out);
                for (const auto& [v, x] : rows) f << v << ' ' << real_text(x) << '\n';
                if (!f) throw IoError("error writing " + out);
            }
        } else if (algo == "msbfs") {
            std::vector<gindex_t> rr, cc, vv;
            extract_tuples(ms.levels, rr, cc, vv, 0);
            if (root0) {
                auto f = open_output(out);
                for (std::size_t k = 0; k < rr.size(); ++k) {
                    f << ms.sources[std::size_t(rr[k])] << ' ' << cc[k] << ' ' << vv[k] << '\n';
                }
                if (!f) throw IoError("error writing " + out);
            }
        } else if (algo == "lcc") {
            const auto rows = gather_rows(*grid, lc.local_begin, lc.coefficient);
            if (root0) {
                auto f = open_output(out);
                for (const auto& [v, x] : rows) f << v << ' ' << real_text(x) << '\n';
                if (!f) throw IoError("error writing " + out);
            }
        } else if (algo == "pagerank") {
            const auto rows = gather_rows(*grid, prr.local_begin, prr.rank);
            if (root0) {
                auto f = open_output(out);
                for (const auto& [v, x] : rows) f << v << ' ' << real_text(x) << '\n';
                if (!f) throw IoError("error writing " + out);
            }
        } else {
            const auto d = gather_rows(*grid, sp.local_begin, sp.distance);
            const auto p = sp.has_parents ? gather_rows(*grid, sp.local_begin, sp.parent)
                                          : std::vector<std::pair<gindex_t, gindex_t>>{};
            if (root0) {
                auto f = open_output(out);
                for (std::size_t k = 0; k < d.size(); ++k) {
                    f << d[k].first << ' ' << real_text(d[k].second);
                    if (sp.has_parents) f << ' ' << p[k].second;
                    f << '\n';
                }
                if (!f) throw IoError("error writing " + out);
            }
        }
    }

    const bench::Summary ts = bench::summarize(times);
    if (root0) {
        std::printf("algorithm: %s\ngraph: %s\n", algo.c_str(),
                    from_file ? path.c_str() : "kronecker");
        std::printf("SCALE: %d\nedgefactor: %d\ntrials: %d\n", from_file ? 0 : kp.scale,
                    from_file ? 0 : kp.edgefactor, trials);
        std::printf("num_mpi_processes: %d\ngrid: %dx%d\nthreads: %d\n", grid->size(), grid->pr(),
                    grid->pc(), omp_get_max_threads());
        std::printf("construction_time: %.6g\nvertices: %lld\nstored_entries: %lld\n", construction,
                    (long long)n, (long long)nnz);
        std::fputs(rs.text.c_str(), stdout);
        print_times(ts);
        if (algo == "sssp") {
            std::printf("validation: %s\n",
                        validate ? (failures ? "FAILED" : "passed") : "skipped");
        }
    }
    if (cli.has("json") && root0) {
        std::ofstream j(cli.str("json", ""));
        if (!j) throw IoError("cannot write " + cli.str("json", ""));
        j << "{\"program\":\"gridblas-graph\",\"version\":\"" << GRIDBLAS_VERSION_STRING
          << "\",\"algorithm\":\"" << algo << "\",\"graph\":{\"source\":\""
          << (from_file ? path : "kronecker") << "\",\"scale\":" << kp.scale
          << ",\"edgefactor\":" << kp.edgefactor << ",\"seed\":" << kp.seed << ",\"vertices\":" << n
          << ",\"stored_entries\":" << nnz
          << ",\"symmetric\":" << (go.symmetrize ? "true" : "false")
          << "},\"config\":{\"ranks\":" << grid->size() << ",\"grid\":\"" << grid->pr() << 'x'
          << grid->pc() << "\",\"threads\":" << omp_get_max_threads() << ",\"trials\":" << trials
          << "},\"construction_seconds\":" << construction << ",\"result\":{" << rs.json
          << "},\"time\":{\"min\":" << ts.min << ",\"median\":" << ts.median
          << ",\"max\":" << ts.max << ",\"mean\":" << ts.mean << ",\"stddev\":" << ts.stddev
          << "},\"validation_failures\":" << failures << "}\n";
    }
    return failures ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::mpi_main(argc, argv, "gridblas-graph", run);
}
