#pragma once
/// @file bitmap_vector.hpp
/// @brief Local bitmap vector: one bit per position says whether an entry is present, with
/// an optional value array (none for Pattern). The frontier and visited sets of bottom-up BFS.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/matrix/detail/huge_pages.hpp"

namespace gridblas {

/// Number of 64-bit words a bitmap of n bits needs.
inline constexpr std::size_t bitmap_words(std::size_t n) { return (n + 63) / 64; }

/// A bitmap vector of length size(); values are kept only when T is not Pattern.
template <class T>
class BitmapVector {
public:
    using value_type = T;
    static constexpr bool has_values = !std::is_same_v<T, Pattern>;

    BitmapVector() = default;
    explicit BitmapVector(lindex_t n) : n_(n), bits_(bitmap_words(n), 0) {
        if constexpr (has_values) {
            detail::reserve_huge(val_, n);
            val_.assign(n, T{});
        }
    }

    lindex_t size() const { return n_; }
    bool test(lindex_t i) const { return (bits_[i >> 6] >> (i & 63)) & 1u; }
    /// Sets bit i (and its value); returns true when it was clear.
    bool set(lindex_t i, const T& v = T{}) {
        const std::uint64_t m = std::uint64_t(1) << (i & 63);
        const bool was_clear = !(bits_[i >> 6] & m);
        bits_[i >> 6] |= m;
        if constexpr (has_values) val_[i] = v;
        return was_clear;
    }
    void reset(lindex_t i) { bits_[i >> 6] &= ~(std::uint64_t(1) << (i & 63)); }
    void clear_all() { std::fill(bits_.begin(), bits_.end(), 0); }
    /// Entries present (a popcount over the words).
    std::size_t nvals() const {
        std::size_t c = 0;
        for (std::uint64_t w : bits_) c += std::size_t(std::popcount(w));
        return c;
    }

    const T& value(lindex_t i) const { return val_[i]; }
    T& value(lindex_t i) { return val_[i]; }
    std::vector<std::uint64_t>& words() { return bits_; }
    const std::vector<std::uint64_t>& words() const { return bits_; }
    std::vector<T>& values() { return val_; }
    const std::vector<T>& values() const { return val_; }

    bool operator==(const BitmapVector& o) const {
        if (n_ != o.n_ || bits_ != o.bits_) return false;
        if constexpr (has_values) {
            for (lindex_t i = 0; i < n_; ++i) {
                if (test(i) && !(val_[i] == o.val_[i])) return false;
            }
        }
        return true;
    }

private:
    lindex_t n_ = 0;
    std::vector<std::uint64_t> bits_;
    std::vector<T> val_;  // empty for Pattern
};

}  // namespace gridblas
