#pragma once
/// @file spmspv.hpp
/// @brief Push-direction sparse matrix × sparse vector (SpMSpV) on one local block:
/// `y⟨mask⟩ = A ⊕.⊗ x` with `y(i) = ⊕_j S::mul(A(i,j), x(j))`, walking the columns that x
/// selects. This is the top-down BFS step and the local kernel of distributed vxm/mxv.
///
/// Two algorithms, after Azad & Buluç, "A work-efficient parallel sparse matrix-sparse vector
/// multiplication algorithm" (IPDPS 2017):
///  - SPA: a sparse accumulator (dense values + occupancy bitmap + touched list). With
///    several threads (or a SPA too large for the cache) the products are first bucketed by
///    output row range (a counting pass, then a scatter), and each bucket is reduced into
///    its own, cache-sized slice of the SPA by one thread, so no atomics are needed.
///  - sort: the products are gathered, radix-sorted by row and runs are reduced; memory and
///    time O(flops), independent of the block's row count.
/// Work is split among threads by flops (column lengths), not by x's entries, so one hub
/// column cannot stall a thread. Every method reduces the products of one output in x's
/// order, so results are bit-identical for any method and any thread count.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "gridblas/kernels/cpu/mask.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/radix_sort.hpp"
#include "gridblas/kernels/cpu/spmspv_workspace.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/semirings/semiring.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas::kernels {

/// The method spmspv() runs for `flops` products into `n_inner` outputs: the sort method
/// unless there are at least 4 products per output row, then SPA. Below that the SPA's
/// per-call costs (ordering the touched rows, clearing them) and its scattered updates do
/// not pay off against 2-3 streaming radix passes. In bench_local (Kronecker scales 14-18,
/// half the rows masked, 2 threads) sort wins or ties at about 3 products per row, and SPA
/// wins by 10-40% at 15-30.
inline SpmspvMethod spmspv_choose_method(std::uint64_t flops, lindex_t n_inner) {
    return flops < 4 * std::uint64_t(n_inner) ? SpmspvMethod::sort : SpmspvMethod::spa;
}

