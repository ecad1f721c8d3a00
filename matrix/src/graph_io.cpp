// read_graph_matrix_market: a BFS graph from a Matrix Market file, streamed by rank 0 in
// chunks, prepared (symmetrised, self-loops dropped) chunk by chunk and routed to the owners
// (on one rank, each edge once, its mirror added by the assembly);
// and read_matrix_market_header, the file's header on every rank.

#include "gridblas/matrix/graph_builders.hpp"

namespace gridblas {

DistMatrix<Pattern> read_graph_matrix_market(std::shared_ptr<ProcessGrid> grid,
                                             const std::string& path, const GraphOptions& g) {
    // The reader already gives both directions of each entry of a symmetric or
    // skew-symmetric file; adding the mirrors again would only make duplicates to fold.
    const bool file_mirrors = g.symmetrize && read_matrix_market_header(*grid, path).symmetry !=
                                                  MatrixMarketSymmetry::general;
    GraphOptions prepare = g;
    if (file_mirrors) prepare.symmetrize = false;
    // On one rank the graph is one square block: each edge is held once and the assembly
    // adds its other direction, as kronecker_graph() does.
    const bool fold = g.symmetrize && grid->size() == 1;
    return detail::stream_matrix_market<Pattern>(
        std::move(grid), path, detail::kGraphFileChunk, 0, true, g.build(),
        [&](std::vector<gindex_t>& rows, std::vector<gindex_t>& cols, ValueArray<Pattern>& vals) {
            if (fold) {
                detail::fold_edges(rows, cols, file_mirrors, g.drop_self_loops);
            } else {
                detail::prepare_edges(rows, cols, prepare);
            }
            vals.resize(rows.size());
        },
        KeepLast{}, fold);
}

MatrixMarketHeader read_matrix_market_header(ProcessGrid& grid, const std::string& path, int root) {
    comm::Communicator& world = grid.world();
    MatrixMarketHeader header;
    detail::run_collectively(world, [&] {
        if (root < 0 || root >= world.size()) {
            throw IndexOutOfBounds("read_matrix_market_header: root rank " + std::to_string(root) +
                                   " of " + std::to_string(world.size()));
        }
        if (world.rank() == root) header = MatrixMarketReader(path).header();
    });
    world.broadcast(std::span<MatrixMarketHeader>(&header, 1), root, "read-matrix-market");
    return header;
}

}  // namespace gridblas
