#pragma once
/// @file convert.hpp
/// @brief Conversions between sparse, dense and bitmap vectors, and the density rule with
/// hysteresis used to pick a format automatically.

#include <cstddef>

#include "gridblas/vector/bitmap_vector.hpp"
#include "gridblas/vector/dense_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas {

/// Sparse -> bitmap.
template <class T>
BitmapVector<T> to_bitmap(const SparseVector<T>& s) {
    BitmapVector<T> b(s.size());
    for (std::size_t k = 0; k < s.nvals(); ++k) b.set(s.indices()[k], s.values()[k]);
    return b;
}

/// Bitmap -> sparse (indices ascending).
template <class T>
SparseVector<T> to_sparse(const BitmapVector<T>& b) {
    SparseVector<T> s(b.size());
    const auto& w = b.words();
    for (std::size_t k = 0; k < w.size(); ++k) {
        std::uint64_t bits = w[k];
        while (bits) {
            const lindex_t i = lindex_t(k * 64 + std::size_t(std::countr_zero(bits)));
            bits &= bits - 1;
            if constexpr (BitmapVector<T>::has_values) {
                s.push_back(i, b.value(i));
            } else {
                s.push_back(i);
            }
        }
    }
    return s;
}

/// Sparse -> dense; absent positions get `fill`.
template <class T>
DenseVector<T> to_dense(const SparseVector<T>& s, const T& fill) {
    DenseVector<T> d(s.size(), fill);
    for (std::size_t k = 0; k < s.nvals(); ++k) d[s.indices()[k]] = s.values()[k];
    return d;
}

/// Dense -> sparse, keeping every position whose value differs from `absent`.
template <class T>
SparseVector<T> to_sparse(const DenseVector<T>& d, const T& absent) {
    SparseVector<T> s(d.size());
    for (lindex_t i = 0; i < d.size(); ++i) {
        if (!(d[i] == absent)) s.push_back(i, d[i]);
    }
    return s;
}

/// Dense -> sparse keeping all positions.
template <class T>
SparseVector<T> to_sparse(const DenseVector<T>& d) {
    SparseVector<T> s(d.size());
    for (lindex_t i = 0; i < d.size(); ++i) s.push_back(i, d[i]);
    return s;
}

/// Storage formats a vector can take.
enum class VectorFormat { sparse, bitmap, dense };

/// Density rule with hysteresis (as SuiteSparse): go to bitmap above `to_bitmap` (4%) of the
/// length, back to sparse only below `to_sparse` (2%), so a vector near the threshold does
/// not flip every step.
struct DensityRule {
    double to_bitmap = 0.04;
    double to_sparse = 0.02;
    VectorFormat choose(VectorFormat current, std::size_t nvals, std::size_t n) const {
        const double d = n == 0 ? 0.0 : double(nvals) / double(n);
        if (current == VectorFormat::sparse) {
            return d > to_bitmap ? VectorFormat::bitmap : VectorFormat::sparse;
        }
        return d < to_sparse ? VectorFormat::sparse : VectorFormat::bitmap;
    }
};

}  // namespace gridblas
