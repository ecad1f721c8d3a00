#pragma once
/// @file pagerank.hpp
/// @brief PageRank as the LDBC Graphalytics benchmark defines it (Iosup et al., "LDBC
/// Graphalytics: A Benchmark for Large-Scale Graph Analysis on Parallel and Distributed
/// Platforms", VLDB 2016; specification v1.0, section "PageRank"), on gridblas' operations.
///
/// With n vertices, damping d and out-degrees |out(u)|, starting from PR_0(v) = 1/n:
///
///     PR_k(v) = (1 - d)/n + d * sum_{u -> v} PR_{k-1}(u)/|out(u)| + d/n * sum_{w dangling}
///     PR_{k-1}(w)
///
/// so the rank of dangling vertices (no out-edges) is spread evenly over all vertices and the
/// ranks keep summing to 1. One iteration is an element-wise division by the out-degrees, one
/// vxm over (plus, times), a masked reduction of the dangling ranks and element-wise updates.
/// The loop runs `iterations` times, or stops earlier once the L1 change of an iteration falls
/// to `tolerance` or below.

#include <vector>

#include "gridblas/core/distribution.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/dist_matrix.hpp"

namespace gridblas {

/// Options of pagerank().
struct PageRankOptions {
    double damping = 0.85;  ///< d, in [0, 1]
    int iterations = 100;   ///< most iterations run (Graphalytics fixes this count); >= 0
    /// Stop once sum_v |PR_k(v) - PR_{k-1}(v)| <= tolerance; 0 runs every iteration.
    double tolerance = 0.0;
};

/// The result of pagerank(): this rank's piece of the vertex distribution.
struct PageRankResult {
    Distribution dist;
    gindex_t local_begin = 0;
    std::vector<double> rank;  ///< PR(v) of the vertices of this rank's piece
    int iterations = 0;        ///< iterations run
    double residual = 0.0;     ///< L1 change of the last iteration
    double seconds = 0.0;      ///< wall time (max over ranks)
};

/// PageRank of the graph `a` (A(u, v) stored: an edge u -> v; values are ignored). Collective.
/// @throws DimensionMismatch (not square), InvalidValue (damping outside [0, 1], negative
///         iterations or tolerance), NotSupported (exec_backend() is cuda, or the matrix is
///         stored relabelled); on every rank before any communication.
PageRankResult pagerank(const DistMatrix<Pattern>& a, const PageRankOptions& options = {});

}  // namespace gridblas
