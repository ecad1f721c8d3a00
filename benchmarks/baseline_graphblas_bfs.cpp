// gridblas-baseline-graphblas: the shared-memory comparison point of the README's benchmark
// table (SuiteSparse:GraphBLAS, Davis 2019). It builds the
// same Kronecker graph as gridblas-bfs (gridblas' generator, symmetrised, self-loops dropped,
// duplicates combined), loads it into a SuiteSparse:GraphBLAS boolean matrix, and times a
// direction-optimising BFS that computes parents the way LAGraph's push/pull BFS does:
//  - push: q'⟨¬π, structural, replace⟩ = q' ⊕.⊗ A (GrB_vxm, q sparse);
//  - pull: q⟨¬π, structural, replace⟩ = Aᵀ ⊕.⊗ q (GrB_mxv, q bitmap; Aᵀ = A, symmetric);
//  - semiring ANY_SECONDI (or MIN_SECONDI with --semiring min): the product yields the index
//    of the frontier vertex, i.e. the parent, in both directions;
//  - π⟨q, structural⟩ = q after each level;
//  - push -> pull when the frontier grows and its edges exceed the unexplored edges / alpha
//    (after a first pull: when it grows beyond n / beta1); pull -> push when it shrinks below
//    n / beta2; pulling is disabled once fewer than n edges are unexplored.
// The search keys are the ones gridblas-bfs picks for the same --seed (same generator, same
// degree >= 1 rule). Prints the Graph500 statistics block with gridblas-bfs' key names and
// edge-count convention. The first --verify searches are checked against a serial BFS.

#include <omp.h>

// GraphBLAS.h of SuiteSparse:GraphBLAS 7 declares its C functions without extern "C".
extern "C" {
#include <GraphBLAS.h>
}

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/graph500_stats.hpp"
#include "common/graphblas_graph.hpp"
#include "gridblas/matrix/generators.hpp"

static_assert(GxB_IMPLEMENTATION_MAJOR >= 5, "needs SuiteSparse:GraphBLAS 5 or newer");

namespace {

using gridblas::gindex_t;
using gridblas::bench::build_graph;
using gridblas::bench::Graph;
using gridblas::bench::now;

const char* kHelp =
    R"(gridblas-baseline-graphblas: LAGraph-style push/pull BFS on SuiteSparse:GraphBLAS

  --scale S          Kronecker graph with 2^S vertices (default 16)
  --edgefactor E     edges per vertex (default 16)
  --seed X           generator and search-key seed, as gridblas-bfs (default 1)
  --roots N          number of search keys (default 64)
  --threads T        GraphBLAS / OpenMP threads (default: all)
  --direction D      auto | push (default auto: push/pull)
  --semiring S       any | min (default any: GxB_ANY_SECONDI_INT64; min: GxB_MIN_SECONDI_INT64)
  --alpha A          push -> pull threshold (default 8)
  --beta1 B          push -> pull again after a pull phase (default 8)
  --beta2 B          pull -> push threshold (default 512)
  --verify K         check the first K searches against a serial BFS (default 4)
  --levels           print the per-level directions and frontier sizes of the first search
  --help
)";

/// The search keys gridblas-bfs picks: the same seeded candidates, kept when of degree >= 1.
std::vector<gindex_t> pick_roots(const std::vector<std::int64_t>& degree, int count,
                                 std::uint64_t seed) {
    std::vector<gindex_t> roots;
    std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + 12345);
    std::uniform_int_distribution<gindex_t> pick(0, gindex_t(degree.size()) - 1);
    std::set<gindex_t> seen;
    for (int round = 0; int(roots.size()) < count && round < 1000; ++round) {
        std::vector<gindex_t> cand(256);
        for (auto& c : cand) c = pick(rng);
        for (gindex_t v : cand) {
            if (int(roots.size()) == count) break;
            if (degree[std::size_t(v)] > 0 && seen.insert(v).second) roots.push_back(v);
        }
    }
    return roots;
}

struct PushPullOptions {
    bool allow_pull = true;
    bool min_parent = false;
    double alpha = 8.0, beta1 = 8.0, beta2 = 512.0;
};

/// One level of a search, for --levels.
struct Step {
    bool pull;
    GrB_Index frontier;  // vertices in the frontier that was expanded
};

