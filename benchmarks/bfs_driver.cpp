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
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/bfs_report.hpp"
#include "common/cli.hpp"
#include "common/graph500_stats.hpp"
#include "common/memory.hpp"
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
using gridblas::bench::count_disagreements;
using gridblas::bench::counters_json;
using gridblas::bench::key_ratios;
using gridblas::bench::levels_json;
using gridblas::bench::mean_of;
using gridblas::bench::ModeSearches;
using gridblas::bench::print_block;
using gridblas::bench::print_levels;
using gridblas::bench::print_mode_comparison;
using gridblas::bench::Search;
using gridblas::bench::Searches;
using gridblas::bench::statistics;
using gridblas::bench::Statistics;
using gridblas::bench::summary_json;

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
  --root R             search from vertex R only (0-based); with --roots N, N times
  --output FILE        with --root: write "vertex parent level" per vertex (-1 = unreached)
  --no-validate        skip the (untimed) Graph500 validation of each search
  --levels             print the per-level table of the first search (with --root R
                       --roots N: each level's mean time over the N searches)
  --json FILE          write everything (config, searches, levels, counters) as JSON
Execution:
  --grid RxC           process grid (default: most square)
  --threads T          OpenMP threads per rank
  --direction D        auto | topdown | bottomup (default auto)
  --alpha A --beta B   direction-switch parameters (default 15, 18)
  --parents P          min | any | after (default min); a list (min,any,after) builds
                       one solver per mode and runs every key with each, interleaved,
                       then compares their times and bytes on the wire key by key and
                       checks that they agree (levels; min and after: parents); the
                       search's peak memory then holds every mode's solver
  --comm C             auto | mpi | butterfly | ring (default auto)
  --fanout K           butterfly radix (default 2)
  --wire W             auto | raw | delta | bitmap (default auto)
  --calibrate          measure the latency and bandwidth (alpha, beta) of the grid's
                       communicators (all ranks, grid row, grid column) before the run,
                       for the cost model behind --comm auto and the wire formats,
                       instead of its defaults (2 us, 10 GB/s); the values are printed
  --local-format F     dcsc | csr (default dcsc)
  --layout L           auto | row | column: store edge u -> v at (u, v) or at (v, u);
                       auto (default) stores a directed graph by column on a cpu grid of
                       several rows, where bottom-up levels then read exactly one rank's
                       entries (and need no fold on a grid of one column)
  --backend B          cpu | cuda (default cpu). cuda on one rank: the single-GPU BFS;
                       on several ranks: one GPU per rank, local work on the device and
                       the frontier exchange staged through pinned host memory
  --cuda-dist          with --backend cuda on one rank, run the distributed solver too
  --help
)";

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

/// The out-degree sum of the reached vertices, by a pass over the result (collective).
gindex_t reached_degree_pass(ProcessGrid& grid, const BfsResult& r,
                             const std::vector<gindex_t>& deg) {
    gindex_t s = 0;
    for (std::size_t k = 0; k < r.level.size(); ++k) {
        if (r.level[k] >= 0) s += deg[k];
    }
    return grid.world().allreduce(s, comm::ReduceOp::sum, "teps-edges");
}

/// Edges of the traversed component (the TEPS count): half the out-degree sum of the reached
/// vertices for a symmetric graph (each undirected edge once), the sum for a directed one.
/// The distributed solver counts the sum as it searches (BfsResult::reached_degree_sum); the
/// single-GPU engine does not, and its results take the pass.
double component_edges(ProcessGrid& grid, const BfsResult& r, const std::vector<gindex_t>& deg,
                       bool symmetric) {
    const gindex_t s =
        r.reached_degree_sum >= 0 ? r.reached_degree_sum : reached_degree_pass(grid, r, deg);
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

/// --parents: one mode or a comma-separated list of distinct modes.
std::vector<ParentMode> parse_parent_modes(const std::string& list) {
    std::vector<ParentMode> modes;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        const ParentMode m = parse_parent_mode(item);  // InvalidValue names a bad one
        if (std::find(modes.begin(), modes.end(), m) != modes.end()) {
            throw std::invalid_argument("option --parents: '" + item + "' is listed twice");
        }
        modes.push_back(m);
    }
    if (modes.empty() || list.back() == ',') {
        throw std::invalid_argument("option --parents: '" + list + "' is not a list of modes");
    }
    return modes;
}

