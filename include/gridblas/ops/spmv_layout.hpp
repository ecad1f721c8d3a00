#pragma once
/// @file spmv_layout.hpp
/// @brief Where the pieces of one vxm / mxv live on the grid: which index space is the
/// input, which grid dimension gathers it and which one combines the partial results, and
/// how a block's input index maps to a global index.
///
/// The alignment invariant the expand and fold steps rely on: rank k of the expand
/// communicator owns the input indices [k·nb, (k+1)·nb) of the block's input range, and rank
/// k of the fold communicator owns the outputs [k·nb, (k+1)·nb) of the block's output range
/// (see distribution.hpp: for vxm the expand is the grid row, whose rank j owns piece j·pr+i,
/// numbered from j·nb in row block i; the fold is the grid column, whose rank i owns piece
/// j·pr+i, numbered from i·nb in column block j; mxv swaps the roles). Pieces are full except
/// at the end, so concatenating every rank's sorted ids in communicator order gives a sorted
/// list: an allgatherv of values lines up entry by entry with the set-union allgather of the
/// ids, and partial results grouped by destination rank come out grouped by piece.

#include <cstdint>
#include <string>

#include "gridblas/comm/communicator.hpp"
#include "gridblas/core/distribution.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/matrix/dist_matrix.hpp"

namespace gridblas::detail {

/// The kernels' view of a block; a DCSC view gets the bucket index `lookup` (rebuilt when
/// the block's stamp differs from `lookup_for`) when one is given.
template <class T>
kernels::CompressedView<T> view_of(const CompressedBlock<T>& b, kernels::OuterLookup* lookup,
                                   std::uint64_t& lookup_for) {
    if (b.format() == LocalFormat::csr) return kernels::make_view(b.csr());
    if (lookup != nullptr) {
        if (lookup_for != b.stamp()) {
            *lookup = kernels::make_lookup(b.dcsc());
            lookup_for = b.stamp();
        }
        return kernels::make_view(b.dcsc(), lookup);
    }
    return kernels::make_view(b.dcsc());
}

/// The geometry of one vxm / mxv on this rank.
template <class T>
struct SpmvLayout {
    /// True when the input runs along the matrix rows (vxm, or mxv with transpose).
    bool input_is_rows = true;
    const Distribution* in = nullptr;      ///< distribution of the input's index space
    const Distribution* out = nullptr;     ///< distribution of the output's index space
    comm::Communicator* expand = nullptr;  ///< gathers the input (grid row for vxm)
    comm::Communicator* fold = nullptr;    ///< combines partial results (grid column for vxm)
    lindex_t n_in = 0;                     ///< the block's input range (padded)
    lindex_t n_out = 0;                    ///< the block's output range (padded)
    lindex_t in_offset = 0;   ///< where this rank's input piece starts in the input range
    lindex_t out_offset = 0;  ///< where this rank's output piece starts in the output range
    lindex_t in_len = 0;      ///< this rank's piece of the input (its length)
    lindex_t out_len = 0;     ///< this rank's piece of the output (its length)
    int grid_row = 0;
    int grid_col = 0;
    const CompressedBlock<T>* push_block = nullptr;  ///< outer = input index
    const CompressedBlock<T>* pull_block = nullptr;  ///< outer = output index

    SpmvLayout(const DistMatrix<T>& a, bool rows_in) : input_is_rows(rows_in) {
        ProcessGrid& grid = *a.grid();
        in = rows_in ? &a.row_dist() : &a.col_dist();
        out = rows_in ? &a.col_dist() : &a.row_dist();
        expand = rows_in ? &grid.row() : &grid.col();
        fold = rows_in ? &grid.col() : &grid.row();
        n_in = rows_in ? in->block_rows() : in->block_cols();
        n_out = rows_in ? out->block_cols() : out->block_rows();
        in_offset = lindex_t(gindex_t(expand->rank()) * in->nb);
        out_offset = lindex_t(gindex_t(fold->rank()) * out->nb);
        const int me = in->piece_at(grid.my_row(), grid.my_col());  // same index in both
        in_len = lindex_t(in->piece_size(me));
        out_len = lindex_t(out->piece_size(me));
        grid_row = grid.my_row();
        grid_col = grid.my_col();
        push_block = rows_in ? &a.by_row() : &a.by_col();
        pull_block = rows_in ? &a.by_col() : &a.by_row();
    }

    /// Global index of input index i of the block. It increases with i, so a read of a
    /// row's entries in stored (ascending inner) order meets global indices in ascending
    /// order — what the positional semirings' early exits rely on.
    gindex_t input_global(lindex_t i) const {
        return input_is_rows ? in->global_row(grid_row, i) : in->global_col(grid_col, i);
    }
    /// The first input index whose global index is >= g.
    lindex_t input_bound(gindex_t g) const {
        return input_is_rows ? in->row_block_bound(grid_row, g) : in->col_block_bound(grid_col, g);
    }
};

/// The checks vxm_full / mxv_full and vxm_update / mxv_update (plain-array operands) share,
/// from facts every rank has: an initialised matrix on a cpu grid, not stored relabelled.
/// Returns the matrix's grid.
template <class T>
ProcessGrid& check_array_spmv(const DistMatrix<T>& a, const char* name) {
    if (!a.grid()) throw InvalidValue(std::string(name) + ": the matrix is uninitialised");
    ProcessGrid& grid = *a.grid();
    if (grid.exec_backend() == ExecBackend::cuda) {
        throw NotSupported(std::string(name) + " runs on the cpu backend only");
    }
    if (a.relabel() != nullptr) {
        throw NotSupported(std::string(name) + ": the matrix is stored relabelled");
    }
    return grid;
}

}  // namespace gridblas::detail
