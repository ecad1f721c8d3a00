#pragma once
/// @file spmv_workspace.hpp
/// @brief SpmvWorkspace: the buffers of vxm / mxv (spmv.hpp), kept between calls so that a
/// loop of calls (a BFS) allocates nothing once they have grown.

#include <cstdint>
#include <memory>
#include <vector>

#include "gridblas/kernels/cpu/mask.hpp"
#include "gridblas/kernels/cpu/outer_bitmap.hpp"
#include "gridblas/kernels/cpu/spmspv_claim.hpp"
#include "gridblas/kernels/cpu/spmspv_workspace.hpp"
#include "gridblas/kernels/cpu/spmv_pull.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/matrix/detail/default_init.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/vector/bitmap_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas {

namespace detail {
/// Buffers of the rotating pull (spmv_rotate.hpp).
template <class Y>
struct RotationBuffers {
    std::vector<std::uint64_t> done;    ///< outputs of the piece in hand that need no scan
    std::vector<std::uint64_t> has;     ///< outputs of the piece with a candidate in best
    std::vector<Y> best;                ///< candidate per output of the piece
    std::vector<lindex_t> ids;          ///< the piece's candidates as a list: outputs ...
    std::vector<Y> vals;                ///< ... and values
    std::vector<std::uint64_t> packed;  ///< positional values for the bit-packed codec
    std::vector<char> send;             ///< the hand-over message
    std::vector<char> recv;
    // The ascending schedule (positional "min"): rank 0 holds every piece's done bits; the
    // own piece's candidates gather in home_*, and in_* take a chunk coming home.
    std::vector<std::uint64_t> seeds;
    std::vector<lindex_t> home_ids;
    std::vector<Y> home_vals;
    std::vector<lindex_t> in_ids;
    OverwriteVector<Y> in_vals;
    // The schedules whose finds are final: this rank's finds, per owner of the piece, and
    // the owner's merges of them (lists written whole after each resize).
    std::vector<OverwriteVector<lindex_t>> give_ids;
    std::vector<OverwriteVector<Y>> give_vals;
    OverwriteVector<lindex_t> merged_ids;
    OverwriteVector<Y> merged_vals;
};
}  // namespace detail

/// Buffers of vxm / mxv for input values X, output values Y (the semiring's) and matrix
/// values A. One workspace serves any sequence of calls on matrices of these types; pass the
/// same one to every call of a loop.
template <class X, class Y, class A>
struct SpmvWorkspace {
    /// Device copies and buffers, made on the first call on a cuda-backend grid.
    std::shared_ptr<void> device;
    /// The device piece scanner of the rotating pull, made when it is first needed.
    std::shared_ptr<void> device_rotate;
    // expand: this rank's input entries in block numbering, then the gathered input
    std::vector<lindex_t> my_ids;
    std::vector<X> my_vals;
    std::vector<lindex_t> in_ids;
    std::vector<X> in_vals;
    std::vector<int> counts;
    SparseVector<X> x;   ///< push input (values)
    BitmapVector<X> xb;  ///< pull input
    // output mask over the block (pull without rotation)
    std::vector<lindex_t> mask_ids;
    std::vector<lindex_t> mask_all;
    kernels::MaskStorage mask_bits;
    // local kernels
    kernels::SpmspvWorkspace<Y> spmspv;
    kernels::ClaimWorkspace<Y> claim;  ///< push of a positional semiring (spmspv_claim.hpp)
    kernels::PullWorkspace<Y> pull;
    SparseVector<Y> y;
    kernels::OuterLookup lookup;
    std::uint64_t lookup_for = 0;     ///< stamp() of the block `lookup` was made for
    kernels::OuterBitmap pull_rows;   ///< non-empty outputs of the pull block (rotating pull)
    std::uint64_t pull_rows_for = 0;  ///< stamp() of the block `pull_rows` was made for
    // fold and rotation
    std::vector<int> send_counts;
    std::vector<Y> fold_vals;
    detail::RotationBuffers<Y> rot;
    SparseVector<Y> t;  ///< the operation's result over this rank's piece of the output
    /// Direction the last call used.
    Direction last_direction = Direction::push;
    /// Matrix entries the last call's local kernels read on this rank.
    std::uint64_t last_entries = 0;
    /// Outputs per chunk in the ascending schedule of the pull with positional "min"
    /// (spmv_rotate.hpp), rounded up to a multiple of 64; 0 picks it from the piece length.
    lindex_t ascending_chunk_outputs = 0;
    /// An optional epilogue of the result over this rank's piece (local ids and values, in
    /// ascending ranges). A push of a positional semiring whose kernel's result becomes w's
    /// piece as it is (a fold of one rank, a mask, no accumulator, and replace or an empty w)
    /// lends it to the kernel (kernels::ClaimWorkspace::epilogue, whose rules it follows:
    /// each thread hands it its part of the result as soon as written, where the kernel
    /// writes on several threads), and `result_epilogue_ran` tells whether it ran; otherwise
    /// it is not called, and the caller reads w. A BFS level records its finds there, in the
    /// kernel's parallel region instead of a region of its own.
    typename kernels::ClaimWorkspace<Y>::Epilogue result_epilogue;
    /// Whether the last call handed its whole result to `result_epilogue`.
    bool result_epilogue_ran = false;
    /// Optional: where the caller writes for each output (local id), in `result_epilogue` or
    /// after the call, lent to the kernel where the result is final
    /// (kernels::ClaimWorkspace::epilogue_lines) so that it can prefetch those lines.
    kernels::EpilogueLines result_epilogue_lines;
};

}  // namespace gridblas
