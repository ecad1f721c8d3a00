// Tests of the kernels' building blocks: CompressedView over DCSC and CSR blocks, the
// OuterLookup bucket index against binary search, MaskView semantics (GraphBLAS: no mask
// plus complement allows nothing) and the mask builders, and the radix sort's stability.

#include <algorithm>

#include "test_kernels_common.hpp"

namespace {

using namespace kt;

TEST(CompressedView, DescribesDcscAndCsrBlocks) {
    const Tuples t = random_tuples(30, 1000, 50, false, 4);
    const Blocks<double> b(t);
    const auto vd = make_view(b.dcsc_a);
    EXPECT_EQ(vd.n_outer, 1000u);
    EXPECT_EQ(vd.n_inner, 30u);
    EXPECT_EQ(vd.num_outer, b.dcsc_a.nzc());
    EXPECT_EQ(vd.nnz(), 50u);
    ASSERT_NE(vd.outer_ids, nullptr);
    for (std::size_t k = 0; k < vd.num_outer; ++k) {
        EXPECT_EQ(vd.outer_id(k), b.dcsc_a.jc()[k]);
        EXPECT_EQ(vd.find_outer(vd.outer_id(k)), k);
    }
    const auto vc = make_view(b.csr_a);
    EXPECT_EQ(vc.n_outer, 30u);
    EXPECT_EQ(vc.n_inner, 1000u);
    EXPECT_EQ(vc.outer_ids, nullptr);
    EXPECT_EQ(vc.num_outer, 30u);
    EXPECT_EQ(vc.find_outer(7), 7u);
    EXPECT_EQ(vc.nnz(), 50u);
    // An empty DCSC block lists no columns (not "every column").
    const Dcsc<double> empty(5, 5);
    const auto ve = make_view(empty);
    EXPECT_NE(ve.outer_ids, nullptr);
    EXPECT_EQ(ve.num_outer, 0u);
    EXPECT_EQ(ve.nnz(), 0u);
    EXPECT_EQ(ve.find_outer(3), npos);
}

// Both forms of the index (buckets; positions of every outer id when a quarter or more are
// stored: n 1000 with 900 ids, n 2 and 63 with 17) against a binary search.
TEST(OuterLookup, AgreesWithBinarySearch) {
    std::mt19937_64 g(5);
    for (const lindex_t n : {1u, 2u, 63u, 64u, 1000u, 100000u, 4000000000u}) {
        for (const std::size_t k :
             {std::size_t(0), std::size_t(1), std::size_t(17), std::size_t(900)}) {
            std::set<lindex_t> s;
            while (s.size() < std::min<std::size_t>(k, n)) s.insert(lindex_t(g() % n));
            if (n > 1000 && k > 1) s.insert(n - 1);  // the largest id
            const std::vector<lindex_t> ids(s.begin(), s.end());
            const OuterLookup lk(ids.data(), ids.size(), n);
            // Buckets take about one word per stored id; a block with a quarter or more of
            // its outer ids stored keeps one word per outer id instead.
            const bool dense = std::uint64_t(ids.size()) * 4 >= n;
            EXPECT_LE(lk.memory_bytes(), (dense ? 4 * std::size_t(n) : 4 * (ids.size() + 3)) + 64);
            auto check = [&](lindex_t j) {
                const auto it = std::lower_bound(ids.begin(), ids.end(), j);
                const std::size_t want =
                    (it != ids.end() && *it == j) ? std::size_t(it - ids.begin()) : npos;
                ASSERT_EQ(lk.find(j, ids.data()), want) << "n " << n << " j " << j;
            };
            for (lindex_t j : ids) check(j);
            for (int r = 0; r < 2000; ++r) check(lindex_t(g() % n));
            check(0);
            check(n - 1);
        }
    }
}

// A lookup given the block's pointers keeps every outer id's entry range when a quarter or
// more of the ids are stored (and the entries fit 32-bit offsets): a view over it must give
// the same ranges and positions as one that binary-searches.
TEST(OuterLookup, DirectRangesAgreeWithTheBlock) {
    for (const std::size_t cols : {std::size_t(1), std::size_t(40), std::size_t(300)}) {
        const Tuples t = random_tuples(50, 1000, cols * 3, false, unsigned(cols));
        const Blocks<double> b(t);
        const OuterLookup lk = make_lookup(b.dcsc_a);
        const auto fast = make_view(b.dcsc_a, &lk);
        const auto slow = make_view(b.dcsc_a);
        const bool dense = std::uint64_t(b.dcsc_a.nzc()) * 4 >= 1000;
        EXPECT_EQ(fast.ranges != nullptr, dense) << "nzc " << b.dcsc_a.nzc();
        for (lindex_t j = 0; j < 1000; ++j) {
            ASSERT_EQ(fast.find_outer(j), slow.find_outer(j)) << "column " << j;
            const auto [first, last] = fast.outer_range(j);
            const std::size_t k = slow.find_outer(j);
            if (k == npos) {
                EXPECT_EQ(first, last) << "column " << j;  // empty (where is unspecified)
            } else {
                EXPECT_EQ(first, slow.ptr[k]) << "column " << j;
                EXPECT_EQ(last, slow.ptr[k + 1]) << "column " << j;
            }
        }
    }
    // Without the pointers the dense form keeps positions, and ranges come from them.
    const Tuples t = random_tuples(50, 100, 400, false, 9);
    const Blocks<double> b(t);
    const OuterLookup positions(b.dcsc_a.jc().data(), b.dcsc_a.nzc(), 100);
    EXPECT_EQ(positions.ranges(), nullptr);
    const auto v = make_view(b.dcsc_a, &positions);
    const auto slow = make_view(b.dcsc_a);
    for (lindex_t j = 0; j < 100; ++j) {
        const auto [first, last] = v.outer_range(j);
        const std::size_t k = slow.find_outer(j);
        EXPECT_EQ(first, k == npos ? 0 : slow.ptr[k]) << "column " << j;
        EXPECT_EQ(last, k == npos ? 0 : slow.ptr[k + 1]) << "column " << j;
    }
}

// run_parts() calls every part once, on the calling thread when there is one part;
// run_team() gives its body a team of one when asked for one thread, even inside an
// enclosing parallel region.
TEST(ParallelHelpers, RunEveryPartOnceAndKeepAOneThreadTeam) {
    for (const int parts : {1, 2, 5}) {
        std::vector<int> calls(std::size_t(parts), 0);
        kernels::detail::run_parts(parts, [&](int t) { ++calls[std::size_t(t)]; });
        EXPECT_EQ(calls, std::vector<int>(std::size_t(parts), 1)) << parts << " parts";
    }
    int bad = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad)
    {
        kernels::detail::run_team(1, [&] {
            bad += kernels::detail::thread_id() != 0 || kernels::detail::team_size() != 1;
        });
    }
    EXPECT_EQ(bad, 0);
    int seen = 0;
    kernels::detail::run_team(1, [&] { seen = kernels::detail::team_size(); });
    EXPECT_EQ(seen, 1);
}

