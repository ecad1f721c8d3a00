// Line reading, tokenizing and exact number parsing shared by the Matrix Market and
// edge-list readers (see text_scan.hpp).
#include "text_scan.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace gridblas::detail {

std::string where(const std::string& name, std::size_t line, const std::string& message) {
    return name + ":" + std::to_string(line) + ": " + message;
}

std::string printable(std::string_view token) {
    constexpr std::size_t max_chars = 40;
    std::string s = "'";
    for (std::size_t i = 0; i < token.size() && i < max_chars; ++i) {
        const auto c = static_cast<unsigned char>(token[i]);
        if (c >= 0x20 && c < 0x7f) {
            s += static_cast<char>(c);
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            s += hex;
        }
    }
    if (token.size() > max_chars) s += "...";
    return s + "'";
}

LineReader::LineReader(std::istream& in, std::string name)
    : in_(&in), name_(std::move(name)), buf_(max_line + 1) {}

bool LineReader::next(std::string_view& line) {
    if (in_->bad()) fail<IoError>("read failed");
    if (in_->eof()) return false;
    in_->getline(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    const auto got = static_cast<std::size_t>(in_->gcount());
    if (in_->bad()) {
        ++line_;
        fail<IoError>("read failed");
    }
    if (got == 0 && in_->eof()) return false;
    ++line_;
    if (in_->fail() && !in_->eof()) {
        // The buffer filled before the end of the line.
        line = std::string_view(buf_.data(), got);
        const std::string_view t = trim_left(line);
        if (t.empty() || (t[0] != '%' && t[0] != '#'))
            fail<ParseError>("line longer than " + std::to_string(max_line) + " characters");
        in_->clear();
        in_->ignore(std::numeric_limits<std::streamsize>::max(), '\n');
        if (in_->bad()) fail<IoError>("read failed");
        return true;
    }
    // A line ended by '\n' counts the newline in gcount; the last line may lack it.
    const bool had_newline = !in_->eof();
    line = std::string_view(buf_.data(), had_newline ? got - 1 : got);
    return true;
}

bool is_blank(std::string_view line) {
    for (char c : line)
        if (!is_space(c)) return false;
    return true;
}

std::string_view trim_left(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && is_space(line[i])) ++i;
    return line.substr(i);
}

namespace {

bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

}  // namespace

ScanStatus scan_integer(std::string_view tok, Number& out) {
    bool negative = false;
    if (!tok.empty() && (tok[0] == '+' || tok[0] == '-')) {
        negative = tok[0] == '-';
        tok.remove_prefix(1);
    }
    if (!all_digits(tok)) return ScanStatus::malformed;
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (ec == std::errc::result_out_of_range) return ScanStatus::out_of_range;
    if (ec != std::errc() || end != tok.data() + tok.size()) return ScanStatus::malformed;
    out = Number{};
    out.is_integer = true;
    out.negative = negative;
    out.mag = v;
    return ScanStatus::ok;
}

ScanStatus scan_real(std::string_view tok, Number& out) {
    const ScanStatus s = scan_integer(tok, out);
    if (s == ScanStatus::ok) return s;
    // A too-large integer is still a valid real; anything else goes to the float parser,
    // which (unlike strtod) takes no leading '+' and no hexadecimal.
    std::string_view body = tok;
    if (!body.empty() && body[0] == '+') {
        body.remove_prefix(1);
        if (!body.empty() && (body[0] == '+' || body[0] == '-')) return ScanStatus::malformed;
    }
    if (body.empty()) return ScanStatus::malformed;
    double d = 0.0;
    const char* first = body.data();
    const char* last = body.data() + body.size();
    const auto [end, ec] = std::from_chars(first, last, d, std::chars_format::general);
    if (end != last) return ScanStatus::malformed;
    if (ec == std::errc::result_out_of_range) {
        // Overflow is an error; underflow to a subnormal or zero is not.
        const std::string copy(body);
        const double v = std::strtod(copy.c_str(), nullptr);
        if (std::isinf(v)) return ScanStatus::out_of_range;
        d = v;
    } else if (ec != std::errc()) {
        return ScanStatus::malformed;
    }
    out = Number{};
    out.is_integer = false;
    out.real = d;
    return ScanStatus::ok;
}

ScanStatus scan_index(std::string_view tok, std::uint64_t& out, bool& negative) {
    Number n;
    negative = false;
    const ScanStatus s = scan_integer(tok, n);
    if (s == ScanStatus::out_of_range) {
        negative = tok[0] == '-';
        return s;
    }
    if (s != ScanStatus::ok) return s;
    if (n.negative) {
        negative = true;
        return ScanStatus::out_of_range;
    }
    out = n.mag;
    return ScanStatus::ok;
}

bool number_fits(ValueType t, const Number& x) {
    switch (t) {
        case ValueType::boolean:
            return x.is_integer ? x.mag == 0 || (x.mag == 1 && !x.negative)
                                : (x.real == 0.0 || x.real == 1.0);
        case ValueType::int8:
            return number_fits<std::int8_t>(x);
        case ValueType::int16:
            return number_fits<std::int16_t>(x);
        case ValueType::int32:
            return number_fits<std::int32_t>(x);
        case ValueType::int64:
            return number_fits<std::int64_t>(x);
        case ValueType::uint8:
            return number_fits<std::uint8_t>(x);
        case ValueType::uint16:
            return number_fits<std::uint16_t>(x);
        case ValueType::uint32:
            return number_fits<std::uint32_t>(x);
        case ValueType::uint64:
            return number_fits<std::uint64_t>(x);
        case ValueType::fp32:
            return number_fits<float>(x);
        case ValueType::fp64:
            return number_fits<double>(x);
    }
    return false;
}

}  // namespace gridblas::detail
