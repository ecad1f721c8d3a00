#pragma once
/// @file extract.hpp
/// @brief Moving entries between distributed objects and plain arrays: GrB_*_extractTuples
/// and GrB_Vector_build of the GraphBLAS C API 2.1 (§4.2.5.4, §4.2.5.9, §4.2.6.10).
///
///  - extract_tuples(u, idx, vals)          every entry of u on every rank, by index;
///  - extract_tuples(u, idx, vals, root)    the same on rank `root` only (others get none);
///  - extract_tuples(A, rows, cols, vals[, root])  the entries of A, by (row, column);
///  - build(w, idx, vals[, dup])            fills an empty w from tuples held by any rank.
///
/// All are collective over the grid's world communicator.

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/collective_check.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/apply.hpp"
#include "gridblas/ops/arg_checks.hpp"
#include "gridblas/vector/dist_vector.hpp"

namespace gridblas {

namespace detail {

template <class T>
struct IndexedValue {
    gindex_t index;
    T val;
};

template <class T>
struct MatrixTuple {
    gindex_t row;
    gindex_t col;
    T val;
};

/// Checks a root rank argument (same on every rank, so no communication).
inline void check_root(const char* op, int root, int size) {
    if (root < 0 || root >= size) {
        throw InvalidValue(std::string(op) + ": root rank " + std::to_string(root) +
                           " outside a communicator of " + std::to_string(size) + " ranks");
    }
}

/// Collects `mine` from every rank: on every rank (no root) or on `root` alone. `recv`
/// holds the pieces in source rank order, `counts[r]` elements from rank r.
template <class E>
void collect(comm::Communicator& world, const std::vector<E>& mine, std::optional<int> root,
             std::vector<E>& recv, std::vector<int>& counts, const char* site) {
    if (!root) {
        world.allgatherv(std::span<const E>(mine), recv, counts, site);
        return;
    }
    std::vector<int> send_counts(std::size_t(world.size()), 0);
    send_counts[std::size_t(*root)] = int(mine.size());
    world.alltoallv(std::span<const E>(mine), std::span<const int>(send_counts), recv, counts,
                    site);
}

/// extract_tuples of a vector on every rank (no root) or on `root`.
template <class T>
void extract_vector(const DistVector<T>& u, std::vector<gindex_t>& idx, std::vector<T>& vals,
                    std::optional<int> root) {
    check_initialised("extract_tuples", "u", u);
    comm::Communicator& world = u.grid()->world();
    if (root) check_root("extract_tuples", *root, world.size());
    std::vector<IndexedValue<T>> mine, all;
    mine.reserve(u.local_nvals());
    u.for_each_local([&](gindex_t i, const T& x) { mine.push_back({i, x}); });
    std::vector<int> counts;
    collect(world, mine, root, all, counts, "extract-tuples");
    idx.clear();
    vals.clear();
    if (all.empty()) return;
    // Rank r's entries are sorted and form one piece; emit the pieces in index order.
    std::vector<std::size_t> start(counts.size() + 1, 0);
    for (std::size_t r = 0; r < counts.size(); ++r)
        start[r + 1] = start[r] + std::size_t(counts[r]);
    idx.reserve(all.size());
    vals.reserve(all.size());
    const Distribution& d = u.dist();
    for (int k = 0; k < d.pieces(); ++k) {
        const auto r = std::size_t(u.grid()->rank_of(d.row_of_piece(k), d.col_of_piece(k)));
        for (std::size_t e = start[r]; e < start[r + 1]; ++e) {
            idx.push_back(all[e].index);
            vals.push_back(all[e].val);
        }
    }
}

/// extract_tuples of a matrix on every rank (no root) or on `root`.
template <class T>
void extract_matrix(const DistMatrix<T>& a, std::vector<gindex_t>& rows,
                    std::vector<gindex_t>& cols, std::vector<T>& vals, std::optional<int> root) {
    check_initialised("extract_tuples", "A", a);
    comm::Communicator& world = a.grid()->world();
    if (root) check_root("extract_tuples", *root, world.size());
    std::vector<MatrixTuple<T>> mine, all;
    mine.reserve(a.local_nvals());
    a.for_each_local([&](gindex_t i, gindex_t j, const T& x) { mine.push_back({i, j, x}); });
    std::vector<int> counts;
    collect(world, mine, root, all, counts, "extract-tuples");
    std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) {
        return x.row != y.row ? x.row < y.row : x.col < y.col;
    });
    rows.resize(all.size());
    cols.resize(all.size());
    vals.resize(all.size());
    for (std::size_t k = 0; k < all.size(); ++k) {
        rows[k] = all[k].row;
        cols[k] = all[k].col;
        vals[k] = all[k].val;
    }
}

