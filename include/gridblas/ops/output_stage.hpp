#pragma once
/// @file output_stage.hpp
/// @brief The output stage shared by every operation: w⟨mask⟩ = accum(w, t), with
/// structural/valued and complemented masks and replace, exactly as the GraphBLAS C API 2.1
/// (§2.5 "the mask, accumulate and replace" steps). It runs on one rank's piece: the result
/// t, the output w and the mask are all distributed alike, so no communication is needed.

#include <cstddef>
#include <type_traits>
#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/vector/dist_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas {

namespace detail {

/// Local mask test over a piece: allowed(i) per the descriptor. A structural mask held as a
/// bitmap is used in place (no copy); other masks are turned into bits once.
class LocalMask {
public:
    /// No mask: everything allowed, or nothing when complemented.
    explicit LocalMask(bool complement) : none_(true), complement_(complement) {}

    template <class M>
    LocalMask(const DistVector<M>& m, const Descriptor& d)
        : none_(false), complement_(d.mask_complement) {
        if (m.format() != VectorFormat::sparse &&
            (d.mask_structural || std::is_same_v<M, Pattern>)) {
            bits_ = m.bitmap().words().data();
            source_ = &m;
            return;
        }
        own_.assign(bitmap_words(m.local_size()), 0);
        m.for_each_local([&](gindex_t g, const M& v) {
            bool keep = true;
            if constexpr (!std::is_same_v<M, Pattern>) {
                keep = d.mask_structural || bool(v);
            }
            if (keep) {
                const auto i = std::size_t(g - m.local_begin());
                own_[i >> 6] |= std::uint64_t(1) << (i & 63);
            }
        });
        bits_ = own_.data();
    }

    /// A copy reads the same borrowed bits, or its own copy of owned bits.
    LocalMask(const LocalMask& o)
        : none_(o.none_),
          complement_(o.complement_),
          bits_(o.bits_),
          own_(o.own_),
          source_(o.source_) {
        if (!source_) bits_ = own_.data();
    }
    LocalMask& operator=(const LocalMask&) = delete;

    /// The vector whose bitmap this mask reads in place; null when it owns its bits.
    const void* borrowed_from() const { return source_; }
    /// A copy that owns its bits (`n` is the length of the piece).
    LocalMask owning_copy(lindex_t n) const {
        LocalMask c(*this);
        if (source_) {
            c.own_.assign(bits_, bits_ + bitmap_words(n));
            c.bits_ = c.own_.data();
            c.source_ = nullptr;
        }
        return c;
    }

    bool allows(lindex_t i) const {
        if (none_) return !complement_;
        const bool in = (bits_[i >> 6] >> (i & 63)) & 1u;
        return in != complement_;
    }
    /// The allowed positions 64w .. 64w+63 of the piece as bits (w below bitmap_words of
    /// the piece's length; bits past its end are unspecified).
    std::uint64_t allowed_word(std::size_t w) const {
        if (none_) return complement_ ? 0 : ~std::uint64_t(0);
        return complement_ ? ~bits_[w] : bits_[w];
    }
    /// True when the mask lets every position through (no mask, not complemented).
    bool all() const { return none_ && !complement_; }
    bool complement() const { return complement_; }
    /// The mask's bits over the piece (null without a mask vector); allows(i) is bit i,
    /// flipped when complement().
    const std::uint64_t* bits() const { return none_ ? nullptr : bits_; }
    bool none() const { return none_; }

private:
    bool none_;
    bool complement_;
    const std::uint64_t* bits_ = nullptr;
    std::vector<std::uint64_t> own_;
    const void* source_ = nullptr;  // vector whose bitmap bits_ points into, if any
};

template <class M>
LocalMask make_local_mask(const M& mask, const Descriptor& d) {
    if constexpr (std::is_same_v<M, NoMask>) {
        return LocalMask(d.mask_complement);
    } else {
        return LocalMask(mask, d);
    }
}

}  // namespace detail

/// Applies w⟨mask⟩ = accum(w, t) on this rank's piece, where `t` holds the operation's
/// result for the piece (local indices, ascending). `accum` is NoAccum or a callable
/// accum(w_value, t_value). `t` must not be w's own piece (copy it first).
template <class W, class Accum, class TV>
void apply_output_stage(DistVector<W>& w, const detail::LocalMask& mask, Accum accum,
                        const SparseVector<TV>& t, const Descriptor& d) {
    if (mask.borrowed_from() == static_cast<const void*>(&w)) {
        // w⟨w, structural⟩ with w a bitmap: the mask reads w's own bits, which converting w
        // to sparse below would free. Work with a copy of the mask that owns its bits.
        const detail::LocalMask own = mask.owning_copy(w.local_size());
        apply_output_stage(w, own, accum, t, d);
        return;
    }
    if constexpr (std::is_same_v<Accum, NoAccum>) {
        // Without an accumulator and with replace (or an empty w) the result is t where the
        // mask allows it: rewrite w in place, reusing its buffers.
        if (d.replace || w.local_nvals() == 0) {
            SparseVector<W>& out = w.sparse();
            out.clear();
            for (std::size_t k = 0; k < t.nvals(); ++k) {
                if (mask.allows(t.indices()[k])) out.push_back(t.indices()[k], W(t.values()[k]));
            }
            return;
        }
    }
    const SparseVector<W>& old = w.sparse();
    SparseVector<W> out(w.local_size());
    const auto& oi = old.indices();
    const auto& ti = t.indices();
    std::size_t a = 0, b = 0;
    // Merge the old entries of w with t in index order.
    while (a < oi.size() || b < ti.size()) {
        const lindex_t ia = a < oi.size() ? oi[a] : lindex_t(-1);
        const lindex_t ib = b < ti.size() ? ti[b] : lindex_t(-1);
        const lindex_t i = ia < ib ? ia : ib;
        const bool has_w = ia == i;
        const bool has_t = ib == i;
        if (mask.allows(i)) {
            // z = accum(w, t) where both exist; else whichever exists (t alone without accum).
            if constexpr (std::is_same_v<Accum, NoAccum>) {
                if (has_t) out.push_back(i, W(t.values()[b]));
            } else {
                if (has_w && has_t) {
                    out.push_back(i, W(accum(old.values()[a], W(t.values()[b]))));
                } else if (has_t) {
                    out.push_back(i, W(t.values()[b]));
                } else {
                    out.push_back(i, old.values()[a]);
                }
            }
        } else if (has_w && !d.replace) {
            out.push_back(i, old.values()[a]);
        }
        if (has_w) ++a;
        if (has_t) ++b;
    }
    w.sparse() = std::move(out);
}

}  // namespace gridblas
