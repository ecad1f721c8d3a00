#pragma once
/// @file kronecker.hpp
/// @brief The Kronecker product of distributed matrices, GrB_kronecker of the GraphBLAS C API
/// 2.1 (§4.3.11):
///
///     C⟨M⟩ = accum(C, kron(A, B)),  kron(A, B)(ia·mb + ib, ja·nb + jb) = op(A(ia,ja), B(ib,jb))
///
/// with B mb x nb (A and B read transposed with desc.transpose_a / transpose_b). B is gathered
/// whole on every rank (one allgatherv over the grid's world communicator); each rank forms
/// the products of its own entries of A with every entry of B and sends each product to the
/// owner of its position in C; then the output stage rebuilds C's blocks. Meant for a small B
/// (as in the generation of Kronecker graphs): every rank holds a copy of it.

#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/ewise.hpp"
#include "gridblas/ops/matrix_ops_common.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"

namespace gridblas {

namespace detail {

/// One entry of B travelling to every rank.
template <class T>
struct KronEntry {
    gindex_t row;
    gindex_t col;
    T val;
};

}  // namespace detail

/// C⟨mask⟩ = accum(C, kron(A, B)) with op combining an entry of A with one of B: C must be
/// (ma·mb) x (na·nb) for A ma x na and B mb x nb, as read (Aᵀ with desc.transpose_a, Bᵀ with
/// desc.transpose_b). The mask is valued or structural, complemented, with replace, per
/// `desc`.
///
/// Collective: B is gathered on every rank, the products move to their owners and C's blocks
/// are rebuilt; a transposed input is transposed first. C may be the same object as A, B or
/// the mask. B's value type must be trivially copyable.
/// @param accum no_accum or a callable accum(C(i,j), T(i,j))
/// @param op    callable op(A(ia,ja), B(ib,jb))
/// @throws InvalidValue (an operand uninitialised or on another grid than C),
///         DimensionMismatch (C's shape is not the product of A's and B's, or the mask's
///         shape is not C's), NotSupported (a relabelled operand, or a grid on the cuda
///         backend): on every rank alike, before any communication, C unchanged.
template <class W, class Mask, class Accum, class Op, class AV, class BV>
void kronecker(DistMatrix<W>& c, const Mask& mask, Accum accum, Op op, const DistMatrix<AV>& a,
               const DistMatrix<BV>& b, const Descriptor& desc = {}) {
    constexpr const char* name = "kronecker";
    detail::check_matrix_output(name, c, mask);
    detail::check_initialised(name, "A", a);
    detail::check_initialised(name, "B", b);
    if (a.grid() != c.grid() || b.grid() != c.grid()) {
        throw InvalidValue("kronecker: C, A and B do not all live on the same process grid");
    }
    detail::check_not_relabelled(name, "A", a);
    detail::check_not_relabelled(name, "B", b);
    const gindex_t ma = desc.transpose_a ? a.ncols() : a.nrows();
    const gindex_t na = desc.transpose_a ? a.nrows() : a.ncols();
    const gindex_t mb = desc.transpose_b ? b.ncols() : b.nrows();
    const gindex_t nb = desc.transpose_b ? b.nrows() : b.ncols();
    const auto rows = detail::checked_product(ma, mb);
    const auto cols = detail::checked_product(na, nb);
    if (!rows || !cols || *rows != c.nrows() || *cols != c.ncols()) {
        throw DimensionMismatch("kronecker: C is " + std::to_string(c.nrows()) + " x " +
                                std::to_string(c.ncols()) + " but kron(A, B) of a " +
                                std::to_string(ma) + " x " + std::to_string(na) + " A and a " +
                                std::to_string(mb) + " x " + std::to_string(nb) + " B is (" +
                                std::to_string(ma) + "·" + std::to_string(mb) + ") x (" +
                                std::to_string(na) + "·" + std::to_string(nb) + ")");
    }
    static_assert(std::is_trivially_copyable_v<BV>,
                  "kronecker: B's value type must be trivially copyable");

    using TV = detail::binary_result_t<Op, AV, BV>;
    const detail::OperandView<AV> at(a, desc.transpose_a);
    const detail::OperandView<BV> bt(b, desc.transpose_b);

    // 1. B on every rank.
    std::vector<detail::KronEntry<BV>> mine, all_b;
    mine.reserve(bt->local_nvals());
    bt->for_each_local([&](gindex_t i, gindex_t j, const BV& x) { mine.push_back({i, j, x}); });
    std::vector<int> counts;
    c.grid()->world().allgatherv(std::span<const detail::KronEntry<BV>>(mine), all_b, counts,
                                 "kronecker-gather-b");

    // 2. The products of this rank's entries of A with every entry of B, to their owners.
    std::vector<gindex_t> pr, pc;
    ValueArray<TV> pv;
    const std::size_t n_out = at->local_nvals() * all_b.size();
    pr.reserve(n_out);
    pc.reserve(n_out);
    pv.reserve(n_out);
    at->for_each_local([&](gindex_t i, gindex_t j, const AV& x) {
        for (const auto& e : all_b) {
            pr.push_back(i * mb + e.row);
            pc.push_back(j * nb + e.col);
            pv.push_back(detail::cast_value<TV>(op(x, e.val)));
        }
    });
    const Csr<TV> t = detail::route_to_block<TV>(c.grid(), c.nrows(), c.ncols(), pr, pc, pv);

    // 3. The output stage (T is in its own storage: C may be A, B or the mask).
    const detail::MatrixMask m = detail::make_matrix_mask(mask, desc);
    apply_matrix_output_stage(c, m, accum, t, desc);
}

}  // namespace gridblas
