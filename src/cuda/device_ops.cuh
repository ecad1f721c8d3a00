#pragma once
// Device-side helpers shared by the .cu files of the CUDA backend: grid-stride indexing,
// bitmap bit tests and sets, and reading matrix values that may be Pattern. nvcc only.

#include <cstdint>
#include <type_traits>

#include "gridblas/core/types.hpp"
#include "gridblas/cuda/device_base.hpp"

namespace gridblas::cuda::detail {

/// Global index of the calling thread and the grid's thread count (64-bit: edge loops run
/// past 2^32).
__device__ __forceinline__ std::uint64_t thread_index() {
    return std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::uint64_t thread_count() {
    return std::uint64_t(gridDim.x) * blockDim.x;
}

__device__ __forceinline__ bool test_bit(const std::uint64_t* words, lindex_t i) {
    return (words[i >> 6] >> (i & 63)) & 1u;
}

/// Sets bit i with atomicOr, after a plain read that skips the atomic when the bit is
/// already set (the read-before-atomicOr of Bisson et al. 2016; a stale read only costs an atomic).
__device__ __forceinline__ void set_bit(std::uint64_t* words, lindex_t i) {
    unsigned long long* w = reinterpret_cast<unsigned long long*>(words) + (i >> 6);
    const unsigned long long m = 1ull << (i & 63);
    if (!(*w & m)) atomicOr(w, m);
}

/// May output index i be written under mask m? (Same truth table as the CPU MaskView.)
__device__ __forceinline__ bool mask_allows(const DeviceMask& m, lindex_t i) {
    return m.bits ? (test_bit(m.bits, i) != m.complement) : !m.complement;
}

/// Entry p of a value array, or Pattern{} for pattern-only storage (no array).
template <class A>
__device__ __forceinline__ A load_value(const A* vals, std::uint64_t p) {
    if constexpr (std::is_same_v<A, Pattern>) {
        return Pattern{};
    } else {
        return vals[p];
    }
}

/// Appends `item` to a device queue whose length lives in the 64-bit counter `*count` (the
/// order of concurrent appends is unspecified).
__device__ __forceinline__ void queue_push(std::uint64_t* count, lindex_t* queue, lindex_t item) {
    const unsigned long long slot = atomicAdd(reinterpret_cast<unsigned long long*>(count), 1ull);
    queue[slot] = item;
}

/// Adds v to a 64-bit device counter with one atomic per warp (v may differ per lane; all
/// lanes of the warp must call it).
__device__ __forceinline__ void warp_add_counter(std::uint64_t* counter, unsigned long long v) {
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0 && v != 0) {
        atomicAdd(reinterpret_cast<unsigned long long*>(counter), v);
    }
}

/// The first position q in [b, e) whose entry inner[q] satisfies `hit`, or e when none does,
/// found by the calling warp: lane l reads b+l, b+l+32, ... (coalesced), and the first round
/// with a hit ends the scan at its lowest hitting lane. Every lane of the warp must call it
/// with the same b and e, and gets the same answer.
template <class Hit>
__device__ __forceinline__ offset_t warp_first_hit(const lindex_t* inner, offset_t b, offset_t e,
                                                   Hit hit) {
    const unsigned lane = threadIdx.x & 31;
    for (offset_t base = b; base < e; base += 32) {
        const offset_t q = base + lane;
        const unsigned hits = __ballot_sync(0xffffffffu, q < e && hit(inner[q]));
        if (hits != 0) return base + offset_t(__ffs(int(hits)) - 1);
    }
    return e;
}

}  // namespace gridblas::cuda::detail