/// What the command line asks for (checked: contradictions and bad values throw).
struct Config {
    bool from_file = false;
    std::string file;
    bool directed = false;    // --directed
    bool symmetrize = false;  // --symmetrize
    KroneckerParams kp;
    int nroots = 64;
    bool explicit_roots = false;  // --roots given
    bool single_root = false;     // --root R
    gindex_t root = 0;
    std::string output;  // --output (with --root)
    std::string json;
    bool validate = true;
    bool print_levels = false;
    BfsOptions bo;                         // bo.parents: the first of parent_modes
    std::vector<ParentMode> parent_modes;  // --parents, in the order given
    comm::Options co;
    bool calibrate = false;  // --calibrate: measure alpha and beta on the grid's communicators
    GraphOptions go;         // go.symmetrize for a file is settled by read_graph_options()
    std::string backend = "cpu";
    bool cuda_dist = false;
    int pr = 0, pc = 0;       // 0: the most square grid
    bool layout_auto = true;  // --layout auto: choose_edge_layout() settles bo.edges
};

Config parse_config(const bench::Cli& cli) {
    Config c;
    c.from_file = cli.has("file");
    if (c.from_file && (cli.has("scale") || cli.has("edgefactor"))) {
        throw std::invalid_argument("--file cannot be combined with --scale/--edgefactor");
    }
    c.directed = cli.has("directed");
    c.symmetrize = cli.has("symmetrize");
    if (c.directed && c.symmetrize) {
        throw std::invalid_argument("--directed and --symmetrize contradict each other");
    }
    if (cli.has("output") && !cli.has("root")) {
        throw std::invalid_argument("--output needs --root R");
    }
    c.file = cli.str("file", "");
    c.kp.scale = int(cli.integer("scale", 16, 1, 40));
    c.kp.edgefactor = int(cli.integer("edgefactor", 16, 1, 1024));
    c.kp.seed = std::uint64_t(cli.integer("seed", 1, 0, std::int64_t(1) << 62));
    c.nroots = int(cli.integer("roots", 64, 1, 1 << 20));
    c.explicit_roots = cli.has("roots");
    c.single_root = cli.has("root");
    c.root = cli.integer("root", 0, 0, std::int64_t(1) << 62);
    c.output = cli.str("output", "");
    c.json = cli.str("json", "");
    c.validate = !cli.has("no-validate");
    c.print_levels = cli.has("levels");
    if (cli.has("threads")) omp_set_num_threads(int(cli.integer("threads", 1, 1, 4096)));
    c.bo.direction = parse_bfs_direction(cli.str("direction", "auto"));
    c.parent_modes = parse_parent_modes(cli.str("parents", "min"));
    c.bo.parents = c.parent_modes.front();
    if (c.parent_modes.size() > 1 && cli.has("output")) {
        throw std::invalid_argument("--output writes one search: give --parents one mode");
    }
    c.bo.alpha = cli.real("alpha", c.bo.alpha);
    c.bo.beta = cli.real("beta", c.bo.beta);
    c.co.backend = comm::parse_backend(cli.str("comm", "auto"));
    c.co.wire = comm::parse_wire_format(cli.str("wire", "auto"));
    c.co.fanout = int(cli.integer("fanout", 2, 2, 1024));
    c.calibrate = cli.has("calibrate");
    c.go.format = parse_local_format(cli.str("local-format", "dcsc"));
    c.go.symmetrize = !c.directed;
    c.go.relabel = cli.has("relabel");
    c.go.relabel_seed = c.kp.seed;
    c.backend = cli.str("backend", "cpu");
    if (c.backend != "cpu" && c.backend != "cuda") {
        throw std::invalid_argument("option --backend: '" + c.backend + "' (expected cpu or cuda)");
    }
    if (c.backend == "cuda" && !GRIDBLAS_HAVE_CUDA) {
        throw NotCompiled("this gridblas was built without CUDA");
    }
    c.cuda_dist = cli.has("cuda-dist");
    const std::string layout = cli.str("layout", "auto");
    c.layout_auto = layout == "auto";
    if (!c.layout_auto) c.bo.edges = parse_edge_layout(layout);  // InvalidValue for the rest
    if (c.bo.edges == EdgeLayout::by_column && c.backend == "cuda") {
        throw std::invalid_argument("--layout column runs on the cpu backend only");
    }
    if (cli.has("grid")) {
        const std::string g = cli.str("grid", "");
        if (std::sscanf(g.c_str(), "%dx%d", &c.pr, &c.pc) != 2 || c.pr <= 0 || c.pc <= 0) {
            throw std::invalid_argument("option --grid: '" + g + "' is not RxC");
        }
    }
    return c;
}