template <class T, class Dup>
void build_vector(DistVector<T>& w, std::span<const gindex_t> idx, std::span<const T> vals,
                  DuplicatePolicy policy, Dup dup) {
    check_initialised("build", "w", w);
    run_collectively(w.grid()->world(), [&] {
        if (w.local_nvals() != 0) {
            throw InvalidValue(
                "build: the output vector already holds entries "
                "(GrB_OUTPUT_NOT_EMPTY)");
        }
    });
    ValueArray<T> va;
    va.reserve(vals.size());
    for (const T& x : vals) va.push_back(x);
    w = DistVector<T>::from_tuples(w.grid(), w.size(), idx, va, policy, dup);
}

}  // namespace detail

/// Every entry of u, on every rank: `idx` ascending, `vals` alongside. Collective.
/// @throws InvalidValue when u is uninitialised (on every rank alike).
template <class T>
void extract_tuples(const DistVector<T>& u, std::vector<gindex_t>& idx, std::vector<T>& vals) {
    detail::extract_vector(u, idx, vals, std::nullopt);
}

/// Every entry of u, on rank `root` of the world communicator only (the other ranks get
/// empty arrays). Collective.
/// @throws InvalidValue when u is uninitialised or root is not a rank (on every rank alike).
template <class T>
void extract_tuples(const DistVector<T>& u, std::vector<gindex_t>& idx, std::vector<T>& vals,
                    int root) {
    detail::extract_vector(u, idx, vals, root);
}

/// Every entry of A, on every rank, sorted by (row, column). Collective.
/// @throws InvalidValue when A is uninitialised (on every rank alike).
template <class T>
void extract_tuples(const DistMatrix<T>& a, std::vector<gindex_t>& rows,
                    std::vector<gindex_t>& cols, std::vector<T>& vals) {
    detail::extract_matrix(a, rows, cols, vals, std::nullopt);
}

/// Every entry of A, sorted by (row, column), on rank `root` only (the other ranks get empty
/// arrays). Collective.
/// @throws InvalidValue when A is uninitialised or root is not a rank (on every rank alike).
template <class T>
void extract_tuples(const DistMatrix<T>& a, std::vector<gindex_t>& rows,
                    std::vector<gindex_t>& cols, std::vector<T>& vals, int root) {
    detail::extract_matrix(a, rows, cols, vals, root);
}

/// Fills w, which must have no entries, with the tuples (idx[k], vals[k]) that each rank
/// passes (any subset, any order; GrB_Vector_build). Duplicate indices are an error.
/// Collective.
/// @throws InvalidValue when w has entries (GrB_OUTPUT_NOT_EMPTY) or an index repeats;
///         IndexOutOfBounds when an index is outside [0, w.size()); DimensionMismatch when
///         idx and vals differ in length. Every rank throws the same error, and w is
///         unchanged.
template <class T>
void build(DistVector<T>& w, std::span<const gindex_t> idx,
           std::span<const std::type_identity_t<T>> vals) {
    detail::build_vector(w, idx, vals, DuplicatePolicy::reject, KeepLast{});
}

/// As build(w, idx, vals), but entries with the same index are combined, in the order
/// (rank, position in the arrays), as dup(earlier, later).
template <class T, class Dup>
void build(DistVector<T>& w, std::span<const gindex_t> idx,
           std::span<const std::type_identity_t<T>> vals, Dup dup) {
    detail::build_vector(w, idx, vals, DuplicatePolicy::combine, dup);
}

}  // namespace gridblas
