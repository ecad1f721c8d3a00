#pragma once
/// @file index_assign.hpp
/// @brief Assigning a matrix or vector to a submatrix or subvector selected by index lists:
/// GrB_assign of the GraphBLAS C API 2.1 (§4.3.7.1 vector, §4.3.7.2 matrix) and SuiteSparse's
/// GxB_subassign:
///
///     C⟨M⟩(I, J) = accum(C(I, J), A)    assign:    the mask is C's size; with replace,
///                                                  entries of C outside the mask are
///                                                  deleted everywhere, also outside (I, J)
///     C(I, J)⟨M⟩ = accum(C(I, J), A)    subassign: the mask is A's size and applies to
///                                                  C(I, J) alone; C outside (I, J) is kept
///     w⟨m⟩(I) = accum(w(I), u)          assign on vectors
///
/// A is read transposed with desc.transpose_a. Indices must not repeat (InvalidValue). The
/// index lists are host arrays that every rank must pass alike (same lengths, same values in
/// the same order): the argument checks read them on every rank and reach the same verdict
/// without communicating. Each rank sends its entries of A (u) to the owners of their
/// positions (I[p], J[q]) in C; then every rank merges its block of C with what it received.

#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/arg_checks.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/index_assign_detail.hpp"
#include "gridblas/ops/matrix_ops_common.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "gridblas/vector/dist_vector.hpp"