/// --backend cuda: one rank runs the device-resident single-GPU BFS, several ranks (or
/// --cuda-dist) the distributed BFS with each rank's local work on its own GPU.
bool single_gpu(const Config& c, const ProcessGrid& grid) {
    return c.backend == "cuda" && grid.size() == 1 && !c.cuda_dist;
}

/// The grid of the run, on the execution backend --backend asks for.
std::shared_ptr<ProcessGrid> make_grid(const Config& c) {
    auto grid = ProcessGrid::create(MPI_COMM_WORLD, c.pr, c.pc, c.co);
    if (c.calibrate) {
        // Each communicator measures its own links: on a cluster a grid row may stay within
        // a node while a grid column crosses the network.
        grid->world().calibrate();
        grid->row().calibrate();
        grid->col().calibrate();
    }
    if (c.backend == "cuda" && !single_gpu(c, *grid)) grid->set_exec_backend(ExecBackend::cuda);
    if (single_gpu(c, *grid) && !cuda_available()) {
        throw CudaError("--backend cuda: " + cuda_unavailable_reason());
    }
    if (single_gpu(c, *grid) && c.parent_modes.size() > 1) {
        throw std::invalid_argument(
            "--parents with several modes compares the distributed solver's modes; the "
            "single-GPU BFS has one (add --cuda-dist)");
    }
    return grid;
}

/// A file is read as its header declares it (general: directed; symmetric, skew-symmetric:
/// undirected) unless --directed or --symmetrize says otherwise. Collective for a file.
void read_graph_options(ProcessGrid& grid, Config& c, MatrixMarketHeader& header) {
    if (!c.from_file) return;
    header = read_matrix_market_header(grid, c.file);
    c.go.symmetrize =
        c.symmetrize || (!c.directed && header.symmetry != MatrixMarketSymmetry::general);
}

/// --layout auto stores a directed graph by column (its transpose) on a cpu grid of several
/// rows, where the levels' mxv folds along the grid row: bottom-up, its contiguous column
/// blocks read exactly the entries one rank reads (the vxm's strided row blocks read more
/// on a grid of several columns too), and on a grid of one column it needs no fold at all,
/// where the vxm's ascending schedule for min parents leaves most of the reading to the
/// rank of the lowest row block. By row on a grid of one row, whose vxm fold is one rank.
void choose_edge_layout(const ProcessGrid& grid, Config& c) {
    if (c.layout_auto) {
        const bool by_column = !c.go.symmetrize && c.backend == "cpu" && grid.pr() > 1;
        c.bo.edges = by_column ? EdgeLayout::by_column : EdgeLayout::by_row;
    }
    c.go.transpose = c.bo.edges == EdgeLayout::by_column;
}

/// What was searched, for the report.
struct GraphSummary {
    std::string name;  // the file, or the Kronecker parameters
    bool directed = false;
    gindex_t vertices = 0;
    gindex_t stored_entries = 0;
    gindex_t edges = 0;  // distinct edges without self-loops; an undirected one counts once
    double construction_seconds = 0;
};

