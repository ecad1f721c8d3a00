#pragma once
/// @file connected_components.hpp
/// @brief Connected components, written with gridblas' own operations and communication so
/// that they run on any grid: by default with subgraph sampling after Afforest (Sutton,
/// Ben-Nun & Barak, "Optimizing Parallel Graph Connectivity Computation via Subgraph
/// Sampling", IPDPS 2018), or by FastSV alone (Zhang, Azad & Hu, "FastSV: A
/// Distributed-Memory Connected Component Algorithm with Fast Convergence", SIAM PP 2020).
///
/// With sampling (CcOptions::sample_neighbors > 0):
///  1. each rank joins, in a union-find forest over its block's rows and columns, every
///     row's first few entries of the block;
///  2. the ranks' forests are joined by FastSV over the edges {vertex, root of its tree};
///  3. the label most of a random sample of vertices carry is taken as the giant
///     component's;
///  4. the other entries are read only for rows outside that component (for a directed
///     graph also the in-edges of columns outside it) and joined the same way.
/// On one rank steps 1 and 4 join one forest and step 2 is not needed. On graphs with a
/// giant component this reads a small part of the edges.
///
/// FastSV alone (sample_neighbors = 0): every vertex u keeps a parent f(u) (initially u) and its
/// grandparent gf(u) = f(f(u)). One iteration is
///  1. mngf = min(gf, A min.second gf): the smallest grandparent among u and its neighbours
///     (mxv over select2nd_min; for a directed graph vxm over the in-edges as well);
///  2. stochastic hooking: f(f(u)) = min(f(f(u)), mngf(u)) (an indexed assign with min);
///  3. aggressive hooking: f = min(f, mngf);
///  4. shortcutting: f = min(f, gf);
///  5. gf = f(f) (an indexed extract); stop when gf did not change.
/// Labels only decrease and are always vertex ids of the component, so at the fixed point
/// every vertex is labelled with the smallest vertex id of its component.

#include <vector>

#include "gridblas/core/distribution.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/dist_matrix.hpp"

namespace gridblas {

/// Options of connected_components().
struct CcOptions {
    /// The matrix is symmetric (an undirected graph): out-edges suffice. When false, in-edges
    /// are followed too, giving weakly connected components of a directed graph.
    bool symmetric = true;
    /// Entries per row and rank joined before the giant component is picked (Afforest's
    /// sampling); 0 runs FastSV over all entries instead. Must not be negative.
    int sample_neighbors = 2;
};

/// The result of connected_components(): this rank's piece of the vertex distribution
/// (vertex local_begin + k at index k).
struct CcResult {
    Distribution dist;
    gindex_t local_begin = 0;
    std::vector<gindex_t> component;  ///< smallest vertex id of the vertex's component
    gindex_t components = 0;          ///< number of components, all ranks
    /// FastSV: iterations until the fixed point. Sampling: 2 (the sampled entries, then the
    /// rest) plus the FastSV iterations that joined the ranks' results (pr, pc > 1).
    int iterations = 0;
    double seconds = 0.0;  ///< wall time (max over ranks)
};

/// Labels every vertex with the smallest vertex id of its (weakly) connected component.
/// `a` must be square; a stored A(u, v) is an edge u -> v. Collective.
/// @throws DimensionMismatch (not square), InvalidValue (sample_neighbors < 0), NotSupported (the
/// grid's exec_backend() is cuda,
///         or the matrix is stored relabelled), on every rank before any communication.
CcResult connected_components(const DistMatrix<Pattern>& a, const CcOptions& options = {});

}  // namespace gridblas
