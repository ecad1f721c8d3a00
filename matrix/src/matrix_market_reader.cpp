// MatrixMarketReader: streams the entries of a Matrix Market file in bounded chunks, checking
// each line against the header (indices, value types, triangles) and the entry count.
#include <fstream>

#include "matrix_market_impl.hpp"

namespace gridblas {

using detail::MmEntry;
using detail::Number;
using detail::ScanStatus;

MatrixMarketReader::Impl::Impl(std::unique_ptr<std::istream> own, std::istream& in,
                               const std::string& name)
    : owned(std::move(own)), lines(in, name) {
    header = detail::parse_mm_header(lines);
    if (header.symmetry == MatrixMarketSymmetry::skew_symmetric) next_row = 1;
}

gindex_t MatrixMarketReader::Impl::read_index(std::string_view tok, gindex_t limit,
                                              const char* what) {
    std::uint64_t v = 0;
    bool negative = false;
    const ScanStatus s = detail::scan_index(tok, v, negative);
    if (s == ScanStatus::malformed)
        lines.fail<ParseError>(std::string("bad ") + what + " index " + detail::printable(tok));
    if (s == ScanStatus::out_of_range || v == 0 || v > std::uint64_t(limit)) {
        lines.fail<IndexOutOfBounds>(std::string(what) + " index " + detail::printable(tok) +
                                     " outside 1.." + std::to_string(limit));
    }
    return static_cast<gindex_t>(v - 1);
}

Number MatrixMarketReader::Impl::read_value(std::string_view tok) {
    Number x;
    // A file declared float or double is read as real even when its field says integer.
    const bool integer = header.field == MatrixMarketField::integer &&
                         header.value_type != ValueType::fp32 &&
                         header.value_type != ValueType::fp64;
    const ScanStatus s = integer ? detail::scan_integer(tok, x) : detail::scan_real(tok, x);
    if (s == ScanStatus::malformed) {
        lines.fail<ParseError>(std::string("bad ") + (integer ? "integer" : "real") + " value " +
                               detail::printable(tok));
    }
    if (s == ScanStatus::out_of_range)
        lines.fail<ParseError>("value " + detail::printable(tok) + " out of range");
    if (!detail::number_fits(header.value_type, x)) {
        lines.fail<ParseError>("value " + detail::printable(tok) + " out of range of the type " +
                               to_string(header.value_type));
    }
    return x;
}

void MatrixMarketReader::Impl::read_coordinate(std::string_view line, MmEntry& e) {
    detail::Tokens tok(line);
    std::string_view r, c, v;
    const bool pattern = header.field == MatrixMarketField::pattern;
    if (!tok.next(r) || !tok.next(c) || (!pattern && !tok.next(v))) {
        lines.fail<ParseError>(pattern ? "expected '<row> <column>'"
                                       : "expected '<row> <column> <value>'");
    }
    std::string_view extra;
    if (tok.next(extra))
        lines.fail<ParseError>("unexpected text " + detail::printable(extra) + " after the entry");
    e.row = read_index(r, header.nrows, "row");
    e.col = read_index(c, header.ncols, "column");
    if (pattern) {
        e.value = Number{};
        e.value.mag = 1;
    } else {
        e.value = read_value(v);
    }
    e.mirror = false;
    e.negate = false;
    if (header.symmetry == MatrixMarketSymmetry::general) return;
    // Entries of the upper triangle are mirrored like those of the lower one (LAGraph reads
    // them so); a file that stores both (i, j) and (j, i) thus has a duplicate entry.
    const bool skew = header.symmetry == MatrixMarketSymmetry::skew_symmetric;
    if (skew && e.row == e.col && !e.value.is_zero()) {
        lines.fail<ParseError>("nonzero diagonal entry (" + std::to_string(e.row + 1) + ", " +
                               std::to_string(e.col + 1) + ") in a skew-symmetric file");
    }
    e.mirror = e.row != e.col;
    e.negate = skew;
    if (e.mirror && skew && !detail::number_fits(header.value_type, e.value.negated())) {
        lines.fail<ParseError>("negated value " + detail::printable(v) +
                               " out of range of the type " + to_string(header.value_type));
    }
}

void MatrixMarketReader::Impl::read_array(std::string_view line, MmEntry& e) {
    detail::Tokens tok(line);
    std::string_view v, extra;
    if (!tok.next(v)) lines.fail<ParseError>("expected a value");
    if (tok.next(extra))
        lines.fail<ParseError>("unexpected text " + detail::printable(extra) + " after the value");
    e.value = read_value(v);
    e.row = next_row;
    e.col = next_col;
    const bool skew = header.symmetry == MatrixMarketSymmetry::skew_symmetric;
    e.mirror = header.symmetry != MatrixMarketSymmetry::general && e.row != e.col;
    e.negate = skew;
    if (e.mirror && skew && !detail::number_fits(header.value_type, e.value.negated())) {
        lines.fail<ParseError>("negated value " + detail::printable(v) +
                               " out of range of the type " + to_string(header.value_type));
    }
    // Column-major order; symmetric files hold rows col..n-1 of each column, skew col+1..n-1.
    if (++next_row == header.nrows) {
        ++next_col;
        next_row = header.symmetry == MatrixMarketSymmetry::general ? 0
                   : skew                                           ? next_col + 1
                                                                    : next_col;
    }
}

bool MatrixMarketReader::Impl::next_entry(MmEntry& e) {
    if (read >= std::uint64_t(header.entries)) return false;
    std::string_view line;
    for (;;) {
        if (!lines.next(line)) {
            lines.fail<ParseError>("truncated: the file ends after " + std::to_string(read) +
                                   " of " + std::to_string(header.entries) + " entries");
        }
        const std::string_view t = detail::trim_left(line);
        if (!t.empty() && t[0] != '%') break;
    }
    if (header.format == MatrixMarketFormat::coordinate)
        read_coordinate(line, e);
    else
        read_array(line, e);
    ++read;
    return true;
}

void MatrixMarketReader::Impl::finish() {
    std::string_view line;
    while (lines.next(line)) {
        const std::string_view t = detail::trim_left(line);
        if (!t.empty() && t[0] != '%') {
            lines.fail<ParseError>("more entries than the " + std::to_string(header.entries) +
                                   " declared (or trailing text " + detail::printable(t) + ")");
        }
    }
    done = true;
}

namespace {

std::unique_ptr<std::istream> open_for_reading(const std::string& path) {
    auto in = std::make_unique<std::ifstream>(path, std::ios::in | std::ios::binary);
    if (!in->is_open()) throw IoError(path + ": cannot open for reading");
    return in;
}

}  // namespace

MatrixMarketReader::MatrixMarketReader(const std::string& path) {
    auto in = open_for_reading(path);
    std::istream& ref = *in;
    impl_ = std::make_unique<Impl>(std::move(in), ref, path);
}

MatrixMarketReader::MatrixMarketReader(std::istream& in, const std::string& name)
    : impl_(std::make_unique<Impl>(nullptr, in, name)) {}

MatrixMarketReader::~MatrixMarketReader() = default;
MatrixMarketReader::MatrixMarketReader(MatrixMarketReader&&) noexcept = default;
MatrixMarketReader& MatrixMarketReader::operator=(MatrixMarketReader&&) noexcept = default;

const MatrixMarketHeader& MatrixMarketReader::header() const { return impl_->header; }
const std::string& MatrixMarketReader::name() const { return impl_->lines.name(); }
std::size_t MatrixMarketReader::line_number() const { return impl_->lines.line(); }
std::uint64_t MatrixMarketReader::entries_read() const { return impl_->read; }

namespace {

/// Appends the tuple(s) of one entry, converting the value to T.
template <class T>
void append_entry(const detail::LineReader& lines, const MmEntry& e, CooMatrix<T, gindex_t>& out) {
    if constexpr (std::is_same_v<T, Pattern>) {
        out.push_back(e.row, e.col);
        if (e.mirror) out.push_back(e.col, e.row);
    } else {
        const auto convert = [&](const Number& x) {
            if (!detail::number_fits<T>(x)) {
                lines.fail<ParseError>("value " + detail::number_text(x) +
                                       " does not fit the requested type " +
                                       to_string(value_type_of<T>()));
            }
            return detail::number_to<T>(x);
        };
        out.push_back(e.row, e.col, convert(e.value));
        if (e.mirror) out.push_back(e.col, e.row, convert(e.negate ? e.value.negated() : e.value));
    }
}

}  // namespace

template <class T>
bool MatrixMarketReader::read_chunk(std::size_t max_entries, CooMatrix<T, gindex_t>& out) {
    Impl& s = *impl_;
    if (max_entries == 0) throw InvalidValue(s.lines.name() + ": read_chunk needs max_entries > 0");
    if (s.failed) throw InvalidValue(s.lines.name() + ": reader used after an earlier error");
    if (s.done) return false;
    const std::size_t old_size = out.nnz();
    try {
        MmEntry e;
        for (std::size_t k = 0; k < max_entries && s.next_entry(e); ++k)
            append_entry(s.lines, e, out);
        if (s.read == std::uint64_t(s.header.entries)) s.finish();
    } catch (...) {
        s.failed = true;
        out.rows.resize(old_size);
        out.cols.resize(old_size);
        out.vals.resize(old_size);
        throw;
    }
    out.nrows = s.header.nrows;
    out.ncols = s.header.ncols;
    return !s.done;
}

#define GRIDBLAS_INSTANTIATE_READ_CHUNK(T) \
    template bool MatrixMarketReader::read_chunk<T>(std::size_t, CooMatrix<T, gindex_t>&);
GRIDBLAS_INSTANTIATE_READ_CHUNK(std::int8_t)
GRIDBLAS_INSTANTIATE_READ_CHUNK(std::int16_t)
GRIDBLAS_INSTANTIATE_READ_CHUNK(std::int32_t)
GRIDBLAS_INSTANTIATE_READ_CHUNK(std::int64_t)
GRIDBLAS_INSTANTIATE_READ_CHUNK(std::uint8_t)
GRIDBLAS_INSTANTIATE_READ_CHUNK(std::uint16_t)
GRIDBLAS_INSTANTIATE_READ_CHUNK(std::uint32_t)
GRIDBLAS_INSTANTIATE_READ_CHUNK(std::uint64_t)
GRIDBLAS_INSTANTIATE_READ_CHUNK(float)
GRIDBLAS_INSTANTIATE_READ_CHUNK(double)
GRIDBLAS_INSTANTIATE_READ_CHUNK(Pattern)
#undef GRIDBLAS_INSTANTIATE_READ_CHUNK

}  // namespace gridblas
