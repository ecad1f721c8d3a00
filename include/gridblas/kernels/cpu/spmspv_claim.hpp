#pragma once
/// @file spmspv_claim.hpp
/// @brief Push SpMSpV for the positional semirings (any_secondi, min_secondi): the top-down
/// BFS step in one pass over the frontier's edges.
///
/// With a positional semiring every product of input column j is j's global index, so an
/// output's value depends only on which inputs reach it: no values need gathering, bucketing
/// or sorting by output. The inputs ascend and each thread takes its slices of the products
/// in ascending order, so the first product of a thread to reach an output carries that
/// thread's smallest input for it. A thread therefore tests and sets one bit per product in a
/// bitmap of its own (n / 8 bytes, which stays in a core's cache; a masked call of many
/// products starts it as the mask's excluded outputs, so that a product tests one bit, not
/// two), and only its first claims go on to the output's slot, which holds the input's
/// position in the call's input list: 2 bytes when the call has fewer than 2^16 inputs (a BFS
/// level expanding a few hundred hubs), so that a thread's slots for 2^20 outputs fit in a
/// core's L2 cache, and 4 bytes otherwise.
/// A thread stores plainly into slots of its own when at most four threads claim (each thread
/// then takes one contiguous run of the products, so the first thread in input order to claim
/// an output holds its smallest input, and the drain reads that thread's slot); with more
/// threads, into shared slots by a compare-and-swap that lowers the slot ("min") or fills it
/// while it is empty ("any"), the swap that replaces the empty marker being the output's
/// claim. On two threads the private slots made the claims of the largest level of a scale-20
/// BFS about a fifth faster than the compare-and-swap. Where the inputs' columns are long (a
/// level expanding hubs), two to four threads instead split the outputs into ranges, one
/// each, and share one bitmap and one array of slots: a thread reads the part of every
/// column that falls in its range, so no output is claimed twice and the drain reads one
/// bitmap (on that scale-20 level, 2 threads: 2.2-2.8 ms against 2.8-3.4 for runs of the
/// products, eight interleaved pairs). This is the queue-based top-down step of
/// Beamer, Asanović & Patterson ("Direction-optimizing breadth-first search", SC 2012) written
/// as a masked SpMSpV; the work is split into equal slices of products, not of inputs (Azad &
/// Buluç, IPDPS 2017), so a hub column spreads over the threads. The output is then read in
/// index order from the threads' bitmaps, through a summary bit per 64 outputs (or, for a few
/// dozen outputs in a long block, by sorting the claimed lists). A call of a few thousand
/// products or fewer skips the bitmaps: on one thread, a call of up to four inputs merges
/// their columns straight into the result; otherwise its claims become (output, input) keys,
/// one sorted run per input, merged, or sorted by insertion when the runs are many and short (a
/// mesh's levels, whose runs interleave only locally); calls of up to 16,384 products take that
/// path too while such insertion sorts finish (spmspv_claim_sorted.hpp). From a few hundred inputs
/// the threads plan the call and sort its claims together, in one parallel region. Min results are
/// exact and deterministic; any results may differ from run to run, as the semiring allows.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "gridblas/kernels/cpu/mask.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/spmspv_claim_sorted.hpp"
#include "gridblas/kernels/cpu/spmspv_claim_workspace.hpp"
#include "gridblas/kernels/cpu/spmspv_workspace.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/matrix/detail/huge_pages.hpp"
#include "gridblas/semirings/semiring.hpp"
#include "gridblas/vector/sparse_vector.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace gridblas::kernels {

