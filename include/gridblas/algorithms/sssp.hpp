#pragma once
/// @file sssp.hpp
/// @brief Single-source shortest paths by delta-stepping (Meyer & Sanders, "Δ-stepping: a
/// parallelizable shortest path algorithm", Journal of Algorithms 49(1), 2003), in the
/// linear-algebra form of Sridhar et al. ("Delta-stepping SSSP: from vertices and edges to
/// GraphBLAS implementations", GrAPL 2019), and its validation (Graph500 kernel 3 rules).
///
/// Bucket i holds the vertices whose tentative distance lies in [iΔ, (i+1)Δ). Each rank keeps
/// the distances and parents of its piece in arrays and its buckets as lists of its vertices,
/// so the work of a round is proportional to its frontier (as in GapBS's sssp.cc; Beamer et
/// al., "The GAP Benchmark Suite", 2015). For the lowest non-empty bucket (one reduction):
///  - repeat while the bucket has vertices not yet expanded at their current distance: relax
///    all their out-edges with one vxm_update over (min, +) (spmv_update.hpp: the products
///    are min-combined straight into the distance array); each vertex whose distance
///    improved joins the bucket of its new distance — the current one (next round's
///    frontier) or a later one.
/// Light and heavy edges are not told apart: a round relaxes every out-edge of its frontier,
/// which costs fewer passes than two matrices (GapBS does the same).
/// The parent of v is the smallest-id in-neighbour u with d(u) + w(u, v) = d(v), on any grid
/// and thread count. With float weights (and at most 2^32 - 1 vertices) the search finds
/// it as it goes: each vertex's distance and parent are one 64-bit label, (float bits, parent
/// id), relaxed with an unsigned minimum, so parents cost no pass of their own. With double
/// weights they come from one last scan of the in-edges (vxm_witness) that stops at each
/// vertex's first match.
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
    /// Find each vertex's parent (float weights: during the search, in 8-byte labels instead
    /// of 4-byte distances; double weights: one more scan of the edges, which stops at each
    /// vertex's first match). False: distances only (SsspResult::has_parents false, parent empty),
    /// as GapBS's sssp and LAGraph's return them.
    bool parents = true;
};

/// The result of sssp(): this rank's piece of the vertex distribution (vertex
/// local_begin + k at index k).
struct SsspResult {
    Distribution dist;
    gindex_t local_begin = 0;
    std::vector<double> distance;  ///< +infinity where unreached
    std::vector<gindex_t> parent;  ///< -1 where unreached; the source is its own parent
    bool has_parents = true;       ///< false (and parent empty) with SsspOptions::parents off
    gindex_t source = 0;
    gindex_t reached = 0;             ///< vertices reached, all ranks
    double delta = 0.0;               ///< the bucket width used
    int buckets = 0;                  ///< non-empty buckets processed
    int rounds = 0;                   ///< relaxation rounds (push vxm calls), all buckets
    std::uint64_t relaxed_edges = 0;  ///< edge relaxations of all rounds, all ranks
    double seconds = 0.0;             ///< wall time (max over ranks)
    /// Of which the parent pass (double weights) or unpacking the labels (float), max over ranks.
    double parent_seconds = 0.0;
};

/// Shortest paths from `source` along out-edges (a stored A(u, v) = w is an edge u -> v of
/// weight w). Collective.
/// @throws DimensionMismatch (not square), IndexOutOfBounds (source), InvalidValue (a weight
///         that is not positive and finite, or a negative or NaN delta), NotSupported
///         (exec_backend() is cuda, or the matrix is stored relabelled); on every rank, before
///         any communication except the weight check (one reduction).
SsspResult sssp(const DistMatrix<double>& a, gindex_t source, const SsspOptions& options = {});

/// The same over single-precision weights (Graph500's kernel 3 draws its weights as floats):
/// distances are summed in float, as GapBS sums its integer weights in 32 bits, so each
/// relaxation reads a 4-byte weight and updates a 4-byte distance instead of 8 and 8. The
/// result holds them as doubles (exactly the float values); sums are exact while they stay
/// below 2^24 for integer weights.
SsspResult sssp(const DistMatrix<float>& a, gindex_t source, const SsspOptions& options = {});

/// Counts of violated rules found by validate_sssp(), over all ranks.
struct SsspValidation {
    std::uint64_t bad_source = 0;    ///< source not at distance 0 as its own parent
    std::uint64_t inconsistent = 0;  ///< finite distance without parent or the reverse
    /// no edge parent(v) -> v with d(p) + w = d(v); without parents, no in-edge u -> v at all
    /// with d(u) + w = d(v)
    std::uint64_t bad_parent = 0;
    std::uint64_t edge_relaxes = 0;  ///< an edge u -> v with d(u) + w < d(v)
    bool ok() const { return bad_source + inconsistent + bad_parent + edge_relaxes == 0; }
    /// A one-line summary naming the rules broken.
    std::string summary() const;
};

/// Checks an SSSP result against the graph: d(source) = 0 with the source its own parent;
/// every other reached vertex v has an edge parent(v) -> v with d(parent) + w = d(v) (to a
/// relative 1e-12); no edge u -> v has d(u) + w < d(v) (so nothing reachable is unreached).
/// A result without parents (has_parents false) passes the second rule when some in-edge
/// u -> v gives d(u) + w = d(v). Collective.
/// @throws InvalidValue (has_parents differs between ranks), DimensionMismatch (a result
///         that does not match the graph's vertex distribution), on every rank
SsspValidation validate_sssp(const DistMatrix<double>& a, const SsspResult& result);

/// Same, for a result of the float sssp(): d(u) + w is formed in float, as the search did.
SsspValidation validate_sssp(const DistMatrix<float>& a, const SsspResult& result);

}  // namespace gridblas
