// Triangle counting (Sandia form C⟨L⟩ = L·U, with an optional renumbering by ascending
// degree) and local clustering coefficients (C⟨A⟩ = A·A) on gridblas' masked mxm. See
// triangle_count.hpp for the method and the papers.

#include "gridblas/algorithms/triangle_count.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>

#include "algorithms/algo_checks.hpp"
#include "gridblas/ops/apply.hpp"
#include "gridblas/ops/reduce.hpp"
#include "gridblas/ops/select.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas {

namespace {

/// Row degrees without self-loops, on every rank (n values; for the renumbering).
std::vector<gindex_t> all_degrees(const DistMatrix<Pattern>& a) {
    std::vector<gindex_t> mine(std::size_t(a.nrows()), 0);
    a.for_each_local([&](gindex_t i, gindex_t j, Pattern) {
        if (i != j) ++mine[std::size_t(i)];
    });
    a.grid()->world().allreduce(std::span<gindex_t>(mine), comm::ReduceOp::sum, "tc-degrees");
    return mine;
}

/// `a` with vertex v renumbered to its rank in ascending (degree, id) order, self-loops
/// dropped. Every rank sorts the same degrees, so all agree on the numbering. Collective.
DistMatrix<Pattern> renumber_by_degree(const DistMatrix<Pattern>& a,
                                       const std::vector<gindex_t>& degree) {
    const gindex_t n = a.nrows();
    const std::vector<gindex_t> new_id = detail::ids_by_degree(degree);
    std::vector<gindex_t> r, c;
    r.reserve(a.local_nvals());
    c.reserve(a.local_nvals());
    a.for_each_local([&](gindex_t i, gindex_t j, Pattern) {
        if (i == j) return;
        r.push_back(new_id[std::size_t(i)]);
        c.push_back(new_id[std::size_t(j)]);
    });
    ValueArray<Pattern> v(r.size());
    return DistMatrix<Pattern>::from_tuples(
        a.grid(), n, n, r, c, v, BuildOptions{DuplicatePolicy::reject, a.local_format()});
}

}  // namespace

namespace detail {

bool degrees_skewed(std::span<const gindex_t> d) {
    if (d.size() < 1000) return false;
    std::vector<gindex_t> sorted(d.begin(), d.end());
    std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(sorted.size() / 2),
                     sorted.end());
    const double median = double(sorted[sorted.size() / 2]);
    const double mean = double(std::accumulate(d.begin(), d.end(), gindex_t(0))) / double(d.size());
    return mean > 1.3 * (median + 1.0);
}

std::vector<gindex_t> ids_by_degree(std::span<const gindex_t> degree) {
    const std::size_t n = degree.size();
    std::vector<gindex_t> order(n);
    std::iota(order.begin(), order.end(), gindex_t(0));
    std::stable_sort(order.begin(), order.end(), [&](gindex_t x, gindex_t y) {
        return degree[std::size_t(x)] < degree[std::size_t(y)];
    });
    std::vector<gindex_t> new_id(n);
    for (std::size_t k = 0; k < n; ++k) new_id[std::size_t(order[k])] = gindex_t(k);
    return new_id;
}

}  // namespace detail

TriangleResult triangle_count(const DistMatrix<Pattern>& a, const TriangleOptions& options) {
    detail::check_graph_algorithm(a, "triangle_count");
    comm::Communicator& world = a.grid()->world();
    world.allreduce(0, comm::ReduceOp::sum, "tc-start");
    const double t0 = comm::wtime();
    TriangleResult out;
    bool sort = options.presort == DegreeSort::always;
    std::vector<gindex_t> degree;
    if (options.presort == DegreeSort::automatic) {
        degree = all_degrees(a);
        sort = detail::degrees_skewed(degree);
    } else if (sort) {
        degree = all_degrees(a);
    }
    std::optional<DistMatrix<Pattern>> sorted;
    if (sort) sorted.emplace(renumber_by_degree(a, degree));
    const DistMatrix<Pattern>& g = sorted ? *sorted : a;
    out.presorted = sort;
    const auto l = select(g, [](gindex_t i, gindex_t j, Pattern) { return j < i; });
    const auto u = select(g, [](gindex_t i, gindex_t j, Pattern) { return j > i; });
    auto c = DistMatrix<gindex_t>::shell(a.grid(), a.nrows(), a.ncols());
    Descriptor d;
    d.mask_structural = true;
    d.mxm_method = options.method;
    const double t1 = comm::wtime();
    mxm(c, l, no_accum, plus_pair<gindex_t>{}, l, u, d, &out.product);
    out.seconds_product = world.allreduce(comm::wtime() - t1, comm::ReduceOp::max, "tc-time");
    out.triangles = reduce(c, std::plus<gindex_t>{}, gindex_t(0));
    out.seconds = world.allreduce(comm::wtime() - t0, comm::ReduceOp::max, "tc-time");
    return out;
}

LccResult local_clustering(const DistMatrix<Pattern>& a) {
    detail::check_graph_algorithm(a, "local_clustering");
    comm::Communicator& world = a.grid()->world();
    world.allreduce(0, comm::ReduceOp::sum, "lcc-start");
    const double t0 = comm::wtime();
    const gindex_t n = a.nrows();
    const auto g = select(a, [](gindex_t i, gindex_t j, Pattern) { return i != j; });
    auto c = DistMatrix<gindex_t>::shell(a.grid(), n, n);
    Descriptor d;
    d.mask_structural = true;
    mxm(c, g, no_accum, plus_pair<gindex_t>{}, g, g, d);
    DistVector<gindex_t> paths(a.grid(), n), degree(a.grid(), n);
    reduce(paths, no_mask, no_accum, std::plus<gindex_t>{}, c);
    reduce(degree, no_mask, no_accum, std::plus<gindex_t>{}, g);
    LccResult out;
    out.dist = paths.dist();
    out.local_begin = paths.local_begin();
    const std::vector<gindex_t> p = detail::dense_piece(paths, gindex_t(0));
    const std::vector<gindex_t> deg = detail::dense_piece(degree, gindex_t(0));
    out.coefficient.assign(p.size(), 0.0);
    out.triangles.assign(p.size(), 0);
    for (std::size_t k = 0; k < p.size(); ++k) {
        out.triangles[k] = p[k] / 2;
        const double dk = double(deg[k]);
        if (deg[k] >= 2) out.coefficient[k] = double(p[k]) / (dk * (dk - 1.0));
    }
    out.seconds = world.allreduce(comm::wtime() - t0, comm::ReduceOp::max, "lcc-time");
    return out;
}

}  // namespace gridblas
