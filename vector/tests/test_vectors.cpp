// Tests of the local vectors (sparse_vector.hpp, dense_vector.hpp, bitmap_vector.hpp,
// convert.hpp): construction from unsorted entries and its errors, bitmap set/test/reset at
// word boundaries, round trips between the three formats on random, empty and full vectors
// (valued and Pattern), and the density rule's hysteresis (convert.hpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/vector/bitmap_vector.hpp"
#include "gridblas/vector/convert.hpp"
#include "gridblas/vector/dense_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas {
namespace {

/// A random sparse vector of length n holding about density * n entries (values in 1..1000,
/// never 0, so that 0 can mark "absent" in a dense vector).
template <class T>
SparseVector<T> random_sparse(lindex_t n, double density, std::uint64_t seed) {
    std::mt19937_64 gen(seed);
    std::vector<lindex_t> ind;
    ValueArray<T> val;
    for (lindex_t i = 0; i < n; ++i) {
        if (double(gen() % 1000000) < density * 1000000) ind.push_back(i);
    }
    std::shuffle(ind.begin(), ind.end(), gen);
    for (std::size_t k = 0; k < ind.size(); ++k) {
        if constexpr (std::is_same_v<T, Pattern>) {
            val.push_back(Pattern{});
        } else {
            val.push_back(T(1 + gen() % 1000));
        }
    }
    return SparseVector<T>::from_entries(n, ind, val);
}

template <class T>
void expect_sorted_unique(const SparseVector<T>& s) {
    for (std::size_t k = 0; k < s.nvals(); ++k) {
        ASSERT_LT(s.indices()[k], s.size());
        if (k > 0) {
            ASSERT_LT(s.indices()[k - 1], s.indices()[k]);
        }
    }
    EXPECT_EQ(s.values().size(), s.nvals());
}

TEST(SparseVector, FromUnsortedEntries) {
    const std::vector<lindex_t> ind = {7, 2, 9, 0, 4};
    ValueArray<double> val;
    for (double v : {70.0, 20.0, 90.0, 0.5, 40.0}) val.push_back(v);
    const auto s = SparseVector<double>::from_entries(10, ind, val);
    EXPECT_EQ(s.size(), 10u);
    EXPECT_EQ(s.nvals(), 5u);
    EXPECT_FALSE(s.empty());
    EXPECT_EQ(s.indices(), (std::vector<lindex_t>{0, 2, 4, 7, 9}));
    EXPECT_EQ(s.values()[0], 0.5);
    EXPECT_EQ(s.values()[1], 20.0);
    EXPECT_EQ(s.values()[3], 70.0);
    EXPECT_EQ(s.values()[4], 90.0);

    // The same entries in another order give the same vector.
    const std::vector<lindex_t> ind2 = {9, 7, 4, 2, 0};
    ValueArray<double> val2;
    for (double v : {90.0, 70.0, 40.0, 20.0, 0.5}) val2.push_back(v);
    EXPECT_TRUE(SparseVector<double>::from_entries(10, ind2, val2) == s);

    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        expect_sorted_unique(random_sparse<int>(500, 0.2, seed));
    }
}

TEST(SparseVector, EntryErrorsNameTheEntry) {
    ValueArray<int> three(3, 1);
    try {
        SparseVector<int>::from_entries(10, std::vector<lindex_t>{3, 8, 3}, three);
        ADD_FAILURE() << "duplicate accepted";
    } catch (const InvalidValue& e) {
        EXPECT_NE(std::string(e.what()).find("duplicate index 3"), std::string::npos) << e.what();
    }
    try {
        SparseVector<int>::from_entries(10, std::vector<lindex_t>{3, 10, 1}, three);
        ADD_FAILURE() << "index 10 accepted in a vector of size 10";
    } catch (const IndexOutOfBounds& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("10"), std::string::npos) << msg;
        EXPECT_NE(msg.find("size 10"), std::string::npos) << msg;
    }
    EXPECT_THROW(SparseVector<int>::from_entries(0, std::vector<lindex_t>{0}, ValueArray<int>(1)),
                 IndexOutOfBounds);
    EXPECT_THROW(SparseVector<int>::from_entries(10, std::vector<lindex_t>{1, 2}, three),
                 DimensionMismatch);
    EXPECT_THROW(
        SparseVector<Pattern>::from_entries(5, std::vector<lindex_t>{4, 4}, ValueArray<Pattern>(2)),
        InvalidValue);
    // Empty input is a valid, empty vector.
    const auto e = SparseVector<int>::from_entries(4, std::vector<lindex_t>{}, ValueArray<int>());
    EXPECT_TRUE(e.empty());
    EXPECT_EQ(e.size(), 4u);
}

