// The device kernels of the distributed BFS's bottom-up sub-step (Buluç et al. 2017, Algorithm 4,
// as organised in src/bfs/bottom_up.cpp): each unvisited column of one piece of the rank's column
// block scans its in-edges for a frontier vertex and stops at the first one (Beamer et al., SC'12).
// Short columns get one thread each; columns longer than a warp go to a queue that a second kernel
// works through with one warp per column, 32 entries per round, stopping at the round that holds
// the first hit (the degree split of the GPU BFS of Merrill et al. 2012, as in the single-GPU pull
// of semiring_kernels.cu). The rotation of the piece's "completed" bitmap and candidates along the
// grid column stays on the host and the communication backend; these kernels are the part that
// reads the adjacency.

#include <algorithm>
#include <cstdint>

#include "cuda/backend.hpp"
#include "cuda/device_ops.cuh"
#include "gridblas/cuda/detail/bfs_entry_points.hpp"

namespace gridblas::cuda::detail {

namespace {

/// Columns longer than this are scanned by a whole warp.
constexpr offset_t kHeavyColumn = 32;

/// Global id of row-block row u (see BottomUpPiece::my_row); increasing in u.
__device__ __forceinline__ std::int64_t global_row(const BottomUpPiece& p, lindex_t u) {
    return (std::int64_t(u / p.nb) * p.pr + p.my_row) * p.nb + std::int64_t(u % p.nb);
}

/// Records parent `par` for piece vertex v: a first candidate, or (min mode) a smaller one
/// than an earlier rank's. The only writer of cand[v] in this launch.
__device__ __forceinline__ void offer(const BottomUpPiece& p, lindex_t v, std::int64_t par,
                                      std::uint64_t* fresh, std::int64_t* cand) {
    if (test_bit(fresh, v)) {
        // An earlier rank of the rotation found v already (min mode only: otherwise v would
        // be marked completed and skipped).
        if (p.min_mode && par < cand[v]) cand[v] = par;
    } else {
        cand[v] = par;
        set_bit(fresh, v);
    }
}

/// Thread per column of the piece; columns longer than kHeavyColumn are queued.
__global__ void bottom_up_light(CompressedDeviceView<Pattern> blk, BottomUpPiece p,
                                const std::uint64_t* front, const std::uint64_t* completed,
                                std::uint64_t* fresh, std::int64_t* cand, lindex_t* heavy,
                                std::uint64_t* counters) {
    unsigned long long ex = 0;
    const std::uint64_t count = p.k1 - p.k0;
    for (std::uint64_t t = thread_index(); t < count; t += thread_count()) {
        const std::uint64_t k = p.k0 + t;
        const lindex_t v = (blk.hyper ? blk.outer_ids[k] : lindex_t(k)) - p.col_off;
        if (test_bit(completed, v)) continue;
        const offset_t b = blk.ptr[k];
        const offset_t e = blk.ptr[k + 1];
        if (e - b > kHeavyColumn) {
            queue_push(counters + kHeavyRows, heavy, lindex_t(k));
            continue;
        }
        for (offset_t q = b; q < e; ++q) {
            ++ex;
            const lindex_t u = blk.inner[q];
            if (!test_bit(front, u)) continue;
            // Inner ids ascend: the first frontier in-neighbour is the block's smallest.
            offer(p, v, global_row(p, u), fresh, cand);
            break;
        }
    }
    warp_add_counter(counters + kEntries, ex);
}

/// One warp per queued column (warp_first_hit): the first frontier entry is the smallest
/// frontier in-neighbour. The entries counted are those a serial scan reads: up to and
/// including that hit.
__global__ void bottom_up_heavy(CompressedDeviceView<Pattern> blk, BottomUpPiece p,
                                const std::uint64_t* front, std::uint64_t* fresh,
                                std::int64_t* cand, const lindex_t* heavy,
                                std::uint64_t* counters) {
    const unsigned lane = threadIdx.x & 31;
    const std::uint64_t warps = thread_count() / 32;
    const std::uint64_t nheavy = counters[kHeavyRows];  // written by bottom_up_light
    unsigned long long ex = 0;
    for (std::uint64_t h = thread_index() / 32; h < nheavy; h += warps) {  // warp-uniform
        const std::uint64_t k = heavy[h];
        const lindex_t v = (blk.hyper ? blk.outer_ids[k] : lindex_t(k)) - p.col_off;
        const offset_t b = blk.ptr[k];
        const offset_t e = blk.ptr[k + 1];
        const offset_t q =
            warp_first_hit(blk.inner, b, e, [&](lindex_t u) { return test_bit(front, u); });
        if (lane == 0) {
            if (q < e) offer(p, v, global_row(p, blk.inner[q]), fresh, cand);
            ex += q < e ? q - b + 1 : e - b;  // entries a serial scan reads
        }
    }
    warp_add_counter(counters + kEntries, ex);
}

}  // namespace

std::uint64_t bfs_bottom_up_piece(const CompressedDeviceView<Pattern>& block,
                                  const BottomUpPiece& piece, const std::uint64_t* front,
                                  const std::uint64_t* completed, std::uint64_t* fresh,
                                  std::int64_t* cand, Workspace& ws) {
    if (piece.k1 <= piece.k0) return 0;
    Workspace::Impl& w = ws.impl();
    const std::uint64_t columns = piece.k1 - piece.k0;
    // At most min(columns, nnz / 33) columns are heavy.
    const std::uint64_t max_heavy =
        std::min<std::uint64_t>(columns, block.nnz / (kHeavyColumn + 1));
    w.heavy.reserve(std::max<std::uint64_t>(max_heavy, 1) * sizeof(lindex_t));
    lindex_t* heavy = w.heavy.as<lindex_t>();
    w.zero_counters();
    std::uint64_t* counters = w.counter_ptr();
    bottom_up_light<<<grid_for(columns), kBlockSize>>>(block, piece, front, completed, fresh, cand,
                                                       heavy, counters);
    check_launch("bottom_up_light");
    if (max_heavy > 0) {
        bottom_up_heavy<<<grid_for(max_heavy * 32), kBlockSize>>>(block, piece, front, fresh, cand,
                                                                  heavy, counters);
        check_launch("bottom_up_heavy");
    }
    std::uint64_t host[kNumCounters];
    w.read_counters(host);
    return host[kEntries];
}

}  // namespace gridblas::cuda::detail
