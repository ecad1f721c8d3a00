// gridblas-bfs: a Graph500-style BFS benchmark. Generates (Kronecker) or reads (Matrix
// Market) a graph, times its construction, picks search keys of degree >= 1, runs and times
// one BFS per key after an untimed warm-up, validates each search (untimed), and prints the
// Graph500 statistics block. See --help.

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/graph500_stats.hpp"
#include "common/mpi_main.hpp"
#include "gridblas/algorithms/bfs.hpp"
#include "gridblas/config.hpp"
#include "gridblas/core/context.hpp"
#include "gridblas/cuda/bfs.hpp"
#include "gridblas/cuda/device.hpp"
#include "gridblas/matrix/convert.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "gridblas/vector/dist_vector.hpp"

using namespace gridblas;

namespace {

const char* kHelp = R"(gridblas-bfs: Graph500-style distributed BFS benchmark

Graph (one of):
  --scale S            Kronecker graph with 2^S vertices (default 16)
  --edgefactor E       edges per vertex (default 16)
  --seed X             generator and search-key seed (default 1)
  --file PATH          read a Matrix Market graph instead, as the file declares it: a
                       `general` file is a directed graph (row i, column j is the edge
                       i -> j), a `symmetric` or `skew-symmetric` one an undirected graph;
                       self-loops are dropped and a repeated entry is one edge
  --symmetrize         search the undirected graph: add j -> i for every edge i -> j
  --directed           keep the edge directions: the default for a `general` file; a
                       directed Kronecker graph; a symmetric file is read as the arcs
                       i -> j and j -> i (TEPS then count arcs)
  --relabel            store the graph under a random vertex relabelling (load balance;
                       results are reported in the original ids)
Run:
  --roots N            number of search keys (default 64)
  --root R             search from vertex R only (0-based)
  --output FILE        with --root: write "vertex parent level" per vertex (-1 = unreached)
  --no-validate        skip the (untimed) Graph500 validation of each search
  --levels             print the per-level table of the first search
  --json FILE          write everything (config, searches, levels, counters) as JSON
Execution:
  --grid RxC           process grid (default: most square)
  --threads T          OpenMP threads per rank
  --direction D        auto | topdown | bottomup (default auto)
  --alpha A --beta B   direction-switch parameters (default 15, 18)
  --parents P          min | any | after (default min)
  --comm C             auto | mpi | butterfly | ring (default auto)
  --fanout K           butterfly radix (default 2)
  --wire W             auto | raw | delta | bitmap (default auto)
  --local-format F     dcsc | csr (default dcsc)
  --backend B          cpu | cuda (default cpu). cuda on one rank: the single-GPU BFS;
                       on several ranks: one GPU per rank, local work on the device and
                       the frontier exchange staged through pinned host memory
  --cuda-dist          with --backend cuda on one rank, run the distributed solver too
  --help
)";

struct Search {
    gindex_t root;
    double seconds;
    double edges;  // undirected edges (or arcs) in the traversed component
    gindex_t reached;
    int depth;
    std::vector<BfsLevelStats> levels;
};

/// Picks `count` distinct vertices of degree >= 1 with a seeded generator; every rank draws
/// the same candidates and the owners report their degrees in one allreduce per batch.
std::vector<gindex_t> pick_roots(ProcessGrid& grid, const BfsSolver& solver, const Distribution& d,
                                 gindex_t begin, int count, std::uint64_t seed,
                                 gindex_t total_edges) {
    std::vector<gindex_t> roots;
    if (total_edges == 0) return roots;
    std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + 12345);
    std::uniform_int_distribution<gindex_t> pick(0, d.length - 1);
    std::set<gindex_t> seen;
    const auto& deg = solver.local_degrees();
    for (int round = 0; int(roots.size()) < count && round < 1000; ++round) {
        std::vector<gindex_t> cand(256), has(256, 0);
        for (auto& c : cand) c = pick(rng);
        for (std::size_t k = 0; k < cand.size(); ++k) {
            const gindex_t v = cand[k];
            if (v >= begin && v < begin + gindex_t(deg.size()))
                has[k] = deg[std::size_t(v - begin)];
        }
        grid.world().allreduce(std::span<gindex_t>(has), comm::ReduceOp::sum, "pick-roots");
        for (std::size_t k = 0; k < cand.size() && int(roots.size()) < count; ++k) {
            if (has[k] > 0 && seen.insert(cand[k]).second) roots.push_back(cand[k]);
        }
    }
    return roots;
}

