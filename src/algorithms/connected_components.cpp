// Connected components by FastSV (Zhang, Azad & Hu, SIAM PP 2020): stochastic and aggressive
// hooking onto the smallest grandparent among the neighbours, shortcutting, and grandparents
// recomputed each iteration, until the grandparents stop changing. See
// connected_components.hpp for the steps.

#include "gridblas/algorithms/connected_components.hpp"

#include "algorithms/algo_checks.hpp"
#include "algorithms/indexed.hpp"
#include "gridblas/ops/apply.hpp"
#include "gridblas/ops/assign.hpp"
#include "gridblas/ops/ewise.hpp"
#include "gridblas/ops/reduce.hpp"
#include "gridblas/ops/spmv.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas {

namespace {
struct MinOp {
    gindex_t operator()(gindex_t a, gindex_t b) const { return b < a ? b : a; }
};
}  // namespace

CcResult connected_components(const DistMatrix<Pattern>& a, const CcOptions& options) {
    detail::check_graph_algorithm(a, "connected_components");
    const auto& grid = a.grid();
    comm::Communicator& world = grid->world();
    world.allreduce(0, comm::ReduceOp::sum, "cc-start");
    const double t0 = comm::wtime();
    const gindex_t n = a.nrows();

    // f(u) = u; gf = f(f) = f.
    DistVector<gindex_t> f = DistVector<gindex_t>::full(grid, n, 0);
    apply_index(
        f, no_mask, no_accum, [](gindex_t i, gindex_t) { return i; }, f);
    DistVector<gindex_t> gf = f, mngf(grid, n), next_gf(grid, n), changed(grid, n);
    const MinOp min_op;
    int iterations = 0;
    for (;;) {
        ++iterations;
        // 1. mngf(u) = min(gf(u), min over neighbours v of gf(v)).
        assign(mngf, no_mask, no_accum, gf);
        mxv(mngf, no_mask, min_op, select2nd_min<gindex_t>{}, a, gf);
        if (!options.symmetric) vxm(mngf, no_mask, min_op, select2nd_min<gindex_t>{}, gf, a);
        // 2. Stochastic hooking: f(f(u)) = min(f(f(u)), mngf(u)).
        detail::scatter_combine(f, f, mngf, min_op);
        // 3. Aggressive hooking and 4. shortcutting.
        ewise_add(f, no_mask, no_accum, min_op, f, mngf);
        ewise_add(f, no_mask, no_accum, min_op, f, gf);
        // 5. Grandparents, and whether any changed.
        detail::gather_at(next_gf, f, f);
        ewise_mult(
            changed, no_mask, no_accum, [](gindex_t x, gindex_t y) { return gindex_t(x != y); },
            next_gf, gf);
        const gindex_t moved = reduce(changed, std::plus<gindex_t>{}, gindex_t(0));
        std::swap(gf, next_gf);
        if (moved == 0) break;
    }

    CcResult r;
    r.dist = a.row_dist();
    r.local_begin = f.local_begin();
    r.component = detail::dense_piece(f, gindex_t(-1));
    gindex_t roots = 0;
    for (std::size_t k = 0; k < r.component.size(); ++k) {
        roots += r.component[k] == r.local_begin + gindex_t(k);
    }
    r.components = world.allreduce(roots, comm::ReduceOp::sum, "cc-end");
    r.iterations = iterations;
    r.seconds = world.allreduce(comm::wtime() - t0, comm::ReduceOp::max, "cc-end");
    return r;
}

}  // namespace gridblas
