#pragma once
// Naive serial reference of the matrix operations of the GraphBLAS C API 2.1 (element-wise,
// apply, select, transpose, kronecker, extract, assign and SuiteSparse's subassign and
// eWiseUnion), on the std::map matrices of map_containers.hpp. Each function follows the
// specification's steps literally (compute T, then C⟨M⟩ = accum(C, T) per §2.5), with no
// attempt at speed, so that the distributed tests compare against an independent oracle.

#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "map_containers.hpp"
#include "ops_reference.hpp"

namespace gridblas::ref {

/// Aᵀ.
template <class T>
Mat<T> transpose(const Mat<T>& a) {
    Mat<T> t;
    for (const auto& [ij, x] : a) t[{ij.second, ij.first}] = x;
    return t;
}

/// A, or Aᵀ when `tr`.
template <class T>
Mat<T> maybe_transpose(const Mat<T>& a, bool tr) {
    return tr ? transpose(a) : a;
}

/// T = A ∪ B, op(A(i,j), B(i,j)) where both exist.
template <class A, class B, class Op>
auto ewise_add(const Mat<A>& a, const Mat<B>& b, Op op) {
    using T = std::decay_t<decltype(op(std::declval<A>(), std::declval<B>()))>;
    Mat<T> t;
    for (const auto& [ij, x] : a) t[ij] = T(x);
    for (const auto& [ij, y] : b) {
        const auto it = a.find(ij);
        t[ij] = it == a.end() ? T(y) : T(op(it->second, y));
    }
    return t;
}

/// T = A ∩ B, op(A(i,j), B(i,j)).
template <class A, class B, class Op>
auto ewise_mult(const Mat<A>& a, const Mat<B>& b, Op op) {
    using T = std::decay_t<decltype(op(std::declval<A>(), std::declval<B>()))>;
    Mat<T> t;
    for (const auto& [ij, x] : a) {
        const auto it = b.find(ij);
        if (it != b.end()) t[ij] = T(op(x, it->second));
    }
    return t;
}

/// T over A ∪ B: op(A(i,j) or alpha, B(i,j) or beta) (GxB_eWiseUnion).
template <class A, class B, class Op>
auto ewise_union(const Mat<A>& a, A alpha, const Mat<B>& b, B beta, Op op) {
    using T = std::decay_t<decltype(op(std::declval<A>(), std::declval<B>()))>;
    Mat<T> t;
    for (const auto& [ij, x] : a) {
        const auto it = b.find(ij);
        t[ij] = T(op(x, it == b.end() ? beta : it->second));
    }
    for (const auto& [ij, y] : b) {
        if (a.find(ij) == a.end()) t[ij] = T(op(alpha, y));
    }
    return t;
}

/// The vector form of ewise_union.
template <class U, class V, class Op>
auto ewise_union(const Vec<U>& u, U alpha, const Vec<V>& v, V beta, Op op) {
    using T = std::decay_t<decltype(op(std::declval<U>(), std::declval<V>()))>;
    Vec<T> t;
    for (const auto& [i, x] : u) {
        const auto it = v.find(i);
        t[i] = T(op(x, it == v.end() ? beta : it->second));
    }
    for (const auto& [i, y] : v) {
        if (u.find(i) == u.end()) t[i] = T(op(alpha, y));
    }
    return t;
}

/// T(i, j) = f(i, j, A(i, j)).
template <class T, class F>
auto apply_index(const Mat<T>& a, F f) {
    Mat<std::decay_t<decltype(f(gindex_t{}, gindex_t{}, std::declval<T>()))>> t;
    for (const auto& [ij, x] : a) t[ij] = f(ij.first, ij.second, x);
    return t;
}

/// T = kron(A, B): T(ia * mb + ib, ja * nb + jb) = op(A(ia, ja), B(ib, jb)), B being mb x nb.
template <class A, class B, class Op>
auto kronecker(const Mat<A>& a, const Mat<B>& b, gindex_t mb, gindex_t nb, Op op) {
    using T = std::decay_t<decltype(op(std::declval<A>(), std::declval<B>()))>;
    Mat<T> t;
    for (const auto& [ija, x] : a) {
        for (const auto& [ijb, y] : b) {
            t[{ija.first * mb + ijb.first, ija.second * nb + ijb.second}] = T(op(x, y));
        }
    }
    return t;
}

/// T = A(I, J): T(p, q) = A(I[p], J[q]) where that entry exists.
template <class T>
Mat<T> extract(const Mat<T>& a, std::span<const gindex_t> rows, std::span<const gindex_t> cols) {
    Mat<T> t;
    for (std::size_t p = 0; p < rows.size(); ++p) {
        for (std::size_t q = 0; q < cols.size(); ++q) {
            const auto it = a.find({rows[p], cols[q]});
            if (it != a.end()) t[{gindex_t(p), gindex_t(q)}] = it->second;
        }
    }
    return t;
}

/// t = u(I).
template <class T>
Vec<T> extract(const Vec<T>& u, std::span<const gindex_t> idx) {
    Vec<T> t;
    for (std::size_t p = 0; p < idx.size(); ++p) {
        const auto it = u.find(idx[p]);
        if (it != u.end()) t[gindex_t(p)] = it->second;
    }
    return t;
}

/// GrB_assign: C⟨M⟩(I, J) = accum(C(I, J), A), the mask C's size (§4.3.7.1). Z is C with its
/// (I, J) region replaced by A (accumulated into C there when accum is given); then
/// C⟨M, replace⟩ = Z with no accumulator.
template <class W, class MaskT, class Accum, class A>
Mat<W> assign(const Mat<W>& c, const MaskT& mask, Accum accum, const Mat<A>& a,
              std::span<const gindex_t> rows, std::span<const gindex_t> cols, const Descriptor& d) {
    Mat<W> z = c;
    for (std::size_t p = 0; p < rows.size(); ++p) {
        for (std::size_t q = 0; q < cols.size(); ++q) {
            const std::pair<gindex_t, gindex_t> ij{rows[p], cols[q]};
            const auto ia = a.find({gindex_t(p), gindex_t(q)});
            const auto ic = c.find(ij);
            if constexpr (std::is_same_v<Accum, NoAccum>) {
                if (ia != a.end()) {
                    z[ij] = detail::cast<W>(ia->second);
                } else {
                    z.erase(ij);
                }
            } else {
                if (ia != a.end() && ic != c.end()) {
                    z[ij] = detail::cast<W>(accum(ic->second, detail::cast<W>(ia->second)));
                } else if (ia != a.end()) {
                    z[ij] = detail::cast<W>(ia->second);
                }
            }
        }
    }
    return output_stage(c, z, mask, no_accum, d);
}

/// GxB_subassign: C(I, J)⟨M⟩ = accum(C(I, J), A), the mask the size of A: the output stage
/// runs on the submatrix S = C(I, J) alone, which then replaces C's (I, J) region.
template <class W, class MaskT, class Accum, class A>
Mat<W> subassign(const Mat<W>& c, const MaskT& mask, Accum accum, const Mat<A>& a,
                 std::span<const gindex_t> rows, std::span<const gindex_t> cols,
                 const Descriptor& d) {
    const Mat<W> s = extract(c, rows, cols);
    const Mat<W> s_out = output_stage(s, a, mask, accum, d);
    Mat<W> out = c;
    for (std::size_t p = 0; p < rows.size(); ++p) {
        for (std::size_t q = 0; q < cols.size(); ++q) out.erase({rows[p], cols[q]});
    }
    for (const auto& [pq, x] : s_out)
        out[{rows[std::size_t(pq.first)], cols[std::size_t(pq.second)]}] = x;
    return out;
}

/// GrB_Vector_assign: w⟨m⟩(I) = accum(w(I), u), the mask w's size.
template <class W, class MaskT, class Accum, class U>
Vec<W> assign(const Vec<W>& w, const MaskT& mask, Accum accum, const Vec<U>& u,
              std::span<const gindex_t> idx, const Descriptor& d) {
    Vec<W> z = w;
    for (std::size_t p = 0; p < idx.size(); ++p) {
        const auto iu = u.find(gindex_t(p));
        const auto iw = w.find(idx[p]);
        if constexpr (std::is_same_v<Accum, NoAccum>) {
            if (iu != u.end()) {
                z[idx[p]] = W(iu->second);
            } else {
                z.erase(idx[p]);
            }
        } else {
            if (iu != u.end() && iw != w.end()) {
                z[idx[p]] = W(accum(iw->second, W(iu->second)));
            } else if (iu != u.end()) {
                z[idx[p]] = W(iu->second);
            }
        }
    }
    return output_stage(w, z, mask, no_accum, d);
}

}  // namespace gridblas::ref
