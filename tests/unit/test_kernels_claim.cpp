// spmspv_claim (the one-pass push of the positional semirings) against a naive reference:
// min_secondi exactly, any_secondi by validity, over DCSC (with and without lookup) and CSR
// views, with 2-byte slots (fewer than 2^16 inputs) and 4-byte ones, with and without a
// (complemented) mask, serially and with threads forced on: two and three threads (private slots,
// one run of the products each; or one range of the outputs each, in one bitmap) and five
// (shared slots lowered by compare-and-swap), more threads
// than this machine's cores where need be; and each case also with its claims sorted (the path of
// small calls, on one thread or several, with the plan made together or first) and with that
// path off; and the insertion sort that path gives many short runs
// of claims, on its own and through the kernel, both where it finishes and where it gives up,
// and on threads one of which has no claims to sort; and the epilogue a call hands its result to
// where its threads write it; and one workspace across masked calls that copy the mask into
// the threads' bitmaps and calls that test it apart.

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gridblas/kernels/cpu/spmspv_claim.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dcsc.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace {

using namespace gridblas;
using namespace gridblas::kernels;

/// Lets the OpenMP runtime start up to `n` threads while it lives (the kernels ask for at most
/// omp_get_max_threads()).
struct ThreadsAtMost {
    int saved = omp_get_max_threads();
    explicit ThreadsAtMost(int n) { omp_set_num_threads(n); }
    ~ThreadsAtMost() { omp_set_num_threads(saved); }
};

struct Case {
    lindex_t n_out = 0, n_in = 0;  // outputs = rows (inner), inputs = columns (outer)
    std::vector<lindex_t> r, c;
};

Case random_case(std::uint64_t seed, lindex_t n_out, lindex_t n_in, std::size_t nnz) {
    Case k{n_out, n_in, {}, {}};
    std::mt19937_64 rng(seed);
    std::set<std::pair<lindex_t, lindex_t>> seen;
    // A hub column reaching half the outputs, so that one column spans the threads' work.
    for (lindex_t i = 0; i < n_out; i += 2) seen.insert({i, 0});
    while (seen.size() < nnz) seen.insert({lindex_t(rng() % n_out), lindex_t(rng() % n_in)});
    for (auto [i, j] : seen) {
        k.r.push_back(i);
        k.c.push_back(j);
    }
    return k;
}

template <class F>
void claim_min(const CompressedView<Pattern>& view, const std::vector<lindex_t>& ids, F to_global,
               const MaskView& mv, SparseVector<std::int64_t>& y,
               ClaimWorkspace<std::int64_t>& ws) {
    spmspv_claim<min_secondi<std::int64_t>>(view, std::span<const lindex_t>(ids), to_global, mv, y,
                                            ws);
}

// (output, value) pairs in output order: what a call returned, or what the reference expects.
// Dense arrays and vectors rather than maps and sets keep the references cheap under the
// sanitizers, where the suite runs unoptimized.
using Pairs = std::vector<std::pair<lindex_t, std::int64_t>>;

Pairs pairs_of(const SparseVector<std::int64_t>& y) {
    Pairs out;
    out.reserve(y.nvals());
    for (std::size_t q = 0; q < y.nvals(); ++q) out.emplace_back(y.indices()[q], y.values()[q]);
    return out;
}

/// The reference for min_secondi: for each allowed output, the smallest to_global(j) over the
/// chosen inputs j that reach it.
template <class F, class Allows>
Pairs reference_min(const Case& k, const std::vector<char>& chosen, F to_global, Allows allows) {
    constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();
    std::vector<std::int64_t> best(k.n_out, none);
    for (std::size_t e = 0; e < k.r.size(); ++e) {
        if (!chosen[k.c[e]] || !allows(k.r[e])) continue;
        best[k.r[e]] = std::min(best[k.r[e]], to_global(k.c[e]));
    }
    Pairs out;
    for (lindex_t i = 0; i < k.n_out; ++i)
        if (best[i] != none) out.emplace_back(i, best[i]);
    return out;
}

std::vector<char> chosen_of(lindex_t n_in, const std::vector<lindex_t>& ids) {
    std::vector<char> chosen(n_in, 0);
    for (lindex_t j : ids) chosen[j] = 1;
    return chosen;
}

// ClaimWorkspace::sort_products_max settings: the bitmaps always (sort_short_runs_max 0 too),
// the defaults, sorting always.
// Sorting always is run on cases of at most kSortAlwaysEntries entries: past that it only
// repeats, slowly in the unoptimized sanitizer build, what the smaller cases check.
constexpr offset_t kSortSettings[] = {0, kernels::detail::kClaimSortProducts, ~offset_t(0)};
constexpr std::size_t kSortAlwaysEntries = 50000;

/// Sets `ws` to sort the claims of calls of up to `sort_max` products, and those of more (up to
/// the default) while they come as short runs; 0: no call sorts, all go through the bitmaps.
void set_sorting(ClaimWorkspace<std::int64_t>& ws, offset_t sort_max) {
    ws.sort_products_max = sort_max;
    ws.sort_short_runs_max = sort_max == 0 ? 0 : kernels::detail::kClaimSortShortRuns;
}

/// How the threads share a call that sorts its claims: three plan and sort every call
/// together, however few its inputs and products (some threads then get no input; a call of
/// too many products leaves them the plan and goes through the bitmaps); two sort every such
/// call after the plan, each taking a share of the products; five keep the defaults.
void set_teams(ClaimWorkspace<std::int64_t>& ws, int threads) {
    if (threads == 3) {
        ws.sort_inputs_per_thread = 1;
        ws.sort_products_per_thread = 1;
    } else if (threads == 2) {
        ws.sort_inputs_per_thread = 0;
        ws.sort_products_per_thread = 1;
    }
}

void check(const Case& k, const CompressedView<Pattern>& view, const std::string& what_view) {
    std::mt19937_64 rng(5);
    std::vector<lindex_t> ids;
    for (lindex_t j = 0; j < k.n_in; ++j) {
        // The hub column 0 is always in: with more entries than one slice of the kernel's
        // work it crosses slice boundaries.
        if (rng() % 3 == 0 || j == 0) ids.push_back(j);
    }
    if (k.n_in >= 200000) {
        ASSERT_GT(ids.size(), std::size_t(1) << 16)
            << "the case for 4-byte slots needs more inputs";
    }
    std::vector<std::uint64_t> mbits(bitmap_words(k.n_out), 0);
    for (lindex_t i = 0; i < k.n_out; ++i) {
        if (rng() % 4 == 0) mbits[i >> 6] |= std::uint64_t(1) << (i & 63);
    }
    auto to_global = [](lindex_t j) { return std::int64_t(j) * 3 + 7; };
    const std::vector<char> chosen = chosen_of(k.n_in, ids);
    // The inputs reaching each output, in ascending order: row_start[i] to row_start[i + 1]
    // of row_inputs.
    std::vector<std::size_t> row_start(std::size_t(k.n_out) + 1, 0);
    for (lindex_t i : k.r) ++row_start[i + 1];
    for (lindex_t i = 0; i < k.n_out; ++i) row_start[i + 1] += row_start[i];
    std::vector<lindex_t> row_inputs(k.r.size());
    {
        std::vector<std::size_t> fill(row_start.begin(), row_start.end() - 1);
        for (std::size_t e = 0; e < k.r.size(); ++e) row_inputs[fill[k.r[e]]++] = k.c[e];
        for (lindex_t i = 0; i < k.n_out; ++i)
            std::sort(row_inputs.begin() + std::ptrdiff_t(row_start[i]),
                      row_inputs.begin() + std::ptrdiff_t(row_start[i + 1]));
    }
    auto has_edge = [&](lindex_t i, lindex_t j) {
        return std::binary_search(row_inputs.begin() + std::ptrdiff_t(row_start[i]),
                                  row_inputs.begin() + std::ptrdiff_t(row_start[i + 1]), j);
    };
    for (int masked : {0, 1, 2}) {
        MaskView mv = no_mask();
        if (masked) mv = MaskView{mbits.data(), masked == 2};
        const Pairs expect =
            reference_min(k, chosen, to_global, [&](lindex_t i) { return mv.allows(i); });
        const ThreadsAtMost allow(5);
        for (const offset_t sort_max : kSortSettings) {
            if (sort_max == ~offset_t(0) && k.r.size() > kSortAlwaysEntries) continue;
            // Threads and whether two or three split the outputs (0: wherever the block has
            // outputs enough) or the products (~0: never the outputs) between them.
            for (auto [threads, split] : {std::pair<std::size_t, offset_t>{1, ~offset_t(0)},
                                          {2, ~offset_t(0)},
                                          {2, 0},
                                          {3, ~offset_t(0)},
                                          {3, 0},
                                          {5, 0}}) {
                const std::string what = what_view + " sorting up to " + std::to_string(sort_max) +
                                         " mask " + std::to_string(masked) + " threads " +
                                         std::to_string(threads) +
                                         (split == 0 ? " (outputs split)" : "");
                ClaimWorkspace<std::int64_t> ws;
                ws.split_outputs_min_run = split;
                set_sorting(ws, sort_max);
                ws.policy.max_threads = int(threads);
                ws.policy.min_parallel_work = threads == 1 ? ~std::size_t(0) : 1;
                set_teams(ws, int(threads));
                for (int rep = 0; rep < 2; ++rep) {  // the second call reuses the workspace
                    SparseVector<std::int64_t> y;
                    claim_min(view, ids, to_global, mv, y, ws);
                    // pairs_of keeps the call's order, so equality also checks it is ascending.
                    EXPECT_EQ(pairs_of(y), expect) << what << ", call " << rep;
                }
                ClaimWorkspace<std::int64_t> wa;
                wa.policy = ws.policy;
                wa.sort_products_per_thread = ws.sort_products_per_thread;
                wa.sort_inputs_per_thread = ws.sort_inputs_per_thread;
                wa.split_outputs_min_run = ws.split_outputs_min_run;
                set_sorting(wa, sort_max);
                SparseVector<std::int64_t> ya;
                spmspv_claim<any_secondi<std::int64_t>>(view, std::span<const lindex_t>(ids),
                                                        to_global, mv, ya, wa);
                ASSERT_EQ(ya.nvals(), expect.size()) << what;
                for (std::size_t q = 0; q < ya.nvals(); ++q) {
                    const lindex_t i = ya.indices()[q];
                    ASSERT_EQ(i, expect[q].first) << what << ": any's outputs differ from min's";
                    const std::int64_t g = ya.values()[q];
                    ASSERT_EQ((g - 7) % 3, 0) << what;
                    const lindex_t j = lindex_t((g - 7) / 3);
                    EXPECT_TRUE(j < k.n_in && chosen[j] && has_edge(i, j))
                        << what << ": output " << i << " names input " << j;
                }
                // One workspace serves both semirings: min after any still finds the smallest.
                SparseVector<std::int64_t> ym;
                claim_min(view, ids, to_global, mv, ym, wa);
                EXPECT_EQ(pairs_of(ym), expect) << what << ": min after any on one workspace";
            }
        }
    }
}

}  // namespace

