// Single-source shortest paths by delta-stepping (Meyer & Sanders, J. Algorithms 2003) on
// gridblas' operations, with the work of each round proportional to its frontier as in
// GapBS's sssp.cc (Beamer et al., "The GAP Benchmark Suite", 2015): the distances live in a
// dense array over each rank's piece and the buckets are lists of local vertices in a ring
// indexed by bucket number (sssp_buckets.hpp; stale entries dropped when a bucket comes
// up); a round relaxes every out-edge of the frontier with one vxm_update over (min, +) (a
// push accumulated straight into the piece's distance array; Sridhar et al., GrAPL 2019,
// give the linear-algebra form) and looks only at the distances it changed. With float
// weights the parent travels with the distance in one 64-bit label (sssp_labels.hpp), so the
// relaxation records it; with double weights the parents come from one scan of the edges at
// the end that stops at each vertex's first in-neighbour attaining its distance
// (vxm_witness). See sssp.hpp.

#include "gridblas/algorithms/sssp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "algorithms/algo_checks.hpp"
#include "algorithms/sssp_buckets.hpp"
#include "algorithms/sssp_labels.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/spmspv_update.hpp"
#include "gridblas/ops/spmv_update.hpp"
#include "gridblas/ops/spmv_witness.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas {

namespace {

template <class W>
constexpr W kInf = std::numeric_limits<W>::infinity();

/// Checks the weights (one reduction) and returns {max weight, stored entries}.
template <class W>
std::pair<double, gindex_t> check_weights(const DistMatrix<W>& a) {
    // One pass over this rank's stored values (a loop the compiler vectorises, over the
    // threads): NaN fails both tests, +infinity the second.
    const CompressedBlock<W>& b = a.by_row();
    const ValueArray<W>& vals = b.format() == LocalFormat::dcsc ? b.dcsc().num() : b.csr().vals();
    const W* w = vals.data();
    const std::size_t count = vals.size();
    const int threads = kernels::detail::threads_for(kernels::ParallelPolicy{}, count);
    std::int64_t bad = 0;
    double maxw = 0.0;
#pragma omp parallel for num_threads(threads) reduction(+ : bad) reduction(max : maxw) \
    if (threads > 1)
    for (std::size_t k = 0; k < count; ++k) {
        bad += (w[k] > W(0) && w[k] < kInf<W>) ? 0 : 1;
        maxw = std::max(maxw, double(w[k]));
    }
    double local[2] = {double(bad), maxw};  // bad weights, largest weight
    comm::Communicator& world = a.grid()->world();
    const double bad_all = world.allreduce(local[0], comm::ReduceOp::sum, "sssp-weights");
    const double maxw_all = world.allreduce(local[1], comm::ReduceOp::max, "sssp-weights");
    if (bad_all > 0) {
        throw InvalidValue("sssp: " + std::to_string(gindex_t(bad_all)) +
                           " edge weights are not positive and finite");
    }
    return {maxw_all, a.nvals()};
}

/// The delta-stepping search proper over this rank's piece `shape` of the vertices: returns
/// its labels (L::unreached() where unreached) and counts the relaxations into `relaxed` and
/// the buckets and rounds into r.
template <class L, class W>
std::vector<typename L::Label> search(const DistMatrix<W>& a, const DistVector<double>& shape,
                                      gindex_t source, double delta, double maxw, SsspResult& r,
                                      std::uint64_t& relaxed) {
    using Label = typename L::Label;
    using S = typename L::Semiring;
    comm::Communicator& world = a.grid()->world();
    // The bucket of a finite distance: floor(x / delta), computed as floor(x * (1 / delta)),
    // which is as monotone in x (all that delta-stepping needs) and spares a division per
    // improved vertex; 0 for all distances when delta is infinite. A double: any delta works.
    const double inverse = std::isfinite(delta) ? 1.0 / delta : 0.0;
    const auto bucket_of = [inverse](double x) { return std::floor(x * inverse); };

    // This rank's piece: the labels, and the buckets (lists of local vertices, possibly with
    // stale entries: vertices whose distance has since moved to a lower bucket). seen[k] is
    // the distance at which vertex k last joined a bucket or a round's frontier: a change of
    // label at the same distance (a smaller parent id) needs no new expansion, and since
    // distances only decrease, a vertex never rejoins a bucket it left and no list holds a
    // vertex twice.
    const gindex_t begin = shape.local_begin();
    const std::size_t m = shape.local_size();
    std::vector<Label> label(m, L::unreached());
    std::vector<W> seen(m, kInf<W>);
    std::vector<std::uint64_t> bits((m + 63) / 64, 0);  // for ordering lists; zero between uses
    // Improvements land at most max weight / delta (+ 2 for the rounding of the two
    // floors) buckets above the one being processed.
    detail::SsspBuckets buckets(maxw * inverse + 2.0);
    if (source >= begin && source < begin + gindex_t(m)) {
        const std::size_t k = std::size_t(source - begin);
        label[k] = L::source(source);
        seen[k] = W(0);
        buckets.push(0.0, lindex_t(k));
    }
    UpdateSpmvWorkspace<Label, Label> ws;
    std::vector<lindex_t> now, changed;  // the frontier's local vertices, ascending
    std::vector<Label> offers;           // what they offer their out-neighbours
    for (;;) {
        // The lowest bucket with a live entry, on this rank and then on all. An entry is
        // stale when its vertex has since moved to a lower bucket; the labels sit at random
        // places, so the one a few entries ahead is prefetched.
        const double mine =
            buckets.lowest([&](const std::vector<lindex_t>& list, std::size_t e, double key) {
                if (e + 16 < list.size()) __builtin_prefetch(label.data() + list[e + 16]);
                return bucket_of(L::distance(label[list[e]])) == key;
            });
        const double cur = world.allreduce(mine, comm::ReduceOp::min, "sssp-bucket");
        if (cur == kInf<double>) break;
        ++r.buckets;
        buckets.advance(cur);
        now.clear();
        if (mine == cur) {
            buckets.take(cur, now);
            // Ascending, as vxm_update takes it: a sort, or a scan of the bits when the
            // list is long.
            for (const lindex_t k : now) bits[k >> 6] |= std::uint64_t(1) << (k & 63);
            kernels::detail::order_changed(now, bits.data(), 0, bits.size());
        }
        // Rounds: relax every out-edge of the frontier into the labels; the vertices
        // improved into this bucket are the next round's frontier, the others wait in their
        // buckets.
        while (world.allreduce(gindex_t(now.size()), comm::ReduceOp::sum, "sssp-round") > 0) {
            ++r.rounds;
            offers.resize(now.size());
            for (std::size_t e = 0; e < now.size(); ++e) {
                offers[e] = L::offer(label[now[e]], begin + gindex_t(now[e]));
            }
            vxm_update<S>(std::span<Label>(label), std::span<const lindex_t>(now),
                          std::span<const Label>(offers), a, ws, changed);
            relaxed += ws.last_entries;
            now.clear();
            for (const lindex_t k : changed) {
                const W d = L::distance(label[k]);
                const W before = seen[k];
                if (d == before) continue;  // only the parent changed
                seen[k] = d;
                const double b = bucket_of(d);
                if (b == cur) {
                    now.push_back(k);
                } else if (before == kInf<W> || bucket_of(before) != b) {
                    buckets.push(b, k);
                }
            }
        }
    }
    return label;
}

/// The search over weights and distances of type W (double or float); the distances are
/// returned as doubles (exactly the W values).
template <class W>
SsspResult sssp_impl(const DistMatrix<W>& a, gindex_t source, const SsspOptions& o) {
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
    SsspResult r;
    std::uint64_t relaxed = 0;
    const DistVector<double> shape(grid, n);  // this rank's piece of the vertices
    const gindex_t begin = shape.local_begin();
    double t_parents = 0.0;
    r.dist = a.row_dist();
    r.local_begin = begin;
    r.source = source;
    r.delta = delta;
    r.has_parents = o.parents;
    gindex_t reached = 0;
    // Float weights carry the parent in the label when the ids fit its 32 bits; otherwise
    // the parents come from one scan of the edges at the end that stops at each vertex's
    // first in-neighbour attaining its distance (vxm_witness): the smallest-id in-neighbour
    // u with d(u) + w(u, v) = d(v), the same parent either way.
    bool searched = false;
    if constexpr (std::is_same_v<W, float>) {
        if (o.parents && n <= detail::PathLabels::max_vertices) {
            using P = detail::PathLabels;
            const std::vector<std::uint64_t> label =
                search<P>(a, shape, source, delta, maxw, r, relaxed);
            t_parents = comm::wtime();
            searched = true;
            const std::size_t m = label.size();
            r.distance.resize(m);
            r.parent.resize(m);
            const int threads = kernels::detail::threads_for(kernels::ParallelPolicy{}, m);
#pragma omp parallel for num_threads(threads) reduction(+ : reached) if (threads > 1)
            for (std::size_t k = 0; k < m; ++k) {
                const float d = P::distance(label[k]);
                r.distance[k] = d;
                const bool is_reached = d != kInf<float>;
                reached += is_reached ? 1 : 0;
                const gindex_t g = begin + gindex_t(k);
                r.parent[k] = !is_reached ? -1 : g == source ? source : P::parent(label[k]);
            }
        }
    }
    if (!searched) {
        std::vector<W> dist =
            search<detail::DistanceLabels<W>>(a, shape, source, delta, maxw, r, relaxed);
        t_parents = comm::wtime();
        std::vector<gindex_t> via;
        if (o.parents) {
            via.resize(dist.size());
            WitnessSpmvWorkspace<W, W> pws;
            vxm_witness<min_plus<W>>(std::span<gindex_t>(via), std::span<const W>(dist),
                                     std::span<const W>(dist), a, kInf<W>, pws);
        }
        const std::size_t m = dist.size();
        if (o.parents) r.parent.assign(m, -1);
        for (std::size_t k = 0; k < m; ++k) {
            if (dist[k] == kInf<W>) continue;
            ++reached;
            if (o.parents) r.parent[k] = begin + gindex_t(k) == source ? source : via[k];
        }
        if constexpr (std::is_same_v<W, double>) {
            r.distance = std::move(dist);
        } else {
            r.distance.assign(dist.begin(), dist.end());
        }
    }
    gindex_t counts[2] = {reached, gindex_t(relaxed)};
    world.allreduce(std::span<gindex_t>(counts, 2), comm::ReduceOp::sum, "sssp-end");
    r.reached = counts[0];
    r.relaxed_edges = std::uint64_t(counts[1]);
    const double t_end = comm::wtime();
    double times[2] = {t_end - t0, t_end - t_parents};
    world.allreduce(std::span<double>(times, 2), comm::ReduceOp::max, "sssp-end");
    r.seconds = times[0];
    r.parent_seconds = times[1];
    return r;
}

}  // namespace

SsspResult sssp(const DistMatrix<double>& a, gindex_t source, const SsspOptions& options) {
    return sssp_impl(a, source, options);
}

SsspResult sssp(const DistMatrix<float>& a, gindex_t source, const SsspOptions& options) {
    return sssp_impl(a, source, options);
}

}  // namespace gridblas
