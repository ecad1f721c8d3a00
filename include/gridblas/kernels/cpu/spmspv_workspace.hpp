#pragma once
/// @file spmspv_workspace.hpp
/// @brief The reusable scratch state of the SpMSpV kernels (spmspv.hpp) and the first step
/// they share: locating the matrix columns that the input vector's entries select.
///
/// Every array grows to the largest size a call needed and then stays, so a BFS that keeps
/// one workspace per local block allocates nothing after its first levels. The sparse
/// accumulator's flag bitmap is all zero between calls; kernels clear exactly what they set.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/radix_sort.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/vector/bitmap_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas::kernels {

/// Scratch memory of spmspv_spa() / spmspv_sort() / spmspv() for output type Y. Construct
/// it sized for a block (or let the first call size it) and pass the same object to every
/// call on that block; one workspace may serve several blocks in turn.
template <class Y>
class SpmspvWorkspace {
public:
    SpmspvWorkspace() = default;
    /// Sizes the workspace for a block with `n_outer` input and `n_inner` output indices
    /// (the SPA arrays are allocated here, the product buffers on first use).
    SpmspvWorkspace(lindex_t n_outer, lindex_t n_inner) {
        reserve_plan(n_outer);
        reserve_spa(n_inner);
    }

    /// Threading knobs used by the kernels.
    ParallelPolicy policy;
    /// On one thread the SPA method scatters straight into the accumulator while its
    /// values take at most this many bytes (about what stays in L2/L3 on the reference
    /// machine); beyond that it first buckets the products by row range, as with several
    /// threads, so that each bucket's slice of the SPA stays in cache.
    std::size_t spa_direct_max_bytes = std::size_t(4) << 20;

    /// Bytes currently held.
    std::size_t memory_bytes() const {
        return spa_val.capacity() * sizeof(Y) + spa_bits.capacity() * 8 +
               touched.capacity() * sizeof(lindex_t) +
               (xbegin.capacity() + xwork.capacity()) * sizeof(offset_t) +
               (buf_a.capacity() + buf_b.capacity()) * sizeof(detail::KeyValue<Y>) +
               (bucket_off.capacity() + bucket_fill.capacity() + bucket_end.capacity() +
                hist.capacity() + acc.capacity()) *
                   sizeof(std::size_t);
    }

    // ---- kernel-internal state (public so the kernel templates can reach it) ----

    void reserve_plan(std::size_t nvals) {
        if (xbegin.size() < nvals) xbegin.resize(nvals);
        if (xwork.size() < nvals + 1) xwork.resize(nvals + 1);
    }
    void reserve_spa(lindex_t n_inner) {
        // One slot more than the block has rows: masked-out products land there.
        const std::size_t n = std::size_t(n_inner) + 1;
        if (spa_val.size() < n) spa_val.resize(n);
        if (spa_bits.size() < bitmap_words(n)) spa_bits.resize(bitmap_words(n), 0);
        // Bucket b of the parallel SPA lists its rows from index lo + b, with a spare.
        const std::size_t t = n + std::size_t(n_inner) / 64 + 2;
        if (touched.size() < t) touched.resize(t);
    }
    void reserve_products(std::size_t n) {
        if (buf_a.size() < n) buf_a.resize(n);
        if (buf_b.size() < n) buf_b.resize(n);
    }
    void reserve_threads(int threads, std::size_t buckets) {
        const std::size_t need = std::size_t(threads) * buckets + 1;
        if (bucket_off.size() < need) bucket_off.resize(need);
        if (bucket_fill.size() < need) bucket_fill.resize(need);
        if (bucket_end.size() < need) bucket_end.resize(need);
        if (acc.size() < std::max<std::size_t>(need, std::size_t(threads) + 1)) {
            acc.resize(std::max<std::size_t>(need, std::size_t(threads) + 1));
        }
    }

