#pragma once
/// @file sparse_vector.hpp
/// @brief Local sparse vector: sorted, unique indices with their values.

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/value_array.hpp"

namespace gridblas {

/// A sparse vector of length `size()` holding `nvals()` entries at ascending indices.
template <class T>
class SparseVector {
public:
    using value_type = T;

    SparseVector() = default;
    explicit SparseVector(lindex_t n) : n_(n) {}

    /// Builds from entries in any order; throws IndexOutOfBounds or InvalidValue (duplicate).
    static SparseVector from_entries(lindex_t n, std::span<const lindex_t> ind,
                                     const ValueArray<T>& val) {
        if (ind.size() != val.size()) {
            throw DimensionMismatch("sparse vector: " + std::to_string(ind.size()) +
                                    " indices but " + std::to_string(val.size()) + " values");
        }
        std::vector<std::size_t> order(ind.size());
        for (std::size_t k = 0; k < ind.size(); ++k) {
            if (ind[k] >= n) {
                throw IndexOutOfBounds("sparse vector index " + std::to_string(ind[k]) +
                                       " in a vector of size " + std::to_string(n));
            }
            order[k] = k;
        }
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return ind[a] < ind[b]; });
        SparseVector v(n);
        v.ind_.reserve(ind.size());
        v.val_.reserve(ind.size());
        for (std::size_t p = 0; p < order.size(); ++p) {
            if (p > 0 && ind[order[p]] == ind[order[p - 1]]) {
                throw InvalidValue("sparse vector: duplicate index " +
                                   std::to_string(ind[order[p]]));
            }
            v.ind_.push_back(ind[order[p]]);
            v.val_.push_back(val[order[p]]);
        }
        return v;
    }

    lindex_t size() const { return n_; }
    std::size_t nvals() const { return ind_.size(); }
    bool empty() const { return ind_.empty(); }

    const std::vector<lindex_t>& indices() const { return ind_; }
    const ValueArray<T>& values() const { return val_; }
    std::vector<lindex_t>& indices() { return ind_; }
    ValueArray<T>& values() { return val_; }

    /// Appends an entry; the index must be larger than every stored one (not checked).
    void push_back(lindex_t i, const T& v = T{}) {
        ind_.push_back(i);
        val_.push_back(v);
    }
    void clear() {
        ind_.clear();
        val_.clear();
    }
    /// Changes the length, keeping the entries (which must all lie below n; not checked).
    void set_size(lindex_t n) { n_ = n; }
    /// Changes the length; drops every entry.
    void reset(lindex_t n) {
        n_ = n;
        clear();
    }

    bool operator==(const SparseVector&) const = default;

private:
    lindex_t n_ = 0;
    std::vector<lindex_t> ind_;
    ValueArray<T> val_;
};

}  // namespace gridblas
