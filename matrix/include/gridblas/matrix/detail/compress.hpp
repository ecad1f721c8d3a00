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
#include "gridblas/matrix/detail/huge_pages.hpp"
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

/// Tuples grouped by major index, each major's minors in input order: what the counting
/// sort's scatter leaves for finish_counting().
template <class T>
struct Scattered {
    std::vector<offset_t> start;  ///< size nmajor + 1: major i holds start[i] .. start[i+1]-1
    std::vector<lindex_t> minor;
    ValueArray<T> vals;  ///< empty for Pattern
};

/// Scatters (maj[k], mnr[k], vals[k]) into `s` at the write positions `next` (advanced).
template <class T>
void scatter_tuples(std::span<const lindex_t> maj, std::span<const lindex_t> mnr,
                    const ValueArray<T>& vals, std::vector<offset_t>& next, Scattered<T>& s) {
    for (std::size_t k = 0; k < maj.size(); ++k) {
        const offset_t pos = next[maj[k]]++;
        s.minor[pos] = mnr[k];
        if constexpr (!std::is_same_v<T, Pattern>) s.vals[pos] = vals[k];
    }
}

template <class T, class Combine>
Compressed<T> finish_counting(lindex_t nmajor, Scattered<T>&& s, bool row_major,
                              DuplicatePolicy policy, Combine combine);

/// Counting-sort path of compress() for blocks that are not hypersparse: scatter by major
/// (stable, so duplicates keep their input order), sort each major's minors (in parallel),
/// then fold duplicates. O(nnz + n_major) memory besides the output.
template <class T, class Combine>
Compressed<T> compress_counting(lindex_t nmajor, std::span<const lindex_t> maj,
                                std::span<const lindex_t> mnr, const ValueArray<T>& vals,
                                bool row_major, DuplicatePolicy policy, Combine combine) {
    constexpr bool has_vals = !std::is_same_v<T, Pattern>;
    const std::size_t nnz = maj.size();
    Scattered<T> s;
    s.start.assign(std::size_t(nmajor) + 1, 0);
    for (std::size_t k = 0; k < nnz; ++k) ++s.start[maj[k] + 1];
    for (std::size_t i = 0; i < nmajor; ++i) s.start[i + 1] += s.start[i];
    reserve_huge(s.minor, nnz);  // the block's index array, read at random by the searches
    s.vals.reserve_huge(has_vals ? nnz : 0);
    s.minor.resize(nnz);
    s.vals.resize(has_vals ? nnz : 0);
    std::vector<offset_t> next(s.start.begin(), s.start.end() - 1);
    scatter_tuples(maj, mnr, vals, next, s);
    return finish_counting<T>(nmajor, std::move(s), row_major, policy, combine);
}

