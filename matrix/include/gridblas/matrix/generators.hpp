#pragma once
/// @file generators.hpp
/// @brief Synthetic graph generators: the Graph500 Kronecker (R-MAT) generator and a uniform
/// random (Erdős–Rényi style, with replacement) generator.
///
/// Both are *counter based*: edge `k` is a pure function of the parameters (seed included) and
/// of `k`. Any slice `[first, first + count)` of the edge list can therefore be produced on its
/// own, by any rank and any number of threads, and the union of the slices is the same graph
/// however the edge list is cut. A distributed program typically does
/// @code
/// gridblas::KroneckerParams p{.scale = 20};
/// auto [first, count] = gridblas::slice_range(gridblas::num_edges(p), rank, nranks);
/// std::vector<gridblas::gindex_t> src, dst;
/// gridblas::kronecker_edges(p, first, count, src, dst);
/// @endcode
///
/// The generated lists keep everything the Graph500 specification says kernel 1 must see:
/// self-loops, duplicate edges and isolated vertices. The edge list is a list of directed
/// tuples `(src[k], dst[k])`; symmetrize it for an undirected graph.

#include <cstdint>
#include <utility>
#include <vector>

#include "gridblas/core/types.hpp"

namespace gridblas {

/// Largest Kronecker scale accepted (vertex ids must fit the signed 64-bit gindex_t).
inline constexpr int kronecker_max_scale = 62;

/// Parameters of the Graph500 Kronecker generator (Graph500 specification V2.0, "Generating
/// the Edge List"). The initiator probabilities are a, b, c and d = 1 - a - b - c for the
/// quadrants (row bit, column bit) = (0,0), (0,1), (1,0), (1,1).
struct KroneckerParams {
    int scale = 0;           ///< the graph has 2^scale vertices; 1 .. kronecker_max_scale
    int edgefactor = 16;     ///< the graph has edgefactor * 2^scale edge tuples; >= 1
    double a = 0.57;         ///< probability of quadrant (0,0) at each level
    double b = 0.19;         ///< probability of quadrant (0,1)
    double c = 0.19;         ///< probability of quadrant (1,0)
    std::uint64_t seed = 1;  ///< selects the graph; the same seed gives the same graph
    /// Relabel the vertices by a seed-keyed bijection of [0, 2^scale), so that high-degree
    /// vertices are not clustered at low ids (Graph500 requires randomly permuted labels).
    bool permute = true;
};

/// Number of vertices, 2^scale. Throws InvalidValue on invalid parameters.
gindex_t num_vertices(const KroneckerParams& p);

/// Number of edge tuples, edgefactor * 2^scale. Throws InvalidValue on invalid parameters.
std::uint64_t num_edges(const KroneckerParams& p);

/// Checks the parameters: scale in [1, kronecker_max_scale], edgefactor >= 1,
/// edgefactor * 2^scale < 2^64, a, b, c
/// each in [0, 1] and a + b + c <= 1 (to within 1e-12). The probabilities are applied with a
/// resolution of 2^-15 per level.
/// @throws InvalidValue naming the offending field and its value.
void validate(const KroneckerParams& p);

/// Generates the Kronecker edges with indices [first, first + count).
///
/// `src` and `dst` are **overwritten**: on return both have size `count` and element `i` is
/// edge `first + i`. Edge `k` depends only on the parameters and `k`, so concatenating the
/// outputs of consecutive slices gives exactly the output of one call for the whole range.
/// Runs in parallel with OpenMP over the slice.
///
/// @throws InvalidValue on invalid parameters (see validate()).
/// @throws IndexOutOfBounds when first + count exceeds num_edges(p).
/// On a throw, `src` and `dst` are unchanged.
void kronecker_edges(const KroneckerParams& p, std::uint64_t first, std::uint64_t count,
                     std::vector<gindex_t>& src, std::vector<gindex_t>& dst);

/// The vertex relabelling used when `p.permute` is set: a bijection of [0, 2^scale) keyed by
/// `p.seed`. Exposed so that callers (and tests) can map generator-internal ids.
/// @throws InvalidValue on invalid parameters; IndexOutOfBounds when v is not in
/// [0, 2^scale).
gindex_t kronecker_permute(const KroneckerParams& p, gindex_t v);

/// Parameters of the uniform random generator: each edge picks its two endpoints
/// independently and uniformly in [0, num_vertices) (self-loops and duplicates possible).
struct UniformParams {
    gindex_t num_vertices = 0;  ///< >= 1
    std::uint64_t num_edges = 0;
    std::uint64_t seed = 1;
};

/// Checks the parameters (num_vertices >= 1). @throws InvalidValue.
void validate(const UniformParams& p);

/// Generates the uniform random edges with indices [first, first + count); same contract as
/// kronecker_edges() (outputs overwritten, slicing invariant, unchanged on a throw).
/// @throws InvalidValue on invalid parameters.
/// @throws IndexOutOfBounds when first + count exceeds p.num_edges.
void uniform_edges(const UniformParams& p, std::uint64_t first, std::uint64_t count,
                   std::vector<gindex_t>& src, std::vector<gindex_t>& dst);

/// Splits `total` items into `nparts` contiguous, balanced parts (sizes differ by at most one,
/// the larger parts first) and returns part `part` as (first, count).
/// @throws InvalidValue when nparts < 1; IndexOutOfBounds when part is not in [0, nparts).
std::pair<std::uint64_t, std::uint64_t> slice_range(std::uint64_t total, int part, int nparts);

}  // namespace gridblas
