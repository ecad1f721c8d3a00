// PageRank, LDBC Graphalytics definition (see pagerank.hpp): each iteration divides the ranks
// by the out-degrees, pushes them along the edges with one vxm over (plus, times), adds the
// teleport and the evenly spread rank of the dangling vertices, and measures the L1 change.
// The per-vertex arithmetic runs on dense arrays over each rank's piece (no communication);
// the vxm and two scalar sums are the only collective steps of an iteration.

#include "gridblas/algorithms/pagerank.hpp"

#include <cmath>
#include <functional>
#include <string>

#include "algorithms/algo_checks.hpp"
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

    // The ranks live in dense arrays over this rank's piece; the only distributed operation
    // of an iteration is the vxm that pushes PR(u) / |out(u)| along the edges. Its input is a
    // bitmap vector whose bits (the vertices with out-edges) are set once and whose values
    // are rewritten in place.
    const std::vector<double> deg = detail::dense_piece(outdeg, 0.0);
    const std::size_t m = deg.size();
    std::vector<double> rank(m, n > 0 ? 1.0 / nd : 0.0), next(m, 0.0);
    DistVector<double> contrib(grid, n), pushed(grid, n);
    contrib.to_format(VectorFormat::bitmap);
    BitmapVector<double>& cb = contrib.bitmap();
    for (std::size_t k = 0; k < m; ++k) {
        if (deg[k] > 0) cb.set(lindex_t(k), 0.0);
    }
    const gindex_t begin = contrib.local_begin();
    PageRankResult r;
    for (int it = 0; it < o.iterations; ++it) {
        // contrib(u) = PR(u) / |out(u)|; the rank of the dangling vertices, summed.
        double lost = 0.0;
        for (std::size_t k = 0; k < m; ++k) {
            if (deg[k] > 0) {
                cb.value(lindex_t(k)) = rank[k] / deg[k];
            } else {
                lost += rank[k];
            }
        }
        lost = world.allreduce(lost, comm::ReduceOp::sum, "pagerank-dangling");
        // pushed(v) = sum over edges u -> v of contrib(u).
        pushed.clear();
        vxm(pushed, no_mask, no_accum, plus_times<double>{}, contrib, a);
        // next = (1 - d)/n + d * lost / n + d * pushed, at every vertex; the L1 change.
        const double base = n > 0 ? (1.0 - d) / nd + d * lost / nd : 0.0;
        std::fill(next.begin(), next.end(), base);
        pushed.for_each_local([&](gindex_t g, double x) { next[std::size_t(g - begin)] += d * x; });
        double change = 0.0;
        for (std::size_t k = 0; k < m; ++k) change += std::abs(next[k] - rank[k]);
        r.residual = world.allreduce(change, comm::ReduceOp::sum, "pagerank-change");
        std::swap(rank, next);
        r.iterations = it + 1;
        if (o.tolerance > 0.0 && r.residual <= o.tolerance) break;
    }

    r.dist = a.row_dist();
    r.local_begin = begin;
    r.rank = std::move(rank);
    r.seconds = world.allreduce(comm::wtime() - t0, comm::ReduceOp::max, "pagerank-end");
    return r;
}

}  // namespace gridblas
