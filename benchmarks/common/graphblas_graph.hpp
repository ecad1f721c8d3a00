#pragma once
// The SuiteSparse:GraphBLAS side of the baseline programs: error checking of GrB calls and
// the Kronecker graph built exactly as gridblas' builders build it (gridblas' generator,
// self-loops dropped, symmetrised, duplicates combined), as a boolean GrB_Matrix with its
// degrees. Include after <GraphBLAS.h>.

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "gridblas/matrix/generators.hpp"

/// Throws std::runtime_error naming the call when a GraphBLAS call fails.
#define CHECK_GRB(call) gridblas::bench::check((call), #call)

namespace gridblas::bench {

using gridblas::gindex_t;

inline void check(GrB_Info info, const char* call) {
    if (info != GrB_SUCCESS && info != GrB_NO_VALUE) {
        throw std::runtime_error(std::string("GraphBLAS error ") + std::to_string(int(info)) +
                                 " in " + call);
    }
}

inline double now() { return omp_get_wtime(); }

/// The Kronecker graph the options name, as every baseline reads them: --scale (default 16),
/// --edgefactor (16) and --seed (1).
inline gridblas::KroneckerParams kronecker_options(const Cli& cli) {
    gridblas::KroneckerParams kp;
    kp.scale = int(cli.integer("scale", 16, 1, 40));
    kp.edgefactor = int(cli.integer("edgefactor", 16, 1, 1024));
    kp.seed = std::uint64_t(cli.integer("seed", 1, 0, std::int64_t(1) << 62));
    return kp;
}

/// GrB_init, then --threads T, when given, for GraphBLAS and OpenMP alike.
inline void start_graphblas(const Cli& cli) {
    check(GrB_init(GrB_NONBLOCKING), "GrB_init");
    if (cli.has("threads")) {
        const int t = int(cli.integer("threads", 1, 1, 4096));
        omp_set_num_threads(t);
        check(GxB_Global_Option_set(GxB_GLOBAL_NTHREADS, t), "GxB_Global_Option_set");
    }
}

/// The graph as GraphBLAS sees it, plus its degrees on the host.
struct Graph {
    GrB_Matrix a = nullptr;       // n x n bool, symmetric, CSR (GraphBLAS' default)
    GrB_Vector degree = nullptr;  // INT64 row degrees (entries only where degree > 0)
    std::vector<std::int64_t> host_degree;
    GrB_Index n = 0;
    GrB_Index entries = 0;  // stored entries = 2 x undirected edges
};

/// Generates the Kronecker edges, prepares them as gridblas' builders do, and builds A.
inline Graph build_graph(const gridblas::KroneckerParams& p, double& gen_seconds,
                         double& build_seconds) {
    double t0 = now();
    std::vector<gindex_t> src, dst;
    gridblas::kronecker_edges(p, 0, gridblas::num_edges(p), src, dst);
    std::size_t kept = 0;  // drop self-loops, then add the reverse of every edge
    for (std::size_t k = 0; k < src.size(); ++k) {
        if (src[k] != dst[k]) {
            src[kept] = src[k];
            dst[kept] = dst[k];
            ++kept;
        }
    }
    src.resize(2 * kept);
    dst.resize(2 * kept);
    for (std::size_t k = 0; k < kept; ++k) {
        src[kept + k] = dst[k];
        dst[kept + k] = src[k];
    }
    gen_seconds = now() - t0;

    t0 = now();
    Graph g;
    g.n = GrB_Index(gridblas::num_vertices(p));
    CHECK_GRB(GrB_Matrix_new(&g.a, GrB_BOOL, g.n, g.n));
    {
        std::unique_ptr<bool[]> ones(new bool[src.size()]);  // the values: all true
        std::fill(ones.get(), ones.get() + src.size(), true);
        // int64 and uint64 arrays may alias each other; the ids are all non-negative.
        CHECK_GRB(GrB_Matrix_build_BOOL(g.a, reinterpret_cast<const GrB_Index*>(src.data()),
                                        reinterpret_cast<const GrB_Index*>(dst.data()), ones.get(),
                                        GrB_Index(src.size()), GrB_LOR));
    }
    src = {};
    dst = {};
    CHECK_GRB(GrB_Matrix_wait(g.a, GrB_MATERIALIZE));
    CHECK_GRB(GrB_Matrix_nvals(&g.entries, g.a));
    CHECK_GRB(GrB_Vector_new(&g.degree, GrB_INT64, g.n));
    CHECK_GRB(
        GrB_Matrix_reduce_Monoid(g.degree, nullptr, nullptr, GrB_PLUS_MONOID_INT64, g.a, nullptr));
    CHECK_GRB(GrB_Vector_wait(g.degree, GrB_MATERIALIZE));
    build_seconds = now() - t0;

    GrB_Index nz = 0;
    CHECK_GRB(GrB_Vector_nvals(&nz, g.degree));
    std::vector<GrB_Index> idx(nz);
    std::vector<std::int64_t> val(nz);
    CHECK_GRB(GrB_Vector_extractTuples_INT64(idx.data(), val.data(), &nz, g.degree));
    g.host_degree.assign(g.n, 0);
    for (GrB_Index k = 0; k < nz; ++k) g.host_degree[idx[k]] = val[k];
    return g;
}

}  // namespace gridblas::bench
