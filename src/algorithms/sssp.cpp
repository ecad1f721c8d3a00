// Single-source shortest paths by delta-stepping (Meyer & Sanders, J. Algorithms 2003) in the
// linear-algebra form of Sridhar et al. (GrAPL 2019): light edges relaxed round by round
// inside the lowest non-empty bucket, heavy edges once per bucket, parents from one vxm over
// (distance, vertex) pairs at the end. See sssp.hpp.

#include "gridblas/algorithms/sssp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "algorithms/algo_checks.hpp"
#include "gridblas/core/collective_check.hpp"
#include "gridblas/ops/apply.hpp"
#include "gridblas/ops/assign.hpp"
#include "gridblas/ops/ewise.hpp"
#include "gridblas/ops/reduce.hpp"
#include "gridblas/ops/select.hpp"
#include "gridblas/ops/spmv.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A tentative distance with the vertex it came through.
struct DistanceVia {
    double d;
    gindex_t via;
};

/// (min, +) on (distance, vertex) pairs: the product adds the edge weight to the distance
/// and keeps the vertex; the sum keeps the smaller distance, then the smaller vertex id.
struct min_plus_via {
    using value_type = DistanceVia;
    static DistanceVia zero() { return {kInf, std::numeric_limits<gindex_t>::max()}; }
    static DistanceVia add(DistanceVia a, DistanceVia b) {
        return (b.d < a.d || (b.d == a.d && b.via < a.via)) ? b : a;
    }
    static DistanceVia mul(double w, DistanceVia x) { return {x.d + w, x.via}; }
};

struct MinOp {
    double operator()(double a, double b) const { return b < a ? b : a; }
};
struct Second {
    double operator()(double, double b) const { return b; }
};

/// imp = the entries of req that improve on t (t absent counts as +infinity).
void improvements(DistVector<double>& imp, const DistVector<double>& req,
                  const DistVector<double>& t) {
    Descriptor on_req;
    on_req.mask_structural = on_req.replace = true;
    ewise_add(
        imp, req, no_accum, [](double r, double old) { return r < old ? r : -1.0; }, req, t,
        on_req);
    select(
        imp, no_mask, no_accum, [](gindex_t, double x) { return x >= 0.0; }, imp);
}

/// Checks the weights (one reduction) and returns {max weight, stored entries}.
std::pair<double, gindex_t> check_weights(const DistMatrix<double>& a) {
    double local[2] = {0.0, 0.0};  // bad weights, largest weight
    a.for_each_local([&](gindex_t, gindex_t, double w) {
        if (!(w > 0.0) || !std::isfinite(w)) local[0] += 1.0;
        local[1] = std::max(local[1], w);
    });
    comm::Communicator& world = a.grid()->world();
    double bad = world.allreduce(local[0], comm::ReduceOp::sum, "sssp-weights");
    double maxw = world.allreduce(local[1], comm::ReduceOp::max, "sssp-weights");
    if (bad > 0) {
        throw InvalidValue("sssp: " + std::to_string(gindex_t(bad)) +
                           " edge weights are not positive and finite");
    }
    return {maxw, a.nvals()};
}

}  // namespace

