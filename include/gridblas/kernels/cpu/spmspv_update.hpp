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
/// input's products are split evenly over the threads (a long column may be shared by two),
/// and each thread lists the outputs it changed in its own bits. How a product is combined
/// into w[j] depends on the add:
///  - a semilattice join (min, max, or: semiring_add_is_idempotent) is stored with a plain
///    (relaxed atomic) load and store, skipped when it changes nothing (for a min semiring
///    most products do, after one load). Two threads storing into one output at once may
///    overwrite the smaller value with the larger, so each thread also records its stores,
///    and after the push adds each one back (compare-and-swap) where the output no longer
///    holds it: the result is the join of all the products, as if applied in any order.
///    A locked read-modify-write on every change would cost more: its cache line is shared
///    with the other cores that read the same outputs, and the lock waits for it.
///  - any other add goes through a compare-and-swap loop (plus on floating point may then
///    differ in the last bits between runs).
/// Other value types run on one thread, in input order.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/semirings/semiring.hpp"

namespace gridblas::kernels {

/// Reused buffers of spmspv_update(): the changed outputs as bits (all zero between calls)
/// and per-thread lists.
struct UpdateWorkspace {
    ParallelPolicy policy;                        ///< threading knobs
    std::vector<std::uint64_t> bits;              ///< outputs already listed in this call
    std::vector<std::vector<std::uint64_t>> own;  ///< each thread's listed outputs (zero)
    std::vector<std::vector<lindex_t>> by;        ///< changed outputs, per thread
    /// Each thread's stores of one call: (output, value's bytes), for the repair pass.
    std::vector<std::vector<std::pair<lindex_t, std::uint64_t>>> stores;
    std::vector<offset_t> first;      ///< each input entry's first matrix entry
    std::vector<std::uint64_t> ends;  ///< products of the input's first e entries
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

/// The bytes of an arithmetic value of at most 8 bytes, and back.
template <class Y>
std::uint64_t to_bytes(Y v) {
    static_assert(sizeof(Y) <= sizeof(std::uint64_t));
    std::uint64_t r = 0;
    std::memcpy(&r, &v, sizeof(Y));
    return r;
}
template <class Y>
Y from_bytes(std::uint64_t r) {
    Y v;
    std::memcpy(&v, &r, sizeof(Y));
    return v;
}

/// Whether products of type Y are combined into w by atomic operations.
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
    constexpr bool atomic = detail::atomic_update<Y>();
    // Each entry's column, found once (a lookup in a doubly compressed block costs a cache
    // miss or two, so a long input spreads them over the threads): where its entries start,
    // and the work they hold, summed into ends[e + 1] = the products of entries 0..e. The
    // push then reads these two arrays in order, not the column pointers at random.
    const std::size_t count = in_ids.size();
    ws.first.resize(count);
    ws.ends.resize(count + 1);
    offset_t* first = ws.first.data();
    std::uint64_t* ends = ws.ends.data();
    ends[0] = 0;
    const int find_threads = atomic ? detail::threads_for(ws.policy, count * 16) : 1;
    detail::run_team(find_threads, [&] {
#pragma omp for
        for (std::size_t e = 0; e < count; ++e) {
            const auto [lo, hi] = a.outer_range(in_ids[e]);
            first[e] = lo;
            ends[e + 1] = std::uint64_t(hi - lo);
        }
    });
    for (std::size_t e = 0; e < count; ++e) ends[e + 1] += ends[e];
    const std::uint64_t flops = ends[count];
    const std::size_t n = std::min<std::size_t>(a.n_inner, w.size());
    const std::size_t nwords = (n + 63) / 64;
    if (ws.bits.size() < nwords) ws.bits.assign(nwords, 0);
    const int threads = atomic ? detail::threads_for(ws.policy, flops) : 1;
    if (ws.by.size() < std::size_t(threads)) ws.by.resize(std::size_t(threads));
    if (ws.own.size() < std::size_t(threads)) ws.own.resize(std::size_t(threads));
    const detail::ValueReader<A> av(a.vals);
    std::uint64_t* bits = ws.bits.data();
    const lindex_t* inner = a.inner;
    const Y* wv = w.data();
    // Applies the products of input entry e's matrix entries [from, to) (offsets into its
    // column); `apply(j, v)` returns whether w[j] changed, and a changed output not yet in
    // `listed` joins it and `list`. The entries' columns sit at random places and so do
    // their outputs: the column a few entries ahead and the outputs a few products ahead are
    // prefetched.
    constexpr std::size_t entries_ahead = 4;
    constexpr offset_t products_ahead = 8;
    const auto push = [&](std::size_t e, std::uint64_t from, std::uint64_t to,
                          std::vector<lindex_t>& list, std::uint64_t* listed, auto&& apply) {
        // Locals, not the captured references, so that the stores of `apply` and `list`
        // do not make the compiler reload them for every product.
        const lindex_t* const cinner = inner;
        const Y* const cw = wv;
        const std::size_t cn = n;
        const detail::ValueReader<A> cval = av;
        if (e + entries_ahead < count && ends[e + entries_ahead + 1] > ends[e + entries_ahead]) {
            const offset_t fa = first[e + entries_ahead];
            __builtin_prefetch(cinner + fa);
            if constexpr (!std::is_same_v<A, Pattern>) __builtin_prefetch(cval.p + fa);
        }
        if (to == from) return;
        const X x = in_vals[e];
        const offset_t end = first[e] + offset_t(to);
        const auto product = [&](offset_t p) {
            const lindex_t j = cinner[p];
            if (j >= cn || !apply(j, S::mul(cval(p), x))) return;
            const std::uint64_t m = std::uint64_t(1) << (j & 63);
            if (listed[j >> 6] & m) return;
            listed[j >> 6] |= m;
            list.push_back(j);
        };
        offset_t p = first[e] + offset_t(from);
        for (; p + products_ahead < end; ++p) {
            const lindex_t ja = cinner[p + products_ahead];
            if (ja < cn) __builtin_prefetch(cw + ja);
            product(p);
        }
        for (; p < end; ++p) product(p);
    };
    Y* const wd = w.data();
    if (threads == 1) {
        for (std::size_t e = 0; e < count; ++e) {
            push(e, 0, ends[e + 1] - ends[e], changed, bits, [wd](lindex_t j, const Y& v) {
                const Y now = S::add(wd[j], v);
                if (now == wd[j]) return false;
                wd[j] = now;
                return true;
            });
        }
    } else if constexpr (atomic) {
        // The products are split evenly over the threads (a column may be split between
        // two), so one long column does not leave a thread to finish it alone. Each thread
        // lists its changed outputs in its own bits (shared ones would bounce between the
        // cores on every change); an output two threads changed is listed by both and
        // merged below.
        constexpr bool join = semiring_add_is_idempotent<S>();
        if (ws.stores.size() < std::size_t(threads)) ws.stores.resize(std::size_t(threads));
#pragma omp parallel num_threads(threads)
        {
            const int t = detail::thread_id();
            const std::uint64_t parts = std::uint64_t(detail::team_size());
            const std::uint64_t lo = flops * std::uint64_t(t) / parts;
            const std::uint64_t hi = flops * std::uint64_t(t + 1) / parts;
            std::vector<std::uint64_t>& own = ws.own[std::size_t(t)];
            if (own.size() < nwords) own.assign(nwords, 0);
            // The lists are moved into locals for the loop: the threads' vectors sit next to
            // each other in the workspace, and growing them in place would share a cache
            // line.
            std::vector<lindex_t> list;
            list.swap(ws.by[std::size_t(t)]);
            list.clear();
            std::vector<std::pair<lindex_t, std::uint64_t>> stored;  // join only
            stored.swap(ws.stores[std::size_t(t)]);
            stored.clear();
            std::size_t e =
                std::size_t(std::upper_bound(ends + 1, ends + count + 1, lo) - (ends + 1));
            for (; e < count && ends[e] < hi; ++e) {
                const std::uint64_t from = std::max(lo, ends[e]) - ends[e];
                const std::uint64_t to = std::min(hi, ends[e + 1]) - ends[e];
                push(e, from, to, list, own.data(), [&](lindex_t j, const Y& v) {
                    std::atomic_ref<Y> ref(wd[j]);
                    Y old = ref.load(std::memory_order_relaxed);
                    if constexpr (join) {
                        const Y now = S::add(old, v);
                        if (now == old) return false;
                        ref.store(now, std::memory_order_relaxed);
                        stored.emplace_back(j, detail::to_bytes(now));
                        return true;
                    } else {
                        for (;;) {
                            const Y now = S::add(old, v);
                            if (now == old) return false;
                            if (ref.compare_exchange_weak(old, now, std::memory_order_relaxed)) {
                                return true;
                            }
                        }
                    }
                });
            }
            for (const lindex_t j : list) own[j >> 6] = 0;
            if constexpr (join) {
                // Every thread's stores are done: add back the ones overwritten since.
#pragma omp barrier
                for (const auto& [j, bytes] : stored) {
                    const Y v = detail::from_bytes<Y>(bytes);
                    std::atomic_ref<Y> ref(w[j]);
                    Y old = ref.load(std::memory_order_relaxed);
                    for (;;) {
                        const Y now = S::add(old, v);
                        if (now == old) break;
                        if (ref.compare_exchange_weak(old, now, std::memory_order_relaxed)) break;
                    }
                }
            }
            ws.stores[std::size_t(t)].swap(stored);
            ws.by[std::size_t(t)].swap(list);
        }
        for (int t = 0; t < threads; ++t) {
            for (const lindex_t j : ws.by[std::size_t(t)]) {
                const std::uint64_t m = std::uint64_t(1) << (j & 63);
                if (bits[j >> 6] & m) continue;
                bits[j >> 6] |= m;
                changed.push_back(j);
            }
            ws.by[std::size_t(t)].clear();
        }
    }
    detail::order_changed(changed, bits, 0, nwords);
    return flops;
}

}  // namespace gridblas::kernels
