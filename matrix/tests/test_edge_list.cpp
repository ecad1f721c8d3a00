// Edge-list readers (.el, .wel): contents, comments, n = max id + 1, and malformed lines.
#include <gtest/gtest.h>

#include <limits>

#include "gridblas/matrix/edge_list.hpp"
#include "io_test_util.hpp"

namespace gridblas {
namespace {

using test::error_class;
using test::TempFile;

TEST(EdgeList, ReadsUnweightedEdges) {
    TempFile f("# a comment\n0 1\n1 2\n\n% another comment\n  4\t0\n2 2\n1 2\n", ".el");
    const auto m = read_edge_list(f.path());
    EXPECT_EQ(m.nrows, 5);
    EXPECT_EQ(m.ncols, 5);
    ASSERT_EQ(m.nnz(), 5u);  // duplicates and self-loops are kept
    const std::vector<gindex_t> rows = {0, 1, 4, 2, 1}, cols = {1, 2, 0, 2, 2};
    EXPECT_EQ(m.rows, rows);
    EXPECT_EQ(m.cols, cols);
}

TEST(EdgeList, ReadsWeightedEdges) {
    TempFile f("0 3 1.5\r\n3 0 -2e3\n# x\n1 1 inf\n", ".wel");
    const auto m = read_weighted_edge_list(f.path());
    EXPECT_EQ(m.nrows, 4);
    ASSERT_EQ(m.nnz(), 3u);
    EXPECT_EQ(m.vals[0], 1.5);
    EXPECT_EQ(m.vals[1], -2000.0);
    EXPECT_EQ(m.vals[2], std::numeric_limits<double>::infinity());
    EXPECT_EQ(m.rows[1], 3);
    EXPECT_EQ(m.cols[1], 0);
}

TEST(EdgeList, EmptyFileIsEmptyGraph) {
    TempFile f("# nothing\n\n", ".el");
    const auto m = read_edge_list(f.path());
    EXPECT_EQ(m.nrows, 0);
    EXPECT_EQ(m.nnz(), 0u);
    EXPECT_EQ(read_weighted_edge_list(f.path()).nrows, 0);
}

TEST(EdgeList, LargeIds) {
    TempFile f("0 4611686018427387904\n", ".el");
    const auto m = read_edge_list(f.path());
    EXPECT_EQ(m.nrows, (gindex_t(1) << 62) + 1);
    TempFile too_big("0 9223372036854775807\n", ".el");
    EXPECT_EQ(error_class([&] { read_edge_list(too_big.path()); }), "IndexOutOfBounds");
}

struct BadEdges {
    const char* name;
    const char* text;
    bool weighted;
    const char* error;
    const char* where;
};

void PrintTo(const BadEdges& c, std::ostream* os) { *os << c.name; }

const BadEdges bad_edges[] = {
    {"one_column", "0 1\n2\n", false, "ParseError", ":2: expected"},
    {"three_columns", "0 1\n1 2 5\n", false, "ParseError", ":2: unexpected text '5'"},
    {"not_a_number", "0 1\nx 2\n", false, "ParseError", ":2: bad vertex id 'x'"},
    {"fraction", "0 1.0\n", false, "ParseError", ":1:"},
    {"negative", "0 1\n1 -2\n", false, "IndexOutOfBounds", ":2: vertex id '-2' is negative"},
    {"overflow", "99999999999999999999999 1\n", false, "IndexOutOfBounds", ":1:"},
    {"garbage", "0 1\n\x01\x02\x03 4\n", false, "ParseError", ":2:"},
    {"missing_weight", "0 1 2.5\n1 2\n", true, "ParseError", ":2: expected"},
    {"bad_weight", "0 1 heavy\n", true, "ParseError", ":1: bad weight 'heavy'"},
    {"weight_overflow", "0 1 1e999\n", true, "ParseError", ":1:"},
    {"four_columns", "0 1 2 3\n", true, "ParseError", ":1: unexpected text '3'"},
};

class BadEdgeList : public ::testing::TestWithParam<BadEdges> {};

TEST_P(BadEdgeList, IsRejectedWithFileAndLine) {
    const BadEdges& c = GetParam();
    TempFile f(c.text, c.weighted ? ".wel" : ".el");
    std::string what;
    const std::string got = error_class(
        [&] {
            if (c.weighted)
                read_weighted_edge_list(f.path());
            else
                read_edge_list(f.path());
        },
        &what);
    EXPECT_EQ(got, c.error) << what;
    EXPECT_NE(what.find(f.path() + c.where), std::string::npos) << what;
}

INSTANTIATE_TEST_SUITE_P(EdgeList, BadEdgeList, ::testing::ValuesIn(bad_edges),
                         [](const ::testing::TestParamInfo<BadEdges>& info) {
                             return std::string(info.param.name);
                         });

TEST(EdgeList, MissingFileIsIoError) {
    EXPECT_EQ(error_class([] { read_edge_list("/nonexistent/dir/g.el"); }), "IoError");
    EXPECT_EQ(error_class([] { read_weighted_edge_list("/nonexistent/dir/g.wel"); }), "IoError");
}

}  // namespace
}  // namespace gridblas
