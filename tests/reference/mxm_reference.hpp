#pragma once
// Serial references for the matrix operations: the plain triple loop of C = A ⊕.⊗ B over
// maps, and the matrix output stage C⟨M⟩ = accum(C, T) written straight from the definition
// of the GraphBLAS C API 2.1 (§2.5), with no shortcut the library takes.

#include <type_traits>

#include "gridblas/ops/descriptor.hpp"
#include "map_containers.hpp"

namespace gridblas::ref {

/// The transpose of a map matrix.
template <class T>
Mat<T> transposed(const Mat<T>& a) {
    Mat<T> t;
    for (const auto& [ij, x] : a) t[{ij.second, ij.first}] = x;
    return t;
}

/// T = A ⊕.⊗ B: T(i,j) = ⊕ over k of S::mul(A(i,k), B(k,j)), present when some k meets.
template <class S, class TA, class TB>
Mat<typename S::value_type> mxm(const Mat<TA>& a, const Mat<TB>& b) {
    using Z = typename S::value_type;
    std::map<gindex_t, std::map<gindex_t, TB>> b_rows;
    for (const auto& [kj, x] : b) b_rows[kj.first][kj.second] = x;
    Mat<Z> t;
    for (const auto& [ik, x] : a) {
        const auto row = b_rows.find(ik.second);
        if (row == b_rows.end()) continue;
        for (const auto& [j, y] : row->second) {
            const Z p = S::mul(x, Z(y));
            const auto it = t.find({ik.first, j});
            if (it == t.end()) {
                t[{ik.first, j}] = p;
            } else {
                it->second = S::add(it->second, p);
            }
        }
    }
    return t;
}

/// Is (i, j) in the effective mask? `mask` null means no mask.
template <class M>
bool in_matrix_mask(const Mat<M>* mask, gindex_t i, gindex_t j, const Descriptor& d) {
    bool in = true;
    if (mask) {
        const auto it = mask->find({i, j});
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

/// C⟨mask⟩ = accum(C, T) per the descriptor; `mask` null means no mask.
template <class W, class M, class Accum, class T>
Mat<W> matrix_output_stage(const Mat<W>& c, const Mat<T>& t, const Mat<M>* mask, Accum accum,
                           const Descriptor& d) {
    Mat<W> z;
    if constexpr (std::is_same_v<Accum, NoAccum>) {
        for (const auto& [ij, x] : t) z[ij] = W(x);
    } else {
        z = c;
        for (const auto& [ij, x] : t) {
            const auto it = z.find(ij);
            if (it == z.end()) {
                z[ij] = W(x);
            } else {
                it->second = W(accum(it->second, W(x)));
            }
        }
    }
    Mat<W> out;
    if (!d.replace) {
        for (const auto& [ij, x] : c) {
            if (!in_matrix_mask(mask, ij.first, ij.second, d)) out[ij] = x;
        }
    }
    for (const auto& [ij, x] : z) {
        if (in_matrix_mask(mask, ij.first, ij.second, d)) out[ij] = x;
    }
    return out;
}

}  // namespace gridblas::ref
