// Batched Brandes betweenness centrality on masked mxm: frontiers of k searches as k x n
// matrices, path counts and dependencies as dense arrays over each rank's block. See
// betweenness.hpp for the recurrences.

#include "gridblas/algorithms/betweenness.hpp"

#include <optional>
#include <string>

#include "algorithms/algo_checks.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"
#include "gridblas/ops/mxm.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas {

BcResult betweenness_centrality(const DistMatrix<Pattern>& a, const std::vector<gindex_t>& sources,
                                const BcOptions& options) {
    detail::check_graph_algorithm(a, "betweenness_centrality");
    const gindex_t n = a.nrows();
    if (sources.empty()) throw InvalidValue("betweenness_centrality: no source given");
    for (gindex_t s : sources) {
        if (s < 0 || s >= n) {
            throw IndexOutOfBounds("betweenness_centrality: source " + std::to_string(s) +
                                   " is not a vertex (the graph has " + std::to_string(n) + ")");
        }
    }
    const auto& grid = a.grid();
    comm::Communicator& world = grid->world();
    world.allreduce(0, comm::ReduceOp::sum, "bc-start");
    const double t0 = comm::wtime();
    const gindex_t k = gindex_t(sources.size());
    const BuildOptions fmt{DuplicatePolicy::reject, a.local_format()};

    // Forward sweep: F_0 = (s, sources[s], 1); F_{d+1}⟨¬P⟩ = F_d A; P = Σ F_d.
    std::vector<gindex_t> r, c;
    ValueArray<double> one;
    if (grid->rank() == 0) {
        for (gindex_t s = 0; s < k; ++s) {
            r.push_back(s);
            c.push_back(sources[std::size_t(s)]);
            one.push_back(1.0);
        }
    }
    std::vector<DistMatrix<double>> frontier;
    frontier.push_back(DistMatrix<double>::from_tuples(grid, k, n, r, c, one, fmt));
    DistMatrix<double> paths = frontier.back();
    Descriptor unvisited;
    unvisited.mask_complement = unvisited.mask_structural = unvisited.replace = true;
    for (;;) {
        auto next = DistMatrix<double>::shell(grid, k, n, fmt);
        mxm(next, paths, no_accum, plus_times<double>{}, frontier.back(), a, unvisited);
        if (next.nvals() == 0) break;
        apply_matrix_output_stage(
            paths, detail::MatrixMask(false), std::plus<double>{},
            detail::block_rows<double>(
                next, [](lindex_t, lindex_t, double x) { return std::optional<double>(x); }),
            Descriptor{});
        frontier.push_back(std::move(next));
    }
    const int depth = int(frontier.size()) - 1;

    // σ and 1 + δ as dense arrays over the block.
    const lindex_t brows = paths.row_dist().block_rows();
    const lindex_t bcols = paths.col_dist().block_cols();
    auto at = [bcols](lindex_t row, lindex_t col) { return std::size_t(row) * bcols + col; };
    std::vector<double> sigma(std::size_t(brows) * bcols, 0.0);
    std::vector<double> bcu(std::size_t(brows) * bcols, 1.0);
    paths.by_row().for_each([&](lindex_t i, lindex_t j, double x) { sigma[at(i, j)] = x; });

    // Backward sweep over depths D .. 2 (depth 0 is the source itself, left out).
    std::optional<DistMatrix<Pattern>> transposed;
    if (!options.symmetric) transposed.emplace(a.transpose());
    const DistMatrix<Pattern>& at_graph = transposed ? *transposed : a;
    Descriptor on_level;
    on_level.mask_structural = on_level.replace = true;
    for (int d = depth; d >= 2; --d) {
        auto w = DistMatrix<double>::shell(grid, k, n, fmt);
        w.assemble_rows(detail::block_rows<double>(
            frontier[std::size_t(d)], [&](lindex_t i, lindex_t j, double) {
                return std::optional<double>(bcu[at(i, j)] / sigma[at(i, j)]);
            }));
        auto up = DistMatrix<double>::shell(grid, k, n, fmt);
        mxm(up, frontier[std::size_t(d - 1)], no_accum, plus_times<double>{}, w, at_graph,
            on_level);
        up.by_row().for_each(
            [&](lindex_t i, lindex_t j, double x) { bcu[at(i, j)] += x * sigma[at(i, j)]; });
        frontier.pop_back();
    }

    // centrality(v) = Σ_s δ_s(v): column sums of the block, summed down the grid column.
    std::vector<double> colsum(bcols, 0.0);
    for (lindex_t i = 0; i < brows; ++i) {
        for (lindex_t j = 0; j < bcols; ++j) colsum[j] += bcu[at(i, j)] - 1.0;
    }
    grid->col().allreduce(std::span<double>(colsum), comm::ReduceOp::sum, "bc-sum");
    BcResult out;
    out.dist = Distribution(n, grid->pr(), grid->pc());
    const int piece = out.dist.piece_at(grid->my_row(), grid->my_col());
    out.local_begin = out.dist.piece_begin(piece);
    const gindex_t len = out.dist.piece_size(piece);
    const std::size_t first = std::size_t(grid->my_row()) * std::size_t(out.dist.nb);
    const double scale = options.symmetric ? 0.5 : 1.0;
    out.centrality.resize(std::size_t(len));
    for (gindex_t v = 0; v < len; ++v) {
        out.centrality[std::size_t(v)] = scale * colsum[first + std::size_t(v)];
    }
    out.depth = depth;
    out.seconds = world.allreduce(comm::wtime() - t0, comm::ReduceOp::max, "bc-time");
    return out;
}

}  // namespace gridblas
