// libFuzzer target for the Matrix Market reader: feeds the input as an in-memory stream,
// reads it as double, Pattern and int8 (chunked and whole), and checks that every accepted
// input yields tuples inside the declared dimensions and that the value types agree on
// accepting it. Any other exception than gridblas::Error, a crash or a sanitizer report is
// a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "gridblas/matrix/matrix_market.hpp"

namespace {

using gridblas::CooMatrix;
using gridblas::gindex_t;

void check(bool ok) {
    if (!ok) __builtin_trap();
}

template <class T>
void check_tuples(const CooMatrix<T, gindex_t>& m, const gridblas::MatrixMarketHeader& h) {
    check(m.nrows == h.nrows && m.ncols == h.ncols);
    check(m.rows.size() == m.cols.size() && m.vals.size() == m.rows.size());
    check(m.nnz() <= h.max_tuples());
    for (std::size_t k = 0; k < m.nnz(); ++k)
        check(m.rows[k] >= 0 && m.rows[k] < h.nrows && m.cols[k] >= 0 && m.cols[k] < h.ncols);
}

/// Reads the text chunk by chunk as T; true if accepted.
template <class T>
bool read_chunked(const std::string& text, std::size_t chunk, std::size_t* nnz) {
    std::istringstream in(text);
    try {
        gridblas::MatrixMarketReader reader(in, "fuzz");
        CooMatrix<T, gindex_t> m;
        while (reader.read_chunk(chunk, m)) {
        }
        check(reader.entries_read() == std::uint64_t(reader.header().entries));
        check_tuples(m, reader.header());
        *nnz = m.nnz();
        return true;
    } catch (const gridblas::Error&) {
        return false;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::size_t n_double = 0, n_pattern = 0, n_int = 0;
    const bool ok_double = read_chunked<double>(text, 1 + size % 5, &n_double);
    const bool ok_pattern = read_chunked<gridblas::Pattern>(text, 64, &n_pattern);
    // Every value that the file's declared type allows converts to double, so double and
    // Pattern accept the same inputs with the same tuples.
    check(ok_double == ok_pattern);
    if (ok_double) check(n_double == n_pattern);
    // A narrow integer type may reject more, never less.
    const bool ok_int = read_chunked<std::int8_t>(text, 3, &n_int);
    if (ok_int) check(ok_double && n_int == n_double);
    // The whole-file path with the duplicate check, both policies.
    for (auto policy : {gridblas::DuplicatePolicy::reject, gridblas::DuplicatePolicy::combine}) {
        std::istringstream in(text);
        try {
            const auto m = gridblas::read_matrix_market<double>(in, "fuzz", {policy});
            check(ok_double && m.nnz() <= n_double);
        } catch (const gridblas::Error&) {
            check(!ok_double || policy == gridblas::DuplicatePolicy::reject);
        }
    }
    return 0;
}