/// The direction-optimising BFS. Returns the parent vector (the caller frees it): π(v) is the
/// parent of every reached v, π(root) = root, unreached vertices have no entry.
GrB_Vector push_pull_bfs(const Graph& g, GrB_Index root, const PushPullOptions& o,
                         GrB_Vector scratch, std::vector<Step>* steps) {
    const GrB_Index n = g.n;
    const GrB_Semiring sr = o.min_parent ? GxB_MIN_SECONDI_INT64 : GxB_ANY_SECONDI_INT64;
    GrB_Vector parent = nullptr, q = nullptr;
    CHECK_GRB(GrB_Vector_new(&parent, GrB_INT64, n));
    CHECK_GRB(GrB_Vector_new(&q, GrB_INT64, n));
    // π stays a bitmap (random access by the mask); q changes with the direction.
    CHECK_GRB(GxB_Vector_Option_set(parent, GxB_SPARSITY_CONTROL, GxB_BITMAP));
    CHECK_GRB(GrB_Vector_setElement_INT64(parent, std::int64_t(root), root));
    CHECK_GRB(GrB_Vector_setElement_INT64(q, std::int64_t(root), root));

    bool allow_pull = o.allow_pull, push = true, pulled = false;
    std::int64_t unexplored = std::int64_t(g.entries);
    GrB_Index size = 1, previous = 0;
    const double n_beta1 = double(n) / o.beta1, n_beta2 = double(n) / o.beta2;
    for (GrB_Index visited = 1; visited < n; visited += size) {
        if (allow_pull) {
            if (push) {
                const bool grew = size > previous;
                if (unexplored < std::int64_t(n)) {
                    allow_pull = false;  // little of the graph is left: stay in push
                } else if (pulled) {
                    // Frontier edges are no longer tracked after a pull phase: go by size.
                    push = !(grew && double(size) > n_beta1);
                } else {
                    // Edges leaving the frontier: reduce the degrees masked by q.
                    std::int64_t frontier_edges = 0;
                    CHECK_GRB(
                        GrB_Vector_assign(scratch, q, nullptr, g.degree, GrB_ALL, n, GrB_DESC_RS));
                    CHECK_GRB(GrB_Vector_reduce_INT64(&frontier_edges, nullptr,
                                                      GrB_PLUS_MONOID_INT64, scratch, nullptr));
                    unexplored -= frontier_edges;
                    push = !(grew && double(frontier_edges) > double(unexplored) / o.alpha);
                }
            } else if (size < previous && double(size) <= n_beta2) {
                push = true;
            }
            pulled = pulled || !push;
        }
        if (steps) steps->push_back({!push, size});
        CHECK_GRB(GxB_Vector_Option_set(q, GxB_SPARSITY_CONTROL, push ? GxB_SPARSE : GxB_BITMAP));
        if (push) {
            CHECK_GRB(GrB_vxm(q, parent, nullptr, sr, q, g.a, GrB_DESC_RSC));
        } else {
            CHECK_GRB(GrB_mxv(q, parent, nullptr, sr, g.a, q, GrB_DESC_RSC));
        }
        previous = size;
        CHECK_GRB(GrB_Vector_nvals(&size, q));
        if (size == 0) break;
        CHECK_GRB(GrB_Vector_assign(parent, q, nullptr, q, GrB_ALL, n, GrB_DESC_S));
    }
    CHECK_GRB(GrB_Vector_wait(parent, GrB_MATERIALIZE));
    CHECK_GRB(GrB_Vector_free(&q));
    return parent;
}

/// Parents as a dense host array, -1 for unreached vertices.
std::vector<std::int64_t> to_host(GrB_Vector parent, GrB_Index n) {
    GrB_Index nz = 0;
    CHECK_GRB(GrB_Vector_nvals(&nz, parent));
    std::vector<GrB_Index> idx(nz);
    std::vector<std::int64_t> val(nz);
    CHECK_GRB(GrB_Vector_extractTuples_INT64(idx.data(), val.data(), &nz, parent));
    std::vector<std::int64_t> out(n, -1);
    for (GrB_Index k = 0; k < nz; ++k) out[idx[k]] = val[k];
    return out;
}

