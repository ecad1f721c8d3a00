// Multi-source BFS: the frontier of k searches as a k x n matrix, one masked mxm over (any,
// pair) per level, levels merged into the visited matrix by the output stage. See
// multi_source_bfs.hpp.

#include "gridblas/algorithms/multi_source_bfs.hpp"

#include <optional>
#include <string>

#include "algorithms/algo_checks.hpp"
#include "gridblas/ops/matrix_output_stage.hpp"
#include "gridblas/ops/mxm.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas {

namespace {

/// Keeps the value C already has (the union's rule for the visited matrix).
struct KeepOld {
    gindex_t operator()(gindex_t old, gindex_t) const { return old; }
};

}  // namespace

MultiSourceBfsResult multi_source_bfs(const DistMatrix<Pattern>& a,
                                      const std::vector<gindex_t>& sources) {
    detail::check_graph_algorithm(a, "multi_source_bfs");
    const gindex_t n = a.nrows();
    if (sources.empty()) throw InvalidValue("multi_source_bfs: no source given");
    for (gindex_t s : sources) {
        if (s < 0 || s >= n) {
            throw IndexOutOfBounds("multi_source_bfs: source " + std::to_string(s) +
                                   " is not a vertex (the graph has " + std::to_string(n) + ")");
        }
    }
    const auto& grid = a.grid();
    comm::Communicator& world = grid->world();
    world.allreduce(0, comm::ReduceOp::sum, "msbfs-start");
    const double t0 = comm::wtime();
    const gindex_t k = gindex_t(sources.size());

    // Frontier and levels at level 0: entry (s, sources[s]); rank 0 passes the tuples.
    std::vector<gindex_t> r, c;
    ValueArray<gindex_t> zero;
    if (grid->rank() == 0) {
        for (gindex_t s = 0; s < k; ++s) {
            r.push_back(s);
            c.push_back(sources[std::size_t(s)]);
            zero.push_back(0);
        }
    }
    const BuildOptions fmt{DuplicatePolicy::reject, a.local_format()};
    MultiSourceBfsResult out;
    out.sources = sources;
    out.levels = DistMatrix<gindex_t>::from_tuples(grid, k, n, r, c, zero, fmt);
    DistMatrix<gindex_t> frontier = out.levels;
    Descriptor next_desc;
    next_desc.mask_complement = next_desc.mask_structural = next_desc.replace = true;
    for (gindex_t level = 1;; ++level) {
        auto next = DistMatrix<gindex_t>::shell(grid, k, n, fmt);
        mxm(next, out.levels, no_accum, any_pair<gindex_t>{}, frontier, a, next_desc);
        if (next.nvals() == 0) break;
        // levels = levels ∪ {(s, v, level) : next(s, v)}: the output stage with "keep the old
        // value" as accumulator (the new entries are never already in levels).
        apply_matrix_output_stage(
            out.levels, detail::MatrixMask(false), KeepOld{},
            detail::block_rows<gindex_t>(
                next,
                [level](lindex_t, lindex_t, gindex_t) { return std::optional<gindex_t>(level); }),
            Descriptor{});
        frontier = std::move(next);
        out.depth = int(level);
    }
    out.seconds = world.allreduce(comm::wtime() - t0, comm::ReduceOp::max, "msbfs-time");
    return out;
}

}  // namespace gridblas
