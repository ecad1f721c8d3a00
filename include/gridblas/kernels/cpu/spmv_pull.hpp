#pragma once
/// @file spmv_pull.hpp
/// @brief Pull-direction masked SpMV on one local block, rows of A outer: the kernel of
/// bottom-up BFS. Each allowed row scans its entries for present x and stops at the
/// semiring's terminal value. (The plain dense SpMV is in spmv_dense.hpp.)
///
/// The pull step follows Beamer, Asanović & Patterson, "Direction-optimizing breadth-first
/// search" (SC'12) as GapBS implements it: rows are visited 64 at a time through the mask's
/// words (so whole words of excluded rows cost one load), x's bit is tested before its
/// value is read, and rows go to threads in dynamically scheduled chunks because Kronecker
/// degrees are heavily skewed. Rows' products are reduced in stored (column) order, so the
/// result does not depend on the thread count.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/mask.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/semirings/semiring.hpp"
#include "gridblas/vector/bitmap_vector.hpp"
#include "gridblas/vector/dense_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas::kernels {

/// Reused scratch of spmv_pull() with a sparse output: per-chunk result slices that are
/// compacted into y. Grows to the block's row count once, then allocates nothing.
template <class Y>
class PullWorkspace {
public:
    /// Threading knobs used by the kernels.
    ParallelPolicy policy;

    // ---- kernel-internal state ----
    std::vector<lindex_t> ind;       ///< result rows, in chunk slices
    std::vector<Y> val;              ///< result values, in chunk slices
    std::vector<std::size_t> count;  ///< results per chunk, then output offsets
};

