// PageRank, LDBC Graphalytics definition (see pagerank.hpp): each iteration divides the ranks
// by the out-degrees, pushes them along the edges with one vxm over (plus, times), adds the
// teleport and the evenly spread rank of the dangling vertices, and measures the L1 change.

#include "gridblas/algorithms/pagerank.hpp"

#include <cmath>
#include <functional>
#include <string>

#include "algorithms/algo_checks.hpp"
#include "gridblas/ops/apply.hpp"
#include "gridblas/ops/assign.hpp"
#include "gridblas/ops/ewise.hpp"
#include "gridblas/ops/reduce.hpp"
#include "gridblas/ops/spmv.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas {

PageRankResult pagerank(const DistMatrix<Pattern>& a, const PageRankOptions& o) {
    detail::check_graph_algorithm(a, "pagerank");
    if (!(o.damping >= 0.0 && o.damping <= 1.0)) {
        throw InvalidValue("pagerank: damping " + std::to_string(o.damping) + " is outside [0, 1]");
    }
    if (o.iterations < 0) {
        throw InvalidValue("pagerank: iterations " + std::to_string(o.iterations) + " is negative");
    }
    if (!(o.tolerance >= 0.0)) {
        throw InvalidValue("pagerank: tolerance " + std::to_string(o.tolerance) +
                           " is negative or NaN");
    }
    const auto& grid = a.grid();
    comm::Communicator& world = grid->world();
    world.allreduce(0, comm::ReduceOp::sum, "pagerank-start");
    const double t0 = comm::wtime();
    const gindex_t n = a.nrows();
    const double nd = double(n);
    const double d = o.damping;

    // Out-degrees: one entry per vertex with out-edges (the others are dangling).
    DistVector<double> outdeg(grid, n);
    reduce(outdeg, no_mask, no_accum, std::plus<double>{}, a);
    Descriptor dangling_only;
    dangling_only.mask_complement = dangling_only.mask_structural = dangling_only.replace = true;

    DistVector<double> pr = DistVector<double>::full(grid, n, n > 0 ? 1.0 / nd : 0.0);
    DistVector<double> contrib(grid, n), pushed(grid, n), dangling(grid, n), next(grid, n),
        change(grid, n);
    const auto plus = std::plus<double>{};
    PageRankResult r;
    for (int it = 0; it < o.iterations; ++it) {
        // contrib(u) = PR(u) / |out(u)| for u with out-edges; the dangling ranks summed.
        ewise_mult(contrib, no_mask, no_accum, std::divides<double>{}, pr, outdeg);
        assign(dangling, outdeg, no_accum, pr, dangling_only);
        const double lost = reduce(dangling, plus, 0.0);
        // pushed(v) = sum over edges u -> v of contrib(u).
        pushed.clear();
        vxm(pushed, no_mask, no_accum, plus_times<double>{}, contrib, a);
        // next = (1 - d)/n + d * lost / n + d * pushed, at every vertex.
        const double base = n > 0 ? (1.0 - d) / nd + d * lost / nd : 0.0;
        assign_scalar(next, no_mask, no_accum, base);
        apply(
            pushed, no_mask, no_accum, [d](double x) { return d * x; }, pushed);
        ewise_add(next, no_mask, no_accum, plus, next, pushed);
        // L1 change.
        ewise_add(
            change, no_mask, no_accum, [](double x, double y) { return std::abs(x - y); }, next,
            pr);
        r.residual = reduce(change, plus, 0.0);
        std::swap(pr, next);
        r.iterations = it + 1;
        if (o.tolerance > 0.0 && r.residual <= o.tolerance) break;
    }

    r.dist = a.row_dist();
    r.local_begin = pr.local_begin();
    r.rank = detail::dense_piece(pr, 0.0);
    r.seconds = world.allreduce(comm::wtime() - t0, comm::ReduceOp::max, "pagerank-end");
    return r;
}

}  // namespace gridblas
