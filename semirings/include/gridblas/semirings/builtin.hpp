#pragma once
/// @file builtin.hpp
/// @brief The built-in semirings. Each is a plain struct with static members so that host
/// and device code can use it without objects:
///
///  - `value_type`              the domain of the add monoid and of the product;
///  - `zero()`                  the identity of the add monoid;
///  - `add(a, b)`               the add monoid;
///  - `mul(a, x)`               the product of a matrix entry `a` and a vector entry `x`;
///  - `has_terminal`            true when the add monoid has an absorbing ("terminal") value;
///  - `is_terminal(v)`          true when `add(v, anything) == v`, so a reduction may stop.
///
/// Operand order: gridblas always calls `mul(matrix_entry, vector_entry)`, for vxm and mxv
/// alike (the CombBLAS convention). For commutative products this is exactly the GraphBLAS
/// C API; for select-first/second it means `select2nd_*` always yields the vector's value,
/// which is what BFS needs in both push and pull directions.
///
/// Positional semirings (`positional = true`: any_secondi, min_secondi) take the global index of
/// the vector entry as `x` instead of its value; the CPU kernels support them, the CUDA
/// backend does not (is_builtin_semiring lists the semirings with device kernels).
///
/// This header is free of C++20 concepts so that nvcc can compile it; the concept lives in
/// semiring.hpp.

#include <limits>
#include <type_traits>

#include "gridblas/core/types.hpp"

