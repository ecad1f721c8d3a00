#pragma once
/// @file mask.hpp
/// @brief MaskView, the form in which every CPU kernel sees an output mask: one bit per
/// output index plus a complement flag, and the helpers that build it from sparse, bitmap
/// or dense mask vectors, structural or valued.
///
/// Semantics follow the GraphBLAS C API 2.1 ("Masks"; References in README.md): a
/// structural mask allows the indices where the mask vector has an entry; a valued
/// mask allows the entries whose value is true when cast to bool; complement takes the rest
/// of the index range. With no mask every index is allowed, and no mask with complement
/// allows none (an empty mask, as SuiteSparse's GB_RETURN_IF_QUICK_MASK treats it).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/vector/bitmap_vector.hpp"
#include "gridblas/vector/dense_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas::kernels {

/// A mask over the output index space of a kernel.
struct MaskView {
    /// One bit per output index (bit i of word i/64); nullptr means "no mask vector".
    const std::uint64_t* bits = nullptr;
    /// Allow the indices whose bit is clear instead of those whose bit is set.
    bool complement = false;

    /// May the kernel write output index i?
    bool allows(lindex_t i) const {
        if (!bits) return !complement;
        return bool((bits[i >> 6] >> (i & 63)) & 1u) != complement;
    }
    /// True when every index is allowed (no mask, not complemented).
    bool allows_all() const { return !bits && !complement; }
    /// True when no index is allowed (no mask, complemented).
    bool allows_none() const { return !bits && complement; }

    /// The allowed indices of word w as bits, for an output of length n (bits past n are 0).
    std::uint64_t word(std::size_t w, lindex_t n) const {
        std::uint64_t v;
        if (bits) {
            v = complement ? ~bits[w] : bits[w];
        } else {
            v = complement ? 0 : ~std::uint64_t(0);
        }
        const std::size_t last = (std::size_t(n) + 63) / 64 - 1;
        if (w == last && (n & 63)) v &= (std::uint64_t(1) << (n & 63)) - 1;
        return v;
    }
};

/// The mask that allows every index.
inline MaskView no_mask() { return {}; }

/// Bit storage for masks built from vectors that have no bitmap of their own. Keep one per
/// call site and reuse it: building a mask allocates only when the output grows.
using MaskStorage = std::vector<std::uint64_t>;

namespace detail {

/// Truth of a mask entry's value (GraphBLAS casts the mask's value to bool).
template <class M>
bool mask_value_true(const M& v) {
    if constexpr (std::is_same_v<M, Pattern>) {
        return true;
    } else if constexpr (std::is_constructible_v<bool, M>) {
        return static_cast<bool>(v);
    } else {
        return !(v == M{});
    }
}

/// Mask tests specialised by kind, so kernels can hoist the "is there a mask" branch out of
/// their inner loops (see with_mask()).
struct AllowAll {
    bool operator()(lindex_t) const { return true; }
};
template <bool Complement>
struct AllowBits {
    const std::uint64_t* bits;
    bool operator()(lindex_t i) const {
        return bool((bits[i >> 6] >> (i & 63)) & 1u) != Complement;
    }
};

/// Calls f with the specialised test of `m`. The caller handles m.allows_none() first.
template <class F>
decltype(auto) with_mask(const MaskView& m, F&& f) {
    if (!m.bits) return f(AllowAll{});
    if (m.complement) return f(AllowBits<true>{m.bits});
    return f(AllowBits<false>{m.bits});
}

inline void check_mask_size(lindex_t mask_n, lindex_t n) {
    if (mask_n != n) {
        throw DimensionMismatch("mask has size " + std::to_string(mask_n) +
                                " but the output has size " + std::to_string(n));
    }
}

}  // namespace detail

/// Mask from a sparse vector of length n.
/// @param structural allow the stored indices (true) or only those with a true value (false)
/// @param storage    reused bit storage the returned view points into
/// @throws DimensionMismatch when m.size() != n
template <class M>
MaskView make_mask(const SparseVector<M>& m, lindex_t n, bool structural, bool complement,
                   MaskStorage& storage) {
    detail::check_mask_size(m.size(), n);
    storage.assign(bitmap_words(n), 0);
    const auto& ind = m.indices();
    for (std::size_t k = 0; k < ind.size(); ++k) {
        if (structural || detail::mask_value_true(m.values()[k])) {
            storage[ind[k] >> 6] |= std::uint64_t(1) << (ind[k] & 63);
        }
    }
    return MaskView{storage.data(), complement};
}

/// Mask from a bitmap vector of length n. A structural mask points at the vector's own
/// bits (no copy); keep the vector alive and unchanged while the view is used.
/// @throws DimensionMismatch when m.size() != n
template <class M>
MaskView make_mask(const BitmapVector<M>& m, lindex_t n, bool structural, bool complement,
                   MaskStorage& storage) {
    detail::check_mask_size(m.size(), n);
    if (structural || !BitmapVector<M>::has_values) {
        return MaskView{m.words().data(), complement};
    }
    const std::size_t nw = bitmap_words(n);
    storage.assign(nw, 0);
    for (std::size_t w = 0; w < nw; ++w) {
        std::uint64_t bits = m.words()[w];
        std::uint64_t out = 0;
        while (bits) {
            const int b = std::countr_zero(bits);
            bits &= bits - 1;
            if constexpr (BitmapVector<M>::has_values) {
                if (detail::mask_value_true(m.values()[w * 64 + std::size_t(b)])) {
                    out |= std::uint64_t(1) << b;
                }
            }
        }
        storage[w] = out;
    }
    return MaskView{storage.data(), complement};
}

/// Mask from a dense vector of length n: every index is stored, so a structural mask
/// allows everything (or, complemented, nothing) and needs no bits.
/// @throws DimensionMismatch when m.size() != n
template <class M>
MaskView make_mask(const DenseVector<M>& m, lindex_t n, bool structural, bool complement,
                   MaskStorage& storage) {
    detail::check_mask_size(m.size(), n);
    if (structural) return MaskView{nullptr, complement};
    storage.assign(bitmap_words(n), 0);
    for (lindex_t i = 0; i < n; ++i) {
        if (detail::mask_value_true(m[i])) storage[i >> 6] |= std::uint64_t(1) << (i & 63);
    }
    return MaskView{storage.data(), complement};
}

}  // namespace gridblas::kernels
