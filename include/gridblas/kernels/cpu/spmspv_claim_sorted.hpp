#pragma once
/// @file spmspv_claim_sorted.hpp
/// @brief spmspv_claim()'s path for calls of few products: the claims as sorted
/// (output, input position) keys instead of bitmaps and slots, on one thread or several.
///
/// Each allowed product of input k (its position in the call's input list) reaching output i
/// becomes the key i << 32 | k. A column's inner ids ascend, so the keys of one input form a
/// sorted run; once the runs are merged, the first key of each output carries its smallest
/// input, which is what both positional semirings keep (min by definition, any by choice, so
/// that the result is deterministic). On several threads each takes a contiguous share of
/// the inputs (equal in count when the threads also plan the call, else in products), sorts
/// its keys and keeps one per output; then each merges the keys of one range of outputs from
/// every share (ranges cut so that each thread merges about as many keys), writes its
/// outputs at their place in y and hands them to the workspace's epilogue, if any
/// (ClaimWorkspace::epilogue). A call of up to four inputs on one thread writes no keys: it
/// merges its columns straight into y and hands y to the epilogue (claim_few_inputs()).

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>
#include <vector>

#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/spmspv_claim_workspace.hpp"
#include "gridblas/kernels/cpu/spmspv_workspace.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas::kernels::detail {

/// Sorts keys[0, n) by insertion while at most `budget` keys have been moved in all; returns
/// false (the keys permuted, not yet sorted) once more have. Keys that sit a place or two from
/// their sorted position cost about one comparison each.
inline bool insertion_sort_within(std::uint64_t* keys, std::size_t n, std::size_t budget) {
    std::size_t moved = 0;
    for (std::size_t q = 1; q < n; ++q) {
        const std::uint64_t x = keys[q];
        std::size_t p = q;
        for (; p > 0 && keys[p - 1] > x; --p) keys[p] = keys[p - 1];
        keys[p] = x;
        moved += q - p;
        if (moved > budget) return false;
    }
    return true;
}

/// Runs of at most this many keys on average are sorted by insertion first (see
/// sort_claim_keys), within kClaimInsertionMoves moves per key.
inline constexpr std::size_t kClaimShortRun = 4;
inline constexpr std::size_t kClaimInsertionMoves = 4;

/// collect_claim_keys() with its allow test as given.
template <class A, class Allow>
void collect_claim_keys_with(const CompressedView<A>& a, const offset_t* first,
                             const offset_t* start, offset_t start_lo, std::size_t k_lo,
                             std::size_t k_hi, Allow allow, ClaimKeys& keys, ClaimRuns& runs) {
    keys.resize(std::size_t(start[k_hi] - start_lo));  // the most there can be
    runs.resize(k_hi - k_lo + 1);
    std::uint64_t* out = keys.data();
    std::size_t* run_end = runs.data();
    const lindex_t* inner = a.inner;
    std::size_t n = 0;
    std::size_t r = 0;
    run_end[r++] = 0;
    offset_t before = start_lo;  // start[k]
    for (std::size_t k = k_lo; k < k_hi; ++k) {
        // The entries of the column 8 inputs ahead start loading: on a frontier of many short
        // columns (each level of a mesh) each column's first entry is a cache miss.
        if (k + 8 < k_hi && start[k + 9] > start[k + 8]) {
            __builtin_prefetch(inner + first[k + 8]);
        }
        const offset_t p0 = first[k];
        const offset_t p1 = p0 + (start[k + 1] - before);
        before = start[k + 1];
        const std::size_t had = n;
        for (offset_t p = p0; p < p1; ++p) {
            const lindex_t i = inner[p];
            out[n] = (std::uint64_t(i) << 32) | std::uint64_t(k);  // kept if allowed
            n += allow(i) ? 1 : 0;
        }
        run_end[r] = n;
        r += n != had ? 1 : 0;
    }
    keys.resize(n);
    runs.resize(r);
}

