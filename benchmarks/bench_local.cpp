// bench_local: Google Benchmark of the local CPU kernels on Graph500 Kronecker graphs (and, for
// ClaimFrontier, uniform random ones; symmetrised, self-loops dropped, duplicates merged,
// pattern-only): push SpMSpV (SPA, sort, automatic, claiming) and masked pull SpMV, with
// BFS-like inputs — a random frontier holding its own vertex ids and a visited set covering half
// the vertices (mask = not visited).
//
// Counters: edges_per_s = matrix entries the kernel examined per second of wall-clock time
// (KernelStats::entries; pull stops rows early, so it examines far fewer than it could),
// out = outputs per call, x = frontier entries. The label names the method and the OpenMP
// thread count. Times are wall-clock (UseRealTime), as the kernels are multi-threaded.
// Example:
//   OMP_NUM_THREADS=2 ./bench_local --benchmark_min_time=0.2
//   ./bench_local --benchmark_filter='Push/18'

#include <benchmark/benchmark.h>
#include <omp.h>

#include <map>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "gridblas/kernels/cpu/kernels.hpp"
#include "gridblas/kernels/cpu/spmspv_claim.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dcsc.hpp"
#include "gridblas/matrix/generators.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace {

using namespace gridblas;
using namespace gridblas::kernels;

/// A symmetric Kronecker graph in both local formats.
struct Graph {
    lindex_t n = 0;
    Csr<Pattern> csr;
    Dcsc<Pattern> dcsc;
    OuterLookup lookup;
};

/// The graph of 2^scale vertices and 16 · 2^scale edge tuples: Kronecker (kind 0) or uniform
/// random endpoints (kind 1, degrees about 32).
const Graph& graph(int scale, int kind = 0) {
    static std::map<std::pair<int, int>, std::unique_ptr<Graph>> cache;
    auto& g = cache[{scale, kind}];
    if (g) return *g;
    KroneckerParams p;
    p.scale = scale;
    std::vector<gindex_t> src, dst;
    if (kind == 0) {
        kronecker_edges(p, 0, num_edges(p), src, dst);
    } else {
        UniformParams u;
        u.num_vertices = num_vertices(p);
        u.num_edges = num_edges(p);
        uniform_edges(u, 0, u.num_edges, src, dst);
    }
    std::vector<lindex_t> r, c;
    r.reserve(2 * src.size());
    c.reserve(2 * src.size());
    for (std::size_t k = 0; k < src.size(); ++k) {
        if (src[k] == dst[k]) continue;
        r.push_back(lindex_t(src[k]));
        c.push_back(lindex_t(dst[k]));
        r.push_back(lindex_t(dst[k]));
        c.push_back(lindex_t(src[k]));
    }
    g = std::make_unique<Graph>();
    g->n = lindex_t(num_vertices(p));
    const ValueArray<Pattern> v(r.size());
    g->csr = Csr<Pattern>::from_tuples(g->n, g->n, r, c, v, DuplicatePolicy::combine);
    g->dcsc = Dcsc<Pattern>::from_tuples(g->n, g->n, r, c, v, DuplicatePolicy::combine);
    g->lookup = make_lookup(g->dcsc);
    return *g;
}

/// BFS-like inputs: a frontier of `density` of the vertices, values = vertex ids, and a
/// visited bitmap with half the vertices set.
struct Inputs {
    SparseVector<lindex_t> frontier;
    BitmapVector<lindex_t> frontier_bits;
    BitmapVector<Pattern> visited;
};

Inputs make_inputs(lindex_t n, double density) {
    Inputs in;
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    in.frontier.reset(n);
    in.frontier_bits = BitmapVector<lindex_t>(n);
    in.visited = BitmapVector<Pattern>(n);
    for (lindex_t v = 0; v < n; ++v) {
        if (u(rng) < density) {
            in.frontier.push_back(v, v);
            in.frontier_bits.set(v, v);
        }
        if (rng() & 1) in.visited.set(v);
    }
    return in;
}

double density_of(std::int64_t code) { return double(code) / 10000.0; }

void label(benchmark::State& state, const std::string& what) {
    state.SetLabel(what + " threads=" + std::to_string(omp_get_max_threads()));
}

