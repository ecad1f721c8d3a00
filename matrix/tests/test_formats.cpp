// Tests of the local sparse formats (dcsc.hpp, csr.hpp, convert.hpp, eigen_interop.hpp):
// building from tuples in any order against Eigen as the oracle, DCSC <-> CSR conversions and
// transposes, edge shapes (0x0, 1xn, nx1, empty rows/columns), hypersparse blocks (O(nnz)
// memory, checked by counting allocations), duplicate rejection and combination, index
// errors, Pattern matrices and the memory footprint query.

#include <gtest/gtest.h>

#include <Eigen/SparseCore>
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <new>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/matrix/convert.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dcsc.hpp"
#include "gridblas/matrix/eigen_interop.hpp"

// ---- allocation tracking: the largest single allocation since the last reset ----
// Replacing the global operator new clashes with the sanitizers' own allocators, so the
// tracking (and the checks that need it) is off in sanitizer builds.

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GRIDBLAS_TEST_TRACK_ALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define GRIDBLAS_TEST_TRACK_ALLOC 0
#endif
#endif
#ifndef GRIDBLAS_TEST_TRACK_ALLOC
#define GRIDBLAS_TEST_TRACK_ALLOC 1
#endif

namespace {
std::atomic<std::size_t> g_largest_alloc{0};
}  // namespace

