#pragma once
/// @file matrix_ewise.hpp
/// @brief Element-wise operations on distributed matrices, GrB_eWiseAdd and GrB_eWiseMult of
/// the GraphBLAS C API 2.1 (§4.3.4.3, §4.3.5.3) and SuiteSparse's GxB_eWiseUnion:
///
///     C⟨M⟩ = accum(C, A ⊕ B)    ewise_add:   union, op(A(i,j), B(i,j)) where both exist
///     C⟨M⟩ = accum(C, A ⊗ B)    ewise_mult:  intersection, op(A(i,j), B(i,j))
///     C⟨M⟩ = accum(C, A ∪ B)    ewise_union: union, op(A(i,j) or alpha, B(i,j) or beta)
///
/// A (Aᵀ with desc.transpose_a), B (Bᵀ with desc.transpose_b), C and the mask have one shape,
/// so they are distributed alike: each rank combines its own blocks and the output stage
/// rebuilds C's blocks; the only communication is a transposed input's transpose and the
/// rebuild's agreement. C may be the same object as A, B or the mask.

#include <cstddef>
#include <type_traits>

#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/ewise.hpp"
#include "gridblas/ops/matrix_ops_common.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"

namespace gridblas {

namespace detail {

/// Which entries an element-wise operation produces.
enum class EwiseKind { add, mult, union_with_scalars };

/// This rank's block of the element-wise combination of A and B (blocks aligned with C's):
/// row by row, a merge of the two rows. `alpha` / `beta` stand in for a missing A / B entry
/// with EwiseKind::union_with_scalars. No communication.
template <EwiseKind Kind, class TV, class AV, class BV, class Op>
Csr<TV> ewise_local(const DistMatrix<AV>& a, const DistMatrix<BV>& b, Op& op, const AV* alpha,
                    const BV* beta) {
    const RowAccess<AV> ra(a.by_row());
    const RowAccess<BV> rb(b.by_row());
    const kernels::detail::ValueReader<AV> va(ra.view().vals);
    const kernels::detail::ValueReader<BV> vb(rb.view().vals);
    const lindex_t nrows = block_rows(a);
    CsrRowBuilder<TV> out(nrows, block_cols(a));
    for (lindex_t r = 0; r < nrows; ++r) {
        auto [p, pe] = ra.range(r);
        auto [q, qe] = rb.range(r);
        if (p == pe && q == qe) continue;
        out.start_row(r);
        while (p < pe || q < qe) {
            const lindex_t ja = p < pe ? ra.col(p) : lindex_t(-1);
            const lindex_t jb = q < qe ? rb.col(q) : lindex_t(-1);
            if (ja < jb) {
                if constexpr (Kind == EwiseKind::add) {
                    out.push(ja, cast_value<TV>(va(p)));
                } else if constexpr (Kind == EwiseKind::union_with_scalars) {
                    out.push(ja, cast_value<TV>(op(va(p), *beta)));
                }
                ++p;
            } else if (jb < ja) {
                if constexpr (Kind == EwiseKind::add) {
                    out.push(jb, cast_value<TV>(vb(q)));
                } else if constexpr (Kind == EwiseKind::union_with_scalars) {
                    out.push(jb, cast_value<TV>(op(*alpha, vb(q))));
                }
                ++q;
            } else {
                out.push(ja, cast_value<TV>(op(va(p), vb(q))));
                ++p;
                ++q;
            }
        }
    }
    return out.finish();
}

/// The common front of the three operations: checks, transposes, local merge, output stage.
template <EwiseKind Kind, class W, class Mask, class Accum, class Op, class AV, class BV>
void matrix_ewise(const char* name, DistMatrix<W>& c, const Mask& mask, Accum accum, Op& op,
                  const DistMatrix<AV>& a, const DistMatrix<BV>& b, const Descriptor& desc,
                  const AV* alpha, const BV* beta) {
    check_matrix_output(name, c, mask);
    check_matrix_input(name, c, "A", a, desc.transpose_a, c.nrows(), c.ncols());
    check_matrix_input(name, c, "B", b, desc.transpose_b, c.nrows(), c.ncols());
    using TV = binary_result_t<Op, AV, BV>;
    const OperandView<AV> at(a, desc.transpose_a);
    const OperandView<BV> bt(b, desc.transpose_b);
    // T is computed into its own storage before C changes, so C may be A, B or the mask.
    const Csr<TV> t = ewise_local<Kind, TV>(*at, *bt, op, alpha, beta);
    const MatrixMask m = make_matrix_mask(mask, desc);
    apply_matrix_output_stage(c, m, accum, t, desc);
}

}  // namespace detail

/// C⟨mask⟩ = accum(C, A ⊕ B): the union of the entries of A and B, `op(A(i,j), B(i,j))` where
/// both hold one and the single entry (cast to op's result type) where only one does.
/// desc.transpose_a / transpose_b read Aᵀ / Bᵀ; the mask is valued or structural,
/// complemented, with or without replace, per `desc`.
///
/// Collective (C's blocks are rebuilt; a transposed input is transposed first, which moves
/// its entries). C may be the same object as A, B or the mask.
/// @param accum no_accum or a callable accum(C(i,j), T(i,j))
/// @param op    callable op(A(i,j), B(i,j))
/// @throws InvalidValue (an operand uninitialised or on another grid than C),
///         DimensionMismatch (a shape differs from C's), NotSupported (a relabelled operand,
///         or a grid on the cuda backend): thrown on every rank alike, C unchanged.
template <class W, class Mask, class Accum, class Op, class AV, class BV>
void ewise_add(DistMatrix<W>& c, const Mask& mask, Accum accum, Op op, const DistMatrix<AV>& a,
               const DistMatrix<BV>& b, const Descriptor& desc = {}) {
    detail::matrix_ewise<detail::EwiseKind::add>("ewise_add", c, mask, accum, op, a, b, desc,
                                                 static_cast<const AV*>(nullptr),
                                                 static_cast<const BV*>(nullptr));
}

/// C⟨mask⟩ = accum(C, A ⊗ B): `op(A(i,j), B(i,j))` where both A and B hold an entry.
/// Same arguments, errors and communication as ewise_add().
template <class W, class Mask, class Accum, class Op, class AV, class BV>
void ewise_mult(DistMatrix<W>& c, const Mask& mask, Accum accum, Op op, const DistMatrix<AV>& a,
                const DistMatrix<BV>& b, const Descriptor& desc = {}) {
    detail::matrix_ewise<detail::EwiseKind::mult>("ewise_mult", c, mask, accum, op, a, b, desc,
                                                  static_cast<const AV*>(nullptr),
                                                  static_cast<const BV*>(nullptr));
}

/// C⟨mask⟩ = accum(C, T) with T over the union of the entries of A and B:
/// T(i,j) = op(A(i,j), B(i,j)) where both exist, op(A(i,j), beta) where only A has one and
/// op(alpha, B(i,j)) where only B has one (GxB_eWiseUnion). alpha is converted to A's value
/// type, beta to B's. Same arguments, errors and communication as ewise_add().
template <class W, class Mask, class Accum, class Op, class AV, class Alpha, class BV, class Beta>
void ewise_union(DistMatrix<W>& c, const Mask& mask, Accum accum, Op op, const DistMatrix<AV>& a,
                 const Alpha& alpha, const DistMatrix<BV>& b, const Beta& beta,
                 const Descriptor& desc = {}) {
    const AV al = AV(alpha);
    const BV be = BV(beta);
    detail::matrix_ewise<detail::EwiseKind::union_with_scalars>("ewise_union", c, mask, accum, op,
                                                                a, b, desc, &al, &be);
}

}  // namespace gridblas
