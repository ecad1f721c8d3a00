// read_graph_matrix_market: a BFS graph from a Matrix Market file, streamed by rank 0 in
// chunks, prepared (symmetrised, self-loops dropped) chunk by chunk and routed to the owners.

#include "gridblas/matrix/graph_builders.hpp"

namespace gridblas {

DistMatrix<Pattern> read_graph_matrix_market(std::shared_ptr<ProcessGrid> grid,
                                             const std::string& path, const GraphOptions& g) {
    return detail::stream_matrix_market<Pattern>(
        std::move(grid), path, std::size_t(1) << 20, 0, true, g.build(),
        [&](std::vector<gindex_t>& rows, std::vector<gindex_t>& cols, ValueArray<Pattern>& vals) {
            detail::prepare_edges(rows, cols, g);
            vals.resize(rows.size());
        },
        KeepLast{});
}

}  // namespace gridblas
