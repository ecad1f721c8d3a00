#pragma once
/// @file sssp.hpp
/// @brief Single-source shortest paths by delta-stepping (Meyer & Sanders, "Δ-stepping: a
/// parallelizable shortest path algorithm", Journal of Algorithms 49(1), 2003), in the
/// linear-algebra form of Sridhar et al. ("Delta-stepping SSSP: from vertices and edges to
/// GraphBLAS implementations", GrAPL 2019), and its validation (Graph500 kernel 3 rules).
///
/// The edges are split once into light (w <= Δ) and heavy (w > Δ) matrices (select). Bucket
/// i holds the tentative distances in [iΔ, (i+1)Δ). For the lowest non-empty bucket:
///  - repeat while the bucket has vertices not yet expanded: relax their light edges with one
///    vxm over (min, +); the vertices whose distance improved and stays in the bucket are the
///    next round's frontier (ewise and select);
///  - then relax the heavy edges of every vertex the bucket settled, once.
/// The next bucket is found by a reduction (min of the distances at or above (i+1)Δ).
/// Parents come from one last vxm over a (min, +) semiring on (distance, vertex) pairs: the
/// parent of v is the smallest-id in-neighbour u with d(u) + w(u, v) = d(v).
/// Weights must be positive and finite.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gridblas/core/distribution.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/dist_matrix.hpp"

namespace gridblas {

/// Options of sssp().
struct SsspOptions {
    /// Bucket width Δ; 0 picks max weight / average out-degree (Meyer & Sanders' Θ(1/d) for
    /// weights in [0, 1)). Infinity turns the search into frontier-based Bellman-Ford.
    double delta = 0.0;
};

/// The result of sssp(): this rank's piece of the vertex distribution (vertex
/// local_begin + k at index k).
struct SsspResult {
    Distribution dist;
    gindex_t local_begin = 0;
    std::vector<double> distance;  ///< +infinity where unreached
    std::vector<gindex_t> parent;  ///< -1 where unreached; the source is its own parent
    gindex_t source = 0;
    gindex_t reached = 0;  ///< vertices reached, all ranks
    double delta = 0.0;    ///< the bucket width used
    int buckets = 0;       ///< non-empty buckets processed
    int rounds = 0;        ///< light-edge relaxation rounds, all buckets
    double seconds = 0.0;  ///< wall time (max over ranks)
};

/// Shortest paths from `source` along out-edges (a stored A(u, v) = w is an edge u -> v of
/// weight w). Collective.
/// @throws DimensionMismatch (not square), IndexOutOfBounds (source), InvalidValue (a weight
///         that is not positive and finite, or a negative or NaN delta), NotSupported
///         (exec_backend() is cuda, or the matrix is stored relabelled); on every rank, before
///         any communication except the weight check (one reduction).
SsspResult sssp(const DistMatrix<double>& a, gindex_t source, const SsspOptions& options = {});

/// Counts of violated rules found by validate_sssp(), over all ranks.
struct SsspValidation {
    std::uint64_t bad_source = 0;    ///< source not at distance 0 as its own parent
    std::uint64_t inconsistent = 0;  ///< finite distance without parent or the reverse
    std::uint64_t bad_parent = 0;    ///< no edge parent(v) -> v with d(p) + w = d(v)
    std::uint64_t edge_relaxes = 0;  ///< an edge u -> v with d(u) + w < d(v)
    bool ok() const { return bad_source + inconsistent + bad_parent + edge_relaxes == 0; }
    /// A one-line summary naming the rules broken.
    std::string summary() const;
};

/// Checks an SSSP result against the graph: d(source) = 0 with the source its own parent;
/// every other reached vertex v has an edge parent(v) -> v with d(parent) + w = d(v) (to a
/// relative 1e-12); no edge u -> v has d(u) + w < d(v) (so nothing reachable is unreached).
/// Collective.
SsspValidation validate_sssp(const DistMatrix<double>& a, const SsspResult& result);

}  // namespace gridblas
