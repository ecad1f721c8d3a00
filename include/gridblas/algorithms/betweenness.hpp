#pragma once
/// @file betweenness.hpp
/// @brief Betweenness centrality from a batch of sources, Brandes' algorithm (Brandes, "A
/// faster algorithm for betweenness centrality", J. Math. Sociol. 2001) in the language of
/// linear algebra as in the Combinatorial BLAS (Buluç & Gilbert 2011) and LAGraph: the k
/// searches advance together with their frontiers as a k x n sparse matrix.
///
///  - Forward: F_{d+1}⟨¬P, structural, replace⟩ = F_d ⊕.⊗ A over (plus, times) counts the
///    shortest paths σ reaching each vertex at depth d+1 from each source; P = Σ_d F_d.
///  - Backward, d = D .. 2: W⟨F_d⟩ = (1 + δ) ./ σ, then the dependencies of depth d-1 are
///    δ ⊕= (W ⊕.⊗ Aᵀ)⟨F_{d-1}⟩ .* σ.
///  - centrality(v) = Σ_s δ_s(v) (the sources' own δ_s(s) never accumulates), halved for an
///    undirected graph, where every path is seen from both ends: the unnormalised value of
///    networkx.betweenness_centrality_subset(G, sources, all vertices).
///
/// σ and δ are kept as dense arrays over each rank's block of the k x n matrix (8 bytes per
/// source and vertex of the block); the frontiers are sparse matrices.

#include <vector>

#include "gridblas/core/distribution.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/dist_matrix.hpp"

namespace gridblas {

/// Options of betweenness_centrality().
struct BcOptions {
    /// The graph is undirected (a symmetric matrix): the sum is halved, and Aᵀ = A.
    bool symmetric = true;
};

/// The result of betweenness_centrality(): this rank's piece of the vertex distribution.
struct BcResult {
    Distribution dist;
    gindex_t local_begin = 0;
    std::vector<double> centrality;  ///< of vertex local_begin + k at index k
    int depth = 0;                   ///< levels of the deepest search
    double seconds = 0.0;            ///< wall time (max over ranks)
};

/// Betweenness centrality of every vertex over the shortest paths from `sources` (the same
/// list on every rank; k = sources.size(), repeats count twice) in the graph `a` (a stored
/// A(u, v) is an edge u -> v). Collective.
/// @throws DimensionMismatch (not square), IndexOutOfBounds (a source outside [0, n)),
///         InvalidValue (no source), NotSupported (cuda grid, relabelled matrix), on every
///         rank before any communication.
BcResult betweenness_centrality(const DistMatrix<Pattern>& a, const std::vector<gindex_t>& sources,
                                const BcOptions& options = {});

}  // namespace gridblas