TEST(KernelsClaim, MatchesReferenceOnEveryView) {
    for (auto [n_out, n_in, nnz] : {std::tuple<lindex_t, lindex_t, std::size_t>{3000, 2500, 40000},
                                    {200, 9000, 3000},
                                    {70, 5, 80},
                                    // few outputs in a long block: the sorted (not scanned) drain
                                    {100000, 50, 60},
                                    // a hub column of 10,000 entries (more than one slice)
                                    {20000, 40, 12000},
                                    // outputs enough for threads to split them in ranges of
                                    // several summary words (4,096 outputs) each
                                    {40000, 2000, 120000},
                                    // about 83,000 inputs: 4-byte slots (positions past 2^16)
                                    {4000, 250000, 150000},
                                    // the same with outputs enough to split
                                    {30000, 250000, 150000}}) {
        const Case k = random_case(n_out * 31 + n_in, n_out, n_in, nnz);
        const ValueArray<Pattern> va(k.r.size());
        // Push views: outer = input (column), inner = output (row).
        const auto dcsc = Dcsc<Pattern>::from_tuples(k.n_out, k.n_in, k.r, k.c, va);
        const auto lookup = make_lookup(dcsc);
        const auto csr_t = Csr<Pattern>::from_tuples(k.n_in, k.n_out, k.c, k.r, va);
        check(k, make_view(dcsc), "dcsc");
        check(k, make_view(dcsc, &lookup), "dcsc+lookup");
        check(k, make_view(csr_t), "csr(At)");
    }
}