/// The keys of inputs [k_lo, k_hi): keys = their allowed products as output << 32 | k, runs =
/// 0 and the end of each input's run of keys (inputs with none add no run). `start_lo` is
/// start[k_lo], the products of the inputs before k_lo, given rather than read: inside a team
/// that is planning the call, the thread of the share before may still be writing that entry
/// (plan_share()). Written through local pointers: the vectors' own ends are stored once, at
/// the end. Given `lines` (ClaimWorkspace::epilogue_lines), each allowed output's entry there
/// is requested for writing as its claim is collected: on a 1024 x 1024 mesh (levels of a few
/// hundred inputs of two to four entries, each output's record entry a cache miss) this took
/// a search from 19-24 to 15-17 ms on one thread and from 15-26 to 12-21 on two (five rotating
/// rounds of 16 searches from vertex 0, AMD Zen 5 VM).
template <class A, class Allow>
void collect_claim_keys(const CompressedView<A>& a, const offset_t* first, const offset_t* start,
                        offset_t start_lo, std::size_t k_lo, std::size_t k_hi, Allow allow,
                        ClaimKeys& keys, ClaimRuns& runs, EpilogueLines lines = {}) {
    if (lines.base == nullptr) {
        collect_claim_keys_with(a, first, start, start_lo, k_lo, k_hi, allow, keys, runs);
        return;
    }
    // Each allowed output's entry is requested for writing as its claim is collected (a
    // disallowed one requests the first entry, already in cache, rather than branch).
    const auto allow_and_fetch = [&](lindex_t i) {
        const bool ok = allow(i);
        __builtin_prefetch(lines.base + (ok ? std::size_t(i) * lines.stride : 0), 1);
        return ok;
    };
    collect_claim_keys_with(a, first, start, start_lo, k_lo, k_hi, allow_and_fetch, keys, runs);
}

/// Merges neighbouring sorted runs of `keys` (bounded by `runs`) pairwise until one is left;
/// `other` is scratch of the same use (the two are swapped as passes go).
inline void merge_key_runs(ClaimKeys& keys, ClaimRuns& runs, ClaimKeys& other) {
    other.resize(keys.size());
    while (runs.size() > 2) {
        std::size_t kept = 1;
        for (std::size_t r = 0; r + 1 < runs.size(); r += 2) {
            const auto b = keys.begin();
            const std::size_t mid = runs[r + 1];
            const std::size_t end = r + 2 < runs.size() ? runs[r + 2] : mid;
            std::merge(b + std::ptrdiff_t(runs[r]), b + std::ptrdiff_t(mid),
                       b + std::ptrdiff_t(mid), b + std::ptrdiff_t(end),
                       other.begin() + std::ptrdiff_t(runs[r]));
            runs[kept++] = end;
        }
        runs.resize(kept);
        keys.swap(other);
    }
}

/// How sort_claim_keys() went with the insertion sort of many short runs.
enum class ShortRuns {
    not_tried,  ///< the runs were few or long (and the call did not ask for short ones only)
    sorted,     ///< sorted by insertion within the budget
    gave_up,    ///< not many short runs, or the insertion gave up
};

/// Sorts the runs of keys into one. Many short runs (a mesh's level: a few hundred inputs of
/// two or three allowed entries each) would take about ten merge passes; their keys are first
/// sorted by insertion, which costs little when the inputs' outputs interleave only locally
/// (on a mesh each key lies a place or two from its sorted position) and gives up after a few
/// moves per key, when std::sort finishes the job. Returns false (keys not sorted) when
/// `only_short_runs` and the keys are not many short runs or their insertion sort gave up (no
/// keys at all: nothing to sort, true).
inline bool sort_claim_keys(ClaimKeys& keys, ClaimRuns& runs, ClaimKeys& other,
                            bool only_short_runs, ShortRuns& how) {
    how = ShortRuns::not_tried;
    if (keys.empty()) return true;  // (a thread's share whose outputs were all masked)
    const std::size_t n_runs = runs.size() - 1;
    const bool short_runs = n_runs > 2 && n_runs * kClaimShortRun >= keys.size();
    if (only_short_runs && !short_runs) {
        how = ShortRuns::gave_up;
        return false;
    }
    if (short_runs) {
        const bool done =
            insertion_sort_within(keys.data(), keys.size(), kClaimInsertionMoves * keys.size());
        how = done ? ShortRuns::sorted : ShortRuns::gave_up;
        if (!done) {
            if (only_short_runs) return false;
            std::sort(keys.begin(), keys.end());
        }
        runs.assign({0, keys.size()});
    }
    merge_key_runs(keys, runs, other);
    return true;
}

