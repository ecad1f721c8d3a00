#pragma once
// Gathers a per-vertex array (one value per vertex of each rank's piece) over this rank's row
// block (along the grid row) or column block (along the grid column), in block numbering.

#include <span>
#include <vector>

#include "gridblas/core/distribution.hpp"
#include "gridblas/core/process_grid.hpp"

namespace gridblas::detail {

/// Row-block or column-block copy of `piece` (block numbering, padded with `fill`), for any
/// element type. Pieces are full except possibly the last non-empty one, so the
/// concatenation in communicator order lands at offsets rank * nb. `counts` is the
/// allgatherv's scratch (callers that gather every search keep it). Collective over the row
/// or column.
template <class L>
void gather_block(ProcessGrid& grid, const Distribution& dist, const std::vector<L>& piece,
                  bool along_row, std::vector<L>& out, L fill, std::vector<int>& counts,
                  const char* site = "bfs-gather-block") {
    comm::Communicator& c = along_row ? grid.row() : grid.col();
    c.allgatherv(std::span<const L>(piece), out, counts, site);
    const std::size_t n = along_row ? dist.block_rows() : dist.block_cols();
    out.resize(n, fill);
}

/// The same with its own scratch.
template <class L>
void gather_block(ProcessGrid& grid, const Distribution& dist, const std::vector<L>& piece,
                  bool along_row, std::vector<L>& out, L fill) {
    std::vector<int> counts;
    gather_block(grid, dist, piece, along_row, out, fill, counts);
}

}  // namespace gridblas::detail
