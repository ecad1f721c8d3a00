#pragma once
// The serial BFS every BFS test compares with (distributed, single-GPU, and the gridblas-bfs
// program): levels by a plain queue along out-edges, parents as the smallest-id in-neighbour
// one level up (what gridblas' `min` parent mode promises).

#include <deque>
#include <vector>

#include "gridblas/core/types.hpp"

namespace gridblas::ref {

struct SerialBfs {
    std::vector<gindex_t> level;
    std::vector<gindex_t> parent;
};

/// BFS from `source` over the directed edges u -> v given as (src[k], dst[k]) on vertices
/// 0..n-1 (an undirected graph lists both directions); duplicates and self-loops allowed.
/// level[v] and parent[v] are -1 for a vertex the search does not reach; the source is its
/// own parent.
inline SerialBfs serial_bfs(gindex_t n, const std::vector<gindex_t>& src,
                            const std::vector<gindex_t>& dst, gindex_t source) {
    std::vector<std::vector<gindex_t>> out(static_cast<std::size_t>(n));
    for (std::size_t k = 0; k < src.size(); ++k) out[std::size_t(src[k])].push_back(dst[k]);
    SerialBfs r;
    r.level.assign(std::size_t(n), -1);
    r.parent.assign(std::size_t(n), -1);
    std::deque<gindex_t> q{source};
    r.level[std::size_t(source)] = 0;
    while (!q.empty()) {
        const gindex_t u = q.front();
        q.pop_front();
        for (gindex_t v : out[std::size_t(u)]) {
            if (r.level[std::size_t(v)] < 0) {
                r.level[std::size_t(v)] = r.level[std::size_t(u)] + 1;
                q.push_back(v);
            }
        }
    }
    for (std::size_t k = 0; k < src.size(); ++k) {
        const gindex_t u = src[k], v = dst[k];
        if (r.level[std::size_t(v)] > 0 && r.level[std::size_t(u)] == r.level[std::size_t(v)] - 1) {
            gindex_t& p = r.parent[std::size_t(v)];
            if (p < 0 || u < p) p = u;
        }
    }
    r.parent[std::size_t(source)] = source;
    return r;
}

}  // namespace gridblas::ref