/// Keeps the first of each output's sorted keys (its smallest input); returns how many.
inline std::size_t keep_first_per_output(std::uint64_t* keys, std::size_t n) {
    std::size_t o = 0;
    for (std::size_t q = 0; q < n; ++q) {
        if (o != 0 && (keys[q] >> 32) == (keys[o - 1] >> 32)) continue;
        keys[o++] = keys[q];
    }
    return o;
}

/// Writes the outputs of sorted keys, one per output, at y's entries [at, at + n).
template <class Y, class ToGlobal>
void write_claims(const std::uint64_t* keys, std::size_t n, std::span<const lindex_t> ids,
                  ToGlobal to_global, lindex_t* yi, Y* yv, std::size_t at) {
    for (std::size_t q = 0; q < n; ++q) {
        yi[at + q] = lindex_t(keys[q] >> 32);
        yv[at + q] = Y(to_global(ids[std::size_t(keys[q] & 0xffffffffu)]));
    }
}

/// Records how a call's insertion sorts went in ws.short_runs_sorted: cleared by one that gave
/// up, set by one that finished, kept when none ran.
template <class Y>
void note_short_runs(ClaimWorkspace<Y>& ws, ShortRuns how) {
    if (how != ShortRuns::not_tried) ws.short_runs_sorted = how == ShortRuns::sorted;
}

/// Row indices per 64-byte cache line.
inline constexpr std::size_t kLineEntries = 64 / sizeof(lindex_t);
/// claim_few_inputs() requests up to this many of each column's first entries before it merges.
inline constexpr std::size_t kMergePrefetchEntries = 32 * kLineEntries;

/// Calls of up to this many inputs merge their columns straight into y (claim_few_inputs()).
inline constexpr std::size_t kClaimMergeInputs = 4;
/// Two columns merge in runs (merge_two_by_runs()) where one has this many times the entries
/// of the other.
inline constexpr std::size_t kClaimRunMergeRatio = 4;

template <std::size_t K, class Y, class Allow>
std::size_t merge_columns(const lindex_t** at, const lindex_t** end, Y* value, Allow allow,
                          lindex_t* yi, Y* yv);

/// merge_columns() for the `live` (0 to kClaimMergeInputs) first columns.
template <class Y, class Allow>
std::size_t merge_live_columns(std::size_t live, const lindex_t** at, const lindex_t** end,
                               Y* value, Allow allow, lindex_t* yi, Y* yv) {
    static_assert(kClaimMergeInputs == 4, "merge_live_columns() dispatches one to four columns");
    switch (live) {
        case 1:
            return merge_columns<1>(at, end, value, allow, yi, yv);
        case 2:
            return merge_columns<2>(at, end, value, allow, yi, yv);
        case 3:
            return merge_columns<3>(at, end, value, allow, yi, yv);
        case 4:
            return merge_columns<4>(at, end, value, allow, yi, yv);
        default:
            return 0;
    }
}

