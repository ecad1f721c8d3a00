// Matrix Market reader against the LAGraph test files: one test case per row of MANIFEST.tsv
// (valid files load with the stated sizes and type, reject files raise the stated error), the
// files the manifest does not list, symmetric expansion, and chunked reading.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "gridblas/matrix/matrix_market.hpp"
#include "io_test_util.hpp"

namespace gridblas {
namespace {

using test::error_class;

const std::string data_dir = GRIDBLAS_TEST_DATA_DIR;

struct ManifestRow {
    std::string kind, file, nrows, ncols, nvals, value_type, note;
};

void PrintTo(const ManifestRow& row, std::ostream* os) { *os << row.kind << " " << row.file; }

std::vector<ManifestRow> read_manifest() {
    std::vector<ManifestRow> rows;
    std::ifstream in(data_dir + "/MANIFEST.tsv");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line.rfind("kind\t", 0) == 0) continue;
        std::vector<std::string> f;
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, '\t')) f.push_back(cell);
        f.resize(7);
        rows.push_back({f[0], f[1], f[2], f[3], f[4], f[5], f[6]});
    }
    return rows;
}

std::string path_of(const std::string& file) { return data_dir + "/" + file; }

/// Reads @p path as the C++ type matching @p t ("bool" as uint8_t); returns the tuple count.
std::size_t nnz_as(ValueType t, const std::string& path) {
    switch (t) {
        case ValueType::boolean:
        case ValueType::uint8:
            return read_matrix_market<std::uint8_t>(path).nnz();
        case ValueType::int8:
            return read_matrix_market<std::int8_t>(path).nnz();
        case ValueType::int16:
            return read_matrix_market<std::int16_t>(path).nnz();
        case ValueType::int32:
            return read_matrix_market<std::int32_t>(path).nnz();
        case ValueType::int64:
            return read_matrix_market<std::int64_t>(path).nnz();
        case ValueType::uint16:
            return read_matrix_market<std::uint16_t>(path).nnz();
        case ValueType::uint32:
            return read_matrix_market<std::uint32_t>(path).nnz();
        case ValueType::uint64:
            return read_matrix_market<std::uint64_t>(path).nnz();
        case ValueType::fp32:
            return read_matrix_market<float>(path).nnz();
        case ValueType::fp64:
            return read_matrix_market<double>(path).nnz();
    }
    return 0;
}

/// The error class a reject row of the manifest asks for, from its note.
std::string expected_class(const std::string& note) {
    if (note.find("unsupported-feature") != std::string::npos) return "NotSupported";
    if (note.find("index-out-of-bounds") != std::string::npos) return "IndexOutOfBounds";
    if (note.find("invalid-value") != std::string::npos) return "InvalidValue";
    if (note.find("parse error") != std::string::npos) return "ParseError";
    return "unknown note: " + note;
}

TEST(MatrixMarketManifest, ListsEveryKindOfCase) {
    const auto rows = read_manifest();
    ASSERT_GE(rows.size(), 70u) << "MANIFEST.tsv missing or short in " << data_dir;
    std::size_t valid = 0, reject = 0;
    for (const auto& r : rows) {
        valid += r.kind == "valid";
        reject += r.kind == "reject";
    }
    EXPECT_EQ(valid + reject, rows.size());
    EXPECT_GE(reject, 20u);
}

class ManifestCase : public ::testing::TestWithParam<ManifestRow> {};

TEST_P(ManifestCase, BehavesAsStated) {
    const ManifestRow& row = GetParam();
    const std::string path = path_of(row.file);
    if (row.kind == "valid") {
        const auto m = read_matrix_market<double>(path);
        EXPECT_EQ(m.nrows, std::stoll(row.nrows));
        EXPECT_EQ(m.ncols, std::stoll(row.ncols));
        EXPECT_EQ(m.nnz(), std::stoull(row.nvals));
        MatrixMarketReader reader(path);
        EXPECT_EQ(to_string(reader.header().value_type), row.value_type);
        // The same file read as its own type and as a pattern.
        EXPECT_EQ(nnz_as(reader.header().value_type, path), m.nnz());
        const auto p = read_matrix_market<Pattern>(path);
        EXPECT_EQ(p.nnz(), m.nnz());
        EXPECT_TRUE(std::equal(p.rows.begin(), p.rows.end(), m.rows.begin()));
        EXPECT_TRUE(std::equal(p.cols.begin(), p.cols.end(), m.cols.begin()));
        return;
    }
    ASSERT_EQ(row.kind, "reject");
    const std::string want = expected_class(row.note);
    std::string what;
    EXPECT_EQ(error_class([&] { read_matrix_market<double>(path); }, &what), want) << what;
    EXPECT_NE(what.find(row.file), std::string::npos) << "message lacks the file: " << what;
    EXPECT_EQ(error_class([&] { read_matrix_market<Pattern>(path); }), want);
    if (want != "InvalidValue") {
        // Rejected by the streaming reader itself, not only by the whole-file check.
        EXPECT_EQ(error_class([&] {
                      MatrixMarketReader reader(path);
                      CooMatrix<double, gindex_t> chunk;
                      while (reader.read_chunk(1, chunk)) {
                      }
                  }),
                  want);
    }
}