/// Edges of the traversed component: half the degree sum of the reached vertices for a
/// symmetric graph (each undirected edge once), the out-degree sum for a directed one.
double component_edges(ProcessGrid& grid, const BfsResult& r, const std::vector<gindex_t>& deg,
                       bool symmetric) {
    gindex_t s = 0;
    for (std::size_t k = 0; k < r.level.size(); ++k) {
        if (r.level[k] >= 0) s += deg[k];
    }
    s = grid.world().allreduce(s, comm::ReduceOp::sum, "teps-edges");
    return symmetric ? double(s) / 2.0 : double(s);
}

void write_output(ProcessGrid& grid, const BfsResult& r, const std::string& path) {
    std::vector<gindex_t> mine;
    for (std::size_t k = 0; k < r.parent.size(); ++k) {
        mine.push_back(r.local_begin + gindex_t(k));
        mine.push_back(r.parent[k]);
        mine.push_back(r.level[k]);
    }
    std::vector<gindex_t> all;
    std::vector<int> counts;
    grid.world().allgatherv(std::span<const gindex_t>(mine), all, counts, "output");
    if (grid.rank() != 0) return;
    std::vector<std::array<gindex_t, 3>> rows(all.size() / 3);
    for (std::size_t k = 0; k < rows.size(); ++k)
        rows[k] = {all[3 * k], all[3 * k + 1], all[3 * k + 2]};
    std::sort(rows.begin(), rows.end());
    std::ofstream f(path);
    if (!f) throw IoError("cannot write " + path);
    for (const auto& x : rows) f << x[0] << ' ' << x[1] << ' ' << x[2] << '\n';
    if (!f) throw IoError("error writing " + path);
}

void print_levels(const std::vector<BfsLevelStats>& levels) {
    std::printf("%5s %4s %12s %12s %14s %10s %12s %12s %10s %10s\n", "level", "dir", "frontier",
                "discovered", "edges", "messages", "bytes_wire", "bytes_raw", "time_ms", "comm_ms");
    for (const auto& l : levels) {
        std::printf("%5d %4s %12lld %12lld %14llu %10llu %12llu %12llu %10.3f %10.3f\n", l.level,
                    l.bottom_up ? "BU" : "TD", (long long)l.frontier, (long long)l.discovered,
                    (unsigned long long)l.edges_examined, (unsigned long long)l.messages,
                    (unsigned long long)l.bytes_wire, (unsigned long long)l.bytes_raw,
                    l.seconds * 1e3, l.comm_seconds * 1e3);
    }
}

std::string levels_json(const std::vector<BfsLevelStats>& levels) {
    std::ostringstream o;
    o << '[';
    for (std::size_t k = 0; k < levels.size(); ++k) {
        const auto& l = levels[k];
        o << (k ? "," : "") << "{\"level\":" << l.level << ",\"direction\":\""
          << (l.bottom_up ? "bottomup" : "topdown") << "\",\"frontier\":" << l.frontier
          << ",\"discovered\":" << l.discovered << ",\"edges_examined\":" << l.edges_examined
          << ",\"messages\":" << l.messages << ",\"bytes_wire\":" << l.bytes_wire
          << ",\"bytes_raw\":" << l.bytes_raw << ",\"seconds\":" << l.seconds
          << ",\"comm_seconds\":" << l.comm_seconds << '}';
    }
    o << ']';
    return o.str();
}

void print_block(const char* name, const bench::Summary& s, bool rate) {
    std::printf(
        "min_%s: %.6g\nfirstquartile_%s: %.6g\nmedian_%s: %.6g\nthirdquartile_%s: %.6g\n"
        "max_%s: %.6g\n",
        name, s.min, name, s.firstquartile, name, s.median, name, s.thirdquartile, name, s.max);
    std::printf("mean_%s: %.6g\nstddev_%s: %.6g\n", name, s.mean, name, s.stddev);
    if (rate) {
        std::printf("harmonic_mean_%s: %.6g\nharmonic_stddev_%s: %.6g\n", name, s.harmonic_mean,
                    name, s.harmonic_stddev);
    }
}