/// merge_columns() of two columns one of which has at least kClaimRunMergeRatio times the
/// entries of the other: the longer column is copied in runs, each ended by the next entry of
/// the shorter, so that the loop branches once per entry of the shorter column (mispredicted
/// about once a run) rather than selecting between two heads at every output. On the second
/// level of a Kronecker scale-20 search (columns of 435 and 44 entries), in runs switching
/// between the two merges on every search (512 searches of one key, two threads, AMD Zen 5
/// VM), the level's median time was lower with this one in 12 runs of 13: 3.15-3.45 us against
/// 3.40-3.79 in the eight runs whose process was in its faster state.
template <class Y, class Allow>
std::size_t merge_two_by_runs(const lindex_t** at, const lindex_t** end, const Y* value,
                              Allow allow, lindex_t* yi, Y* yv) {
    const std::size_t l = end[0] - at[0] >= end[1] - at[1] ? 0 : 1;  // the longer
    const lindex_t* lp = at[l];
    const lindex_t* const le = end[l];
    const Y lv = value[l];
    const Y sv = value[1 - l];
    std::size_t n = 0;
    const auto put = [&](lindex_t i, Y v) {
        yi[n] = i;  // kept if allowed
        yv[n] = v;
        n += allow(i) ? 1 : 0;
    };
    for (const lindex_t* sp = at[1 - l]; sp != end[1 - l]; ++sp) {
        const lindex_t x = *sp;
        for (; lp != le && *lp < x; ++lp) put(*lp, lv);
        // A tie takes the value of the first column in call order.
        const bool tie = lp != le && *lp == x;
        put(x, tie ? value[0] : sv);
        lp += tie ? 1 : 0;
    }
    for (; lp != le; ++lp) put(*lp, lv);
    return n;
}

/// Merges K columns, each with entries [at[k], end[k]) and the value value[k], in call order,
/// into yi/yv (allowed outputs only); returns the outputs written. Each step takes the
/// smallest head, with the value of the first column whose head it is, and moves on every
/// column at that output, by selects rather than branches: the columns of a BFS level's few
/// inputs interleave at random, which a branch on the smaller head mispredicts at about every
/// other output. When a column ends the rest go on with one column fewer, down to a plain copy
/// of the last one.
template <std::size_t K, class Y, class Allow>
std::size_t merge_columns(const lindex_t** at, const lindex_t** end, Y* value, Allow allow,
                          lindex_t* yi, Y* yv) {
    std::size_t n = 0;
    if constexpr (K == 2) {
        const std::size_t len0 = std::size_t(end[0] - at[0]);
        const std::size_t len1 = std::size_t(end[1] - at[1]);
        if (std::min(len0, len1) * kClaimRunMergeRatio <= std::max(len0, len1)) {
            return merge_two_by_runs(at, end, value, allow, yi, yv);
        }
    }
    if constexpr (K == 1) {
        const Y v = value[0];
        for (const lindex_t* p = at[0]; p != end[0]; ++p) {
            yi[n] = *p;  // kept if allowed
            yv[n] = v;
            n += allow(*p) ? 1 : 0;
        }
        return n;
    } else {
        lindex_t head[K];
        for (std::size_t k = 0; k < K; ++k) head[k] = *at[k];  // each has an entry
        bool all_running = true;
        while (all_running) {
            lindex_t i = head[0];
            for (std::size_t k = 1; k < K; ++k) i = std::min(i, head[k]);
            Y v = value[K - 1];
            for (std::size_t k = K - 1; k-- > 0;) v = head[k] == i ? value[k] : v;
            yi[n] = i;
            yv[n] = v;
            n += allow(i) ? 1 : 0;
            for (std::size_t k = 0; k < K; ++k) {
                at[k] += head[k] == i ? 1 : 0;
                const bool running = at[k] != end[k];
                all_running = all_running && running;
                head[k] = running ? *at[k] : head[k];
            }
        }
        std::size_t live = 0;  // the columns not yet ended, in their order
        for (std::size_t k = 0; k < K; ++k) {
            if (at[k] == end[k]) continue;
            at[live] = at[k];
            end[live] = end[k];
            value[live] = value[k];
            ++live;
        }
        return n + merge_live_columns(live, at, end, value, allow, yi + n, yv + n);
    }
}

