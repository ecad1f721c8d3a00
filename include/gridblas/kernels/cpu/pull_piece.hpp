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
///  - outputs marked `done` (masked out, or already at a terminal value) and outputs with no
///    entries (OuterBitmap) are skipped 64 at a time, for CSR and DCSC blocks alike;
///  - each remaining output reads its entries in stored (ascending input) order, tests the
///    input's bit before its value and stops at the semiring's terminal value;
///  - for positional semirings (semiring_is_positional) the product is the input's global
///    index, so the first input met is final: with "any" it is terminal, with "min" it is the
///    smallest, and a candidate c from an earlier rank bounds the read to inputs below c (an
///    output whose candidate lies below all of the block's inputs is not visited at all);
///  - each output's result is combined with the earlier candidate (`best`, marked in `has`)
///    by the semiring's add.
/// The first entry of each open output is prefetched 32 outputs ahead of its scan, across the
/// words of a chunk: that is one cache miss per output, which the early exits would otherwise
/// leave exposed. (Prefetching a word's open outputs before scanning them, as before, left
/// the misses of sparse words exposed: a 2 x 2 BFS at Kronecker scale 20 took 18.9-20.8 ms
/// per search against 17.4-18.1 with the ring, 16 outputs ahead 18.1-18.5, 64 ahead
/// 17.9-18.5; one rank of two threads 13.6-14.8 against 12.5-14.2.)

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gridblas/kernels/cpu/outer_bitmap.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/spmv_pull.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/matrix/detail/huge_pages.hpp"
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

}  // namespace detail

/// Scans the outputs of `pc` not marked done, reading view `a` (outer = output, as for
/// spmv_pull) over the bitmap input `x`, and merges each result into pc.best / pc.has.
/// `stored` is the OuterBitmap of `a`: outputs with no entries are never visited. The piece
/// is walked 64 outputs at a time in chunks of words, one thread per chunk, so `has` needs
/// no atomics whatever the format. `to_global(j)` gives the global index of input j (used by
/// positional semirings only) and `bound(c)` the first input index whose global index is
/// >= c (positional min only: the read of an output with candidate c stops there). Returns
/// the matrix entries read.
template <class S, class A, class X, class ToGlobal, class Bound>
std::uint64_t pull_piece(const CompressedView<A>& a, const OuterBitmap& stored,
                         const BitmapVector<X>& x, const PullPiece<typename S::value_type>& pc,
                         ToGlobal to_global, Bound bound, const ParallelPolicy& policy = {}) {
    using Y = typename S::value_type;
    constexpr bool bounded = semiring_is_positional<S>() && !semiring_has_terminal<S>();
    const detail::BitmapAccess<X> xa(x);
    const detail::ValueReader<A> av(a.vals);
    const lindex_t no_stop = a.n_inner;
    std::uint64_t entries = 0;
    if (pc.length == 0 || a.nnz() == 0) return 0;
    const std::size_t words = bitmap_words(pc.length);
    const std::size_t cw = std::max<std::size_t>(1, policy.chunk_rows / 64);
    const int threads = detail::threads_for(policy, std::size_t(pc.length) * 4);
    const std::size_t tail = pc.length & 63;
    // Outputs whose first entry is in flight ahead of the scan (the ring's size, a power of 2).
    constexpr unsigned kAhead = 32, kRing = 32;
    static_assert(kAhead <= kRing && std::has_single_bit(kRing));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(+ : entries) \
    if (threads > 1)
    for (std::size_t c = 0; c < (words + cw - 1) / cw; ++c) {
        // The chunk's open outputs come from a cursor over its words and wait in a ring
        // while the first entry of each is prefetched, kAhead outputs ahead of the scan.
        const std::size_t w_end = std::min(words, (c + 1) * cw);
        std::size_t pw = c * cw;
        const auto open_bits = [&](std::size_t w) {
            std::uint64_t open = ~pc.done[w];
            if (w + 1 == words && tail) open &= (std::uint64_t(1) << tail) - 1;
            return open ? open & stored.word_at(std::size_t(pc.offset) + w * 64) : open;
        };
        std::uint64_t open = open_bits(pw);
        lindex_t ring_v[kRing];
        std::size_t ring_k[kRing];
        unsigned head = 0, fill = 0;
        const auto refill = [&] {
            while (fill - head < kAhead) {
                while (!open) {
                    if (++pw >= w_end) return;
                    open = open_bits(pw);
                }
                const lindex_t v = lindex_t(pw * 64 + std::size_t(std::countr_zero(open)));
                open &= open - 1;
                if constexpr (bounded) {
                    // A candidate below every input of this block cannot be improved here:
                    // the output is not visited (no lookup, no cache miss on its entries).
                    if (((pc.has[v >> 6] >> (v & 63)) & 1) && bound(pc.best[v]) == 0) continue;
                }
                const std::size_t k = stored.position(pc.offset + v);
                __builtin_prefetch(a.inner + a.ptr[k]);
                ring_v[fill % kRing] = v;
                ring_k[fill % kRing] = k;
                ++fill;
            }
        };
        refill();
        while (head != fill) {
            const lindex_t v = ring_v[head % kRing];
            const std::size_t k = ring_k[head % kRing];
            ++head;
            refill();
            std::uint64_t& hw = pc.has[v >> 6];
            const std::uint64_t m = std::uint64_t(1) << (v & 63);
            const bool had = (hw & m) != 0;
            lindex_t stop = no_stop;
            if constexpr (bounded) {
                if (had) stop = bound(pc.best[v]);
            }
            Y r{};
            if (detail::piece_row<S>(a, av, xa, k, stop, to_global, r, entries)) {
                pc.best[v] = had ? S::add(pc.best[v], r) : r;
                hw |= m;
            }
        }
    }
    return entries;
}

