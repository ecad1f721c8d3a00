// Matrix Market header parsing: the %%MatrixMarket banner, the comment block with the
// optional `%%GraphBLAS type T` line, and the size line; plus the enum names.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <optional>

#include "matrix_market_impl.hpp"

namespace gridblas {

std::string to_string(ValueType t) {
    switch (t) {
        case ValueType::boolean:
            return "bool";
        case ValueType::int8:
            return "int8";
        case ValueType::int16:
            return "int16";
        case ValueType::int32:
            return "int32";
        case ValueType::int64:
            return "int64";
        case ValueType::uint8:
            return "uint8";
        case ValueType::uint16:
            return "uint16";
        case ValueType::uint32:
            return "uint32";
        case ValueType::uint64:
            return "uint64";
        case ValueType::fp32:
            return "float";
        case ValueType::fp64:
            return "double";
    }
    return "unknown";
}

std::string to_string(MatrixMarketFormat f) {
    return f == MatrixMarketFormat::coordinate ? "coordinate" : "array";
}

std::string to_string(MatrixMarketField f) {
    switch (f) {
        case MatrixMarketField::real:
            return "real";
        case MatrixMarketField::integer:
            return "integer";
        case MatrixMarketField::pattern:
            return "pattern";
    }
    return "unknown";
}

std::string to_string(MatrixMarketSymmetry s) {
    switch (s) {
        case MatrixMarketSymmetry::general:
            return "general";
        case MatrixMarketSymmetry::symmetric:
            return "symmetric";
        case MatrixMarketSymmetry::skew_symmetric:
            return "skew-symmetric";
    }
    return "unknown";
}

std::uint64_t MatrixMarketHeader::max_tuples() const {
    const auto n = static_cast<std::uint64_t>(entries);
    return symmetry == MatrixMarketSymmetry::general ? n : 2 * n;
}

namespace detail {

std::string number_text(const Number& x) {
    if (x.is_integer) {
        std::string text = x.negative ? "-" : "";
        return text.append(std::to_string(x.mag));
    }
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, x.real);
    return std::string(buf, r.ptr);
}

namespace {

std::string lower(std::string_view s) {
    std::string r(s);
    std::transform(r.begin(), r.end(), r.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return r;
}

std::optional<ValueType> value_type_named(const std::string& name) {
    static const struct {
        const char* name;
        ValueType type;
    } names[] = {
        {"bool", ValueType::boolean},    {"int8_t", ValueType::int8},
        {"int16_t", ValueType::int16},   {"int32_t", ValueType::int32},
        {"int64_t", ValueType::int64},   {"uint8_t", ValueType::uint8},
        {"uint16_t", ValueType::uint16}, {"uint32_t", ValueType::uint32},
        {"uint64_t", ValueType::uint64}, {"int8", ValueType::int8},
        {"int16", ValueType::int16},     {"int32", ValueType::int32},
        {"int64", ValueType::int64},     {"uint8", ValueType::uint8},
        {"uint16", ValueType::uint16},   {"uint32", ValueType::uint32},
        {"uint64", ValueType::uint64},   {"float", ValueType::fp32},
        {"double", ValueType::fp64},
    };
    for (const auto& n : names)
        if (name == n.name) return n.type;
    return std::nullopt;
}

bool is_unsigned(ValueType t) {
    return t == ValueType::boolean || t == ValueType::uint8 || t == ValueType::uint16 ||
           t == ValueType::uint32 || t == ValueType::uint64;
}

/// The banner: "%%MatrixMarket matrix <format> <field> <symmetry>" (words case-insensitive).
void parse_banner(LineReader& lines, MatrixMarketHeader& h) {
    std::string_view line;
    if (!lines.next(line)) {
        throw ParseError(where(lines.name(), 1, "empty file: expected the %%MatrixMarket banner"));
    }
    Tokens tok(line);
    std::string_view w[6];
    int count = 0;
    while (count < 6 && tok.next(w[count])) ++count;
    if (count == 0 || lower(w[0]) != "%%matrixmarket") {
        lines.fail<ParseError>("missing %%MatrixMarket banner (the file starts with " +
                               printable(line) + ")");
    }
    if (count < 5) {
        lines.fail<ParseError>(
            "incomplete banner: expected '%%MatrixMarket matrix <format> <field> <symmetry>'");
    }
    if (count > 5) lines.fail<ParseError>("unexpected word " + printable(w[5]) + " in banner");
    const std::string object = lower(w[1]), format = lower(w[2]), field = lower(w[3]),
                      symmetry = lower(w[4]);

    // Words that are not Matrix Market at all are parse errors; valid but unsupported
    // features are reported after those.
    if (object != "matrix" && object != "vector")
        lines.fail<ParseError>("unknown object " + printable(w[1]) + " (expected 'matrix')");
    if (format == "coordinate")
        h.format = MatrixMarketFormat::coordinate;
    else if (format == "array")
        h.format = MatrixMarketFormat::array;
    else
        lines.fail<ParseError>("unknown format " + printable(w[2]) +
                               " (expected 'coordinate' or 'array')");
    if (field == "real")
        h.field = MatrixMarketField::real;
    else if (field == "integer")
        h.field = MatrixMarketField::integer;
    else if (field == "pattern")
        h.field = MatrixMarketField::pattern;
    else if (field != "complex")
        lines.fail<ParseError>("unknown field " + printable(w[3]) +
                               " (expected 'real', 'integer', 'pattern' or 'complex')");
    if (symmetry == "general")
        h.symmetry = MatrixMarketSymmetry::general;
    else if (symmetry == "symmetric")
        h.symmetry = MatrixMarketSymmetry::symmetric;
    else if (symmetry == "skew-symmetric")
        h.symmetry = MatrixMarketSymmetry::skew_symmetric;
    else if (symmetry != "hermitian")
        lines.fail<ParseError>("unknown symmetry " + printable(w[4]) +
                               " (expected 'general', 'symmetric', 'skew-symmetric' or "
                               "'hermitian')");
    if (format == "array" && field == "pattern")
        lines.fail<ParseError>("'array pattern' is not a valid Matrix Market combination");
    if (field == "pattern" && symmetry == "skew-symmetric")
        lines.fail<ParseError>("'pattern skew-symmetric' is not a valid Matrix Market combination");
    if (symmetry == "hermitian" && field != "complex")
        lines.fail<ParseError>("'hermitian' needs the complex field, not " + printable(w[3]));
    if (object == "vector") lines.fail<NotSupported>("Matrix Market vectors");
    if (field == "complex") lines.fail<NotSupported>("complex values");
    if (symmetry == "hermitian") lines.fail<NotSupported>("hermitian matrices");
}

/// A "%%GraphBLAS ..." comment line; only "%%GraphBLAS type T" means anything.
void parse_graphblas_line(LineReader& lines, std::string_view line, MatrixMarketHeader& h) {
    Tokens tok(line);
    std::string_view w;
    tok.next(w);  // "%%GraphBLAS"
    if (!tok.next(w) || lower(w) != "type") return;
    std::string name;
    while (tok.next(w)) {
        if (!name.empty()) name += ' ';
        name += lower(w);
    }
    if (name.empty()) lines.fail<ParseError>("%%GraphBLAS type line names no type");
    if (name == "float complex" || name == "double complex" || name == "gxb_fc32_t" ||
        name == "gxb_fc64_t")
        lines.fail<NotSupported>("complex values (%%GraphBLAS type " + name + ")");
    const auto t = value_type_named(name);
    if (!t) lines.fail<ParseError>("unknown %%GraphBLAS type " + printable(name));
    if (h.value_type_declared) lines.fail<ParseError>("second %%GraphBLAS type line");
    h.value_type = *t;
    h.value_type_declared = true;
}

/// A non-negative int64 from the size line.
gindex_t size_value(LineReader& lines, std::string_view tok, const char* what) {
    Number n;
    const ScanStatus s = scan_integer(tok, n);
    if (s == ScanStatus::malformed)
        lines.fail<ParseError>(std::string("bad ") + what + " " + printable(tok) +
                               " in the size line");
    if (s == ScanStatus::ok && n.negative)
        lines.fail<ParseError>(std::string("negative ") + what + " " + printable(tok));
    if (s == ScanStatus::out_of_range ||
        n.mag > std::uint64_t(std::numeric_limits<gindex_t>::max()))
        lines.fail<ParseError>(std::string(what) + " " + printable(tok) +
                               " does not fit a 64-bit signed integer");
    return static_cast<gindex_t>(n.mag);
}

void parse_size_line(LineReader& lines, std::string_view line, MatrixMarketHeader& h) {
    const bool coo = h.format == MatrixMarketFormat::coordinate;
    const int expected = coo ? 3 : 2;
    Tokens tok(line);
    std::string_view w[4];
    int count = 0;
    while (count < 4 && tok.next(w[count])) ++count;
    if (count != expected) {
        lines.fail<ParseError>(
            coo ? "size line of a coordinate file must be '<rows> <columns> <entries>'"
                : "size line of an array file must be '<rows> <columns>'");
    }
    h.nrows = size_value(lines, w[0], "row count");
    h.ncols = size_value(lines, w[1], "column count");
    if (h.symmetry != MatrixMarketSymmetry::general && h.nrows != h.ncols) {
        lines.fail<ParseError>(to_string(h.symmetry) + " matrix must be square, not " +
                               std::to_string(h.nrows) + " x " + std::to_string(h.ncols));
    }
    // Positions the file may store: all, one triangle with or without the diagonal.
    using u128 = unsigned __int128;
    const u128 n = u128(h.nrows);
    u128 capacity = u128(h.nrows) * u128(h.ncols);
    if (h.symmetry == MatrixMarketSymmetry::symmetric) capacity = n * (n + 1) / 2;
    if (h.symmetry == MatrixMarketSymmetry::skew_symmetric) capacity = n == 0 ? 0 : n * (n - 1) / 2;
    const u128 max_entries = u128(std::numeric_limits<gindex_t>::max());
    if (coo) {
        h.entries = size_value(lines, w[2], "entry count");
        if (u128(h.entries) > capacity) {
            lines.fail<ParseError>("entry count " + std::to_string(h.entries) +
                                   " exceeds the number of positions of a " +
                                   std::to_string(h.nrows) + " x " + std::to_string(h.ncols) + " " +
                                   to_string(h.symmetry) + " matrix");
        }
    } else {
        if (capacity > max_entries) {
            lines.fail<ParseError>("array of " + std::to_string(h.nrows) + " x " +
                                   std::to_string(h.ncols) +
                                   " values does not fit a 64-bit signed count");
        }
        h.entries = static_cast<gindex_t>(capacity);
    }
}

}  // namespace

MatrixMarketHeader parse_mm_header(LineReader& lines) {
    MatrixMarketHeader h;
    parse_banner(lines, h);
    std::string_view line;
    for (;;) {
        if (!lines.next(line)) lines.fail<ParseError>("truncated: the size line is missing");
        const std::string_view t = trim_left(line);
        if (t.empty()) continue;
        if (t[0] == '%') {
            if (t.size() >= 11 && lower(t.substr(0, 11)) == "%%graphblas")
                parse_graphblas_line(lines, t, h);
            continue;
        }
        break;
    }
    // Skew-symmetric storage needs negative values.
    if (h.symmetry == MatrixMarketSymmetry::skew_symmetric && h.value_type_declared &&
        is_unsigned(h.value_type)) {
        lines.fail<ParseError>("a skew-symmetric matrix cannot have the unsigned type " +
                               to_string(h.value_type));
    }
    if (!h.value_type_declared) {
        h.value_type = h.field == MatrixMarketField::pattern   ? ValueType::boolean
                       : h.field == MatrixMarketField::integer ? ValueType::int64
                                                               : ValueType::fp64;
    }
    parse_size_line(lines, line, h);
    return h;
}

}  // namespace detail
}  // namespace gridblas