/// The claims of a call of at most kClaimMergeInputs inputs, merged from their columns into y
/// in one pass (merge_columns()). The keys' path writes each claim as a key, merges the runs,
/// keeps the first key per output and writes y from them: on the second level of a Kronecker
/// scale-20 search (two inputs, 479 products, 476 outputs) those passes took about 16,000
/// cycles, timed inside the search (rdtsc), and the level 9-20 us in all; a merge that
/// branched on the smaller head took 8,000-10,000 cycles (5,300-7,600 when run again at once,
/// its data in cache), this one 7,600-9,800 (4,200-4,300 again). The vertices' record, which
/// the BFS's epilogue then writes at random, took longer than either: 11,000-19,000 cycles.
/// Over nine rotating rounds of 256 searches (two threads) the level took 0.92 thousandths of
/// the search's time with this merge and the record in the same pass, 0.97 with the branching
/// merge and 1.10 with the keys (medians; this merge lower than the keys in nine of nine).
/// Where the caller lends `lines` (ClaimWorkspace::epilogue_lines) the merge requests each
/// output's epilogue entry as it meets it, so the record's misses overlap the merge: on a
/// faster VM (AMD Zen 5) the record then took 3,000-3,500 cycles against 7,000-10,000, and the
/// level 3.9-5.0 us (median) against 4.8-6.8, lower in six of six rotating rounds.
template <class Y, class A, class ToGlobal, class Allow>
void claim_few_inputs(const CompressedView<A>& a, std::span<const lindex_t> ids,
                      const offset_t* first, const offset_t* start, ToGlobal to_global, Allow allow,
                      SparseVector<Y>& y, EpilogueLines lines = {}) {
    const lindex_t* at[kClaimMergeInputs];
    const lindex_t* end[kClaimMergeInputs];
    Y value[kClaimMergeInputs];
    std::size_t live = 0;  // columns with entries, in call order
    for (std::size_t k = 0; k < ids.size(); ++k) {
        const offset_t count = start[k + 1] - start[k];
        if (count == 0) continue;
        at[live] = a.inner + first[k];
        end[live] = at[live] + count;
        value[live] = Y(to_global(ids[k]));
        ++live;
    }
    // The columns' first lines are requested before the merge: a few short columns read from
    // memory are streams too short for the hardware prefetcher to catch (on the second level
    // of a scale-20 search, two columns of 479 entries in all, this took the merge from about
    // 6,800 to 5,500 cycles). Longer columns are left to the hardware after their first lines.
    for (std::size_t k = 0; k < live; ++k) {
        const std::size_t len = std::min(std::size_t(end[k] - at[k]), kMergePrefetchEntries);
        for (std::size_t e = 0; e < len; e += kLineEntries) __builtin_prefetch(at[k] + e);
        __builtin_prefetch(at[k] + (len - 1));
    }
    const std::size_t most = std::size_t(start[ids.size()] - start[0]);
    y.indices().resize(most);
    y.values().resize_for_overwrite(most);
    lindex_t* yi = y.indices().data();
    Y* yv = y.values().data();
    std::size_t n = 0;
    if (lines.base == nullptr) {
        n = merge_live_columns(live, at, end, value, allow, yi, yv);
    } else {
        // Each output's epilogue entry is requested as the merge meets it (allowed or not,
        // without a branch), so that the epilogue finds those lines in cache.
        const auto allow_and_fetch = [&](lindex_t i) {
            __builtin_prefetch(lines.base + std::size_t(i) * lines.stride, 1);
            return allow(i);
        };
        n = merge_live_columns(live, at, end, value, allow_and_fetch, yi, yv);
    }
    y.indices().resize(n);
    y.values().resize_for_overwrite(n);
}

