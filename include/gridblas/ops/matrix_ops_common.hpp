#pragma once
/// @file matrix_ops_common.hpp
/// @brief Private helpers of the matrix operations of the GraphBLAS C API 2.1 (§4.3: ewise,
/// apply, select, transpose, kronecker, extract, assign): the argument checks every rank
/// makes alike, the transposed operand, a local CSR block built row by row, index lists,
/// and the routing of global tuples to the block of their owner.
///
/// Everything here lives in gridblas::detail; the public operations are in matrix_*.hpp and
/// kronecker.hpp.

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"

namespace gridblas::detail {

/// Checks the output C and the mask of a matrix operation: C initialised, not relabelled, on
/// a cpu grid; the mask (when given) initialised, on C's grid, of C's shape, not relabelled.
/// Uses only facts every rank shares, so every rank throws alike. No communication.
template <class W, class Mask>
void check_matrix_output(const char* op, const DistMatrix<W>& c, const Mask& mask) {
    check_initialised(op, "C", c);
    check_not_relabelled(op, "C", c);
    check_cpu_grid(op, *c.grid());
    check_matrix_mask(op, c, mask);
    if constexpr (!std::is_same_v<Mask, NoMask>) check_not_relabelled(op, "mask", mask);
}

/// Checks an input `x` read as `x` or, when `transpose`, as xᵀ: initialised, on C's grid, not
/// relabelled, and (as read) `nrows` x `ncols`. No communication.
template <class W, class T>
void check_matrix_input(const char* op, const DistMatrix<W>& c, const char* name,
                        const DistMatrix<T>& x, bool transpose, gindex_t nrows, gindex_t ncols) {
    if (transpose) {
        check_matrix_operand(op, c, name, x, ncols, nrows, " (it is read transposed)");
    } else {
        check_matrix_operand(op, c, name, x, nrows, ncols);
    }
    check_not_relabelled(op, name, x);
}

/// An input as the operation reads it: the matrix itself, or its transpose materialised on
/// the same grid (collective when `transpose`).
template <class T>
class OperandView {
public:
    OperandView(const DistMatrix<T>& a, bool transpose) : p_(&a) {
        if (transpose) {
            own_.emplace(a.transpose());
            p_ = &*own_;
        }
    }
    OperandView(const OperandView&) = delete;
    OperandView& operator=(const OperandView&) = delete;
    const DistMatrix<T>& operator*() const { return *p_; }
    const DistMatrix<T>* operator->() const { return p_; }

private:
    std::optional<DistMatrix<T>> own_;
    const DistMatrix<T>* p_;
};

/// Rows and columns of this rank's block of a matrix shaped like `m` (padded block sizes).
template <class T>
lindex_t block_rows(const DistMatrix<T>& m) {
    return m.row_dist().block_rows();
}
template <class T>
lindex_t block_cols(const DistMatrix<T>& m) {
    return m.col_dist().block_cols();
}

/// Global row / column id of a local row / column of this rank's block of `m`.
template <class T>
gindex_t global_row_of(const DistMatrix<T>& m, lindex_t r) {
    return m.row_dist().global_row(m.grid()->my_row(), r);
}
template <class T>
gindex_t global_col_of(const DistMatrix<T>& m, lindex_t k) {
    return m.col_dist().global_col(m.grid()->my_col(), k);
}

/// Builds a local CSR block row by row: start_row(r) with r ascending (rows not started stay
/// empty), then push(col, value) with columns ascending within the row.
template <class T>
class CsrRowBuilder {
public:
    CsrRowBuilder(lindex_t nrows, lindex_t ncols)
        : nrows_(nrows), ncols_(ncols), rowptr_(std::size_t(nrows) + 1, 0) {}
    void start_row(lindex_t r) { cur_ = r; }
    void push(lindex_t col, const T& v) {
        colind_.push_back(col);
        vals_.push_back(v);
        ++rowptr_[std::size_t(cur_) + 1];
    }
    Csr<T> finish() {
        for (std::size_t r = 0; r < std::size_t(nrows_); ++r) rowptr_[r + 1] += rowptr_[r];
        return Csr<T>::from_arrays(nrows_, ncols_, std::move(rowptr_), std::move(colind_),
                                   std::move(vals_));
    }

private:
    lindex_t nrows_;
    lindex_t ncols_;
    lindex_t cur_ = 0;
    std::vector<offset_t> rowptr_;
    std::vector<lindex_t> colind_;
    ValueArray<T> vals_;
};

/// T(r, k) = *f(i, j, x) for every entry x = A(i, j) of this rank's block of `a` where the
/// optional f returns is set (i, j global ids): the block of an entry-wise operation, in
/// a's local ids. No communication.
template <class R, class T, class F>
Csr<R> map_local_block(const DistMatrix<T>& a, F&& f) {
    CsrRowBuilder<R> out(block_rows(a), block_cols(a));
    const int gi = a.grid()->my_row();
    const int gj = a.grid()->my_col();
    lindex_t last = lindex_t(-1);
    gindex_t grow = 0;
    a.by_row().for_each([&](lindex_t r, lindex_t k, const T& x) {
        if (r != last) {
            last = r;
            grow = a.row_dist().global_row(gi, r);
            out.start_row(r);
        }
        std::optional<R> y = f(grow, a.col_dist().global_col(gj, k), x);
        if (y) out.push(k, *y);
    });
    return out.finish();
}

/// Sends global tuples of an nrows x ncols matrix on `grid` to their owners and returns the
/// block this rank receives, in CSR with local ids (the tuples must name distinct entries).
/// Collective.
template <class T>
Csr<T> route_to_block(const std::shared_ptr<ProcessGrid>& grid, gindex_t nrows, gindex_t ncols,
                      std::span<const gindex_t> rows, std::span<const gindex_t> cols,
                      const ValueArray<T>& vals) {
    const BuildOptions opts{DuplicatePolicy::reject, LocalFormat::csr};
    const DistMatrix<T> shape = DistMatrix<T>::shell(grid, nrows, ncols, opts);
    typename DistMatrix<T>::LocalTuples acc;
    shape.route_append(rows, cols, vals, acc);
    const lindex_t br = shape.row_dist().block_rows();
    const lindex_t bc = shape.col_dist().block_cols();
    return Csr<T>::from_compressed(br, bc,
                                   detail::compress_chunks<T>(br, bc, std::move(acc.chunks)));
}

/// Throws IndexOutOfBounds unless every index of `idx` lies in [0, bound). Every rank passes
/// the same list, so every rank throws alike.
inline void check_index_list(const char* op, const char* name, std::span<const gindex_t> idx,
                             gindex_t bound) {
    for (std::size_t k = 0; k < idx.size(); ++k) {
        if (idx[k] < 0 || idx[k] >= bound) {
            throw IndexOutOfBounds(std::string(op) + ": " + name + "[" + std::to_string(k) +
                                   "] = " + std::to_string(idx[k]) + " lies outside [0, " +
                                   std::to_string(bound) + ")");
        }
    }
}

/// Throws InvalidValue when an index repeats in `idx` (assign writes each target once).
inline void check_index_list_unique(const char* op, const char* name,
                                    std::span<const gindex_t> idx) {
    std::vector<gindex_t> s(idx.begin(), idx.end());
    std::sort(s.begin(), s.end());
    const auto d = std::adjacent_find(s.begin(), s.end());
    if (d != s.end()) {
        throw InvalidValue(std::string(op) + ": index " + std::to_string(*d) +
                           " appears twice in " + name + " (assign needs distinct indices)");
    }
}

/// The positions p of an index list where idx[p] == g, for every g: the inverse of a list
/// whose entries may repeat.
class IndexPositions {
public:
    explicit IndexPositions(std::span<const gindex_t> idx) {
        sorted_.reserve(idx.size());
        for (std::size_t p = 0; p < idx.size(); ++p) sorted_.emplace_back(idx[p], gindex_t(p));
        std::sort(sorted_.begin(), sorted_.end());
    }
    /// Calls f(p) for every position p with idx[p] == g, p ascending.
    template <class F>
    void for_each(gindex_t g, F&& f) const {
        auto it =
            std::lower_bound(sorted_.begin(), sorted_.end(), std::pair<gindex_t, gindex_t>(g, 0));
        for (; it != sorted_.end() && it->first == g; ++it) f(it->second);
    }
    bool contains(gindex_t g) const {
        auto it =
            std::lower_bound(sorted_.begin(), sorted_.end(), std::pair<gindex_t, gindex_t>(g, 0));
        return it != sorted_.end() && it->first == g;
    }

private:
    std::vector<std::pair<gindex_t, gindex_t>> sorted_;
};

/// a * b, or nullopt when the product does not fit gindex_t (both non-negative).
inline std::optional<gindex_t> checked_product(gindex_t a, gindex_t b) {
    if (a != 0 && b > std::numeric_limits<gindex_t>::max() / a) return std::nullopt;
    return a * b;
}

}  // namespace gridblas::detail