TEST(SparseVector, AppendClearReset) {
    SparseVector<float> s(100);
    EXPECT_TRUE(s.empty());
    s.push_back(3, 1.5f);
    s.push_back(50, -2.f);
    EXPECT_EQ(s.nvals(), 2u);
    EXPECT_EQ(s.values()[1], -2.f);
    s.clear();
    EXPECT_TRUE(s.empty());
    EXPECT_EQ(s.size(), 100u);
    s.push_back(1);
    s.reset(7);
    EXPECT_EQ(s.size(), 7u);
    EXPECT_EQ(s.nvals(), 0u);
    SparseVector<Pattern> p(10);
    p.push_back(4);
    EXPECT_EQ(p.values().size(), 1u);
    EXPECT_EQ(p.values().bytes(), 0u);
}

TEST(DenseVector, Basics) {
    DenseVector<int> d(5, -1);
    EXPECT_EQ(d.size(), 5u);
    EXPECT_EQ(d.nvals(), 5u);
    d[2] = 7;
    EXPECT_EQ(d.data()[2], 7);
    EXPECT_EQ(d.values(), (std::vector<int>{-1, -1, 7, -1, -1}));
    EXPECT_TRUE(DenseVector<int>(std::vector<int>{-1, -1, 7, -1, -1}) == d);
    EXPECT_EQ(DenseVector<double>(0).nvals(), 0u);
    EXPECT_EQ(DenseVector<lindex_t>(3).values(), (std::vector<lindex_t>{0, 0, 0}));
}

TEST(BitmapVector, SetTestResetAcrossWordBoundaries) {
    for (lindex_t n : {lindex_t(1), lindex_t(63), lindex_t(64), lindex_t(65), lindex_t(200)}) {
        BitmapVector<int> b(n);
        EXPECT_EQ(b.size(), n);
        EXPECT_EQ(b.words().size(), bitmap_words(n));
        EXPECT_EQ(b.nvals(), 0u);
        std::vector<lindex_t> probe = {0, 62, 63, 64, 65, 127, 128, lindex_t(n - 1)};
        probe.erase(std::remove_if(probe.begin(), probe.end(), [&](lindex_t i) { return i >= n; }),
                    probe.end());
        std::sort(probe.begin(), probe.end());
        probe.erase(std::unique(probe.begin(), probe.end()), probe.end());
        for (lindex_t i : probe) {
            EXPECT_FALSE(b.test(i)) << n << " " << i;
            EXPECT_TRUE(b.set(i, int(i) + 1)) << "was clear: " << i;
            EXPECT_FALSE(b.set(i, int(i) + 2)) << "already set: " << i;
            EXPECT_TRUE(b.test(i));
            EXPECT_EQ(b.value(i), int(i) + 2);
        }
        EXPECT_EQ(b.nvals(), probe.size());
        // Neighbours of the probed bits stay clear.
        for (lindex_t i = 0; i < n; ++i) {
            const bool probed = std::binary_search(probe.begin(), probe.end(), i);
            EXPECT_EQ(b.test(i), probed) << n << " " << i;
        }
        b.reset(probe[0]);
        EXPECT_FALSE(b.test(probe[0]));
        EXPECT_EQ(b.nvals(), probe.size() - 1);
        b.reset(probe[0]);  // resetting a clear bit is a no-op
        EXPECT_EQ(b.nvals(), probe.size() - 1);
        b.clear_all();
        EXPECT_EQ(b.nvals(), 0u);
    }
    EXPECT_EQ(bitmap_words(0), 0u);
    EXPECT_EQ(bitmap_words(64), 1u);
    EXPECT_EQ(bitmap_words(65), 2u);
    EXPECT_EQ(BitmapVector<int>(0).nvals(), 0u);
}

TEST(BitmapVector, EqualityIgnoresValuesOfAbsentEntries) {
    BitmapVector<int> a(70), b(70);
    a.set(5, 1);
    b.set(5, 1);
    a.set(66, 9);
    a.reset(66);  // leaves a stale value behind
    EXPECT_TRUE(a == b);
    b.set(5, 2);
    EXPECT_FALSE(a == b);
    EXPECT_FALSE(BitmapVector<int>(70) == BitmapVector<int>(71));
    BitmapVector<Pattern> p(10), q(10);
    p.set(3);
    EXPECT_FALSE(p == q);
    q.set(3);
    EXPECT_TRUE(p == q);
    EXPECT_TRUE(p.values().empty());
}

