#pragma once
/// @file pull_piece_device.hpp
/// @brief The piece scan of the rotating pull (spmv_rotate.hpp) on a rank's GPU, for the
/// positional semirings over a pattern matrix in vxm orientation — the bottom-up step of BFS
/// on a grid whose exec_backend() is cuda. The block (outer = output, inner = input) is
/// uploaded once; every exchange stays on the host, staged through pinned memory. Not meant
/// for users: spmv_dist() creates it when it needs it.

#include <cstdint>
#include <vector>

#include "gridblas/cuda/detail/bfs_entry_points.hpp"
#include "gridblas/cuda/device.hpp"
#include "gridblas/matrix/compressed_block.hpp"

namespace gridblas::detail {

class DevicePieceScanner {
public:
    /// Uploads `pull_block` (outer = output index of the block, inner = input index) to
    /// `device` and sizes the buffers for pieces of up to `piece_len` outputs and inputs over
    /// `n_in` indices. @throws CudaError, NotCompiled
    DevicePieceScanner(int device, const CompressedBlock<Pattern>& pull_block, lindex_t piece_len,
                       lindex_t n_in);

    /// stamp() of the block this scanner holds.
    std::uint64_t block_stamp() const { return stamp_; }

    /// The input bits (n_in) for the next scans. Only staged here: the next scan() uploads
    /// them, so that every device call sits inside scan() (which the caller makes collective).
    void set_input(const std::uint64_t* bits);

    /// One rotation step: `done` (host bits of the piece) and the candidates of earlier ranks
    /// (`ids` ascending, `vals`) go to the device, the piece is scanned, and ids/vals come
    /// back holding every candidate of the piece (ascending). Returns the entries read.
    std::uint64_t scan(const cuda::detail::BottomUpPiece& piece, lindex_t len,
                       const std::uint64_t* done, std::vector<lindex_t>& ids,
                       std::vector<std::int64_t>& vals);

    /// Device bytes held.
    std::size_t memory_bytes() const;

private:
    int device_ = 0;
    bool dcsc_ = true;
    bool input_staged_ = false;  // set_input() staged bits that scan() has not uploaded
    std::uint64_t stamp_ = 0;
    cuda::DeviceDcsc<Pattern> dcsc_block_;
    cuda::DeviceCsr<Pattern> csr_block_;
    lindex_t n_in_ = 0;
    cuda::DeviceBuffer input_;
    cuda::DeviceBuffer done_;
    cuda::DeviceBitmapVector<std::int64_t> fresh_;  // bits: outputs with a candidate
    cuda::DeviceSparseVector<std::int64_t> found_;  // the candidates as a list
    cuda::Workspace ws_;
    cuda::PinnedBuffer stage_input_;
    cuda::PinnedBuffer stage_words_;
    cuda::PinnedBuffer stage_ind_;
    cuda::PinnedBuffer stage_val_;
};

}  // namespace gridblas::detail
