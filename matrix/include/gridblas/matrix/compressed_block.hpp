#pragma once
/// @file compressed_block.hpp
/// @brief One local block of a distributed matrix compressed along a chosen "outer" index,
/// stored as DCSC or as CSR.
///
/// A DistMatrix keeps each block twice: compressed by row (outer = local row, for row access:
/// the push kernels of vxm and the pull kernels of mxv) and compressed by column (outer =
/// local column). With `LocalFormat::dcsc` a block compressed by column is the DCSC of the
/// block and a block compressed by row the DCSC of its transpose; with `LocalFormat::csr` the
/// by-row block is the CSR of the block and the by-column block the CSR of its transpose
/// (i.e. CSC). Either way `outer` is what the kernels iterate over.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "gridblas/core/error.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/coo.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dcsc.hpp"

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
    std::uint64_t stamp_;
    LocalFormat fmt_ = LocalFormat::dcsc;
    Dcsc<T> dcsc_;
    Csr<T> csr_;
};

}  // namespace gridblas
