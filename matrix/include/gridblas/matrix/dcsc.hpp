#pragma once
/// @file dcsc.hpp
/// @brief Doubly compressed sparse column (DCSC) block, after Buluç & Gilbert 2008 (README,
/// References): only the non-empty columns are listed, so storage is O(nnz) however many columns
/// the block spans. This is the default format of the blocks of a 2D-distributed matrix, which are
/// hypersparse (nnz much smaller than the block's dimension) at scale.

#include <cstddef>
#include <span>
#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/matrix/coo.hpp"
#include "gridblas/matrix/detail/compress.hpp"
#include "gridblas/matrix/value_array.hpp"

namespace gridblas {

/// A local sparse matrix in DCSC form with 32-bit local indices.
///
/// Column `jc[k]` holds the entries `cp[k] .. cp[k+1]-1`, with row ids `ir[...]` ascending and
/// values `num[...]`.
template <class T>
class Dcsc {
public:
    using value_type = T;

    Dcsc() = default;
    /// An empty nrows x ncols block.
    Dcsc(lindex_t nrows, lindex_t ncols) : nrows_(nrows), ncols_(ncols), cp_{0} {}

    /// Builds from tuples in any order. Throws IndexOutOfBounds on an index outside the
    /// dimensions and, with DuplicatePolicy::reject, InvalidValue naming a duplicate.
    template <class Combine = KeepLast>
    static Dcsc from_tuples(lindex_t nrows, lindex_t ncols, std::span<const lindex_t> rows,
                            std::span<const lindex_t> cols, const ValueArray<T>& vals,
                            DuplicatePolicy policy = DuplicatePolicy::reject,
                            Combine combine = {}) {
        return from_compressed(
            nrows, ncols,
            detail::compress<T>(nrows, ncols, rows, cols, vals, false, policy, combine));
    }

    /// Takes over compress() output whose major index is the column (taken over).
    static Dcsc from_compressed(lindex_t nrows, lindex_t ncols, detail::Compressed<T>&& c) {
        Dcsc m(nrows, ncols);
        m.jc_ = std::move(c.major_ids);
        m.cp_ = c.ptr.empty() ? std::vector<offset_t>{0} : std::move(c.ptr);
        m.ir_ = std::move(c.minor);
        m.num_ = std::move(c.vals);
        return m;
    }

    /// Builds from a CooMatrix with local indices.
    template <class Combine = KeepLast>
    static Dcsc from_coo(const CooMatrix<T, lindex_t>& coo,
                         DuplicatePolicy policy = DuplicatePolicy::reject, Combine combine = {}) {
        return from_tuples(coo.nrows, coo.ncols, coo.rows, coo.cols, coo.vals, policy, combine);
    }

    /// Builds directly from DCSC arrays (taken over, not copied). The caller guarantees
    /// they are well formed; debug builds may check.
    static Dcsc from_arrays(lindex_t nrows, lindex_t ncols, std::vector<lindex_t> jc,
                            std::vector<offset_t> cp, std::vector<lindex_t> ir, ValueArray<T> num) {
        Dcsc m(nrows, ncols);
        m.jc_ = std::move(jc);
        m.cp_ = std::move(cp);
        m.ir_ = std::move(ir);
        m.num_ = std::move(num);
        return m;
    }

    lindex_t nrows() const { return nrows_; }
    lindex_t ncols() const { return ncols_; }
    std::size_t nnz() const { return ir_.size(); }
    /// Number of non-empty columns.
    std::size_t nzc() const { return jc_.size(); }

    const std::vector<lindex_t>& jc() const { return jc_; }
    const std::vector<offset_t>& cp() const { return cp_; }
    const std::vector<lindex_t>& ir() const { return ir_; }
    const ValueArray<T>& num() const { return num_; }

    /// Bytes held by the index and value arrays (capacity, not size).
    std::size_t memory_bytes() const {
        return jc_.capacity() * sizeof(lindex_t) + cp_.capacity() * sizeof(offset_t) +
               ir_.capacity() * sizeof(lindex_t) + num_.bytes();
    }

    /// The entries as tuples, column-major order.
    CooMatrix<T, lindex_t> to_coo() const {
        CooMatrix<T, lindex_t> coo(nrows_, ncols_);
        coo.reserve(nnz());
        for (std::size_t k = 0; k < jc_.size(); ++k) {
            for (offset_t p = cp_[k]; p < cp_[k + 1]; ++p) coo.push_back(ir_[p], jc_[k], num_[p]);
        }
        return coo;
    }

    bool operator==(const Dcsc&) const = default;

private:
    lindex_t nrows_ = 0;
    lindex_t ncols_ = 0;
    std::vector<lindex_t> jc_;
    std::vector<offset_t> cp_{0};
    std::vector<lindex_t> ir_;
    ValueArray<T> num_;
};

}  // namespace gridblas
