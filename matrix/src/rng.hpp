#pragma once
// Private counter-based random numbers for the graph generators (not installed).
//
// The generators need "random word j of edge k" as a pure function of (seed, k, j), so that
// any slice of an edge list can be made alone. We use the splitmix64 construction (Steele,
// Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): the n-th output
// of a stream is a strong 64-bit finalizer applied to `key + n * gamma`, so output n costs the
// same whatever n is. Random word j of edge k is output k of the stream keyed by key_j, where
// the keys key_0, key_1, ... are derived from the seed. The vertex relabelling is a keyed
// bijection of the `bits`-bit integers built from invertible steps (xor with a key,
// multiplication by an odd constant, xorshift right), each taken modulo 2^bits.

#include <cstdint>

namespace gridblas::detail {

/// Odd increment of the splitmix64 stream (2^64 / golden ratio).
inline constexpr std::uint64_t golden_gamma = 0x9e3779b97f4a7c15ULL;

/// The splitmix64 output function: a bijective 64-bit mixer with full avalanche.
constexpr std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// Key of one generator "purpose" (edge stream, permutation, ...) for a user seed. Different
/// `purpose` constants give unrelated keys for the same seed.
constexpr std::uint64_t derive_key(std::uint64_t seed, std::uint64_t purpose) {
    return mix64(mix64(seed + golden_gamma) ^ purpose);
}

/// Word `n` of the random sequence keyed by `key`: the n-th splitmix64 output of a stream
/// whose state starts at `key`. A pure function of (key, n), so any part of the sequence can
/// be computed alone.
constexpr std::uint64_t sequence_word(std::uint64_t key, std::uint64_t n) {
    return mix64(key + (n + 1) * golden_gamma);
}

/// Uniform integer in [0, n) from a uniform 64-bit word (multiply-high; the bias is at most
/// n / 2^64 relative, negligible for graph generation).
inline std::uint64_t bounded(std::uint64_t word, std::uint64_t n) {
    return std::uint64_t((static_cast<unsigned __int128>(word) * n) >> 64);
}

/// A keyed bijection of [0, 2^bits), bits in [1, 63].
class BitPermutation {
public:
    static constexpr int rounds = 3;

    BitPermutation() = default;
    BitPermutation(int bits, std::uint64_t key)
        : mask_(bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1),
          shift_((bits + 1) / 2) {
        for (int r = 0; r < rounds; ++r) {
            xor_[r] = sequence_word(key, 2 * std::uint64_t(r)) & mask_;
            mul_[r] = sequence_word(key, 2 * std::uint64_t(r) + 1) | 1u;  // odd: invertible
        }
    }

    /// The image of x (x must be in [0, 2^bits)).
    std::uint64_t operator()(std::uint64_t x) const {
        for (int r = 0; r < rounds; ++r) {
            x ^= xor_[r];
            x = (x * mul_[r]) & mask_;  // low bits of a product depend only on low bits
            x ^= x >> shift_;           // shift >= 1, so this is invertible on `bits` bits
        }
        return x;
    }

private:
    std::uint64_t mask_ = 0;
    int shift_ = 1;
    std::uint64_t xor_[rounds] = {};
    std::uint64_t mul_[rounds] = {};
};

}  // namespace gridblas::detail