namespace detail {

/// x as a bitmap: test the bit, then read the value (Pattern when it has none).
template <class X>
struct BitmapAccess {
    const std::uint64_t* bits;
    const X* vals;
    explicit BitmapAccess(const BitmapVector<X>& x)
        : bits(x.words().data()), vals(BitmapVector<X>::has_values ? x.values().data() : nullptr) {}
    bool has(lindex_t j) const { return test_bit(bits, j); }
    X value(lindex_t j) const {
        if constexpr (std::is_same_v<X, Pattern>) {
            return {};
        } else {
            return vals[j];
        }
    }
};

/// x as a dense vector: every entry present.
template <class X>
struct DenseAccess {
    const X* vals;
    explicit DenseAccess(const DenseVector<X>& x) : vals(x.data()) {}
    static constexpr bool has(lindex_t) { return true; }
    X value(lindex_t j) const { return vals[j]; }
};

/// Reduces row position k: returns true and the result in `out` when some product exists.
/// Stops at the semiring's terminal value. Adds the entries read to `entries`.
template <class S, class A, class XA, class Y>
inline bool pull_row(const CompressedView<A>& a, const ValueReader<A>& av, const XA& x,
                     std::size_t k, Y& out, std::uint64_t& entries) {
    const offset_t begin = a.ptr[k];
    const offset_t end = a.ptr[k + 1];
    const lindex_t* inner = a.inner;
    for (offset_t p = begin; p < end; ++p) {
        const lindex_t j = inner[p];
        if (!x.has(j)) continue;
        Y acc = S::mul(av(p), x.value(j));
        for (++p; p < end && !semiring_is_terminal<S>(acc); ++p) {
            const lindex_t j2 = inner[p];
            if (x.has(j2)) acc = S::add(acc, S::mul(av(p), x.value(j2)));
        }
        entries += p - begin;
        out = acc;
        return true;
    }
    entries += end - begin;
    return false;
}

/// Visits the allowed rows of chunk c and calls emit(k, i, value) for each row with a
/// result, rows ascending. Chunks are `cw` mask words (CSR views) or `cw * 64` stored
/// outer positions (doubly compressed views).
template <class S, class A, class XA, class Allow, class Emit>
std::uint64_t pull_chunk(const CompressedView<A>& a, const XA& x, const MaskView& mask, Allow allow,
                         std::size_t c, std::size_t cw, Emit&& emit) {
    using Y = typename S::value_type;
    const ValueReader<A> av(a.vals);
    std::uint64_t entries = 0;
    Y r{};
    if (!a.outer_ids) {
        const std::size_t nw = bitmap_words(a.n_outer);
        for (std::size_t w = c * cw; w < std::min(nw, (c + 1) * cw); ++w) {
            std::uint64_t rows = mask.word(w, a.n_outer);
            while (rows) {
                const std::size_t i = w * 64 + std::size_t(std::countr_zero(rows));
                rows &= rows - 1;
                if (pull_row<S>(a, av, x, i, r, entries)) emit(i, lindex_t(i), r);
            }
        }
    } else {
        const std::size_t end = std::min(a.num_outer, (c + 1) * cw * 64);
        for (std::size_t k = c * cw * 64; k < end; ++k) {
            const lindex_t i = a.outer_ids[k];
            if (allow(i) && pull_row<S>(a, av, x, k, r, entries)) emit(k, i, r);
        }
    }
    return entries;
}

template <class A>
std::size_t pull_chunks(const CompressedView<A>& a, std::size_t cw) {
    const std::size_t units = a.outer_ids ? (a.num_outer + 63) / 64 : bitmap_words(a.n_outer);
    return (units + cw - 1) / cw;
}

template <class A, class XV>
void check_pull(const CompressedView<A>& a, const XV& x, const char* who) {
    if (x.size() != a.n_inner) {
        throw DimensionMismatch(std::string(who) + ": x has size " + std::to_string(x.size()) +
                                " but the matrix view has " + std::to_string(a.n_inner) +
                                " inner (input) indices");
    }
}

/// Pull into a sparse output through per-chunk slices of the workspace.
template <class S, class A, class XA, class Y>
KernelStats pull_sparse(const CompressedView<A>& a, const XA& x, const MaskView& mask,
                        SparseVector<Y>& y, PullWorkspace<Y>& ws) {
    KernelStats st;
    if (y.size() != a.n_outer) y.reset(a.n_outer);
    y.clear();
    if (mask.allows_none() || a.nnz() == 0) return st;
    const std::size_t cw = std::max<std::size_t>(1, ws.policy.chunk_rows / 64);
    const std::size_t nchunks = pull_chunks(a, cw);
    const int threads = threads_for(ws.policy, a.nnz() + a.num_outer);
    std::uint64_t entries = 0;
    with_mask(mask, [&](auto allow) {
        if (threads == 1) {
            for (std::size_t c = 0; c < nchunks; ++c) {
                entries +=
                    pull_chunk<S>(a, x, mask, allow, c, cw,
                                  [&](std::size_t, lindex_t i, const Y& v) { y.push_back(i, v); });
            }
            return;
        }
        const std::size_t slots = a.outer_ids ? a.num_outer : std::size_t(a.n_outer);
        if (ws.ind.size() < slots) ws.ind.resize(slots);
        if (ws.val.size() < slots) ws.val.resize(slots);
        if (ws.count.size() < nchunks + 1) ws.count.resize(nchunks + 1);
        lindex_t* ti = ws.ind.data();
        Y* tv = ws.val.data();
        std::size_t* cnt = ws.count.data();
        const std::size_t span = cw * 64;  // slots per chunk
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(+ : entries)
        for (std::size_t c = 0; c < nchunks; ++c) {
            std::size_t o = c * span;
            entries +=
                pull_chunk<S>(a, x, mask, allow, c, cw, [&](std::size_t, lindex_t i, const Y& v) {
                    ti[o] = i;
                    tv[o] = v;
                    ++o;
                });
            cnt[c] = o - c * span;
        }
        std::size_t total = 0;
        for (std::size_t c = 0; c < nchunks; ++c) {
            const std::size_t n = cnt[c];
            cnt[c] = total;
            total += n;
        }
        y.indices().resize(total);
        y.values().resize_for_overwrite(total);
        lindex_t* yi = y.indices().data();
        Y* yv = y.values().data();
#pragma omp parallel for num_threads(threads) schedule(static)
        for (std::size_t c = 0; c < nchunks; ++c) {
            const std::size_t n = (c + 1 < nchunks ? cnt[c + 1] : total) - cnt[c];
            std::copy(ti + c * span, ti + c * span + n, yi + cnt[c]);
            std::copy(tv + c * span, tv + c * span + n, yv + cnt[c]);
        }
    });
    st.entries = entries;
    st.nvals = y.nvals();
    return st;
}

/// Pull into a bitmap output. CSR chunks own whole words of y; doubly compressed chunks
/// may share a word with a neighbour and set bits atomically.
template <class S, class A, class XA, class Y>
KernelStats pull_bitmap(const CompressedView<A>& a, const XA& x, const MaskView& mask,
                        BitmapVector<Y>& y, const ParallelPolicy& policy) {
    KernelStats st;
    if (y.size() != a.n_outer) {
        y = BitmapVector<Y>(a.n_outer);
    } else {
        y.clear_all();
    }
    if (mask.allows_none() || a.nnz() == 0) return st;
    const std::size_t cw = std::max<std::size_t>(1, policy.chunk_rows / 64);
    const std::size_t nchunks = pull_chunks(a, cw);
    const int threads = threads_for(policy, a.nnz() + a.num_outer);
    std::uint64_t* yw = y.words().data();
    Y* yv = y.values().data();
    const bool shared_words = a.outer_ids != nullptr && threads > 1;
    std::uint64_t entries = 0;
    with_mask(mask, [&](auto allow) {
        // Locals of this lambda: clang (14) rejects an OpenMP region's inner lambda naming
        // the enclosing function's locals.
        std::uint64_t* const words = yw;
        Y* const vals = yv;
        const bool shared = shared_words;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(+ : entries) \
    if (threads > 1)
        for (std::size_t c = 0; c < nchunks; ++c) {
            entries +=
                pull_chunk<S>(a, x, mask, allow, c, cw, [&](std::size_t, lindex_t i, const Y& v) {
                    const std::uint64_t m = std::uint64_t(1) << (i & 63);
                    if (shared) {
                        std::atomic_ref<std::uint64_t>(words[i >> 6])
                            .fetch_or(m, std::memory_order_relaxed);
                    } else {
                        words[i >> 6] |= m;
                    }
                    vals[i] = v;
                });
        }
    });
    st.entries = entries;
    st.nvals = y.nvals();
    return st;
}

}  // namespace detail

