#pragma once
// Private helpers of the text readers (Matrix Market, edge lists): a line reader with line
// numbers and a length limit, a whitespace tokenizer, exact number parsing, and checks that a
// parsed number fits a value type. Not installed; used by matrix/src/*.cpp only.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/matrix_market.hpp"

namespace gridblas::detail {

/// "name:line: message", the prefix of every reader error.
std::string where(const std::string& name, std::size_t line, const std::string& message);

/// A token made printable for an error message: control and non-ASCII bytes as \xNN, cut
/// after 40 characters.
std::string printable(std::string_view token);

/// Reads a stream line by line, counting lines. A line longer than the buffer is an error,
/// except a comment line (starting with '%' or '#'), whose excess is skipped.
class LineReader {
public:
    static constexpr std::size_t max_line = 1 << 16;

    LineReader(std::istream& in, std::string name);

    /// The next line without its end-of-line; false at the end of the stream.
    /// @throws ParseError for an over-long line, IoError for a read failure.
    bool next(std::string_view& line);
    /// Number of the line last returned (1-based).
    std::size_t line() const { return line_; }
    const std::string& name() const { return name_; }

    /// Throws E with "name:line: message".
    template <class E>
    [[noreturn]] void fail(const std::string& message) const {
        throw E(where(name_, line_, message));
    }

private:
    std::istream* in_;
    std::string name_;
    std::vector<char> buf_;
    std::size_t line_ = 0;
};

inline bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/// Splits a line at blanks (space, tab, CR, VT, FF).
class Tokens {
public:
    explicit Tokens(std::string_view line) : rest_(line) {}
    /// The next token; false when only blanks remain.
    bool next(std::string_view& tok) {
        std::size_t i = 0;
        while (i < rest_.size() && is_space(rest_[i])) ++i;
        if (i == rest_.size()) {
            rest_ = {};
            return false;
        }
        std::size_t j = i;
        while (j < rest_.size() && !is_space(rest_[j])) ++j;
        tok = rest_.substr(i, j - i);
        rest_ = rest_.substr(j);
        return true;
    }
    /// True when only blanks remain.
    bool at_end() {
        std::string_view t;
        std::string_view saved = rest_;
        bool more = next(t);
        rest_ = saved;
        return !more;
    }

private:
    std::string_view rest_;
};

/// True when the line holds only blanks.
bool is_blank(std::string_view line);
/// The line without leading blanks.
std::string_view trim_left(std::string_view line);

/// A number read from text, without loss: an integer as sign and magnitude, anything else as
/// a double.
struct Number {
    bool is_integer = true;
    bool negative = false;  // integers only; "-0" is a negative zero (sign of a real zero)
    std::uint64_t mag = 0;  // integers only
    double real = 0.0;      // non-integers only

    double as_double() const {
        if (!is_integer) return real;
        const double d = static_cast<double>(mag);
        return negative ? -d : d;
    }
    Number negated() const {
        Number r = *this;
        if (is_integer)
            r.negative = !negative;
        else
            r.real = -real;
        return r;
    }
    bool is_zero() const { return is_integer ? mag == 0 : real == 0.0; }
};

enum class ScanStatus { ok, malformed, out_of_range };

/// An integer token: optional sign, decimal digits. out_of_range if |value| >= 2^64.
ScanStatus scan_integer(std::string_view tok, Number& out);
/// A real token: an integer token, or a decimal / exponent / inf / nan token as strtod would
/// accept it (no hexadecimal). out_of_range if it overflows a double.
ScanStatus scan_real(std::string_view tok, Number& out);
/// A non-negative index token (optional '+', digits); a '-' gives out_of_range with
/// @p negative set, so that callers can report a negative index as out of bounds.
ScanStatus scan_index(std::string_view tok, std::uint64_t& out, bool& negative);

/// True when @p x can be stored in T without loss (floating T: up to rounding; out of range
/// of a float is not).
template <class T>
bool number_fits(const Number& x) {
    if constexpr (std::is_floating_point_v<T>) {
        if (x.is_integer) return true;
        if (!std::isfinite(x.real)) return true;
        if constexpr (sizeof(T) >= sizeof(double)) {
            return true;
        } else {
            // Below max + half an ulp the value rounds to a finite T (max has an odd mantissa,
            // so the tie rounds up to infinity).
            using L = std::numeric_limits<T>;
            const double limit =
                std::ldexp(1.0, L::max_exponent) - std::ldexp(1.0, L::max_exponent - L::digits - 1);
            return std::fabs(x.real) < limit;
        }
    } else {
        static_assert(std::is_integral_v<T>);
        constexpr int bits = std::numeric_limits<T>::digits;  // value bits
        if (x.is_integer) {
            if (x.mag == 0) return true;
            if (x.negative) {
                if constexpr (std::is_unsigned_v<T>) return false;
                return x.mag - 1 <= std::uint64_t(std::numeric_limits<T>::max());
            }
            return x.mag <= std::uint64_t(std::numeric_limits<T>::max());
        }
        const double d = x.real;
        if (!std::isfinite(d) || d != std::trunc(d)) return false;
        const double hi = std::ldexp(1.0, bits);  // 2^bits: one past the largest value
        const double lo = std::is_signed_v<T> ? -hi : 0.0;
        return d >= lo && d < hi;
    }
}

/// x converted to T; x must fit (number_fits<T>).
template <class T>
T number_to(const Number& x) {
    if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(x.as_double());
    } else {
        if (!x.is_integer) return static_cast<T>(x.real);
        if (!x.negative || x.mag == 0) return static_cast<T>(x.mag);
        // Negative and fits a signed T: -mag computed without overflowing int64.
        return static_cast<T>(-static_cast<std::int64_t>(x.mag - 1) - 1);
    }
}

/// True when x is a value of the declared type t (bool: 0 or 1).
bool number_fits(ValueType t, const Number& x);

}  // namespace gridblas::detail
