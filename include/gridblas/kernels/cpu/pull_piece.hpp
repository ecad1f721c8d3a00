#pragma once
/// @file pull_piece.hpp
/// @brief The local step of the rotating pull (ops/spmv_rotate.hpp): a masked pull SpMV over
/// one piece of a block's output range, merged with the partial results that earlier ranks
/// of the rotation found for the same piece.
///
/// This is the bottom-up step of Beamer, Asanović & Patterson ("Direction-optimizing
/// breadth-first search", SC 2012) in the distributed form of Buluç, Beamer, Madduri,
/// Asanović & Patterson ("Distributed-memory breadth-first search on massive graphs", 2017,
/// Algorithm 4), written for any semiring:
///  - outputs marked `done` (masked out, or already at a terminal value) are skipped, 64 at
///    a time when the view lists every outer index (CSR / CSC);
///  - each remaining output reads its entries in stored (ascending input) order, tests the
///    input's bit before its value and stops at the semiring's terminal value;
///  - for positional semirings (semiring_is_positional) the product is the input's global
///    index, so the first input met is final: with "any" it is terminal, with "min" it is the
///    smallest, and a candidate c from an earlier rank bounds the read to inputs below c;
///  - each output's result is combined with the earlier candidate (`best`, marked in `has`)
///    by the semiring's add.
/// The first entry of an upcoming output is prefetched: it is one cache miss per output,
/// which the early exits would otherwise leave exposed.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/spmv_pull.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/semirings/semiring.hpp"

