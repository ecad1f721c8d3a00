// The piece scan of the rotating pull (pull_piece.hpp) and its bitmap helpers
// (outer_bitmap.hpp, bitmap_ops.hpp), against plain loops: on CSR and DCSC views of blocks
// with empty rows, at piece offsets that are and are not multiples of 64, with outputs
// already done, earlier candidates, and the work forced onto several threads.

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "gridblas/matrix/detail/default_init.hpp"
#include "test_kernels_common.hpp"

namespace {

using namespace kt;

/// Forces the threaded paths even on tiny inputs.
ParallelPolicy threaded_policy() {
    ParallelPolicy p;
    p.min_parallel_work = 1;
    p.chunk_rows = 64;
    p.max_threads = 4;
    return p;
}

/// Serial, with chunks of four words: the scan's look-ahead crosses words and ends at chunks.
ParallelPolicy four_word_chunks() {
    ParallelPolicy p;
    p.chunk_rows = 256;
    p.max_threads = 1;
    return p;
}

/// Rows with entries of a pull view, by a plain scan.
std::vector<bool> nonempty_rows(const CompressedView<Pattern>& v) {
    std::vector<bool> has(v.n_outer, false);
    for (std::size_t k = 0; k < v.num_outer; ++k) {
        if (v.ptr[k + 1] > v.ptr[k]) has[v.outer_id(k)] = true;
    }
    return has;
}

TEST(OuterBitmap, ListsTheStoredRowsAndTheirPositions) {
    // 300 rows, about half of them empty.
    const Tuples t = random_tuples(300, 200, 400, false, 7);
    const Blocks<Pattern> b(t);
    for (const auto& [name, view] : b.pull_views()) {
        SCOPED_TRACE(name);
        for (const ParallelPolicy& pol :
             {ParallelPolicy{}, threaded_policy(), four_word_chunks()}) {
            const OuterBitmap ob(view, pol);
            EXPECT_TRUE(ob.fits(view.n_outer));
            const std::vector<bool> has = nonempty_rows(view);
            for (std::size_t at : {0, 1, 63, 64, 100, 250, 299, 300, 380, 1000}) {
                std::uint64_t want = 0;
                for (std::size_t i = at; i < std::min<std::size_t>(at + 64, 300); ++i) {
                    if (has[i]) want |= std::uint64_t(1) << (i - at);
                }
                EXPECT_EQ(ob.word_at(at), want) << "at " << at;
            }
            for (std::size_t k = 0; k < view.num_outer; ++k) {
                EXPECT_EQ(ob.position(view.outer_id(k)), k);
            }
        }
    }
}

TEST(BitmapOps, SetBitsSortedMatchesOneBitAtATime) {
    std::mt19937_64 rng(3);
    for (std::size_t n : {0, 1, 5, 64, 1000, 5000}) {
        std::set<lindex_t> s;
        while (s.size() < n) s.insert(lindex_t(rng() % 8000));
        const std::vector<lindex_t> ids(s.begin(), s.end());
        for (const ParallelPolicy& pol :
             {ParallelPolicy{}, threaded_policy(), four_word_chunks()}) {
            std::vector<std::uint64_t> got(125, 0), want(125, 0);
            got[3] = want[3] = 0x5;  // bits already set stay set
            for (lindex_t i : ids) want[i >> 6] |= std::uint64_t(1) << (i & 63);
            set_bits_sorted(got.data(), ids.data(), ids.size(), pol);
            EXPECT_EQ(got, want) << n << " ids";
        }
    }
}

TEST(BitmapOps, CollectCandidatesListsMarkedOutputsInOrderAndClearsThem) {
    std::mt19937_64 rng(5);
    const lindex_t len = 1000;
    for (const ParallelPolicy& pol : {ParallelPolicy{}, threaded_policy(), four_word_chunks()}) {
        std::vector<std::uint64_t> has(bitmap_words(len), 0);
        std::vector<gindex_t> best(len, -1);
        std::vector<lindex_t> want_ids;
        std::vector<gindex_t> want_vals;
        for (lindex_t v = 0; v < len; ++v) {
            if (rng() % 3 == 0) {
                has[v >> 6] |= std::uint64_t(1) << (v & 63);
                best[v] = gindex_t(rng() % 100000);
                want_ids.push_back(v);
                want_vals.push_back(best[v]);
            }
        }
        const std::vector<std::uint64_t> has0 = has;
        std::vector<lindex_t> ids = {7, 7};  // replaced, not appended to
        std::vector<gindex_t> vals = {7, 7};
        collect_candidates(has.data(), best.data(), len, ids, vals, pol);
        EXPECT_EQ(ids, want_ids);
        EXPECT_EQ(vals, want_vals);
        EXPECT_TRUE(std::all_of(has.begin(), has.end(), [](std::uint64_t w) { return w == 0; }));
        // Into a sparse vector's own lists (values in a ValueArray, left unzeroed when grown).
        has = has0;
        SparseVector<gindex_t> y(len);
        y.push_back(3, 5);
        collect_candidates(has.data(), best.data(), len, y.indices(), y.values(), pol);
        EXPECT_EQ(y.indices(), want_ids);
        ASSERT_EQ(y.values().size(), want_vals.size());
        EXPECT_TRUE(std::equal(want_vals.begin(), want_vals.end(), y.values().data()));
    }
}

/// append_final_candidates into lists of type Ids / Vals (std::vector, or the
/// OverwriteVector of the rotating pull, which grows without zeroing).
template <class Ids, class Vals>
void check_append_final_candidates() {
    std::mt19937_64 rng(9);
    const lindex_t len = 700;  // not a multiple of 64
    const lindex_t first = 5000;
    std::vector<std::uint64_t> has(bitmap_words(len), 0), done(bitmap_words(len), 0);
    std::vector<gindex_t> best(len, -1);
    // Lists already holding an earlier chunk's finds keep them in front.
    Ids ids{1, 2};
    Vals vals{10, 20};
    std::vector<lindex_t> want_ids{1, 2};
    std::vector<gindex_t> want_vals{10, 20};
    std::vector<std::uint64_t> want_done(done.size(), 0);
    for (lindex_t v = 0; v < len; ++v) {
        const bool was_done = rng() % 4 == 0;
        if (was_done) {
            done[v >> 6] |= std::uint64_t(1) << (v & 63);
            want_done[v >> 6] |= std::uint64_t(1) << (v & 63);
        } else if (rng() % 3 == 0) {
            has[v >> 6] |= std::uint64_t(1) << (v & 63);
            want_done[v >> 6] |= std::uint64_t(1) << (v & 63);
            best[v] = gindex_t(rng() % 100000);
            want_ids.push_back(first + v);
            want_vals.push_back(best[v]);
        }
    }
    append_final_candidates(has.data(), best.data(), len, done.data(), first, ids, vals);
    EXPECT_TRUE(std::equal(ids.begin(), ids.end(), want_ids.begin(), want_ids.end()));
    EXPECT_TRUE(std::equal(vals.begin(), vals.end(), want_vals.begin(), want_vals.end()));
    EXPECT_EQ(done, want_done);
    EXPECT_TRUE(std::all_of(has.begin(), has.end(), [](std::uint64_t w) { return w == 0; }));
}

TEST(BitmapOps, AppendFinalCandidatesMarksThemDoneAndAppendsShifted) {
    check_append_final_candidates<std::vector<lindex_t>, std::vector<gindex_t>>();
    check_append_final_candidates<gridblas::detail::OverwriteVector<lindex_t>,
                                  gridblas::detail::OverwriteVector<gindex_t>>();
}

TEST(BitmapOps, MergeOfDisjointCandidateListsKeepsOrderAndFlagsOverlap) {
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 20; ++trial) {
        // Each output goes to one list or the other (or neither), values follow it.
        std::vector<lindex_t> a, b, want;
        std::vector<gindex_t> av, bv, want_v;
        for (lindex_t v = 0; v < 500; ++v) {
            const auto r = rng() % 5;
            if (r == 0 || (trial == 0 && r < 4)) {
                a.push_back(v);
                av.push_back(gindex_t(v) * 3);
            } else if (r == 1 && trial != 1) {
                b.push_back(v);
                bv.push_back(gindex_t(v) * 3);
            } else {
                continue;
            }
            want.push_back(v);
            want_v.push_back(gindex_t(v) * 3);
        }
        std::vector<lindex_t> out{7};  // overwritten
        std::vector<gindex_t> out_v{7};
        EXPECT_TRUE(merge_disjoint_candidates(a, av, b, bv, out, out_v));
        EXPECT_EQ(out, want);
        EXPECT_EQ(out_v, want_v);
        EXPECT_TRUE(merge_disjoint_candidates(b, bv, a, av, out, out_v));  // either order
        EXPECT_EQ(out, want);
        EXPECT_EQ(out_v, want_v);
        // The rotating pull's containers: lists that grow without zeroing, merged into a
        // sparse vector's ids and values.
        const gridblas::detail::OverwriteVector<lindex_t> oa(a.begin(), a.end());
        const gridblas::detail::OverwriteVector<gindex_t> oav(av.begin(), av.end());
        SparseVector<gindex_t> y(500);
        y.push_back(499, 1);  // overwritten
        EXPECT_TRUE(merge_disjoint_candidates(oa, oav, b, bv, y.indices(), y.values()));
        EXPECT_EQ(y.indices(), want);
        ASSERT_EQ(y.values().size(), want_v.size());
        EXPECT_TRUE(std::equal(want_v.begin(), want_v.end(), y.values().data()));
    }
    const std::vector<gindex_t> v3{1, 2, 3};
    const std::vector<gindex_t> v2{1, 2};
    std::vector<lindex_t> out;
    std::vector<gindex_t> out_v;
    // An output on both lists, a list out of order, a repeat inside one list's tail.
    EXPECT_FALSE(merge_disjoint_candidates(std::vector<lindex_t>{1, 4, 9}, v3,
                                           std::vector<lindex_t>{2, 4}, v2, out, out_v));
    EXPECT_FALSE(merge_disjoint_candidates(std::vector<lindex_t>{5, 3, 9}, v3,
                                           std::vector<lindex_t>{1, 2}, v2, out, out_v));
    EXPECT_FALSE(merge_disjoint_candidates(std::vector<lindex_t>{1, 8, 8}, v3,
                                           std::vector<lindex_t>{2, 4}, v2, out, out_v));
}

