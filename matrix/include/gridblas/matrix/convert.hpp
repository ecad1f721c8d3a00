#pragma once
/// @file convert.hpp
/// @brief Conversions between the local formats (DCSC <-> CSR) and transposes. Each runs in
/// O(nnz log nnz) at worst and O(nnz + n) when the block is not hypersparse.

#include <cstddef>
#include <vector>

#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dcsc.hpp"

namespace gridblas {

/// The same matrix in CSR form.
template <class T>
Csr<T> to_csr(const Dcsc<T>& a) {
    // Counting sort by row; columns are visited in ascending order, so column ids come out
    // ascending within each row.
    std::vector<offset_t> rowptr(std::size_t(a.nrows()) + 1, 0);
    for (lindex_t r : a.ir()) ++rowptr[r + 1];
    for (std::size_t i = 0; i < a.nrows(); ++i) rowptr[i + 1] += rowptr[i];
    std::vector<offset_t> next(rowptr.begin(), rowptr.end() - 1);
    std::vector<lindex_t> colind(a.nnz());
    ValueArray<T> vals(a.nnz());
    for (std::size_t k = 0; k < a.nzc(); ++k) {
        for (offset_t p = a.cp()[k]; p < a.cp()[k + 1]; ++p) {
            const offset_t q = next[a.ir()[p]]++;
            colind[q] = a.jc()[k];
            if constexpr (!std::is_same_v<T, Pattern>) vals[q] = a.num()[p];
        }
    }
    return Csr<T>::from_arrays(a.nrows(), a.ncols(), std::move(rowptr), std::move(colind),
                               std::move(vals));
}

/// The same matrix in DCSC form.
template <class T>
Dcsc<T> to_dcsc(const Csr<T>& a) {
    auto coo = a.to_coo();
    return Dcsc<T>::from_coo(coo);
}

/// The transpose, in DCSC form.
template <class T>
Dcsc<T> transpose(const Dcsc<T>& a) {
    auto coo = a.to_coo();
    return Dcsc<T>::from_tuples(a.ncols(), a.nrows(), coo.cols, coo.rows, coo.vals);
}

/// The transpose, in CSR form.
template <class T>
Csr<T> transpose(const Csr<T>& a) {
    auto coo = a.to_coo();
    return Csr<T>::from_tuples(a.ncols(), a.nrows(), coo.cols, coo.rows, coo.vals);
}

}  // namespace gridblas
