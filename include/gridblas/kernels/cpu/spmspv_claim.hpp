#pragma once
/// @file spmspv_claim.hpp
/// @brief Push SpMSpV for the positional semirings (any_secondi, min_secondi): the top-down
/// BFS step in one pass over the frontier's edges.
///
/// With a positional semiring every product of input column j is j's global index, so an
/// output's value depends only on which inputs reach it: no values need gathering, bucketing
/// or sorting by output. Threads walk the products and claim each allowed output in an occupancy
/// bitmap with one atomic OR; the thread that sets the bit lists the output. "any" keeps the
/// claimer's index, "min" keeps the smallest by an atomic minimum on a value array held at the
/// identity between calls. This is the queue-based top-down step of Beamer, Asanović & Patterson
/// ("Direction-optimizing breadth-first search", SC 2012) written as a masked SpMSpV; the
/// work is split into equal slices of products, not of inputs (Azad & Buluç, IPDPS 2017), so
/// a hub column spreads over the threads. The output is then put in index order by scanning the
/// bitmap (dense outputs) or sorting the claimed list (sparse ones). Min results are exact and
/// deterministic; any results may differ from run to run, as the semiring allows.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gridblas/kernels/cpu/mask.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/spmspv_workspace.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/semirings/semiring.hpp"
#include "gridblas/vector/sparse_vector.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace gridblas::kernels {

/// Scratch of spmspv_claim(), kept between calls: `bits` is all zero and `best` all at the
/// semiring's identity whenever no call is running.
template <class Y>
struct ClaimWorkspace {
    std::vector<std::uint64_t> bits;
    std::vector<Y> best;
    std::vector<std::vector<lindex_t>> lists;  ///< outputs claimed, one list per thread
    std::vector<std::size_t> pos;              ///< column position of each input (or npos)
    std::vector<offset_t> start;               ///< products before each input
    ParallelPolicy policy;
};