/// pull_piece with the positional semirings against a plain scan: output v of the piece
/// gets the smallest (min) or some (any) global index of a present input among its entries,
/// combined with an earlier candidate; done outputs are untouched.
template <class S>
void check_piece(const CompressedView<Pattern>& view, lindex_t offset, lindex_t len,
                 const ParallelPolicy& pol, std::uint64_t seed) {
    constexpr bool is_min = !semiring_has_terminal<S>();
    constexpr gindex_t shift = 1000;  // global index of input j is j + shift
    std::mt19937_64 rng(seed);
    BitmapVector<Pattern> x(view.n_inner);
    for (lindex_t j = 0; j < view.n_inner; ++j) {
        if (rng() % 4 == 0) x.set(j);
    }
    const std::size_t words = bitmap_words(len);
    std::vector<std::uint64_t> done(words, 0), has(words, 0);
    std::vector<gindex_t> best(len, -1);
    for (lindex_t v = 0; v < len; ++v) {
        if (rng() % 5 == 0) done[v >> 6] |= std::uint64_t(1) << (v & 63);
        if (rng() % 6 == 0) {
            has[v >> 6] |= std::uint64_t(1) << (v & 63);
            best[v] = shift + gindex_t(rng() % std::uint64_t(view.n_inner));
        }
    }
    const std::vector<std::uint64_t> has0 = has;
    const std::vector<gindex_t> best0 = best;
    PullPiece<gindex_t> pc{offset, len, done.data(), has.data(), best.data()};
    const OuterBitmap ob(view, pol);
    pull_piece<S>(
        view, ob, x, pc, [&](lindex_t j) { return gindex_t(j) + shift; },
        [&](gindex_t c) { return lindex_t(std::max<gindex_t>(0, c - shift)); }, pol);
    for (lindex_t v = 0; v < len; ++v) {
        const bool was = (has0[v >> 6] >> (v & 63)) & 1u;
        const bool is = (has[v >> 6] >> (v & 63)) & 1u;
        if ((done[v >> 6] >> (v & 63)) & 1u) {
            EXPECT_EQ(is, was) << "done output " << v;
            EXPECT_EQ(best[v], best0[v]);
            continue;
        }
        std::vector<gindex_t> present;
        const std::size_t k = view.find_outer(offset + v);
        if (k != npos) {
            for (offset_t p = view.ptr[k]; p < view.ptr[k + 1]; ++p) {
                if (x.test(view.inner[p])) present.push_back(gindex_t(view.inner[p]) + shift);
            }
        }
        if (was) present.push_back(best0[v]);
        ASSERT_EQ(is, !present.empty()) << "output " << v;
        if (present.empty()) continue;
        if (is_min) {
            EXPECT_EQ(best[v], *std::min_element(present.begin(), present.end())) << v;
        } else if (!was) {
            EXPECT_NE(std::find(present.begin(), present.end(), best[v]), present.end()) << v;
        }
    }
}

TEST(PullPiece, MatchesAPlainScanOnEveryFormatAndOffset) {
    const Tuples t = random_tuples(700, 500, 3000, true, 11);
    const Blocks<Pattern> b(t);
    std::uint64_t seed = 1;
    for (const auto& [name, view] : b.pull_views()) {
        SCOPED_TRACE(name);
        for (const ParallelPolicy& pol :
             {ParallelPolicy{}, threaded_policy(), four_word_chunks()}) {
            for (auto [offset, len] : {std::pair<lindex_t, lindex_t>{0, 700},
                                       {64, 300},
                                       {37, 333},
                                       {500, 200},
                                       {699, 1}}) {
                SCOPED_TRACE(::testing::Message() << "piece " << offset << "+" << len);
                check_piece<min_secondi<gindex_t>>(view, offset, len, pol, ++seed);
                check_piece<any_secondi<gindex_t>>(view, offset, len, pol, ++seed);
            }
        }
    }
}

}  // namespace
