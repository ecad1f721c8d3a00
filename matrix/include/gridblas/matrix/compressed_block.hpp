#pragma once
/// @file compressed_block.hpp
/// @brief One local block of a distributed matrix compressed along a chosen "outer" index,
/// stored as DCSC or as CSR.
///
/// A DistMatrix keeps each block in two compressions: compressed by row (outer = local row, for row
/// access: the push kernels of vxm and the pull kernels of mxv) and compressed by column (outer =
/// local column). With `LocalFormat::dcsc` a block compressed by column is the DCSC of the
/// block and a block compressed by row the DCSC of its transpose; with `LocalFormat::csr` the
/// by-row block is the CSR of the block and the by-column block the CSR of its transpose
/// (i.e. CSC). Either way `outer` is what the kernels iterate over. A block equal to its
/// transpose (is_symmetric()) is kept once and serves as both.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>
#if defined(_OPENMP)
#include <omp.h>
#endif

#include "gridblas/core/error.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/coo.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dcsc.hpp"
#include "gridblas/matrix/detail/compress.hpp"
#include "gridblas/matrix/detail/huge_pages.hpp"

namespace gridblas {

/// Storage format of the local blocks of a distributed matrix.
enum class LocalFormat { dcsc, csr };

/// "dcsc" / "csr" and the reverse (InvalidValue on anything else).
inline std::string to_string(LocalFormat f) { return f == LocalFormat::dcsc ? "dcsc" : "csr"; }
inline LocalFormat parse_local_format(const std::string& s) {
    if (s == "dcsc") return LocalFormat::dcsc;
    if (s == "csr") return LocalFormat::csr;
    throw InvalidValue("local format '" + s + "' (expected dcsc or csr)");
}

namespace detail {
/// Source of CompressedBlock::stamp() values (0 is never handed out).
inline std::atomic<std::uint64_t> next_block_stamp{1};
}  // namespace detail

/// A block compressed along its outer index, as DCSC (outer = DCSC column) or CSR (outer =
/// CSR row).
template <class T>
class CompressedBlock {
public:
    CompressedBlock() : stamp_(detail::next_block_stamp.fetch_add(1)) {}

    /// Builds from (outer, inner, value) tuples; duplicates are handled by `policy`.
    template <class Combine = KeepLast>
    static CompressedBlock build(LocalFormat fmt, lindex_t n_outer, lindex_t n_inner,
                                 std::span<const lindex_t> outer, std::span<const lindex_t> inner,
                                 const ValueArray<T>& vals,
                                 DuplicatePolicy policy = DuplicatePolicy::reject,
                                 Combine combine = {}) {
        CompressedBlock b;
        b.fmt_ = fmt;
        if (fmt == LocalFormat::dcsc) {
            b.dcsc_ = Dcsc<T>::from_tuples(n_inner, n_outer, inner, outer, vals, policy, combine);
        } else {
            b.csr_ = Csr<T>::from_tuples(n_outer, n_inner, outer, inner, vals, policy, combine);
        }
        return b;
    }

    /// Takes over compress() output whose major index is the outer one.
    static CompressedBlock from_compressed(LocalFormat fmt, lindex_t n_outer, lindex_t n_inner,
                                           detail::Compressed<T>&& c) {
        CompressedBlock b;
        b.fmt_ = fmt;
        if (fmt == LocalFormat::dcsc) {
            b.dcsc_ = Dcsc<T>::from_compressed(n_inner, n_outer, std::move(c));
        } else {
            b.csr_ = Csr<T>::from_compressed(n_outer, n_inner, std::move(c));
        }
        return b;
    }