/// y⟨mask⟩ = A ⊕.⊗ x for a positional semiring S, x given by its entries' inner ids `ids`
/// (ascending; values are never read) and `to_global(j)`, the global index a product of
/// column j yields. `a` has outer = input (as for spmspv()). y gets length a.n_inner,
/// ascending indices. Returns the entries read.
template <class S, class A, class ToGlobal>
KernelStats spmspv_claim(const CompressedView<A>& a, std::span<const lindex_t> ids,
                         ToGlobal to_global, const MaskView& mask,
                         SparseVector<typename S::value_type>& y,
                         ClaimWorkspace<typename S::value_type>& ws) {
    static_assert(semiring_is_positional<S>(), "spmspv_claim: S must be a positional semiring");
    using Y = typename S::value_type;
    constexpr bool keep_min = !semiring_has_terminal<S>();
    const lindex_t n = a.n_inner;
    if (y.size() != n) y.reset(n);
    y.clear();
    KernelStats st;
    st.method = SpmspvMethod::spa;
    if (mask.allows_none() || ids.empty() || a.nnz() == 0) return st;
    const std::size_t words = bitmap_words(n);
    if (ws.bits.size() != words) ws.bits.assign(words, 0);
    if (ws.best.size() != std::size_t(n)) ws.best.assign(n, S::zero());
    // Plan: each input's column position and the running count of its entries, so that
    // threads can take equal slices of the products whatever the column lengths (one hub
    // column must not become one thread's work).
    ws.pos.resize(ids.size());
    ws.start.resize(ids.size() + 1);
    ws.start[0] = 0;
    for (std::size_t k = 0; k < ids.size(); ++k) {
        const std::size_t pos = a.find_outer(ids[k]);
        ws.pos[k] = pos;
        ws.start[k + 1] = ws.start[k] + (pos == npos ? 0 : a.ptr[pos + 1] - a.ptr[pos]);
    }
    const offset_t flops = ws.start[ids.size()];
    st.entries = flops;
    if (flops == 0) return st;
    const int threads = detail::threads_for(ws.policy, std::size_t(flops));
    if (ws.lists.size() < std::size_t(threads)) ws.lists.resize(std::size_t(threads));
    std::uint64_t* bits = ws.bits.data();
    Y* best = ws.best.data();
    const offset_t slice = 4096;
    const std::size_t slices = std::size_t((flops + slice - 1) / slice);
    detail::with_mask(mask, [&](auto allow) {
#pragma omp parallel num_threads(threads) if (threads > 1)
        {
#if defined(_OPENMP)
            std::vector<lindex_t>& mine = ws.lists[std::size_t(omp_get_thread_num())];
#else
            std::vector<lindex_t>& mine = ws.lists[0];
#endif
            mine.clear();
#pragma omp for schedule(dynamic, 1) nowait
            for (std::size_t c = 0; c < slices; ++c) {
                const offset_t lo = offset_t(c) * slice;
                const offset_t hi = std::min(flops, lo + slice);
                // The input whose products contain `lo`, then onwards.
                std::size_t k = std::size_t(std::upper_bound(ws.start.begin(), ws.start.end(), lo) -
                                            ws.start.begin()) -
                                1;
                for (offset_t f = lo; f < hi; ++k) {
                    if (ws.pos[k] == npos) continue;
                    const Y g = Y(to_global(ids[k]));
                    const offset_t base = a.ptr[ws.pos[k]] - ws.start[k];
                    const offset_t stop = std::min(hi, ws.start[k + 1]);
                    for (; f < stop; ++f) {
                        const lindex_t i = a.inner[base + f];
                        if (!allow(i)) continue;
                        const std::uint64_t m = std::uint64_t(1) << (i & 63);
                        std::atomic_ref<std::uint64_t> word(bits[i >> 6]);
                        if constexpr (keep_min) {
                            std::atomic_ref<Y> slot(best[i]);
                            Y cur = slot.load(std::memory_order_relaxed);
                            if (!(g < cur)) continue;  // a smaller index is already in
                            if (!(word.load(std::memory_order_relaxed) & m) &&
                                !(word.fetch_or(m, std::memory_order_relaxed) & m)) {
                                mine.push_back(i);
                            }
                            while (g < cur &&
                                   !slot.compare_exchange_weak(cur, g, std::memory_order_relaxed)) {
                            }
                        } else {
                            if (word.load(std::memory_order_relaxed) & m) continue;
                            if (!(word.fetch_or(m, std::memory_order_relaxed) & m)) {
                                best[i] = g;
                                mine.push_back(i);
                            }
                        }
                    }
                }
            }
        }
    });
    // Index order: scan the bitmap when the output is dense enough, else sort the lists.
    std::size_t found = 0;
    for (int t = 0; t < threads; ++t) found += ws.lists[std::size_t(t)].size();
    auto& yi = y.indices();
    yi.clear();
    if (words < found * 8) {
        yi.reserve(found);
        for (std::size_t w = 0; w < words; ++w) {
            std::uint64_t v = bits[w];
            if (!v) continue;
            bits[w] = 0;
            while (v) {
                yi.push_back(lindex_t(w * 64 + std::size_t(std::countr_zero(v))));
                v &= v - 1;
            }
        }
    } else {
        for (int t = 0; t < threads; ++t) {
            const auto& l = ws.lists[std::size_t(t)];
            yi.insert(yi.end(), l.begin(), l.end());
        }
        std::sort(yi.begin(), yi.end());
        for (lindex_t i : yi) bits[i >> 6] = 0;
    }
    y.values().resize(yi.size());
    Y* yv = y.values().data();
    for (std::size_t k = 0; k < yi.size(); ++k) {
        yv[k] = best[yi[k]];
        if constexpr (keep_min) best[yi[k]] = S::zero();
    }
    st.nvals = yi.size();
    return st;
}

}  // namespace gridblas::kernels