/// A long block: input 0 a hub reaching every 7th of the n_out outputs, each other input 12
/// outputs apart from the hub's, drawn from `seed`.
Case hub_and_short_columns(lindex_t n_out, lindex_t n_in, std::uint64_t seed) {
    Case k{n_out, n_in, {}, {}};
    for (lindex_t i = 0; i < n_out; i += 7) {
        k.r.push_back(i);
        k.c.push_back(0);
    }
    std::mt19937_64 rng(seed);
    for (lindex_t j = 1; j < n_in; ++j) {
        std::set<lindex_t> rows;
        while (rows.size() < 12)
            rows.insert(lindex_t(rng() % (n_out / 7)) * 7 + 1 + lindex_t(rng() % 6));
        for (lindex_t i : rows) {
            k.r.push_back(i);
            k.c.push_back(j);
        }
    }
    return k;
}

// One workspace across calls whose outputs are drained both ways: a few outputs (sorted from
// the claim lists) must leave no claim behind in the threads' bitmaps or their summaries for
// a following drain through them, and the reverse. The block is long (2^22 outputs) so that
// a few dozen outputs are cheaper to sort than the summaries are to read.
TEST(KernelsClaim, SortedAndBitmapDrainsShareOneWorkspace) {
    const lindex_t n_out = lindex_t(1) << 22, n_in = 40;
    const Case k = hub_and_short_columns(n_out, n_in, 77);
    const ValueArray<Pattern> va(k.r.size());
    const auto dcsc = Dcsc<Pattern>::from_tuples(k.n_out, k.n_in, k.r, k.c, va);
    const auto view = make_view(dcsc);
    auto to_global = [](lindex_t j) { return std::int64_t(j) + 1; };
    // Short columns (sorted), the hub with short ones (through the bitmaps), and so on.
    const std::vector<std::vector<lindex_t>> inputs = {{5}, {0, 5, 9}, {7}, {3, 11}, {0}, {12}};
    std::vector<Pairs> expect;  // one reference per input set, shared by every setting below
    for (const auto& ids : inputs) {
        expect.push_back(
            reference_min(k, chosen_of(n_in, ids), to_global, [](lindex_t) { return true; }));
    }
    const ThreadsAtMost allow(5);
    // With the sorting of small calls off every call goes through the bitmaps; with the
    // default the short-column calls are sorted between the hub's.
    for (const offset_t sort_max : {offset_t(0), kernels::detail::kClaimSortProducts})
        for (int threads : {1, 2, 3, 5}) {
            ClaimWorkspace<std::int64_t> ws;
            set_sorting(ws, sort_max);
            ws.policy.max_threads = threads;
            ws.policy.min_parallel_work = threads == 1 ? ~std::size_t(0) : 1;
            for (std::size_t call = 0; call < inputs.size(); ++call) {
                const auto& ids = inputs[call];
                SparseVector<std::int64_t> y;
                claim_min(view, ids, to_global, no_mask(), y, ws);
                EXPECT_EQ(pairs_of(y), expect[call])
                    << "threads " << threads << ", sorting up to " << sort_max << ", " << ids.size()
                    << " inputs starting at " << ids[0];
            }
        }
}