std::string summary_json(const bench::Summary& s) {
    std::ostringstream o;
    o << "{\"min\":" << s.min << ",\"firstquartile\":" << s.firstquartile
      << ",\"median\":" << s.median << ",\"thirdquartile\":" << s.thirdquartile
      << ",\"max\":" << s.max << ",\"mean\":" << s.mean << ",\"stddev\":" << s.stddev
      << ",\"harmonic_mean\":" << s.harmonic_mean << ",\"harmonic_stddev\":" << s.harmonic_stddev
      << '}';
    return o.str();
}

std::string counters_json(const comm::Communicator& c) {
    std::ostringstream o;
    o << '{';
    bool first = true;
    for (const auto& [site, k] : c.counters()) {
        o << (first ? "" : ",") << '"' << site << "\":{\"calls\":" << k.calls
          << ",\"messages\":" << k.messages << ",\"bytes_wire\":" << k.bytes_wire
          << ",\"bytes_raw\":" << k.bytes_raw << ",\"seconds\":" << k.seconds << '}';
        first = false;
    }
    o << '}';
    return o.str();
}

int run(int argc, char** argv, int world_rank) {
    bench::Cli cli(
        argc, argv,
        {"scale", "edgefactor", "seed", "file", "roots", "root", "output", "json", "grid",
         "threads", "direction", "alpha", "beta", "parents", "comm", "fanout", "wire",
         "local-format", "backend"},
        {"directed", "symmetrize", "relabel", "no-validate", "levels", "cuda-dist", "help"});
    if (cli.has("help")) {
        if (world_rank == 0) std::fputs(kHelp, stdout);
        return 0;
    }
    const bool from_file = cli.has("file");
    if (from_file && (cli.has("scale") || cli.has("edgefactor"))) {
        throw std::invalid_argument("--file cannot be combined with --scale/--edgefactor");
    }
    if (cli.has("directed") && cli.has("symmetrize")) {
        throw std::invalid_argument("--directed and --symmetrize contradict each other");
    }
    if (cli.has("output") && !cli.has("root")) {
        throw std::invalid_argument("--output needs --root R");
    }
    KroneckerParams kp;
    kp.scale = int(cli.integer("scale", 16, 1, 40));
    kp.edgefactor = int(cli.integer("edgefactor", 16, 1, 1024));
    kp.seed = std::uint64_t(cli.integer("seed", 1, 0, std::int64_t(1) << 62));
    const int nroots = int(cli.integer("roots", 64, 1, 1 << 20));
    if (cli.has("threads")) omp_set_num_threads(int(cli.integer("threads", 1, 1, 4096)));
    BfsOptions bo;
    bo.direction = parse_bfs_direction(cli.str("direction", "auto"));
    bo.parents = parse_parent_mode(cli.str("parents", "min"));
    bo.alpha = cli.real("alpha", bo.alpha);
    bo.beta = cli.real("beta", bo.beta);
    comm::Options co;
    co.backend = comm::parse_backend(cli.str("comm", "auto"));
    co.wire = comm::parse_wire_format(cli.str("wire", "auto"));
    co.fanout = int(cli.integer("fanout", 2, 2, 1024));
    GraphOptions go;
    go.format = parse_local_format(cli.str("local-format", "dcsc"));
    go.symmetrize = !cli.has("directed");  // a file's own declaration is read below
    go.relabel = cli.has("relabel");
    go.relabel_seed = kp.seed;
    const std::string backend = cli.str("backend", "cpu");
    if (backend != "cpu" && backend != "cuda") {
        throw std::invalid_argument("option --backend: '" + backend + "' (expected cpu or cuda)");
    }
    const bool use_cuda = backend == "cuda";
    if (use_cuda && !GRIDBLAS_HAVE_CUDA) throw NotCompiled("this gridblas was built without CUDA");
    int pr = 0, pc = 0;
    if (cli.has("grid")) {
        const std::string g = cli.str("grid", "");
        if (std::sscanf(g.c_str(), "%dx%d", &pr, &pc) != 2 || pr <= 0 || pc <= 0) {
            throw std::invalid_argument("option --grid: '" + g + "' is not RxC");
        }
    }
    auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc, co);
    const bool root0 = grid->rank() == 0;
    // --backend cuda: one rank runs the device-resident single-GPU BFS; several ranks (or
    // --cuda-dist) run the distributed BFS with each rank's local work on its own GPU.
    const bool cuda_single = use_cuda && grid->size() == 1 && !cli.has("cuda-dist");
    if (use_cuda && !cuda_single) grid->set_exec_backend(ExecBackend::cuda);
    if (cuda_single && !cuda_available()) {
        throw CudaError("--backend cuda: " + cuda_unavailable_reason());
    }

    // A file is read as it declares itself unless --directed or --symmetrize says otherwise.
    const std::string file = cli.str("file", "");
    MatrixMarketHeader header;
    if (from_file) {
        header = read_matrix_market_header(*grid, file);
        go.symmetrize = cli.has("symmetrize") ||
                        (!cli.has("directed") && header.symmetry != MatrixMarketSymmetry::general);
    }

    // Kernel 1: construction.
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (root0) std::fprintf(stderr, "gridblas-bfs: building the graph...\n");
    DistMatrix<Pattern> a =
        from_file ? read_graph_matrix_market(grid, file, go) : kronecker_graph(grid, kp, go);
    BfsSolver solver(a, bo);
    const double construction =
        grid->world().allreduce(MPI_Wtime() - t0, comm::ReduceOp::max, "k1");
    const gindex_t n = a.nrows();
    const gindex_t nnz = a.nvals();
    // Self-loops are dropped, so an undirected graph stores each edge twice.
    const gindex_t nedges = go.symmetrize ? nnz / 2 : nnz;
    const std::string graph_name = from_file ? file
                                             : "kronecker SCALE " + std::to_string(kp.scale) +
                                                   " edgefactor " + std::to_string(kp.edgefactor) +
                                                   " seed " + std::to_string(kp.seed);
    if (root0) {
        std::fprintf(stderr, "gridblas-bfs: %lld vertices, %lld stored entries, built in %.2f s\n",
                     (long long)n, (long long)nnz, construction);
    }

    std::vector<gindex_t> roots;
    if (cli.has("root")) {
        const gindex_t r = cli.integer("root", 0, 0, std::int64_t(1) << 62);
        if (r >= n) {
            throw IndexOutOfBounds("--root " + std::to_string(r) +
                                   " is not a vertex (the graph has " + std::to_string(n) + ")");
        }
        roots.push_back(r);
    } else {
        DistVector<Pattern> shape(grid, n);
        roots = pick_roots(*grid, solver, a.row_dist(), shape.local_begin(), nroots, kp.seed, nnz);
        if (roots.empty()) throw InvalidValue("the graph has no vertex of degree >= 1");
    }
    const bool validate = !cli.has("no-validate");
    // On one rank the cuda backend runs the single-GPU BFS on the whole graph.
    std::unique_ptr<cuda::BfsGpuSolver> gpu;
    cuda::BfsGpuResult gpu_result;
    if (cuda_single) {
        cuda::BfsGpuOptions g;
        g.direction = bo.direction;
        g.alpha = bo.alpha;
        g.beta = bo.beta;
        g.symmetric = go.symmetrize;
        const Csr<Pattern> host =
            a.local_format() == LocalFormat::csr ? a.by_row().csr() : to_csr(a.by_col().dcsc());
        gpu = std::make_unique<cuda::BfsGpuSolver>(host, g);
    }
    BfsResult result;
    auto search = [&](gindex_t root) {
        if (!gpu) {
            solver.run(root, result);
            return;
        }
        gpu->run(root, gpu_result);
        result.dist = a.row_dist();
        result.local_begin = 0;
        result.parent = gpu_result.parent;
        result.level = gpu_result.level;
        result.source = root;
        result.reached = gpu_result.reached;
        result.depth = gpu_result.depth;
        result.seconds = gpu_result.seconds;
        result.levels = gpu_result.levels;
    };
    search(roots.front());  // untimed warm-up
    grid->reset_counters();

    std::vector<Search> searches;
    std::uint64_t failures = 0;
    double last_progress = MPI_Wtime();
    for (std::size_t k = 0; k < roots.size(); ++k) {
        search(roots[k]);
        Search s{roots[k],
                 result.seconds,
                 component_edges(*grid, result, solver.local_degrees(), go.symmetrize),
                 result.reached,
                 result.depth,
                 result.levels};
        if (validate) {
            const BfsValidation v = validate_bfs(a, result);
            if (!v.ok()) {
                ++failures;
                if (root0)
                    std::fprintf(stderr, "root %lld: %s\n", (long long)roots[k],
                                 v.summary().c_str());
            }
        }
        searches.push_back(std::move(s));
        if (root0 && MPI_Wtime() - last_progress > 5.0) {
            std::fprintf(stderr, "gridblas-bfs: %zu of %zu searches done\n", k + 1, roots.size());
            last_progress = MPI_Wtime();
        }
    }
    if (cli.has("output")) write_output(*grid, result, cli.str("output", ""));

    std::vector<double> times, teps;
    for (const auto& s : searches) {
        times.push_back(s.seconds);
        teps.push_back(s.edges / s.seconds);
    }
    const bench::Summary ts = bench::summarize(times), rs = bench::summarize(teps);
    if (root0) {
        if (cli.has("levels")) print_levels(searches.front().levels);
        std::printf("graph: %s, %s, %lld vertices, %lld edges\n", graph_name.c_str(),
                    go.symmetrize ? "undirected" : "directed", (long long)n, (long long)nedges);
        if (!from_file) std::printf("SCALE: %d\nedgefactor: %d\n", kp.scale, kp.edgefactor);
        std::printf("NBFS: %zu\n", searches.size());
        std::printf("graph_generation: %.6g\nnum_mpi_processes: %d\ngrid: %dx%d\nthreads: %d\n",
                    construction, grid->size(), grid->pr(), grid->pc(), omp_get_max_threads());
        std::printf("construction_time: %.6g\n", construction);
        std::printf("vertices: %lld\nstored_entries: %lld\n", (long long)n, (long long)nnz);
        std::printf("edge_count_convention: %s\n",
                    go.symmetrize ? "undirected edges with both ends reached, after removing "
                                    "self-loops and duplicates (degree sum / 2)"
                                  : "directed arcs leaving reached vertices");
        print_block("time", ts, false);
        print_block("nedge", bench::summarize([&] {
                        std::vector<double> e;
                        for (const auto& s : searches) e.push_back(s.edges);
                        return e;
                    }()),
                    false);
        print_block("TEPS", rs, true);
        std::printf("validation: %s\n", validate ? (failures ? "FAILED" : "passed") : "skipped");
    }
    if (cli.has("json") && root0) {
        std::ofstream j(cli.str("json", ""));
        if (!j) throw IoError("cannot write " + cli.str("json", ""));
        j << "{\"program\":\"gridblas-bfs\",\"version\":\"" << GRIDBLAS_VERSION_STRING << "\""
          << ",\"graph\":{\"source\":\"" << (from_file ? file : "kronecker") << '"';
        if (from_file) {
            j << ",\"declared_symmetry\":\"" << to_string(header.symmetry) << '"';
        } else {
            j << ",\"scale\":" << kp.scale << ",\"edgefactor\":" << kp.edgefactor
              << ",\"seed\":" << kp.seed;
        }
        j << ",\"directed\":" << (go.symmetrize ? "false" : "true") << ",\"vertices\":" << n
          << ",\"edges\":" << nedges << ",\"stored_entries\":" << nnz << "}"
          << ",\"config\":{\"ranks\":" << grid->size() << ",\"grid\":\"" << grid->pr() << 'x'
          << grid->pc() << "\",\"threads\":" << omp_get_max_threads() << ",\"direction\":\""
          << to_string(bo.direction) << "\",\"parents\":\"" << to_string(bo.parents)
          << "\",\"alpha\":" << bo.alpha << ",\"beta\":" << bo.beta << ",\"comm\":\""
          << comm::to_string(co.backend) << "\",\"backend\":\"" << backend
          << "\",\"fanout\":" << co.fanout << ",\"wire\":\"" << comm::to_string(co.wire)
          << "\",\"local_format\":\"" << to_string(go.format)
          << "\"},\"construction_seconds\":" << construction
          << ",\"validated\":" << (validate ? "true" : "false")
          << ",\"validation_failures\":" << failures << ",\"time\":" << summary_json(ts)
          << ",\"teps\":" << summary_json(rs) << ",\"searches\":[";
        for (std::size_t k = 0; k < searches.size(); ++k) {
            const auto& s = searches[k];
            j << (k ? "," : "") << "{\"root\":" << s.root << ",\"seconds\":" << s.seconds
              << ",\"edges\":" << s.edges << ",\"reached\":" << s.reached
              << ",\"depth\":" << s.depth << ",\"levels\":" << levels_json(s.levels) << '}';
        }
        j << "],\"comm_counters_rank0\":{\"world\":" << counters_json(grid->world())
          << ",\"row\":" << counters_json(grid->row()) << ",\"col\":" << counters_json(grid->col())
          << "}}\n";
    }
    return failures ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::mpi_main(argc, argv, "gridblas-bfs", run);
}
