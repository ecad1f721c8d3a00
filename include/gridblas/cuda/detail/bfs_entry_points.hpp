#pragma once
/// @file bfs_entry_points.hpp
/// @brief The CUDA backend's entry point for one piece of the distributed bottom-up BFS step
/// (src/bfs/bottom_up.cpp, Buluç et al. 2017, Algorithm 4). Valid C++17 with no CUDA header; a
/// build without CUDA defines it to throw NotCompiled. Not meant for users: BfsSolver calls it when
/// its grid runs on the cuda backend.

#include <cstddef>
#include <cstdint>

#include "gridblas/core/types.hpp"
#include "gridblas/cuda/device_base.hpp"

namespace gridblas::cuda::detail {

/// Which part of the column-compressed block one rotation sub-step scans, and how its row
/// ids map to global vertex ids.
struct BottomUpPiece {
    std::size_t k0 = 0;    ///< first outer position (column) of the piece in the block
    std::size_t k1 = 0;    ///< one past the last
    lindex_t col_off = 0;  ///< column-block id of the piece's first vertex
    gindex_t nb = 1;       ///< piece size of the vertex distribution
    int pr = 1;            ///< grid rows
    int my_row = 0;        ///< grid row of this rank: row-block id u is global vertex
                           ///< ((u / nb) * pr + my_row) * nb + u % nb
    bool min_mode = true;  ///< keep the smallest parent; otherwise the first one found
};

/// For every column v of the piece (outer positions k0 .. k1-1, v = outer id - col_off)
/// whose bit in `completed` is clear, reads v's in-edges (inner ids ascending) until one
/// comes from a vertex whose bit in `front` is set; that vertex's global id becomes v's
/// candidate: written to cand[v] with bit v of `fresh` set, or, when the bit was already set
/// by an earlier rank of the rotation, kept only if smaller (min_mode). A column is scanned
/// by one thread, or by one warp when it holds more than 32 entries; either way cand[v] has
/// a single writer. All pointers are device memory. Returns the adjacency entries a serial
/// scan would read, up to and including each column's first hit (synchronises once).
/// @throws NotCompiled without the backend; CudaError
std::uint64_t bfs_bottom_up_piece(const CompressedDeviceView<Pattern>& block,
                                  const BottomUpPiece& piece, const std::uint64_t* front,
                                  const std::uint64_t* completed, std::uint64_t* fresh,
                                  std::int64_t* cand, Workspace& ws);

}  // namespace gridblas::cuda::detail