// One workspace across masked calls with many products per bitmap word (each thread's bitmap
// starts as the mask's excluded outputs, kClaimMaskInBitmapProducts) and with few (the mask
// tested apart), complemented and not, drained through the bitmaps and, when a call with the
// mask in its bitmaps finds only a few dozen outputs, from the claim lists: every result is
// the reference's, and the bitmaps and summaries are all zero between calls, so that a call
// testing the mask apart meets no bit a call that copied it left behind.
TEST(KernelsClaim, MaskInBitmapAndMaskApartShareOneWorkspace) {
    const lindex_t n_out = lindex_t(1) << 22, n_in = 40;
    const Case k = hub_and_short_columns(n_out, n_in, 91);
    std::mt19937_64 rng(92);
    const ValueArray<Pattern> va(k.r.size());
    const auto dcsc = Dcsc<Pattern>::from_tuples(k.n_out, k.n_in, k.r, k.c, va);
    const auto view = make_view(dcsc);
    auto to_global = [](lindex_t j) { return std::int64_t(j) * 3 + 2; };
    // Mask bits: `few` all but 20 of the hub's outputs (complemented: those 20 and the short
    // columns' allowed), `half` a random half of the outputs (complemented and not).
    const std::size_t words = bitmap_words(n_out);
    std::vector<std::uint64_t> few(words, 0), half(words, 0);
    for (lindex_t i = 0; i < n_out; i += 7) few[i >> 6] |= std::uint64_t(1) << (i & 63);
    for (int q = 0; q < 20; ++q) {
        const lindex_t i = lindex_t(rng() % (n_out / 7)) * 7;
        few[i >> 6] &= ~(std::uint64_t(1) << (i & 63));
    }
    for (std::size_t w = 0; w < words; ++w) half[w] = rng();
    struct Call {
        std::vector<lindex_t> ids;
        MaskView mask;
        const char* what;
    };
    const std::vector<Call> calls = {
        {{0}, {half.data(), true}, "hub, half masked (mask in the bitmaps)"},
        {{5}, {half.data(), true}, "short column, half masked (mask apart)"},
        {{0}, {few.data(), true}, "hub, a few allowed (mask in the bitmaps, lists)"},
        {{7}, {half.data(), false}, "short column, half allowed (mask apart)"},
        {{0, 12}, {half.data(), false}, "hub, half allowed (mask in the bitmaps)"},
        {{3, 11}, {few.data(), true}, "short columns, few masked (mask apart)"},
        {{0, 5},
         {few.data(), true},
         "hub and a short column, a few allowed (mask in the "
         "bitmaps, lists)"},
    };
    std::vector<Pairs> expect;
    for (const Call& c : calls) {
        expect.push_back(reference_min(k, chosen_of(n_in, c.ids), to_global,
                                       [&](lindex_t i) { return c.mask.allows(i); }));
    }
    // Few enough outputs to be drained from the lists (at most a thirty-second of the summary
    // words, 1,024 here).
    ASSERT_LE(expect[2].size(), 32u);
    ASSERT_LE(expect[6].size(), 32u);
    ASSERT_GT(expect[0].size(), 1000u);
    const ThreadsAtMost allow(5);
    for (int threads : {1, 2, 3, 5}) {
        ClaimWorkspace<std::int64_t> ws;
        set_sorting(ws, 0);  // every call through the bitmaps
        ws.policy.max_threads = threads;
        ws.policy.min_parallel_work = threads == 1 ? ~std::size_t(0) : 1;
        for (std::size_t q = 0; q < calls.size(); ++q) {
            SparseVector<std::int64_t> y;
            claim_min(view, calls[q].ids, to_global, calls[q].mask, y, ws);
            EXPECT_EQ(pairs_of(y), expect[q]) << "threads " << threads << ": " << calls[q].what;
            std::size_t stale = 0;
            for (const auto& bits : ws.claimed)
                stale += std::size_t(std::count_if(bits.begin(), bits.end(),
                                                   [](std::uint64_t b) { return b != 0; }));
            for (const auto& bits : ws.summary)
                stale += std::size_t(std::count_if(bits.begin(), bits.end(),
                                                   [](std::uint64_t b) { return b != 0; }));
            EXPECT_EQ(stale, 0u) << "threads " << threads << ": " << calls[q].what
                                 << " left words set in the bitmaps or summaries";
        }
    }
}