namespace detail {

/// Puts in list[0 .. cnt) the sorted indices of the set SPA bits in [lo, hi) (lo a
/// multiple of 64), either by scanning the bitmap words (cheap when the set is dense, and
/// then returns true) or by sorting the list the SPA recorded.
inline bool order_touched(lindex_t* list, std::size_t cnt, const std::uint64_t* bits,
                          std::size_t lo, std::size_t hi) {
    const std::size_t words = (hi - lo + 63) / 64;
    const bool scan = words < cnt * std::size_t(std::bit_width(cnt) + 1);
    if (!scan) {
        std::sort(list, list + cnt);
        return false;
    }
    std::size_t o = 0;
    for (std::size_t w = lo / 64; w < (hi + 63) / 64; ++w) {
        std::uint64_t b = bits[w];
        while (b) {
            list[o++] = lindex_t(w * 64 + std::size_t(std::countr_zero(b)));
            b &= b - 1;
        }
    }
    return true;
}

/// Adds product v into SPA slot i and returns the new count of list[]: i is recorded in
/// list[cnt] when the slot is new and `counted`. For small trivially copyable values this
/// is branch-free (whether a slot is new is unpredictable): list[cnt] is always written
/// (so the list needs one spare entry), the sum is always computed and a two-entry table
/// picks it or v.
template <class S, class Y>
inline std::size_t spa_add(Y* val, std::uint64_t* bits, lindex_t* list, std::size_t cnt, lindex_t i,
                           const Y& v, bool counted = true) {
    const std::uint64_t m = std::uint64_t(1) << (i & 63);
    const std::uint64_t w = bits[i >> 6];
    const bool fresh = !(w & m);
    if constexpr (std::is_trivially_copyable_v<Y> && sizeof(Y) <= 16) {
        bits[i >> 6] = w | m;
        list[cnt] = i;
        const Y pick[2] = {S::add(val[i], v), v};
        val[i] = pick[fresh];
        return cnt + std::size_t(fresh & counted);
    } else {
        if (fresh) {
            bits[i >> 6] = w | m;
            val[i] = v;
            list[cnt] = i;
            return cnt + std::size_t(counted);
        }
        val[i] = S::add(val[i], v);
        return cnt;
    }
}

/// Copies the SPA slots list[0 .. cnt) (sorted, all in [lo, hi)) to yi / yv and clears
/// them; `dense` clears the bitmap words of [lo, hi) wholesale instead.
template <class Y>
inline void spa_drain(const Y* val, std::uint64_t* bits, const lindex_t* list, std::size_t cnt,
                      bool dense, std::size_t lo, std::size_t hi, lindex_t* yi, Y* yv) {
    for (std::size_t k = 0; k < cnt; ++k) {
        const lindex_t i = list[k];
        yi[k] = i;
        yv[k] = val[i];
        if (!dense) bits[i >> 6] &= ~(std::uint64_t(1) << (i & 63));
    }
    if (dense) std::memset(bits + lo / 64, 0, ((hi + 63) / 64 - lo / 64) * 8);
}

template <class Y>
void resize_output(SparseVector<Y>& y, std::size_t n) {
    y.indices().resize(n);
    y.values().resize_for_overwrite(n);  // every entry is written next
}

/// SPA on one thread: scatter straight into the accumulator. Products the mask drops go
/// to a spare slot past the block's rows instead of taking a branch.
template <class S, class A, class X, class Y, class Allow>
void spa_serial(const CompressedView<A>& a, const SparseVector<X>& x, Allow allow,
                SparseVector<Y>& y, SpmspvWorkspace<Y>& ws) {
    Y* val = ws.spa_val.data();
    std::uint64_t* bits = ws.spa_bits.data();
    lindex_t* touched = ws.touched.data();
    const offset_t* xw = ws.xwork.data();
    const offset_t* xb = ws.xbegin.data();
    const lindex_t* inner = a.inner;
    const ValueReader<A> av(a.vals);
    const ValueReader<X> xv(&x.values());
    const lindex_t spare = a.n_inner;
    std::size_t cnt = 0;
    for (std::size_t e = 0, nv = x.nvals(); e < nv; ++e) {
        const auto xj = xv(e);
        const offset_t begin = xb[e];
        const offset_t end = begin + (xw[e + 1] - xw[e]);
        for (offset_t p = begin; p < end; ++p) {
            const lindex_t i = inner[p];
            const lindex_t ok = lindex_t(0) - lindex_t(bool(allow(i)));  // all ones or 0
            cnt = spa_add<S>(val, bits, touched, cnt, (i & ok) | (spare & ~ok),
                             Y(S::mul(av(p), xj)), ok != 0);
        }
    }
    bits[spare >> 6] &= ~(std::uint64_t(1) << (spare & 63));
    const bool dense = order_touched(touched, cnt, bits, 0, a.n_inner);
    resize_output(y, cnt);
    spa_drain(val, bits, touched, cnt, dense, 0, a.n_inner, y.indices().data(), y.values().data());
}

/// SPA on several threads, or on one when the SPA is too large for the cache: bucket the
/// products by output row range (count, then scatter), then reduce each bucket into its
/// own, cache-sized slice of the SPA. Work is cut into `threads` flop ranges; a team
/// smaller than asked for still covers all of them.
template <class S, class A, class X, class Y, class Allow>
void spa_parallel(const CompressedView<A>& a, const SparseVector<X>& x, offset_t flops, Allow allow,
                  SparseVector<Y>& y, SpmspvWorkspace<Y>& ws, int threads) {
    const lindex_t n = a.n_inner;
    // Buckets: power-of-two row ranges of 64 .. 32768 rows, about 4 per thread.
    int shift = 6;
    while (shift < 15 && (std::uint64_t(n) >> shift) > std::uint64_t(4 * threads)) ++shift;
    const std::size_t nb = std::size_t((std::uint64_t(n) + (1u << shift) - 1) >> shift);
    const std::size_t T = std::size_t(threads);
    ws.reserve_threads(threads, std::max<std::size_t>(nb, 2));
    if (ws.acc.size() < 2 * nb + 1) ws.acc.resize(2 * nb + 1);
    ws.reserve_products(flops);
    std::size_t* cur = ws.bucket_fill.data();  // [v * nb + b]: products counted
    std::size_t* off = ws.bucket_off.data();   // [b * T + v]: start of (bucket, part)
    std::size_t* end = ws.bucket_end.data();   // [v * nb + b]: write cursor, then end
    std::size_t* cnt = ws.acc.data();          // [b]: outputs; [nb + b]: drained densely
    KeyValue<Y>* buf = ws.buf_a.data();
    Y* val = ws.spa_val.data();
    std::uint64_t* bits = ws.spa_bits.data();
    lindex_t* touched = ws.touched.data();
    const lindex_t* inner = a.inner;
    const offset_t* xw = ws.xwork.data();
    const offset_t* xb = ws.xbegin.data();
    const std::size_t nv = x.nvals();

    detail::run_team(threads, [&] {
        const int tid = thread_id();
        const int team = team_size();
        // 1. Products per (part, bucket), mask ignored: an upper bound on what is written.
        for (int v = tid; v < threads; v += team) {
            std::size_t* mine = cur + std::size_t(v) * nb;
            std::fill(mine, mine + nb, 0);
            const offset_t f0 = part_begin(flops, v, threads);
            const offset_t f1 = part_begin(flops, v + 1, threads);
            if (f0 >= f1) continue;
            std::size_t e = std::size_t(std::upper_bound(xw, xw + nv + 1, f0) - xw) - 1;
            for (offset_t f = f0; f < f1; ++e) {
                const offset_t w1 = std::min(xw[e + 1], f1);
                const offset_t base = xb[e] - xw[e];
                for (offset_t p = base + f; p < base + w1; ++p) ++mine[inner[p] >> shift];
                f = std::max(f, w1);
            }
        }
#pragma omp barrier
        // Start of (bucket b, part v) in (bucket, part) order; each part computes its own.
        for (int v = tid; v < threads; v += team) {
            std::size_t o = 0;
            for (std::size_t b = 0; b < nb; ++b) {
                for (std::size_t v2 = 0; v2 < T; ++v2) {
                    if (v2 == std::size_t(v)) off[b * T + v2] = end[std::size_t(v) * nb + b] = o;
                    o += cur[v2 * nb + b];
                }
            }
        }
        // 2. Scatter the products that pass the mask, in flop order within each part.
        for (int v = tid; v < threads; v += team) {
            std::size_t* mine = end + std::size_t(v) * nb;
            for_products<S>(a, x, ws, part_begin(flops, v, threads),
                            part_begin(flops, v + 1, threads), allow,
                            [&](lindex_t i, const Y& p, bool ok) {
                                // Branch-free: the slot at the cursor is within the
                                // (bucket, part) range even when the product is dropped.
                                std::size_t& c = mine[i >> shift];
                                buf[c] = {i, p};
                                c += ok;
                            });
        }
#pragma omp barrier
        // 3. Reduce each bucket into its SPA slice, parts in order (= x's order).
#pragma omp for schedule(dynamic, 1)
        for (std::size_t b = 0; b < nb; ++b) {
            const std::size_t lo = b << shift;
            const std::size_t hi = std::min<std::size_t>(n, (b + 1) << shift);
            // Bucket b lists its rows in touched[lo + b ..]: its rows plus one spare.
            lindex_t* list = touched + lo + b;
            std::size_t c = 0;
            for (std::size_t v = 0; v < T; ++v) {
                const std::size_t stop = end[v * nb + b];
                for (std::size_t p = off[b * T + v]; p < stop; ++p) {
                    c = spa_add<S>(val, bits, list, c, buf[p].key, buf[p].val);
                }
            }
            cnt[nb + b] = order_touched(list, c, bits, lo, hi) ? 1 : 0;
            cnt[b] = c;
        }
    });
    // 4. Output offsets, then drain every bucket into y.
    std::size_t total = 0;
    for (std::size_t b = 0; b < nb; ++b) {
        const std::size_t c = cnt[b];
        off[b] = total;
        total += c;
    }
    resize_output(y, total);
    lindex_t* yi = y.indices().data();
    Y* yv = y.values().data();
    detail::run_team(threads, [&] {
#pragma omp for schedule(dynamic, 1)
        for (std::size_t b = 0; b < nb; ++b) {
            const std::size_t lo = b << shift;
            const std::size_t hi = std::min<std::size_t>(n, (b + 1) << shift);
            spa_drain(val, bits, touched + lo + b, cnt[b], cnt[nb + b] != 0, lo, hi, yi + off[b],
                      yv + off[b]);
        }
    });
}

/// Sort method: gather products per flop range, radix-sort by row, reduce runs.
template <class S, class A, class X, class Y, class Allow>
void sort_products(const CompressedView<A>& a, const SparseVector<X>& x, offset_t flops,
                   Allow allow, SparseVector<Y>& y, SpmspvWorkspace<Y>& ws, int threads) {
    using E = KeyValue<Y>;
    ws.reserve_products(flops);
    ws.reserve_threads(threads, 2);
    std::size_t* cb = ws.bucket_off.data();
    std::size_t* ce = ws.bucket_fill.data();
    std::size_t* acc = ws.acc.data();
    E* buf = ws.buf_a.data();
    detail::run_parts(threads, [&](int v) {
        const offset_t f0 = part_begin(flops, v, threads);
        std::size_t c = f0;
        for_products<S>(a, x, ws, f0, part_begin(flops, v + 1, threads), allow,
                        [&](lindex_t i, const Y& p, bool ok) {
                            buf[c] = {i, p};
                            c += ok;
                        });
        cb[v] = f0;
        ce[v] = c;
    });
    std::size_t total = 0;
    const E* s = radix_sort_chunks(ws.buf_a.data(), ws.buf_b.data(), cb, ce, threads, a.n_inner,
                                   threads, ws.hist, &total);
    // Reduce runs of equal keys; part boundaries move forward to the start of a run.
    const int rt = total >= 4096 ? threads : 1;
    auto bounds = [&](int v, std::size_t& lo, std::size_t& hi) {
        lo = part_begin(total, v, rt);
        hi = part_begin(total, v + 1, rt);
        while (lo > 0 && lo < total && s[lo].key == s[lo - 1].key) ++lo;
        while (hi > 0 && hi < total && s[hi].key == s[hi - 1].key) ++hi;
    };
    detail::run_parts(rt, [&](int v) {
        std::size_t lo, hi, c = 0;
        bounds(v, lo, hi);
        for (std::size_t p = lo; p < hi; ++p) c += (p == lo || s[p].key != s[p - 1].key);
        acc[v] = c;
    });
    std::size_t out = 0;
    for (int v = 0; v < rt; ++v) {
        const std::size_t c = acc[v];
        acc[v] = out;
        out += c;
    }
    resize_output(y, out);
    lindex_t* yi = y.indices().data();
    Y* yv = y.values().data();
    detail::run_parts(rt, [&](int v) {
        std::size_t lo, hi, o = acc[v];
        bounds(v, lo, hi);
        for (std::size_t p = lo; p < hi;) {
            Y r = s[p].val;
            std::size_t q = p + 1;
            for (; q < hi && s[q].key == s[p].key; ++q) r = S::add(r, s[q].val);
            yi[o] = s[p].key;
            yv[o] = r;
            ++o;
            p = q;
        }
    });
}

}  // namespace detail

