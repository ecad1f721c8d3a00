#pragma once
// What the delta-stepping search of sssp.cpp keeps per vertex and relaxes with: a label that
// is either the tentative distance alone (distances only, or double weights) or, for float
// weights, the distance and the parent packed in one 64-bit word, so that the relaxation
// records the parent as it goes and no scan of the edges is needed afterwards.
//
// The packed label is (bits of the float distance) << 32 | (global id of the parent). The
// bits of non-negative floats (+0 up to +infinity) order as the floats do, so the unsigned
// minimum of two labels is the one with the smaller distance, and of two equal distances the
// one with the smaller parent id. Every reached vertex is expanded at its final distance at
// least once (a vertex is expanded whenever its distance drops), so the minimum over all the
// offers a vertex received is (its distance, the smallest-id in-neighbour u with
// d(u) + w(u, v) = d(v)): the parent vxm_witness would find, computed with the same float sum.

#include <bit>
#include <cstdint>
#include <limits>

#include "gridblas/core/types.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas::detail {

/// (min, +) over packed (float distance, parent id) labels: the product adds a float weight to
/// the distance half and keeps the parent half (the offering vertex's own id); the add is the
/// unsigned minimum, a semilattice join, so the parallel push stores it without atomic
/// read-modify-writes (spmspv_update.hpp).
struct min_plus_parent {
    using value_type = std::uint64_t;
    static constexpr bool add_idempotent = true;
    static constexpr std::uint64_t zero() { return ~std::uint64_t(0); }
    static constexpr std::uint64_t add(std::uint64_t a, std::uint64_t b) { return b < a ? b : a; }
    static std::uint64_t mul(float w, std::uint64_t x) {
        const float d = std::bit_cast<float>(std::uint32_t(x >> 32)) + w;
        return (std::uint64_t(std::bit_cast<std::uint32_t>(d)) << 32) | (x & 0xffffffffu);
    }
};

/// Labels that are the distance itself (parents, if wanted, found afterwards).
template <class W>
struct DistanceLabels {
    using Label = W;
    using Semiring = min_plus<W>;
    static constexpr Label unreached() { return std::numeric_limits<W>::infinity(); }
    static Label source(gindex_t) { return W(0); }
    static W distance(Label l) { return l; }
    /// What vertex g with label l offers its out-neighbours (before the weight is added).
    static Label offer(Label l, gindex_t) { return l; }
};

/// Labels that carry the parent: float distances, global ids below 2^32 - 1.
struct PathLabels {
    using Label = std::uint64_t;
    using Semiring = min_plus_parent;
    /// Never offered (an unreached vertex is never in a frontier); reads as +infinity.
    static constexpr Label unreached() { return std::uint64_t(0x7f800000u) << 32 | 0xffffffffu; }
    static Label source(gindex_t g) { return offer(0, g); }
    static float distance(Label l) { return std::bit_cast<float>(std::uint32_t(l >> 32)); }
    static gindex_t parent(Label l) { return gindex_t(l & 0xffffffffu); }
    static Label offer(Label l, gindex_t g) {
        return (l & ~std::uint64_t(0xffffffffu)) | std::uint64_t(std::uint32_t(g));
    }
    /// The largest vertex count whose ids fit the parent half.
    static constexpr gindex_t max_vertices = gindex_t(0xffffffff);
};

}  // namespace gridblas::detail