std::string manifest_case_name(const ::testing::TestParamInfo<ManifestRow>& info) {
    std::string name = info.param.kind + "_" + info.param.file;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(Lagraph, ManifestCase, ::testing::ValuesIn(read_manifest()),
                         manifest_case_name);

TEST(MatrixMarketManifest, DuplicatesLoadWhenCombined) {
    const std::string path = path_of("mangled14.mtx");
    std::string what;
    EXPECT_EQ(error_class([&] { read_matrix_market<double>(path); }, &what), "InvalidValue");
    EXPECT_NE(what.find("(2, 2)"), std::string::npos) << what;
    EXPECT_NE(what.find("lines 7 and 8"), std::string::npos) << what;
    const auto m = read_matrix_market<double>(path, {DuplicatePolicy::combine});
    EXPECT_EQ(m.nrows, 3);
    EXPECT_EQ(m.ncols, 4);
    ASSERT_EQ(m.nnz(), 2u);
    EXPECT_EQ(m.rows[1], 1);
    EXPECT_EQ(m.cols[1], 1);
    EXPECT_DOUBLE_EQ(m.vals[1], 3.4 + 7.1);
    EXPECT_EQ(read_matrix_market<Pattern>(path, {DuplicatePolicy::combine}).nnz(), 2u);
}

/// The .mtx files that the manifest does not list.
std::vector<std::string> unlisted_files() {
    std::set<std::string> listed;
    for (const auto& r : read_manifest()) listed.insert(r.file);
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(data_dir)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() == ".mtx" && !listed.count(name)) files.push_back(name);
    }
    std::sort(files.begin(), files.end());
    return files;
}

class UnlistedFile : public ::testing::TestWithParam<std::string> {};

TEST_P(UnlistedFile, LoadsOrIsRejected) {
    const std::string file = GetParam();
    const std::string path = path_of(file);
    if (file.find("_noheader") != std::string::npos) {
        std::string what;
        EXPECT_EQ(error_class([&] { read_matrix_market<double>(path); }, &what), "ParseError");
        EXPECT_NE(what.find("banner"), std::string::npos) << what;
        return;
    }
    MatrixMarketReader reader(path);
    const MatrixMarketHeader h = reader.header();
    const auto m = read_matrix_market<double>(path);
    EXPECT_EQ(m.nrows, h.nrows);
    EXPECT_EQ(m.ncols, h.ncols);
    EXPECT_GE(m.nnz(), std::size_t(h.entries));
    EXPECT_LE(m.nnz(), h.max_tuples());
    EXPECT_EQ(read_matrix_market<Pattern>(path).nnz(), m.nnz());
}

INSTANTIATE_TEST_SUITE_P(Lagraph, UnlistedFile, ::testing::ValuesIn(unlisted_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string name = info.param;
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return name;
                         });

TEST(MatrixMarketData, UnlistedFilesAreFound) {
    const auto files = unlisted_files();
    EXPECT_NE(std::find(files.begin(), files.end(), "pushpull.mtx"), files.end());
    EXPECT_NE(std::find(files.begin(), files.end(), "west0067_noheader.mtx"), files.end());
}

TEST(MatrixMarketData, GarbageFileIsRejected) {
    EXPECT_EQ(error_class([] { read_matrix_market<double>(path_of("garbage.lagraph")); }),
              "ParseError");
}

/// Every valid symmetric / skew-symmetric file expands to A == A^T / A == -A^T.
TEST(MatrixMarketData, SymmetricFilesExpandToBothTriangles) {
    int checked = 0;
    for (const auto& e : std::filesystem::directory_iterator(data_dir)) {
        const std::string path = e.path().string();
        if (e.path().extension() != ".mtx" || path.find("mangled") != std::string::npos ||
            path.find("noheader") != std::string::npos || path.find("complex") != std::string::npos)
            continue;
        MatrixMarketReader reader(path);
        const auto sym = reader.header().symmetry;
        if (sym == MatrixMarketSymmetry::general) continue;
        const double sign = sym == MatrixMarketSymmetry::skew_symmetric ? -1.0 : 1.0;
        const auto m = read_matrix_market<double>(path);
        std::map<std::pair<gindex_t, gindex_t>, double> entries;
        for (std::size_t k = 0; k < m.nnz(); ++k) entries[{m.rows[k], m.cols[k]}] = m.vals[k];
        for (const auto& [ij, v] : entries) {
            const auto it = entries.find({ij.second, ij.first});
            ASSERT_NE(it, entries.end())
                << path << " lacks the mirror of " << ij.first << "," << ij.second;
            EXPECT_EQ(it->second, sign * v) << path;
        }
        ++checked;
    }
    EXPECT_GE(checked, 10);
}

