#pragma once
/// @file csr.hpp
/// @brief Compressed sparse row (CSR) block with 32-bit local indices: the fast format when a
/// block is not hypersparse, and the one the pull (bottom-up) kernel walks row by row.

#include <cstddef>
#include <span>
#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/matrix/coo.hpp"
#include "gridblas/matrix/detail/compress.hpp"
#include "gridblas/matrix/detail/huge_pages.hpp"
#include "gridblas/matrix/value_array.hpp"

namespace gridblas {

/// A local sparse matrix in CSR form. Row i holds entries `rowptr[i] .. rowptr[i+1]-1`, with
/// column ids `colind[...]` ascending and values `vals[...]`.
template <class T>
class Csr {
public:
    using value_type = T;

    Csr() = default;
    /// An empty nrows x ncols block.
    Csr(lindex_t nrows, lindex_t ncols) : nrows_(nrows), ncols_(ncols) {
        detail::reserve_huge(rowptr_, std::size_t(nrows) + 1);  // huge pages when long
        rowptr_.assign(std::size_t(nrows) + 1, 0);
    }

    /// Builds from tuples in any order; same checks as Dcsc::from_tuples.
    template <class Combine = KeepLast>
    static Csr from_tuples(lindex_t nrows, lindex_t ncols, std::span<const lindex_t> rows,
                           std::span<const lindex_t> cols, const ValueArray<T>& vals,
                           DuplicatePolicy policy = DuplicatePolicy::reject, Combine combine = {}) {
        return from_compressed(
            nrows, ncols,
            detail::compress<T>(nrows, ncols, rows, cols, vals, true, policy, combine));
    }

    /// Takes over compress() output whose major index is the row.
    static Csr from_compressed(lindex_t nrows, lindex_t ncols, detail::Compressed<T>&& c) {
        Csr m(nrows, ncols);
        // Expand the list of non-empty rows into a full row pointer.
        for (std::size_t k = 0; k < c.major_ids.size(); ++k) {
            m.rowptr_[c.major_ids[k] + 1] = c.ptr[k + 1] - c.ptr[k];
        }
        for (std::size_t i = 0; i < nrows; ++i) m.rowptr_[i + 1] += m.rowptr_[i];
        m.colind_ = std::move(c.minor);
        m.vals_ = std::move(c.vals);
        return m;
    }

    template <class Combine = KeepLast>
    static Csr from_coo(const CooMatrix<T, lindex_t>& coo,
                        DuplicatePolicy policy = DuplicatePolicy::reject, Combine combine = {}) {
        return from_tuples(coo.nrows, coo.ncols, coo.rows, coo.cols, coo.vals, policy, combine);
    }

    /// Builds directly from CSR arrays (taken over, not copied).
    static Csr from_arrays(lindex_t nrows, lindex_t ncols, std::vector<offset_t> rowptr,
                           std::vector<lindex_t> colind, ValueArray<T> vals) {
        Csr m;
        m.nrows_ = nrows;
        m.ncols_ = ncols;
        m.rowptr_ = std::move(rowptr);
        m.colind_ = std::move(colind);
        m.vals_ = std::move(vals);
        return m;
    }

    /// Hands the arrays over to the caller, leaving an empty nrows x ncols block.
    void release(std::vector<offset_t>& rowptr, std::vector<lindex_t>& colind,
                 ValueArray<T>& vals) {
        rowptr = std::move(rowptr_);
        colind = std::move(colind_);
        vals = std::move(vals_);
        rowptr_.assign(std::size_t(nrows_) + 1, 0);
        colind_.clear();
        vals_.clear();
    }

    lindex_t nrows() const { return nrows_; }
    lindex_t ncols() const { return ncols_; }
    std::size_t nnz() const { return colind_.size(); }

    const std::vector<offset_t>& rowptr() const { return rowptr_; }
    const std::vector<lindex_t>& colind() const { return colind_; }
    const ValueArray<T>& vals() const { return vals_; }

    std::size_t memory_bytes() const {
        return rowptr_.capacity() * sizeof(offset_t) + colind_.capacity() * sizeof(lindex_t) +
               vals_.bytes();
    }

    /// The entries as tuples, row-major order.
    CooMatrix<T, lindex_t> to_coo() const {
        CooMatrix<T, lindex_t> coo(nrows_, ncols_);
        coo.reserve(nnz());
        for (lindex_t i = 0; i < nrows_; ++i) {
            for (offset_t p = rowptr_[i]; p < rowptr_[i + 1]; ++p)
                coo.push_back(i, colind_[p], vals_[p]);
        }
        return coo;
    }

    bool operator==(const Csr&) const = default;

private:
    lindex_t nrows_ = 0;
    lindex_t ncols_ = 0;
    std::vector<offset_t> rowptr_{0};
    std::vector<lindex_t> colind_;
    ValueArray<T> vals_;
};

}  // namespace gridblas