/// y⟨mask⟩ = A ⊕.⊗ x for sparse x (push). `a` must have outer = input index j: a
/// make_view() of a Dcsc of A (give it an OuterLookup for O(1) column finds) or of a Csr of
/// Aᵀ. y becomes a sparse vector of length a.n_inner with ascending indices; only indices
/// the mask allows and that meet at least one product are present. `ws` is reused scratch.
///
/// @tparam S a semiring; Y must be S::value_type
/// @return entries read, outputs and the method that ran
/// @throws DimensionMismatch when x.size() != a.n_outer; InvalidValue when y is x
template <class S, class A, class X, class Y>
KernelStats spmspv(const CompressedView<A>& a, const SparseVector<X>& x, const MaskView& mask,
                   SparseVector<Y>& y, SpmspvWorkspace<Y>& ws,
                   SpmspvMethod method = SpmspvMethod::automatic) {
    static_assert(std::is_same_v<Y, typename S::value_type>,
                  "spmspv: the output value type must be the semiring's value_type");
    detail::check_push(a, x, y, "spmspv");
    if (y.size() != a.n_inner) y.reset(a.n_inner);
    KernelStats st;
    if (mask.allows_none() || x.nvals() == 0 || a.nnz() == 0) {
        detail::resize_output(y, 0);
        st.method = method;
        return st;
    }
    const offset_t flops =
        detail::plan_columns(a, x, ws, detail::threads_for(ws.policy, x.nvals()));
    if (method == SpmspvMethod::automatic) method = spmspv_choose_method(flops, a.n_inner);
    st.method = method;
    st.entries = flops;
    const int threads = detail::threads_for(ws.policy, flops);
    detail::with_mask(mask, [&](auto allow) {
        if (method == SpmspvMethod::sort) {
            detail::sort_products<S>(a, x, flops, allow, y, ws, threads);
            return;
        }
        ws.reserve_spa(a.n_inner);
        if (threads == 1 && std::size_t(a.n_inner) * sizeof(Y) <= ws.spa_direct_max_bytes) {
            detail::spa_serial<S>(a, x, allow, y, ws);
        } else {
            detail::spa_parallel<S>(a, x, flops, allow, y, ws, threads);
        }
    });
    st.nvals = y.nvals();
    return st;
}

/// spmspv() with the sparse accumulator (SPA) method.
template <class S, class A, class X, class Y>
KernelStats spmspv_spa(const CompressedView<A>& a, const SparseVector<X>& x, const MaskView& mask,
                       SparseVector<Y>& y, SpmspvWorkspace<Y>& ws) {
    return spmspv<S>(a, x, mask, y, ws, SpmspvMethod::spa);
}

/// spmspv() with the gather / radix-sort / reduce method.
template <class S, class A, class X, class Y>
KernelStats spmspv_sort(const CompressedView<A>& a, const SparseVector<X>& x, const MaskView& mask,
                        SparseVector<Y>& y, SpmspvWorkspace<Y>& ws) {
    return spmspv<S>(a, x, mask, y, ws, SpmspvMethod::sort);
}

}  // namespace gridblas::kernels
