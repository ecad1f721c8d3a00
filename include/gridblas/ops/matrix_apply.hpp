#pragma once
/// @file matrix_apply.hpp
/// @brief Entry-wise operations on distributed matrices with the full output stage, as the
/// GraphBLAS C API 2.1 defines them: GrB_apply with a unary operator, with a bound binary
/// operator (GrB_BinaryOp with a scalar first or second input) and with an index unary
/// operator (§4.3.8.2, §4.3.8.4, §4.3.8.6), GrB_select (§4.3.9.2) and GrB_transpose (§4.3.10):
///
///     C⟨M⟩ = accum(C, f(A))             apply
///     C⟨M⟩ = accum(C, f(i, j, A))       apply_index (i, j global ids of C)
///     C⟨M⟩ = accum(C, A⟨pred⟩)          select: the entries with pred(i, j, A(i, j))
///     C⟨M⟩ = accum(C, Aᵀ)               transpose (A itself when desc.transpose_a)
///
/// A is read transposed when desc.transpose_a (transpose: not transposed). A (as read), C and
/// the mask share one shape and so one distribution: each rank maps its own block and the
/// output stage rebuilds C's blocks. C may be the same object as A or the mask.

#include <optional>
#include <type_traits>

#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/matrix_ops_common.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"

namespace gridblas {

namespace detail {

/// The front of every operation here: checks, the operand as read (`transpose`), the local
/// block of T from `f(i, j, x) -> std::optional<R>`, then the output stage.
template <class R, class W, class Mask, class Accum, class AV, class F>
void matrix_map(const char* name, DistMatrix<W>& c, const Mask& mask, Accum accum,
                const DistMatrix<AV>& a, bool transpose, const Descriptor& desc, F f) {
    check_matrix_output(name, c, mask);
    check_matrix_input(name, c, "A", a, transpose, c.nrows(), c.ncols());
    const OperandView<AV> at(a, transpose);
    // T is computed into its own storage before C changes, so C may be A or the mask.
    const Csr<R> t = map_local_block<R>(*at, f);
    const MatrixMask m = make_matrix_mask(mask, desc);
    apply_matrix_output_stage(c, m, accum, t, desc);
}

/// op(x, y) with x fixed: the unary operator of bind_first().
template <class Op, class X>
struct BoundFirst {
    Op op;
    X x;
    template <class Y>
    auto operator()(const Y& y) const {
        return op(x, y);
    }
};

/// op(x, y) with y fixed: the unary operator of bind_second().
template <class Op, class Y>
struct BoundSecond {
    Op op;
    Y y;
    template <class X>
    auto operator()(const X& x) const {
        return op(x, y);
    }
};

}  // namespace detail

/// The unary operator x ↦ op(value, x): a binary operator with its first input bound to a
/// scalar (GrB_apply with GrB_BinaryOp and a scalar first, §4.3.8.4). Pass it to apply().
/// `op` must be callable as const. Not collective (no communication).
template <class Op, class X>
detail::BoundFirst<Op, X> bind_first(Op op, X value) {
    return {std::move(op), std::move(value)};
}

/// The unary operator x ↦ op(x, value): a binary operator with its second input bound to a
/// scalar (GrB_apply with GrB_BinaryOp and a scalar second). Not collective.
template <class Op, class Y>
detail::BoundSecond<Op, Y> bind_second(Op op, Y value) {
    return {std::move(op), std::move(value)};
}

/// C⟨mask⟩ = accum(C, T) with T(i, j) = f(A(i, j)) for every entry of A (of Aᵀ with
/// desc.transpose_a). With bind_first() / bind_second() this is also the C API's apply of
/// a bound binary operator.
///
/// Collective (C's blocks are rebuilt; a transposed A is transposed first, which moves its
/// entries). C may be the same object as A or the mask.
/// @param mask  no_mask or a DistMatrix of C's shape (valued or structural, complemented,
///              with replace, per `desc`)
/// @param accum no_accum or a callable accum(C(i,j), T(i,j))
/// @param f     callable f(A(i,j))
/// @throws InvalidValue (an operand uninitialised or on another grid than C),
///         DimensionMismatch (A as read is not C's shape), NotSupported (a relabelled
///         operand, or a grid on the cuda backend): on every rank alike, C unchanged.
template <class W, class Mask, class Accum, class F, class AV>
void apply(DistMatrix<W>& c, const Mask& mask, Accum accum, F f, const DistMatrix<AV>& a,
           const Descriptor& desc = {}) {
    using R = std::decay_t<std::invoke_result_t<F&, const AV&>>;
    detail::matrix_map<R>("apply", c, mask, accum, a, desc.transpose_a, desc,
                          [&](gindex_t, gindex_t, const AV& x) { return std::optional<R>(f(x)); });
}

/// C⟨mask⟩ = accum(C, T) with T(i, j) = f(i, j, A(i, j)), i and j the global row and column
/// of the entry in C (so of Aᵀ when desc.transpose_a): GrB_apply with a GrB_IndexUnaryOp,
/// e.g. `[](gindex_t i, gindex_t, auto) { return i; }` for GrB_ROWINDEX. Collective; same
/// arguments and errors as apply().
template <class W, class Mask, class Accum, class F, class AV>
void apply_index(DistMatrix<W>& c, const Mask& mask, Accum accum, F f, const DistMatrix<AV>& a,
                 const Descriptor& desc = {}) {
    using R = std::decay_t<std::invoke_result_t<F&, gindex_t, gindex_t, const AV&>>;
    detail::matrix_map<R>(
        "apply_index", c, mask, accum, a, desc.transpose_a, desc,
        [&](gindex_t i, gindex_t j, const AV& x) { return std::optional<R>(f(i, j, x)); });
}

/// C⟨mask⟩ = accum(C, T) with T the entries of A (of Aᵀ with desc.transpose_a) for which
/// pred(i, j, A(i, j)) is true (i, j global ids in C), GrB_select with a GrB_IndexUnaryOp:
/// `[](gindex_t i, gindex_t j, auto) { return j > i; }` keeps the strict upper triangle
/// (GrB_TRIU with thunk 1). Collective; same arguments and errors as apply().
template <class W, class Mask, class Accum, class Pred, class AV>
void select(DistMatrix<W>& c, const Mask& mask, Accum accum, Pred pred, const DistMatrix<AV>& a,
            const Descriptor& desc = {}) {
    detail::matrix_map<AV>("select", c, mask, accum, a, desc.transpose_a, desc,
                           [&](gindex_t i, gindex_t j, const AV& x) {
                               return pred(i, j, x) ? std::optional<AV>(x) : std::nullopt;
                           });
}

/// C⟨mask⟩ = accum(C, Aᵀ), or accum(C, A) when desc.transpose_a (the C API's GrB_transpose:
/// its "transpose the input" flag cancels the transpose). A must be C's shape transposed (C's
/// shape with desc.transpose_a).
///
/// Collective: A's entries move to the owners of their transposed positions, then C's
/// blocks are rebuilt. C may be the same object as A (C = Cᵀ for a square C) or the mask.
/// Same errors as apply().
template <class W, class Mask, class Accum, class AV>
void transpose(DistMatrix<W>& c, const Mask& mask, Accum accum, const DistMatrix<AV>& a,
               const Descriptor& desc = {}) {
    detail::matrix_map<AV>("transpose", c, mask, accum, a, !desc.transpose_a, desc,
                           [](gindex_t, gindex_t, const AV& x) { return std::optional<AV>(x); });
}

}  // namespace gridblas
