// Matrix Market writer: write -> read gives identical tuples for every value type (extreme
// and special values included), random matrices, the array format, and the LAGraph files;
// the writer's own errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "gridblas/matrix/matrix_market.hpp"
#include "io_test_util.hpp"

namespace gridblas {
namespace {

using test::error_class;
using test::same_tuples;
using test::TempFile;

/// Values of T that stress the text form: extremes, zero, specials for floats, random bits.
template <class T>
std::vector<T> special_values(std::mt19937_64& rng) {
    using L = std::numeric_limits<T>;
    std::vector<T> v = {T(0), T(1), L::max(), L::lowest(), L::min()};
    if constexpr (std::is_floating_point_v<T>) {
        v.insert(v.end(), {-T(0), L::infinity(), -L::infinity(), L::denorm_min(), -L::denorm_min(),
                           T(0.1), T(-1) / T(3), L::epsilon()});
        using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
        for (int k = 0; k < 200; ++k) {
            const Bits b = static_cast<Bits>(rng());
            T x;
            std::memcpy(&x, &b, sizeof x);
            if (!std::isnan(x)) v.push_back(x);
        }
    } else {
        std::uniform_int_distribution<std::int64_t> any(std::int64_t(L::lowest() / 2),
                                                        std::int64_t(L::max() / 2));
        for (int k = 0; k < 200; ++k) {
            const auto x = static_cast<std::uint64_t>(any(rng)) * 2 + std::uint64_t(k & 1);
            v.push_back(static_cast<T>(x));  // modular, covers the whole range of T
        }
        if constexpr (std::is_signed_v<T>) v.push_back(T(-1));
    }
    return v;
}

/// A random nrows x ncols matrix with distinct positions (no duplicates), in random order.
template <class T>
CooMatrix<T, gindex_t> random_matrix(std::mt19937_64& rng, gindex_t nrows, gindex_t ncols,
                                     std::size_t nnz) {
    CooMatrix<T, gindex_t> m(nrows, ncols);
    std::set<std::pair<gindex_t, gindex_t>> used;
    std::uniform_int_distribution<gindex_t> r(0, nrows - 1), c(0, ncols - 1);
    std::vector<T> values;
    if constexpr (!std::is_same_v<T, Pattern>) values = special_values<T>(rng);
    nnz = std::min<std::size_t>(nnz, std::size_t(nrows * ncols));
    while (m.nnz() < nnz) {
        const gindex_t i = r(rng), j = c(rng);
        if (!used.insert({i, j}).second) continue;
        if constexpr (std::is_same_v<T, Pattern>)
            m.push_back(i, j);
        else
            m.push_back(i, j, values[rng() % values.size()]);
    }
    return m;
}

/// Bitwise equality of float values (same_tuples treats -0 == 0).
template <class T>
void expect_same_bits(const CooMatrix<T, gindex_t>& a, const CooMatrix<T, gindex_t>& b) {
    if constexpr (std::is_floating_point_v<T>) {
        ASSERT_EQ(a.nnz(), b.nnz());
        for (std::size_t k = 0; k < a.nnz(); ++k) {
            if (std::isnan(a.vals[k])) continue;
            EXPECT_EQ(std::signbit(a.vals[k]), std::signbit(b.vals[k])) << k;
        }
    }
}

template <class T>
class RoundTrip : public ::testing::Test {};

using ValueTypes =
    ::testing::Types<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                     std::uint16_t, std::uint32_t, std::uint64_t, float, double, Pattern>;
TYPED_TEST_SUITE(RoundTrip, ValueTypes);

TYPED_TEST(RoundTrip, RandomMatricesReadBackExactly) {
    using T = TypeParam;
    std::mt19937_64 rng(42);
    for (int trial = 0; trial < 8; ++trial) {
        const gindex_t nrows = 1 + gindex_t(rng() % 60), ncols = 1 + gindex_t(rng() % 60);
        const auto m = random_matrix<T>(rng, nrows, ncols, rng() % 400);
        TempFile file("");
        write_matrix_market(file.path(), m);
        const auto back = read_matrix_market<T>(file.path());
        EXPECT_TRUE(same_tuples(m, back)) << "trial " << trial;
        expect_same_bits(m, back);
        MatrixMarketReader reader(file.path());
        EXPECT_TRUE(reader.header().value_type_declared);
        EXPECT_EQ(reader.header().symmetry, MatrixMarketSymmetry::general);
        if constexpr (std::is_same_v<T, Pattern>) {
            EXPECT_EQ(reader.header().field, MatrixMarketField::pattern);
            EXPECT_EQ(reader.header().value_type, ValueType::boolean);
        } else {
            EXPECT_EQ(reader.header().value_type, value_type_of<T>());
            EXPECT_EQ(reader.header().field,
                      std::is_integral_v<T> ? MatrixMarketField::integer : MatrixMarketField::real);
        }
    }
}

TYPED_TEST(RoundTrip, EmptyAndHypersparse) {
    using T = TypeParam;
    for (const auto& m : {CooMatrix<T, gindex_t>(0, 0), CooMatrix<T, gindex_t>(5, 0),
                          CooMatrix<T, gindex_t>(3, 4)}) {
        TempFile file("");
        write_matrix_market(file.path(), m);
        EXPECT_TRUE(same_tuples(m, read_matrix_market<T>(file.path())));
    }
    CooMatrix<T, gindex_t> big(std::int64_t(1) << 40, std::int64_t(1) << 50);
    big.push_back(big.nrows - 1, 0);
    big.push_back(0, big.ncols - 1);
    TempFile file("");
    write_matrix_market(file.path(), big);
    EXPECT_TRUE(same_tuples(big, read_matrix_market<T>(file.path())));
}

TYPED_TEST(RoundTrip, ArrayFormat) {
    using T = TypeParam;
    std::mt19937_64 rng(7);
    const auto m = random_matrix<T>(rng, 9, 5, 20);
    TempFile file("");
    if constexpr (std::is_same_v<T, Pattern>) {
        EXPECT_EQ(error_class([&] {
                      write_matrix_market(file.path(), m, {MatrixMarketFormat::array, true, ""});
                  }),
                  "NotSupported");
    } else {
        write_matrix_market(file.path(), m, {MatrixMarketFormat::array, true, ""});
        MatrixMarketReader reader(file.path());
        EXPECT_EQ(reader.header().format, MatrixMarketFormat::array);
        const auto back = read_matrix_market<T>(file.path());
        ASSERT_EQ(back.nnz(), 45u);  // every position, column-major
        std::vector<T> dense(45, T(0));
        for (std::size_t k = 0; k < m.nnz(); ++k) dense[m.cols[k] * 9 + m.rows[k]] = m.vals[k];
        for (std::size_t k = 0; k < back.nnz(); ++k) {
            EXPECT_EQ(back.rows[k], gindex_t(k % 9));
            EXPECT_EQ(back.cols[k], gindex_t(k / 9));
            EXPECT_EQ(back.vals[k], dense[k]);
        }
    }
}

TEST(RoundTripOptions, TypeLineAndComment) {
    CooMatrix<std::int8_t, gindex_t> m(2, 2);
    m.push_back(1, 0, -5);
    TempFile file("");
    write_matrix_market(file.path(), m, {MatrixMarketFormat::coordinate, false, "hello\nworld"});
    std::ifstream in(file.path());
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(
        text.str(),
        "%%MatrixMarket matrix coordinate integer general\n% hello\n% world\n2 2 1\n2 1 -5\n");
    MatrixMarketReader reader(file.path());
    EXPECT_FALSE(reader.header().value_type_declared);
    EXPECT_EQ(reader.header().value_type, ValueType::int64);
    EXPECT_TRUE(same_tuples(m, read_matrix_market<std::int8_t>(file.path())));
}

TEST(RoundTripOptions, WrittenTextIsCompact) {
    CooMatrix<double, gindex_t> m(3, 3);
    m.push_back(0, 0, 0.1);
    m.push_back(2, 1, 1e-300);
    m.push_back(1, 2, -2.0);
    TempFile file("");
    write_matrix_market(file.path(), m);
    std::ifstream in(file.path());
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(),
              "%%MatrixMarket matrix coordinate real general\n%%GraphBLAS type double\n3 3 3\n"
              "1 1 0.1\n3 2 1e-300\n2 3 -2\n");
}

/// Every valid LAGraph file: read, write, read again gives the same tuples.
TEST(RoundTripData, LagraphFilesSurviveRewriting) {
    const std::string dir = GRIDBLAS_TEST_DATA_DIR;
    int checked = 0;
    for (const char* f : {"karate.mtx", "west0067.mtx", "skew_fp64.mtx", "skew_fp32.mtx",
                          "full_symmetric.mtx", "matrix_int8.mtx", "matrix_uint64.mtx",
                          "lp_afiro.mtx", "bcsstk13.mtx", "LFAT5_hypersparse.mtx", "empty.mtx"}) {
        const std::string path = dir + "/" + f;
        const auto a = read_matrix_market<double>(path);
        TempFile file("");
        write_matrix_market(file.path(), a);
        EXPECT_TRUE(same_tuples(a, read_matrix_market<double>(file.path()))) << f;
        const auto p = read_matrix_market<Pattern>(path);
        write_matrix_market(file.path(), p);
        EXPECT_TRUE(same_tuples(p, read_matrix_market<Pattern>(file.path()))) << f;
        ++checked;
    }
    const auto u = read_matrix_market<std::uint64_t>(dir + "/matrix_uint64.mtx");
    TempFile file("");
    write_matrix_market(file.path(), u);
    EXPECT_TRUE(same_tuples(u, read_matrix_market<std::uint64_t>(file.path())));
    EXPECT_EQ(checked, 11);
}

TEST(WriterErrors, BadTuplesAndPaths) {
    CooMatrix<double, gindex_t> m(2, 2);
    m.push_back(0, 2, 1.0);
    TempFile file("");
    std::string what;
    EXPECT_EQ(error_class([&] { write_matrix_market(file.path(), m); }, &what), "IndexOutOfBounds");
    EXPECT_NE(what.find(file.path()), std::string::npos);
    m.rows[0] = -1;
    m.cols[0] = 0;
    EXPECT_EQ(error_class([&] { write_matrix_market(file.path(), m); }), "IndexOutOfBounds");
    m.rows[0] = 0;
    m.cols.push_back(1);
    EXPECT_EQ(error_class([&] { write_matrix_market(file.path(), m); }), "InvalidValue");
    CooMatrix<double, gindex_t> dup(2, 2);
    dup.push_back(1, 1, 1.0);
    dup.push_back(1, 1, 2.0);
    EXPECT_EQ(error_class([&] {
                  write_matrix_market(file.path(), dup, {MatrixMarketFormat::array, true, ""});
              }),
              "InvalidValue");
    EXPECT_EQ(error_class([&] { write_matrix_market("/nonexistent/dir/out.mtx", dup); }),
              "IoError");
}

}  // namespace
}  // namespace gridblas
