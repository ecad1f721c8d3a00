#pragma once
/// @file mxm.hpp
/// @brief Sparse matrix–matrix multiply, GrB_mxm of the GraphBLAS C API 2.1 (§4.3.1):
///
///     C⟨M⟩ = accum(C, A ⊕.⊗ B)        with Aᵀ / Bᵀ per desc.transpose_a / transpose_b
///
/// Distributed as 2D Sparse SUMMA over the grid (mxm_stages.hpp: pc stages, a broadcast of A's
/// blocks along grid rows and an allgather of B's pieces along grid columns per stage), with a
/// local product per stage (kernels/cpu/spgemm.hpp) that never stores an entry the mask
/// forbids: Gustavson's row-by-row product with a dense or hash accumulator, or, for a mask
/// that is not complemented and sparse next to the product, one inner product per allowed
/// entry. Partial results of the stages are added up with the semiring's add, then the output
/// stage (matrix_output_stage.hpp) writes C.
///
/// Example — triangles of an undirected graph A (symmetric, no self loops), the Sandia form
/// C⟨L⟩ = L·U with L the strictly lower and U the strictly upper triangle:
/// @code
///   auto L = gridblas::select(A, [](gindex_t i, gindex_t j, auto) { return j < i; });
///   auto U = gridblas::select(A, [](gindex_t i, gindex_t j, auto) { return j > i; });
///   auto C = gridblas::DistMatrix<std::int64_t>::shell(A.grid(), A.nrows(), A.ncols());
///   gridblas::mxm(C, L, gridblas::no_accum, gridblas::plus_pair<std::int64_t>{}, L, U,
///                 {.mask_structural = true});
///   std::int64_t triangles = gridblas::reduce(C, std::plus<>{}, std::int64_t(0));
/// @endcode

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "gridblas/comm/communicator.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/spgemm.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"
#include "gridblas/ops/mxm_stages.hpp"
#include "gridblas/semirings/semiring.hpp"

