#pragma once
// The naive sparse matrix–vector product every test compares with: one loop over the stored
// entries (i, j, a) of a matrix, in the order given, that adds S::mul(a, x(j)) into y(i) for
// each entry whose x(j) is present and whose row i the mask allows. The CPU kernel tests call
// it on a local block's tuples (32-bit ids), the distributed tests through ref::vxm / ref::mxv
// on the std::map objects of map_containers.hpp (64-bit ids). gridblas' convention for the
// product is S::mul(matrix entry, vector entry), so a semiring whose product is not
// commutative checks the operand order too.

#include <cstddef>
#include <map>
#include <optional>
#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/semirings/semiring.hpp"
#include "map_containers.hpp"

namespace gridblas::ref {

/// One stored entry A(row, col) = value.
template <class I, class A>
struct Entry {
    I row;
    I col;
    A value;
};

/// y(i) = ⊕ S::mul(A(i, j), x(j)) over the entries (i, j) of `entries`, folded in the order
/// given, for which `x_at(j)` (a std::optional of S::value_type) holds a value and
/// `row_allowed(i)` is true. Rows with no such entry are absent from y.
template <class S, class I, class A, class XAt, class RowAllowed>
std::map<I, typename S::value_type> naive_spmv(const std::vector<Entry<I, A>>& entries, XAt x_at,
                                               RowAllowed row_allowed) {
    using Y = typename S::value_type;
    std::map<I, Y> y;
    for (const Entry<I, A>& e : entries) {
        if (!row_allowed(e.row)) continue;
        const std::optional<Y> x = x_at(e.col);
        if (!x) continue;
        const Y p = S::mul(e.value, *x);
        const auto it = y.find(e.row);
        if (it == y.end()) {
            y.emplace(e.row, p);
        } else {
            it->second = S::add(it->second, p);
        }
    }
    return y;
}

/// t = uᵀ ⊕.⊗ A over a semiring S (t(j) = ⊕_k S::mul(A(k, j), u(k)), or S::mul(A(k, j), k)
/// for a positional S such as min_secondi), with A transposed first when `transpose`. Only
/// columns meeting some entry of u appear.
template <class S, class U, class T>
Vec<typename S::value_type> vxm(const Vec<U>& u, const Mat<T>& a, bool transpose = false) {
    using R = typename S::value_type;
    // Output index j is the entry's row in the product's view: the column of A, or its row
    // when A is transposed.
    std::vector<Entry<gindex_t, T>> entries;
    entries.reserve(a.size());
    for (const auto& [ij, x] : a) {
        const auto [i, j] = ij;
        entries.push_back(transpose ? Entry<gindex_t, T>{i, j, x} : Entry<gindex_t, T>{j, i, x});
    }
    const auto x_at = [&](gindex_t k) -> std::optional<R> {
        const auto it = u.find(k);
        if (it == u.end()) return std::nullopt;
        // Positional semirings (any_secondi, min_secondi) multiply by the input's index.
        if constexpr (semiring_is_positional<S>()) {
            return R(k);
        } else {
            return R(it->second);
        }
    };
    return naive_spmv<S>(entries, x_at, [](gindex_t) { return true; });
}

/// t = A ⊕.⊗ u over a semiring S (t(i) = ⊕_k S::mul(A(i, k), u(k))), with A transposed first
/// when `transpose`.
template <class S, class U, class T>
Vec<typename S::value_type> mxv(const Mat<T>& a, const Vec<U>& u, bool transpose = false) {
    return vxm<S>(u, a, !transpose);
}

}  // namespace gridblas::ref