TEST(OuterLookup, HandlesClusteredIds) {
    // Every stored id in one bucket: the lookup falls back to a binary search inside it.
    std::vector<lindex_t> ids;
    for (lindex_t j = 500000; j < 500300; ++j) ids.push_back(j);
    const OuterLookup lk(ids.data(), ids.size(), 1000000);
    for (lindex_t j = 499990; j < 500310; ++j) {
        const std::size_t want = (j >= 500000 && j < 500300) ? std::size_t(j - 500000) : npos;
        EXPECT_EQ(lk.find(j, ids.data()), want);
    }
}

TEST(MaskView, FollowsGraphBlasSemantics) {
    const std::uint64_t bits[2] = {0b1010, std::uint64_t(1) << 5};
    const MaskView m{bits, false}, c{bits, true};
    EXPECT_TRUE(m.allows(1));
    EXPECT_FALSE(m.allows(0));
    EXPECT_TRUE(m.allows(69));
    EXPECT_FALSE(c.allows(1));
    EXPECT_TRUE(c.allows(0));
    EXPECT_FALSE(c.allows(69));
    // No mask: everything; no mask with complement: nothing.
    EXPECT_TRUE(no_mask().allows(12345));
    EXPECT_TRUE(no_mask().allows_all());
    const MaskView none{nullptr, true};
    EXPECT_FALSE(none.allows(0));
    EXPECT_TRUE(none.allows_none());
    // word() trims the bits past the output's length.
    EXPECT_EQ(c.word(1, 70), (std::uint64_t(0x3f) & ~(std::uint64_t(1) << 5)));
    EXPECT_EQ(no_mask().word(1, 70), std::uint64_t(0x3f));
    EXPECT_EQ(no_mask().word(0, 70), ~std::uint64_t(0));
    EXPECT_EQ(none.word(0, 70), 0u);
}