GraphSummary summarize_graph(const Config& c, const DistMatrix<Pattern>& a, double seconds) {
    GraphSummary g;
    g.name = c.from_file
                 ? c.file
                 : "kronecker SCALE " + std::to_string(c.kp.scale) + " edgefactor " +
                       std::to_string(c.kp.edgefactor) + " seed " + std::to_string(c.kp.seed);
    g.directed = !c.go.symmetrize;
    g.vertices = a.nrows();
    g.stored_entries = a.nvals();
    // Self-loops are dropped, so an undirected graph stores each edge twice.
    g.edges = g.directed ? g.stored_entries : g.stored_entries / 2;
    g.construction_seconds = seconds;
    return g;
}

/// Peak resident memory of the construction and of the searches (largest rank and summed over
/// the ranks), and the bytes the matrix keeps per stored entry.
struct MemoryReport {
    std::uint64_t construction_max = 0, construction_sum = 0;
    std::uint64_t search_max = 0, search_sum = 0;
    bool search_separate = false;  // the peak was reset after construction
    std::uint64_t matrix_bytes = 0;
};

/// Collective: max and sum of `bytes` over the ranks.
void max_and_sum(ProcessGrid& grid, std::uint64_t bytes, std::uint64_t& max, std::uint64_t& sum) {
    max = grid.world().allreduce(bytes, comm::ReduceOp::max, "memory");
    sum = grid.world().allreduce(bytes, comm::ReduceOp::sum, "memory");
}

/// The search keys: --root R, or --roots N vertices of degree >= 1. Collective.
std::vector<gindex_t> choose_roots(const Config& c, const std::shared_ptr<ProcessGrid>& grid,
                                   const BfsSolver& solver, const DistMatrix<Pattern>& a) {
    const gindex_t n = a.nrows();
    if (c.single_root) {
        if (c.root >= n) {
            throw IndexOutOfBounds("--root " + std::to_string(c.root) +
                                   " is not a vertex (the graph has " + std::to_string(n) + ")");
        }
        // --root R --roots N repeats the one search (per-level timings to compare).
        return std::vector<gindex_t>(std::size_t(c.explicit_roots ? c.nroots : 1), c.root);
    }
    DistVector<Pattern> shape(grid, n);
    auto roots = pick_roots(*grid, solver, a.row_dist(), shape.local_begin(), c.nroots, c.kp.seed,
                            a.nvals());
    if (roots.empty()) throw InvalidValue("the graph has no vertex of degree >= 1");
    return roots;
}

/// Runs one search on the chosen engine: the distributed solver, or on one rank with
/// --backend cuda the single-GPU BFS on the whole graph (its result laid out as a
/// one-rank BfsResult).
class SearchEngine {
public:
    SearchEngine(const Config& c, ProcessGrid& grid, const DistMatrix<Pattern>& a,
                 BfsSolver& solver)
        : a_(a), solver_(solver) {
        if (!single_gpu(c, grid)) return;
        cuda::BfsGpuOptions g;
        g.direction = c.bo.direction;
        g.alpha = c.bo.alpha;
        g.beta = c.bo.beta;
        g.symmetric = c.go.symmetrize;
        const Csr<Pattern> host =
            a.local_format() == LocalFormat::csr ? a.by_row().csr() : to_csr(a.by_col().dcsc());
        gpu_ = std::make_unique<cuda::BfsGpuSolver>(host, g);
    }

    /// Returns the part of the search's time spent downloading results from the GPU (0 on
    /// the CPU solvers).
    double search(gindex_t root, BfsResult& result) {
        if (!gpu_) {
            solver_.run(root, result);
            return 0.0;
        }
        gpu_->run(root, gpu_result_);
        result.dist = a_.row_dist();
        result.local_begin = 0;
        result.parent = gpu_result_.parent;
        result.level = gpu_result_.level;
        result.source = root;
        result.reached = gpu_result_.reached;
        result.reached_degree_sum = -1;  // not counted: component_edges() makes the pass
        result.depth = gpu_result_.depth;
        result.seconds = gpu_result_.seconds;
        result.levels = gpu_result_.levels;
        return gpu_result_.download_seconds;
    }

private:
    const DistMatrix<Pattern>& a_;
    BfsSolver& solver_;
    std::unique_ptr<cuda::BfsGpuSolver> gpu_;
    cuda::BfsGpuResult gpu_result_;
};

