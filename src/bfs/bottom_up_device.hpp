#pragma once
// Device state of the distributed BFS on a cuda-backend grid: the rank's column-compressed
// block on its GPU and the buffers of the bottom-up sub-steps, with pinned host staging for
// everything that crosses to the communication backend. The top-down levels need nothing
// here: they run through vxm's device path (ops/spmv_device.hpp).

#include <cstdint>
#include <vector>

#include "gridblas/cuda/detail/bfs_entry_points.hpp"
#include "gridblas/cuda/device.hpp"
#include "gridblas/matrix/compressed_block.hpp"

namespace gridblas {

struct BfsFound;

class BfsDeviceBottomUp {
public:
    /// Uploads `by_col` (outer = column v of the column block, inner = row u of the row
    /// block) to `device` and sizes the buffers for pieces of up to `piece_len` vertices and
    /// frontiers over `row_block` rows. @throws CudaError, NotCompiled
    BfsDeviceBottomUp(int device, const CompressedBlock<Pattern>& by_col, lindex_t piece_len,
                      lindex_t row_block);

    /// The frontier over the row block for this level (host bits, bitmap_words(row_block)).
    /// Only staged here: the next scan() uploads it, so that every device call of a level
    /// sits inside scan() (which the caller makes collective).
    void set_frontier(const std::vector<std::uint64_t>& bits);

    /// One rotation sub-step: `completed` (host bits of the piece) and `found` (candidates
    /// of earlier ranks, ascending v) go to the device, the piece is scanned, and `found`
    /// comes back with every candidate of the piece (ascending v). Returns the entries read.
    std::uint64_t scan(const cuda::detail::BottomUpPiece& piece, lindex_t len,
                       const std::uint64_t* completed, std::vector<BfsFound>& found);

    /// Device bytes held.
    std::size_t memory_bytes() const;

private:
    int device_ = 0;
    bool dcsc_ = true;
    bool front_staged_ = false;  // set_frontier() staged bits that scan() has not uploaded
    cuda::DeviceDcsc<Pattern> dcsc_block_;
    cuda::DeviceCsr<Pattern> csr_block_;
    lindex_t row_block_ = 0;
    cuda::DeviceBuffer front_;
    cuda::DeviceBuffer completed_;
    cuda::DeviceBitmapVector<std::int64_t> fresh_;  // bits: vertices with a candidate
    cuda::DeviceSparseVector<std::int64_t> found_;  // the candidates as a list
    cuda::Workspace ws_;
    cuda::PinnedBuffer stage_front_;
    cuda::PinnedBuffer stage_words_;
    cuda::PinnedBuffer stage_ind_;
    cuda::PinnedBuffer stage_val_;
};

}  // namespace gridblas