TEST(MatrixMarketData, KnownValues) {
    const auto skew = read_matrix_market<double>(path_of("skew_fp64.mtx"));
    // Line "5 1 inf" gives A(4,0) = inf and A(0,4) = -inf.
    bool seen = false;
    for (std::size_t k = 0; k < skew.nnz(); ++k) {
        if (skew.rows[k] == 4 && skew.cols[k] == 0) {
            EXPECT_EQ(skew.vals[k], std::numeric_limits<double>::infinity());
            EXPECT_EQ(skew.vals[k + 1], -std::numeric_limits<double>::infinity());
            seen = true;
        }
    }
    EXPECT_TRUE(seen);
    const auto full = read_matrix_market<double>(path_of("full.mtx"));
    ASSERT_EQ(full.nnz(), 9u);
    EXPECT_EQ(full.rows[1], 1);  // column-major
    EXPECT_EQ(full.cols[1], 0);
    EXPECT_DOUBLE_EQ(full.vals[3], 0.276);
    const auto i8 = read_matrix_market<std::int8_t>(path_of("matrix_int8.mtx"));
    EXPECT_EQ(*std::min_element(i8.vals.data(), i8.vals.data() + i8.nnz()), -128);
    EXPECT_EQ(*std::max_element(i8.vals.data(), i8.vals.data() + i8.nnz()), 127);
}

/// Chunked reading gives the same tuples as reading the whole file, for several chunk sizes.
TEST(MatrixMarketData, ChunkedReadingMatchesWholeReading) {
    for (const char* file : {"karate.mtx", "west0067_jumbled.mtx", "skew_int16.mtx",
                             "full_symmetric.mtx", "lp_afiro.mtx", "empty.mtx", "bcsstk13.mtx"}) {
        const std::string path = path_of(file);
        const auto whole = read_matrix_market<double>(path);
        for (std::size_t chunk : {1, 2, 3, 7, 64, 1000, 1 << 20}) {
            MatrixMarketReader reader(path);
            CooMatrix<double, gindex_t> all, part;
            std::size_t calls = 0;
            bool more = true;
            while (more) {
                part.clear();
                more = reader.read_chunk(chunk, part);
                ++calls;
                ASSERT_LE(part.nnz(), 2 * chunk);
                for (std::size_t k = 0; k < part.nnz(); ++k)
                    all.push_back(part.rows[k], part.cols[k], part.vals[k]);
                all.nrows = part.nrows;
                all.ncols = part.ncols;
            }
            EXPECT_TRUE(test::same_tuples(all, whole)) << file << " chunk " << chunk;
            EXPECT_EQ(reader.entries_read(), std::uint64_t(reader.header().entries));
            EXPECT_EQ(calls,
                      std::max<std::size_t>(1, (reader.header().entries + chunk - 1) / chunk))
                << file << " chunk " << chunk;
            EXPECT_FALSE(reader.read_chunk(chunk, part));  // stays exhausted
        }
    }
}

TEST(MatrixMarketData, HeaderDescribesTheFile) {
    MatrixMarketReader reader(path_of("karate.mtx"));
    const auto& h = reader.header();
    EXPECT_EQ(h.format, MatrixMarketFormat::coordinate);
    EXPECT_EQ(h.field, MatrixMarketField::pattern);
    EXPECT_EQ(h.symmetry, MatrixMarketSymmetry::symmetric);
    EXPECT_EQ(h.value_type, ValueType::boolean);
    EXPECT_FALSE(h.value_type_declared);
    EXPECT_EQ(h.nrows, 34);
    EXPECT_EQ(h.entries, 78);
    EXPECT_EQ(h.max_tuples(), 156u);
    MatrixMarketReader cover(path_of("cover.mtx"));
    EXPECT_TRUE(cover.header().value_type_declared);
    EXPECT_EQ(cover.header().value_type, ValueType::int32);
    EXPECT_EQ(to_string(MatrixMarketSymmetry::skew_symmetric), "skew-symmetric");
    EXPECT_EQ(to_string(MatrixMarketField::integer), "integer");
    EXPECT_EQ(to_string(MatrixMarketFormat::array), "array");
}

}  // namespace
}  // namespace gridblas