// One workspace across calls of both slot widths (fewer and more than 2^16 inputs) and blocks of
// two lengths, in every order, with the claim loop's test-before-set run from every column, from
// the default length and never: each result equals the reference, and the slots take one store
// of the widest call's size (4 bytes per output at most, 2 while every call had few inputs).
TEST(KernelsClaim, SlotWidthsShareOneStore) {
    const lindex_t n_in = 70000;
    std::vector<Case> blocks;
    for (const lindex_t n_out : {lindex_t(5000), lindex_t(9000)}) {
        blocks.push_back(random_case(n_out + 3, n_out, n_in, 120000));
    }
    std::vector<Dcsc<Pattern>> dcsc;
    for (const Case& k : blocks) {
        const ValueArray<Pattern> va(k.r.size());
        dcsc.push_back(Dcsc<Pattern>::from_tuples(k.n_out, k.n_in, k.r, k.c, va));
    }
    std::vector<lindex_t> few, all(n_in);
    for (lindex_t j = 0; j < n_in; ++j) all[j] = j;
    for (lindex_t j = 0; j < n_in; j += 97) few.push_back(j);
    auto to_global = [](lindex_t j) { return std::int64_t(j) * 2 + 1; };
    // The references, per block and input set, computed once for every setting below.
    const std::vector<char> chosen_few = chosen_of(n_in, few), chosen_all = chosen_of(n_in, all);
    auto all_allowed = [](lindex_t) { return true; };
    const Pairs expect[2][2] = {{reference_min(blocks[0], chosen_few, to_global, all_allowed),
                                 reference_min(blocks[0], chosen_all, to_global, all_allowed)},
                                {reference_min(blocks[1], chosen_few, to_global, all_allowed),
                                 reference_min(blocks[1], chosen_all, to_global, all_allowed)}};
    // (block, inputs) in an order that switches width and length both ways.
    const std::vector<std::pair<int, const std::vector<lindex_t>*>> calls = {
        {0, &few}, {0, &all}, {1, &few}, {0, &few}, {1, &all}, {1, &few}, {0, &all}};
    const ThreadsAtMost allow(5);
    for (const offset_t test_first : {offset_t(1), kernels::detail::kClaimTestFirst, ~offset_t(0)})
        for (int threads : {1, 2, 5}) {
            ClaimWorkspace<std::int64_t> ws;
            set_sorting(ws, 0);
            ws.test_first_min = test_first;
            ws.policy.max_threads = threads;
            ws.policy.min_parallel_work = threads == 1 ? ~std::size_t(0) : 1;
            std::size_t longest_narrow = 0, longest_wide = 0;
            for (const auto& [b, ids] : calls) {
                SparseVector<std::int64_t> y;
                claim_min(make_view(dcsc[std::size_t(b)]), *ids, to_global, no_mask(), y, ws);
                const Case& k = blocks[std::size_t(b)];
                EXPECT_EQ(pairs_of(y), expect[b][ids == &all ? 1 : 0])
                    << "threads " << threads << ", test first from " << test_first << ", block of "
                    << k.n_out << " outputs, " << ids->size() << " inputs";
                (ids == &few ? longest_narrow : longest_wide) =
                    std::max(ids == &few ? longest_narrow : longest_wide, std::size_t(k.n_out));
                const std::size_t words = std::max((longest_narrow + 1) / 2, longest_wide);
                EXPECT_EQ(ws.slots.best.size(), words) << "4-byte words of slots";
            }
        }
}

// The insertion sort of the claim keys in calls of many short runs: within its budget it
// sorts; past it, it says so and leaves the same keys (a permutation) for std::sort.
TEST(KernelsClaim, InsertionSortWithinItsBudget) {
    std::vector<std::uint64_t> near;  // every key one or two places from its sorted position
    for (std::uint64_t v = 0; v < 3000; v += 4) {
        for (std::uint64_t d : {2, 0, 3, 1}) near.push_back(v + d);
    }
    std::vector<std::uint64_t> sorted = near;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint64_t> keys = near;
    EXPECT_TRUE(kernels::detail::insertion_sort_within(keys.data(), keys.size(), keys.size()));
    EXPECT_EQ(keys, sorted);

    std::vector<std::uint64_t> reversed(sorted.rbegin(), sorted.rend());
    keys = reversed;
    EXPECT_FALSE(kernels::detail::insertion_sort_within(keys.data(), keys.size(), 4 * keys.size()));
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(keys, sorted) << "the keys given up on are not the keys given";
}

namespace {

/// The keys (output << 32 | input position) of a call in input order, as the sorted path of
/// the kernel makes them (no mask), and whether they come as many short runs.
std::pair<std::vector<std::uint64_t>, bool> keys_in_input_order(const Case& k,
                                                                const std::vector<lindex_t>& ids) {
    std::vector<std::vector<lindex_t>> outs(k.n_in);
    for (std::size_t e = 0; e < k.r.size(); ++e) outs[k.c[e]].push_back(k.r[e]);
    std::vector<std::uint64_t> keys;
    std::size_t runs = 0;
    for (std::size_t q = 0; q < ids.size(); ++q) {
        std::vector<lindex_t>& o = outs[ids[q]];
        std::sort(o.begin(), o.end());
        for (lindex_t i : o) keys.push_back(std::uint64_t(i) << 32 | q);
        runs += o.empty() ? 0 : 1;
    }
    return {keys, runs > 2 && runs * kernels::detail::kClaimShortRun >= keys.size()};
}

}  // namespace

