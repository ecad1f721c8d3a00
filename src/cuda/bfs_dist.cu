// The device kernel of the distributed BFS's bottom-up sub-step (seed 002 Algorithm 4, as
// organised in src/bfs/bottom_up.cpp): each unvisited column of one piece of the rank's
// column block scans its in-edges for a frontier vertex and stops at the first one
// (Beamer et al., SC'12), one thread per column. The rotation of the piece's "completed"
// bitmap and candidates along the grid column stays on the host and the communication
// backend; this kernel is the part that reads the adjacency.

#include <cstdint>

#include "cuda/backend.hpp"
#include "cuda/device_ops.cuh"
#include "gridblas/cuda/detail/bfs_entry_points.hpp"

namespace gridblas::cuda::detail {

namespace {

__global__ void bottom_up_piece_kernel(CompressedDeviceView<Pattern> blk, BottomUpPiece p,
                                       const std::uint64_t* front, const std::uint64_t* completed,
                                       std::uint64_t* fresh, std::int64_t* cand,
                                       std::uint64_t* examined) {
    unsigned long long ex = 0;
    const std::uint64_t count = p.k1 - p.k0;
    for (std::uint64_t t = thread_index(); t < count; t += thread_count()) {
        const std::uint64_t k = p.k0 + t;
        const lindex_t v = (blk.hyper ? blk.outer_ids[k] : lindex_t(k)) - p.col_off;
        if (test_bit(completed, v)) continue;
        for (offset_t q = blk.ptr[k]; q < blk.ptr[k + 1]; ++q) {
            ++ex;
            const lindex_t u = blk.inner[q];
            if (!test_bit(front, u)) continue;
            const std::int64_t par =
                (std::int64_t(u / p.nb) * p.pr + p.my_row) * p.nb + std::int64_t(u % p.nb);
            if (test_bit(fresh, v)) {
                // An earlier rank of the rotation found v already (min mode only: otherwise
                // v would be marked completed and skipped).
                if (p.min_mode && par < cand[v]) cand[v] = par;
            } else {
                cand[v] = par;
                set_bit(fresh, v);
            }
            break;  // inner ids ascend: the first frontier in-neighbour is the block's smallest
        }
    }
    warp_add_counter(examined, ex);
}

}  // namespace

std::uint64_t bfs_bottom_up_piece(const CompressedDeviceView<Pattern>& block,
                                  const BottomUpPiece& piece, const std::uint64_t* front,
                                  const std::uint64_t* completed, std::uint64_t* fresh,
                                  std::int64_t* cand, Workspace& ws) {
    if (piece.k1 <= piece.k0) return 0;
    Workspace::Impl& w = ws.impl();
    w.zero_counters();
    bottom_up_piece_kernel<<<grid_for(piece.k1 - piece.k0), kBlockSize>>>(
        block, piece, front, completed, fresh, cand, w.counter_ptr() + kEntries);
    check_launch("bottom_up_piece_kernel");
    std::uint64_t host[kNumCounters];
    w.read_counters(host);
    return host[kEntries];
}

}  // namespace gridblas::cuda::detail