/// Checks a parent array against a serial BFS over the CSR arrays (rows sorted): same reached
/// set, every parent a neighbour one level closer to the root (so the tree's levels are the
/// BFS distances), and with --semiring min the smallest such neighbour. Returns the number of
/// violations.
std::uint64_t verify(const GrB_Index* ap, const GrB_Index* aj, GrB_Index n, gindex_t root,
                     const std::vector<std::int64_t>& parent, bool min_parent) {
    std::vector<std::int64_t> dist(n, -1);
    std::deque<GrB_Index> queue{GrB_Index(root)};
    dist[std::size_t(root)] = 0;
    while (!queue.empty()) {
        const GrB_Index u = queue.front();
        queue.pop_front();
        for (GrB_Index k = ap[u]; k < ap[u + 1]; ++k) {
            if (dist[aj[k]] < 0) {
                dist[aj[k]] = dist[u] + 1;
                queue.push_back(aj[k]);
            }
        }
    }
    std::uint64_t bad = parent[std::size_t(root)] == root ? 0 : 1;
    for (GrB_Index v = 0; v < n; ++v) {
        if ((parent[v] >= 0) != (dist[v] >= 0)) {
            ++bad;
            continue;
        }
        if (parent[v] < 0 || gindex_t(v) == root) continue;
        const GrB_Index p = GrB_Index(parent[v]);
        const GrB_Index* row = aj + ap[v];
        const GrB_Index* end = aj + ap[v + 1];
        const bool edge = std::binary_search(row, end, p);
        GrB_Index best = n;  // smallest neighbour one level up
        for (const GrB_Index* u = row; u != end && best == n; ++u) {
            if (dist[*u] == dist[v] - 1) best = *u;
        }
        if (!edge || dist[p] != dist[v] - 1 || (min_parent && p != best)) ++bad;
    }
    return bad;
}

void print_block(const char* name, const gridblas::bench::Summary& s, bool rate) {
    std::printf(
        "min_%s: %.6g\nfirstquartile_%s: %.6g\nmedian_%s: %.6g\nthirdquartile_%s: %.6g\n"
        "max_%s: %.6g\nmean_%s: %.6g\nstddev_%s: %.6g\n",
        name, s.min, name, s.firstquartile, name, s.median, name, s.thirdquartile, name, s.max,
        name, s.mean, name, s.stddev);
    if (rate) {
        std::printf("harmonic_mean_%s: %.6g\nharmonic_stddev_%s: %.6g\n", name, s.harmonic_mean,
                    name, s.harmonic_stddev);
    }
}