// Calls of many short runs of claims, against the reference: a path graph with an edge to the
// third vertex on, all inputs on (each output a few places from where its input puts it: the
// insertion sort finishes) and a random graph (runs of a few random outputs: it gives up).
// Which of the two each call meets is checked on its keys in input order. Calls of few
// products sort either way (std::sort after the insertion gives up); calls of more, up to
// ClaimWorkspace::sort_short_runs_max, sort only while the last insertion finished, else go
// through the bitmaps: every call of a sequence that switches between the two graphs and the
// two sizes gives the reference, and the workspace's flag follows the last insertion.
TEST(KernelsClaim, ShortRunsOnTheSortedPath) {
    const lindex_t n = 3000;
    Case path{n, n, {}, {}};
    for (lindex_t j = 0; j < n; ++j) {
        for (lindex_t i : {j - 1, j + 1, j + 3}) {
            if (j > 0 || i != j - 1) {
                if (i < n) {
                    path.r.push_back(i);
                    path.c.push_back(j);
                }
            }
        }
    }
    const Case scattered = random_case(99, 500, n, 3 * n);
    const ValueArray<Pattern> va_path(path.r.size()), va_scattered(scattered.r.size());
    const auto dcsc_path = Dcsc<Pattern>::from_tuples(n, n, path.r, path.c, va_path);
    const auto dcsc_scattered =
        Dcsc<Pattern>::from_tuples(500, n, scattered.r, scattered.c, va_scattered);
    std::vector<lindex_t> all(n), head;  // head: few products (at most sort_products_max)
    for (lindex_t j = 0; j < n; ++j) all[j] = j;
    for (lindex_t j = 0; j < 1000; j += 2) head.push_back(j);
    auto to_global = [](lindex_t j) { return std::int64_t(j) * 5 + 2; };
    struct Call {
        const Case* k;
        const Dcsc<Pattern>* dcsc;
        const std::vector<lindex_t>* ids;
        bool insertion_finishes;  // expected of the keys in input order
        bool flag_after;          // ClaimWorkspace::short_runs_sorted after the call
    };
    const std::vector<Call> calls = {
        {&path, &dcsc_path, &all, true, true},               // more products: sorted
        {&scattered, &dcsc_scattered, &all, false, false},   // gives up: bitmaps
        {&path, &dcsc_path, &all, true, false},              // bitmaps: not tried
        {&scattered, &dcsc_scattered, &head, false, false},  // few: std::sort
        {&path, &dcsc_path, &head, true, true},              // few: sorted by insertion
        {&path, &dcsc_path, &all, true, true}};              // more products: sorted again
    // On one thread, and on three that sort every call's claims together (each thread's share
    // of the keys is then short runs exactly when the whole call's are).
    const ThreadsAtMost allow(3);
    for (const int threads : {1, 3}) {
        ClaimWorkspace<std::int64_t> ws;
        ws.policy.max_threads = threads;
        set_teams(ws, threads);
        for (std::size_t c = 0; c < calls.size(); ++c) {
            const Call& call = calls[c];
            const std::string what =
                "call " + std::to_string(c) + " on " + std::to_string(threads) + " threads";
            auto [keys, short_runs] = keys_in_input_order(*call.k, *call.ids);
            ASSERT_TRUE(short_runs) << what << ": not many short runs";
            const bool few = keys.size() <= ws.sort_products_max;
            ASSERT_EQ(few, call.ids == &head) << what;
            ASSERT_LE(keys.size(), ws.sort_short_runs_max) << what;
            EXPECT_EQ(
                kernels::detail::insertion_sort_within(
                    keys.data(), keys.size(), kernels::detail::kClaimInsertionMoves * keys.size()),
                call.insertion_finishes)
                << what;
            const Pairs expect = reference_min(*call.k, chosen_of(n, *call.ids), to_global,
                                               [](lindex_t) { return true; });
            SparseVector<std::int64_t> y;
            claim_min(make_view(*call.dcsc), *call.ids, to_global, no_mask(), y, ws);
            EXPECT_EQ(pairs_of(y), expect) << what;
            EXPECT_EQ(ws.short_runs_sorted, call.flag_after) << what;
        }
    }
}

// Three threads plan and sort a call of many short runs (more products than
// sort_products_max) whose first third of inputs reach only masked outputs: that thread's
// share has no keys, which must not count as "not short runs" and send the call (and the
// calls after it) through the bitmaps. The result is the reference's and the flag stays set.
TEST(KernelsClaim, EmptyShareDoesNotGiveUpSorting) {
    const lindex_t n = 3000;
    Case path{n, n, {}, {}};
    for (lindex_t j = 0; j < n; ++j) {
        for (lindex_t i : {j, j + 1, j + 2}) {
            if (i < n) {
                path.r.push_back(i);
                path.c.push_back(j);
            }
        }
    }
    const ValueArray<Pattern> va(path.r.size());
    const auto dcsc = Dcsc<Pattern>::from_tuples(n, n, path.r, path.c, va);
    std::vector<lindex_t> all(n);
    for (lindex_t j = 0; j < n; ++j) all[j] = j;
    // Visited (masked out by the complement): the outputs below 1,100, which inputs 0..999
    // (the first thread's share) are all that reach.
    std::vector<std::uint64_t> visited(bitmap_words(n), 0);
    for (lindex_t i = 0; i < 1100; ++i) visited[i >> 6] |= std::uint64_t(1) << (i & 63);
    const MaskView mv{visited.data(), true};
    auto to_global = [](lindex_t j) { return std::int64_t(j) + 11; };
    const Pairs expect =
        reference_min(path, chosen_of(n, all), to_global, [&](lindex_t i) { return mv.allows(i); });
    const ThreadsAtMost allow(3);
    ClaimWorkspace<std::int64_t> ws;
    ws.policy.max_threads = 3;
    ws.sort_inputs_per_thread = 1;
    ASSERT_GT(path.r.size(), ws.sort_products_max) << "the call must sort only short runs";
    for (int call = 0; call < 2; ++call) {
        SparseVector<std::int64_t> y;
        claim_min(make_view(dcsc), all, to_global, mv, y, ws);
        EXPECT_EQ(pairs_of(y), expect) << "call " << call;
        EXPECT_TRUE(ws.short_runs_sorted) << "call " << call;
    }
}

