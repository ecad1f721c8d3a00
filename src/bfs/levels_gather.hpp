#pragma once
// Gathers a per-vertex array (one value per vertex of each rank's piece) over this rank's row
// block (along the grid row) or column block (along the grid column), in block numbering.

#include <span>
#include <vector>

#include "gridblas/core/distribution.hpp"
#include "gridblas/core/process_grid.hpp"

namespace gridblas::detail {

/// Row-block or column-block copy of `piece` (block numbering, padded with `fill`).
/// Pieces are full except possibly the last non-empty one, so the concatenation in
/// communicator order lands at offsets rank * nb. Collective over the row or column.
inline void gather_block(ProcessGrid& grid, const Distribution& dist,
                         const std::vector<gindex_t>& piece, bool along_row,
                         std::vector<gindex_t>& out, gindex_t fill) {
    std::vector<int> counts;
    comm::Communicator& c = along_row ? grid.row() : grid.col();
    c.allgatherv(std::span<const gindex_t>(piece), out, counts, "bfs-gather-block");
    const std::size_t n = along_row ? dist.block_rows() : dist.block_cols();
    out.resize(n, fill);
}

}  // namespace gridblas::detail
