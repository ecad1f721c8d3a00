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
#include <utility>
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

/// Counting-sort path of compress() for blocks that are not hypersparse: scatter by major
/// (stable, so duplicates keep their input order), sort each major's minors (in parallel),
/// then fold duplicates. O(nnz + n_major) memory besides the output.
template <class T, class Combine>
Compressed<T> compress_counting(lindex_t nmajor, std::span<const lindex_t> maj,
                                std::span<const lindex_t> mnr, const ValueArray<T>& vals,
                                bool row_major, DuplicatePolicy policy, Combine combine) {
    constexpr bool has_vals = !std::is_same_v<T, Pattern>;
    const std::size_t nnz = maj.size();
    std::vector<offset_t> start(std::size_t(nmajor) + 1, 0);
    for (std::size_t k = 0; k < nnz; ++k) ++start[maj[k] + 1];
    for (std::size_t i = 0; i < nmajor; ++i) start[i + 1] += start[i];
    std::vector<lindex_t> mi(nnz);
    ValueArray<T> mv(has_vals ? nnz : 0);
    {
        std::vector<offset_t> next(start.begin(), start.end() - 1);
        for (std::size_t k = 0; k < nnz; ++k) {
            const offset_t pos = next[maj[k]]++;
            mi[pos] = mnr[k];
            if constexpr (has_vals) mv[pos] = vals[k];
        }
    }
    // Sort each major's minors and count its distinct entries.
    std::vector<offset_t> uniq(std::size_t(nmajor) + 1, 0);
    std::size_t first_dup = std::size_t(-1);
#pragma omp parallel if (nmajor > 4096)
    {
        std::vector<std::pair<lindex_t, T>> buf;
        std::size_t my_dup = std::size_t(-1);
#pragma omp for schedule(dynamic, 4096) nowait
        for (std::size_t i = 0; i < nmajor; ++i) {
            const offset_t b = start[i], e = start[i + 1];
            if (e - b > 1 && !std::is_sorted(mi.begin() + b, mi.begin() + e)) {
                if constexpr (has_vals) {
                    buf.clear();
                    for (offset_t q = b; q < e; ++q) buf.emplace_back(mi[q], mv[q]);
                    std::stable_sort(buf.begin(), buf.end(), [](const auto& x, const auto& y) {
                        return x.first < y.first;
                    });
                    for (offset_t q = b; q < e; ++q) {
                        mi[q] = buf[q - b].first;
                        mv[q] = buf[q - b].second;
                    }
                } else {
                    std::sort(mi.begin() + b, mi.begin() + e);
                }
            }
            offset_t u = e > b ? 1 : 0;
            for (offset_t q = b + 1; q < e; ++q) {
                if (mi[q] != mi[q - 1]) {
                    ++u;
                } else if (my_dup == std::size_t(-1)) {
                    my_dup = q;
                }
            }
            uniq[i + 1] = u;
        }
#pragma omp critical
        first_dup = std::min(first_dup, my_dup);
    }
    if (first_dup != std::size_t(-1) && policy == DuplicatePolicy::reject) {
        const std::size_t i =
            std::size_t(std::upper_bound(start.begin(), start.end(), offset_t(first_dup)) -
                        start.begin()) -
            1;
        const lindex_t r = row_major ? lindex_t(i) : mi[first_dup];
        const lindex_t c = row_major ? mi[first_dup] : lindex_t(i);
        throw InvalidValue("duplicate entry at (" + std::to_string(r) + ", " + std::to_string(c) +
                           ")");
    }
    Compressed<T> out;
    std::size_t nonempty = 0;
    for (std::size_t i = 0; i < nmajor; ++i) nonempty += uniq[i + 1] > 0;
    out.major_ids.reserve(nonempty);
    out.ptr.reserve(nonempty + 1);
    out.ptr.push_back(0);
    for (std::size_t i = 0; i < nmajor; ++i) {
        if (uniq[i + 1] == 0) continue;
        out.major_ids.push_back(lindex_t(i));
        out.ptr.push_back(out.ptr.back() + uniq[i + 1]);
    }
    if (first_dup == std::size_t(-1)) {  // nothing to fold: take the arrays over
        out.minor = std::move(mi);
        if constexpr (has_vals)
            out.vals = std::move(mv);
        else
            out.vals.resize(nnz);
        return out;
    }
    const std::size_t total = out.ptr.back();
    out.minor.resize(total);
    out.vals.resize(total);
#pragma omp parallel for schedule(dynamic, 256) if (total > 65536)
    for (std::size_t k = 0; k < out.major_ids.size(); ++k) {
        const std::size_t i = out.major_ids[k];
        offset_t w = out.ptr[k];
        for (offset_t q = start[i]; q < start[i + 1]; ++q) {
            if (q > start[i] && mi[q] == mi[q - 1]) {
                if constexpr (has_vals) out.vals[w - 1] = combine(out.vals[w - 1], mv[q]);
                continue;
            }
            out.minor[w] = mi[q];
            if constexpr (has_vals) out.vals[w] = mv[q];
            ++w;
        }
    }
    return out;
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
    const std::size_t nnz = maj.size();

    if (std::uint64_t(nmajor) <= 4 * std::uint64_t(nnz) + 1024) {
        return compress_counting<T>(nmajor, maj, mnr, vals, row_major, policy, combine);
    }
    // Hypersparse: sort packed keys (stable, so "combine" folds duplicates in input order);
    // nothing of size O(n) is allocated.
    std::vector<std::size_t> order(nnz);
    {
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
