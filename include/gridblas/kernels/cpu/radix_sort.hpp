#pragma once
/// @file radix_sort.hpp
/// @brief Parallel, stable LSD radix sort of (32-bit key, value) records, used by the
/// sort-based SpMSpV. The input may arrive as one chunk per thread with gaps between the
/// chunks (each thread gathered its products into its own slice of a shared buffer), which
/// the first pass reads in place; the output is contiguous.
///
/// The passes follow the textbook parallel LSD scheme (per-thread digit histograms, a prefix
/// in (digit, thread) order, a stable scatter), as in Satish, Harris & Garland, "Designing
/// efficient sorting algorithms for manycore GPUs" (IPDPS 2009), §4, done on CPU threads.
/// Stability makes the result independent of the thread count: records with equal keys
/// keep the order of the chunks, then of their position in a chunk.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"

namespace gridblas::kernels::detail {

/// A record of the sort: output index and value.
template <class Y>
struct KeyValue {
    lindex_t key;
    Y val;
};

/// Below this many records a comparison sort beats the radix passes' fixed costs.
inline constexpr std::size_t radix_min_records = 2048;

/// Sorts stably by key the records `a[begin[c] .. end[c])`, for c = 0 .. nchunks-1 taken in
/// order, with keys < key_bound. `b` is scratch; `a` and `b` must each hold at least the
/// total record count (and `a` at least max(end)). `hist` is reused scratch. Runs on
/// `threads` threads (1 = no parallel region). Returns the sorted records, contiguous at
/// the start of `a` or of `b`; `*total_out` receives their count.
template <class E>
E* radix_sort_chunks(E* a, E* b, const std::size_t* begin, const std::size_t* end, int nchunks,
                     lindex_t key_bound, int threads, std::vector<std::size_t>& hist,
                     std::size_t* total_out) {
    std::size_t total = 0;
    for (int c = 0; c < nchunks; ++c) total += end[c] - begin[c];
    *total_out = total;
    const int bits = key_bound <= 1 ? 0 : std::bit_width(std::uint32_t(key_bound - 1));

    if (total < radix_min_records || bits == 0) {
        // Compact the chunks into b, then a stable comparison sort.
        std::size_t o = 0;
        for (int c = 0; c < nchunks; ++c) {
            o = std::size_t(std::copy(a + begin[c], a + end[c], b + o) - b);
        }
        if (bits > 0) {
            std::stable_sort(b, b + total, [](const E& x, const E& y) { return x.key < y.key; });
        }
        return b;
    }

    const int passes = (bits + 10) / 11;
    const int digit_bits = (bits + passes - 1) / passes;
    const std::size_t radix = std::size_t(1) << digit_bits;
    const std::uint32_t digit_mask = std::uint32_t(radix - 1);
    // Per chunk: digit counts, then (separately, so no thread waits for another's prefix)
    // the chunk's write offsets. Two barriers per pass.
    const std::size_t cells = std::size_t(nchunks) * radix;
    if (hist.size() < 2 * cells) hist.resize(2 * cells);
    std::size_t* cnt = hist.data();
    std::size_t* pos = hist.data() + cells;

    detail::run_team(threads, [&] {
        const int team = team_size();
        const int tid = thread_id();
        E* src = a;
        E* dst = b;
        for (int pass = 0; pass < passes; ++pass) {
            const int shift = pass * digit_bits;
            // Chunk c of this pass: the gathered slices first, an even split afterwards.
            auto range = [&](int c, std::size_t& lo, std::size_t& hi) {
                if (pass == 0) {
                    lo = begin[c];
                    hi = end[c];
                } else {
                    lo = part_begin(total, c, nchunks);
                    hi = part_begin(total, c + 1, nchunks);
                }
            };
            for (int c = tid; c < nchunks; c += team) {
                std::size_t* hc = cnt + std::size_t(c) * radix;
                std::fill(hc, hc + radix, 0);
                std::size_t lo, hi;
                range(c, lo, hi);
                for (std::size_t p = lo; p < hi; ++p) ++hc[(src[p].key >> shift) & digit_mask];
            }
#pragma omp barrier
            for (int c = tid; c < nchunks; c += team) {
                // Offsets in (digit, chunk) order: stable across chunks.
                std::size_t* pc = pos + std::size_t(c) * radix;
                std::size_t off = 0;
                for (std::size_t r = 0; r < radix; ++r) {
                    for (int c2 = 0; c2 < nchunks; ++c2) {
                        if (c2 == c) pc[r] = off;
                        off += cnt[std::size_t(c2) * radix + r];
                    }
                }
                std::size_t lo, hi;
                range(c, lo, hi);
                for (std::size_t p = lo; p < hi; ++p) {
                    dst[pc[(src[p].key >> shift) & digit_mask]++] = src[p];
                }
            }
#pragma omp barrier
            std::swap(src, dst);
        }
    });
    return passes % 2 == 1 ? b : a;
}

}  // namespace gridblas::kernels::detail