template <class T>
void check_round_trips(lindex_t n, double density, std::uint64_t seed) {
    const std::string what = "n " + std::to_string(n) + " density " + std::to_string(density);
    const auto s = random_sparse<T>(n, density, seed);
    const auto b = to_bitmap(s);
    EXPECT_EQ(b.nvals(), s.nvals()) << what;
    for (std::size_t k = 0; k < s.nvals(); ++k) {
        ASSERT_TRUE(b.test(s.indices()[k])) << what;
        if constexpr (!std::is_same_v<T, Pattern>) {
            ASSERT_EQ(b.value(s.indices()[k]), s.values()[k]) << what;
        }
    }
    EXPECT_TRUE(to_sparse(b) == s) << what;
    if constexpr (!std::is_same_v<T, Pattern>) {
        const auto d = to_dense(s, T(0));
        EXPECT_EQ(d.size(), n);
        for (lindex_t i = 0; i < n; ++i) {
            ASSERT_EQ(d[i] != T(0), b.test(i)) << what << " i " << i;
        }
        EXPECT_TRUE(to_sparse(d, T(0)) == s) << what;
        // Dense -> sparse keeping everything: n entries, the absent ones holding the fill.
        const auto full = to_sparse(d);
        EXPECT_EQ(full.nvals(), std::size_t(n)) << what;
        EXPECT_TRUE(to_dense(full, T(-7)) == d) << what;
    }
}

TEST(Conversions, RoundTripsOnRandomEmptyAndFullVectors) {
    std::uint64_t seed = 1;
    for (lindex_t n : {lindex_t(0), lindex_t(1), lindex_t(63), lindex_t(64), lindex_t(65),
                       lindex_t(1000), lindex_t(4099)}) {
        for (double density : {0.0, 0.01, 0.3, 0.97, 1.0}) {
            check_round_trips<int>(n, density, seed);
            check_round_trips<double>(n, density, seed);
            check_round_trips<Pattern>(n, density, seed);
            ++seed;
        }
    }
    // Full vectors really are full, empty ones empty.
    EXPECT_EQ(to_bitmap(random_sparse<int>(130, 1.0, 3)).nvals(), 130u);
    EXPECT_EQ(to_bitmap(random_sparse<int>(130, 0.0, 3)).nvals(), 0u);
}

TEST(Conversions, DenseToSparseDropsOnlyTheAbsentValue) {
    const DenseVector<int> d(std::vector<int>{0, -1, 5, -1, 0});
    const auto s = to_sparse(d, -1);
    EXPECT_EQ(s.indices(), (std::vector<lindex_t>{0, 2, 4}));
    EXPECT_EQ(s.values()[1], 5);
    EXPECT_EQ(s.values()[0], 0);
    EXPECT_TRUE(to_dense(s, -1) == d);
}

TEST(DensityRule, SwitchesWithHysteresis) {
    const DensityRule rule;  // 4% up, 2% down
    const std::size_t n = 10000;
    auto sparse = VectorFormat::sparse;
    auto bitmap = VectorFormat::bitmap;
    // Rising: stays sparse up to and including 4%, bitmap above.
    EXPECT_EQ(rule.choose(sparse, 0, n), sparse);
    EXPECT_EQ(rule.choose(sparse, 300, n), sparse);
    EXPECT_EQ(rule.choose(sparse, 400, n), sparse);
    EXPECT_EQ(rule.choose(sparse, 401, n), bitmap);
    // Falling: stays bitmap down to and including 2%, sparse below.
    EXPECT_EQ(rule.choose(bitmap, 10000, n), bitmap);
    EXPECT_EQ(rule.choose(bitmap, 300, n), bitmap);
    EXPECT_EQ(rule.choose(bitmap, 200, n), bitmap);
    EXPECT_EQ(rule.choose(bitmap, 199, n), sparse);
    // A vector oscillating inside the band never flips.
    VectorFormat f = sparse;
    for (int step = 0; step < 20; ++step) {
        f = rule.choose(f, step % 2 ? 210 : 390, n);
        EXPECT_EQ(f, sparse) << step;
    }
    f = bitmap;
    for (int step = 0; step < 20; ++step) {
        f = rule.choose(f, step % 2 ? 210 : 390, n);
        EXPECT_EQ(f, bitmap) << step;
    }
    // A BFS-like rise and fall flips exactly twice.
    f = sparse;
    int flips = 0;
    for (std::size_t nv : {1, 10, 100, 350, 450, 3000, 8000, 2000, 300, 250, 150, 10, 1}) {
        const VectorFormat g = rule.choose(f, nv, n);
        flips += g != f;
        f = g;
    }
    EXPECT_EQ(flips, 2);
    EXPECT_EQ(f, sparse);
    // Empty vectors are sparse; custom thresholds are honoured; dense is treated as bitmap.
    EXPECT_EQ(rule.choose(bitmap, 0, 0), sparse);
    EXPECT_EQ(rule.choose(sparse, 0, 0), sparse);
    const DensityRule custom{0.5, 0.1};
    EXPECT_EQ(custom.choose(sparse, 4000, n), sparse);
    EXPECT_EQ(custom.choose(sparse, 6000, n), bitmap);
    EXPECT_EQ(custom.choose(bitmap, 1500, n), bitmap);
    EXPECT_EQ(custom.choose(bitmap, 500, n), sparse);
    EXPECT_EQ(rule.choose(VectorFormat::dense, 300, n), bitmap);
    EXPECT_EQ(rule.choose(VectorFormat::dense, 100, n), sparse);
}

}  // namespace
}  // namespace gridblas