// ClaimWorkspace::epilogue: where a call writes its result on several threads (sorted claims,
// a team planning them or threads taking shares of a given plan; the drain of the bitmaps,
// after claims split by products or by outputs) every output reaches the epilogue once, in
// ascending ranges, and the epilogue may mark its outputs in the mask (as a BFS marks them
// visited) without changing the result, and so where one thread merges the columns of a few
// inputs; elsewhere (one thread sorting the keys of more inputs, a few outputs of a long block
// taken from the claim lists) it is not called and epilogue_ran stays false. The paths that
// sort claims are also run lent the lines of a per-output array (epilogue_lines), which they
// prefetch as they meet outputs: the result must not change.
TEST(KernelsClaim, EpilogueSeesEveryOutputOnceWhereTheTeamWrites) {
    const ThreadsAtMost allow(3);
    struct Setting {
        const char* what;
        int threads;
        offset_t sort_max;
        offset_t split;  // ClaimWorkspace::split_outputs_min_run
        lindex_t n_out;
        std::size_t nnz;
        bool runs;
        std::size_t inputs = 0;  // the call's inputs: the first this many even columns (0: all)
        bool lines = false;      // lend the call where the epilogue writes (epilogue_lines)
    };
    const offset_t never = ~offset_t(0);
    for (const Setting& s :
         {Setting{"team plans and sorts", 3, never, never, 3000, 6000, true},
          Setting{"threads share a given plan", 2, never, never, 3000, 6000, true},
          Setting{"one thread sorts", 1, never, never, 3000, 6000, false},
          Setting{"one thread sorts, prefetching the caller's entries", 1, never, never, 3000, 6000,
                  false, 0, true},
          Setting{"one thread merges four inputs", 1, never, never, 3000, 6000, true, 4},
          Setting{"one thread merges four inputs, prefetching the epilogue's entries", 1, never,
                  never, 3000, 6000, true, 4, true},
          Setting{"team plans and sorts, prefetching the epilogue's entries", 3, never, never, 3000,
                  6000, true, 0, true},
          Setting{"bitmaps, products split", 3, 0, never, 3000, 6000, true},
          Setting{"bitmaps, outputs split", 2, 0, 0, 40000, 80000, true},
          Setting{"bitmaps, few outputs of a long block", 3, 0, never, lindex_t(1) << 22, 30,
                  false}}) {
        Case k{s.n_out, 2500, {}, {}};
        if (s.nnz >= std::size_t(s.n_out)) {
            k = random_case(77, s.n_out, 2500, s.nnz);
        } else {
            // Scattered entries only (random_case's hub would reach half the block).
            std::mt19937_64 rng(77);
            for (std::size_t e = 0; e < s.nnz; ++e) {
                k.r.push_back(lindex_t(rng() % std::uint64_t(s.n_out)));
                k.c.push_back(lindex_t(2 * e));  // distinct inputs, all chosen below
            }
        }
        const ValueArray<Pattern> va(k.r.size());
        const auto dcsc = Dcsc<Pattern>::from_tuples(k.n_out, k.n_in, k.r, k.c, va);
        std::vector<lindex_t> ids;
        for (lindex_t j = 0; j < k.n_in; j += 2) ids.push_back(j);
        if (s.inputs != 0) ids.resize(s.inputs);
        auto to_global = [](lindex_t j) { return std::int64_t(j) * 5 + 1; };
        std::vector<std::uint64_t> visited(bitmap_words(k.n_out), 0);
        for (lindex_t i = 0; i < k.n_out; i += 7) visited[i >> 6] |= std::uint64_t(1) << (i & 63);
        const MaskView mv{visited.data(), true};
        const Pairs expect = reference_min(k, chosen_of(k.n_in, ids), to_global,
                                           [&](lindex_t i) { return mv.allows(i); });
        ASSERT_FALSE(expect.empty());
        ClaimWorkspace<std::int64_t> ws;
        set_sorting(ws, s.sort_max);
        ws.split_outputs_min_run = s.split;
        ws.policy.max_threads = s.threads;
        ws.policy.min_parallel_work = s.threads == 1 ? ~std::size_t(0) : 1;
        set_teams(ws, s.threads);
        Pairs seen;
        bool ascending = true;
        const ClaimWorkspace<std::int64_t>::Epilogue record =
            [&](std::span<const lindex_t> out, std::span<const std::int64_t> vals) {
                Pairs part;
                for (std::size_t q = 0; q < out.size(); ++q) {
                    part.emplace_back(out[q], vals[q]);
                    std::atomic_ref<std::uint64_t>(visited[out[q] >> 6])
                        .fetch_or(std::uint64_t(1) << (out[q] & 63));
                }
                const bool sorted = std::is_sorted(part.begin(), part.end());
#pragma omp critical(test_claim_epilogue)
                {
                    ascending = ascending && sorted;
                    seen.insert(seen.end(), part.begin(), part.end());
                }
            };
        ws.epilogue = &record;
        // Where the epilogue would write for each output: prefetched, never read.
        const std::vector<std::int64_t> entries(s.lines ? std::size_t(k.n_out) : 0);
        if (s.lines) {
            ws.epilogue_lines = {reinterpret_cast<const std::byte*>(entries.data()),
                                 sizeof(std::int64_t)};
        }
        SparseVector<std::int64_t> y;
        claim_min(make_view(dcsc), ids, to_global, mv, y, ws);
        EXPECT_EQ(pairs_of(y), expect) << s.what;
        EXPECT_EQ(ws.epilogue_ran, s.runs) << s.what;
        if (!s.runs) {
            EXPECT_TRUE(seen.empty()) << s.what << ": the epilogue ran where it must not";
            continue;
        }
        EXPECT_TRUE(ascending) << s.what << ": a range reached the epilogue out of order";
        std::sort(seen.begin(), seen.end());
        EXPECT_EQ(seen, expect) << s.what << ": not every output reached the epilogue once";
        for (const auto& [i, v] : expect) {
            EXPECT_FALSE(mv.allows(i)) << s.what << ": output " << i << " not marked";
        }
    }
}