namespace detail {
/// Resizes a list that the caller writes whole next: without zeroing the new elements where
/// the container can (ValueArray::resize_for_overwrite), else by resize().
template <class C>
void resize_to_overwrite(C& c, std::size_t n) {
    if constexpr (requires { c.resize_for_overwrite(n); }) {
        c.resize_for_overwrite(n);
    } else {
        c.resize(n);
    }
}
}  // namespace detail

/// Moves the candidates of a piece into a list: ids (ascending) get the outputs marked in
/// `has[0 .. bitmap_words(length))`, vals their `best` values, and `has` is cleared. Runs
/// on several threads for long pieces (each counts its words' bits, then writes its part).
/// `ids` is a std::vector; `vals` a std::vector or a ValueArray of Y.
template <class Y, class Ids, class Vals>
void collect_candidates(std::uint64_t* has, const Y* best, lindex_t length, Ids& ids, Vals& vals,
                        const ParallelPolicy& policy = {}) {
    const std::size_t words = bitmap_words(length);
    const int threads = detail::threads_for(policy, words * 16);
    std::size_t counts[65] = {0};
    const int parts = std::min(threads, 64);
    detail::run_parts(parts, [&](int t) {
        std::size_t c = 0;
        for (std::size_t w = detail::part_begin(words, t, parts);
             w < detail::part_begin(words, t + 1, parts); ++w) {
            c += std::size_t(std::popcount(has[w]));
        }
        counts[t + 1] = c;
    });
    for (int t = 0; t < parts; ++t) counts[t + 1] += counts[t];
    ::gridblas::detail::reserve_huge(ids, counts[parts]);
    if constexpr (requires { vals.reserve_huge(counts[parts]); }) {
        vals.reserve_huge(counts[parts]);
    } else {
        ::gridblas::detail::reserve_huge(vals, counts[parts]);
    }
    detail::resize_to_overwrite(ids, counts[parts]);
    detail::resize_to_overwrite(vals, counts[parts]);
    lindex_t* oi = ids.data();
    Y* ov = vals.data();
    detail::run_parts(parts, [&](int t) {
        std::size_t o = counts[t];
        for (std::size_t w = detail::part_begin(words, t, parts);
             w < detail::part_begin(words, t + 1, parts); ++w) {
            std::uint64_t b = has[w];
            has[w] = 0;
            while (b) {
                const lindex_t v = lindex_t(w * 64 + std::size_t(std::countr_zero(b)));
                b &= b - 1;
                oi[o] = v;
                ov[o++] = best[v];
            }
        }
    });
}

