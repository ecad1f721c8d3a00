#pragma once
/// @file view.hpp
/// @brief A non-owning view of a compressed sparse block (CSR, CSC or DCSC) that the CPU
/// kernels iterate, and OuterLookup, the bucket index that finds an outer id in the sorted
/// id list of a doubly compressed block in expected O(1) time.
///
/// OuterLookup follows the AUX array of Buluç & Gilbert, "On the representation and
/// multiplication of hypersparse matrices" (IPDPS 2008): the outer id range is cut into
/// about `num_outer` equal buckets and aux[b] is the first stored outer position whose id
/// falls in bucket b, so a lookup scans one bucket, and the index costs O(nzc) memory, never
/// O(n). Bucket widths are powers of two so a bucket is a shift, not a division.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dcsc.hpp"
#include "gridblas/matrix/value_array.hpp"

namespace gridblas::kernels {

/// Returned by lookups when an outer id has no stored entries.
inline constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();

/// Bucket index over the sorted outer ids of a doubly compressed block (Buluç's AUX).
/// Build it once per matrix and point CompressedView::lookup at it; it stays valid for as
/// long as the matrix is not modified. When at least a quarter of the outer ids are stored
/// (a block that is not hypersparse: one rank's block of a scale-20 Kronecker graph, a road
/// network) it keeps, 4 bytes per outer id, either the entry offsets of every outer id (when
/// the block's pointers `ptr` are given and its entries fit 32-bit offsets: CSC pointers
/// beside the DCSC, so that an outer id's range is one read, not a position and then the
/// pointers) or else the position of every outer id. Either way a find is one read where the
/// buckets take two or three dependent ones, and on a high-diameter graph's many small
/// top-down levels each of those reads is a cache miss.
class OuterLookup {
public:
    OuterLookup() = default;

    /// Indexes `ids[0 .. num_ids)`, ascending ids in `[0, n_outer)`; `ptr` (optional) holds
    /// their `num_ids + 1` entry offsets.
    OuterLookup(const lindex_t* ids, std::size_t num_ids, lindex_t n_outer,
                const offset_t* ptr = nullptr) {
        if (std::uint64_t(num_ids) * 4 >= std::uint64_t(n_outer) && n_outer > 0) {
            if (ptr != nullptr && ptr[num_ids] <= offset_t(kAbsent)) {
                // Offsets of every outer id: an absent one gets the next stored one's start.
                direct_.resize(std::size_t(n_outer) + 1);
                num_ids_ = num_ids;
                std::size_t k = 0;
                for (std::size_t j = 0; j <= n_outer; ++j) {
                    while (k < num_ids && ids[k] < j) ++k;
                    direct_[j] = std::uint32_t(ptr[k]);
                }
                return;
            }
            position_.assign(n_outer, kAbsent);
            for (std::size_t k = 0; k < num_ids; ++k) position_[ids[k]] = std::uint32_t(k);
            return;
        }
        // Smallest power-of-two bucket width with no more buckets than stored ids.
        const std::uint64_t target = std::max<std::uint64_t>(num_ids, 1);
        while ((std::uint64_t(n_outer) >> shift_) + 1 > target) ++shift_;
        const std::size_t nb = std::size_t(std::uint64_t(n_outer) >> shift_) + 1;
        aux_.assign(nb + 1, 0);
        std::size_t k = 0;
        for (std::size_t b = 0; b <= nb; ++b) {
            const std::uint64_t first_id = std::uint64_t(b) << shift_;
            while (k < num_ids && ids[k] < first_id) ++k;
            aux_[b] = std::uint32_t(k);
        }
    }

    /// Position k with ids[k] == j, or npos. `ids` must be the array the index was built on.
    std::size_t find(lindex_t j, const lindex_t* ids) const {
        if (!direct_.empty()) {
            // Kernels read ranges(); positions are found by a search where one is asked for.
            if (j + std::size_t(1) >= direct_.size() || direct_[j] == direct_[j + 1]) return npos;
            return std::size_t(std::lower_bound(ids, ids + num_ids_, j) - ids);
        }
        if (!position_.empty()) {
            if (j >= position_.size()) return npos;
            const std::uint32_t p = position_[j];
            return p == kAbsent ? npos : std::size_t(p);
        }
        const std::size_t b = std::size_t(std::uint64_t(j) >> shift_);
        if (b + 1 >= aux_.size()) return npos;
        std::size_t lo = aux_[b];
        const std::size_t hi = aux_[b + 1];
        if (hi - lo > 16) {
            const lindex_t* p = std::lower_bound(ids + lo, ids + hi, j);
            return (p != ids + hi && *p == j) ? std::size_t(p - ids) : npos;
        }
        for (; lo < hi; ++lo) {
            if (ids[lo] >= j) return ids[lo] == j ? lo : npos;
        }
        return npos;
    }