#if GRIDBLAS_TEST_TRACK_ALLOC
// noinline: GCC would otherwise inline these into std::allocator and warn about a
// new/free mismatch that is not there.
[[gnu::noinline]] void* operator new(std::size_t n) {
    std::size_t prev = g_largest_alloc.load(std::memory_order_relaxed);
    while (n > prev && !g_largest_alloc.compare_exchange_weak(prev, n)) {
    }
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace gridblas {
namespace {

using Tuples = std::vector<std::tuple<lindex_t, lindex_t, double>>;
using EigenMat = Eigen::SparseMatrix<double>;

/// Random distinct (row, col) positions with values in [-5, 5), in random order.
Tuples random_tuples(lindex_t nr, lindex_t nc, std::size_t nnz, std::uint64_t seed) {
    std::mt19937_64 gen(seed);
    std::map<std::pair<lindex_t, lindex_t>, double> m;
    const std::uint64_t cells = std::uint64_t(nr) * nc;
    nnz = std::size_t(std::min<std::uint64_t>(nnz, cells));
    while (m.size() < nnz) {
        const auto r = lindex_t(gen() % nr);
        const auto c = lindex_t(gen() % nc);
        m[{r, c}] = double(int(gen() % 10) - 5);  // explicit zeros included
    }
    Tuples t;
    for (const auto& [rc, v] : m) t.emplace_back(rc.first, rc.second, v);
    std::shuffle(t.begin(), t.end(), gen);
    return t;
}

struct Arrays {
    std::vector<lindex_t> rows, cols;
    ValueArray<double> vals;
};
Arrays split(const Tuples& t) {
    Arrays a;
    for (const auto& [r, c, v] : t) {
        a.rows.push_back(r);
        a.cols.push_back(c);
        a.vals.push_back(v);
    }
    return a;
}

EigenMat eigen_of(lindex_t nr, lindex_t nc, const Tuples& t) {
    std::vector<Eigen::Triplet<double>> trips;
    for (const auto& [r, c, v] : t) trips.emplace_back(r, c, v);
    EigenMat m(nr, nc);
    m.setFromTriplets(trips.begin(), trips.end());
    m.makeCompressed();
    return m;
}

/// Exact equality of two Eigen matrices: shape, stored positions (explicit zeros included)
/// and values.
void expect_same(EigenMat a, EigenMat b, const std::string& what) {
    a.makeCompressed();
    b.makeCompressed();
    ASSERT_EQ(a.rows(), b.rows()) << what;
    ASSERT_EQ(a.cols(), b.cols()) << what;
    ASSERT_EQ(a.nonZeros(), b.nonZeros()) << what;
    for (Eigen::Index j = 0; j <= a.outerSize(); ++j) {
        ASSERT_EQ(a.outerIndexPtr()[j], b.outerIndexPtr()[j]) << what << " column " << j;
    }
    for (Eigen::Index k = 0; k < a.nonZeros(); ++k) {
        ASSERT_EQ(a.innerIndexPtr()[k], b.innerIndexPtr()[k]) << what << " entry " << k;
        ASSERT_EQ(a.valuePtr()[k], b.valuePtr()[k]) << what << " entry " << k;
    }
}

template <class T>
void expect_well_formed(const Dcsc<T>& m) {
    ASSERT_EQ(m.cp().size(), m.nzc() + 1);
    EXPECT_EQ(m.cp().front(), 0u);
    EXPECT_EQ(m.cp().back(), m.nnz());
    EXPECT_EQ(m.num().size(), m.nnz());
    for (std::size_t k = 0; k < m.nzc(); ++k) {
        ASSERT_LT(m.jc()[k], m.ncols());
        if (k > 0) {
            ASSERT_LT(m.jc()[k - 1], m.jc()[k]) << "columns ascending";
        }
        ASSERT_LT(m.cp()[k], m.cp()[k + 1]) << "listed columns are non-empty";
        for (offset_t p = m.cp()[k]; p < m.cp()[k + 1]; ++p) {
            ASSERT_LT(m.ir()[p], m.nrows());
            if (p > m.cp()[k]) {
                ASSERT_LT(m.ir()[p - 1], m.ir()[p]) << "rows ascending";
            }
        }
    }
}

template <class T>
void expect_well_formed(const Csr<T>& m) {
    ASSERT_EQ(m.rowptr().size(), std::size_t(m.nrows()) + 1);
    EXPECT_EQ(m.rowptr().front(), 0u);
    EXPECT_EQ(m.rowptr().back(), m.nnz());
    EXPECT_EQ(m.vals().size(), m.nnz());
    for (lindex_t i = 0; i < m.nrows(); ++i) {
        ASSERT_LE(m.rowptr()[i], m.rowptr()[i + 1]);
        for (offset_t p = m.rowptr()[i]; p < m.rowptr()[i + 1]; ++p) {
            ASSERT_LT(m.colind()[p], m.ncols());
            if (p > m.rowptr()[i]) {
                ASSERT_LT(m.colind()[p - 1], m.colind()[p]);
            }
        }
    }
}

/// Builds DCSC and CSR from shuffled tuples and checks everything against Eigen.
void check_shape(lindex_t nr, lindex_t nc, std::size_t nnz, std::uint64_t seed) {
    const std::string what = std::to_string(nr) + " x " + std::to_string(nc) + " nnz " +
                             std::to_string(nnz) + " seed " + std::to_string(seed);
    const Tuples t = random_tuples(nr, nc, nnz, seed);
    const Arrays a = split(t);
    const EigenMat ref = eigen_of(nr, nc, t);

    const auto d = Dcsc<double>::from_tuples(nr, nc, a.rows, a.cols, a.vals);
    const auto c = Csr<double>::from_tuples(nr, nc, a.rows, a.cols, a.vals);
    expect_well_formed(d);
    expect_well_formed(c);
    EXPECT_EQ(d.nnz(), t.size()) << what;
    EXPECT_EQ(c.nnz(), t.size()) << what;
    expect_same(to_eigen<double>(d), ref, "dcsc " + what);
    expect_same(to_eigen<double>(c), ref, "csr " + what);

    // Conversions give exactly the directly built matrices.
    EXPECT_TRUE(to_csr(d) == c) << what;
    EXPECT_TRUE(to_dcsc(c) == d) << what;
    EXPECT_TRUE(to_dcsc(to_csr(d)) == d) << what;

    // Transposes.
    const EigenMat ref_t = EigenMat(ref.transpose());
    const auto dt = transpose(d);
    const auto ct = transpose(c);
    expect_well_formed(dt);
    expect_well_formed(ct);
    EXPECT_EQ(dt.nrows(), nc);
    EXPECT_EQ(dt.ncols(), nr);
    expect_same(to_eigen<double>(dt), ref_t, "dcsc^T " + what);
    expect_same(to_eigen<double>(ct), ref_t, "csr^T " + what);
    EXPECT_TRUE(transpose(dt) == d) << what;
    EXPECT_TRUE(transpose(ct) == c) << what;
    EXPECT_TRUE(to_csr(dt) == ct) << what;

    // Eigen round trips, from column- and row-major sources.
    EXPECT_TRUE(dcsc_from_eigen(ref) == d) << what;
    EXPECT_TRUE(csr_from_eigen(ref) == c) << what;
    const Eigen::SparseMatrix<double, Eigen::RowMajor> ref_rm(ref);
    EXPECT_TRUE(dcsc_from_eigen(ref_rm) == d) << what;
}

TEST(Formats, RandomTuplesMatchEigen) {
    check_shape(50, 70, 600, 1);     // dense-ish: counting-sort build
    check_shape(70, 50, 3500, 2);    // all cells
    check_shape(300, 200, 40, 3);    // sparse
    check_shape(2000, 3000, 50, 4);  // hypersparse: sort build
    check_shape(1, 500, 100, 5);
    check_shape(500, 1, 100, 6);
    check_shape(1, 1, 1, 7);
    check_shape(1, 1, 0, 8);
    check_shape(0, 0, 0, 9);
    check_shape(0, 17, 0, 10);
    check_shape(17, 0, 0, 11);
    check_shape(40, 40, 0, 12);
}

TEST(Formats, EmptyRowsAndColumns) {
    // Only row 3 and column 7 hold entries in a 10 x 12 matrix.
    const Tuples t = {{3, 0, 1.0}, {3, 11, 2.0}, {9, 7, 3.0}, {0, 7, 4.0}, {3, 7, 5.0}};
    const Arrays a = split(t);
    const auto d = Dcsc<double>::from_tuples(10, 12, a.rows, a.cols, a.vals);
    const auto c = Csr<double>::from_tuples(10, 12, a.rows, a.cols, a.vals);
    EXPECT_EQ(d.jc(), (std::vector<lindex_t>{0, 7, 11}));
    EXPECT_EQ(d.cp(), (std::vector<offset_t>{0, 1, 4, 5}));
    EXPECT_EQ(d.ir(), (std::vector<lindex_t>{3, 0, 3, 9, 3}));
    EXPECT_EQ(d.num()[2], 5.0);
    EXPECT_EQ(c.rowptr(), (std::vector<offset_t>{0, 1, 1, 1, 4, 4, 4, 4, 4, 4, 5}));
    EXPECT_EQ(c.colind(), (std::vector<lindex_t>{7, 0, 7, 11, 7}));
    EXPECT_EQ(c.vals()[1], 1.0);
    expect_same(to_eigen<double>(d), eigen_of(10, 12, t), "dcsc");
    expect_same(to_eigen<double>(c), eigen_of(10, 12, t), "csr");
}

TEST(Formats, EmptyBlocks) {
    const Dcsc<double> d(0, 0);
    EXPECT_EQ(d.nnz(), 0u);
    EXPECT_EQ(d.nzc(), 0u);
    EXPECT_EQ(d.cp(), (std::vector<offset_t>{0}));
    const Csr<double> c(5, 0);
    EXPECT_EQ(c.rowptr().size(), 6u);
    EXPECT_TRUE(to_csr(Dcsc<double>(5, 0)) == c);
    EXPECT_TRUE(to_dcsc(c) == Dcsc<double>(5, 0));
    EXPECT_TRUE(transpose(Dcsc<double>(3, 8)) == Dcsc<double>(8, 3));
    EXPECT_EQ(to_eigen<double>(Dcsc<double>(4, 6)).nonZeros(), 0);
    EXPECT_EQ(to_eigen<double>(Dcsc<double>(4, 6)).cols(), 6);
}

// A 10^6 x 10^6 block with 100 entries: DCSC storage and every allocation of its build and
// transpose are O(nnz), never O(n) (an O(n) pointer array would be 4-8 MB).
TEST(Formats, HypersparseBlockNeedsNoDimensionSizedMemory) {
    const lindex_t n = 1000000;
    const Tuples t = random_tuples(n, n, 100, 21);
    const Arrays a = split(t);

    g_largest_alloc = 0;
    const auto d = Dcsc<double>::from_tuples(n, n, a.rows, a.cols, a.vals);
    const auto dt = transpose(d);
    const auto dd = Dcsc<double>::from_tuples(n, n, a.rows, a.cols, a.vals,
                                              DuplicatePolicy::combine, std::plus<>{});
    const std::size_t largest = g_largest_alloc;
    if (GRIDBLAS_TEST_TRACK_ALLOC) {
        EXPECT_LT(largest, 100u * 64u) << "an allocation of " << largest << " bytes";
    }

    expect_well_formed(d);
    expect_well_formed(dt);
    EXPECT_TRUE(dd == d);
    EXPECT_EQ(d.nnz(), 100u);
    EXPECT_LE(d.nzc(), 100u);
    // jc + cp + ir + num, with room for vector growth.
    const std::size_t exact = d.nzc() * sizeof(lindex_t) + (d.nzc() + 1) * sizeof(offset_t) +
                              d.nnz() * (sizeof(lindex_t) + sizeof(double));
    EXPECT_GE(d.memory_bytes(), exact);
    EXPECT_LE(d.memory_bytes(), 2 * exact + 64);

    // Contents: the column-major tuples are the sorted input.
    auto sorted = t;
    std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) {
        return std::pair(std::get<1>(x), std::get<0>(x)) <
               std::pair(std::get<1>(y), std::get<0>(y));
    });
    const auto coo = d.to_coo();
    ASSERT_EQ(coo.nnz(), sorted.size());
    for (std::size_t k = 0; k < sorted.size(); ++k) {
        EXPECT_EQ(coo.rows[k], std::get<0>(sorted[k]));
        EXPECT_EQ(coo.cols[k], std::get<1>(sorted[k]));
        EXPECT_EQ(coo.vals[k], std::get<2>(sorted[k]));
    }
    const auto tc = dt.to_coo();
    for (std::size_t k = 0; k < tc.nnz(); ++k) {
        EXPECT_TRUE(std::binary_search(sorted.begin(), sorted.end(),
                                       std::tuple(tc.cols[k], tc.rows[k], tc.vals[k]),
                                       [](const auto& x, const auto& y) {
                                           return std::pair(std::get<1>(x), std::get<0>(x)) <
                                                  std::pair(std::get<1>(y), std::get<0>(y));
                                       }));
    }
    // CSR of the same block is O(n) by nature, and says so (this also shows that the
    // allocation tracker sees the library's allocations).
    g_largest_alloc = 0;
    const auto c = to_csr(d);
    if (GRIDBLAS_TEST_TRACK_ALLOC) {
        EXPECT_GE(g_largest_alloc.load(), (std::size_t(n) + 1) * sizeof(offset_t));
    }
    EXPECT_GE(c.memory_bytes(), (std::size_t(n) + 1) * sizeof(offset_t));
    EXPECT_TRUE(to_dcsc(c) == d);
}

template <class F>
void expect_duplicate_rejected(F build, const std::string& where) {
    try {
        build();
        ADD_FAILURE() << "duplicate accepted";
    } catch (const InvalidValue& e) {
        EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
    }
}

TEST(Formats, DuplicatesAreRejectedNamingTheEntry) {
    // Small (counting build) and hypersparse (sort build) blocks.
    for (lindex_t n : {lindex_t(10), lindex_t(5000000)}) {
        const std::vector<lindex_t> r = {1, 4, 2, 4, 0};
        const std::vector<lindex_t> c = {2, 3, 9, 3, 0};
        const ValueArray<double> v(5, 1.0);
        expect_duplicate_rejected([&] { Dcsc<double>::from_tuples(n, n, r, c, v); }, "(4, 3)");
        expect_duplicate_rejected([&] { Csr<double>::from_tuples(n, n, r, c, v); }, "(4, 3)");
        const ValueArray<Pattern> pv(5);
        expect_duplicate_rejected([&] { Dcsc<Pattern>::from_tuples(n, n, r, c, pv); }, "(4, 3)");
    }
}

TEST(Formats, DuplicatesAreCombinedWithTheMonoid) {
    std::mt19937_64 gen(5);
    for (lindex_t n : {lindex_t(8), lindex_t(3000000)}) {
        std::vector<lindex_t> r, c;
        ValueArray<double> v;
        std::map<std::pair<lindex_t, lindex_t>, std::vector<double>> ref;
        for (int k = 0; k < 400; ++k) {
            // Few distinct positions, so most tuples are duplicates.
            const auto i = lindex_t(gen() % 6 * (n / 8));
            const auto j = lindex_t(gen() % 5 * (n / 8));
            const double x = double(int(gen() % 100) - 50);
            r.push_back(i);
            c.push_back(j);
            v.push_back(x);
            ref[{i, j}].push_back(x);
        }
        auto check = [&](const auto& m, auto fold, const char* name) {
            const auto coo = m.to_coo();
            ASSERT_EQ(coo.nnz(), ref.size()) << name;
            for (std::size_t k = 0; k < coo.nnz(); ++k) {
                const auto& xs = ref.at({coo.rows[k], coo.cols[k]});
                double acc = xs[0];
                for (std::size_t q = 1; q < xs.size(); ++q) acc = fold(acc, xs[q]);
                EXPECT_EQ(coo.vals[k], acc) << name << " at " << coo.rows[k] << ", " << coo.cols[k];
            }
        };
        const auto plus = [](double a, double b) { return a + b; };
        const auto mn = [](double a, double b) { return std::min(a, b); };
        const auto last = [](double, double b) { return b; };
        const auto combine = DuplicatePolicy::combine;
        check(Dcsc<double>::from_tuples(n, n, r, c, v, combine, plus), plus, "dcsc plus");
        check(Csr<double>::from_tuples(n, n, r, c, v, combine, plus), plus, "csr plus");
        check(Dcsc<double>::from_tuples(n, n, r, c, v, combine, mn), mn, "dcsc min");
        check(Csr<double>::from_tuples(n, n, r, c, v, combine, mn), mn, "csr min");
        // The default keeps the last value in input order.
        check(Dcsc<double>::from_tuples(n, n, r, c, v, combine), last, "dcsc last");
        check(Csr<double>::from_tuples(n, n, r, c, v, combine), last, "csr last");
        // Pattern: duplicates simply collapse.
        const auto p = Dcsc<Pattern>::from_tuples(n, n, r, c, ValueArray<Pattern>(r.size()),
                                                  DuplicatePolicy::combine);
        EXPECT_EQ(p.nnz(), ref.size());
    }
}

TEST(Formats, OutOfRangeIndicesThrowAndBuildNothing) {
    const std::vector<lindex_t> r = {0, 1, 5};
    const std::vector<lindex_t> c = {0, 1, 2};
    const ValueArray<double> v(3, 2.0);
    auto d = Dcsc<double>::from_tuples(6, 3, r, c, v);
    const auto before = d;
    try {
        d = Dcsc<double>::from_tuples(5, 3, r, c, v);
        ADD_FAILURE() << "row 5 accepted in a 5-row matrix";
    } catch (const IndexOutOfBounds& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("(5, 2)"), std::string::npos) << msg;
        EXPECT_NE(msg.find("5 x 3"), std::string::npos) << msg;
    }
    EXPECT_TRUE(d == before);
    EXPECT_THROW(Csr<double>::from_tuples(6, 2, r, c, v), IndexOutOfBounds);
    EXPECT_THROW(Dcsc<double>::from_tuples(6, 2, r, c, v), IndexOutOfBounds);
    EXPECT_THROW(Dcsc<double>::from_tuples(4000000, 2, r, c, v), IndexOutOfBounds);
    EXPECT_THROW(Dcsc<double>::from_tuples(0, 0, r, c, v), IndexOutOfBounds);
    // Out of range wins over a duplicate found later, and both are errors.
    EXPECT_THROW(Dcsc<double>::from_tuples(6, 3, std::vector<lindex_t>{1, 1, 9},
                                           std::vector<lindex_t>{1, 1, 0}, v),
                 IndexOutOfBounds);
    // Arrays of different lengths.
    EXPECT_THROW(Dcsc<double>::from_tuples(6, 3, r, std::vector<lindex_t>{0, 1}, v),
                 DimensionMismatch);
    EXPECT_THROW(Csr<double>::from_tuples(6, 3, r, c, ValueArray<double>(2)), DimensionMismatch);
}

