#pragma once
/// @file weighted_graphs.hpp
/// @brief Weighted graphs for shortest paths: the Graph500 Kronecker graph with edge weights
/// drawn uniformly from [0, 1) (Graph500 specification, kernel 3 "SSSP"), and weights read
/// from Matrix Market `real` / `integer` files (a `pattern` file gives weight 1). Preparation
/// as for the pattern builders of graph_builders.hpp: symmetrise (the reverse edge gets the
/// same weight), drop self-loops, and combine duplicates by keeping the smallest weight.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gridblas/matrix/graph_builders.hpp"

namespace gridblas {

/// Weight of Kronecker edge k: a pure function of (seed, k), uniform in [0, 1) at 53-bit
/// resolution, never exactly 0 (the lowest value is 2^-54), so every weight is positive.
inline double kronecker_edge_weight(std::uint64_t seed, std::uint64_t k) {
    // splitmix64 over a key that mixes the seed and the edge index.
    std::uint64_t z = (seed * 0xd1b54a32d192ed03ULL) ^ (k + 0x9e3779b97f4a7c15ULL);
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double(z >> 11) + 0.5) * 0x1.0p-53;
}

namespace detail {

/// Applies GraphOptions to weighted edge arrays in place.
inline void prepare_weighted_edges(std::vector<gindex_t>& src, std::vector<gindex_t>& dst,
                                   ValueArray<double>& w, const GraphOptions& g) {
    if (g.drop_self_loops) {
        std::size_t k2 = 0;
        for (std::size_t k = 0; k < src.size(); ++k) {
            if (src[k] != dst[k]) {
                src[k2] = src[k];
                dst[k2] = dst[k];
                w[k2] = w[k];
                ++k2;
            }
        }
        src.resize(k2);
        dst.resize(k2);
        w.resize(k2);
    }
    if (g.symmetrize) {
        const std::size_t m = src.size();
        for (std::size_t k = 0; k < m; ++k) {
            src.push_back(dst[k]);
            dst.push_back(src[k]);
            const double x = w[k];  // a copy: push_back may reallocate
            w.push_back(x);
        }
    } else if (g.transpose) {
        src.swap(dst);
    }
}

/// Keeps the smaller of two weights of the same edge.
struct MinWeight {
    double operator()(double a, double b) const { return b < a ? b : a; }
};

}  // namespace detail

/// The Graph500 Kronecker graph of `p` with weights kronecker_edge_weight(p.seed, k) on edge
/// tuple k. Identical for every grid shape and rank count. Collective.
inline DistMatrix<double> weighted_kronecker_graph(std::shared_ptr<ProcessGrid> grid,
                                                   const KroneckerParams& p,
                                                   const GraphOptions& g = {}) {
    validate(p);
    const gindex_t n = num_vertices(p);
    BuildOptions b = g.build();
    auto m = DistMatrix<double>::shell(grid, n, n, b);
    typename DistMatrix<double>::LocalTuples acc;
    const auto [first, count] = slice_range(num_edges(p), grid->rank(), grid->size());
    const std::uint64_t batch = std::uint64_t(1) << 20;
    const std::uint64_t max_count = grid->world().allreduce(count, comm::ReduceOp::max, "graph");
    std::vector<gindex_t> src, dst;
    ValueArray<double> w;
    for (std::uint64_t done = 0; done < max_count; done += batch) {
        src.clear();
        dst.clear();
        w.clear();
        if (done < count) {
            const std::uint64_t c = std::min(batch, count - done);
            kronecker_edges(p, first + done, c, src, dst);
            for (std::uint64_t k = 0; k < c; ++k) {
                w.push_back(kronecker_edge_weight(p.seed, first + done + k));
            }
        }
        detail::prepare_weighted_edges(src, dst, w, g);
        m.route_append(src, dst, w, acc);
    }
    m.assemble(std::move(acc), b, detail::MinWeight{});
    return m;
}

/// A weighted graph from a Matrix Market file (real or integer values; pattern files give
/// weight 1), prepared by GraphOptions, duplicates combined by the smallest weight.
/// Collective; errors in the file are thrown on every rank.
inline DistMatrix<double> read_weighted_graph_matrix_market(std::shared_ptr<ProcessGrid> grid,
                                                            const std::string& path,
                                                            const GraphOptions& g = {}) {
    // The reader already mirrors each entry of a symmetric file with its value; adding the
    // mirrors again would only make duplicates to fold. (A skew-symmetric file's mirrors are
    // negated, and symmetrising then decides the weights, so it keeps the option.)
    GraphOptions prepare = g;
    if (g.symmetrize &&
        read_matrix_market_header(*grid, path).symmetry == MatrixMarketSymmetry::symmetric) {
        prepare.symmetrize = false;
    }
    return detail::stream_matrix_market<double>(
        std::move(grid), path, detail::kGraphFileChunk, 0, true, g.build(),
        [&](std::vector<gindex_t>& rows, std::vector<gindex_t>& cols, ValueArray<double>& vals) {
            detail::prepare_weighted_edges(rows, cols, vals, prepare);
        },
        detail::MinWeight{});
}

}  // namespace gridblas