namespace gridblas {

/// C⟨mask⟩(I, J) = accum(C(I, J), A) (GrB_Matrix_assign): Z is C with its (I, J) region
/// replaced by A — A(p, q) goes to C(I[p], J[q]); without accum, entries of C in the region
/// where A has none are deleted; with accum, accum(C(i,j), A(p,q)) where both exist — and
/// then C⟨mask⟩ = Z, so the mask (C's shape) and replace act on the whole of C.
/// A (Aᵀ with desc.transpose_a) must be |I| x |J|; I and J must not repeat an index and
/// must be the same on every rank.
///
/// Collective: A's entries move to their owners in C, then C's blocks are rebuilt (a
/// transposed A is transposed first). C may be the same object as A or the mask.
/// @param accum no_accum or a callable accum(C(i,j), A(p,q))
/// @throws InvalidValue (an operand uninitialised or on another grid than C, or an index
///         repeated in I or J), DimensionMismatch (A as read is not |I| x |J|, or the mask
///         not C's shape), IndexOutOfBounds (an index outside C), NotSupported (a relabelled
///         operand, or a grid on the cuda backend): on every rank alike, before any
///         communication, C unchanged.
template <class W, class Mask, class Accum, class AV>
void assign(DistMatrix<W>& c, const Mask& mask, Accum accum, const DistMatrix<AV>& a,
            std::span<const gindex_t> rows, std::span<const gindex_t> cols,
            const Descriptor& desc = {}) {
    detail::check_matrix_output("assign", c, mask);
    detail::check_assign_input("assign", c, a, rows, cols, desc);
    const Csr<AV> s = detail::route_assigned(c, a, rows, cols, desc.transpose_a);
    const detail::Region region(c, rows, cols);
    const Csr<W> z = detail::assign_merge(c, s, region, accum, detail::SubMask{}, nullptr);
    const detail::MatrixMask m = detail::make_matrix_mask(mask, desc);
    apply_matrix_output_stage(c, m, no_accum, z, desc);
}

/// C(I, J)⟨mask⟩ = accum(C(I, J), A) (GxB_subassign): the output stage — mask, accum,
/// replace — runs on the submatrix C(I, J) alone, with a mask of A's (as read) shape
/// |I| x |J|: where the mask allows, C(I[p], J[q]) becomes accum(C(I[p], J[q]), A(p, q))
/// (A(p, q) without accum, deleted when A has no entry there and no accum is given); where
/// it does not, the entry is kept, or deleted with replace. Entries of C outside (I, J) are
/// never touched. I and J must not repeat an index and must be the same on every rank.
///
/// Collective, like assign(). C may be the same object as A or the mask.
/// @throws the errors of assign(), with the mask required to be |I| x |J|.
template <class W, class Mask, class Accum, class AV>
void subassign(DistMatrix<W>& c, const Mask& mask, Accum accum, const DistMatrix<AV>& a,
               std::span<const gindex_t> rows, std::span<const gindex_t> cols,
               const Descriptor& desc = {}) {
    constexpr const char* name = "subassign";
    detail::check_matrix_output(name, c, no_mask);
    static_assert(detail::is_matrix_mask_v<Mask>,
                  "a matrix mask is gridblas::no_mask or a DistMatrix");
    if constexpr (!std::is_same_v<Mask, NoMask>) {
        detail::check_matrix_operand(name, c, "mask", mask, gindex_t(rows.size()),
                                     gindex_t(cols.size()), " (the size of C(I, J))");
        detail::check_not_relabelled(name, "mask", mask);
    }
    detail::check_assign_input(name, c, a, rows, cols, desc);
    const Csr<AV> s = detail::route_assigned(c, a, rows, cols, desc.transpose_a);
    detail::SubMask sub{true, std::is_same_v<Mask, NoMask>, desc.mask_complement, desc.replace};
    Csr<Pattern> routed_mask;
    if constexpr (!std::is_same_v<Mask, NoMask>) {
        routed_mask = detail::route_mask(c, mask, rows, cols, desc.mask_structural);
    }
    const detail::Region region(c, rows, cols);
    const Csr<W> z = detail::assign_merge(c, s, region, accum, sub, &routed_mask);
    // z is the final content of C's block: write it with no mask and no accumulator.
    const detail::MatrixMask all(false);
    apply_matrix_output_stage(c, all, no_accum, z, Descriptor{});
}

/// w⟨mask⟩(I) = accum(w(I), u) (GrB_Vector_assign): z is w with u(p) at I[p] (accumulated
/// into w(I[p]) with accum; without accum, entries of w at indices of I where u has none are
/// deleted), then w⟨mask⟩ = z on the whole of w. u must have length |I|; I must not repeat
/// an index and must be the same on every rank.
///
/// Collective: u's entries move to their owners in w. w may be the same object as u or the
/// mask.
/// @throws InvalidValue (an operand uninitialised or on another grid than w, or an index
///         repeated in I), DimensionMismatch (u's length is not |I|, or the mask's not w's),
///         IndexOutOfBounds (an index outside w): on every rank alike, before any
///         communication, w unchanged.
template <class W, class Mask, class Accum, class U>
void assign(DistVector<W>& w, const Mask& mask, Accum accum, const DistVector<U>& u,
            std::span<const gindex_t> idx, const Descriptor& desc = {}) {
    constexpr const char* name = "assign";
    detail::check_initialised(name, "w", w);
    detail::check_initialised(name, "u", u);
    if (u.grid() != w.grid()) throw InvalidValue("assign: w and u live on different grids");
    detail::check_cpu_grid(name, *w.grid());
    detail::check_mask(name, w, mask);
    if (u.size() != gindex_t(idx.size())) {
        throw DimensionMismatch("assign: u has size " + std::to_string(u.size()) + " but I has " +
                                std::to_string(idx.size()) + " indices");
    }
    detail::check_index_list(name, "I", idx, w.size());
    detail::check_index_list_unique(name, "I", idx);

    std::vector<gindex_t> si;
    ValueArray<U> sv;
    u.for_each_local([&](gindex_t p, const U& x) {
        si.push_back(idx[std::size_t(p)]);
        sv.push_back(x);
    });
    const DistVector<U> s = DistVector<U>::from_tuples(w.grid(), w.size(), si, sv);
    detail::to_sparse_first(w);
    const SparseVector<W> z = detail::assign_merge_vector(w, s.sparse(), idx, accum);
    const detail::LocalMask m = detail::make_local_mask(mask, desc);
    apply_output_stage(w, m, no_accum, z, desc);
}

}  // namespace gridblas