Searches run_searches(const Config& c, ProcessGrid& grid, const DistMatrix<Pattern>& a,
                      const BfsSolver& solver, std::vector<std::unique_ptr<SearchEngine>>& engines,
                      const std::vector<gindex_t>& roots) {
    const bool root0 = grid.rank() == 0;
    const std::size_t nm = engines.size();
    Searches out;
    out.modes.resize(nm);
    std::vector<BfsResult> results(nm);
    std::vector<std::vector<std::uint64_t>> wire(nm);  // this rank's bytes per search
    for (std::size_t m = 0; m < nm; ++m) {
        out.modes[m].mode = c.parent_modes[m];
        engines[m]->search(roots.front(), results[m]);  // untimed warm-up
    }
    // Levels are compared with the first mode's, parents of `min` and `after` (the same
    // tree) with those of the first of the two.
    const auto min_tree = [](ParentMode p) {
        return p == ParentMode::min || p == ParentMode::after;
    };
    const std::size_t tree_ref =
        std::size_t(std::find_if(c.parent_modes.begin(), c.parent_modes.end(), min_tree) -
                    c.parent_modes.begin());
    out.parents_compared =
        std::count_if(c.parent_modes.begin(), c.parent_modes.end(), min_tree) == 2;
    std::uint64_t disagreements = 0;
    grid.reset_counters();
    double last_progress = MPI_Wtime();
    for (std::size_t k = 0; k < roots.size(); ++k) {
        // The modes take turns going first, so that none always finds the caches left by
        // another's search of the same key.
        for (std::size_t j = 0; j < nm; ++j) {
            const std::size_t m = (k + j) % nm;
            const std::uint64_t sent = grid.total_counters().bytes_wire;
            out.download_seconds += engines[m]->search(roots[k], results[m]);
            wire[m].push_back(grid.total_counters().bytes_wire - sent);
        }
        const double edges =
            component_edges(grid, results[0], solver.local_degrees(), c.go.symmetrize);
        for (std::size_t m = 0; m < nm; ++m) {
            const BfsResult& r = results[m];
            ModeSearches& ms = out.modes[m];
            ms.runs.push_back({roots[k], r.seconds, edges, r.reached, r.depth, r.levels});
            if (m > 0) disagreements += count_disagreements(results[0], r, false);
            if (m != tree_ref && min_tree(ms.mode)) {
                disagreements += count_disagreements(results[tree_ref], r, true);
            }
            if (!c.validate) continue;
            // The solver's degree count is checked against a pass over its result.
            const gindex_t pass = reached_degree_pass(grid, r, solver.local_degrees());
            if (r.reached_degree_sum >= 0 && r.reached_degree_sum != pass) {
                ++ms.failures;
                if (root0) {
                    std::fprintf(stderr,
                                 "root %lld, parents %s: reached_degree_sum %lld, but the "
                                 "reached vertices' degrees sum to %lld\n",
                                 (long long)roots[k], to_string(ms.mode).c_str(),
                                 (long long)r.reached_degree_sum, (long long)pass);
                }
                continue;
            }
            const BfsValidation v = validate_bfs(a, r, c.bo.edges);
            if (v.ok()) continue;
            ++ms.failures;
            if (root0) {
                std::fprintf(stderr, "root %lld, parents %s: %s\n", (long long)roots[k],
                             to_string(ms.mode).c_str(), v.summary().c_str());
            }
        }
        if (root0 && MPI_Wtime() - last_progress > 5.0) {
            std::fprintf(stderr, "gridblas-bfs: %zu of %zu keys done\n", k + 1, roots.size());
            last_progress = MPI_Wtime();
        }
    }
    // Totals over the ranks, in one collective each.
    out.disagreements = grid.world().allreduce(disagreements, comm::ReduceOp::sum, "agree");
    for (std::size_t m = 0; m < nm; ++m) {
        grid.world().allreduce(std::span<std::uint64_t>(wire[m]), comm::ReduceOp::sum, "wire");
        out.modes[m].wire_bytes.assign(wire[m].begin(), wire[m].end());
    }
    out.last = std::move(results[0]);
    return out;
}

