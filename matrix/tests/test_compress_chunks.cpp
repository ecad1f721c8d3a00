// Building a block from tuples that arrive in chunks (compress_chunks, which frees each chunk
// once it is scattered) against the one-call compress(); the in-place duplicate fold; and
// CompressedBlock::is_symmetric, which lets a DistMatrix keep one copy of a block that equals
// its transpose.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gridblas/matrix/compressed_block.hpp"
#include "gridblas/matrix/detail/compress.hpp"

using namespace gridblas;
using detail::TupleChunk;

namespace {

struct Plus {
    double operator()(double a, double b) const { return a + b; }
};

// `nnz` random tuples in an nrows x ncols block, values 1..9, cut into `parts` chunks at
// random places (some chunks may be empty).
std::vector<TupleChunk<double>> random_chunks(std::mt19937_64& rng, lindex_t nrows, lindex_t ncols,
                                              std::size_t nnz, int parts) {
    std::vector<std::size_t> cuts{0, nnz};
    for (int k = 1; k < parts; ++k) cuts.push_back(rng() % (nnz + 1));
    std::sort(cuts.begin(), cuts.end());
    std::vector<TupleChunk<double>> chunks(cuts.size() - 1);
    for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
        for (std::size_t k = cuts[c]; k < cuts[c + 1]; ++k) {
            chunks[c].rows.push_back(lindex_t(rng() % nrows));
            chunks[c].cols.push_back(lindex_t(rng() % ncols));
            chunks[c].vals.push_back(double(1 + rng() % 9));
        }
    }
    return chunks;
}

TupleChunk<double> concatenated(const std::vector<TupleChunk<double>>& chunks) {
    TupleChunk<double> all;
    for (const auto& c : chunks) {
        all.rows.insert(all.rows.end(), c.rows.begin(), c.rows.end());
        all.cols.insert(all.cols.end(), c.cols.begin(), c.cols.end());
        for (std::size_t k = 0; k < c.vals.size(); ++k) all.vals.push_back(c.vals[k]);
    }
    return all;
}

void expect_same(const detail::Compressed<double>& a, const detail::Compressed<double>& b) {
    EXPECT_EQ(a.major_ids, b.major_ids);
    EXPECT_EQ(a.ptr, b.ptr);
    EXPECT_EQ(a.minor, b.minor);
    EXPECT_TRUE(a.vals == b.vals);
}

}  // namespace

TEST(CompressChunks, MatchesOneCallWithDuplicatesCombined) {
    std::mt19937_64 rng(5);
    // Dense-ish blocks take the counting sort, tall ones the hypersparse sort.
    for (auto [nrows, ncols] : {std::pair<lindex_t, lindex_t>{40, 30}, {7, 500}, {3'000'000, 9}}) {
        for (int parts : {1, 2, 5}) {
            for (std::size_t nnz : {std::size_t(0), std::size_t(1), std::size_t(3000)}) {
                auto chunks = random_chunks(rng, nrows, ncols, nnz, parts);
                const auto all = concatenated(chunks);
                const auto one =
                    detail::compress<double>(nrows, ncols, all.rows, all.cols, all.vals, true,
                                             DuplicatePolicy::combine, Plus{});
                const auto got = detail::compress_chunks<double>(nrows, ncols, std::move(chunks),
                                                                 DuplicatePolicy::combine, Plus{});
                expect_same(got, one);
                // The fold kept every tuple's value: the sum over entries is the input sum.
                double in = 0, out = 0;
                for (std::size_t k = 0; k < all.vals.size(); ++k) in += all.vals[k];
                for (std::size_t k = 0; k < got.vals.size(); ++k) out += got.vals[k];
                EXPECT_EQ(in, out);
            }
        }
    }
}

TEST(CompressChunks, MirroredTuplesStandForBothDirections) {
    std::mt19937_64 rng(9);
    // Counting sort (dense) and the sorting path (hypersparse), diagonal tuples included.
    for (lindex_t n : {lindex_t(30), lindex_t(3'000'000)}) {
        for (int parts : {1, 3}) {
            auto chunks = random_chunks(rng, n, n, 2000, parts);
            chunks.front().rows.push_back(4);  // a diagonal tuple is not doubled
            chunks.front().cols.push_back(4);
            chunks.front().vals.push_back(5.0);
            auto both = concatenated(chunks);
            const std::size_t m = both.rows.size();
            for (std::size_t k = 0; k < m; ++k) {
                if (both.rows[k] == both.cols[k]) continue;
                both.rows.push_back(both.cols[k]);
                both.cols.push_back(both.rows[k]);
                both.vals.push_back(both.vals[k]);
            }
            const auto want = detail::compress<double>(n, n, both.rows, both.cols, both.vals, true,
                                                       DuplicatePolicy::combine, Plus{});
            const auto got = detail::compress_chunks<double>(
                n, n, std::move(chunks), DuplicatePolicy::combine, Plus{}, true);
            expect_same(got, want);
        }
    }
    std::vector<TupleChunk<double>> rect(1);
    EXPECT_THROW(detail::compress_chunks<double>(3, 4, std::move(rect), DuplicatePolicy::combine,
                                                 Plus{}, true),
                 DimensionMismatch);
}

