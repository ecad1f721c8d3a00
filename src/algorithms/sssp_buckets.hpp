#pragma once
// The pending buckets of one rank in the delta-stepping search of sssp.cpp: lists of local
// vertices keyed by bucket number (an integer held in a double, floor(distance / delta)).
//
// Every bucket a round can fill lies within max weight / delta + 2 of the bucket being
// processed (a relaxation adds at most the largest weight to a distance of that bucket), so
// the pending buckets from the lowest one up to that reach live in a ring of lists indexed
// by bucket number, as in Meyer & Sanders' cyclic bucket array: filing a vertex is an index
// computation, with no search. Buckets beyond the ring (only when delta is tiny against the
// weights, so that the reach would make the ring too large) wait in an ordered map and
// move into the ring when the base comes within reach of them.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "gridblas/core/types.hpp"

namespace gridblas::detail {

/// Buckets of local vertex ids keyed by bucket number, lowest first.
class SsspBuckets {
public:
    /// @param reach the largest distance, in buckets, between the bucket being processed and
    ///        one a relaxation files into (max weight / delta + 2); the ring holds the next
    ///        power of two at or above it, at most 2^16 lists
    explicit SsspBuckets(double reach) {
        std::size_t want = 1;
        if (reach >= double(kMaxRing)) {
            want = kMaxRing;
        } else if (reach >= 1.0) {
            want = std::size_t(reach) + 1;
        }
        ring_.resize(std::bit_ceil(want));
        mask_ = ring_.size() - 1;
    }

    /// Files local vertex k in bucket b (b >= base()).
    void push(double b, lindex_t k) {
        const double ahead = b - base_;
        if (ahead < double(ring_.size())) {
            ring_[(head_ + std::size_t(ahead)) & mask_].push_back(k);
            ++in_ring_;
        } else {
            far_[b].push_back(k);
        }
    }

    /// The lowest bucket holding a vertex with live(k, bucket) true, or +infinity when none
    /// does; the entries that fail the test are dropped from every bucket passed on the way.
    template <class Live>
    double lowest(const Live& live) {
        const auto prune = [&](std::vector<lindex_t>& list, double b) {
            std::size_t kept = 0;
            for (std::size_t e = 0; e < list.size(); ++e) {
                if (live(list, e, b)) list[kept++] = list[e];
            }
            const std::size_t dropped = list.size() - kept;
            list.resize(kept);
            return dropped;
        };
        for (std::size_t i = 0; i < ring_.size() && in_ring_ > 0; ++i) {
            std::vector<lindex_t>& list = ring_[(head_ + i) & mask_];
            if (list.empty()) continue;
            in_ring_ -= prune(list, base_ + double(i));
            if (!list.empty()) return base_ + double(i);
        }
        while (!far_.empty()) {
            auto it = far_.begin();
            prune(it->second, it->first);
            if (!it->second.empty()) return it->first;
            far_.erase(it);
        }
        return std::numeric_limits<double>::infinity();
    }

    /// Moves the base up to bucket b: every bucket below b must be empty (lowest() found
    /// none, on this rank and the others). Buckets of the map that come into reach move
    /// into the ring.
    void advance(double b) {
        const double steps = b - base_;
        if (steps <= 0.0) return;
        head_ = steps < double(ring_.size()) ? (head_ + std::size_t(steps)) & mask_ : 0;
        base_ = b;
        while (!far_.empty() && far_.begin()->first - base_ < double(ring_.size())) {
            auto it = far_.begin();
            std::vector<lindex_t>& slot = ring_[(head_ + std::size_t(it->first - base_)) & mask_];
            in_ring_ += it->second.size();
            if (slot.empty()) {
                slot.swap(it->second);
            } else {
                slot.insert(slot.end(), it->second.begin(), it->second.end());
            }
            far_.erase(it);
        }
    }

    /// Swaps bucket b (b >= base()) with `out`, which must be empty: `out` gets its vertices
    /// and the bucket is left empty.
    void take(double b, std::vector<lindex_t>& out) {
        const double ahead = b - base_;
        if (ahead < double(ring_.size())) {
            std::vector<lindex_t>& list = ring_[(head_ + std::size_t(ahead)) & mask_];
            in_ring_ -= list.size();
            out.swap(list);
            return;
        }
        auto it = far_.find(b);
        if (it == far_.end()) return;
        out.swap(it->second);
        far_.erase(it);
    }

    double base() const { return base_; }

private:
    static constexpr std::size_t kMaxRing = std::size_t(1) << 16;
    std::vector<std::vector<lindex_t>> ring_;  ///< bucket base_ + i at (head_ + i) & mask_
    std::size_t mask_ = 0;
    std::size_t head_ = 0;
    double base_ = 0.0;
    std::size_t in_ring_ = 0;  ///< entries held in the ring
    std::map<double, std::vector<lindex_t>> far_;
};

}  // namespace gridblas::detail
