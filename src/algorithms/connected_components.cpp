// Connected components: the entry point, which runs the sampling variant
// (connected_components_sampled.cpp, after Sutton, Ben-Nun & Barak, IPDPS 2018) unless
// sampling is off, and FastSV over the whole matrix.
//
// FastSV (Zhang, Azad & Hu, SIAM PP 2020): stochastic and aggressive
// hooking onto the smallest grandparent among the neighbours, shortcutting, and grandparents
// recomputed each iteration, until the grandparents stop changing. See
// connected_components.hpp for the steps. The labels live in dense arrays over each rank's
// piece; step 1 is one full mxv (spmv_full.hpp: one pass over the edges), the hooking and
// the grandparents indexed exchanges of full vectors (indexed.hpp), the rest local loops.

#include "gridblas/algorithms/connected_components.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "algorithms/algo_checks.hpp"
#include "algorithms/cc_detail.hpp"
#include "algorithms/indexed.hpp"
#include "gridblas/ops/spmv_full.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas {

namespace {
struct MinOp {
    gindex_t operator()(gindex_t a, gindex_t b) const { return b < a ? b : a; }
};
}  // namespace

namespace detail {
CcResult finish_cc_result(const DistMatrix<Pattern>& a, gindex_t begin, std::vector<gindex_t>&& f,
                          int iterations, double t0, comm::Communicator& world) {
    CcResult r;
    r.dist = a.row_dist();
    r.local_begin = begin;
    r.component = std::move(f);
    gindex_t roots = 0;
    for (std::size_t k = 0; k < r.component.size(); ++k) {
        roots += r.component[k] == begin + gindex_t(k);
    }
    r.components = world.allreduce(roots, comm::ReduceOp::sum, "cc-end");
    r.iterations = iterations;
    r.seconds = world.allreduce(comm::wtime() - t0, comm::ReduceOp::max, "cc-end");
    return r;
}
}  // namespace detail

CcResult connected_components(const DistMatrix<Pattern>& a, const CcOptions& options) {
    detail::check_graph_algorithm(a, "connected_components");
    if (options.sample_neighbors < 0) {
        throw InvalidValue("connected_components: sample_neighbors must not be negative, not " +
                           std::to_string(options.sample_neighbors));
    }
    const auto& grid = a.grid();
    comm::Communicator& world = grid->world();
    world.allreduce(0, comm::ReduceOp::sum, "cc-start");
    const double t0 = comm::wtime();
    if (options.sample_neighbors > 0) return detail::connected_components_sampled(a, options, t0);
    const gindex_t n = a.nrows();

    // f(u) = u; gf = f(f) = f; dense arrays over this rank's piece.
    const DistVector<gindex_t> shape(grid, n);
    const gindex_t begin = shape.local_begin();
    const std::size_t m = shape.local_size();
    const Distribution& d = shape.dist();
    std::vector<gindex_t> f(m), gf(m), mngf(m), in_edges, targets, next_gf;
    for (std::size_t k = 0; k < m; ++k) f[k] = begin + gindex_t(k);
    gf = f;
    FullSpmvWorkspace<gindex_t, gindex_t> ws;
    using Min = select2nd_min<gindex_t>;
    int iterations = 0;
    for (;;) {
        ++iterations;
        // 1. mngf(u) = min(gf(u), min over neighbours v of gf(v)): one pass over the edges.
        mxv_full<Min>(std::span<gindex_t>(mngf), std::span<const gindex_t>(gf), a, ws);
        if (!options.symmetric) {
            in_edges.resize(m);
            vxm_full<Min>(std::span<gindex_t>(in_edges), std::span<const gindex_t>(gf), a, ws);
            for (std::size_t k = 0; k < m; ++k) mngf[k] = std::min(mngf[k], in_edges[k]);
        }
        for (std::size_t k = 0; k < m; ++k) mngf[k] = std::min(mngf[k], gf[k]);
        // 2. Stochastic hooking: f(f(u)) = min(f(f(u)), mngf(u)), the targets taken first.
        targets = f;
        detail::scatter_combine_dense(f, targets, mngf, MinOp{}, d, begin, world);
        // 3. Aggressive hooking and 4. shortcutting.
        for (std::size_t k = 0; k < m; ++k) f[k] = std::min({f[k], mngf[k], gf[k]});
        // 5. Grandparents, and whether any changed.
        detail::gather_dense(next_gf, f, f, d, begin, world);
        gindex_t moved = 0;
        for (std::size_t k = 0; k < m; ++k) moved += next_gf[k] != gf[k];
        std::swap(gf, next_gf);
        if (world.allreduce(moved, comm::ReduceOp::sum, "cc-moved") == 0) break;
    }

    return detail::finish_cc_result(a, begin, std::move(f), iterations, t0, world);
}

}  // namespace gridblas