namespace gridblas {

namespace detail {
template <class T>
GRIDBLAS_HD constexpr T max_value() {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::max();
}
template <class T>
GRIDBLAS_HD constexpr T lowest_value() {
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::lowest();
}
}  // namespace detail

/// (min, second): y(v) = min over stored a(v,u) with x(u) present of x(u). BFS parents when
/// the frontier carries its own vertex ids. Identity: max of T. Terminal: lowest of T.
template <class T>
struct select2nd_min {
    using value_type = T;
    static constexpr bool has_terminal = true;
    static constexpr bool add_idempotent = true;
    GRIDBLAS_HD static constexpr T zero() { return detail::max_value<T>(); }
    GRIDBLAS_HD static constexpr T add(T a, T b) { return b < a ? b : a; }
    template <class A>
    GRIDBLAS_HD static constexpr T mul(const A&, T x) {
        return x;
    }
    GRIDBLAS_HD static constexpr bool is_terminal(T v) { return v == detail::lowest_value<T>(); }
};

/// (any, pair): y(v) = 1 when some x(u) meets a stored a(v,u). "any" keeps its first
/// non-identity operand, so zero() is a true identity; every other value is terminal.
template <class T>
struct any_pair {
    using value_type = T;
    static constexpr bool has_terminal = true;
    GRIDBLAS_HD static constexpr T zero() { return T(0); }
    GRIDBLAS_HD static constexpr T add(T a, T b) { return a != T(0) ? a : b; }
    template <class A>
    GRIDBLAS_HD static constexpr T mul(const A&, T) {
        return T(1);
    }
    GRIDBLAS_HD static constexpr bool is_terminal(T v) { return v != T(0); }
};

/// (logical or, logical and) over a numeric type holding 0 / 1. Terminal: true.
template <class T>
struct lor_land {
    using value_type = T;
    static constexpr bool has_terminal = true;
    static constexpr bool add_idempotent = true;
    GRIDBLAS_HD static constexpr T zero() { return T(0); }
    GRIDBLAS_HD static constexpr T add(T a, T b) { return T((a != T(0)) || (b != T(0))); }
    GRIDBLAS_HD static constexpr T mul(T a, T x) { return T((a != T(0)) && (x != T(0))); }
    GRIDBLAS_HD static constexpr T mul(Pattern, T x) { return T(x != T(0)); }
    GRIDBLAS_HD static constexpr bool is_terminal(T v) { return v != T(0); }
};

/// (min, plus): shortest paths. Identity: +inf (or max). Terminal: -inf (or lowest).
/// The product saturates at the identity so that "no path" plus a weight stays "no path".
template <class T>
struct min_plus {
    using value_type = T;
    static constexpr bool has_terminal = true;
    static constexpr bool add_idempotent = true;
    GRIDBLAS_HD static constexpr T zero() { return detail::max_value<T>(); }
    GRIDBLAS_HD static constexpr T add(T a, T b) { return b < a ? b : a; }
    GRIDBLAS_HD static constexpr T mul(T a, T x) {
        if constexpr (std::is_floating_point_v<T>) {
            // +inf plus anything but -inf is already +inf: one test on the sum (NaN only
            // for inf - inf, or a NaN operand, which stays NaN) instead of two per product.
            const T r = a + x;
            if (r == r) return r;
            return (a != a || x != x) ? r : zero();
        } else {
            if (a == zero() || x == zero()) return zero();
            return T(a + x);
        }
    }
    GRIDBLAS_HD static constexpr T mul(Pattern, T x) { return x; }
    GRIDBLAS_HD static constexpr bool is_terminal(T v) { return v == detail::lowest_value<T>(); }
};

/// (plus, times): ordinary arithmetic. No terminal value.
template <class T>
struct plus_times {
    using value_type = T;
    static constexpr bool has_terminal = false;
    GRIDBLAS_HD static constexpr T zero() { return T(0); }
    GRIDBLAS_HD static constexpr T add(T a, T b) { return T(a + b); }
    GRIDBLAS_HD static constexpr T mul(T a, T x) { return T(a * x); }
    GRIDBLAS_HD static constexpr T mul(Pattern, T x) { return x; }
    GRIDBLAS_HD static constexpr bool is_terminal(T) { return false; }
};

/// (plus, pair): counts the stored entries that meet the vector's pattern. No terminal.
template <class T>
struct plus_pair {
    using value_type = T;
    static constexpr bool has_terminal = false;
    GRIDBLAS_HD static constexpr T zero() { return T(0); }
    GRIDBLAS_HD static constexpr T add(T a, T b) { return T(a + b); }
    template <class A>
    GRIDBLAS_HD static constexpr T mul(const A&, T) {
        return T(1);
    }
    GRIDBLAS_HD static constexpr bool is_terminal(T) { return false; }
};

/// (max, times): most reliable path style products. Identity: -inf (or lowest). Terminal:
/// +inf (or max).
template <class T>
struct max_times {
    using value_type = T;
    static constexpr bool has_terminal = true;
    static constexpr bool add_idempotent = true;
    GRIDBLAS_HD static constexpr T zero() { return detail::lowest_value<T>(); }
    GRIDBLAS_HD static constexpr T add(T a, T b) { return a < b ? b : a; }
    GRIDBLAS_HD static constexpr T mul(T a, T x) { return T(a * x); }
    GRIDBLAS_HD static constexpr T mul(Pattern, T x) { return x; }
    GRIDBLAS_HD static constexpr bool is_terminal(T v) { return v == detail::max_value<T>(); }
};

/// (any, secondi): a *positional* semiring. The product is the global index of the vector
/// entry (GraphBLAS's GxB_ANY_SECONDI in vxm, where the vector is the first operand of the
/// C API and the second of gridblas' mul): y(v) = the index of some input entry u with a
/// stored a(v,u) (vxm: a(u,v)). The vector's values are never read, so a Pattern vector (no
/// values, nothing to send) is the natural input. Which entry "any" keeps is unspecified.
/// Terminal: every index, so a pull stops at the first input entry it meets.
template <class T>
struct any_secondi {
    using value_type = T;
    static constexpr bool has_terminal = true;
    /// The library passes the input entry's global index as `x` (see semiring_is_positional).
    static constexpr bool positional = true;
    GRIDBLAS_HD static constexpr T zero() { return T(-1); }
    GRIDBLAS_HD static constexpr T add(T a, T b) { return a != T(-1) ? a : b; }
    template <class A>
    GRIDBLAS_HD static constexpr T mul(const A&, T x) {
        return x;
    }
    GRIDBLAS_HD static constexpr bool is_terminal(T v) { return v != T(-1); }
};

/// (min, secondi): the positional semiring of BFS parents. y(v) = the smallest global index
/// u of an input entry with a stored a(v,u) (vxm: a(u,v)) — GxB_MIN_SECONDI. Because local
/// inner ids ascend with global ids in every block of a 2D distribution, a pull that reads a
/// row's entries in stored order meets the row's smallest input index first and stops there;
/// a later rank holding a candidate c only reads the entries below c. Identity: max of T; no
/// terminal value (the early exit comes from the index order, not from the value).
template <class T>
struct min_secondi {
    using value_type = T;
    static constexpr bool has_terminal = false;
    static constexpr bool add_idempotent = true;
    static constexpr bool positional = true;
    GRIDBLAS_HD static constexpr T zero() { return detail::max_value<T>(); }
    GRIDBLAS_HD static constexpr T add(T a, T b) { return b < a ? b : a; }
    template <class A>
    GRIDBLAS_HD static constexpr T mul(const A&, T x) {
        return x;
    }
    GRIDBLAS_HD static constexpr bool is_terminal(T) { return false; }
};

/// Is S one of the built-in semirings? The CUDA backend only has kernels for these.
template <class S>
struct is_builtin_semiring : std::false_type {};
template <class T>
struct is_builtin_semiring<select2nd_min<T>> : std::true_type {};
template <class T>
struct is_builtin_semiring<any_pair<T>> : std::true_type {};
template <class T>
struct is_builtin_semiring<lor_land<T>> : std::true_type {};
template <class T>
struct is_builtin_semiring<min_plus<T>> : std::true_type {};
template <class T>
struct is_builtin_semiring<plus_times<T>> : std::true_type {};
template <class T>
struct is_builtin_semiring<plus_pair<T>> : std::true_type {};
template <class T>
struct is_builtin_semiring<max_times<T>> : std::true_type {};

}  // namespace gridblas
