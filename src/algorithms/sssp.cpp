// Single-source shortest paths by delta-stepping (Meyer & Sanders, J. Algorithms 2003) on
// gridblas' operations, with the work of each round proportional to its frontier as in
// GapBS's sssp.cc (Beamer et al., "The GAP Benchmark Suite", 2015): the distances live in a
// dense array over each rank's piece and the buckets are lists of local vertices (stale
// entries dropped when a bucket comes up); a round relaxes every out-edge of the frontier
// with one vxm_update over (min, +) (a push accumulated straight into the piece's distance
// array; Sridhar et al., GrAPL 2019, give the linear-algebra form) and looks only at the
// distances it changed. The parents come from one pass over the edges at the end (vxm_full
// over (min, +) on (distance, vertex) pairs). See sssp.hpp.

#include "gridblas/algorithms/sssp.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "algorithms/algo_checks.hpp"
#include "gridblas/ops/spmv_full.hpp"
#include "gridblas/ops/spmv_update.hpp"
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
    // The bucket of a distance: floor(x / delta) (as a double: any delta works), 0 for all
    // distances when delta is infinite.
    const auto bucket_of = [delta](double x) {
        return std::isfinite(delta) ? std::floor(x / delta) : 0.0;
    };

    // This rank's piece: the distances, and the buckets (lists of local vertices, possibly
    // with stale entries: a vertex whose distance has left the bucket, or twice listed).
    const DistVector<double> shape(grid, n);
    const gindex_t begin = shape.local_begin();
    const std::size_t m = shape.local_size();
    std::vector<double> dist(m, kInf);
    std::map<double, std::vector<lindex_t>> buckets;
    if (source >= begin && source < begin + gindex_t(m)) {
        dist[std::size_t(source - begin)] = 0.0;
        buckets[0.0].push_back(lindex_t(source - begin));
    }
    UpdateSpmvWorkspace<double, double> ws;
    std::vector<lindex_t> now, changed;  // the frontier's local vertices, ascending
    std::vector<double> offers;          // their distances
    std::array<std::vector<lindex_t>*, 64> near;
    SsspResult r;
    for (;;) {
        // The lowest bucket with a live entry, on this rank and then on all.
        double mine = kInf;
        while (!buckets.empty()) {
            auto it = buckets.begin();
            std::vector<lindex_t>& list = it->second;
            std::sort(list.begin(), list.end());
            list.erase(std::unique(list.begin(), list.end()), list.end());
            const double key = it->first;
            std::erase_if(list, [&](lindex_t k) { return bucket_of(dist[k]) != key; });
            if (!list.empty()) {
                mine = key;
                break;
            }
            buckets.erase(it);
        }
        const double cur = world.allreduce(mine, comm::ReduceOp::min, "sssp-bucket");
        if (cur == kInf) break;
        ++r.buckets;
        now.clear();
        if (mine == cur) {
            now.swap(buckets.begin()->second);
            buckets.erase(buckets.begin());
        }
        // The lists of the next buckets, found once: improvements land within max weight / Δ
        // buckets of this one, so a map lookup per improved vertex would be the most of it.
        near.fill(nullptr);
        const auto list_of = [&](double b) -> std::vector<lindex_t>& {
            const double o = b - cur;
            if (o >= double(near.size())) return buckets[b];
            std::vector<lindex_t>*& p = near[std::size_t(o)];
            if (p == nullptr) p = &buckets[b];
            return *p;
        };
        // Rounds: relax every out-edge of the frontier into the distances; the vertices
        // improved into this bucket are the next round's frontier, the others wait in their
        // buckets.
        while (world.allreduce(gindex_t(now.size()), comm::ReduceOp::sum, "sssp-round") > 0) {
            ++r.rounds;
            offers.resize(now.size());
            for (std::size_t e = 0; e < now.size(); ++e) offers[e] = dist[now[e]];
            vxm_update<min_plus<double>>(std::span<double>(dist), std::span<const lindex_t>(now),
                                         std::span<const double>(offers), a, ws, changed);
            now.clear();
            for (const lindex_t k : changed) {
                const double b = bucket_of(dist[k]);
                if (b == cur) {
                    now.push_back(k);
                } else {
                    list_of(b).push_back(k);
                }
            }
        }
    }

    // Parents: one pass over the edges, (min, +) on (distance, vertex) pairs — the parent of
    // v is the smallest-id in-neighbour u with d(u) + w(u, v) = d(v).
    std::vector<DistanceVia> tv(m), via(m);
    for (std::size_t k = 0; k < m; ++k) tv[k] = {dist[k], begin + gindex_t(k)};
    FullSpmvWorkspace<DistanceVia, DistanceVia> pws;
    vxm_full<min_plus_via>(std::span<DistanceVia>(via), std::span<const DistanceVia>(tv), a, pws);

    r.dist = a.row_dist();
    r.local_begin = begin;
    r.source = source;
    r.delta = delta;
    r.parent.assign(m, -1);
    gindex_t reached = 0;
    for (std::size_t k = 0; k < m; ++k) {
        if (dist[k] == kInf) continue;
        ++reached;
        r.parent[k] = begin + gindex_t(k) == source ? source : via[k].via;
    }
    r.distance = std::move(dist);
    r.reached = world.allreduce(reached, comm::ReduceOp::sum, "sssp-end");
    r.seconds = world.allreduce(comm::wtime() - t0, comm::ReduceOp::max, "sssp-end");
    return r;
}

}  // namespace gridblas