/// Appends the candidates of a piece to a list and marks them done: for each output v marked
/// in `has[0 .. bitmap_words(length))`, in ascending order, ids gets `first + v` and vals
/// best[v]; `done` takes the marks and `has` is cleared. (The contiguous ascending schedule
/// of the rotating pull, whose finds are final: one pass over the piece's words.) The lists
/// are std::vectors, or detail::OverwriteVectors, which grow without zeroing first.
template <class Y, class Ids, class Vals>
void append_final_candidates(std::uint64_t* has, const Y* best, lindex_t length,
                             std::uint64_t* done, lindex_t first, Ids& ids, Vals& vals) {
    const std::size_t words = bitmap_words(length);
    std::size_t count = 0;
    for (std::size_t w = 0; w < words; ++w) count += std::size_t(std::popcount(has[w]));
    if (count == 0) return;
    // Written through pointers into the grown lists: push_back stores the lists' ends on
    // every find (a 2 x 2 BFS at Kronecker scale 20 spent 4.4 per cent of its CPU here so).
    const std::size_t at = ids.size();
    detail::resize_to_overwrite(ids, at + count);
    detail::resize_to_overwrite(vals, at + count);
    lindex_t* oi = ids.data() + at;
    Y* ov = vals.data() + at;
    for (std::size_t w = 0; w < words; ++w) {
        std::uint64_t b = has[w];
        if (!b) continue;
        has[w] = 0;
        done[w] |= b;
        while (b) {
            const lindex_t v = lindex_t(w * 64 + std::size_t(std::countr_zero(b)));
            b &= b - 1;
            *oi++ = first + v;
            *ov++ = best[v];
        }
    }
}

/// Merges two candidate lists with ascending outputs and no output in both, (a_ids, a_vals)
/// of length na and (b_ids, b_vals) of length nb, into out_ids / out_vals (na + nb long,
/// aliasing neither): the lists of different finders of one piece. Returns false where a
/// list names an output twice or out of order, or one the other names (the outputs then
/// hold the merge regardless). Branch-free: the finders' outputs interleave at random.
template <class Y>
bool merge_disjoint_candidates(const lindex_t* ai, const Y* av, std::size_t na, const lindex_t* bi,
                               const Y* bv, std::size_t nb, lindex_t* oi, Y* ov) {
    std::size_t i = 0, j = 0, n = 0;
    bool bad = false;
    lindex_t last = 0;
    while (i < na && j < nb) {
        const lindex_t va = ai[i], vb = bi[j];
        const bool from_a = va < vb;
        const lindex_t v = from_a ? va : vb;
        bad |= (va == vb) | ((n != 0) & (v <= last));
        oi[n] = v;
        ov[n] = from_a ? av[i] : bv[j];
        ++n;
        last = v;
        i += from_a;
        j += !from_a;
    }
    // The rest of the longer list (checked to ascend from the last output taken).
    const bool rest_a = i < na;
    const lindex_t* ri = rest_a ? ai : bi;
    const Y* rv = rest_a ? av : bv;
    const std::size_t end = rest_a ? na : nb;
    for (std::size_t k = rest_a ? i : j; k < end; ++k) {
        bad |= (n != 0) & (ri[k] <= last);
        last = ri[k];
        oi[n] = ri[k];
        ov[n] = rv[k];
        ++n;
    }
    return !bad;
}

/// merge_disjoint_candidates() of two lists held in containers (std::vector, ValueArray or
/// detail::OverwriteVector), resizing out_ids / out_vals to the merge's length. The outputs
/// are written through pointers: with push_back, whose end pointer the loop stores on every
/// step, a standalone timing of 65 K + 32 K interleaved candidates took 0.57 ms against 0.34.
template <class IdsA, class ValsA, class IdsB, class ValsB, class IdsOut, class ValsOut>
bool merge_disjoint_candidates(const IdsA& a_ids, const ValsA& a_vals, const IdsB& b_ids,
                               const ValsB& b_vals, IdsOut& out_ids, ValsOut& out_vals) {
    const std::size_t na = a_ids.size(), nb = b_ids.size();
    detail::resize_to_overwrite(out_ids, na + nb);
    detail::resize_to_overwrite(out_vals, na + nb);
    return merge_disjoint_candidates(a_ids.data(), a_vals.data(), na, b_ids.data(), b_vals.data(),
                                     nb, out_ids.data(), out_vals.data());
}

}  // namespace gridblas::kernels
