#pragma once
/// @file eigen_interop.hpp
/// @brief Conversions between the local formats and Eigen::SparseMatrix. Include this header
/// only where Eigen 3 is available; the rest of gridblas does not need Eigen.

#include <Eigen/SparseCore>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/matrix/convert.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dcsc.hpp"

namespace gridblas {

namespace detail {
inline lindex_t checked_lindex(Eigen::Index n, const char* what) {
    if (n < 0 || n > Eigen::Index(max_lindex)) {
        throw InvalidValue(std::string(what) + " " + std::to_string(n) +
                           " does not fit a 32-bit local index");
    }
    return lindex_t(n);
}
}  // namespace detail

/// A DCSC block holding the stored entries of `m` (explicit zeros included).
template <class T, int Options, class StorageIndex>
Dcsc<T> dcsc_from_eigen(const Eigen::SparseMatrix<T, Options, StorageIndex>& m) {
    CooMatrix<T, lindex_t> coo(detail::checked_lindex(m.rows(), "rows"),
                               detail::checked_lindex(m.cols(), "cols"));
    coo.reserve(std::size_t(m.nonZeros()));
    for (Eigen::Index k = 0; k < m.outerSize(); ++k) {
        for (typename Eigen::SparseMatrix<T, Options, StorageIndex>::InnerIterator it(m, k); it;
             ++it) {
            coo.push_back(lindex_t(it.row()), lindex_t(it.col()), it.value());
        }
    }
    return Dcsc<T>::from_coo(coo);
}

/// A CSR block holding the stored entries of `m`.
template <class T, int Options, class StorageIndex>
Csr<T> csr_from_eigen(const Eigen::SparseMatrix<T, Options, StorageIndex>& m) {
    return to_csr(dcsc_from_eigen(m));
}

/// An Eigen column-major sparse matrix with the entries of a local block (DCSC or CSR).
/// Pattern entries become T(1).
template <class T, class Block>
Eigen::SparseMatrix<T> to_eigen(const Block& block) {
    auto coo = block.to_coo();
    std::vector<Eigen::Triplet<T>> trips;
    trips.reserve(coo.nnz());
    for (std::size_t k = 0; k < coo.nnz(); ++k) {
        if constexpr (std::is_same_v<typename Block::value_type, Pattern>) {
            trips.emplace_back(Eigen::Index(coo.rows[k]), Eigen::Index(coo.cols[k]), T(1));
        } else {
            trips.emplace_back(Eigen::Index(coo.rows[k]), Eigen::Index(coo.cols[k]),
                               T(coo.vals[k]));
        }
    }
    Eigen::SparseMatrix<T> m(Eigen::Index(block.nrows()), Eigen::Index(block.ncols()));
    m.setFromTriplets(trips.begin(), trips.end());
    return m;
}

}  // namespace gridblas
