#pragma once
/// @file relabel.hpp
/// @brief A random bijection of the vertex ids [0, n), keyed by a seed, with its inverse:
/// the relabelling that spreads a skewed graph's heavy vertices evenly over the grid
/// (CombBLAS applies a random permutation for the same reason). It is computed, not stored:
/// a 4-round Feistel network over the smallest even number of bits covering n, with cycle
/// walking to stay inside [0, n), so it costs O(1) memory on every rank.

#include <cstdint>
#include <string>

#include "gridblas/core/error.hpp"
#include "gridblas/core/types.hpp"

namespace gridblas {

/// The bijection v -> forward(v) of [0, n) and its inverse.
class VertexRelabel {
public:
    VertexRelabel() = default;
    VertexRelabel(gindex_t n, std::uint64_t seed) : n_(n), seed_(seed) {
        if (n < 0) throw InvalidValue("VertexRelabel: negative size " + std::to_string(n));
        while ((std::uint64_t(1) << (2 * half_)) < std::uint64_t(n)) ++half_;
        mask_ = (std::uint64_t(1) << half_) - 1;
    }

    gindex_t size() const { return n_; }
    std::uint64_t seed() const { return seed_; }

    /// The new id of v (v in [0, n)).
    gindex_t forward(gindex_t v) const {
        std::uint64_t x = std::uint64_t(v);
        do {
            x = encrypt(x);
        } while (x >= std::uint64_t(n_));
        return gindex_t(x);
    }
    /// The original id of new id w.
    gindex_t inverse(gindex_t w) const {
        std::uint64_t x = std::uint64_t(w);
        do {
            x = decrypt(x);
        } while (x >= std::uint64_t(n_));
        return gindex_t(x);
    }

private:
    std::uint64_t round_fn(std::uint64_t r, int k) const {
        std::uint64_t z =
            r + seed_ * 0x9e3779b97f4a7c15ULL + std::uint64_t(k) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return (z ^ (z >> 31)) & mask_;
    }
    std::uint64_t encrypt(std::uint64_t x) const {
        std::uint64_t l = x >> half_, r = x & mask_;
        for (int k = 0; k < 4; ++k) {
            const std::uint64_t t = l ^ round_fn(r, k);
            l = r;
            r = t;
        }
        return (l << half_) | r;
    }
    std::uint64_t decrypt(std::uint64_t x) const {
        std::uint64_t l = x >> half_, r = x & mask_;
        for (int k = 3; k >= 0; --k) {
            const std::uint64_t t = r ^ round_fn(l, k);
            r = l;
            l = t;
        }
        return (l << half_) | r;
    }

    gindex_t n_ = 0;
    std::uint64_t seed_ = 0;
    int half_ = 0;
    std::uint64_t mask_ = 0;
};

}  // namespace gridblas
