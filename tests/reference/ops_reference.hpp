#pragma once
// Naive serial reference of the GraphBLAS operations, for the distributed tests to compare
// against (the role SuiteSparse's GB_spec_*.m mimics play in its test suite). Vectors are
// std::map<index, value>, matrices std::map<(row, col), value>; every function follows the
// GraphBLAS C API 2.1 text step by step (§2.5: compute t, z = accum(w, t), then mask and
// replace), with no attempt at speed. Serial and MPI-free: every rank can run it on data it
// gathered and compare. The products (vxm, mxv) are in spmv_reference.hpp.

#include <cstddef>
#include <map>
#include <type_traits>
#include <utility>

#include "gridblas/core/types.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "map_containers.hpp"

namespace gridblas::ref {

namespace detail {

/// Is key k (an index, or a (row, column) pair) in the effective mask m~ (GraphBLAS C API
/// 2.1 §3.5.3)? `mask` is null for "no mask".
template <class K, class M>
bool in_mask(const std::map<K, M>* mask, const std::type_identity_t<K>& k, const Descriptor& d) {
    bool in = true;  // no mask: every key
    if (mask) {
        const auto it = mask->find(k);
        if (it == mask->end()) {
            in = false;
        } else if constexpr (std::is_same_v<M, Pattern>) {
            in = true;
        } else {
            in = d.mask_structural || static_cast<bool>(it->second);
        }
    }
    return d.mask_complement ? !in : in;
}

/// x as the output's type; every value becomes the one Pattern value.
template <class W, class T>
W cast(const T& x) {
    if constexpr (std::is_same_v<W, Pattern>) {
        return Pattern{};
    } else {
        return W(x);
    }
}

/// w⟨mask⟩ = accum(w, t) for vectors and matrices alike (maps keyed by index or by
/// (row, column)).
template <class K, class W, class M, class Accum, class T>
std::map<K, W> output_stage(const std::map<K, W>& w, const std::map<K, T>& t,
                            const std::map<K, M>* mask, Accum accum, const Descriptor& d) {
    // z = accum(w, t): the union of w and t, accum where both exist; or z = t.
    std::map<K, W> z;
    if constexpr (std::is_same_v<Accum, NoAccum>) {
        for (const auto& [k, x] : t) z[k] = cast<W>(x);
    } else {
        z = w;
        for (const auto& [k, x] : t) {
            const auto it = z.find(k);
            if (it == z.end()) {
                z[k] = cast<W>(x);
            } else {
                it->second = cast<W>(accum(it->second, cast<W>(x)));
            }
        }
    }
    // w = {w(k) : k ∉ m~} (unless replace) ∪ {z(k) : k ∈ m~}.
    std::map<K, W> out;
    if (!d.replace) {
        for (const auto& [k, x] : w) {
            if (!in_mask(mask, k, d)) out[k] = x;
        }
    }
    for (const auto& [k, x] : z) {
        if (in_mask(mask, k, d)) out[k] = x;
    }
    return out;
}

}  // namespace detail

/// w⟨no mask⟩ = accum(w, t) per the descriptor (complement and replace still apply); w is a
/// vector or a matrix.
template <class K, class W, class Accum, class T>
std::map<K, W> output_stage(const std::map<K, W>& w, const std::map<K, T>& t, NoMask, Accum accum,
                            const Descriptor& d) {
    return detail::output_stage(w, t, static_cast<const std::map<K, int>*>(nullptr), accum, d);
}

/// w⟨mask⟩ = accum(w, t) per the descriptor; w is a vector or a matrix.
template <class K, class W, class M, class Accum, class T>
std::map<K, W> output_stage(const std::map<K, W>& w, const std::map<K, T>& t,
                            const std::map<K, M>& mask, Accum accum, const Descriptor& d) {
    return detail::output_stage(w, t, &mask, accum, d);
}

/// t = u ∪ v with op(u(i), v(i)) where both exist.
template <class U, class V, class Op>
auto ewise_add(const Vec<U>& u, const Vec<V>& v, Op op) {
    using T = std::decay_t<decltype(op(std::declval<U>(), std::declval<V>()))>;
    Vec<T> t;
    for (const auto& [i, x] : u) t[i] = T(x);
    for (const auto& [i, y] : v) {
        const auto it = u.find(i);
        t[i] = it == u.end() ? T(y) : T(op(it->second, y));
    }
    return t;
}

/// t = u ∩ v with op(u(i), v(i)).
template <class U, class V, class Op>
auto ewise_mult(const Vec<U>& u, const Vec<V>& v, Op op) {
    using T = std::decay_t<decltype(op(std::declval<U>(), std::declval<V>()))>;
    Vec<T> t;
    for (const auto& [i, x] : u) {
        const auto it = v.find(i);
        if (it != v.end()) t[i] = T(op(x, it->second));
    }
    return t;
}

/// t(i) = f(u(i)).
template <class U, class F>
auto apply(const Vec<U>& u, F f) {
    Vec<std::decay_t<decltype(f(std::declval<U>()))>> t;
    for (const auto& [i, x] : u) t[i] = f(x);
    return t;
}

/// t(i) = f(i, u(i)).
template <class U, class F>
auto apply_index(const Vec<U>& u, F f) {
    Vec<std::decay_t<decltype(f(gindex_t{}, std::declval<U>()))>> t;
    for (const auto& [i, x] : u) t[i] = f(i, x);
    return t;
}

/// t = {(i, u(i)) : pred(i, u(i))}.
template <class U, class Pred>
Vec<U> select(const Vec<U>& u, Pred pred) {
    Vec<U> t;
    for (const auto& [i, x] : u) {
        if (pred(i, x)) t[i] = x;
    }
    return t;
}

/// t = a vector of length n with `value` at every index.
template <class S>
Vec<S> full(gindex_t n, const S& value) {
    Vec<S> t;
    for (gindex_t i = 0; i < n; ++i) t[i] = value;
    return t;
}

/// identity ⊕ x0 ⊕ x1 ⊕ ... over the entries in index order.
template <class T, class Add, class S>
S reduce(const Vec<T>& u, Add add, S identity) {
    for (const auto& [i, x] : u) identity = add(identity, S(x));
    return identity;
}

/// identity ⊕ every entry of a matrix, in (row, column) order.
template <class T, class Add, class S>
S reduce(const Mat<T>& a, Add add, S identity) {
    for (const auto& [ij, x] : a) identity = add(identity, S(x));
    return identity;
}

/// t(i) = ⊕_j A(i, j) over the non-empty rows (columns when `by_col`), values cast to S.
template <class S, class T, class Add>
Vec<S> reduce_rows(const Mat<T>& a, Add add, bool by_col = false) {
    Vec<S> t;
    for (const auto& [ij, x] : a) {
        const gindex_t i = by_col ? ij.second : ij.first;
        const auto it = t.find(i);
        if (it == t.end()) {
            t[i] = S(x);
        } else {
            it->second = add(it->second, S(x));
        }
    }
    return t;
}

/// C(i, j) = f(A(i, j)).
template <class T, class F>
auto apply(const Mat<T>& a, F f) {
    Mat<std::decay_t<decltype(f(std::declval<T>()))>> c;
    for (const auto& [ij, x] : a) c[ij] = f(x);
    return c;
}

/// C = {(i, j, A(i, j)) : pred(i, j, A(i, j))}.
template <class T, class Pred>
Mat<T> select(const Mat<T>& a, Pred pred) {
    Mat<T> c;
    for (const auto& [ij, x] : a) {
        if (pred(ij.first, ij.second, x)) c[ij] = x;
    }
    return c;
}

}  // namespace gridblas::ref
