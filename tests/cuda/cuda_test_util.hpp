#pragma once
// Helpers of the CUDA backend tests: the skip-without-device guard, device masks built from
// an "allowed" predicate, graph builders and a serial BFS used as the oracle.

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "gridblas/cuda/device.hpp"
#include "gridblas/matrix/csr.hpp"

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

/// Serial BFS levels following out-edges (row u of g lists u's out-neighbours); -1 = unreached.
inline std::vector<gindex_t> serial_levels(const Csr<Pattern>& g, lindex_t source) {
    std::vector<gindex_t> level(g.nrows(), -1);
    std::deque<lindex_t> q{source};
    level[source] = 0;
    while (!q.empty()) {
        const lindex_t u = q.front();
        q.pop_front();
        for (offset_t p = g.rowptr()[u]; p < g.rowptr()[u + 1]; ++p) {
            const lindex_t v = g.colind()[p];
            if (level[v] < 0) {
                level[v] = level[u] + 1;
                q.push_back(v);
            }
        }
    }
    return level;
}

/// The parent the GPU BFS must choose: the smallest u with an edge u -> v one level up.
inline std::vector<gindex_t> min_parents(const Csr<Pattern>& g, const std::vector<gindex_t>& level,
                                         lindex_t source) {
    std::vector<gindex_t> parent(g.nrows(), -1);
    for (lindex_t u = 0; u < g.nrows(); ++u) {
        if (level[u] < 0) continue;
        for (offset_t p = g.rowptr()[u]; p < g.rowptr()[u + 1]; ++p) {
            const lindex_t v = g.colind()[p];
            if (v != source && level[v] == level[u] + 1 && parent[v] < 0) parent[v] = u;
        }
    }
    parent[source] = source;
    return parent;
}

}  // namespace ct
