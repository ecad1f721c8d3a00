#pragma once
// Serial reference of mxm: the plain triple loop of T = A ⊕.⊗ B over map matrices; the
// output stage C⟨M⟩ = accum(C, T) is matrix_ops_reference.hpp's.

#include <map>

#include "gridblas/ops/descriptor.hpp"
#include "map_containers.hpp"
#include "matrix_ops_reference.hpp"

namespace gridblas::ref {

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

}  // namespace gridblas::ref
