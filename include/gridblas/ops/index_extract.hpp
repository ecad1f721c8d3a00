#pragma once
/// @file index_extract.hpp
/// @brief Extracting a submatrix or a subvector selected by index lists, GrB_extract of the
/// GraphBLAS C API 2.1 (§4.3.6.1 vector, §4.3.6.2 matrix):
///
///     C⟨M⟩ = accum(C, A(I, J))    extract:  T(p, q) = A(I[p], J[q]) (Aᵀ with transpose_a)
///     w⟨m⟩ = accum(w, u(I))       extract:  t(p) = u(I[p])
///
/// Indices may repeat (an entry of A then appears several times in T). The index lists are
/// host arrays that every rank must pass alike (same lengths, same values in the same order):
/// the argument checks read them on every rank and must reach the same verdict without
/// communicating. Each rank looks up its own entries of A (u) in the lists and sends each
/// selected entry to the owner of its position in C (w); then the output stage runs.

#include <span>
#include <string>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/arg_checks.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/matrix_ops_common.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "gridblas/vector/dist_vector.hpp"

namespace gridblas {

/// C⟨mask⟩ = accum(C, T) with T = A(I, J): T(p, q) = A(I[p], J[q]) wherever that entry of A
/// exists (Aᵀ(I, J) with desc.transpose_a). C must be |I| x |J|; I and J may repeat indices
/// and must be the same on every rank. The mask is valued or structural, complemented, with
/// replace, per `desc`.
///
/// Collective: the selected entries move to their owners in C, then C's blocks are rebuilt
/// (a transposed A is transposed first). C may be the same object as A or the mask.
/// @param accum no_accum or a callable accum(C(i,j), T(i,j))
/// @throws InvalidValue (an operand uninitialised or on another grid than C),
///         DimensionMismatch (C is not |I| x |J|, or the mask not C's shape),
///         IndexOutOfBounds (an index outside A's rows / columns as read), NotSupported
///         (a relabelled operand, or a grid on the cuda backend): on every rank alike,
///         before any communication, C unchanged.
template <class W, class Mask, class Accum, class AV>
void extract(DistMatrix<W>& c, const Mask& mask, Accum accum, const DistMatrix<AV>& a,
             std::span<const gindex_t> rows, std::span<const gindex_t> cols,
             const Descriptor& desc = {}) {
    constexpr const char* name = "extract";
    detail::check_matrix_output(name, c, mask);
    detail::check_initialised(name, "A", a);
    if (a.grid() != c.grid()) throw InvalidValue("extract: C and A live on different grids");
    detail::check_not_relabelled(name, "A", a);
    if (c.nrows() != gindex_t(rows.size()) || c.ncols() != gindex_t(cols.size())) {
        throw DimensionMismatch("extract: C is " + std::to_string(c.nrows()) + " x " +
                                std::to_string(c.ncols()) + " but I and J select " +
                                std::to_string(rows.size()) + " x " + std::to_string(cols.size()));
    }
    const bool tr = desc.transpose_a;
    detail::check_index_list(name, "I", rows, tr ? a.ncols() : a.nrows());
    detail::check_index_list(name, "J", cols, tr ? a.nrows() : a.ncols());

    const detail::OperandView<AV> at(a, tr);
    const detail::IndexPositions ip(rows), jp(cols);
    std::vector<gindex_t> tr_rows, tr_cols;
    ValueArray<AV> tv;
    gindex_t last = -1;
    std::vector<gindex_t> ps;  // positions of the current row in I
    at->for_each_local([&](gindex_t i, gindex_t j, const AV& x) {
        if (i != last) {
            last = i;
            ps.clear();
            ip.for_each(i, [&](gindex_t p) { ps.push_back(p); });
        }
        if (ps.empty()) return;
        jp.for_each(j, [&](gindex_t q) {
            for (gindex_t p : ps) {
                tr_rows.push_back(p);
                tr_cols.push_back(q);
                tv.push_back(x);
            }
        });
    });
    const Csr<AV> t =
        detail::route_to_block<AV>(c.grid(), c.nrows(), c.ncols(), tr_rows, tr_cols, tv);
    const detail::MatrixMask m = detail::make_matrix_mask(mask, desc);
    apply_matrix_output_stage(c, m, accum, t, desc);
}

/// w⟨mask⟩ = accum(w, t) with t = u(I): t(p) = u(I[p]) wherever that entry of u exists. w must
/// have length |I|; I may repeat indices and must be the same on every rank.
///
/// Collective: the selected entries move to their owners in w. w may be the same object as
/// u or the mask.
/// @throws InvalidValue (an operand uninitialised or on another grid than w),
///         DimensionMismatch (w's length is not |I|, or the mask's not w's),
///         IndexOutOfBounds (an index outside u): on every rank alike, before any
///         communication, w unchanged.
template <class W, class Mask, class Accum, class U>
void extract(DistVector<W>& w, const Mask& mask, Accum accum, const DistVector<U>& u,
             std::span<const gindex_t> idx, const Descriptor& desc = {}) {
    constexpr const char* name = "extract";
    detail::check_initialised(name, "w", w);
    detail::check_initialised(name, "u", u);
    if (u.grid() != w.grid()) throw InvalidValue("extract: w and u live on different grids");
    detail::check_cpu_grid(name, *w.grid());
    detail::check_mask(name, w, mask);
    if (w.size() != gindex_t(idx.size())) {
        throw DimensionMismatch("extract: w has size " + std::to_string(w.size()) +
                                " but I selects " + std::to_string(idx.size()) + " indices");
    }
    detail::check_index_list(name, "I", idx, u.size());

    const detail::IndexPositions ip(idx);
    std::vector<gindex_t> ti;
    ValueArray<U> tv;
    u.for_each_local([&](gindex_t g, const U& x) {
        ip.for_each(g, [&](gindex_t p) {
            ti.push_back(p);
            tv.push_back(x);
        });
    });
    const DistVector<U> t = DistVector<U>::from_tuples(w.grid(), w.size(), ti, tv);
    detail::to_sparse_first(w);
    const detail::LocalMask m = detail::make_local_mask(mask, desc);
    apply_output_stage(w, m, accum, t.sparse(), desc);
}

}  // namespace gridblas
