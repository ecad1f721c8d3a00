// read_graph_matrix_market: a BFS graph from a Matrix Market file, streamed by rank 0 in
// chunks, prepared (symmetrised, self-loops dropped) and routed to the owners.

#include "gridblas/matrix/graph_builders.hpp"

namespace gridblas {

DistMatrix<Pattern> read_graph_matrix_market(std::shared_ptr<ProcessGrid> grid,
                                             const std::string& path, const GraphOptions& g) {
    comm::Communicator& world = grid->world();
    const bool root = world.rank() == 0;
    std::unique_ptr<MatrixMarketReader> reader;
    gindex_t dims[2] = {0, 0};
    detail::run_collectively(world, [&] {
        if (root) {
            reader = std::make_unique<MatrixMarketReader>(path);
            dims[0] = reader->header().nrows;
            dims[1] = reader->header().ncols;
            if (dims[0] != dims[1]) {
                throw DimensionMismatch(path + ": a graph needs a square matrix, this one is " +
                                        std::to_string(dims[0]) + " x " + std::to_string(dims[1]));
            }
        }
    });
    world.broadcast(std::span<gindex_t>(dims, 2), 0, "read-graph");
    DistMatrix<Pattern> m;
    detail::run_collectively(
        world, [&] { m = DistMatrix<Pattern>::shell(grid, dims[0], dims[0], g.build()); });
    DistMatrix<Pattern>::LocalTuples acc;
    CooMatrix<Pattern, gindex_t> chunk;
    int more = 1;
    while (more) {
        chunk.clear();
        detail::run_collectively(world, [&] {
            if (root) more = reader->read_chunk<Pattern>(std::size_t(1) << 20, chunk) ? 1 : 0;
        });
        world.broadcast(std::span<int>(&more, 1), 0, "read-graph");
        detail::prepare_edges(chunk.rows, chunk.cols, g);
        m.route_append(chunk.rows, chunk.cols, ValueArray<Pattern>(chunk.rows.size()), acc);
    }
    m.assemble(std::move(acc), g.build());
    return m;
}

}  // namespace gridblas
