#pragma once
// Private state of MatrixMarketReader, shared by the header parser
// (matrix_market_header.cpp) and the entry reader (matrix_market_reader.cpp).

#include <cstdint>
#include <istream>
#include <memory>
#include <string>

#include "gridblas/matrix/matrix_market.hpp"
#include "text_scan.hpp"

namespace gridblas {

namespace detail {

/// One entry of the file, checked against the header: 0-based indices, the value as read
/// (a one for pattern files), and whether the transposed tuple must be produced too.
struct MmEntry {
    gindex_t row = 0;
    gindex_t col = 0;
    Number value;
    bool mirror = false;  ///< also produce (col, row)
    bool negate = false;  ///< ... with the negated value (skew-symmetric)
};

/// Parses the banner, the comment block (with `%%GraphBLAS type`) and the size line.
MatrixMarketHeader parse_mm_header(LineReader& lines);

/// The text of a number for messages.
std::string number_text(const Number& x);

}  // namespace detail

struct MatrixMarketReader::Impl {
    std::unique_ptr<std::istream> owned;  // set when the reader opened the file itself
    detail::LineReader lines;
    MatrixMarketHeader header;
    std::uint64_t read = 0;  // file entries read so far
    bool done = false;       // every entry read and the rest of the file checked
    bool failed = false;     // an exception left the reader unusable
    gindex_t next_row = 0;   // array format: position of the next value
    gindex_t next_col = 0;

    Impl(std::unique_ptr<std::istream> own, std::istream& in, const std::string& name);

    /// The next entry; false once all declared entries were read.
    bool next_entry(detail::MmEntry& e);
    /// After the last entry: only blank and comment lines may follow.
    void finish();

private:
    void read_coordinate(std::string_view line, detail::MmEntry& e);
    void read_array(std::string_view line, detail::MmEntry& e);
    detail::Number read_value(std::string_view tok);
    gindex_t read_index(std::string_view tok, gindex_t limit, const char* what);
};

}  // namespace gridblas