    std::vector<Y> spa_val;               ///< SPA values, valid where spa_bits is set (+1 spare)
    std::vector<std::uint64_t> spa_bits;  ///< SPA occupancy; all zero between calls
    std::vector<lindex_t> touched;        ///< SPA indices set by this call
    std::vector<offset_t> xbegin;         ///< first entry of the column of x's k-th entry
    std::vector<offset_t> xwork;          ///< prefix sums of those columns' lengths
    std::vector<detail::KeyValue<Y>> buf_a, buf_b;  ///< product buffers
    std::vector<std::size_t> bucket_off;            ///< (bucket, thread) offsets into buf_a
    std::vector<std::size_t> bucket_fill;           ///< products counted per (part, bucket)
    std::vector<std::size_t> bucket_end;  ///< write cursors, then ends, per (part, bucket)
    std::vector<std::size_t> hist;        ///< radix histograms
    std::vector<std::size_t> acc;         ///< per-thread or per-bucket counts
};

namespace detail {

/// Checks the operands of a push kernel and prepares y (length n_inner; entries dropped).
template <class A, class X, class Y>
void check_push(const CompressedView<A>& a, const SparseVector<X>& x, const SparseVector<Y>& y,
                const char* who) {
    if (x.size() != a.n_outer) {
        throw DimensionMismatch(std::string(who) + ": x has size " + std::to_string(x.size()) +
                                " but the matrix view has " + std::to_string(a.n_outer) +
                                " outer (input) indices");
    }
    if (static_cast<const void*>(&x) == static_cast<const void*>(&y)) {
        throw InvalidValue(std::string(who) + ": y must not be the same object as x");
    }
}

/// The plan of inputs [lo, hi): first[k] = the first entry of input ids[k]'s column and
/// start[k + 1] = the entries of inputs lo..k (counted from this part's start); returns the
/// part's entries. The column pointers are a cache miss each, at random places (a frontier
/// after a bottom-up level is thousands of short columns, each level of a mesh hundreds), so
/// they are prefetched a few inputs ahead: read at once where the view has every column's
/// range in one array, else after all the part's lookups are made.
template <class A>
offset_t plan_part(const CompressedView<A>& a, const lindex_t* ids, std::size_t lo, std::size_t hi,
                   offset_t* first, offset_t* start) {
    constexpr std::size_t ahead = 16;
    offset_t sum = 0;
    if (a.ranges != nullptr || a.outer_ids == nullptr) {
        for (std::size_t k = lo; k < hi; ++k) {
            if (k + ahead < hi) a.prefetch_outer(ids[k + ahead]);
            const auto [b, e] = a.outer_range(ids[k]);
            first[k] = b;
            sum += e - b;
            start[k + 1] = sum;
        }
        return sum;
    }
    // Positions first (kept in `first` until the pointers are read), then pointers.
    for (std::size_t k = lo; k < hi; ++k) first[k] = offset_t(a.find_outer(ids[k]));
    for (std::size_t k = lo; k < hi; ++k) {
        if (k + ahead < hi && first[k + ahead] != offset_t(npos)) {
            __builtin_prefetch(a.ptr + first[k + ahead]);
        }
        const offset_t pos = first[k];
        const bool stored = pos != offset_t(npos);
        first[k] = stored ? a.ptr[pos] : 0;
        sum += stored ? a.ptr[pos + 1] - a.ptr[pos] : 0;
        start[k + 1] = sum;
    }
    return sum;
}

/// plan_inputs() for the calling thread's equal share of the inputs, inside a team (part_sums:
/// room for the team's size): plans the share, then offsets its `start` entries by the shares
/// before it. Returns the call's products, the share [lo, hi) and the products of the shares
/// before it (`before_out`: what start[lo] will hold). The share's entries are final on
/// return; a barrier must come before another thread reads them (start[lo] is the share
/// before's, which that thread may still be offsetting).
template <class A, class Sum>
offset_t plan_share(const CompressedView<A>& a, const lindex_t* ids, std::size_t count,
                    offset_t* first, offset_t* start, Sum* part_sums, std::size_t* lo_out = nullptr,
                    std::size_t* hi_out = nullptr, offset_t* before_out = nullptr) {
    const int team = team_size();
    const int me = thread_id();
    const std::size_t lo = part_begin(count, me, team);
    const std::size_t hi = part_begin(count, me + 1, team);
    part_sums[me] = Sum(plan_part(a, ids, lo, hi, first, start));
#pragma omp barrier
    offset_t before = 0;
    offset_t total = 0;
    for (int t = 0; t < team; ++t) {
        if (t == me) before = total;
        total += offset_t(part_sums[t]);
    }
    if (before != 0) {
        for (std::size_t k = lo; k < hi; ++k) start[k + 1] += before;
    }
    if (lo_out != nullptr) *lo_out = lo;
    if (hi_out != nullptr) *hi_out = hi;
    if (before_out != nullptr) *before_out = before;
    return total;
}

/// For each of `count` inputs (outer ids), finds its column: first[k] = its first entry,
/// start[k + 1] = the entries of inputs 0..k (start[0] = 0). Returns the total (the flop
/// count). On several threads each takes an equal part of the inputs and then offsets its
/// counts by the parts before it (`part_sums`: room for `threads` values).
template <class A, class Sum>
offset_t plan_inputs(const CompressedView<A>& a, const lindex_t* ids, std::size_t count,
                     offset_t* first, offset_t* start, Sum* part_sums, int threads) {
    start[0] = 0;
    if (threads <= 1) return plan_part(a, ids, 0, count, first, start);
    run_team(threads, [&] { plan_share(a, ids, count, first, start, part_sums); });
    return start[count];
}

/// plan_inputs() for the entries of x, into ws.xbegin and ws.xwork, on `threads` threads
/// when x has 4096 entries or more.
template <class A, class X, class Y>
offset_t plan_columns(const CompressedView<A>& a, const SparseVector<X>& x, SpmspvWorkspace<Y>& ws,
                      int threads) {
    const std::size_t nv = x.nvals();
    ws.reserve_plan(nv);
    ws.reserve_threads(threads, 1);
    return plan_inputs(a, x.indices().data(), nv, ws.xbegin.data(), ws.xwork.data(), ws.acc.data(),
                       nv >= 4096 ? threads : 1);
}

/// Calls emit(i, S::mul(A(i,j), x(j)), allow(i)) for the products with flop numbers in
/// [f0, f1), in flop order (x's order, then column order). The mask verdict is passed on
/// rather than branched on: with a BFS mask it is a coin flip, and the callers turn it into
/// branch-free stores (a mispredicted branch costs more than the product of a built-in
/// semiring).
template <class S, class A, class X, class Y, class Allow, class Emit>
void for_products(const CompressedView<A>& a, const SparseVector<X>& x,
                  const SpmspvWorkspace<Y>& ws, offset_t f0, offset_t f1, Allow allow,
                  Emit&& emit) {
    if (f0 >= f1) return;
    const std::size_t nv = x.nvals();
    const offset_t* xw = ws.xwork.data();
    const offset_t* xb = ws.xbegin.data();
    std::size_t e = std::size_t(std::upper_bound(xw, xw + nv + 1, f0) - xw) - 1;
    const ValueReader<A> av(a.vals);
    const ValueReader<X> xv(&x.values());
    const lindex_t* inner = a.inner;
    offset_t f = f0;
    while (f < f1) {
        const offset_t w0 = xw[e];
        const offset_t w1 = std::min(xw[e + 1], f1);
        if (w1 > f) {
            const auto xj = xv(e);
            const offset_t base = xb[e] - w0;
            for (offset_t p = base + f; p < base + w1; ++p) {
                const lindex_t i = inner[p];
                emit(i, Y(S::mul(av(p), xj)), bool(allow(i)));
            }
        }
        f = w1;
        ++e;
    }
}

}  // namespace detail
}  // namespace gridblas::kernels
