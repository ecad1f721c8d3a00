#pragma once
/// @file index_assign_detail.hpp
/// @brief Private helpers of assign / subassign with index lists (index_assign.hpp; GraphBLAS
/// C API 2.1 §4.3.7 and SuiteSparse's GxB_subassign): argument checks, the routing of A's
/// entries (and of a subassign mask) to C's owners, and the row merge of C's block with them.

#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/matrix_ops_common.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"
#include "gridblas/vector/dist_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas::detail {

/// Checks A (read transposed with desc.transpose_a) and the index lists of assign /
/// subassign: A on C's grid, not relabelled, |I| x |J| as read; I and J inside C, without
/// repeats. No communication; every rank reaches the same verdict.
template <class W, class AV>
void check_assign_input(const char* op, const DistMatrix<W>& c, const DistMatrix<AV>& a,
                        std::span<const gindex_t> rows, std::span<const gindex_t> cols,
                        const Descriptor& desc) {
    check_matrix_input(op, c, "A", a, desc.transpose_a, gindex_t(rows.size()),
                       gindex_t(cols.size()));
    check_index_list(op, "I", rows, c.nrows());
    check_index_list(op, "J", cols, c.ncols());
    check_index_list_unique(op, "I", rows);
    check_index_list_unique(op, "J", cols);
}

/// A's entries at their positions in C: A(p, q) (Aᵀ with `transpose`) sent to the owner of
/// C(I[p], J[q]); this rank's block of that, in C's local ids. Collective.
template <class W, class AV>
Csr<AV> route_assigned(const DistMatrix<W>& c, const DistMatrix<AV>& a,
                       std::span<const gindex_t> rows, std::span<const gindex_t> cols,
                       bool transpose) {
    const OperandView<AV> at(a, transpose);
    std::vector<gindex_t> sr, sc;
    ValueArray<AV> sv;
    sr.reserve(at->local_nvals());
    sc.reserve(at->local_nvals());
    sv.reserve(at->local_nvals());
    at->for_each_local([&](gindex_t p, gindex_t q, const AV& x) {
        sr.push_back(rows[std::size_t(p)]);
        sc.push_back(cols[std::size_t(q)]);
        sv.push_back(x);
    });
    return route_to_block<AV>(c.grid(), c.nrows(), c.ncols(), sr, sc, sv);
}

/// The positions where a subassign mask (|I| x |J|) is on — every entry when structural,
/// those whose value converts to true otherwise — sent to the owners of C(I[p], J[q]); this
/// rank's block of them, in C's local ids. Collective.
template <class W, class M>
Csr<Pattern> route_mask(const DistMatrix<W>& c, const DistMatrix<M>& mask,
                        std::span<const gindex_t> rows, std::span<const gindex_t> cols,
                        bool structural) {
    std::vector<gindex_t> mr, mc;
    ValueArray<Pattern> mv;
    mask.for_each_local([&](gindex_t p, gindex_t q, const M& x) {
        bool on = true;
        if constexpr (!std::is_same_v<M, Pattern>) on = structural || bool(x);
        if (on) {
            mr.push_back(rows[std::size_t(p)]);
            mc.push_back(cols[std::size_t(q)]);
            mv.push_back(Pattern{});
        }
    });
    return route_to_block<Pattern>(c.grid(), c.nrows(), c.ncols(), mr, mc, mv);
}

/// Which local rows and columns of C's block the index lists name.
struct Region {
    std::vector<char> row_in;
    std::vector<char> col_in;
    template <class W>
    Region(const DistMatrix<W>& c, std::span<const gindex_t> rows, std::span<const gindex_t> cols)
        : row_in(std::size_t(block_rows(c)), 0), col_in(std::size_t(block_cols(c)), 0) {
        const int gi = c.grid()->my_row();
        const int gj = c.grid()->my_col();
        for (gindex_t g : rows) {
            if (c.row_dist().row_block_of(g) == gi) row_in[c.row_dist().local_row(g)] = 1;
        }
        for (gindex_t g : cols) {
            if (c.col_dist().col_block_of(g) == gj) col_in[c.col_dist().local_col(g)] = 1;
        }
    }
};

/// How subassign masks the region: `active` false for assign (the region takes Z whole and
/// the usual output stage masks all of C afterwards).
struct SubMask {
    bool active = false;
    bool none = true;
    bool complement = false;
    bool replace = false;
};