namespace detail {

/// Products per unit of work of spmspv_claim().
inline constexpr std::size_t kClaimSlice = 4096;

/// How many claims ahead spmspv_claim() prefetches the output slot. The slots a column's
/// entries name are scattered over the block (2 or 4 bytes each: 2 or 4 MB at 2^20 outputs,
/// about a core's L2 or more), and the hardware cannot guess the next one.
inline constexpr std::size_t kSlotsAhead = 16;

/// Up to this many claiming threads keep private slots (thread 0 the shared `best`, the
/// others 2 or 4 bytes per output each) and store into them plainly; more threads lower shared
/// slots by compare-and-swap. The drain takes each output's value from the first thread, in
/// input order, that claimed it.
inline constexpr int kMaxPrivateSlotThreads = 4;

/// A masked call whose products number at least this many times its threads' bitmap words
/// starts each thread's bitmap as a copy of the outputs the mask excludes (and zeroes it
/// again after the drain), so that a product's claim test is one bitmap load instead of two
/// (the mask's bit and the thread's): the copy and the clearing cost about a word's worth
/// of work per word, a load saved per product repays them from one product per word.
inline constexpr offset_t kClaimMaskInBitmapProducts = 1;

/// Inputs per unit of the policy's work in spmspv_claim()'s plan: finding an input's column
/// is a cache miss or two, worth several products.
inline constexpr std::size_t kClaimPlanWork = 8;

/// Threads of a call of `flops` products that sorts its claims after its plan: one per
/// ws.sort_products_per_thread products.
template <class Y>
int claim_sort_threads(const ClaimWorkspace<Y>& ws, offset_t flops) {
    return threads_per_share(ws.policy, std::size_t(flops),
                             std::size_t(ws.sort_products_per_thread));
}

/// Threads that plan a call of `inputs` inputs together and sort its claims if they are few:
/// one per ws.sort_inputs_per_thread inputs; 1: the plan comes first, alone (or in
/// plan_inputs()'s region).
template <class Y>
int claim_team_threads(const ClaimWorkspace<Y>& ws, std::size_t inputs) {
    return threads_per_share(ws.policy, inputs, ws.sort_inputs_per_thread);
}

/// The slots of the first claiming thread (in input order) whose word `mine[t]` has bit b:
/// a chain of selects, no branch.
template <class Slot>
const Slot* first_claim(std::span<Slot* const> slot_of, const std::uint64_t* mine, unsigned b) {
    const Slot* src = slot_of[slot_of.size() - 1];
    for (std::size_t t = slot_of.size() - 1; t-- > 0;) {
        src = ((mine[t] >> b) & 1) != 0 ? slot_of[t] : src;
    }
    return src;
}

/// The drain of the claims: the outputs with best[i] != none in index order, with their
/// values (`value_of(k)` for the input position k each one's slot holds), and best reset.
/// The claimed outputs are known from the claiming threads' bitmaps (`claimed`) and, one
/// level up, from their summaries (`summary`: bit w set when word w of the bitmap may hold a
/// claim), so the drain visits only the words that hold claims: its cost follows the outputs
/// found plus n / 4096 summary words per claiming thread, whether the output is dense (a
/// BFS's largest level) or a few hundred vertices (each level of a high-diameter graph). Both
/// levels are left all zero. Several threads each take a range of summary words: a first pass
/// merges the threads' words and counts, the second writes out. A claimed bit of word w is
/// one of `claimed_of(bits, w)`, the thread's bitmap word `bits` less what the call started it
/// with (kClaimMaskInBitmapProducts); `clear_all`: every word of the bitmaps is zeroed, not only
/// those holding claims (which each drain thread does for its range of words). `epilogue`
/// (null: none): each drain thread hands it the outputs it wrote, with their values, right
/// after writing them (see ClaimWorkspace::epilogue): by then the thread has read the last of
/// the mask's words in its range, which no other thread reads.
template <class Y, class Slot, class ValueOf, class ClaimedOf>
void drain_best(Slot* best, lindex_t n, ValueOf value_of, SparseVector<Y>& y,
                std::span<std::vector<std::uint64_t>> claimed,
                std::span<std::vector<std::uint64_t>> summary, std::vector<std::uint64_t>& occupied,
                std::vector<std::uint64_t>& occupied_summary, std::vector<std::size_t>& counts,
                int threads, std::span<Slot* const> slot_of, ClaimedOf claimed_of, bool clear_all,
                const typename ClaimWorkspace<Y>::Epilogue* epilogue) {
    constexpr Slot none = kNoSlot<Slot>;
    const std::size_t words = bitmap_words(n);
    const std::size_t sums = bitmap_words(lindex_t(words));
    occupied.resize(words);  // only the words named by occupied_summary are written and read
    occupied_summary.resize(sums);
    std::uint64_t* occ = occupied.data();
    std::uint64_t* occ_sum = occupied_summary.data();
    counts.assign(std::size_t(threads) + 1, 0);
    run_parts(threads, [&](int t) {
        std::size_t c = 0;
        for (std::size_t sw = part_begin(sums, t, threads); sw < part_begin(sums, t + 1, threads);
             ++sw) {
            std::uint64_t m = 0;
            for (std::vector<std::uint64_t>& sb : summary) {
                m |= sb[sw];
                sb[sw] = 0;
            }
            occ_sum[sw] = m;
            for (; m != 0; m &= m - 1) {
                const std::size_t w = sw * 64 + std::size_t(std::countr_zero(m));
                std::uint64_t v = 0;
                for (std::vector<std::uint64_t>& bits : claimed) v |= claimed_of(bits[w], w);
                occ[w] = v;
                c += std::size_t(std::popcount(v));
            }
        }
        counts[std::size_t(t) + 1] = c;
    });
    for (int t = 0; t < threads; ++t) counts[std::size_t(t) + 1] += counts[std::size_t(t)];
    const std::size_t total = counts[std::size_t(threads)];
    ::gridblas::detail::reserve_huge(y.indices(), total);
    y.values().reserve_huge(total);
    y.indices().resize(total);
    y.values().resize_for_overwrite(total);
    lindex_t* yi = y.indices().data();
    Y* yv = y.values().data();
    run_parts(threads, [&](int t) {
        std::size_t o = counts[std::size_t(t)];
        for (std::size_t sw = part_begin(sums, t, threads); sw < part_begin(sums, t + 1, threads);
             ++sw) {
            for (std::uint64_t m = occ_sum[sw]; m != 0; m &= m - 1) {
                const std::size_t w = sw * 64 + std::size_t(std::countr_zero(m));
                // Which thread claimed what, for the slots (one array, `best`, unless the
                // claiming threads kept private slots); then the words are cleared.
                std::uint64_t mine[kMaxPrivateSlotThreads] = {};
                for (std::size_t t = 0; t < claimed.size(); ++t) {
                    if (t < slot_of.size()) mine[t] = claimed_of(claimed[t][w], w);
                    claimed[t][w] = 0;
                }
                for (std::uint64_t v = occ[w]; v != 0; v &= v - 1) {
                    const unsigned b = unsigned(std::countr_zero(v));
                    const std::size_t i = w * 64 + b;
                    yi[o] = lindex_t(i);
                    yv[o++] = value_of(first_claim(slot_of, mine, b)[i]);
                    best[i] = none;
                }
            }
        }
        const std::size_t from = counts[std::size_t(t)];
        if (epilogue != nullptr && o > from) {
            (*epilogue)(std::span<const lindex_t>(yi + from, o - from),
                        std::span<const Y>(yv + from, o - from));
        }
        if (clear_all) {
            const std::size_t lo = std::min(words, part_begin(sums, t, threads) * 64);
            const std::size_t hi = std::min(words, part_begin(sums, t + 1, threads) * 64);
            for (std::vector<std::uint64_t>& bits : claimed) {
                std::fill(bits.begin() + std::ptrdiff_t(lo), bits.begin() + std::ptrdiff_t(hi), 0);
            }
        }
    });
}

/// The claims of one column's entries [p, stop), each naming a different output: all are
/// tested against the claim bitmap `bits` (and `allow`) before any bit is set, so that the
/// tests are loads only, free of the chain that a test-and-set forms through a word several
/// entries share (a hub's outputs ascend, several to a word). The new claims' outputs go to
/// take_i from position `added` on, and only then their column position `pos` to take_k:
/// stored with every tested entry (at the running count, as take_i is), it made the claims
/// of a hub level a third slower on one thread (bench_local Claim/scale:20/top:512: 10.4-11.8
/// ms against 6.1-8.5). Returns the new count; take_i needs room for stop - p more.
template <class Slot, class Allow>
std::size_t claim_column_tested_first(const lindex_t* p, const lindex_t* stop, Allow allow,
                                      std::uint64_t* bits, lindex_t* take_i, Slot* take_k, Slot pos,
                                      std::size_t added) {
    const std::size_t from = added;
    for (; p < stop; ++p) {
        const lindex_t i = *p;
        const bool take = allow(i) & (((bits[i >> 6] >> (i & 63)) & 1) == 0);
        take_i[added] = i;
        added += take;
    }
    for (std::size_t q = from; q < added; ++q) {
        bits[take_i[q] >> 6] |= std::uint64_t(1) << (take_i[q] & 63);
        take_k[q] = pos;
    }
    return added;
}

/// Stores claims (outputs take_i, positions take_k, `count` of them) plainly into `slots`,
/// which no other thread writes at those outputs, marks their words in `summary` and lists
/// the outputs in `list`. The slots are prefetched kSlotsAhead claims ahead.
template <class Slot>
void store_claims(const lindex_t* take_i, const Slot* take_k, std::size_t count, Slot* slots,
                  std::uint64_t* summary, std::vector<lindex_t>& list) {
    for (std::size_t q = 0; q < count; ++q) {
        if (q + kSlotsAhead < count) __builtin_prefetch(slots + take_i[q + kSlotsAhead], 1);
        const lindex_t i = take_i[q];
        slots[i] = take_k[q];
        summary[i >> 12] |= std::uint64_t(1) << ((i >> 6) & 63);
    }
    list.insert(list.end(), take_i, take_i + count);
}

/// Outputs per summary word of a claim bitmap: the bounds of claim_split_outputs()'s ranges
/// are multiples of this, so that no word of the bitmap or of its summary has two writers.
inline constexpr lindex_t kClaimSplitAlign = 4096;

/// The claims of a call on `threads` threads (2 to kMaxPrivateSlotThreads), each taking one
/// range of the outputs, in one bitmap (ws.claimed[0], summary ws.summary[0]) and one array of
/// slots (`best`): thread t reads, input after input in ascending order, the entries of each
/// input's column that fall in its range (found by binary search, the column's inner ids
/// ascending), so an output is claimed once, by its own thread, for its smallest input. The
/// bounds lie at the outputs of evenly spaced products (a sample of them, sorted), rounded to
/// kClaimSplitAlign, so that the threads get about equal shares of the products. Against
/// one run of the products per thread (claim_into_slots()'s other way), an output reached
/// from both runs is claimed once, not twice, each thread's bitmap and slots cover only its
/// range, and the drain reads one bitmap; each thread looks up every input's column, hence the
/// condition on products per input (ClaimWorkspace::split_outputs_min_run). `with_mask_bits`:
/// each thread first sets its range of the bitmap to the outputs the mask excludes.
template <class Y, class Slot, class A, class Allow>
void claim_split_outputs(const CompressedView<A>& a, std::size_t inputs, const offset_t* first,
                         const offset_t* start, Allow allow, const MaskView& mask,
                         bool with_mask_bits, Slot* best, int threads, ClaimWorkspace<Y>& ws) {
    const lindex_t n = a.n_inner;
    const lindex_t* inner = a.inner;
    const offset_t flops = start[inputs];
    // The bounds: 64 sampled products per thread, at evenly spaced positions.
    const std::size_t samples = std::size_t(64) * std::size_t(threads);
    std::vector<lindex_t>& sample = ws.split_samples;
    sample.resize(samples);
    for (std::size_t s = 0; s < samples; ++s) {
        const offset_t p = offset_t((2 * std::uint64_t(s) + 1) * std::uint64_t(flops) /
                                    (2 * std::uint64_t(samples)));
        const std::size_t k =
            std::size_t(std::upper_bound(start, start + inputs + 1, p) - start) - 1;
        sample[s] = inner[first[k] + (p - start[k])];
    }
    std::sort(sample.begin(), sample.end());
    lindex_t bound[kMaxPrivateSlotThreads + 1] = {0};
    for (int t = 1; t < threads; ++t) {
        const lindex_t at = sample[part_begin(samples, t, threads)];
        const lindex_t rounded = lindex_t((std::uint64_t(at) + kClaimSplitAlign / 2) /
                                          kClaimSplitAlign * kClaimSplitAlign);
        bound[t] = std::clamp(rounded, bound[t - 1], n);
    }
    bound[threads] = n;
    std::uint64_t* bits = ws.claimed[0].data();
    std::uint64_t* summary = ws.summary[0].data();
    run_parts(threads, [&](int worker) {
        const lindex_t lo = bound[worker];
        const lindex_t hi = bound[worker + 1];
        if (lo == hi) return;
        std::vector<lindex_t>& mine = ws.lists[std::size_t(worker)];
        if (with_mask_bits) {
            for (std::size_t w = lo / 64; w < bitmap_words(hi); ++w) bits[w] = ~mask.word(w, n);
        }
        lindex_t take_i[kClaimSlice];
        Slot take_k[kClaimSlice];
        std::size_t added = 0;
        const auto flush = [&] {
            store_claims(take_i, take_k, added, best, summary, mine);
            added = 0;
        };
        for (std::size_t k = 0; k < inputs; ++k) {
            const lindex_t* col = inner + first[k];
            const lindex_t* col_end = col + (start[k + 1] - start[k]);
            const lindex_t* p = lo == 0 ? col : std::lower_bound(col, col_end, lo);
            const lindex_t* e = hi == n ? col_end : std::lower_bound(p, col_end, hi);
            const Slot pos = Slot(k);
            while (p < e) {
                if (added == kClaimSlice) flush();
                const lindex_t* stop =
                    p + std::min<std::size_t>(kClaimSlice - added, std::size_t(e - p));
                added = claim_column_tested_first(p, stop, allow, bits, take_i, take_k, pos, added);
                p = stop;
            }
        }
        flush();
    });
}

/// spmspv_claim() past its plan, for a call of more than ws.sort_products_max products: the
/// claims into the threads' bitmaps and slots of width Slot, then the drain.
template <class S, class Slot, class A, class ToGlobal>
void claim_into_slots(const CompressedView<A>& a, std::span<const lindex_t> ids,
                      const offset_t* first, const offset_t* start, ToGlobal to_global,
                      const MaskView& mask, SparseVector<typename S::value_type>& y,
                      ClaimWorkspace<typename S::value_type>& ws) {
    using Y = typename S::value_type;
    constexpr bool keep_min = !semiring_has_terminal<S>();
    constexpr Slot none = kNoSlot<Slot>;
    const lindex_t n = a.n_inner;
    const std::size_t inputs = ids.size();
    const offset_t flops = start[inputs];
    ClaimSlotStore& sl = ws.slots;
    const std::size_t slot_words = (std::size_t(n) * sizeof(Slot) + 3) / 4;
    if (sl.best.size() < slot_words) {
        ::gridblas::detail::reserve_huge(sl.best, slot_words);  // read at random
        sl.best.resize(slot_words, ~std::uint32_t(0));
    }
    if (sl.width != sizeof(Slot)) {
        // The storage was last read and written in the other width. Its bytes are all 0xff
        // already; rewriting them as bytes keeps the compiler from moving this call's
        // accesses of one type across the last call's of the other.
        std::memset(sl.best.data(), 0xff, sl.best.size() * sizeof(std::uint32_t));
        sl.width = unsigned(sizeof(Slot));
    }
    const std::size_t words = bitmap_words(n);
    const int threads = threads_for(ws.policy, std::size_t(flops));
    // A few threads with long columns to read split the outputs between them, in one bitmap
    // (claim_split_outputs()), where there are outputs enough for two ranges of
    // kClaimSplitAlign each; otherwise each thread claims into a bitmap of its own.
    const bool split_outputs =
        threads > 1 && threads <= kMaxPrivateSlotThreads &&
        flops / offset_t(inputs) >= ws.split_outputs_min_run &&
        std::size_t(n) >= 2 * std::size_t(threads) * std::size_t(kClaimSplitAlign);
    const std::size_t bitmaps = split_outputs ? 1 : std::size_t(threads);
    if (ws.lists.size() < std::size_t(threads)) ws.lists.resize(std::size_t(threads));
    if (ws.claimed.size() < bitmaps) ws.claimed.resize(bitmaps);
    if (ws.summary.size() < bitmaps) ws.summary.resize(bitmaps);
    const std::size_t sums = bitmap_words(lindex_t(words));
    for (std::size_t t = 0; t < bitmaps; ++t) {
        if (ws.claimed[t].size() != words) ws.claimed[t].assign(words, 0);
        if (ws.summary[t].size() != sums) ws.summary[t].assign(sums, 0);
    }
    for (auto& l : ws.lists) l.clear();  // also those of threads the runtime may not start
    Slot* best = reinterpret_cast<Slot*>(sl.best.data());
    // A few threads store into slots of their own (thread 0 into `best`), so no claim needs
    // an atomic; each thread then takes one contiguous run of the products, so that thread
    // t's inputs all come before thread t + 1's and the first claimer of an output has the
    // smallest input. More threads share `best` and take slices as they come.
    const bool private_slots = !split_outputs && threads > 1 && threads <= kMaxPrivateSlotThreads;
    Slot* slots_of[kMaxPrivateSlotThreads] = {best};  // where each claiming thread's slots are
    std::size_t slot_arrays = 1;
    if (private_slots) {
        if (sl.priv.size() < std::size_t(threads)) sl.priv.resize(std::size_t(threads));
        for (int t = 1; t < threads; ++t) {
            std::vector<std::uint32_t>& mine = sl.priv[std::size_t(t)];
            if (mine.size() < slot_words) {
                ::gridblas::detail::reserve_huge(mine, slot_words);
                mine.resize(slot_words);  // read only where the thread claimed: any contents
            }
            slots_of[slot_arrays++] = reinterpret_cast<Slot*>(mine.data());
        }
    }
    const std::span<Slot* const> slot_of(slots_of, slot_arrays);
    // Slices of up to kClaimSlice products, at least four per thread (a level of a mesh is a
    // few thousand products), and not below 256.
    const offset_t slice = threads == 1 ? offset_t(kClaimSlice)
                                        : std::clamp<offset_t>(flops / offset_t(4 * threads), 256,
                                                               offset_t(kClaimSlice));
    const std::size_t slices = std::size_t((flops + slice - 1) / slice);
    // Shared slots: slices are handed out in ascending order from one counter, so each
    // thread's products come in ascending input order (which a dynamic schedule does in
    // practice but OpenMP does not promise).
    std::atomic<std::size_t> next_slice{0};
    // A call of many products per bitmap word starts each thread's bitmap with the outputs
    // the mask excludes set, and tests only that bitmap (kClaimMaskInBitmapProducts); its
    // claims are then the bits the mask allows.
    const bool mask_in_bitmap = !mask.allows_all() && flops >= offset_t(words) * offset_t(bitmaps) *
                                                                   kClaimMaskInBitmapProducts;
    const auto claimed_of = [&mask, n, mask_in_bitmap](std::uint64_t bits, std::size_t w) {
        return mask_in_bitmap ? bits & mask.word(w, n) : bits;
    };
    const auto claim = [&](auto allow) {
        run_parts(threads, [&](int worker) {
            const std::size_t me = std::size_t(worker);
            std::vector<lindex_t>& mine = ws.lists[me];
            std::uint64_t* my_bits = ws.claimed[me].data();
            std::uint64_t* my_summary = ws.summary[me].data();
            if (mask_in_bitmap) {
                for (std::size_t w = 0; w < words; ++w) my_bits[w] = ~mask.word(w, n);
            }
            // This slice's first claims: outputs, and the positions of their inputs.
            lindex_t take_i[kClaimSlice];
            Slot take_k[kClaimSlice];
            Slot* my_slots = private_slots ? slots_of[me] : best;
            const std::size_t my_end =
                private_slots ? part_begin(slices, worker + 1, threads) : slices;
            auto next = [&](std::size_t c) {
                return private_slots ? c + 1 : next_slice.fetch_add(1, std::memory_order_relaxed);
            };
            for (std::size_t c = private_slots ? part_begin(slices, worker, threads)
                                               : next_slice.fetch_add(1, std::memory_order_relaxed);
                 c < my_end; c = next(c)) {
                const offset_t lo = offset_t(c) * slice;
                const offset_t hi = std::min(flops, lo + slice);
                // The input whose products contain `lo`, then onwards.
                std::size_t k =
                    std::size_t(std::upper_bound(start, start + inputs + 1, lo) - start) - 1;
                const lindex_t* inner = a.inner;
                const offset_t test_first = ws.test_first_min;
                std::size_t added = 0;
                for (offset_t f = lo; f < hi; ++k) {
                    // Short columns: the entries of the column 8 inputs ahead start loading.
                    if (k + 8 < inputs && start[k + 9] > start[k + 8]) {
                        __builtin_prefetch(inner + first[k + 8]);
                    }
                    const Slot pos = Slot(k);
                    const offset_t base = first[k] - start[k];
                    const offset_t stop = std::min(hi, start[k + 1]);
                    if (stop - f >= test_first) {
                        // A column names each output once: its products are all tested
                        // before any bit is set (claim_column_tested_first()).
                        added =
                            claim_column_tested_first(inner + base + f, inner + base + stop, allow,
                                                      my_bits, take_i, take_k, pos, added);
                        f = stop;
                        continue;
                    }
                    // Branch-free: whether an allowed output is new to this thread is about
                    // a coin flip on a BFS's largest level, which a branch mispredicts.
                    const std::size_t from = added;
                    for (; f < stop; ++f) {
                        const lindex_t i = inner[base + f];
                        const std::uint64_t bit = std::uint64_t(1) << (i & 63);
                        std::uint64_t& word = my_bits[i >> 6];
                        const bool take = allow(i) & ((word & bit) == 0);
                        word |= bit & (std::uint64_t(0) - std::uint64_t(take));
                        take_i[added] = i;
                        added += take;
                    }
                    std::fill(take_k + from, take_k + added, pos);
                }
                if (threads == 1 || private_slots) {
                    // Slots of its own: the thread's first claim of an output is, with
                    // ascending inputs, its smallest; the drain picks among the threads.
                    store_claims(take_i, take_k, added, my_slots, my_summary, mine);
                    continue;
                }
                // Several threads meet in the slots: "min" lowers a slot by compare-and-swap,
                // "any" fills it while it is empty; the swap replacing the empty marker is the
                // output's claim.
                for (std::size_t q = 0; q < added; ++q) {
                    if (q + kSlotsAhead < added) {
                        __builtin_prefetch(best + take_i[q + kSlotsAhead], 1);
                    }
                    const lindex_t i = take_i[q];
                    const Slot pos = take_k[q];
                    my_summary[i >> 12] |= std::uint64_t(1) << ((i >> 6) & 63);
                    std::atomic_ref<Slot> slot(best[i]);
                    Slot cur = slot.load(std::memory_order_relaxed);
                    while (keep_min ? pos < cur : cur == none) {
                        if (slot.compare_exchange_weak(cur, pos, std::memory_order_relaxed)) {
                            if (cur == none) mine.push_back(i);  // the output's claim
                            break;
                        }
                    }
                }
            }
        });
    };
    if (split_outputs) {
        if (mask_in_bitmap) {
            claim_split_outputs<Y, Slot>(a, inputs, first, start, AllowAll{}, mask, true, best,
                                         threads, ws);
        } else {
            with_mask(mask, [&](auto allow) {
                claim_split_outputs<Y, Slot>(a, inputs, first, start, allow, mask, false, best,
                                             threads, ws);
            });
        }
    } else if (mask_in_bitmap) {
        claim(AllowAll{});
    } else {
        with_mask(mask, claim);
    }
    std::size_t found = 0;
    for (int t = 0; t < threads; ++t) found += ws.lists[std::size_t(t)].size();
    // The drain visits the words holding claims (through the summaries), unless so few
    // outputs were found that sorting the lists costs less than reading the summaries.
    if (sums * bitmaps < found * 32) {
        auto drain = [&](auto value_of) {
            drain_best(best, n, value_of, y, std::span(ws.claimed.data(), bitmaps),
                       std::span(ws.summary.data(), bitmaps), ws.occupied, ws.occupied_summary,
                       ws.counts, threads_for(ws.policy, found * 4), slot_of, claimed_of,
                       mask_in_bitmap, ws.epilogue);
            ws.epilogue_ran = ws.epilogue != nullptr;
        };
        if (inputs > found) {
            drain([&](Slot k) { return Y(to_global(ids[k])); });
            return;
        }
        // Fewer inputs than outputs (a BFS level from a few hundred hubs): each input's value
        // once, so that an output's is one load from a table that stays in the L1 cache.
        ws.input_values.resize(inputs);
        for (std::size_t k = 0; k < inputs; ++k) ws.input_values[k] = Y(to_global(ids[k]));
        drain([values = ws.input_values.data()](Slot k) { return values[k]; });
        return;
    }
    auto& yi = y.indices();
    yi.clear();
    for (int t = 0; t < threads; ++t) {
        const auto& l = ws.lists[std::size_t(t)];
        yi.insert(yi.end(), l.begin(), l.end());
    }
    std::sort(yi.begin(), yi.end());
    yi.erase(std::unique(yi.begin(), yi.end()), yi.end());  // private slots list each claimer
    y.values().resize_for_overwrite(yi.size());
    Y* yv = y.values().data();
    for (std::size_t q = 0; q < yi.size(); ++q) {
        const lindex_t i = yi[q];
        std::uint64_t mine[kMaxPrivateSlotThreads] = {};
        for (std::size_t t = 0; t < slot_of.size(); ++t) {
            mine[t] = claimed_of(ws.claimed[t][i >> 6], i >> 6);
        }
        yv[q] = Y(to_global(ids[first_claim(slot_of, mine, unsigned(i & 63))[i]]));
        best[i] = none;
    }
    // Every claim bit in a thread's bitmap (or its summary) is an output of yi, so each word
    // holding one of them can be zeroed whole; bitmaps that started with the mask's bits are
    // zeroed everywhere.
    for (std::size_t t = 0; t < bitmaps; ++t) {
        std::uint64_t* b = ws.claimed[t].data();
        std::uint64_t* sb = ws.summary[t].data();
        if (mask_in_bitmap) std::fill(b, b + words, 0);
        for (lindex_t i : yi) {
            b[i >> 6] = 0;
            sb[i >> 12] = 0;
        }
    }
}

}  // namespace detail

