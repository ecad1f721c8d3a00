#pragma once
/// @file triangle_count.hpp
/// @brief Triangle counting and local clustering coefficients of an undirected graph, written
/// with gridblas' masked mxm so that they run on any grid.
///
/// Triangle count: the Sandia form of Wolf, Deveci, Berry, Hammond & Rajamanickam, "Fast
/// linear algebra-based triangle counting with KokkosKernels" (HPEC 2017), as LAGraph writes
/// it: with L and U the strictly lower and upper triangles of A, C⟨L⟩ = L ⊕.⊗ U over
/// plus_pair counts, at each (i, j) with j < i, the k < j adjacent to both, so every triangle
/// is counted once and the total is the sum of C. The triangles may be taken in ascending
/// (degree, id) order instead of id order (as LAGraph's presort and GapBS' tc do for skewed
/// graphs), which bounds the rows of U by about sqrt(2m) and makes the product cheap on
/// power-law graphs. On one rank the vertices are renumbered in that order (the local block
/// is permuted directly); on several the order is applied by selecting L and U in the
/// original ids, which gives the same product without moving any entry between ranks.
///
/// Local clustering coefficient (networkx.clustering, Watts & Strogatz 1998): with
/// C⟨A⟩ = A ⊕.⊗ A over plus_pair, t(i) = Σ_j C(i, j) / 2 triangles touch vertex i and
/// lcc(i) = 2 t(i) / (d(i) (d(i) - 1)), 0 when d(i) < 2. Self-loops are ignored by both.

#include <span>
#include <vector>

#include "gridblas/core/distribution.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/mxm.hpp"

namespace gridblas {

/// Whether triangle_count() orders the vertices by ascending degree first.
enum class DegreeSort {
    automatic,  ///< when the degrees are skewed (mean degree above 1.3 x the median)
    always,
    never
};

/// Options of triangle_count().
struct TriangleOptions {
    DegreeSort presort = DegreeSort::automatic;
    MxmMethod method = MxmMethod::automatic;  ///< local kernel of the masked product
};

/// The result of triangle_count().
struct TriangleResult {
    gindex_t triangles = 0;
    bool presorted = false;        ///< the vertices were ordered by degree
    double seconds = 0.0;          ///< wall time of the whole count (max over ranks)
    double seconds_product = 0.0;  ///< of which the masked product
    MxmStats product;              ///< what the masked product did on this rank
};

/// Counts the triangles of the undirected graph `a` (symmetric pattern; a stored A(u, v) is
/// the edge {u, v}; self-loops are ignored). Collective.
/// @throws DimensionMismatch (not square), NotSupported (cuda grid, relabelled matrix), on
///         every rank before any communication.
TriangleResult triangle_count(const DistMatrix<Pattern>& a, const TriangleOptions& options = {});

/// The result of local_clustering(): this rank's piece of the vertex distribution.
struct LccResult {
    Distribution dist;
    gindex_t local_begin = 0;
    std::vector<double> coefficient;  ///< lcc of vertex local_begin + k at index k
    std::vector<gindex_t> triangles;  ///< triangles through the vertex
    double seconds = 0.0;
};

/// Local clustering coefficient of every vertex of the undirected graph `a` (as
/// networkx.clustering). Collective; same errors as triangle_count().
LccResult local_clustering(const DistMatrix<Pattern>& a);

namespace detail {

/// GapBS' test for a skewed degree distribution (mean above 1.3 x (median + 1)), the rule of
/// DegreeSort::automatic; false below 1000 vertices. Shared with the SuiteSparse baseline so
/// that both renumber alike.
bool degrees_skewed(std::span<const gindex_t> degree);

/// The renumbering by ascending (degree, id): new_id[v] for every vertex v.
std::vector<gindex_t> ids_by_degree(std::span<const gindex_t> degree);

}  // namespace detail

}  // namespace gridblas
