#pragma once
// Helpers of the CUDA backend tests: the skip-without-device guard, device masks built from
// an "allowed" predicate, graph builders, and the serial BFS of tests/reference on a CSR graph.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "gridblas/cuda/device.hpp"
#include "gridblas/matrix/csr.hpp"
#include "reference/bfs_reference.hpp"

/// Skips the current test, with the reason, when no CUDA device can be used (no GPU, no
/// driver, or a build without CUDA).
#define GRIDBLAS_REQUIRE_CUDA_DEVICE()                                                   \
    do {                                                                                 \
        if (::gridblas::cuda_device_count() == 0) {                                      \
            GTEST_SKIP() << "no CUDA device: " << ::gridblas::cuda_unavailable_reason(); \
        }                                                                                \
    } while (0)

namespace ct {

using namespace gridblas;

/// Host bitmap (Pattern) whose bit i is `allowed[i] != flip`.
inline BitmapVector<Pattern> bits_of(const std::vector<char>& allowed, bool flip) {
    BitmapVector<Pattern> b(lindex_t(allowed.size()));
    for (lindex_t i = 0; i < lindex_t(allowed.size()); ++i) {
        if (bool(allowed[i]) != flip) b.set(i);
    }
    return b;
}

/// A symmetric pattern graph without self-loops or duplicates from an edge list.
inline Csr<Pattern> graph_from_edges(lindex_t n, const std::vector<lindex_t>& src,
                                     const std::vector<lindex_t>& dst, bool symmetrize) {
    std::vector<lindex_t> r, c;
    for (std::size_t k = 0; k < src.size(); ++k) {
        if (src[k] == dst[k]) continue;
        r.push_back(src[k]);
        c.push_back(dst[k]);
        if (symmetrize) {
            r.push_back(dst[k]);
            c.push_back(src[k]);
        }
    }
    return Csr<Pattern>::from_tuples(n, n, r, c, ValueArray<Pattern>(r.size()),
                                     DuplicatePolicy::combine);
}

/// `m` random edges on n vertices.
inline Csr<Pattern> random_graph(lindex_t n, std::size_t m, std::uint64_t seed, bool symmetrize) {
    std::mt19937_64 rng(seed);
    std::vector<lindex_t> s(m), d(m);
    for (std::size_t k = 0; k < m; ++k) {
        s[k] = lindex_t(rng() % n);
        d[k] = lindex_t(rng() % n);
    }
    return graph_from_edges(n, s, d, symmetrize);
}

/// The serial BFS of tests/reference along the out-edges of g (row u lists u's
/// out-neighbours): levels and the parent the GPU BFS must choose (the smallest in-neighbour
/// one level up).
inline ref::SerialBfs serial_bfs(const Csr<Pattern>& g, lindex_t source) {
    std::vector<gindex_t> src, dst;
    for (lindex_t u = 0; u < g.nrows(); ++u) {
        for (offset_t p = g.rowptr()[u]; p < g.rowptr()[u + 1]; ++p) {
            src.push_back(u);
            dst.push_back(g.colind()[p]);
        }
    }
    return ref::serial_bfs(g.nrows(), src, dst, source);
}

}  // namespace ct