/// y⟨mask⟩ = A ⊕.⊗ x for a positional semiring S, x given by its entries' inner ids `ids`
/// (ascending; values are never read) and `to_global(j)`, the global index a product of
/// column j yields, which must increase with j (the smallest input id gives the smallest
/// global index). `a` has outer = input (as for spmspv()). y gets length a.n_inner, ascending
/// indices. Returns the entries read.
///
/// Each output keeps the position of an input in `ids` (its slot: 16 bits for calls of fewer
/// than 2^16 inputs, 32 otherwise); a product first tests and sets the output's bit in the
/// thread's own bitmap, and only the thread's first claim of an output reaches the slot (see
/// the file comment).
template <class S, class A, class ToGlobal>
KernelStats spmspv_claim(const CompressedView<A>& a, std::span<const lindex_t> ids,
                         ToGlobal to_global, const MaskView& mask,
                         SparseVector<typename S::value_type>& y,
                         ClaimWorkspace<typename S::value_type>& ws) {
    static_assert(semiring_is_positional<S>(), "spmspv_claim: S must be a positional semiring");
    const lindex_t n = a.n_inner;
    if (y.size() != n) y.reset(n);
    y.clear();
    ws.epilogue_ran = false;
    KernelStats st;
    st.method = SpmspvMethod::spa;
    if (mask.allows_none() || ids.empty() || a.nnz() == 0) return st;
    // Plan: each input's first entry and the running count of its entries, so that threads
    // can take equal slices of the products whatever the column lengths (one hub column must
    // not become one thread's work).
    const std::size_t inputs = ids.size();
    ws.first.resize(inputs);
    ws.start.resize(inputs + 1);
    offset_t* first = ws.first.data();
    offset_t* start = ws.start.data();
    offset_t flops = 0;
    bool sorted = false;
    const int team = detail::claim_team_threads(ws, inputs);
    if (team > 1) {
        // Enough inputs for several threads: they plan and, if the call's products are few
        // enough, sort the claims in one parallel region.
        detail::with_mask(mask, [&](auto allow) {
            flops = detail::claim_by_sorting_parallel(a, ids, first, start, to_global, allow, y, ws,
                                                      true, team, sorted);
        });
    } else {
        const int plan_threads = detail::threads_for(ws.policy, inputs * detail::kClaimPlanWork);
        if (ws.part_sums.size() < std::size_t(plan_threads)) {
            ws.part_sums.resize(std::size_t(plan_threads));
        }
        detail::plan_inputs(a, ids.data(), inputs, first, start, ws.part_sums.data(), plan_threads);
        flops = start[inputs];
        if (flops != 0 && detail::claims_sorted(ws, flops)) {
            // Few inputs; several threads still sort their claims when they have many products
            // (a level of a few hubs).
            const int threads = detail::claim_sort_threads(ws, flops);
            const bool few = flops <= ws.sort_products_max;
            detail::with_mask(mask, [&](auto allow) {
                if (threads > 1) {
                    detail::claim_by_sorting_parallel(a, ids, first, start, to_global, allow, y, ws,
                                                      false, threads, sorted);
                } else {
                    sorted = detail::claim_by_sorting(a, ids, first, start, to_global, allow, y, ws,
                                                      !few);
                }
            });
        }
    }
    st.entries = flops;
    if (flops == 0) return st;
    if (sorted) {
        st.nvals = y.nvals();
        return st;
    }
    if (inputs < std::size_t(detail::kNoSlot<std::uint16_t>)) {
        // Positions up to 2^16 - 2: the empty marker stays free.
        detail::claim_into_slots<S, std::uint16_t>(a, ids, first, start, to_global, mask, y, ws);
    } else {
        detail::claim_into_slots<S, std::uint32_t>(a, ids, first, start, to_global, mask, y, ws);
    }
    st.nvals = y.nvals();
    return st;
}

}  // namespace gridblas::kernels