int run(int argc, char** argv) {
    gridblas::bench::Cli cli(argc, argv,
                             {"scale", "edgefactor", "seed", "roots", "threads", "direction",
                              "semiring", "alpha", "beta1", "beta2", "verify"},
                             {"levels", "help"});
    if (cli.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const gridblas::KroneckerParams kp = gridblas::bench::kronecker_options(cli);
    const int nroots = int(cli.integer("roots", 64, 1, 1 << 20));
    const int nverify = int(cli.integer("verify", 4, 0, 1 << 20));
    PushPullOptions o;
    const std::string dir = cli.str("direction", "auto"), sem = cli.str("semiring", "any");
    if (dir != "auto" && dir != "push") throw std::invalid_argument("--direction: auto or push");
    if (sem != "any" && sem != "min") throw std::invalid_argument("--semiring: any or min");
    o.allow_pull = dir == "auto";
    o.min_parent = sem == "min";
    o.alpha = cli.real("alpha", o.alpha);
    o.beta1 = cli.real("beta1", o.beta1);
    o.beta2 = cli.real("beta2", o.beta2);

    gridblas::bench::start_graphblas(cli);
    int threads = 0;
    CHECK_GRB(GxB_Global_Option_get(GxB_GLOBAL_NTHREADS, &threads));

    std::fprintf(stderr, "gridblas-baseline-graphblas: building the graph...\n");
    double gen_s = 0, build_s = 0;
    Graph g = build_graph(kp, gen_s, build_s);
    std::fprintf(stderr,
                 "gridblas-baseline-graphblas: %llu vertices, %llu stored entries, "
                 "generated in %.2f s, built in %.2f s\n",
                 (unsigned long long)g.n, (unsigned long long)g.entries, gen_s, build_s);
    const std::vector<gindex_t> roots = pick_roots(g.host_degree, nroots, kp.seed);
    if (roots.empty()) throw std::runtime_error("the graph has no vertex of degree >= 1");

    GrB_Vector scratch = nullptr;
    CHECK_GRB(GrB_Vector_new(&scratch, GrB_INT64, g.n));
    GrB_Vector parent = push_pull_bfs(g, GrB_Index(roots.front()), o, scratch, nullptr);  // warm-up
    CHECK_GRB(GrB_Vector_free(&parent));

    std::vector<double> times, edges, teps;
    std::vector<std::vector<std::int64_t>> kept;  // parents of the searches to verify
    std::vector<Step> steps;
    for (std::size_t k = 0; k < roots.size(); ++k) {
        const double t0 = now();
        parent = push_pull_bfs(g, GrB_Index(roots[k]), o, scratch, k == 0 ? &steps : nullptr);
        const double t = now() - t0;
        // Edges of the traversed component: half the degree sum of the reached vertices.
        std::int64_t degree_sum = 0;
        CHECK_GRB(GrB_Vector_assign(scratch, parent, nullptr, g.degree, GrB_ALL, g.n, GrB_DESC_RS));
        CHECK_GRB(
            GrB_Vector_reduce_INT64(&degree_sum, nullptr, GrB_PLUS_MONOID_INT64, scratch, nullptr));
        times.push_back(t);
        edges.push_back(double(degree_sum) / 2.0);
        teps.push_back(edges.back() / t);
        if (int(k) < nverify) kept.push_back(to_host(parent, g.n));
        CHECK_GRB(GrB_Vector_free(&parent));
    }

    // Verification (untimed): take A's CSR arrays out, check, and put them back.
    std::uint64_t failures = 0;
    if (!kept.empty()) {
        GrB_Index *ap = nullptr, *aj = nullptr, ap_size = 0, aj_size = 0, ax_size = 0;
        void* ax = nullptr;
        bool iso = false;
        CHECK_GRB(GxB_Matrix_unpack_CSR(g.a, &ap, &aj, &ax, &ap_size, &aj_size, &ax_size, &iso,
                                        nullptr, nullptr));
        for (std::size_t k = 0; k < kept.size(); ++k) {
            const std::uint64_t bad = verify(ap, aj, g.n, roots[k], kept[k], o.min_parent);
            if (bad) {
                ++failures;
                std::fprintf(stderr, "root %lld: %llu vertices disagree with the serial BFS\n",
                             (long long)roots[k], (unsigned long long)bad);
            }
        }
        CHECK_GRB(GxB_Matrix_pack_CSR(g.a, &ap, &aj, &ax, ap_size, aj_size, ax_size, iso, false,
                                      nullptr));
    }

    if (cli.has("levels")) {
        std::printf("%5s %4s %12s\n", "level", "dir", "frontier");
        for (std::size_t k = 0; k < steps.size(); ++k) {
            std::printf("%5zu %4s %12llu\n", k, steps[k].pull ? "BU" : "TD",
                        (unsigned long long)steps[k].frontier);
        }
    }
    unsigned int ver[3] = {0, 0, 0};
    CHECK_GRB(GxB_Global_Option_get(GxB_LIBRARY_VERSION, ver));
    std::printf("program: gridblas-baseline-graphblas\ngraphblas_version: %u.%u.%u\n", ver[0],
                ver[1], ver[2]);
    std::printf("bfs: %s, semiring %s, alpha %g, beta1 %g, beta2 %g\n",
                o.allow_pull ? "push/pull" : "push only",
                o.min_parent ? "GxB_MIN_SECONDI_INT64" : "GxB_ANY_SECONDI_INT64", o.alpha, o.beta1,
                o.beta2);
    std::printf("roots: the keys gridblas-bfs picks for seed %llu (degree >= 1), first:",
                (unsigned long long)kp.seed);
    for (std::size_t k = 0; k < roots.size() && k < 4; ++k)
        std::printf(" %lld", (long long)roots[k]);
    std::printf("\n");
    std::printf("SCALE: %d\nedgefactor: %d\nNBFS: %zu\n", kp.scale, kp.edgefactor, roots.size());
    std::printf("graph_generation: %.6g\nthreads: %d\nconstruction_time: %.6g\n", gen_s, threads,
                build_s);
    std::printf("vertices: %llu\nstored_entries: %llu\n", (unsigned long long)g.n,
                (unsigned long long)g.entries);
    std::printf(
        "edge_count_convention: undirected edges with both ends reached, after removing "
        "self-loops and duplicates (degree sum / 2)\n");
    print_block("time", gridblas::bench::summarize(times), false);
    print_block("nedge", gridblas::bench::summarize(edges), false);
    print_block("TEPS", gridblas::bench::summarize(teps), true);
    std::printf("validation: %s (%zu of %zu searches checked against a serial BFS)\n",
                kept.empty() ? "skipped" : (failures ? "FAILED" : "passed"), kept.size(),
                roots.size());

    CHECK_GRB(GrB_Vector_free(&scratch));
    CHECK_GRB(GrB_Vector_free(&g.degree));
    CHECK_GRB(GrB_Matrix_free(&g.a));
    CHECK_GRB(GrB_finalize());
    return failures ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::guarded_main("gridblas-baseline-graphblas", run, argc, argv);
}