/// spmspv_claim() for a call of few products, on one thread. With `only_short_runs` the call
/// gives up instead (returns false, y untouched) when its claims are not many short runs or
/// their insertion sort gives up; a call of at most kClaimMergeInputs inputs never gives up
/// (claim_few_inputs()).
template <class Y, class A, class ToGlobal, class Allow>
bool claim_by_sorting(const CompressedView<A>& a, std::span<const lindex_t> ids,
                      const offset_t* first, const offset_t* start, ToGlobal to_global, Allow allow,
                      SparseVector<Y>& y, ClaimWorkspace<Y>& ws, bool only_short_runs) {
    if (ids.size() <= kClaimMergeInputs) {
        claim_few_inputs(a, ids, first, start, to_global, allow, y, ws.epilogue_lines);
        // The merge has read the mask for the last time: the epilogue may change it.
        if (ws.epilogue != nullptr && y.nvals() != 0) {
            (*ws.epilogue)(std::span<const lindex_t>(y.indices().data(), y.nvals()),
                           std::span<const Y>(y.values().data(), y.nvals()));
            ws.epilogue_ran = true;
        }
        return true;
    }
    ClaimKeys& keys = ws.sorted_claims;
    collect_claim_keys(a, first, start, start[0], 0, ids.size(), allow, keys, ws.sorted_runs,
                       ws.epilogue_lines);
    ShortRuns how = ShortRuns::not_tried;
    const bool sorted =
        sort_claim_keys(keys, ws.sorted_runs, ws.sorted_scratch, only_short_runs, how);
    note_short_runs(ws, how);
    if (!sorted) return false;
    const std::size_t found = keep_first_per_output(keys.data(), keys.size());
    y.indices().resize(found);
    y.values().resize_for_overwrite(found);
    write_claims(keys.data(), found, ids, to_global, y.indices().data(), y.values().data(), 0);
    return true;
}