namespace gridblas::kernels {

/// The piece one call scans and where its bookkeeping lives. Piece index v is output (outer)
/// id `offset + v` of the view; `done`, `has` and `best` are indexed by v.
template <class Y>
struct PullPiece {
    lindex_t offset = 0;                  ///< first outer id of the piece
    lindex_t length = 0;                  ///< outputs in the piece
    const std::uint64_t* done = nullptr;  ///< outputs to skip (bitmap_words(length) words)
    std::uint64_t* has = nullptr;         ///< outputs with a candidate in best (in and out)
    Y* best = nullptr;                    ///< candidate of each output marked in has
};

namespace detail {

/// How many outputs ahead the DCSC scan prefetches an output's first entry.
inline constexpr std::size_t kPiecePrefetch = 16;

/// Reduces the entries of outer position k over the present inputs into `out`; returns
/// whether some product exists. Positional semirings stop at the first present input (and,
/// with a candidate, at inner ids >= `stop`); others at the terminal value.
template <class S, class A, class XA, class ToGlobal>
inline bool piece_row(const CompressedView<A>& a, const ValueReader<A>& av, const XA& x,
                      std::size_t k, lindex_t stop, ToGlobal to_global, typename S::value_type& out,
                      std::uint64_t& entries) {
    using Y = typename S::value_type;
    const offset_t begin = a.ptr[k];
    const offset_t end = a.ptr[k + 1];
    const lindex_t* inner = a.inner;
    if constexpr (semiring_is_positional<S>()) {
        for (offset_t p = begin; p < end; ++p) {
            const lindex_t j = inner[p];
            if (j >= stop) {
                entries += p - begin;
                return false;
            }
            if (x.has(j)) {
                entries += p - begin + 1;
                out = Y(to_global(j));
                return true;
            }
        }
        entries += end - begin;
        return false;
    } else {
        (void)stop;
        (void)to_global;
        return pull_row<S>(a, av, x, k, out, entries);
    }
}

/// Folds result r of piece output v into the candidates (`word` is v's word of `has`,
/// owned by the calling thread or updated atomically when `shared`).
template <class Y>
inline bool piece_has(const PullPiece<Y>& pc, lindex_t v, bool shared) {
    const std::uint64_t w =
        shared ? std::atomic_ref<std::uint64_t>(pc.has[v >> 6]).load(std::memory_order_relaxed)
               : pc.has[v >> 6];
    return (w >> (v & 63)) & 1u;
}

template <class S, class Y>
inline void piece_merge(const PullPiece<Y>& pc, lindex_t v, const Y& r, bool shared) {
    const std::uint64_t m = std::uint64_t(1) << (v & 63);
    if (piece_has(pc, v, shared)) {
        pc.best[v] = S::add(pc.best[v], r);
        return;
    }
    pc.best[v] = r;
    if (shared) {
        std::atomic_ref<std::uint64_t>(pc.has[v >> 6]).fetch_or(m, std::memory_order_relaxed);
    } else {
        pc.has[v >> 6] |= m;
    }
}

}  // namespace detail

/// Scans the outputs of `pc` not marked done, reading view `a` (outer = output, as for
/// spmv_pull) over the bitmap input `x`, and merges each result into pc.best / pc.has.
/// `to_global(j)` gives the global index of input j (used by positional semirings only) and
/// `bound(c)` the first input index whose global index is >= c (positional min only: the
/// read of an output with candidate c stops there). Returns the matrix entries read.
template <class S, class A, class X, class ToGlobal, class Bound>
std::uint64_t pull_piece(const CompressedView<A>& a, const BitmapVector<X>& x,
                         const PullPiece<typename S::value_type>& pc, ToGlobal to_global,
                         Bound bound, const ParallelPolicy& policy = {}) {
    using Y = typename S::value_type;
    constexpr bool bounded = semiring_is_positional<S>() && !semiring_has_terminal<S>();
    const detail::BitmapAccess<X> xa(x);
    const detail::ValueReader<A> av(a.vals);
    const lindex_t no_stop = a.n_inner;
    auto stop_of = [&](lindex_t v, bool shared) -> lindex_t {
        if constexpr (bounded) {
            if (detail::piece_has(pc, v, shared)) return bound(pc.best[v]);
        }
        (void)v;
        (void)shared;
        return no_stop;
    };
    std::uint64_t entries = 0;
    if (pc.length == 0 || a.nnz() == 0) return 0;
    const std::size_t words = bitmap_words(pc.length);
    if (!a.outer_ids) {
        // Every outer id has a pointer: walk the piece's words, skipping done outputs 64 at a
        // time. Each word belongs to one thread, so `has` needs no atomics.
        const std::size_t cw = std::max<std::size_t>(1, policy.chunk_rows / 64);
        const int threads = detail::threads_for(policy, std::size_t(pc.length) * 4);
        const std::size_t tail = pc.length & 63;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(+ : entries) \
    if (threads > 1)
        for (std::size_t c = 0; c < (words + cw - 1) / cw; ++c) {
            lindex_t todo[64];
            for (std::size_t w = c * cw; w < std::min(words, (c + 1) * cw); ++w) {
                std::uint64_t open = ~pc.done[w];
                if (w + 1 == words && tail) open &= (std::uint64_t(1) << tail) - 1;
                if (!open) continue;
                // Prefetch the first entry of each open output of the word, then scan them.
                int n = 0;
                while (open) {
                    const lindex_t v = lindex_t(w * 64 + std::size_t(std::countr_zero(open)));
                    open &= open - 1;
                    todo[n++] = v;
                    __builtin_prefetch(a.inner + a.ptr[pc.offset + v]);
                }
                for (int t = 0; t < n; ++t) {
                    const lindex_t v = todo[t];
                    Y r{};
                    if (detail::piece_row<S>(a, av, xa, std::size_t(pc.offset + v),
                                             stop_of(v, false), to_global, r, entries)) {
                        detail::piece_merge<S>(pc, v, r, false);
                    }
                }
            }
        }
        return entries;
    }
    // Doubly compressed: walk the stored outer positions of the piece.
    const lindex_t* ids = a.outer_ids;
    const std::size_t k0 = std::size_t(std::lower_bound(ids, ids + a.num_outer, pc.offset) - ids);
    const std::size_t k1 =
        std::size_t(std::lower_bound(ids + k0, ids + a.num_outer, pc.offset + pc.length) - ids);
    const int threads = detail::threads_for(policy, (k1 - k0) * 4);
    const std::size_t chunk = std::max<std::size_t>(64, policy.chunk_rows / 2);
    const bool shared = threads > 1;
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk) reduction(+ : entries) \
    if (threads > 1)
    for (std::size_t k = k0; k < k1; ++k) {
        if (const std::size_t ka = k + detail::kPiecePrefetch; ka < k1) {
            const lindex_t va = ids[ka] - pc.offset;
            if (!detail::test_bit(pc.done, va)) __builtin_prefetch(a.inner + a.ptr[ka]);
        }
        const lindex_t v = ids[k] - pc.offset;
        if (detail::test_bit(pc.done, v)) continue;
        Y r{};
        if (detail::piece_row<S>(a, av, xa, k, stop_of(v, shared), to_global, r, entries)) {
            detail::piece_merge<S>(pc, v, r, shared);
        }
    }
    return entries;
}

}  // namespace gridblas::kernels