TEST(Formats, PatternMatricesHoldNoValues) {
    const Tuples t = random_tuples(300, 400, 2000, 31);
    const Arrays a = split(t);
    const ValueArray<Pattern> pv(a.rows.size());
    const auto d = Dcsc<Pattern>::from_tuples(300, 400, a.rows, a.cols, pv);
    const auto c = Csr<Pattern>::from_tuples(300, 400, a.rows, a.cols, pv);
    expect_well_formed(d);
    expect_well_formed(c);
    EXPECT_EQ(d.num().bytes(), 0u);
    EXPECT_EQ(d.num().data(), nullptr);
    EXPECT_EQ(d.num().size(), d.nnz());
    EXPECT_EQ(c.vals().bytes(), 0u);
    const auto dv = Dcsc<double>::from_tuples(300, 400, a.rows, a.cols, a.vals);
    EXPECT_EQ(d.memory_bytes() + d.nnz() * sizeof(double), dv.memory_bytes());
    EXPECT_EQ(d.ir(), dv.ir());
    EXPECT_EQ(d.jc(), dv.jc());

    // Entries read as 1 in Eigen; conversions and transposes keep the pattern.
    Tuples ones = t;
    for (auto& e : ones) std::get<2>(e) = 1.0;
    expect_same(to_eigen<double>(d), eigen_of(300, 400, ones), "pattern dcsc");
    expect_same(to_eigen<double>(c), eigen_of(300, 400, ones), "pattern csr");
    EXPECT_TRUE(to_csr(d) == c);
    EXPECT_TRUE(to_dcsc(c) == d);
    EXPECT_TRUE(transpose(transpose(d)) == d);
    expect_same(to_eigen<double>(transpose(c)), EigenMat(eigen_of(300, 400, ones).transpose()),
                "pattern csr^T");
}