/// The smallest output p such that at least `target` of the parts' keys have outputs below
/// p (each part's keys sorted, one per output): where a thread's range of outputs to merge
/// begins. A binary search over the outputs, counting each part's keys by binary search.
inline std::uint64_t split_outputs(std::span<const ClaimSortPart> parts, std::size_t target,
                                   std::uint64_t n) {
    std::uint64_t lo = 0;
    std::uint64_t hi = n;
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        std::size_t below = 0;
        for (const ClaimSortPart& p : parts) {
            below += std::size_t(std::lower_bound(p.keys.begin(), p.keys.end(), mid << 32) -
                                 p.keys.begin());
        }
        if (below >= target) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

/// Whether a call of `flops` products sorts its claims (spmspv_claim()'s rule): always when
/// they are few (at most ws.sort_products_max), and up to ws.sort_short_runs_max while the
/// last insertion sort of many short runs finished.
template <class Y>
bool claims_sorted(const ClaimWorkspace<Y>& ws, offset_t flops) {
    return flops <= ws.sort_products_max ||
           (flops <= ws.sort_short_runs_max && ws.short_runs_sorted);
}

/// claim_by_sorting() on `threads` threads (see the file comment), each sorting the keys of
/// a contiguous share of the inputs. The result is the same as on one thread: the first key
/// of an output over all shares comes from the lowest share that reached it, which holds its
/// smallest input. With `plan_here` the threads first make the plan (first, start) of equal
/// shares of the inputs, then sort only if claims_sorted() for the call's products, so that
/// a level of a few hundred inputs opens one parallel region for both; otherwise (the plan is
/// given) each takes an equal share of the products. Returns the call's products, and in
/// `sorted` whether y holds the result: false (y empty) when the call's products are too many
/// to sort (the plan is then made), or when it sorts only many short runs (more than
/// ws.sort_products_max products) and its claims are not, or their insertion sort gave up.
///
/// Besides the plan's barrier the threads meet twice: after sorting their shares (is every
/// share sorted?) and after merging their ranges of outputs (where does each write?). Each
/// sizes its own buffers and finds the bounds of its own range, rather than one thread doing
/// either for all behind a barrier, and a range whose keys all come from one share is written
/// from that share's keys without a merge (on a mesh's level most of each range does). On a
/// 1024 x 1024 mesh on two threads (levels of a few hundred inputs, some 14 us each) the two
/// barriers fewer took a search from 26.1 to 25.4 ms and the unmerged ranges to 24.4 (medians
/// of eight interleaved rounds of 48 keys).
template <class Y, class A, class ToGlobal, class Allow>
offset_t claim_by_sorting_parallel(const CompressedView<A>& a, std::span<const lindex_t> ids,
                                   offset_t* first, offset_t* start, ToGlobal to_global,
                                   Allow allow, SparseVector<Y>& y, ClaimWorkspace<Y>& ws,
                                   bool plan_here, int threads, bool& sorted) {
    const std::size_t inputs = ids.size();
    if (ws.sort_parts.size() < std::size_t(threads)) ws.sort_parts.resize(std::size_t(threads));
    ws.part_sums.resize(std::max(ws.part_sums.size(), std::size_t(threads)));
    if (plan_here) start[0] = 0;
    const offset_t given = plan_here ? 0 : start[inputs];  // the products, if planned already
    offset_t planned = 0;                                  // else as the plan finds them
    std::exception_ptr error;
    std::atomic<bool> failed{false};  // a thread could not size its buffers (error says why)
    bool took_sort_path = false;
    std::atomic<bool> give_up{false};
    std::atomic<bool> any_sorted_short{false};  // how the threads' insertion sorts went
    std::atomic<bool> any_gave_up_short{false};
    std::size_t found = 0;  // outputs written
    sorted = false;
    run_team(threads, [&] {
        const int team = team_size();
        const int me = thread_id();
        std::size_t k_lo = 0;
        std::size_t k_hi = 0;
        offset_t start_lo = 0;      // start[k_lo]
        offset_t products = given;  // the call's (each thread's copy)
        if (plan_here) {
            products = plan_share(a, ids.data(), inputs, first, start, ws.part_sums.data(), &k_lo,
                                  &k_hi, &start_lo);
            if (me == 0) planned = products;
            if (!claims_sorted(ws, products)) {
                return;  // every thread leaves here: the plan is made, the bitmaps take over
            }
        } else {
            // The inputs whose products begin in this thread's share of the products.
            auto input_at = [&](int t) {
                return t == team
                           ? inputs
                           : std::size_t(std::lower_bound(start, start + inputs,
                                                          offset_t(part_begin(products, t, team))) -
                                         start);
            };
            k_lo = input_at(me);
            k_hi = input_at(me + 1);
            start_lo = start[k_lo];
        }
        const bool only_short_runs = products > ws.sort_products_max;
        ClaimSortPart& part = ws.sort_parts[std::size_t(me)];
        // Room for the whole call in this thread's buffers (and, on thread 0, in y's), so that
        // nothing below allocates. y takes its final length after the region: nobody writes it
        // before the barrier that follows the merge, which orders this resize before them.
        bool sized = true;
        try {
            part.keys.reserve(std::size_t(products));
            part.scratch.reserve(std::size_t(products));
            part.merged.reserve(std::size_t(products));
            part.runs.reserve(std::max(k_hi - k_lo, std::size_t(team)) + 1);
            if (me == 0) {
                took_sort_path = true;
                y.indices().resize(std::size_t(products));
                y.values().resize_for_overwrite(std::size_t(products));
            }
        } catch (...) {
#pragma omp critical(gridblas_claim_sort_error)
            if (!error) error = std::current_exception();
            failed.store(true, std::memory_order_relaxed);
            sized = false;
        }
        if (sized) {
            collect_claim_keys(a, first, start, start_lo, k_lo, k_hi, allow, part.keys, part.runs,
                               ws.epilogue_lines);
            ShortRuns how = ShortRuns::not_tried;
            if (!sort_claim_keys(part.keys, part.runs, part.scratch, only_short_runs, how)) {
                give_up.store(true, std::memory_order_relaxed);
            }
            if (how == ShortRuns::sorted) any_sorted_short.store(true, std::memory_order_relaxed);
            if (how == ShortRuns::gave_up) {
                any_gave_up_short.store(true, std::memory_order_relaxed);
            }
            part.keys.resize(keep_first_per_output(part.keys.data(), part.keys.size()));
        }
#pragma omp barrier
        if (failed.load(std::memory_order_relaxed) || give_up.load(std::memory_order_relaxed)) {
            return;  // every thread leaves here
        }
        const std::span<const ClaimSortPart> parts(ws.sort_parts.data(), std::size_t(team));
        std::size_t total = 0;
        for (const ClaimSortPart& p : parts) total += p.keys.size();
        // This thread's outputs [lo, hi) from every part, in part order, one run each, merged;
        // ties between parts are broken by the input position in the key, which is lower in a
        // lower part. The bound between two threads' ranges is found by both of them (the
        // same search, so the same bound).
        const std::uint64_t n_out = std::uint64_t(a.n_inner);
        const std::uint64_t lo =
            me == 0 ? 0 : split_outputs(parts, part_begin(total, me, team), n_out);
        const std::uint64_t hi =
            me + 1 == team ? n_out : split_outputs(parts, part_begin(total, me + 1, team), n_out);
        // The parts' keys of the range: those of a single part are written as they are (one
        // per output already; on a mesh's level most of a range comes from one share), two
        // parts' are merged in one pass, more pairwise.
        const auto range_of = [&](const ClaimSortPart& p) {
            const auto from = std::lower_bound(p.keys.begin(), p.keys.end(), lo << 32);
            const auto to = std::lower_bound(from, p.keys.end(), hi << 32);
            return std::span<const std::uint64_t>(from, to);
        };
        std::span<const std::uint64_t> ranges[2];
        int contributing = 0;
        for (const ClaimSortPart& p : parts) {
            const std::span<const std::uint64_t> r = range_of(p);
            if (r.empty()) continue;
            if (contributing < 2) ranges[contributing] = r;
            ++contributing;
        }
        ClaimKeys& merged = part.merged;
        const std::uint64_t* mine = nullptr;  // this thread's keys, one per output
        if (contributing == 1) {
            mine = ranges[0].data();
            part.merged_count = ranges[0].size();
        } else if (contributing == 2) {
            merged.resize(ranges[0].size() + ranges[1].size());
            std::merge(ranges[0].begin(), ranges[0].end(), ranges[1].begin(), ranges[1].end(),
                       merged.begin());
            part.merged_count = keep_first_per_output(merged.data(), merged.size());
            mine = merged.data();
        } else {
            merged.clear();
            ClaimRuns& runs = part.runs;
            runs.assign(1, 0);
            for (const ClaimSortPart& p : parts) {
                const std::span<const std::uint64_t> r = range_of(p);
                if (r.empty()) continue;
                merged.insert(merged.end(), r.begin(), r.end());
                runs.push_back(merged.size());
            }
            merge_key_runs(merged, runs, part.scratch);
            part.merged_count = keep_first_per_output(merged.data(), merged.size());
            mine = merged.data();
        }
#pragma omp barrier
        std::size_t at = 0;
        for (int t = 0; t < me; ++t) at += ws.sort_parts[std::size_t(t)].merged_count;
        write_claims(mine, part.merged_count, ids, to_global, y.indices().data(), y.values().data(),
                     at);
        if (ws.epilogue != nullptr) {
            (*ws.epilogue)(std::span<const lindex_t>(y.indices().data() + at, part.merged_count),
                           std::span<const Y>(y.values().data() + at, part.merged_count));
        }
        if (me + 1 == team) found = at + part.merged_count;
    });
    if (error) {
        y.clear();
        std::rethrow_exception(error);
    }
    note_short_runs(ws, any_gave_up_short.load()  ? ShortRuns::gave_up
                        : any_sorted_short.load() ? ShortRuns::sorted
                                                  : ShortRuns::not_tried);
    sorted = took_sort_path && !give_up.load();
    ws.epilogue_ran = sorted && ws.epilogue != nullptr;
    // The room taken above comes down to the outputs written (or to none).
    y.indices().resize(sorted ? found : 0);
    y.values().resize_for_overwrite(sorted ? found : 0);
    return plan_here ? planned : given;
}

}  // namespace gridblas::kernels::detail