/// This rank's block of C after writing the routed A block `s` into the region: outside the
/// region C's entries are kept; inside, with `sub.active` false (assign), Z = accum(C, S) over
/// the union with accum, Z = S without; with `sub.active` (subassign), the output stage of
/// the region under the routed mask `mask_block` (null when there is none). No communication.
template <class W, class SV, class Accum>
Csr<W> assign_merge(const DistMatrix<W>& c, const Csr<SV>& s, const Region& region, Accum& accum,
                    const SubMask& sub, const Csr<Pattern>* mask_block) {
    const RowAccess<W> rc(c.by_row());
    const kernels::detail::ValueReader<W> vc(rc.view().vals);
    const kernels::detail::ValueReader<SV> vs(&s.vals());
    const lindex_t nrows = block_rows(c);
    CsrRowBuilder<W> out(nrows, block_cols(c));
    for (lindex_t r = 0; r < nrows; ++r) {
        auto [p, pe] = rc.range(r);
        std::size_t q = s.rowptr()[r], qe = s.rowptr()[r + 1];
        if (p == pe && q == qe) continue;
        out.start_row(r);
        if (!region.row_in[r]) {
            for (; p < pe; ++p) out.push(rc.col(p), vc(p));
            continue;
        }
        std::size_t mp = 0, me = 0;
        if (sub.active && !sub.none) {
            mp = mask_block->rowptr()[r];
            me = mask_block->rowptr()[r + 1];
        }
        while (p < pe || q < qe) {
            const lindex_t jc = p < pe ? rc.col(p) : lindex_t(-1);
            const lindex_t js = q < qe ? s.colind()[q] : lindex_t(-1);
            const lindex_t j = jc < js ? jc : js;
            const bool has_c = jc == j, has_s = js == j;
            if (!region.col_in[j]) {
                if (has_c) out.push(j, vc(p));  // S holds nothing outside the region
            } else {
                bool allowed = true;
                if (sub.active) {
                    bool in = !sub.none;
                    if (!sub.none) {
                        while (mp < me && mask_block->colind()[mp] < j) ++mp;
                        in = mp < me && mask_block->colind()[mp] == j;
                    }
                    allowed = sub.none ? !sub.complement : in != sub.complement;
                }
                if (allowed) {
                    if constexpr (std::is_same_v<Accum, NoAccum>) {
                        if (has_s) out.push(j, cast_value<W>(vs(q)));
                    } else {
                        if (has_c && has_s) {
                            out.push(j, cast_value<W>(accum(vc(p), cast_value<W>(vs(q)))));
                        } else if (has_s) {
                            out.push(j, cast_value<W>(vs(q)));
                        } else {
                            out.push(j, vc(p));
                        }
                    }
                } else if (has_c && !sub.replace) {
                    out.push(j, vc(p));
                }
            }
            if (has_c) ++p;
            if (has_s) ++q;
        }
    }
    return out.finish();
}

/// The vector form of assign_merge (no subassign mask): w's piece with the routed piece `s`
/// written at the indices of `idx` that this rank owns.
template <class W, class U, class Accum>
SparseVector<W> assign_merge_vector(DistVector<W>& w, const SparseVector<U>& s,
                                    std::span<const gindex_t> idx, Accum& accum) {
    const gindex_t begin = w.local_begin();
    const lindex_t n = w.local_size();
    std::vector<char> in(std::size_t(n), 0);
    for (gindex_t g : idx) {
        if (g >= begin && g < begin + gindex_t(n)) in[std::size_t(g - begin)] = 1;
    }
    const SparseVector<W>& old = w.sparse();
    const auto& oi = old.indices();
    const auto& si = s.indices();
    SparseVector<W> z(n);
    std::size_t a = 0, b = 0;
    while (a < oi.size() || b < si.size()) {
        const lindex_t ia = a < oi.size() ? oi[a] : lindex_t(-1);
        const lindex_t ib = b < si.size() ? si[b] : lindex_t(-1);
        const lindex_t i = ia < ib ? ia : ib;
        const bool has_w = ia == i, has_s = ib == i;
        if (!in[i]) {
            if (has_w) z.push_back(i, old.values()[a]);
        } else if constexpr (std::is_same_v<Accum, NoAccum>) {
            if (has_s) z.push_back(i, W(s.values()[b]));
        } else {
            if (has_w && has_s) {
                z.push_back(i, W(accum(old.values()[a], W(s.values()[b]))));
            } else if (has_s) {
                z.push_back(i, W(s.values()[b]));
            } else {
                z.push_back(i, old.values()[a]);
            }
        }
        if (has_w) ++a;
        if (has_s) ++b;
    }
    return z;
}

}  // namespace gridblas::detail