/// The Graph500-style block on stdout (rank 0).
void print_report(const Config& c, const ProcessGrid& grid, const GraphSummary& g,
                  const Searches& s, const std::vector<Statistics>& st) {
    const bool several = s.modes.size() > 1;
    if (c.print_levels) {
        for (const ModeSearches& m : s.modes) {
            if (several) std::printf("levels with parents %s:\n", to_string(m.mode).c_str());
            print_levels(m.runs);
        }
    }
    std::printf("graph: %s, %s, %lld vertices, %lld edges\n", g.name.c_str(),
                g.directed ? "directed" : "undirected", (long long)g.vertices, (long long)g.edges);
    if (!c.from_file) std::printf("SCALE: %d\nedgefactor: %d\n", c.kp.scale, c.kp.edgefactor);
    const std::size_t nbfs = s.modes[0].runs.size();
    std::printf("NBFS: %zu\n", nbfs);
    std::printf("graph_generation: %.6g\nnum_mpi_processes: %d\ngrid: %dx%d\nthreads: %d\n",
                g.construction_seconds, grid.size(), grid.pr(), grid.pc(), omp_get_max_threads());
    std::printf("edge_layout: %s\n", to_string(c.bo.edges).c_str());
    const auto model = [](const char* name, const comm::Communicator& k) {
        std::printf(" %s alpha %.3g s beta %.3g s/B;", name, k.options().alpha_s,
                    k.options().beta_s);
    };
    std::printf("comm_model (%s):", c.calibrate ? "calibrated" : "defaults");
    model("world", grid.world());
    model("row", grid.row());
    model("col", grid.col());
    std::printf("\n");
    std::printf("construction_time: %.6g\n", g.construction_seconds);
    std::printf("vertices: %lld\nstored_entries: %lld\n", (long long)g.vertices,
                (long long)g.stored_entries);
    std::printf("edge_count_convention: %s\n",
                g.directed ? "directed arcs leaving reached vertices"
                           : "undirected edges with both ends reached, after removing "
                             "self-loops and duplicates (degree sum / 2)");
    std::uint64_t invalid = 0;
    for (std::size_t m = 0; m < s.modes.size(); ++m) {
        if (several) std::printf("parents: %s\n", to_string(s.modes[m].mode).c_str());
        print_block("time", st[m].time, false);
        print_block("nedge", st[m].nedge, false);
        print_block("TEPS", st[m].teps, true);
        invalid += s.modes[m].failures;
    }
    if (s.download_seconds > 0) {
        std::printf(
            "mean_gpu_download_time: %.6g (included in time: level and parent arrays "
            "to the host)\n",
            s.download_seconds / double(nbfs));
    }
    if (several) print_mode_comparison(s, st);
    std::printf("validation: %s\n", c.validate ? (invalid ? "FAILED" : "passed") : "skipped");
}

/// Memory lines of the report (rank 0).
void print_memory(const MemoryReport& m, const GraphSummary& g) {
    const double gib = 1024.0 * 1024.0 * 1024.0;
    std::printf("construction_peak_rss_gib: %.3f (largest rank), %.3f (sum over ranks)\n",
                double(m.construction_max) / gib, double(m.construction_sum) / gib);
    std::printf("search_peak_rss_gib: %.3f (largest rank), %.3f (sum over ranks)%s\n",
                double(m.search_max) / gib, double(m.search_sum) / gib,
                m.search_separate ? "" : " (includes construction: the peak could not be reset)");
    std::printf("matrix_bytes_per_stored_entry: %.2f\n",
                g.stored_entries ? double(m.matrix_bytes) / double(g.stored_entries) : 0.0);
}

