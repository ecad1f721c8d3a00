#pragma once
/// @file outer_bitmap.hpp
/// @brief OuterBitmap: which outer ids of a compressed block have entries, one bit each,
/// plus (for a doubly compressed block) a rank directory that turns a stored id into its
/// position with one popcount.
///
/// Row-wise pull kernels walk their outputs 64 at a time as bitmap words. ANDing a word of
/// "outputs still open" with the same word of this bitmap drops the outputs that have no
/// entries (isolated vertices: about a third of a Kronecker graph's) before any pointer is
/// read, and lets CSR and DCSC blocks share one word-parallel walk with no atomics: a stored
/// id's position is rank[id / 64] + popcount(bits[id / 64] below id). The index takes
/// n_outer / 8 + n_outer / 16 bytes (bits plus 32-bit ranks) and is built once per block.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/view.hpp"

namespace gridblas::kernels {

/// The stored outer ids of a view as a bitmap (with one zero word of padding past the end,
/// so that 64 bits at any offset can be read as two words), and for a doubly compressed
/// view the number of stored ids before each word.
class OuterBitmap {
public:
    OuterBitmap() = default;

    /// Indexes view `a` (any format).
    template <class A>
    explicit OuterBitmap(const CompressedView<A>& a, const ParallelPolicy& policy = {}) {
        const std::size_t words = (std::size_t(a.n_outer) + 63) / 64;
        bits_.assign(words + 1, 0);
        const int threads = detail::threads_for(policy, std::size_t(a.n_outer));
        if (!a.outer_ids) {
            const offset_t* ptr = a.ptr;
            const std::size_t n = std::min<std::size_t>(a.num_outer, a.n_outer);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
            for (std::size_t w = 0; w < words; ++w) {
                std::uint64_t b = 0;
                const std::size_t stop = std::min(n, (w + 1) * 64);
                for (std::size_t k = w * 64; k < stop; ++k) {
                    b |= std::uint64_t(ptr[k + 1] > ptr[k]) << (k & 63);
                }
                bits_[w] = b;
            }
            return;
        }
        // Doubly compressed: positions are not ids, so keep the rank directory too. Every
        // listed id gets its bit (a DCSC lists only non-empty ones), so that the set bits
        // below an id in its word are exactly the listed ids before it.
        rank_.assign(words + 1, 0);
        std::size_t w_done = 0;
        for (std::size_t k = 0; k < a.num_outer; ++k) {
            const lindex_t j = a.outer_ids[k];
            const std::size_t w = j >> 6;
            while (w_done <= w) rank_[w_done++] = std::uint32_t(k);
            bits_[w] |= std::uint64_t(1) << (j & 63);
        }
        while (w_done <= words) rank_[w_done++] = std::uint32_t(a.num_outer);
    }

    /// The 64 bits of outer ids [at, at + 64) (bits past the end are 0, for any `at`: a
    /// piece of the rotation may reach past the block's last outer id).
    std::uint64_t word_at(std::size_t at) const {
        const std::size_t w = at >> 6;
        if (w >= bits_.size()) return 0;
        const unsigned s = unsigned(at & 63);
        if (s == 0) return bits_[w];
        const std::uint64_t hi = w + 1 < bits_.size() ? bits_[w + 1] : 0;
        return (bits_[w] >> s) | (hi << (64 - s));
    }

    /// Stored position of outer id j, which must have entries.
    std::size_t position(lindex_t j) const {
        if (rank_.empty()) return j;
        const std::size_t w = j >> 6;
        const std::uint64_t below = bits_[w] & ((std::uint64_t(1) << (j & 63)) - 1);
        return std::size_t(rank_[w]) + std::size_t(std::popcount(below));
    }

    /// Whether this indexes a view of `n_outer` outer ids.
    bool fits(lindex_t n_outer) const {
        return bits_.size() == (std::size_t(n_outer) + 63) / 64 + 1;
    }

    /// Bytes held.
    std::size_t memory_bytes() const {
        return bits_.capacity() * sizeof(std::uint64_t) + rank_.capacity() * sizeof(std::uint32_t);
    }

private:
    std::vector<std::uint64_t> bits_;
    std::vector<std::uint32_t> rank_;
};

}  // namespace gridblas::kernels
