#pragma once
/// @file multi_source_bfs.hpp
/// @brief Breadth-first search from k sources at once with the frontier as a k x n sparse
/// matrix, one masked mxm per level (the batched BFS of linear-algebra betweenness
/// centrality, Buluç & Gilbert, "The Combinatorial BLAS: design, implementation, and
/// applications", IJHPCA 2011):
///
///     F⟨¬V, structural, replace⟩ = F ⊕.⊗ A      over (any, pair)
///     V⟨F, structural⟩ = level                   (the newly reached entries get the level)
///
/// Row s of the frontier F is the frontier of source s; V (k x n) holds the level of every
/// vertex reached from each source, so it is also the visited mask. The search stops when
/// every frontier is empty.

#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/matrix/dist_matrix.hpp"

namespace gridblas {

/// The result of multi_source_bfs().
struct MultiSourceBfsResult {
    /// levels(s, v): the level of vertex v in the search from sources[s] (no entry:
    /// unreached). k x n, on the graph's grid.
    DistMatrix<gindex_t> levels;
    std::vector<gindex_t> sources;
    int depth = 0;         ///< levels searched (the largest level of any vertex)
    double seconds = 0.0;  ///< wall time (max over ranks)
};

/// Levels from every source in `sources` (the same list on every rank; repeats allowed) over
/// the graph `a` (a stored A(u, v) is an edge u -> v). Collective.
/// @throws DimensionMismatch (a not square), IndexOutOfBounds (a source outside [0, n)),
///         InvalidValue (no source), NotSupported (cuda grid, relabelled matrix), on every
///         rank before any communication.
MultiSourceBfsResult multi_source_bfs(const DistMatrix<Pattern>& a,
                                      const std::vector<gindex_t>& sources);

}  // namespace gridblas