    /// Builds from arrays in CSR layout over the outer index: outer k holds entries
    /// ptr[k] .. ptr[k+1]-1 (ptr has n_outer + 1 offsets) with ascending, distinct inner ids.
    /// The arrays are taken over; for DCSC only the non-empty outer ids are kept.
    static CompressedBlock from_outer_arrays(LocalFormat fmt, lindex_t n_outer, lindex_t n_inner,
                                             std::vector<offset_t> ptr, std::vector<lindex_t> inner,
                                             ValueArray<T> vals) {
        CompressedBlock b;
        b.fmt_ = fmt;
        if (fmt == LocalFormat::csr) {
            b.csr_ = Csr<T>::from_arrays(n_outer, n_inner, std::move(ptr), std::move(inner),
                                         std::move(vals));
            return b;
        }
        std::size_t nonempty = 0;
        for (lindex_t k = 0; k < n_outer; ++k) nonempty += ptr[k + 1] > ptr[k];
        std::vector<lindex_t> jc;
        std::vector<offset_t> cp;
        detail::reserve_huge(jc, nonempty);
        detail::reserve_huge(cp, nonempty + 1);
        cp.push_back(0);
        for (lindex_t k = 0; k < n_outer; ++k) {
            if (ptr[k + 1] > ptr[k]) {
                jc.push_back(k);
                cp.push_back(ptr[k + 1]);
            }
        }
        b.dcsc_ = Dcsc<T>::from_arrays(n_inner, n_outer, std::move(jc), std::move(cp),
                                       std::move(inner), std::move(vals));
        return b;
    }

    /// The same entries compressed along the other index (outer and inner swapped), in
    /// format `fmt`: a counting sort, O(nnz + n_inner), parallel over outer ranges with one
    /// histogram per thread when those fit in a few times the block's own size.
    CompressedBlock swapped(LocalFormat fmt) const {
        const lindex_t n_new = n_inner();
        const std::size_t total = nnz();
        const auto [num_outer, op, ids, in, val] = outer_arrays();
        int parts = 1;
#if defined(_OPENMP)
        parts = omp_get_max_threads();
#endif
        if (total < (std::size_t(1) << 16) ||
            std::size_t(n_new) * std::size_t(parts) > 4 * total + 4096) {
            parts = 1;
        }
        // hist[t][c]: entries of column c in part t, turned into write positions.
        std::vector<std::vector<offset_t>> hist(static_cast<std::size_t>(parts));
        auto part_range = [&](int t) {
            return std::pair<std::size_t, std::size_t>{num_outer * std::size_t(t) / parts,
                                                       num_outer * std::size_t(t + 1) / parts};
        };
#pragma omp parallel for num_threads(parts) schedule(static, 1)
        for (int t = 0; t < parts; ++t) {
            auto& h = hist[std::size_t(t)];
            h.assign(n_new, 0);
            const auto [k0, k1] = part_range(t);
            for (offset_t p = op[k0]; p < op[k1]; ++p) ++h[in[p]];
        }
        std::vector<offset_t> ptr;
        detail::reserve_huge(ptr, std::size_t(n_new) + 1);
        ptr.assign(std::size_t(n_new) + 1, 0);
        offset_t run = 0;
        for (lindex_t c = 0; c < n_new; ++c) {
            ptr[c] = run;
            for (int t = 0; t < parts; ++t) {
                const offset_t x = hist[std::size_t(t)][c];
                hist[std::size_t(t)][c] = run;
                run += x;
            }
        }
        ptr[n_new] = run;
        std::vector<lindex_t> inner;
        detail::reserve_huge(inner, total);  // read at random by the searches
        inner.resize(total);
        ValueArray<T> vals;
        vals.reserve_huge(total);
        vals.resize(total);
#pragma omp parallel for num_threads(parts) schedule(static, 1)
        for (int t = 0; t < parts; ++t) {
            auto& at = hist[std::size_t(t)];
            const auto [k0, k1] = part_range(t);
            for (std::size_t k = k0; k < k1; ++k) {
                const lindex_t outer = ids ? ids[k] : lindex_t(k);
                for (offset_t p = op[k]; p < op[k + 1]; ++p) {
                    const offset_t q = at[in[p]]++;
                    inner[q] = outer;
                    if constexpr (!std::is_same_v<T, Pattern>) vals[q] = val[p];
                }
            }
        }
        return from_outer_arrays(fmt, n_new, n_outer(), std::move(ptr), std::move(inner),
                                 std::move(vals));
    }

