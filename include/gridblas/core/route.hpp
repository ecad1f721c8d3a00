#pragma once
/// @file route.hpp
/// @brief Lays items out destination by destination for an alltoallv: the shared first half
/// of every "send each item to its owner" exchange (matrix and vector builds, relabelling).

#include <cstddef>
#include <vector>

namespace gridblas::detail {

/// For k in [0, n): item make(k) goes to rank dest(k) in [0, p). On return `counts[r]` is the
/// number of items for rank r and `out` holds them rank by rank, in k order within a rank.
/// `d` is scratch (each item's rank), for callers that route many rounds.
template <class Item, class Dest, class Make>
void group_by_destination(std::size_t n, int p, Dest dest, Make make, std::vector<int>& counts,
                          std::vector<Item>& out, std::vector<int>& d) {
    counts.assign(std::size_t(p), 0);
    d.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        d[k] = dest(k);
        ++counts[std::size_t(d[k])];
    }
    std::vector<std::size_t> next(std::size_t(p), 0);
    for (int r = 1; r < p; ++r) {
        next[std::size_t(r)] = next[std::size_t(r) - 1] + std::size_t(counts[std::size_t(r) - 1]);
    }
    out.resize(n);
    for (std::size_t k = 0; k < n; ++k) out[next[std::size_t(d[k])]++] = make(k);
}

/// Same, with its own scratch.
template <class Item, class Dest, class Make>
void group_by_destination(std::size_t n, int p, Dest dest, Make make, std::vector<int>& counts,
                          std::vector<Item>& out) {
    std::vector<int> d;
    group_by_destination(n, p, dest, make, counts, out, d);
}

}  // namespace gridblas::detail
