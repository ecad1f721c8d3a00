#pragma once
/// @file semiring.hpp
/// @brief The Semiring concept (host code only) and helpers that work for any semiring.

#include <concepts>

#include "gridblas/semirings/builtin.hpp"

namespace gridblas {

namespace detail {
template <class S>
concept has_value_type = requires {
    typename S::value_type;
};
/// S::value_type, or void when S has none (so that Semiring<int> is false, not an error).
template <class S>
struct value_type_or_void {
    using type = void;
};
template <has_value_type S>
struct value_type_or_void<S> {
    using type = typename S::value_type;
};
}  // namespace detail

/// A semiring over `S::value_type` whose product takes a matrix entry of type `A`.
/// `has_terminal` / `is_terminal` are optional: see semiring_is_terminal().
template <class S, class A = typename detail::value_type_or_void<S>::type>
concept Semiring = detail::has_value_type<S> && requires(typename S::value_type v, A a) {
    { S::zero() } -> std::convertible_to<typename S::value_type>;
    { S::add(v, v) } -> std::convertible_to<typename S::value_type>;
    { S::mul(a, v) } -> std::convertible_to<typename S::value_type>;
};

/// Does the add monoid of S have a terminal value? False for semirings that do not say.
template <class S>
constexpr bool semiring_has_terminal() {
    if constexpr (requires { S::has_terminal; }) {
        return S::has_terminal;
    } else {
        return false;
    }
}

/// True when v absorbs every further add, so a reduction may stop early.
template <class S>
constexpr bool semiring_is_terminal(typename S::value_type v) {
    if constexpr (semiring_has_terminal<S>()) {
        return S::is_terminal(v);
    } else {
        return false;
    }
}

/// Is S's add a semilattice join (min, max, logical or): idempotent, commutative and
/// associative, so that adding a value twice, or in any order, gives the same result? A
/// parallel push may then store its updates without atomic read-modify-writes and add back
/// afterwards the few that another thread overwrote (kernels/cpu/spmspv_update.hpp). False
/// for semirings that do not say (`static constexpr bool add_idempotent`).
template <class S>
constexpr bool semiring_add_is_idempotent() {
    if constexpr (requires { S::add_idempotent; }) {
        return S::add_idempotent;
    } else {
        return false;
    }
}

/// Is S positional: does its product take the global index of the vector entry rather than
/// its value (any_secondi, min_secondi)? False for semirings that do not say.
template <class S>
constexpr bool semiring_is_positional() {
    if constexpr (requires { S::positional; }) {
        return S::positional;
    } else {
        return false;
    }
}

/// Does a pull that reads a row's entries in ascending input order get the row's final
/// value from the first input entry it meets? True for positional semirings whose add is
/// "any" (every value terminal) or "min" (the first index met is the smallest).
template <class S>
constexpr bool semiring_first_hit_is_final() {
    return semiring_is_positional<S>();
}

/// Builds a user-defined semiring from lambdas-free static functions is simple; this alias
/// documents the expected shape for users:
/// @code
/// struct my_semiring {
///     using value_type = double;
///     static double zero() { return 0; }
///     static double add(double a, double b) { return a + b; }
///     static double mul(double a, double x) { return a * x + 1; }
/// };
/// @endcode

}  // namespace gridblas