    /// The entry offsets of every outer id (`n_outer + 1` of them: outer id j holds entries
    /// `[ranges()[j], ranges()[j + 1])`), or nullptr when the index does not keep them.
    const std::uint32_t* ranges() const { return direct_.empty() ? nullptr : direct_.data(); }
    /// log2 of the bucket width.
    unsigned shift() const { return shift_; }
    /// Bytes held by the index.
    std::size_t memory_bytes() const {
        return (aux_.capacity() + position_.capacity() + direct_.capacity()) *
               sizeof(std::uint32_t);
    }

private:
    static constexpr std::uint32_t kAbsent = ~std::uint32_t(0);
    unsigned shift_ = 0;
    std::vector<std::uint32_t> aux_;
    std::vector<std::uint32_t> position_;  ///< every outer id's position (dense blocks)
    std::vector<std::uint32_t> direct_;    ///< every outer id's entry offsets (dense blocks)
    std::size_t num_ids_ = 0;              ///< stored outer ids (read by find() beside direct_)
};

/// A non-owning view of a compressed block: outer index k in `[0, num_outer)` holds entries
/// `ptr[k] .. ptr[k+1]-1` with inner ids `inner[...]` and values `(*vals)[...]`.
///
/// The kernels compute `y(i) = ⊕_j S::mul(A(i,j), x(j))`; the caller decides which index is
/// outer. Push kernels (SpMSpV) want outer = j (a Dcsc of A, or a Csr of Aᵀ); pull kernels
/// want outer = i (a Csr of A, or a Dcsc of Aᵀ for hypersparse blocks).
template <class A>
struct CompressedView {
    using value_type = A;

    lindex_t n_outer = 0;  ///< size of the outer index space
    lindex_t n_inner = 0;  ///< size of the inner index space
    /// Ascending ids of the stored outer indices; nullptr when every outer index 0..n_outer-1
    /// has a pointer (CSR/CSC), so that position k is id k.
    const lindex_t* outer_ids = nullptr;
    std::size_t num_outer = 0;            ///< entries in `ptr` minus one
    const offset_t* ptr = nullptr;        ///< `num_outer + 1` offsets
    const lindex_t* inner = nullptr;      ///< inner id of each entry
    const ValueArray<A>* vals = nullptr;  ///< value of each entry (unused for Pattern)
    /// Optional bucket index over `outer_ids`; without it lookups binary-search.
    const OuterLookup* lookup = nullptr;
    /// Entry offsets of every outer id (`n_outer + 1`) when `lookup` keeps them, else nullptr.
    const std::uint32_t* ranges = nullptr;

    /// Number of stored entries.
    std::size_t nnz() const { return num_outer == 0 ? 0 : std::size_t(ptr[num_outer]); }
    /// Outer id stored at position k.
    lindex_t outer_id(std::size_t k) const { return outer_ids ? outer_ids[k] : lindex_t(k); }
    /// Position of outer id j (j < n_outer), or npos when j has no entries.
    std::size_t find_outer(lindex_t j) const {
        if (!outer_ids) return j;
        if (lookup) return lookup->find(j, outer_ids);
        const lindex_t* end = outer_ids + num_outer;
        const lindex_t* p = std::lower_bound(outer_ids, end, j);
        return (p != end && *p == j) ? std::size_t(p - outer_ids) : npos;
    }
    /// Entry offsets [first, last) of outer id j (j < n_outer); first == last when j has
    /// no entries. One read through `ranges` or a CSR's pointers, a find and then the
    /// pointers otherwise.
    std::pair<offset_t, offset_t> outer_range(lindex_t j) const {
        if (ranges) return {ranges[j], ranges[j + 1]};
        if (!outer_ids) return {ptr[j], ptr[j + 1]};
        const std::size_t k = find_outer(j);
        if (k == npos) return {0, 0};
        return {ptr[k], ptr[k + 1]};
    }
    /// Starts loading what outer_range(j) reads first, where that is one array.
    void prefetch_outer(lindex_t j) const {
        if (ranges) {
            __builtin_prefetch(ranges + j);
        } else if (!outer_ids) {
            __builtin_prefetch(ptr + j);
        }
    }
};

/// View of a DCSC block: outer = column, inner = row. Pass a lookup built by
/// make_lookup() on the same block to make find_outer() O(1) expected.
template <class A>
CompressedView<A> make_view(const Dcsc<A>& m, const OuterLookup* lookup = nullptr) {
    CompressedView<A> v;
    v.n_outer = m.ncols();
    v.n_inner = m.nrows();
    // An empty block still needs a non-null id list: nullptr would mean "every column".
    static constexpr lindex_t no_ids[1] = {0};
    v.outer_ids = m.nzc() > 0 ? m.jc().data() : no_ids;
    v.num_outer = m.nzc();
    v.ptr = m.cp().data();
    v.inner = m.ir().data();
    v.vals = &m.num();
    v.lookup = lookup;
    v.ranges = lookup ? lookup->ranges() : nullptr;
    return v;
}

/// View of a CSR block: outer = row, inner = column.
template <class A>
CompressedView<A> make_view(const Csr<A>& m) {
    CompressedView<A> v;
    v.n_outer = m.nrows();
    v.n_inner = m.ncols();
    v.outer_ids = nullptr;
    v.num_outer = m.nrows();
    v.ptr = m.rowptr().data();
    v.inner = m.colind().data();
    v.vals = &m.vals();
    return v;
}

/// The bucket index of a DCSC block's column ids (build once per matrix).
template <class A>
OuterLookup make_lookup(const Dcsc<A>& m) {
    return OuterLookup(m.jc().data(), m.nzc(), m.ncols(), m.cp().data());
}

namespace detail {

/// Reads entry values through a raw pointer; yields Pattern{} for pattern-only storage.
template <class T>
struct ValueReader {
    const T* p = nullptr;
    explicit ValueReader(const ValueArray<T>* a) : p(a ? a->data() : nullptr) {}
    T operator()(std::size_t k) const { return p[k]; }
};
template <>
struct ValueReader<Pattern> {
    explicit ValueReader(const ValueArray<Pattern>*) {}
    Pattern operator()(std::size_t) const { return {}; }
};

/// Tests bit i of a word array.
inline bool test_bit(const std::uint64_t* w, lindex_t i) { return (w[i >> 6] >> (i & 63)) & 1u; }

}  // namespace detail
}  // namespace gridblas::kernels
