#pragma once
/// @file bitmap_ops.hpp
/// @brief Word-at-a-time helpers for the bitmaps of the BFS and pull kernels.

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "gridblas/core/types.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"

namespace gridblas::kernels {

namespace detail {
/// Sets the bits of ids[lo, hi) (ascending) in `words`: one store per word. With `shared_edges`
/// other threads set the bits of the ids before lo and from hi at the same time, so the first
/// and last words of the part, which they may share, are set atomically.
inline void set_bits_sorted_part(std::uint64_t* words, const lindex_t* ids, std::size_t lo,
                                 std::size_t hi, bool shared_edges) {
    std::size_t k = lo;
    while (k < hi) {
        const std::size_t w = ids[k] >> 6;
        std::uint64_t b = 0;
        for (; k < hi && (ids[k] >> 6) == w; ++k) b |= std::uint64_t(1) << (ids[k] & 63);
        const bool edge = (k == hi) || (w == (ids[lo] >> 6));
        if (edge && shared_edges) {
            std::atomic_ref<std::uint64_t>(words[w]).fetch_or(b, std::memory_order_relaxed);
        } else {
            words[w] |= b;
        }
    }
}
}  // namespace detail

/// Sets the bits of `ids[0 .. n)` (ascending) in `words`. The ids are cut into one range per
/// thread; a thread ORs the bits of one word together and writes each word once, with an
/// atomic OR only for the first and last word of its range (the only ones another thread
/// may share), so a dense list costs a few instructions per id and not one atomic each.
inline void set_bits_sorted(std::uint64_t* words, const lindex_t* ids, std::size_t n,
                            const ParallelPolicy& policy = {}) {
    const int threads = detail::threads_for(policy, n);
    detail::run_parts(threads, [&](int t) {
        detail::set_bits_sorted_part(words, ids, detail::part_begin(n, t, threads),
                                     detail::part_begin(n, t + 1, threads), threads > 1);
    });
}

}  // namespace gridblas::kernels