/// Masked pull SpMV: y⟨mask⟩ = A ⊕.⊗ x with x a bitmap. `a` must have outer = output
/// index i (a Csr of A, or a Dcsc of Aᵀ). Rows the mask excludes are skipped; each row
/// stops at the semiring's terminal value (any_pair, lor_land: the first hit). y becomes a
/// sparse vector of length a.n_outer holding the rows with a result.
/// @throws DimensionMismatch when x.size() != a.n_inner
template <class S, class A, class X, class Y>
KernelStats spmv_pull(const CompressedView<A>& a, const BitmapVector<X>& x, const MaskView& mask,
                      SparseVector<Y>& y, PullWorkspace<Y>& ws) {
    static_assert(std::is_same_v<Y, typename S::value_type>);
    detail::check_pull(a, x, "spmv_pull");
    return detail::pull_sparse<S>(a, detail::BitmapAccess<X>(x), mask, y, ws);
}

/// spmv_pull() into a sparse output with a per-thread workspace kept by the library
/// (thread_local, default policy). Prefer the overload taking a PullWorkspace in loops
/// that should control memory and threading.
template <class S, class A, class X, class Y>
KernelStats spmv_pull(const CompressedView<A>& a, const BitmapVector<X>& x, const MaskView& mask,
                      SparseVector<Y>& y) {
    static thread_local PullWorkspace<Y> ws;
    return spmv_pull<S>(a, x, mask, y, ws);
}

/// Masked pull SpMV with a dense x (every x(j) present).
template <class S, class A, class X, class Y>
KernelStats spmv_pull(const CompressedView<A>& a, const DenseVector<X>& x, const MaskView& mask,
                      SparseVector<Y>& y, PullWorkspace<Y>& ws) {
    static_assert(std::is_same_v<Y, typename S::value_type>);
    detail::check_pull(a, x, "spmv_pull");
    return detail::pull_sparse<S>(a, detail::DenseAccess<X>(x), mask, y, ws);
}

/// Masked pull SpMV into a bitmap output of length a.n_outer (bits of the rows with a
/// result, and their values). Needs no workspace.
template <class S, class A, class X, class Y>
KernelStats spmv_pull(const CompressedView<A>& a, const BitmapVector<X>& x, const MaskView& mask,
                      BitmapVector<Y>& y, const ParallelPolicy& policy = {}) {
    static_assert(std::is_same_v<Y, typename S::value_type>);
    detail::check_pull(a, x, "spmv_pull");
    if (static_cast<const void*>(&x) == static_cast<const void*>(&y)) {
        throw InvalidValue("spmv_pull: y must not be the same object as x");
    }
    return detail::pull_bitmap<S>(a, detail::BitmapAccess<X>(x), mask, y, policy);
}

/// Masked pull SpMV, dense x, bitmap output.
template <class S, class A, class X, class Y>
KernelStats spmv_pull(const CompressedView<A>& a, const DenseVector<X>& x, const MaskView& mask,
                      BitmapVector<Y>& y, const ParallelPolicy& policy = {}) {
    static_assert(std::is_same_v<Y, typename S::value_type>);
    detail::check_pull(a, x, "spmv_pull");
    return detail::pull_bitmap<S>(a, detail::DenseAccess<X>(x), mask, y, policy);
}

}  // namespace gridblas::kernels
