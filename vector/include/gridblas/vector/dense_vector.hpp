#pragma once
/// @file dense_vector.hpp
/// @brief Local dense vector: every position holds a value.

#include <cstddef>
#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/matrix/detail/huge_pages.hpp"

namespace gridblas {

/// A dense vector; nvals() == size().
template <class T>
class DenseVector {
public:
    using value_type = T;

    DenseVector() = default;
    /// n copies of `fill`; a long vector asks for huge pages (matrix/detail/huge_pages.hpp).
    explicit DenseVector(lindex_t n, const T& fill = T{}) {
        detail::reserve_huge(val_, n);
        val_.assign(n, fill);
    }
    explicit DenseVector(std::vector<T> v) : val_(std::move(v)) {}

    lindex_t size() const { return lindex_t(val_.size()); }
    std::size_t nvals() const { return val_.size(); }
    T& operator[](std::size_t i) { return val_[i]; }
    const T& operator[](std::size_t i) const { return val_[i]; }
    T* data() { return val_.data(); }
    const T* data() const { return val_.data(); }
    const std::vector<T>& values() const { return val_; }
    std::vector<T>& values() { return val_; }

    bool operator==(const DenseVector&) const = default;

private:
    std::vector<T> val_;
};

}  // namespace gridblas