/// Push SpMSpV with select2nd_min (BFS parents). Args: scale, density in 1/10000,
/// method (0 spa, 1 sort, 2 automatic; 3 / 4 spa forced to bucket / to scatter directly
/// when on one thread), view (0 DCSC + lookup, 1 CSR).
void Push(benchmark::State& state) {
    const Graph& g = graph(int(state.range(0)));
    const Inputs in = make_inputs(g.n, density_of(state.range(1)));
    // 3 and 4: SPA forced to bucket, or to scatter directly, on one thread.
    const SpmspvMethod method = state.range(2) == 1   ? SpmspvMethod::sort
                                : state.range(2) == 2 ? SpmspvMethod::automatic
                                                      : SpmspvMethod::spa;
    const auto view = state.range(3) == 0 ? make_view(g.dcsc, &g.lookup) : make_view(g.csr);
    MaskStorage st;
    const MaskView mask = make_mask(in.visited, g.n, true, true, st);
    SpmspvWorkspace<lindex_t> ws(g.n, g.n);
    if (state.range(2) == 3) ws.spa_direct_max_bytes = 0;
    if (state.range(2) == 4) ws.spa_direct_max_bytes = ~std::size_t(0);
    SparseVector<lindex_t> y;
    KernelStats ks;
    std::uint64_t entries = 0;
    for (auto _ : state) {
        ks = spmspv<select2nd_min<lindex_t>>(view, in.frontier, mask, y, ws, method);
        entries += ks.entries;
        benchmark::DoNotOptimize(y.indices().data());
    }
    state.counters["edges_per_s"] =
        benchmark::Counter(double(entries), benchmark::Counter::kIsRate);
    state.counters["out"] = double(ks.nvals);
    state.counters["x"] = double(in.frontier.nvals());
    const char* names[] = {"spa", "sort", "auto", "spa-bucketed", "spa-direct"};
    std::string what =
        std::string(names[state.range(2)]) + (state.range(3) == 0 ? " dcsc" : " csr");
    if (state.range(2) == 2) what += ks.method == SpmspvMethod::sort ? "->sort" : "->spa";
    label(state, what);
}

/// Masked pull SpMV (bottom-up step) into a sparse output. Args: scale, density in
/// 1/10000, semiring (0 any_pair, 1 select2nd_min), view (0 CSR, 1 DCSC).
void Pull(benchmark::State& state) {
    const Graph& g = graph(int(state.range(0)));
    const Inputs in = make_inputs(g.n, density_of(state.range(1)));
    const auto view = state.range(3) == 0 ? make_view(g.csr) : make_view(g.dcsc, &g.lookup);
    MaskStorage st;
    const MaskView mask = make_mask(in.visited, g.n, true, true, st);
    PullWorkspace<lindex_t> ws;
    SparseVector<lindex_t> y;
    KernelStats ks;
    std::uint64_t entries = 0;
    for (auto _ : state) {
        if (state.range(2) == 0) {
            ks = spmv_pull<any_pair<lindex_t>>(view, in.frontier_bits, mask, y, ws);
        } else {
            ks = spmv_pull<select2nd_min<lindex_t>>(view, in.frontier_bits, mask, y, ws);
        }
        entries += ks.entries;
        benchmark::DoNotOptimize(y.indices().data());
    }
    state.counters["edges_per_s"] =
        benchmark::Counter(double(entries), benchmark::Counter::kIsRate);
    state.counters["out"] = double(ks.nvals);
    label(state, std::string(state.range(2) == 0 ? "any_pair" : "select2nd_min") +
                     (state.range(3) == 0 ? " csr" : " dcsc"));
}

/// Masked pull into a bitmap output (what a bottom-up BFS keeps as its next frontier).
/// Args: scale, density in 1/10000.
void PullToBitmap(benchmark::State& state) {
    const Graph& g = graph(int(state.range(0)));
    const Inputs in = make_inputs(g.n, density_of(state.range(1)));
    MaskStorage st;
    const MaskView mask = make_mask(in.visited, g.n, true, true, st);
    BitmapVector<lindex_t> y;
    std::uint64_t entries = 0;
    KernelStats ks;
    for (auto _ : state) {
        ks = spmv_pull<any_pair<lindex_t>>(make_view(g.csr), in.frontier_bits, mask, y);
        entries += ks.entries;
        benchmark::DoNotOptimize(y.words().data());
    }
    state.counters["edges_per_s"] =
        benchmark::Counter(double(entries), benchmark::Counter::kIsRate);
    state.counters["out"] = double(ks.nvals);
    label(state, "any_pair csr");
}

