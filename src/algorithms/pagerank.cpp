// PageRank, LDBC Graphalytics definition (see pagerank.hpp): each iteration divides the ranks
// by the out-degrees, pushes them along the edges with one full vxm over (plus, times)
// (spmv_full.hpp: dense input, dense output, one pass over the edges, as GapBS's pull), adds
// the teleport and the evenly spread rank of the dangling vertices, and measures the L1
// change. The per-vertex arithmetic runs on dense arrays over each rank's piece (no
// communication); the vxm and two scalar sums are the only collective steps of an iteration.

#include "gridblas/algorithms/pagerank.hpp"

#include <cmath>
#include <span>
#include <string>

#include "algorithms/algo_checks.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/ops/spmv_full.hpp"
#include "gridblas/semirings/builtin.hpp"
#include "gridblas/vector/dist_vector.hpp"

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

    // The ranks live in dense arrays over this rank's piece; the only distributed operation
    // of an iteration is the full vxm (every vertex an input and an output: one pass over the
    // edges) that pushes PR(u) / |out(u)| along them. The out-degrees come the same way, from
    // a full mxv over (plus, pair) (0 marks a dangling vertex).
    const DistVector<double> shape(grid, n);
    const std::size_t m = shape.local_size();
    std::vector<double> deg(m, 0.0), rank(m, n > 0 ? 1.0 / nd : 0.0), contrib(m, 1.0),
        pushed(m, 0.0);
    FullSpmvWorkspace<double, double> ws;
    mxv_full<plus_pair<double>>(std::span<double>(deg), std::span<const double>(contrib), a, ws);
    PageRankResult r;
    // contrib(u) = PR(u) / |out(u)|; lost = the rank of the dangling vertices, summed.
    double lost = 0.0;
    const auto split = [&](std::size_t k) {
        const bool dangling = deg[k] == 0.0;
        contrib[k] = dangling ? 0.0 : rank[k] / deg[k];
        return dangling ? rank[k] : 0.0;
    };
    const int threads = kernels::detail::threads_for({}, m);  // one below 2^14 vertices
#pragma omp parallel for num_threads(threads) reduction(+ : lost) if (threads > 1)
    for (std::size_t k = 0; k < m; ++k) lost += split(k);
    for (int it = 0; it < o.iterations; ++it) {
        lost = world.allreduce(lost, comm::ReduceOp::sum, "pagerank-dangling");
        // pushed(v) = sum over edges u -> v of contrib(u).
        vxm_full<plus_times<double>>(std::span<double>(pushed), std::span<const double>(contrib), a,
                                     ws);
        // PR(v) = (1 - d)/n + d * lost / n + d * pushed(v), at every vertex; the L1 change;
        // and the next iteration's contributions, in the same pass.
        const double base = n > 0 ? (1.0 - d) / nd + d * lost / nd : 0.0;
        double change = 0.0, next_lost = 0.0;
#pragma omp parallel for num_threads(threads) reduction(+ : change, next_lost) if (threads > 1)
        for (std::size_t k = 0; k < m; ++k) {
            const double next = base + d * pushed[k];
            change += std::abs(next - rank[k]);
            rank[k] = next;
            next_lost += split(k);
        }
        lost = next_lost;
        r.residual = world.allreduce(change, comm::ReduceOp::sum, "pagerank-change");
        r.iterations = it + 1;
        if (o.tolerance > 0.0 && r.residual <= o.tolerance) break;
    }

    r.dist = a.row_dist();
    r.local_begin = shape.local_begin();
    r.rank = std::move(rank);
    r.seconds = world.allreduce(comm::wtime() - t0, comm::ReduceOp::max, "pagerank-end");
    return r;
}

}  // namespace gridblas