/// Everything as JSON (rank 0): graph, configuration, statistics, searches with their
/// levels, and rank 0's communication counters.
void write_json(const Config& c, ProcessGrid& grid, const GraphSummary& g,
                const MatrixMarketHeader& header, const Searches& s,
                const std::vector<Statistics>& st, const MemoryReport& m) {
    std::ofstream j(c.json);
    if (!j) throw IoError("cannot write " + c.json);
    j << "{\"program\":\"gridblas-bfs\",\"version\":\"" << GRIDBLAS_VERSION_STRING << "\""
      << ",\"graph\":{\"source\":\"" << (c.from_file ? c.file : "kronecker") << '"';
    if (c.from_file) {
        j << ",\"declared_symmetry\":\"" << to_string(header.symmetry) << '"';
    } else {
        j << ",\"scale\":" << c.kp.scale << ",\"edgefactor\":" << c.kp.edgefactor
          << ",\"seed\":" << c.kp.seed;
    }
    j << ",\"directed\":" << (g.directed ? "true" : "false") << ",\"vertices\":" << g.vertices
      << ",\"edges\":" << g.edges << ",\"stored_entries\":" << g.stored_entries << "}"
      << ",\"config\":{\"ranks\":" << grid.size() << ",\"grid\":\"" << grid.pr() << 'x' << grid.pc()
      << "\",\"threads\":" << omp_get_max_threads() << ",\"direction\":\""
      << to_string(c.bo.direction) << "\",\"parents\":\"" << to_string(c.bo.parents)
      << "\",\"alpha\":" << c.bo.alpha << ",\"beta\":" << c.bo.beta << ",\"comm\":\""
      << comm::to_string(c.co.backend) << "\",\"backend\":\"" << c.backend
      << "\",\"fanout\":" << c.co.fanout << ",\"wire\":\"" << comm::to_string(c.co.wire)
      << "\",\"local_format\":\"" << to_string(c.go.format) << "\",\"edge_layout\":\""
      << to_string(c.bo.edges)
      << "\"},\"comm_model\":{\"calibrated\":" << (c.calibrate ? "true" : "false");
    const auto model = [&j](const char* name, const comm::Communicator& k) {
        j << ",\"" << name << "\":{\"alpha_s\":" << k.options().alpha_s
          << ",\"beta_s\":" << k.options().beta_s << '}';
    };
    model("world", grid.world());
    model("row", grid.row());
    model("col", grid.col());
    j << "},\"construction_seconds\":" << g.construction_seconds
      << ",\"validated\":" << (c.validate ? "true" : "false")
      << ",\"validation_failures\":" << s.failures() << ",\"mean_gpu_download_seconds\":"
      << (s.modes[0].runs.empty() ? 0.0 : s.download_seconds / double(s.modes[0].runs.size()))
      << ",\"memory\":{\"construction_peak_max\":" << m.construction_max
      << ",\"construction_peak_sum\":" << m.construction_sum
      << ",\"search_peak_max\":" << m.search_max << ",\"search_peak_sum\":" << m.search_sum
      << ",\"search_peak_separate\":" << (m.search_separate ? "true" : "false")
      << ",\"matrix_bytes\":" << m.matrix_bytes << "}"
      << ",\"time\":" << summary_json(st[0].time) << ",\"teps\":" << summary_json(st[0].teps);
    // Every mode of --parents (the top-level time, teps and searches are the first's).
    j << ",\"parent_modes\":[";
    for (std::size_t k = 0; k < s.modes.size(); ++k) {
        const ModeSearches& ms = s.modes[k];
        j << (k ? "," : "") << "{\"parents\":\"" << to_string(ms.mode)
          << "\",\"time\":" << summary_json(st[k].time) << ",\"teps\":" << summary_json(st[k].teps)
          << ",\"key_ratio_to_first\":" << summary_json(key_ratios(ms, s.modes[0]))
          << ",\"wire_bytes_mean\":" << mean_of(ms.wire_bytes)
          << ",\"validation_failures\":" << ms.failures << '}';
    }
    j << "],\"parent_modes_disagreements\":" << s.disagreements << ",\"searches\":[";
    for (std::size_t k = 0; k < s.modes[0].runs.size(); ++k) {
        const auto& r = s.modes[0].runs[k];
        j << (k ? "," : "") << "{\"root\":" << r.root << ",\"seconds\":" << r.seconds
          << ",\"edges\":" << r.edges << ",\"reached\":" << r.reached << ",\"depth\":" << r.depth
          << ",\"levels\":" << levels_json(r.levels) << '}';
    }
    j << "],\"comm_counters_rank0\":{\"world\":" << counters_json(grid.world())
      << ",\"row\":" << counters_json(grid.row()) << ",\"col\":" << counters_json(grid.col())
      << "}}\n";
}