// Calls of up to four inputs (kClaimMergeInputs) merge their columns straight into the
// result: every output once, ascending, with its smallest input, for both semirings (the
// sorted path keeps the smallest for `any` too), whatever the mask, with columns that tie at
// every entry, overlap in part, are empty or are wholly masked, and with two columns of very
// different lengths (merged in runs), the shorter first or second in call order, tying or not,
// through one workspace and one output vector that a larger result held before; five inputs
// take the keys' path.
TEST(KernelsClaim, FewInputsMergeTheirColumns) {
    const lindex_t n_out = 5000, n_in = 14;
    Case k{n_out, n_in, {}, {}};
    std::mt19937_64 rng(31);
    auto column = [&](lindex_t j, auto&& rows) {
        for (lindex_t i : rows) {
            k.r.push_back(i);
            k.c.push_back(j);
        }
    };
    std::vector<lindex_t> every3, every5, every7, scattered, tail;
    for (lindex_t i = 0; i < n_out; i += 3) every3.push_back(i);
    for (lindex_t i = 1; i < n_out; i += 5) every5.push_back(i);
    for (lindex_t i = 0; i < n_out; i += 7) every7.push_back(i);
    {
        std::set<lindex_t> rows;
        while (rows.size() < 300) rows.insert(lindex_t(rng() % std::uint64_t(n_out)));
        scattered.assign(rows.begin(), rows.end());
    }
    for (lindex_t i = n_out - 40; i < n_out; ++i) tail.push_back(i);
    column(0, every3);
    column(1, every5);
    // column 2 stays empty
    column(3, scattered);
    column(4, every7);
    column(5, every5);  // the same outputs as column 1: every head ties
    column(6, tail);
    column(7, std::vector<lindex_t>{n_out - 1});
    for (lindex_t j = 8; j < 12; ++j) column(j, std::vector<lindex_t>{j, lindex_t(j * 100)});
    // A short column before a long one in call order, tying with it at 2500 and 4998 (two
    // columns of which one is at least kClaimRunMergeRatio times the other merge in runs).
    column(12, std::vector<lindex_t>{3, 2500, 4998});
    std::vector<lindex_t> every2;
    for (lindex_t i = 0; i < n_out; i += 2) every2.push_back(i);
    column(13, every2);
    const ValueArray<Pattern> va(k.r.size());
    const auto dcsc = Dcsc<Pattern>::from_tuples(k.n_out, k.n_in, k.r, k.c, va);
    const auto view = make_view(dcsc);
    auto to_global = [](lindex_t j) { return std::int64_t(j) * 11 + 3; };
    std::vector<std::uint64_t> bits(bitmap_words(n_out), 0);
    for (std::size_t w = 0; w < bits.size(); ++w) bits[w] = rng();
    // The outputs of columns 6 and 7 (the last 40): as a complemented mask, all they reach is
    // masked.
    std::vector<std::uint64_t> tail_bits(bitmap_words(n_out), 0);
    for (lindex_t i : tail) tail_bits[i >> 6] |= std::uint64_t(1) << (i & 63);
    const std::vector<std::vector<lindex_t>> calls = {
        {0, 1, 3, 4},    {1, 5},  {3},          {2, 4},      {1, 2, 5, 6}, {6, 7},
        {0, 1, 3, 4, 6}, {7},     {0, 5, 8, 9}, {3, 7},      {1, 3},       {3, 6},
        {3, 8},          {0, 12}, {12, 13},     {6, 12, 13}, {2, 12, 13}};
    const ThreadsAtMost allow(2);
    for (int masked : {0, 1, 2, 3}) {
        MaskView mv = no_mask();
        if (masked == 1 || masked == 2) mv = MaskView{bits.data(), masked == 2};
        if (masked == 3) mv = MaskView{tail_bits.data(), true};
        for (int threads : {1, 2}) {
            ClaimWorkspace<std::int64_t> ws;
            ws.policy.max_threads = threads;
            ws.policy.min_parallel_work = threads == 1 ? ~std::size_t(0) : 1;
            SparseVector<std::int64_t> y, ya;
            for (const auto& ids : calls) {
                const Pairs expect = reference_min(k, chosen_of(n_in, ids), to_global,
                                                   [&](lindex_t i) { return mv.allows(i); });
                const std::string what =
                    std::to_string(ids.size()) + " inputs from " + std::to_string(ids[0]) +
                    ", mask " + std::to_string(masked) + ", threads " + std::to_string(threads);
                claim_min(view, ids, to_global, mv, y, ws);
                EXPECT_EQ(pairs_of(y), expect) << what;
                spmspv_claim<any_secondi<std::int64_t>>(view, std::span<const lindex_t>(ids),
                                                        to_global, mv, ya, ws);
                EXPECT_EQ(pairs_of(ya), expect) << what << " (any)";
            }
        }
    }
    // The cases above must reach what they are for: ties, an empty column, a wholly masked one.
    EXPECT_EQ(
        reference_min(k, chosen_of(n_in, {1, 5}), to_global, [](lindex_t) { return true; }).size(),
        every5.size());
    EXPECT_TRUE(reference_min(k, chosen_of(n_in, {6, 7}), to_global, [&](lindex_t i) {
                    return MaskView{tail_bits.data(), true}.allows(i);
                }).empty());
    // The short column first: its three outputs, two of them ties that keep its value.
    const Pairs short_first =
        reference_min(k, chosen_of(n_in, {12, 13}), to_global, [](lindex_t) { return true; });
    EXPECT_EQ(short_first.size(), every2.size() + 1);
    EXPECT_EQ(std::count_if(short_first.begin(), short_first.end(),
                            [&](const auto& p) { return p.second == to_global(12); }),
              3);
}
