#pragma once
/// @file spmspv_update.hpp
/// @brief Push SpMSpV accumulated straight into a full output: for every entry (i, x) of a
/// sparse input and every stored A(i, j), w[j] = S::add(w[j], S::mul(A(i, j), x)), and the
/// outputs whose value changed are listed (ascending). This is the relaxation step of a
/// label-correcting search (delta-stepping SSSP, as GapBS's sssp.cc relaxes into its
/// distance array): the work is the frontier's edges, with no accumulator over the output
/// range to clear and no output vector to build.
///
/// With several threads (arithmetic values that have lock-free atomics, e.g. double), the
/// input's entries are dealt to threads dynamically and each product is combined into w[j]
/// by a compare-and-swap loop that stops as soon as the product changes nothing (for a min
/// semiring most do, after one load), as GapBS does; an output's first changer lists it
/// (atomic bit). With an idempotent add (min, max, or, and) the result does not depend on the
/// thread count or timing; with plus on floating point it may differ in the last bits between
/// runs. Other value types run on one thread, in input order.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/view.hpp"

namespace gridblas::kernels {

/// Reused buffers of spmspv_update(): the changed outputs as bits (all zero between calls)
/// and per-thread lists.
struct UpdateWorkspace {
    ParallelPolicy policy;                  ///< threading knobs
    std::vector<std::uint64_t> bits;        ///< outputs already listed in this call
    std::vector<std::vector<lindex_t>> by;  ///< changed outputs, per thread
    std::vector<std::size_t> pos;           ///< each input entry's outer position (or npos)
};

namespace detail {

/// The changed outputs as an ascending list: sorts the list the threads recorded, or scans
/// the bits of words [lo_word, hi_word) when that is cheaper; clears the bits either way.
inline void order_changed(std::vector<lindex_t>& list, std::uint64_t* bits, std::size_t lo_word,
                          std::size_t hi_word) {
    const std::size_t words = hi_word - lo_word;
    if (words < list.size() * std::size_t(std::bit_width(list.size()) + 1)) {
        std::size_t o = 0;
        for (std::size_t w = lo_word; w < hi_word; ++w) {
            std::uint64_t b = bits[w];
            bits[w] = 0;
            while (b) {
                list[o++] = lindex_t(w * 64 + std::size_t(std::countr_zero(b)));
                b &= b - 1;
            }
        }
        return;
    }
    std::sort(list.begin(), list.end());
    for (lindex_t j : list) bits[j >> 6] = 0;
}

/// Whether products of type Y are combined into w by atomic compare-and-swap.
template <class Y>
constexpr bool atomic_update() {
    if constexpr (std::is_arithmetic_v<Y>) {
        return std::atomic_ref<Y>::is_always_lock_free;
    } else {
        return false;
    }
}

}  // namespace detail

/// w[j] = S::add(w[j], S::mul(A(i, j), x)) for every input entry (in_ids[k] = i, in_vals[k] =
/// x) and every stored entry of outer index i of `a` (outer = input index); `changed` gets the
/// ascending outputs j whose value changed (compared with Y's operator==).
/// @param a the block with the input as outer index (a Dcsc view should carry a lookup)
/// @param in_ids ascending input indices below a.n_outer
/// @param in_vals their values, aligned with in_ids
/// @param w the output; entries of `a` with inner index >= w.size() are skipped (a block's
///        padding beyond a short last piece holds none)
/// @returns the matrix entries of the input's outer indices
/// @throws DimensionMismatch when in_ids and in_vals differ in length
template <class S, class A, class X, class Y>
std::uint64_t spmspv_update(const CompressedView<A>& a, std::span<const lindex_t> in_ids,
                            std::span<const X> in_vals, std::span<Y> w,
                            std::vector<lindex_t>& changed, UpdateWorkspace& ws) {
    if (in_ids.size() != in_vals.size()) {
        throw DimensionMismatch("spmspv_update: " + std::to_string(in_ids.size()) + " ids but " +
                                std::to_string(in_vals.size()) + " values");
    }
    changed.clear();
    // Each entry's column, found once (a lookup in a doubly compressed block costs a cache
    // miss or two, so a long input spreads them over the threads), and the work they hold.
    std::uint64_t flops = 0;
    ws.pos.resize(in_ids.size());
    const int find_threads =
        detail::atomic_update<Y>() ? detail::threads_for(ws.policy, in_ids.size() * 16) : 1;
#pragma omp parallel for num_threads(find_threads) reduction(+ : flops) if (find_threads > 1)
    for (std::size_t e = 0; e < in_ids.size(); ++e) {
        const std::size_t k = a.find_outer(in_ids[e]);
        ws.pos[e] = k;
        if (k != npos) flops += std::uint64_t(a.ptr[k + 1] - a.ptr[k]);
    }
    const std::size_t n = std::min<std::size_t>(a.n_inner, w.size());
    const std::size_t nwords = (n + 63) / 64;
    if (ws.bits.size() < nwords) ws.bits.assign(nwords, 0);
    constexpr bool atomic = detail::atomic_update<Y>();
    const int threads = atomic ? detail::threads_for(ws.policy, flops) : 1;
    if (ws.by.size() < std::size_t(threads)) ws.by.resize(std::size_t(threads));
    const detail::ValueReader<A> av(a.vals);
    std::uint64_t* bits = ws.bits.data();
    const std::size_t* pos = ws.pos.data();
    const offset_t* ptr = a.ptr;
    const lindex_t* inner = a.inner;
    const Y* wv = w.data();
    // Applies the products of input entry e; `apply(j, v)` returns whether w[j] changed. The
    // entries' columns sit at random places and so do their outputs: the column a few
    // entries ahead and the outputs a few products ahead are prefetched.
    constexpr std::size_t entries_ahead = 4;
    constexpr offset_t products_ahead = 8;
    const auto push_entry = [&](std::size_t e, std::vector<lindex_t>& list, auto&& apply) {
        if (e + entries_ahead < in_ids.size()) {
            const std::size_t ka = pos[e + entries_ahead];
            if (ka != npos) {
                __builtin_prefetch(inner + ptr[ka]);
                if constexpr (!std::is_same_v<A, Pattern>) {
                    __builtin_prefetch(a.vals->data() + ptr[ka]);
                }
            }
        }
        const std::size_t k = pos[e];
        if (k == npos) return;
        const X x = in_vals[e];
        const offset_t end = ptr[k + 1];
        for (offset_t p = ptr[k]; p < end; ++p) {
            if (p + products_ahead < end) {
                const lindex_t ja = inner[p + products_ahead];
                if (ja < n) __builtin_prefetch(wv + ja);
            }
            const lindex_t j = inner[p];
            if (j >= n || !apply(j, S::mul(av(p), x))) continue;
            const std::uint64_t m = std::uint64_t(1) << (j & 63);
            if (threads == 1) {
                if (bits[j >> 6] & m) continue;
                bits[j >> 6] |= m;
            } else {
                // A vertex improved again is listed already: a load spares the locked update.
                std::atomic_ref<std::uint64_t> word(bits[j >> 6]);
                if ((word.load(std::memory_order_relaxed) & m) || (word.fetch_or(m) & m)) continue;
            }
            list.push_back(j);
        }
    };
    if (threads == 1) {
        std::vector<lindex_t>& list = ws.by[0];
        list.clear();
        for (std::size_t e = 0; e < in_ids.size(); ++e) {
            push_entry(e, list, [&](lindex_t j, const Y& v) {
                const Y now = S::add(w[j], v);
                if (now == w[j]) return false;
                w[j] = now;
                return true;
            });
        }
    } else if constexpr (atomic) {
#pragma omp parallel num_threads(threads)
        {
            // The list is moved into a local for the loop: the threads' vectors sit next to
            // each other in ws.by, and growing them in place would share a cache line.
            std::vector<lindex_t>& mine = ws.by[std::size_t(detail::thread_id())];
            std::vector<lindex_t> list;
            list.swap(mine);
            list.clear();
#pragma omp for schedule(dynamic, 64) nowait
            for (std::size_t e = 0; e < in_ids.size(); ++e) {
                push_entry(e, list, [&](lindex_t j, const Y& v) {
                    std::atomic_ref<Y> ref(w[j]);
                    Y old = ref.load(std::memory_order_relaxed);
                    for (;;) {
                        const Y now = S::add(old, v);
                        if (now == old) return false;
                        if (ref.compare_exchange_weak(old, now, std::memory_order_relaxed)) {
                            return true;
                        }
                    }
                });
            }
            mine.swap(list);
        }
    }
    for (int t = 0; t < threads; ++t) {
        const auto& l = ws.by[std::size_t(t)];
        changed.insert(changed.end(), l.begin(), l.end());
    }
    detail::order_changed(changed, bits, 0, nwords);
    return flops;
}

}  // namespace gridblas::kernels