TEST(MaskView, BuildersMatchTheirVectorsForEveryKind) {
    for (const lindex_t n : {1u, 64u, 65u, 1000u}) {
        for (MaskKind k : all_masks()) {
            const TestMask m(k, n, n + 3);
            for (lindex_t i = 0; i < n; ++i) {
                ASSERT_EQ(m.view.allows(i), m.allowed[i] != 0) << "n " << n << " i " << i;
            }
        }
    }
}

TEST(MaskView, StructuralBitmapMaskSharesTheVectorsBits) {
    BitmapVector<int> b(100);
    b.set(3, 0);
    MaskStorage st;
    const MaskView s = make_mask(b, 100, true, false, st);
    EXPECT_EQ(s.bits, b.words().data());
    EXPECT_TRUE(s.allows(3));
    const MaskView v = make_mask(b, 100, false, false, st);
    EXPECT_FALSE(v.allows(3));  // stored zero: false in a valued mask
}

TEST(MaskView, BuildersRejectAWrongLength) {
    MaskStorage st;
    try {
        make_mask(SparseVector<int>(10), 11, true, false, st);
        FAIL() << "expected DimensionMismatch";
    } catch (const DimensionMismatch& e) {
        EXPECT_NE(std::string(e.what()).find("10"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("11"), std::string::npos);
    }
    EXPECT_THROW(make_mask(BitmapVector<int>(10), 9, true, false, st), DimensionMismatch);
    EXPECT_THROW(make_mask(DenseVector<int>(10), 9, false, true, st), DimensionMismatch);
}

TEST(RadixSort, IsStableAndIndependentOfThreadsAndChunking) {
    using E = gridblas::kernels::detail::KeyValue<std::uint32_t>;
    std::mt19937_64 g(9);
    for (const std::size_t n : {std::size_t(10), std::size_t(5000), std::size_t(100000)}) {
        for (const lindex_t bound : {1u, 2u, 3000u, 1u << 22}) {
            // Two chunks with a gap between them, as the gather leaves them.
            std::vector<E> a(n + 100), b(n + 100);
            const std::size_t cb[2] = {0, n / 3 + 100};
            const std::size_t ce[2] = {n / 3, n + 100};
            std::vector<E> expect;
            std::uint32_t seq = 0;
            for (int c = 0; c < 2; ++c) {
                for (std::size_t p = cb[c]; p < ce[c]; ++p) {
                    a[p] = {lindex_t(g() % bound), seq++};
                    expect.push_back(a[p]);
                }
            }
            std::stable_sort(expect.begin(), expect.end(),
                             [](const E& x, const E& y) { return x.key < y.key; });
            for (int threads : {1, 2}) {
                std::vector<E> a2 = a, b2 = b;
                std::vector<std::size_t> hist;
                std::size_t total = 0;
                const E* out = nullptr;
                with_threads(threads, [&] {
                    out = gridblas::kernels::detail::radix_sort_chunks(
                        a2.data(), b2.data(), cb, ce, 2, bound, threads, hist, &total);
                });
                ASSERT_EQ(total, expect.size());
                for (std::size_t p = 0; p < total; ++p) {
                    ASSERT_EQ(out[p].key, expect[p].key) << p;
                    ASSERT_EQ(out[p].val, expect[p].val) << p;
                }
            }
        }
    }
}

}  // namespace