TEST(CompressChunks, PatternTuples) {
    std::vector<TupleChunk<Pattern>> chunks(2);
    chunks[0].rows = {2, 0, 2};
    chunks[0].cols = {1, 3, 1};
    chunks[0].vals.resize(3);
    chunks[1].rows = {0, 2};
    chunks[1].cols = {0, 0};
    chunks[1].vals.resize(2);
    const auto c =
        detail::compress_chunks<Pattern>(4, 4, std::move(chunks), DuplicatePolicy::combine);
    EXPECT_EQ(c.major_ids, (std::vector<lindex_t>{0, 2}));
    EXPECT_EQ(c.ptr, (std::vector<offset_t>{0, 2, 4}));
    EXPECT_EQ(c.minor, (std::vector<lindex_t>{0, 3, 0, 1}));
    EXPECT_EQ(c.vals.size(), 4u);
}

TEST(CompressChunks, DuplicateAcrossChunksIsRejectedByName) {
    std::vector<TupleChunk<double>> chunks(2);
    chunks[0].rows = {1, 3};
    chunks[0].cols = {2, 4};
    chunks[0].vals = ValueArray<double>(2, 1.0);
    chunks[1].rows = {3};
    chunks[1].cols = {4};
    chunks[1].vals = ValueArray<double>(1, 2.0);
    try {
        detail::compress_chunks<double>(5, 5, std::move(chunks));
        FAIL() << "a duplicate was accepted";
    } catch (const InvalidValue& e) {
        EXPECT_NE(std::string(e.what()).find("(3, 4)"), std::string::npos) << e.what();
    }
}

TEST(CompressChunks, OutOfRangeThrowsBeforeConsumingAnything) {
    std::vector<TupleChunk<double>> chunks(2);
    chunks[0].rows = {1};
    chunks[0].cols = {2};
    chunks[0].vals = ValueArray<double>(1, 1.0);
    chunks[1].rows = {7};
    chunks[1].cols = {0};
    chunks[1].vals = ValueArray<double>(1, 1.0);
    EXPECT_THROW(detail::compress_chunks<double>(5, 5, std::move(chunks)), IndexOutOfBounds);
    // The check runs before any chunk is taken apart.
    ASSERT_EQ(chunks.size(), 2u);
    EXPECT_EQ(chunks[0].rows.size(), 1u);
}

namespace {

// A random symmetric n x n block (values symmetric too), as (outer, inner, value) tuples.
TupleChunk<double> symmetric_tuples(std::mt19937_64& rng, lindex_t n, std::size_t pairs) {
    std::set<std::pair<lindex_t, lindex_t>> seen;
    TupleChunk<double> t;
    for (std::size_t k = 0; k < pairs; ++k) {
        const lindex_t i = lindex_t(rng() % n), j = lindex_t(rng() % n);
        if (!seen.insert({std::min(i, j), std::max(i, j)}).second) continue;
        const double v = double(1 + rng() % 9);
        t.rows.push_back(i);
        t.cols.push_back(j);
        t.vals.push_back(v);
        if (i != j) {
            t.rows.push_back(j);
            t.cols.push_back(i);
            t.vals.push_back(v);
        }
    }
    return t;
}

CompressedBlock<double> block_of(LocalFormat fmt, lindex_t n_outer, lindex_t n_inner,
                                 const TupleChunk<double>& t) {
    return CompressedBlock<double>::build(fmt, n_outer, n_inner, t.rows, t.cols, t.vals);
}

// The (outer, inner, value) entries of a block, sorted.
std::vector<std::tuple<lindex_t, lindex_t, double>> entries(const CompressedBlock<double>& b) {
    std::vector<std::tuple<lindex_t, lindex_t, double>> e;
    b.for_each([&](lindex_t o, lindex_t i, double v) { e.emplace_back(o, i, v); });
    return e;
}

}  // namespace

TEST(CompressedBlock, IsSymmetricFindsEveryKindOfMismatch) {
    std::mt19937_64 rng(11);
    for (auto fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
        for (lindex_t n : {lindex_t(1), lindex_t(50), lindex_t(2000)}) {
            const auto t = symmetric_tuples(rng, n, 3 * std::size_t(n));
            const auto b = block_of(fmt, n, n, t);
            EXPECT_TRUE(b.is_symmetric()) << to_string(fmt) << " n " << n;
            // A symmetric block swapped along the other index is itself.
            EXPECT_EQ(entries(b.swapped(fmt)), entries(b));

            // Drop the last tuple: unless it sat on the diagonal, its mirror is unmatched.
            auto missing = t;
            const bool diagonal = missing.rows.back() == missing.cols.back();
            missing.rows.pop_back();
            missing.cols.pop_back();
            missing.vals.resize(missing.vals.size() - 1);
            EXPECT_EQ(block_of(fmt, n, n, missing).is_symmetric(), diagonal);

            // Same pattern, one off-diagonal value changed.
            auto changed = t;
            for (std::size_t k = 0; k < changed.rows.size(); ++k) {
                if (changed.rows[k] != changed.cols[k]) {
                    changed.vals[k] += 1;
                    EXPECT_FALSE(block_of(fmt, n, n, changed).is_symmetric());
                    break;
                }
            }
        }
        // Equal counts above and below the diagonal but a wrong mirror: (0,1),(2,0) in 3x3.
        TupleChunk<double> skew;
        skew.rows = {0, 2};
        skew.cols = {1, 0};
        skew.vals = ValueArray<double>(2, 1.0);
        EXPECT_FALSE(block_of(fmt, 3, 3, skew).is_symmetric());
        // Not square, and empty.
        EXPECT_FALSE(block_of(fmt, 3, 4, TupleChunk<double>{}).is_symmetric());
        EXPECT_TRUE(block_of(fmt, 4, 4, TupleChunk<double>{}).is_symmetric());
    }
}
