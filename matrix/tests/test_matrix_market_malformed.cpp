// Matrix Market reader on hand-made inputs: each malformed text must raise the right error
// class with "file:line" in the message; tolerated variations (CRLF, tabs, comments, '+'
// signs, huge but sparse dimensions) must load.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "gridblas/matrix/matrix_market.hpp"
#include "io_test_util.hpp"

namespace gridblas {
namespace {

using namespace std::string_literals;
using test::error_class;
using test::TempFile;

const std::string coo_real = "%%MatrixMarket matrix coordinate real general\n";
const std::string coo_int = "%%MatrixMarket matrix coordinate integer general\n";

struct BadCase {
    const char* name;
    std::string text;
    const char* error;  // expected error class
    const char* where;  // expected in the message (":line:" or a phrase)
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

const BadCase bad_cases[] = {
    {"empty_file", "", "ParseError", ":1: empty file"},
    {"no_banner", "3 3 1\n1 1 1\n", "ParseError", ":1: missing %%MatrixMarket banner"},
    {"banner_typo", "%%MatrixMarkt matrix coordinate real general\n1 1 0\n", "ParseError", ":1:"},
    {"banner_short", "%%MatrixMarket matrix coordinate real\n1 1 0\n", "ParseError", ":1:"},
    {"banner_long", "%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", "ParseError",
     ":1: unexpected word 'extra'"},
    {"bad_object", "%%MatrixMarket tensor coordinate real general\n1 1 0\n", "ParseError", ":1:"},
    {"bad_format", "%%MatrixMarket matrix sparse real general\n1 1 0\n", "ParseError", ":1:"},
    {"complex", "%%MatrixMarket matrix coordinate complex general\n1 1 0\n", "NotSupported", ":1:"},
    {"hermitian", "%%MatrixMarket matrix coordinate complex hermitian\n1 1 0\n", "NotSupported",
     ":1:"},
    {"pattern_skew", "%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 0\n",
     "ParseError", ":1:"},
    {"vector", "%%MatrixMarket vector coordinate real general\n1 1 0\n", "NotSupported", ":1:"},
    {"type_unknown", coo_real + "%%GraphBLAS type int128_t\n1 1 0\n", "ParseError",
     ":2: unknown %%GraphBLAS type"},
    {"type_twice", coo_real + "%%GraphBLAS type double\n%%GraphBLAS type float\n1 1 0\n",
     "ParseError", ":3:"},
    {"type_complex", coo_real + "%%GraphBLAS type double complex\n1 1 0\n", "NotSupported", ":2:"},
    {"no_size_line", coo_real + "% only a comment\n", "ParseError", "size line is missing"},
    {"size_two_numbers", coo_real + "3 3\n", "ParseError", ":2:"},
    {"size_four_numbers", coo_real + "3 3 1 1\n1 1 1\n", "ParseError", ":2:"},
    {"size_negative", coo_real + "-3 3 0\n", "ParseError", ":2: negative"},
    {"size_not_number", coo_real + "3 x 0\n", "ParseError", ":2:"},
    {"size_huge", coo_real + "99999999999999999999 3 0\n", "ParseError", ":2:"},
    {"size_above_int64", coo_real + "9223372036854775808 1 0\n", "ParseError", ":2:"},
    {"count_above_positions", coo_real + "2 2 5\n", "ParseError", ":2: entry count 5 exceeds"},
    {"count_above_triangle", "%%MatrixMarket matrix coordinate real symmetric\n2 2 4\n",
     "ParseError", ":2:"},
    {"array_overflow", "%%MatrixMarket matrix array real general\n4000000000 4000000000\n",
     "ParseError", ":2:"},
    {"symmetric_rectangular", "%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n",
     "ParseError", ":2: symmetric matrix must be square"},
    {"truncated", coo_real + "3 3 3\n1 1 1\n2 2 2\n", "ParseError", ":4: truncated"},
    {"truncated_array", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", "ParseError",
     "truncated"},
    {"more_entries", coo_real + "3 3 1\n1 1 1\n2 2 2\n", "ParseError", ":4: more entries"},
    {"more_values_array", "%%MatrixMarket matrix array real general\n1 1\n1\n2\n", "ParseError",
     ":4: more entries"},
    {"trailing_junk", coo_real + "3 3 1\n1 1 1.5 junk\n", "ParseError",
     ":3: unexpected text 'junk'"},
    {"trailing_junk_array", "%%MatrixMarket matrix array real general\n1 1\n1 2\n", "ParseError",
     ":3:"},
    {"pattern_with_value", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n",
     "ParseError", ":3:"},
    {"missing_value", coo_real + "3 3 1\n1 1\n", "ParseError", ":3:"},
    {"garbage_bytes", coo_real + "3 3 1\n1 1 \x01\xff\xfe\n", "ParseError", ":3: bad real value"},
    {"nul_byte", coo_real + "3 3 1\n1 1\0 1\n"s, "ParseError", ":3:"},
    {"binary_junk",
     "\x7f"
     "ELF\x02\x01\x01\0\0\0"s,
     "ParseError", ":1:"},
    {"value_not_number", coo_real + "3 3 1\n1 1 abc\n", "ParseError", ":3: bad real value 'abc'"},
    {"value_hex", coo_real + "3 3 1\n1 1 0x10\n", "ParseError", ":3:"},
    {"value_double_sign", coo_real + "3 3 1\n1 1 +-1\n", "ParseError", ":3:"},
    {"value_overflow", coo_real + "3 3 1\n1 1 1e999\n", "ParseError", ":3:"},
    {"integer_with_fraction", coo_int + "3 3 1\n1 1 1.5\n", "ParseError", ":3: bad integer"},
    {"integer_overflow", coo_int + "3 3 1\n1 1 99999999999999999999\n", "ParseError", ":3:"},
    {"integer_above_int64", coo_int + "3 3 1\n1 1 9223372036854775808\n", "ParseError",
     ":3: value '9223372036854775808' out of range of the type int64"},
    {"index_zero", coo_real + "3 3 1\n0 1 1\n", "IndexOutOfBounds", ":3: row index '0'"},
    {"index_negative", coo_real + "3 3 1\n1 -2 1\n", "IndexOutOfBounds", ":3: column index '-2'"},
    {"index_beyond", coo_real + "3 3 1\n4 1 1\n", "IndexOutOfBounds", ":3: row index '4'"},
    {"index_huge", coo_real + "3 3 1\n1 123456789012345678901234567890 1\n", "IndexOutOfBounds",
     ":3:"},
    {"index_fraction", coo_real + "3 3 1\n1.5 1 1\n", "ParseError", ":3: bad row index"},
    {"index_text", coo_real + "3 3 1\none 1 1\n", "ParseError", ":3:"},
    {"skew_nonzero_diagonal",
     "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1.0\n", "ParseError",
     ":3: nonzero diagonal"},
    {"skew_unsigned",
     "%%MatrixMarket matrix coordinate integer skew-symmetric\n%%GraphBLAS type uint16_t\n3 3 0\n",
     "ParseError", "unsigned"},
    {"skew_negation_overflow",
     "%%MatrixMarket matrix coordinate integer skew-symmetric\n%%GraphBLAS type int8_t\n"
     "3 3 1\n2 1 -128\n",
     "ParseError", ":4: negated value"},
    {"declared_int8_out_of_range", coo_int + "%%GraphBLAS type int8_t\n3 3 1\n1 1 300\n",
     "ParseError", ":4: value '300' out of range of the type int8"},
    {"declared_int_fraction", coo_real + "%%GraphBLAS type int32_t\n3 3 1\n1 1 2.5\n", "ParseError",
     ":4:"},
    {"declared_bool_two", coo_int + "%%GraphBLAS type bool\n3 3 1\n1 1 2\n", "ParseError", ":4:"},
    {"declared_float_too_big", coo_real + "%%GraphBLAS type float\n3 3 1\n1 1 1e300\n",
     "ParseError", ":4:"},
    {"long_line", coo_real + "3 3 1\n1 1 " + std::string(70000, '1') + "\n", "ParseError",
     ":3: line longer than"},
};

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, IsRejectedWithFileAndLine) {
    const BadCase& c = GetParam();
    TempFile file(c.text);
    for (int as = 0; as < 3; ++as) {
        std::string what;
        const std::string got = error_class(
            [&] {
                if (as == 0) read_matrix_market<double>(file.path());
                if (as == 1) read_matrix_market<Pattern>(file.path());
                if (as == 2) read_matrix_market<std::int64_t>(file.path());
            },
            &what);
        // Reading as int64 may fail earlier on a fractional value, but still as ParseError.
        EXPECT_EQ(got, c.error) << c.name << " as " << as << ": " << what;
        EXPECT_NE(what.find(file.path()), std::string::npos) << what;
        if (as == 0) {
            EXPECT_NE(what.find(c.where), std::string::npos) << what;
        }
    }
    // The stream constructor reports the same, under the given name.
    std::istringstream in(c.text);
    std::string what;
    EXPECT_EQ(error_class(
                  [&] {
                      MatrixMarketReader reader(in, "memory");
                      CooMatrix<double, gindex_t> m;
                      while (reader.read_chunk(2, m)) {
                      }
                  },
                  &what),
              c.error)
        << what;
    EXPECT_NE(what.find("memory:"), std::string::npos) << what;
}

INSTANTIATE_TEST_SUITE_P(MatrixMarket, BadInput, ::testing::ValuesIn(bad_cases),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                             return std::string(info.param.name);
                         });

/// Values that are fine for the file but do not fit the requested C++ type.
TEST(MatrixMarketConversion, ValueMustFitRequestedType) {
    TempFile big(coo_int + "2 2 1\n1 1 300\n");
    EXPECT_EQ(read_matrix_market<std::int16_t>(big.path()).vals[0], 300);
    std::string what;
    EXPECT_EQ(error_class([&] { read_matrix_market<std::int8_t>(big.path()); }, &what),
              "ParseError");
    EXPECT_NE(what.find(":3: value 300 does not fit the requested type int8"), std::string::npos)
        << what;
    TempFile frac(coo_real + "2 2 1\n1 1 1.5\n");
    EXPECT_EQ(error_class([&] { read_matrix_market<std::int32_t>(frac.path()); }), "ParseError");
    EXPECT_EQ(read_matrix_market<float>(frac.path()).vals[0], 1.5f);
    TempFile neg(coo_int + "2 2 1\n1 1 -1\n");
    EXPECT_EQ(error_class([&] { read_matrix_market<std::uint8_t>(neg.path()); }), "ParseError");
    // The largest float written as its shortest text reads back; just above it does not.
    TempFile fmax(coo_real + "2 2 2\n1 1 3.4028235e+38\n2 2 -3.4028235e+38\n");
    EXPECT_EQ(read_matrix_market<float>(fmax.path()).vals[1], std::numeric_limits<float>::lowest());
    TempFile over(coo_real + "2 2 1\n1 1 3.40282357e+38\n");
    EXPECT_EQ(error_class([&] { read_matrix_market<float>(over.path()); }), "ParseError");
    TempFile huge(coo_real + "2 2 1\n1 1 1e300\n");
    EXPECT_EQ(error_class([&] { read_matrix_market<float>(huge.path()); }), "ParseError");
    EXPECT_EQ(read_matrix_market<double>(huge.path()).vals[0], 1e300);
    TempFile skew("%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 5\n");
    EXPECT_EQ(error_class([&] { read_matrix_market<std::uint32_t>(skew.path()); }), "ParseError");
    const auto s = read_matrix_market<std::int32_t>(skew.path());
    ASSERT_EQ(s.nnz(), 2u);
    EXPECT_EQ(s.vals[0], 5);
    EXPECT_EQ(s.vals[1], -5);
    TempFile u64(coo_int + "%%GraphBLAS type uint64_t\n2 2 1\n1 1 18446744073709551615\n");
    EXPECT_EQ(read_matrix_market<std::uint64_t>(u64.path()).vals[0], 18446744073709551615ull);
    TempFile i64(coo_int + "2 2 1\n1 1 -9223372036854775808\n");
    EXPECT_EQ(read_matrix_market<std::int64_t>(i64.path()).vals[0],
              std::numeric_limits<std::int64_t>::min());
}

TEST(MatrixMarketTolerated, VariationsLoad) {
    // CRLF, tabs, leading blanks, '+' signs, blank and comment lines between entries.
    TempFile f(
        "%%matrixmarket MATRIX Coordinate REAL General\r\n% comment\r\n\r\n"
        "  3\t3  3 \r\n1 1 +2.5\r\n% in between\n\n\t2\t3\t-1e-3\n3 2 .5\n% the end\n\n");
    const auto m = read_matrix_market<double>(f.path());
    ASSERT_EQ(m.nnz(), 3u);
    EXPECT_EQ(m.vals[0], 2.5);
    EXPECT_EQ(m.rows[1], 1);
    EXPECT_EQ(m.cols[1], 2);
    EXPECT_EQ(m.vals[1], -1e-3);
    EXPECT_EQ(m.vals[2], 0.5);
    // No newline at the end of the file.
    TempFile last(coo_real + "2 2 1\n2 2 7");
    EXPECT_EQ(read_matrix_market<double>(last.path()).vals[0], 7.0);
    // A comment longer than the line buffer is skipped.
    TempFile comment(coo_real + "%" + std::string(200000, 'c') + "\n2 2 1\n1 2 3\n");
    EXPECT_EQ(read_matrix_market<double>(comment.path()).nnz(), 1u);
    // inf, nan, subnormals.
    TempFile special(coo_real + "2 2 3\n1 1 inf\n1 2 -nan\n2 1 1e-310\n");
    const auto sp = read_matrix_market<double>(special.path());
    EXPECT_TRUE(std::isinf(sp.vals[0]));
    EXPECT_TRUE(std::isnan(sp.vals[1]));
    EXPECT_GT(sp.vals[2], 0.0);
}

TEST(MatrixMarketTolerated, HugeSparseDimensions) {
    TempFile f(coo_real +
               "9223372036854775807 9223372036854775807 2\n"
               "9223372036854775807 1 1\n1 9223372036854775807 2\n");
    const auto m = read_matrix_market<double>(f.path());
    EXPECT_EQ(m.nrows, std::numeric_limits<gindex_t>::max());
    ASSERT_EQ(m.nnz(), 2u);
    EXPECT_EQ(m.rows[0], std::numeric_limits<gindex_t>::max() - 1);
    // The declared count is huge but the reader reserves only a bounded amount up front.
    TempFile lying(coo_real + "4000000000 4000000000 9000000000000000000\n1 1 1\n");
    EXPECT_EQ(error_class([&] { read_matrix_market<double>(lying.path()); }), "ParseError");
}

TEST(MatrixMarketTolerated, SkewDiagonalZeroAndUpperTriangle) {
    TempFile skew("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 2 0\n1 3 4\n");
    const auto m = read_matrix_market<double>(skew.path());
    ASSERT_EQ(m.nnz(), 3u);  // explicit zero on the diagonal, (1,3) and its mirror
    EXPECT_EQ(m.vals[1], 4.0);
    EXPECT_EQ(m.rows[2], 2);
    EXPECT_EQ(m.cols[2], 0);
    EXPECT_EQ(m.vals[2], -4.0);
    // A symmetric file that stores both (2,1) and (1,2) has a duplicate entry.
    TempFile both("%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 1\n1 2 1\n");
    std::string what;
    EXPECT_EQ(error_class([&] { read_matrix_market<double>(both.path()); }, &what), "InvalidValue");
    EXPECT_NE(what.find("lines 3 and 4"), std::string::npos) << what;
    EXPECT_EQ(read_matrix_market<double>(both.path(), {DuplicatePolicy::combine}).vals[0], 2.0);
}

TEST(MatrixMarketDuplicates, RejectOrCombine) {
    TempFile f(coo_int + "3 3 5\n1 1 1\n2 2 5\n1 1 2\n3 1 7\n1 1 4\n");
    std::string what;
    EXPECT_EQ(error_class([&] { read_matrix_market<std::int32_t>(f.path()); }, &what),
              "InvalidValue");
    EXPECT_NE(what.find(f.path() + ": duplicate entry (1, 1) on lines 3 and 5"), std::string::npos)
        << what;
    const auto m = read_matrix_market<std::int32_t>(f.path(), {DuplicatePolicy::combine});
    ASSERT_EQ(m.nnz(), 3u);  // file order of the first copies
    EXPECT_EQ(m.vals[0], 7);
    EXPECT_EQ(m.vals[1], 5);
    EXPECT_EQ(m.vals[2], 7);
    EXPECT_EQ(m.rows[2], 2);
    // The same with dimensions far larger than the entry count (a different sort path).
    TempFile sparse(coo_int +
                    "1000000000000 5 4\n999999999999 1 1\n2 2 5\n999999999999 1 2\n"
                    "1 5 3\n");
    EXPECT_EQ(error_class([&] { read_matrix_market<std::int32_t>(sparse.path()); }, &what),
              "InvalidValue");
    EXPECT_NE(what.find("duplicate entry (999999999999, 1) on lines 3 and 5"), std::string::npos)
        << what;
    const auto ms = read_matrix_market<std::int32_t>(sparse.path(), {DuplicatePolicy::combine});
    ASSERT_EQ(ms.nnz(), 3u);
    EXPECT_EQ(ms.vals[0], 3);
    EXPECT_EQ(ms.vals[2], 3);
    EXPECT_EQ(ms.cols[2], 4);
    // Overflowing sums are reported, bool files combine with logical or.
    TempFile ovf(coo_int + "2 2 2\n1 1 100\n1 1 100\n");
    EXPECT_EQ(error_class(
                  [&] { read_matrix_market<std::int8_t>(ovf.path(), {DuplicatePolicy::combine}); }),
              "InvalidValue");
    TempFile b(coo_int + "%%GraphBLAS type bool\n2 2 2\n1 1 1\n1 1 1\n");
    EXPECT_EQ(read_matrix_market<std::uint8_t>(b.path(), {DuplicatePolicy::combine}).vals[0], 1);
}

TEST(MatrixMarketReaderApi, ErrorsLeaveChunkUnchangedAndReaderUnusable) {
    TempFile f(coo_real + "3 3 4\n1 1 1\n2 2 2\n3 3 x\n1 2 4\n");
    MatrixMarketReader reader(f.path());
    CooMatrix<double, gindex_t> out;
    EXPECT_TRUE(reader.read_chunk(1, out));
    ASSERT_EQ(out.nnz(), 1u);
    EXPECT_EQ(error_class([&] { reader.read_chunk(5, out); }), "ParseError");
    EXPECT_EQ(out.nnz(), 1u);  // the entry of line 4 was rolled back
    EXPECT_EQ(out.vals.size(), 1u);
    std::string what;
    EXPECT_EQ(error_class([&] { reader.read_chunk(5, out); }, &what), "InvalidValue");
    EXPECT_NE(what.find("earlier error"), std::string::npos);
    MatrixMarketReader other(f.path());
    EXPECT_EQ(error_class([&] { other.read_chunk(0, out); }), "InvalidValue");
    EXPECT_EQ(error_class([] { MatrixMarketReader r("/nonexistent/dir/x.mtx"); }), "IoError");
    EXPECT_EQ(error_class([] { read_matrix_market<double>("/nonexistent/dir/x.mtx"); }), "IoError");
}

TEST(MatrixMarketReaderApi, LineNumbersAndStreams) {
    std::istringstream in(coo_real + "% c\n2 2 2\n\n1 1 1\n% c\n2 2 2\n");
    MatrixMarketReader reader(in, "mem");
    EXPECT_EQ(reader.name(), "mem");
    EXPECT_EQ(reader.line_number(), 3u);  // the size line
    CooMatrix<double, gindex_t> out;
    EXPECT_TRUE(reader.read_chunk(1, out));
    EXPECT_EQ(reader.line_number(), 5u);
    EXPECT_EQ(reader.entries_read(), 1u);
    EXPECT_FALSE(reader.read_chunk(1, out));
    EXPECT_EQ(out.nnz(), 2u);
    EXPECT_EQ(out.nrows, 2);
    MatrixMarketReader moved = std::move(reader);
    EXPECT_FALSE(moved.read_chunk(1, out));
}

TEST(MatrixMarketReaderApi, WholeStream) {
    std::istringstream in(coo_int + "3 3 3\n1 1 4\n3 2 5\n1 1 6\n");
    std::string what;
    EXPECT_EQ(error_class([&] { read_matrix_market<std::int32_t>(in, "stdin"); }, &what),
              "InvalidValue");
    EXPECT_NE(what.find("stdin: duplicate entry (1, 1)"), std::string::npos) << what;
    std::istringstream again(in.str());
    const auto m = read_matrix_market<std::int32_t>(again, "stdin", {DuplicatePolicy::combine});
    ASSERT_EQ(m.nnz(), 2u);
    EXPECT_EQ(m.vals[0], 10);
    EXPECT_EQ(m.vals[1], 5);
}

}  // namespace
}  // namespace gridblas
