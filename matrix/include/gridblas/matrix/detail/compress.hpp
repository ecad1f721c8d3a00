#pragma once
/// @file compress.hpp
/// @brief Shared builder of compressed sparse formats: sorts (major, minor, value) tuples and
/// folds duplicates, producing the pointer/index/value arrays of CSR (major = row) or of
/// CSC/DCSC (major = column). Dense-ish blocks use a two-pass counting sort (O(nnz + n));
/// hypersparse blocks (n much larger than nnz) sort packed keys instead, so that nothing of
/// size O(n) is ever allocated for them.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/coo.hpp"
#include "gridblas/matrix/value_array.hpp"

namespace gridblas::detail {

/// Output of compress(): entries grouped by major index, minor indices ascending.
template <class T>
struct Compressed {
    std::vector<lindex_t> major_ids;  ///< non-empty major indices, ascending
    std::vector<offset_t> ptr;        ///< size major_ids.size() + 1
    std::vector<lindex_t> minor;      ///< minor index of each entry
    ValueArray<T> vals;               ///< value of each entry
};

inline void check_tuple_bounds(lindex_t nrows, lindex_t ncols, std::span<const lindex_t> rows,
                               std::span<const lindex_t> cols, std::size_t nvals) {
    if (rows.size() != cols.size() || rows.size() != nvals) {
        throw DimensionMismatch("tuple arrays differ in length: rows " +
                                std::to_string(rows.size()) + ", cols " +
                                std::to_string(cols.size()) + ", values " + std::to_string(nvals));
    }
    for (std::size_t k = 0; k < rows.size(); ++k) {
        if (rows[k] >= nrows || cols[k] >= ncols) {
            throw IndexOutOfBounds("tuple " + std::to_string(k) + " is (" +
                                   std::to_string(rows[k]) + ", " + std::to_string(cols[k]) +
                                   ") in a " + std::to_string(nrows) + " x " +
                                   std::to_string(ncols) + " matrix");
        }
    }
}

/// Sorts tuples by (major, minor) and folds duplicates. `row_major` chooses which of
/// rows/cols is the major index. Throws (changing nothing) on out-of-range indices or, with
/// DuplicatePolicy::reject, on a duplicate.
template <class T, class Combine = KeepLast>
Compressed<T> compress(lindex_t nrows, lindex_t ncols, std::span<const lindex_t> rows,
                       std::span<const lindex_t> cols, const ValueArray<T>& vals, bool row_major,
                       DuplicatePolicy policy = DuplicatePolicy::reject, Combine combine = {}) {
    check_tuple_bounds(nrows, ncols, rows, cols, vals.size());
    const std::span<const lindex_t> maj = row_major ? rows : cols;
    const std::span<const lindex_t> mnr = row_major ? cols : rows;
    const lindex_t nmajor = row_major ? nrows : ncols;
    const lindex_t nminor = row_major ? ncols : nrows;
    const std::size_t nnz = maj.size();

    // Permutation that sorts the tuples by (major, minor), stable among equal keys so that
    // "combine" folds duplicates in input order.
    std::vector<std::size_t> order(nnz);
    const bool counting = std::uint64_t(nmajor) + nminor <= 4 * std::uint64_t(nnz) + 1024;
    if (counting) {
        std::vector<std::size_t> by_minor(nnz);
        std::vector<offset_t> count(std::size_t(std::max(nmajor, nminor)) + 1, 0);
        for (std::size_t k = 0; k < nnz; ++k) ++count[mnr[k] + 1];
        for (std::size_t i = 0; i < nminor; ++i) count[i + 1] += count[i];
        for (std::size_t k = 0; k < nnz; ++k) by_minor[count[mnr[k]]++] = k;
        std::fill(count.begin(), count.end(), 0);
        for (std::size_t k = 0; k < nnz; ++k) ++count[maj[k] + 1];
        for (std::size_t i = 0; i < nmajor; ++i) count[i + 1] += count[i];
        for (std::size_t k : by_minor) order[count[maj[k]]++] = k;
    } else {
        std::vector<std::uint64_t> key(nnz);
        for (std::size_t k = 0; k < nnz; ++k) key[k] = (std::uint64_t(maj[k]) << 32) | mnr[k];
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
    }

    // Find duplicates before writing anything so a rejection changes nothing.
    std::size_t unique = 0;
    for (std::size_t p = 0; p < nnz; ++p) {
        const bool dup =
            p > 0 && maj[order[p]] == maj[order[p - 1]] && mnr[order[p]] == mnr[order[p - 1]];
        if (dup && policy == DuplicatePolicy::reject) {
            throw InvalidValue("duplicate entry at (" + std::to_string(rows[order[p]]) + ", " +
                               std::to_string(cols[order[p]]) + ")");
        }
        unique += dup ? 0 : 1;
    }

    Compressed<T> out;
    out.minor.reserve(unique);
    out.vals.reserve(unique);
    out.ptr.push_back(0);
    for (std::size_t p = 0; p < nnz; ++p) {
        const std::size_t k = order[p];
        if (p > 0 && maj[k] == maj[order[p - 1]] && mnr[k] == mnr[order[p - 1]]) {
            if constexpr (!std::is_same_v<T, Pattern>) {
                out.vals[out.vals.size() - 1] = combine(out.vals[out.vals.size() - 1], vals[k]);
            }
            continue;
        }
        if (out.major_ids.empty() || out.major_ids.back() != maj[k]) {
            if (!out.major_ids.empty()) out.ptr.push_back(out.minor.size());
            out.major_ids.push_back(maj[k]);
        }
        out.minor.push_back(mnr[k]);
        out.vals.push_back(vals[k]);
    }
    if (!out.major_ids.empty()) out.ptr.push_back(out.minor.size());
    return out;
}

}  // namespace gridblas::detail