SsspResult sssp(const DistMatrix<double>& a, gindex_t source, const SsspOptions& o) {
    detail::check_graph_algorithm(a, "sssp");
    const gindex_t n = a.nrows();
    if (source < 0 || source >= n) {
        throw IndexOutOfBounds("sssp: source " + std::to_string(source) + " is not a vertex of a " +
                               std::to_string(n) + "-vertex graph");
    }
    if (!(o.delta >= 0.0)) {
        throw InvalidValue("sssp: delta " + std::to_string(o.delta) + " is negative or NaN");
    }
    const auto& grid = a.grid();
    comm::Communicator& world = grid->world();
    const auto [maxw, nnz] = check_weights(a);
    world.allreduce(0, comm::ReduceOp::sum, "sssp-start");
    const double t0 = comm::wtime();

    double delta = o.delta;
    if (delta == 0.0) {
        const double avg_degree = n > 0 ? double(nnz) / double(n) : 1.0;
        delta = maxw / std::max(1.0, avg_degree);
        if (!(delta > 0.0)) delta = 1.0;
    }
    const DistMatrix<double> light =
        select(a, [delta](gindex_t, gindex_t, double w) { return w <= delta; });
    const DistMatrix<double> heavy =
        select(a, [delta](gindex_t, gindex_t, double w) { return w > delta; });
    const bool has_heavy = heavy.nvals() > 0;

    // t: tentative distances (absent = infinity); done: vertices whose buckets are closed.
    std::vector<gindex_t> src_idx;
    ValueArray<double> src_val;
    if (world.rank() == 0) {
        src_idx.push_back(source);
        src_val.push_back(0.0);
    }
    DistVector<double> t = DistVector<double>::from_tuples(grid, n, src_idx, src_val);
    DistVector<double> done(grid, n), open(grid, n), frontier(grid, n), settled(grid, n),
        req(grid, n), imp(grid, n);
    Descriptor outside;  // ⟨¬mask, structural, replace⟩
    outside.mask_complement = outside.mask_structural = outside.replace = true;
    const MinOp min_op;
    SsspResult r;
    for (;;) {
        // The lowest non-empty bucket among the vertices not done.
        assign(open, done, no_accum, t, outside);
        const double m = reduce(open, min_op, kInf);
        if (m == kInf) break;
        double hi = kInf;
        if (std::isfinite(delta)) {
            hi = (std::floor(m / delta) + 1.0) * delta;
            if (!(hi > m)) hi = std::nextafter(m, kInf);
        }
        select(
            frontier, no_mask, no_accum, [hi](gindex_t, double x) { return x < hi; }, open);
        settled.clear();
        while (frontier.nvals() > 0) {
            ++r.rounds;
            ewise_add(settled, no_mask, no_accum, Second{}, settled, frontier);
            req.clear();
            vxm(req, no_mask, no_accum, min_plus<double>{}, frontier, light);
            improvements(imp, req, t);
            ewise_add(t, no_mask, no_accum, min_op, t, imp);
            assign(done, imp, no_accum, done, outside);  // improved: open again
            select(
                frontier, no_mask, no_accum, [hi](gindex_t, double x) { return x < hi; }, imp);
        }
        if (has_heavy) {
            ewise_mult(settled, no_mask, no_accum, Second{}, settled, t);
            req.clear();
            vxm(req, no_mask, no_accum, min_plus<double>{}, settled, heavy);
            improvements(imp, req, t);
            ewise_add(t, no_mask, no_accum, min_op, t, imp);
        }
        ewise_add(done, no_mask, no_accum, Second{}, done, settled);
        if (has_heavy) assign(done, imp, no_accum, done, outside);
        ++r.buckets;
    }

    // Parents: the smallest-id in-neighbour u with t(u) + w(u, v) = t(v).
    DistVector<DistanceVia> tv(grid, n), via(grid, n);
    apply_index(
        tv, no_mask, no_accum,
        [](gindex_t i, double x) {
            return DistanceVia{x, i};
        },
        t);
    vxm(via, no_mask, no_accum, min_plus_via{}, tv, a);

    r.dist = a.row_dist();
    r.local_begin = t.local_begin();
    r.source = source;
    r.delta = delta;
    r.distance = detail::dense_piece(t, kInf);
    r.parent.assign(r.distance.size(), -1);
    const std::vector<DistanceVia> best = detail::dense_piece(via, min_plus_via::zero());
    gindex_t reached = 0;
    for (std::size_t k = 0; k < r.distance.size(); ++k) {
        if (r.distance[k] == kInf) continue;
        ++reached;
        const gindex_t v = r.local_begin + gindex_t(k);
        r.parent[k] = v == source ? source : best[k].via;
    }
    r.reached = world.allreduce(reached, comm::ReduceOp::sum, "sssp-end");
    r.seconds = world.allreduce(comm::wtime() - t0, comm::ReduceOp::max, "sssp-end");
    return r;
}

}  // namespace gridblas