TEST(Formats, FromArraysAndFootprint) {
    ValueArray<float> v(3);
    v[0] = 1.5f;
    v[1] = -2.f;
    v[2] = 4.f;
    const auto d = Dcsc<float>::from_arrays(4, 9, {2, 8}, {0, 2, 3}, {0, 3, 1}, v);
    expect_well_formed(d);
    const auto e = to_eigen<float>(d);
    EXPECT_EQ(e.coeff(0, 2), 1.5f);
    EXPECT_EQ(e.coeff(3, 2), -2.f);
    EXPECT_EQ(e.coeff(1, 8), 4.f);
    EXPECT_EQ(e.nonZeros(), 3);
    EXPECT_EQ(d.memory_bytes(), 2 * 4 + 3 * 8 + 3 * 4 + 3 * 4u);
    const auto c = to_csr(d);
    EXPECT_EQ(c.rowptr(), (std::vector<offset_t>{0, 1, 2, 2, 3}));
    EXPECT_EQ(c.memory_bytes(), 5 * 8 + 3 * 4 + 3 * 4u);
    EXPECT_EQ(Dcsc<double>(7, 7).memory_bytes(), sizeof(offset_t));
}

TEST(Formats, EigenInteropChecksDimensions) {
    // Dimensions beyond 32-bit local ids cannot become a block.
    Eigen::SparseMatrix<double, Eigen::ColMajor, std::int64_t> tall(std::int64_t(1) << 33, 2);
    try {
        dcsc_from_eigen(tall);
        ADD_FAILURE() << "2^33 rows accepted";
    } catch (const InvalidValue& e) {
        EXPECT_NE(std::string(e.what()).find("8589934592"), std::string::npos) << e.what();
    }
    // Stored zeros survive the round trip.
    EigenMat m(3, 3);
    m.insert(1, 2) = 0.0;
    m.insert(2, 0) = 7.0;
    m.makeCompressed();
    const auto d = dcsc_from_eigen(m);
    EXPECT_EQ(d.nnz(), 2u);
    expect_same(to_eigen<double>(d), m, "explicit zero");
    expect_same(to_eigen<double>(csr_from_eigen(m)), m, "explicit zero csr");
}

}  // namespace
}  // namespace gridblas