int run(int argc, char** argv, int world_rank) {
    const bench::Cli cli(
        argc, argv,
        {"scale", "edgefactor", "seed",    "file",         "roots",   "root",  "output",
         "json",  "grid",       "threads", "direction",    "alpha",   "beta",  "parents",
         "comm",  "fanout",     "wire",    "local-format", "backend", "layout"},
        {"directed", "symmetrize", "relabel", "no-validate", "levels", "cuda-dist", "calibrate",
         "help"});
    if (cli.has("help")) {
        if (world_rank == 0) std::fputs(kHelp, stdout);
        return 0;
    }
    Config c = parse_config(cli);
    const auto grid = make_grid(c);
    const bool root0 = grid->rank() == 0;
    MatrixMarketHeader header;
    read_graph_options(*grid, c, header);
    choose_edge_layout(*grid, c);

    // Kernel 1: construction (the matrix and the solver's set-up).
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    if (root0) std::fprintf(stderr, "gridblas-bfs: building the graph...\n");
    const DistMatrix<Pattern> a = c.from_file ? read_graph_matrix_market(grid, c.file, c.go)
                                              : kronecker_graph(grid, c.kp, c.go);
    BfsSolver solver(a, c.bo);
    const GraphSummary g =
        summarize_graph(c, a, grid->world().allreduce(MPI_Wtime() - t0, comm::ReduceOp::max, "k1"));
    if (root0) {
        std::fprintf(stderr, "gridblas-bfs: %lld vertices, %lld stored entries, built in %.2f s\n",
                     (long long)g.vertices, (long long)g.stored_entries, g.construction_seconds);
    }

    MemoryReport mem;
    max_and_sum(*grid, bench::peak_rss_bytes(), mem.construction_max, mem.construction_sum);
    mem.matrix_bytes =
        grid->world().allreduce(std::uint64_t(a.memory_bytes()), comm::ReduceOp::sum, "memory");
    mem.search_separate = grid->world().allreduce(bench::reset_peak_rss() ? 1 : 0,
                                                  comm::ReduceOp::min, "memory") == 1;

    // Kernel 2: the searches, with a solver for each further parent mode (built here, so
    // that they count in the search's peak memory, not in the construction's).
    std::vector<std::unique_ptr<BfsSolver>> others;
    std::vector<std::unique_ptr<SearchEngine>> engines;
    engines.push_back(std::make_unique<SearchEngine>(c, *grid, a, solver));
    for (std::size_t m = 1; m < c.parent_modes.size(); ++m) {
        BfsOptions o = c.bo;
        o.parents = c.parent_modes[m];
        others.push_back(std::make_unique<BfsSolver>(a, o));
        engines.push_back(std::make_unique<SearchEngine>(c, *grid, a, *others.back()));
    }
    const std::vector<gindex_t> roots = choose_roots(c, grid, solver, a);
    const Searches s = run_searches(c, *grid, a, solver, engines, roots);
    if (!c.output.empty()) write_output(*grid, s.last, c.output);

    max_and_sum(*grid, bench::peak_rss_bytes(), mem.search_max, mem.search_sum);

    std::vector<Statistics> st;
    for (const ModeSearches& m : s.modes) st.push_back(statistics(m.runs));
    if (root0) print_report(c, *grid, g, s, st);
    if (root0) print_memory(mem, g);
    if (root0 && !c.json.empty()) write_json(c, *grid, g, header, s, st, mem);
    return s.failures() ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::mpi_main(argc, argv, "gridblas-bfs", run);
}