/// The claiming push of top-down BFS (spmspv_claim) on the level that follows a hub's
/// neighbourhood: the frontier is the `top` vertices of highest degree, nothing else is
/// visited (mask = not visited). Args: scale, top, semiring (0 min_secondi, 1 any_secondi,
/// 2 min_secondi without the mask).
void Claim(benchmark::State& state) {
    const Graph& g = graph(int(state.range(0)));
    const auto view = make_view(g.dcsc, &g.lookup);
    std::vector<lindex_t> order(g.n);
    for (lindex_t v = 0; v < g.n; ++v) order[v] = v;
    auto degree = [&](lindex_t v) { return g.csr.rowptr()[v + 1] - g.csr.rowptr()[v]; };
    const std::size_t top = std::min<std::size_t>(std::size_t(state.range(1)), g.n);
    std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(top), order.end(),
                      [&](lindex_t a, lindex_t b) { return degree(a) > degree(b); });
    std::vector<lindex_t> ids(order.begin(), order.begin() + std::ptrdiff_t(top));
    std::sort(ids.begin(), ids.end());
    BitmapVector<Pattern> visited(g.n);
    for (const lindex_t v : ids) visited.set(v);
    MaskStorage st;
    const MaskView mask = make_mask(visited, g.n, true, true, st);
    ClaimWorkspace<std::int64_t> ws;
    SparseVector<std::int64_t> y;
    KernelStats ks;
    std::uint64_t entries = 0;
    auto global = [](lindex_t j) { return std::int64_t(j); };
    for (auto _ : state) {
        if (state.range(2) == 2) {
            ks = spmspv_claim<min_secondi<std::int64_t>>(view, ids, global, no_mask(), y, ws);
        } else if (state.range(2) == 0) {
            ks = spmspv_claim<min_secondi<std::int64_t>>(view, ids, global, mask, y, ws);
        } else {
            ks = spmspv_claim<any_secondi<std::int64_t>>(view, ids, global, mask, y, ws);
        }
        entries += ks.entries;
        benchmark::DoNotOptimize(y.indices().data());
    }
    state.counters["edges_per_s"] =
        benchmark::Counter(double(entries), benchmark::Counter::kIsRate);
    state.counters["out"] = double(ks.nvals);
    state.counters["entries"] = double(ks.entries);
    const char* names[] = {"min_secondi", "any_secondi", "min_secondi no mask"};
    label(state, names[state.range(2)]);
}

/// spmspv_claim (min_secondi, masked) on a random frontier: `dens_e4` / 10000 of the vertices,
/// a visited set of those plus half the others, so that columns of every length occur, not
/// only hubs'. Args: graph (0 Kronecker, 1 uniform), scale, density in 1/10000, and the
/// column run from which the claim loop tests before setting bits (ClaimWorkspace::
/// test_first_min; 1 << 30: never).
void ClaimFrontier(benchmark::State& state) {
    const Graph& g = graph(int(state.range(1)), int(state.range(0)));
    const auto view = make_view(g.dcsc, &g.lookup);
    const Inputs in = make_inputs(g.n, density_of(state.range(2)));
    BitmapVector<Pattern> visited = in.visited;
    for (const lindex_t v : in.frontier.indices()) visited.set(v);
    MaskStorage st;
    const MaskView mask = make_mask(visited, g.n, true, true, st);
    ClaimWorkspace<std::int64_t> ws;
    ws.test_first_min = offset_t(state.range(3));
    SparseVector<std::int64_t> y;
    KernelStats ks;
    std::uint64_t entries = 0;
    auto global = [](lindex_t j) { return std::int64_t(j); };
    const std::span<const lindex_t> ids(in.frontier.indices());
    for (auto _ : state) {
        ks = spmspv_claim<min_secondi<std::int64_t>>(view, ids, global, mask, y, ws);
        entries += ks.entries;
        benchmark::DoNotOptimize(y.indices().data());
    }
    state.counters["edges_per_s"] =
        benchmark::Counter(double(entries), benchmark::Counter::kIsRate);
    state.counters["out"] = double(ks.nvals);
    state.counters["x"] = double(ids.size());
    label(state, state.range(0) == 0 ? "kronecker" : "uniform");
}

BENCHMARK(ClaimFrontier)
    ->ArgNames({"graph", "scale", "dens_e4", "test_first"})
    ->ArgsProduct({{0, 1}, {20}, {10, 100, 500}, {1, 8, 16, 32, 64, 1 << 30}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(Claim)
    ->ArgNames({"scale", "top", "semiring"})
    ->ArgsProduct({{18, 20}, {64, 512}, {0, 1, 2}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(Push)
    ->ArgNames({"scale", "dens_e4", "method", "view"})
    ->ArgsProduct({{14, 16, 18}, {1, 100, 1000}, {0, 1, 2}, {0, 1}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(Push)
    ->Name("PushSpaVariants")
    ->ArgNames({"scale", "dens_e4", "method", "view"})
    ->ArgsProduct({{14, 16, 18}, {100, 1000, 5000, 10000}, {1, 3, 4}, {1}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(Pull)
    ->ArgNames({"scale", "dens_e4", "semiring", "view"})
    ->ArgsProduct({{14, 16, 18}, {1, 100, 1000}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(PullToBitmap)
    ->ArgNames({"scale", "dens_e4"})
    ->ArgsProduct({{14, 16, 18}, {1, 100, 1000}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
