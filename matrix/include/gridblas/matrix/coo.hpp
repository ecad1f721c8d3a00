#pragma once
/// @file coo.hpp
/// @brief Coordinate (row, column, value) tuples: what readers and generators produce and
/// what local and distributed matrices are built from. Tuples may be in any order.

#include <cstddef>
#include <string>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/value_array.hpp"

namespace gridblas {

/// A bag of (row, col, value) tuples with the dimensions they live in.
template <class T, class I = gindex_t>
struct CooMatrix {
    using value_type = T;
    using index_type = I;

    I nrows = 0;
    I ncols = 0;
    std::vector<I> rows;
    std::vector<I> cols;
    ValueArray<T> vals;

    CooMatrix() = default;
    CooMatrix(I nr, I nc) : nrows(nr), ncols(nc) {}

    std::size_t nnz() const { return rows.size(); }
    void reserve(std::size_t n) {
        rows.reserve(n);
        cols.reserve(n);
        vals.reserve(n);
    }
    void push_back(I r, I c, const T& v = T{}) {
        rows.push_back(r);
        cols.push_back(c);
        vals.push_back(v);
    }
    void clear() {
        rows.clear();
        cols.clear();
        vals.clear();
    }
};

/// What to do when two tuples name the same (row, col).
enum class DuplicatePolicy {
    reject,   ///< throw InvalidValue naming the first duplicate
    combine,  ///< combine the values with the given monoid (its add)
};

/// The monoid's add used by DuplicatePolicy::combine when none is given: keep the last value.
struct KeepLast {
    template <class T>
    T operator()(const T&, const T& b) const {
        return b;
    }
};

}  // namespace gridblas