/// The second half of the counting sort: sorts each major's minors (in parallel), checks
/// for or folds duplicates, and drops empty majors from the pointer array.
template <class T, class Combine>
Compressed<T> finish_counting(lindex_t nmajor, Scattered<T>&& s, bool row_major,
                              DuplicatePolicy policy, Combine combine) {
    constexpr bool has_vals = !std::is_same_v<T, Pattern>;
    const std::vector<offset_t>& start = s.start;
    std::vector<lindex_t>& mi = s.minor;
    ValueArray<T>& mv = s.vals;
    const std::size_t nnz = mi.size();
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
    reserve_huge(out.major_ids, nonempty);
    reserve_huge(out.ptr, nonempty + 1);
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
    // Fold in place: each major's distinct entries move to their final position, which is
    // never after their scattered one, and majors are handled in ascending order (serially:
    // a parallel fold would need a second array of nnz entries).
    const std::size_t total = out.ptr.back();
    for (std::size_t k = 0; k < out.major_ids.size(); ++k) {
        const std::size_t i = out.major_ids[k];
        offset_t w = out.ptr[k];
        for (offset_t q = start[i]; q < start[i + 1]; ++q) {
            if (q > start[i] && mi[q] == mi[q - 1]) {
                if constexpr (has_vals) mv[w - 1] = combine(mv[w - 1], mv[q]);
                continue;
            }
            mi[w] = mi[q];
            if constexpr (has_vals) mv[w] = mv[q];
            ++w;
        }
    }
    mi.resize(total);
    shrink_to_fit_huge(mi);
    out.minor = std::move(mi);
    if constexpr (has_vals) {
        mv.resize(total);
        mv.shrink_to_fit();
        out.vals = std::move(mv);
    } else {
        out.vals.resize(total);
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
    reserve_huge(out.minor, unique);
    out.vals.reserve_huge(unique);
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

/// Tuples of one block as received from one routing round: rows are the major index.
template <class T>
struct TupleChunk {
    std::vector<lindex_t> rows;
    std::vector<lindex_t> cols;
    ValueArray<T> vals;
};

/// compress() by rows over tuples held in chunks, which it consumes: each chunk is freed
/// as soon as it is scattered, so the peak is the tuples plus one array of minors (12 bytes
/// per pattern entry) rather than a concatenated copy on top. With `mirror` (square blocks
/// only) each off-diagonal tuple (r, c, v) also stands for (c, r, v), so a symmetric block
/// can be built from half its tuples. Same checks and errors as compress(); on an error the
/// chunks are lost (the caller's block is not built).
template <class T, class Combine = KeepLast>
Compressed<T> compress_chunks(lindex_t nrows, lindex_t ncols, std::vector<TupleChunk<T>>&& chunks,
                              DuplicatePolicy policy = DuplicatePolicy::reject,
                              Combine combine = {}, bool mirror = false) {
    if (mirror && nrows != ncols) {
        throw DimensionMismatch("mirrored tuples need a square block, not " +
                                std::to_string(nrows) + " x " + std::to_string(ncols));
    }
    std::size_t nnz = 0;
    for (const auto& c : chunks) {
        check_tuple_bounds(nrows, ncols, c.rows, c.cols, c.vals.size());
        nnz += c.rows.size();
        if (mirror) {
            for (std::size_t k = 0; k < c.rows.size(); ++k) nnz += c.rows[k] != c.cols[k];
        }
    }
    if (mirror && std::uint64_t(nrows) > 4 * std::uint64_t(nnz) + 1024) {
        // Hypersparse and mirrored: write the mirrors out, then as below.
        for (auto& c : chunks) {
            const std::size_t m = c.rows.size();
            for (std::size_t k = 0; k < m; ++k) {
                if (c.rows[k] == c.cols[k]) continue;
                c.rows.push_back(c.cols[k]);
                c.cols.push_back(c.rows[k]);
                c.vals.push_back(c.vals[k]);
            }
        }
        mirror = false;
    }
    if (std::uint64_t(nrows) > 4 * std::uint64_t(nnz) + 1024) {
        // Hypersparse (the sorting path): one set of arrays, gathered chunk by chunk.
        TupleChunk<T> all = chunks.empty() ? TupleChunk<T>{} : std::move(chunks.front());
        if (chunks.size() > 1) {
            all.rows.reserve(nnz);
            all.cols.reserve(nnz);
            all.vals.reserve(nnz);
            for (std::size_t c = 1; c < chunks.size(); ++c) {
                TupleChunk<T> piece = std::move(chunks[c]);
                all.rows.insert(all.rows.end(), piece.rows.begin(), piece.rows.end());
                all.cols.insert(all.cols.end(), piece.cols.begin(), piece.cols.end());
                for (std::size_t k = 0; k < piece.vals.size(); ++k)
                    all.vals.push_back(piece.vals[k]);
            }
        }
        std::vector<TupleChunk<T>>().swap(chunks);
        return compress<T>(nrows, ncols, all.rows, all.cols, all.vals, true, policy, combine);
    }
    Scattered<T> s;
    s.start.assign(std::size_t(nrows) + 1, 0);
    for (const auto& c : chunks) {
        for (const lindex_t r : c.rows) ++s.start[r + 1];
        if (mirror) {
            for (std::size_t k = 0; k < c.rows.size(); ++k) {
                if (c.rows[k] != c.cols[k]) ++s.start[c.cols[k] + 1];
            }
        }
    }
    for (std::size_t i = 0; i < nrows; ++i) s.start[i + 1] += s.start[i];
    reserve_huge(s.minor, nnz);  // the block's index array, read at random by the searches
    s.vals.reserve_huge(std::is_same_v<T, Pattern> ? 0 : nnz);
    s.minor.resize(nnz);
    s.vals.resize(std::is_same_v<T, Pattern> ? 0 : nnz);
    std::vector<offset_t> next(s.start.begin(), s.start.end() - 1);
    for (auto& c : chunks) {
        TupleChunk<T> piece = std::move(c);  // freed at the end of this iteration
        scatter_tuples<T>(piece.rows, piece.cols, piece.vals, next, s);
        if (mirror) {
            for (std::size_t k = 0; k < piece.rows.size(); ++k) {
                if (piece.rows[k] == piece.cols[k]) continue;
                const offset_t pos = next[piece.cols[k]]++;
                s.minor[pos] = piece.rows[k];
                if constexpr (!std::is_same_v<T, Pattern>) s.vals[pos] = piece.vals[k];
            }
        }
    }
    std::vector<TupleChunk<T>>().swap(chunks);
    std::vector<offset_t>().swap(next);
    return finish_counting<T>(nrows, std::move(s), true, policy, combine);
}

}  // namespace gridblas::detail