namespace gridblas {

/// What one mxm call did on this rank (pass an MxmStats to mxm() to get it).
struct MxmStats {
    int stages = 0;           ///< SUMMA stages (pc)
    std::uint64_t flops = 0;  ///< multiply-adds of the local products on this rank
    std::uint64_t nvals = 0;  ///< entries of the product T on this rank, before the mask
    MxmMethod method = MxmMethod::automatic;  ///< the local kernel that ran
    double seconds_comm = 0;                  ///< time in the stage broadcasts and allgathers
    double seconds_local = 0;                 ///< time in the local products and stage sums
    double seconds_output = 0;  ///< time in the output stage (including the block rebuild)
};

namespace detail {

/// Picks the local kernel: dot needs a mask that is not complemented and pays when the mask
/// has few entries next to the work of the row-by-row product. The sizes are global (every
/// rank picks the same) and the estimate is the one of SuiteSparse's heuristic in spirit:
/// dot costs about nnz(M) * (d_A + d_B), Gustavson about nnz(A) * d_B (d = mean entries per
/// row of A, per column of B, per row of B).
inline MxmMethod choose_mxm_method(MxmMethod asked, bool plain_mask, double nnz_m, double nnz_a,
                                   double a_rows, double nnz_b, double b_rows, double b_cols,
                                   double spa_bytes) {
    if (asked == MxmMethod::dot && !plain_mask) return MxmMethod::gustavson;
    if (asked != MxmMethod::automatic) return asked;
    const double d_a = nnz_a / std::max(1.0, a_rows);
    const double d_b_row = nnz_b / std::max(1.0, b_rows);
    const double d_b_col = nnz_b / std::max(1.0, b_cols);
    if (plain_mask && nnz_m * (d_a + d_b_col) < 0.5 * nnz_a * d_b_row) return MxmMethod::dot;
    // A dense accumulator per thread over the block's columns, unless it would be large.
    return spa_bytes <= double(std::size_t(1) << 28) ? MxmMethod::gustavson : MxmMethod::hash;
}

/// The checks of mxm: every rank throws the same exception before anything happens.
template <class W, class Mask, class TA, class TB>
void check_mxm_args(const DistMatrix<W>& c, const Mask& mask, const DistMatrix<TA>& a,
                    const DistMatrix<TB>& b, const Descriptor& d) {
    constexpr const char* op = "mxm";
    check_initialised(op, "C", c);
    check_initialised(op, "A", a);
    check_initialised(op, "B", b);
    if (a.grid() != c.grid() || b.grid() != c.grid()) {
        throw InvalidValue("mxm: C, A and B must live on the same process grid");
    }
    check_cpu_grid(op, *c.grid());
    const gindex_t am = d.transpose_a ? a.ncols() : a.nrows();
    const gindex_t ak = d.transpose_a ? a.nrows() : a.ncols();
    const gindex_t bk = d.transpose_b ? b.ncols() : b.nrows();
    const gindex_t bn = d.transpose_b ? b.nrows() : b.ncols();
    auto shape = [](gindex_t r, gindex_t k) {
        return std::to_string(r) + " x " + std::to_string(k);
    };
    if (ak != bk) {
        throw DimensionMismatch("mxm: A" + std::string(d.transpose_a ? "ᵀ" : "") + " is " +
                                shape(am, ak) + " and B" + (d.transpose_b ? "ᵀ" : "") + " is " +
                                shape(bk, bn) + ": inner dimensions differ");
    }
    if (c.nrows() != am || c.ncols() != bn) {
        throw DimensionMismatch("mxm: C is " + shape(c.nrows(), c.ncols()) +
                                " but the product is " + shape(am, bn));
    }
    check_matrix_mask(op, c, mask);
    check_not_relabelled(op, "C", c);
    check_not_relabelled(op, "A", a);
    check_not_relabelled(op, "B", b);
    if constexpr (!std::is_same_v<Mask, NoMask>) check_not_relabelled(op, "the mask", mask);
}

/// The product T = A·B of this rank's C block, stage by stage (A and B already oriented).
template <class S, class TA, class TB>
Csr<typename S::value_type> summa_product(const DistMatrix<TA>& a, const DistMatrix<TB>& b,
                                          const MatrixMask& mask, MxmMethod method,
                                          MxmStats& stats) {
    using Z = typename S::value_type;
    const ProcessGrid& g = *a.grid();
    const lindex_t m = a.row_dist().block_rows();
    const lindex_t n = b.col_dist().block_cols();
    Csr<Z> total(m, n);
    const std::vector<StageEntry<TA>> mine = block_entries(a);
    const bool by_rows = method != MxmMethod::dot;
    const auto acc = method == MxmMethod::hash ? kernels::SpgemmAccumulator::hash
                                               : kernels::SpgemmAccumulator::spa;
    // With one grid row, B's stage rows are this rank's own: read them in place. So are the
    // dot method's stage columns (B by columns, cut to the stage's rows): read in place too,
    // instead of copying every entry of B into a stage for every product.
    const bool local_b = by_rows && g.pr() == 1;
    const bool local_bt = !by_rows && g.pr() == 1;
    kernels::OuterLookup lookup;
    kernels::CompressedView<TB> b_view;
    if (local_b || local_bt) {
        const CompressedBlock<TB>& br = local_b ? b.by_row() : b.by_col();
        if (br.format() == LocalFormat::dcsc) {
            lookup = kernels::make_lookup(br.dcsc());
            b_view = kernels::make_view(br.dcsc(), &lookup);
        } else {
            b_view = kernels::make_view(br.csr());
        }
    }
    for (int s = 0; s < g.pc(); ++s) {
        double t0 = comm::wtime();
        const Csr<TA> as = stage_a(a, s, mine);
        Csr<TB> bs;
        if (!local_b && !local_bt) {
            if (by_rows) {
                const std::vector<lindex_t> wanted = wanted_stage_ids(g, as);
                bs = stage_b(b, s, true, &wanted);
            } else {
                bs = stage_b(b, s, false);
            }
        }
        double t1 = comm::wtime();
        stats.seconds_comm += t1 - t0;
        kernels::SpgemmStats ks;
        Csr<Z> part;
        if (local_b) {
            const kernels::ViewRows<TB> rows(b_view, lindex_t(gindex_t(s) * b.row_dist().nb));
            part = kernels::spgemm_saxpy<S>(as, rows, mask, acc, ks);
        } else if (by_rows) {
            part = kernels::spgemm_saxpy<S>(as, kernels::CsrRows<TB>(bs), mask, acc, ks);
        } else if (local_bt) {
            // Stage s's rows of B, [s nb, (s + 1) nb), within the block's rows.
            const gindex_t nb = b.row_dist().nb;
            const gindex_t rows = gindex_t(b_view.n_inner);
            const kernels::ViewColumnSlice<TB> cols(b_view,
                                                    lindex_t(std::min(gindex_t(s) * nb, rows)),
                                                    lindex_t(std::min(gindex_t(s + 1) * nb, rows)));
            part = kernels::spgemm_dot_rows<S>(as, cols, b_view.n_outer, mask, ks);
        } else {
            part = kernels::spgemm_dot<S>(as, bs, mask, ks);
        }
        stats.flops += ks.flops;
        if (g.pc() == 1) {
            total = std::move(part);
        } else {
            kernels::spgemm_add_into<S>(total, part);
        }
        stats.seconds_local += comm::wtime() - t1;
    }
    stats.stages = g.pc();
    stats.nvals = total.nnz();
    return total;
}

}  // namespace detail

/// C⟨mask⟩ = accum(C, A ⊕.⊗ B) over semiring S: T(i,j) = ⊕_k S::mul(A(i,k), B(k,j)) over the
/// k where both entries exist (a Pattern entry counts as the semiring's multiplicative
/// identity, S::one() or 1), then the output stage of the C API.
///
/// Collective over the grid. C, A, B and the mask must live on one grid (the same
/// ProcessGrid object) and be stored without relabelling; C may be A, B or the mask.
/// desc.transpose_a / transpose_b use Aᵀ / Bᵀ (each is built once, a collective exchange of
/// its entries). desc.mxm_method forces a local kernel (MxmMethod::dot needs a mask that is
/// not complemented, otherwise Gustavson runs). Positional semirings are not supported.
///
/// Memory: besides the operands and C, a rank holds per stage one block of A and pr pieces
/// of B (mxm_stages.hpp; none on a grid with one row, where B's block is read in place),
/// the running sum of its block of T, and with MxmMethod::gustavson a
/// dense accumulator per thread over the block's columns (4 + sizeof(value) bytes each). With
/// a mask that is not complemented only allowed entries are ever stored; with a complemented
/// one, only entries it allows.
/// @param mask  no_mask or a DistMatrix the shape of C (valued or structural, complemented,
///              per `desc`)
/// @param accum no_accum or a callable accum(C(i,j), T(i,j))
/// @param stats when not null, receives what this rank did
/// @throws InvalidValue (uninitialised operand, operands on different grids), NotSupported
///         (relabelled operand, a cuda grid), DimensionMismatch (shapes), all on every rank
///         alike and with C unchanged.
template <class W, class Mask, class Accum, class S, class TA, class TB>
void mxm(DistMatrix<W>& c, const Mask& mask, Accum accum, S, const DistMatrix<TA>& a,
         const DistMatrix<TB>& b, const Descriptor& desc = {}, MxmStats* stats = nullptr) {
    static_assert(Semiring<S, TA>, "mxm: S must be a semiring whose product takes A's entries");
    static_assert(!semiring_is_positional<S>(),
                  "mxm: positional semirings (any_secondi, min_secondi) are for vxm / mxv only");
    detail::check_mxm_args(c, mask, a, b, desc);
    MxmStats local;
    MxmStats& st = stats ? *stats : local;
    st = MxmStats{};
    // Orient the operands: a transposed input is built once.
    std::optional<DistMatrix<TA>> at;
    std::optional<DistMatrix<TB>> bt;
    if (desc.transpose_a) at.emplace(a.transpose());
    if (desc.transpose_b) bt.emplace(b.transpose());
    const DistMatrix<TA>& aa = at ? *at : a;
    const DistMatrix<TB>& bb = bt ? *bt : b;

    const detail::MatrixMask m = detail::make_matrix_mask(mask, desc);
    const bool plain_mask = !m.none() && !m.complement();
    comm::Communicator& world = c.grid()->world();
    double sizes[3] = {double(m.nnz()), double(aa.local_nvals()), double(bb.local_nvals())};
    world.allreduce(std::span<double>(sizes, 3), comm::ReduceOp::sum, "mxm-sizes");
    using Z = typename S::value_type;
    const double spa_bytes = double(bb.col_dist().block_cols()) * (4.0 + sizeof(Z));
    st.method = detail::choose_mxm_method(desc.mxm_method, plain_mask, sizes[0], sizes[1],
                                          double(aa.nrows()), sizes[2], double(bb.nrows()),
                                          double(bb.ncols()), spa_bytes);
    Csr<Z> t = detail::summa_product<S>(aa, bb, m, st.method, st);
    const double t0 = comm::wtime();
    apply_matrix_output_stage(c, m, accum, std::move(t), desc);
    st.seconds_output = comm::wtime() - t0;
}

}  // namespace gridblas