    /// Whether the block equals its transpose (square, every entry (o, i) matched by an
    /// entry (i, o) with an equal value), so that it can serve as its own compression along
    /// the other index. One pass in outer order with a cursor per outer index: the mirrors
    /// of outer o's entries are met in ascending o, which is their order within each of
    /// their own outers. O(nnz) time and O(n) memory, and no transpose is built.
    bool is_symmetric() const {
        const lindex_t n = n_outer();
        if (n != n_inner()) return false;
        const auto [num_outer, op, ids, in, val] = outer_arrays();
        // next[o] .. end[o]: outer o's entries not yet matched as a mirror.
        std::vector<offset_t> next(std::size_t(n), 0), end(std::size_t(n), 0);
        for (std::size_t k = 0; k < num_outer; ++k) {
            const lindex_t o = ids ? ids[k] : lindex_t(k);
            next[o] = op[k];
            end[o] = op[k + 1];
        }
        for (std::size_t k = 0; k < num_outer; ++k) {
            const lindex_t o = ids ? ids[k] : lindex_t(k);
            for (offset_t p = op[k]; p < op[k + 1]; ++p) {
                const lindex_t i = in[p];
                const offset_t q = next[i];
                if (q == end[i] || in[q] != o) return false;
                if constexpr (!std::is_same_v<T, Pattern>) {
                    if (!(val[q] == val[p])) return false;
                }
                next[i] = q + 1;
            }
        }
        // Every entry took a distinct mirror, so the mirrors are all the entries.
        return true;
    }

    /// An id of this block's contents, unique within the process: every built block gets a
    /// new one and copies keep it, so caches of derived data (device copies, lookup tables)
    /// can tell a rebuilt block from the one they were made for even at the same address.
    std::uint64_t stamp() const { return stamp_; }

    LocalFormat format() const { return fmt_; }
    lindex_t n_outer() const { return fmt_ == LocalFormat::dcsc ? dcsc_.ncols() : csr_.nrows(); }
    lindex_t n_inner() const { return fmt_ == LocalFormat::dcsc ? dcsc_.nrows() : csr_.ncols(); }
    std::size_t nnz() const { return fmt_ == LocalFormat::dcsc ? dcsc_.nnz() : csr_.nnz(); }
    std::size_t memory_bytes() const {
        return fmt_ == LocalFormat::dcsc ? dcsc_.memory_bytes() : csr_.memory_bytes();
    }
    /// The DCSC (valid when format() == dcsc): its columns are the outer index.
    const Dcsc<T>& dcsc() const { return dcsc_; }
    /// The CSR (valid when format() == csr): its rows are the outer index.
    const Csr<T>& csr() const { return csr_; }

    /// Calls f(outer, inner, value) for every entry, outer ascending.
    template <class F>
    void for_each(F&& f) const {
        if (fmt_ == LocalFormat::dcsc) {
            const auto& jc = dcsc_.jc();
            const auto& cp = dcsc_.cp();
            for (std::size_t k = 0; k < jc.size(); ++k) {
                for (offset_t p = cp[k]; p < cp[k + 1]; ++p)
                    f(jc[k], dcsc_.ir()[p], dcsc_.num()[p]);
            }
        } else {
            const auto& rp = csr_.rowptr();
            for (lindex_t i = 0; i < csr_.nrows(); ++i) {
                for (offset_t p = rp[i]; p < rp[i + 1]; ++p) f(i, csr_.colind()[p], csr_.vals()[p]);
            }
        }
    }

private:
    /// The stored outers whatever the format: how many, their entry offsets (num_outer + 1),
    /// their ids (null for CSR, where stored outer k is outer k), the inner ids and values.
    struct OuterArrays {
        std::size_t num_outer;
        const offset_t* ptr;
        const lindex_t* ids;
        const lindex_t* inner;
        const ValueArray<T>& vals;
    };
    OuterArrays outer_arrays() const {
        if (fmt_ == LocalFormat::dcsc) {
            return {dcsc_.nzc(), dcsc_.cp().data(), dcsc_.jc().data(), dcsc_.ir().data(),
                    dcsc_.num()};
        }
        return {std::size_t(csr_.nrows()), csr_.rowptr().data(), nullptr, csr_.colind().data(),
                csr_.vals()};
    }

    std::uint64_t stamp_;
    LocalFormat fmt_ = LocalFormat::dcsc;
    Dcsc<T> dcsc_;
    Csr<T> csr_;
};

}  // namespace gridblas
