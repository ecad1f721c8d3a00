#pragma once
// Serial oracles of the graph-algorithm MPI tests (connected components, PageRank, SSSP),
// written as plainly as possible on edge lists, and helpers that load a test graph's edges and
// gather a per-rank result piece into one array.

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gridblas/core/process_grid.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/generators.hpp"
#include "gridblas/matrix/matrix_market.hpp"

namespace gridblas::test {

/// A weighted edge list u -> v (w = 1 for pattern files).
struct WeightedEdges {
    gindex_t n = 0;
    std::vector<gindex_t> src, dst;
    std::vector<double> w;
};

/// The edges of a Matrix Market file prepared as the graph builders do: self-loops dropped,
/// reversed copies added unless `directed`; duplicates are left in (the oracles do not mind;
/// the builders keep the smallest weight, which is what a shortest path uses anyway).
inline WeightedEdges load_edges(const std::string& path, bool directed) {
    ReadOptions o;
    o.duplicates = DuplicatePolicy::combine;
    auto coo = read_matrix_market<double>(path, o);
    WeightedEdges e;
    e.n = coo.nrows;
    for (std::size_t k = 0; k < coo.rows.size(); ++k) {
        if (coo.rows[k] == coo.cols[k]) continue;
        e.src.push_back(coo.rows[k]);
        e.dst.push_back(coo.cols[k]);
        e.w.push_back(coo.vals[k]);
        if (!directed) {
            e.src.push_back(coo.cols[k]);
            e.dst.push_back(coo.rows[k]);
            e.w.push_back(coo.vals[k]);
        }
    }
    return e;
}

/// Gathers a per-rank piece (vertex local_begin + k at index k) into the whole array, on
/// every rank. Collective.
template <class T>
std::vector<T> gather_piece(ProcessGrid& g, gindex_t n, gindex_t local_begin,
                            const std::vector<T>& piece) {
    std::vector<gindex_t> idx(piece.size()), all_idx;
    std::iota(idx.begin(), idx.end(), local_begin);
    std::vector<T> all_val;
    std::vector<int> counts;
    g.world().allgatherv(std::span<const gindex_t>(idx), all_idx, counts, "test");
    g.world().allgatherv(std::span<const T>(piece), all_val, counts, "test");
    std::vector<T> out(static_cast<std::size_t>(n));
    for (std::size_t k = 0; k < all_idx.size(); ++k) out[std::size_t(all_idx[k])] = all_val[k];
    return out;
}

/// Component label = smallest vertex id of the (weakly) connected component (union-find).
inline std::vector<gindex_t> serial_components(const WeightedEdges& e) {
    std::vector<gindex_t> parent(std::size_t(e.n));
    std::iota(parent.begin(), parent.end(), gindex_t(0));
    std::function<gindex_t(gindex_t)> find = [&](gindex_t x) {
        while (parent[std::size_t(x)] != x) {
            parent[std::size_t(x)] = parent[std::size_t(parent[std::size_t(x)])];
            x = parent[std::size_t(x)];
        }
        return x;
    };
    for (std::size_t k = 0; k < e.src.size(); ++k) {
        const gindex_t a = find(e.src[k]), b = find(e.dst[k]);
        if (a != b) parent[std::size_t(std::max(a, b))] = std::min(a, b);
    }
    std::vector<gindex_t> label(std::size_t(e.n));
    for (gindex_t v = 0; v < e.n; ++v) label[std::size_t(v)] = find(v);
    return label;
}

/// PageRank, LDBC Graphalytics definition, `iterations` power steps from 1/n (duplicate
/// edges must have been removed: an edge counts once in the out-degree).
inline std::vector<double> serial_pagerank(const WeightedEdges& e, double damping, int iterations) {
    const auto n = std::size_t(e.n);
    std::vector<std::pair<gindex_t, gindex_t>> edges;
    for (std::size_t k = 0; k < e.src.size(); ++k) edges.emplace_back(e.src[k], e.dst[k]);
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    std::vector<double> outdeg(n, 0.0), pr(n, 1.0 / double(n)), next(n);
    for (const auto& [u, v] : edges) outdeg[std::size_t(u)] += 1.0;
    for (int it = 0; it < iterations; ++it) {
        double dangling = 0.0;
        for (std::size_t v = 0; v < n; ++v) {
            if (outdeg[v] == 0.0) dangling += pr[v];
        }
        std::fill(next.begin(), next.end(),
                  (1.0 - damping) / double(n) + damping * dangling / double(n));
        for (const auto& [u, v] : edges) {
            next[std::size_t(v)] += damping * pr[std::size_t(u)] / outdeg[std::size_t(u)];
        }
        pr.swap(next);
    }
    return pr;
}

/// Dijkstra from `source`: distances (+inf unreached) and parents (the smallest-id
/// in-neighbour u with d(u) + w(u, v) == d(v); -1 unreached; the source its own parent).
inline std::pair<std::vector<double>, std::vector<gindex_t>> serial_dijkstra(const WeightedEdges& e,
                                                                             gindex_t source) {
    const auto n = std::size_t(e.n);
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<std::vector<std::pair<gindex_t, double>>> out(n);
    for (std::size_t k = 0; k < e.src.size(); ++k) {
        out[std::size_t(e.src[k])].emplace_back(e.dst[k], e.w[k]);
    }
    std::vector<double> d(n, inf);
    using Item = std::pair<double, gindex_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
    d[std::size_t(source)] = 0.0;
    q.emplace(0.0, source);
    while (!q.empty()) {
        const auto [du, u] = q.top();
        q.pop();
        if (du > d[std::size_t(u)]) continue;
        for (const auto& [v, w] : out[std::size_t(u)]) {
            if (du + w < d[std::size_t(v)]) {
                d[std::size_t(v)] = du + w;
                q.emplace(du + w, v);
            }
        }
    }
    std::vector<gindex_t> parent(n, -1);
    parent[std::size_t(source)] = source;
    for (std::size_t k = 0; k < e.src.size(); ++k) {
        const auto u = std::size_t(e.src[k]), v = std::size_t(e.dst[k]);
        if (gindex_t(v) == source || d[u] == inf) continue;
        if (d[u] + e.w[k] == d[v] && (parent[v] < 0 || gindex_t(u) < parent[v])) {
            parent[v] = gindex_t(u);
        }
    }
    return {d, parent};
}

/// The Kronecker graph of `kp` as gridblas' builders prepare it (self-loops dropped, both
/// directions of every edge; duplicates left in), as edge lists.
inline void prepared_kronecker_edges(const KroneckerParams& kp, std::vector<gindex_t>& src,
                                     std::vector<gindex_t>& dst) {
    std::vector<gindex_t> s, d;
    kronecker_edges(kp, 0, num_edges(kp), s, d);
    src.clear();
    dst.clear();
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (s[k] == d[k]) continue;
        src.push_back(s[k]);
        dst.push_back(d[k]);
        src.push_back(d[k]);
        dst.push_back(s[k]);
    }
}

}  // namespace gridblas::test
