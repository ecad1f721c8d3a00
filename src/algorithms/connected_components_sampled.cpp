// Connected components with subgraph sampling, after Afforest (Sutton, Ben-Nun & Barak,
// "Optimizing Parallel Graph Connectivity Computation via Subgraph Sampling", IPDPS 2018),
// on a 2D-distributed matrix:
//  1. Sampling: every rank joins, in a union-find forest over the rows and columns of its
//     block (cc_local.hpp), each row's first `sample_neighbors` entries of the block (on a
//     1 x pc grid, where every rank holds a part of every row, each rank takes every pc-th
//     row).
//  2. The ranks' forests are joined. Where every rank's ids are the vertex ids (1 x 1,
//     1 x pc and pr x 1 grids) the ranks swap whole forests by recursive doubling and join
//     them; otherwise FastSV over the edges {id, its root}
//     (cc_edge_fastsv.cpp) labels the vertex pieces.
//  3. The root (label) that most of a fixed random sample of vertices carry is taken as the
//     giant component's.
//  4. The remaining entries are read only for rows outside that component (and, for a
//     directed graph, all entries of columns outside it: the in-edges). With whole forests
//     they are joined in the forest, and the roots this hooked are sent to all ranks;
//     otherwise they become edges between the labels of their ends, joined by FastSV again.
//     An edge between a giant-component vertex and another is seen from the other end (its
//     row, or for a directed graph its column), so every edge that could join two labels is
//     read.
// Roots are always the smallest id of their tree (ids are ordered as the vertex ids) and
// FastSV ends on the smallest label, so every vertex ends labelled with the smallest vertex
// id of its component.

#include <algorithm>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "algorithms/cc_detail.hpp"
#include "algorithms/cc_local.hpp"
#include "algorithms/indexed.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/vector/dist_vector.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace gridblas::detail {

namespace {

/// The most frequent value of a sorted list, the smallest on a tie; -1 if empty.
gindex_t mode_of_sorted(const std::vector<gindex_t>& all) {
    gindex_t best = -1;
    std::size_t best_count = 0;
    for (std::size_t k = 0; k < all.size();) {
        std::size_t e = k;
        while (e < all.size() && all[e] == all[k]) ++e;
        if (e - k > best_count) best = all[k], best_count = e - k;
        k = e;
    }
    return best;
}

/// Step 1: each row's first `ks` entries of the block joined in `forest` (one pass, so each
/// row's first entries are read once), which is then flattened.
template <class Id>
void sample(const CompressedBlock<Pattern>& rows, const BlockIds& ids, int ks, int threads,
            LocalForest<Id>& forest, int& iterations) {
    ++iterations;
    for_each_outer(
        rows, threads,
        [&](lindex_t r, const lindex_t* b, const lindex_t* e) {
            if (!ids.samples_row(r)) return;
            const Id u = Id(ids.row(r));
            for (const lindex_t* p = b; p < e && p < b + ks; ++p) forest.unite(u, Id(ids.col(*p)));
        },
        true);
    forest.flatten();
}

/// The most frequent root among `samples` vertices drawn with a fixed seed (the same on
/// every rank), the smallest on a tie; -1 for an empty graph.
template <class Id>
gindex_t giant_root(const LocalForest<Id>& forest, gindex_t n, int samples) {
    if (n == 0) return -1;
    std::mt19937_64 rng(0x5eed);
    std::uniform_int_distribution<gindex_t> any(0, n - 1);
    std::vector<gindex_t> roots(static_cast<std::size_t>(samples));
    for (gindex_t& r : roots) r = gindex_t(forest.find(Id(any(rng))));
    std::sort(roots.begin(), roots.end());
    return mode_of_sorted(roots);
}

/// The most frequent label among about `samples` vertices drawn (with a fixed seed) from all
/// ranks' pieces, the smallest on a tie; -1 for an empty graph. Collective.
gindex_t giant_label(const std::vector<gindex_t>& f, gindex_t n, int samples,
                     comm::Communicator& world) {
    std::vector<gindex_t> mine, all;
    if (!f.empty()) {
        const std::size_t want = std::max<std::size_t>(
            1, std::size_t(double(samples) * double(f.size()) / double(std::max<gindex_t>(n, 1))));
        std::mt19937_64 rng(0x5eed + std::uint64_t(world.rank()));
        std::uniform_int_distribution<std::size_t> any(0, f.size() - 1);
        for (std::size_t k = 0; k < want; ++k) mine.push_back(f[any(rng)]);
    }
    std::vector<int> counts;
    world.allgatherv(std::span<const gindex_t>(mine), all, counts, "cc-sample");
    std::sort(all.begin(), all.end());
    return mode_of_sorted(all);
}

/// This rank's piece of the labels, expanded over a block's rows (`along` the grid row) or
/// columns (the grid column) of `len` ids.
std::vector<gindex_t> expand(const std::vector<gindex_t>& f, comm::Communicator& along,
                             lindex_t len) {
    std::vector<gindex_t> out;
    if (along.size() > 1) {
        std::vector<int> counts;
        along.allgatherv(std::span<const gindex_t>(f), out, counts, "cc-expand");
    } else {
        out = f;
    }
    out.resize(len, -1);
    return out;
}

/// Joins the forests of all ranks (the same ids everywhere) by recursive doubling: ranks
/// beyond the largest power of two p2 <= p first hand theirs to rank - p2; the first p2
/// ranks swap forests with partners at distances 1, 2, 4, ... and join each into their own;
/// the ranks beyond p2 get the result back. Collective.
template <class Id>
void join_forests(LocalForest<Id>& forest, comm::Communicator& world, int threads) {
    const int p = world.size(), me = world.rank();
    int p2 = 1;
    while (p2 * 2 <= p) p2 *= 2;
    std::vector<Id> other;
    auto join = [&] {
        const std::size_t size = other.size();
#pragma omp parallel for schedule(dynamic, 16384) num_threads(threads) if (threads > 1)
        for (std::size_t x = 0; x < size; ++x) {
            if (other[x] != Id(x)) forest.unite(Id(x), other[x]);
        }
    };
    const std::span<const Id> mine(forest.parents());
    if (me >= p2) {
        world.sendrecv(mine, me - p2, other, MPI_PROC_NULL, "cc-join");
        world.sendrecv(std::span<const Id>(), MPI_PROC_NULL, other, me - p2, "cc-join");
        forest.parents().swap(other);
        return;
    }
    if (me + p2 < p) {
        world.sendrecv(std::span<const Id>(), MPI_PROC_NULL, other, me + p2, "cc-join");
        join();
    }
    for (int dist = 1; dist < p2; dist *= 2) {
        world.sendrecv(mine, me ^ dist, other, me ^ dist, "cc-join");
        join();
    }
    if (me + p2 < p) {
        world.sendrecv(mine, me + p2, other, MPI_PROC_NULL, "cc-join");
    }
}

/// Steps 1 to 4 where every rank's ids are the vertex ids (1 x 1, 1 x pc and pr x 1 grids):
/// one forest per rank, joined over the ranks after the sampling and again after the rest.
template <class Id>
void forest_steps(const DistMatrix<Pattern>& a, const CcOptions& o, const BlockIds& ids,
                  std::vector<gindex_t>& f, gindex_t begin, int& iterations) {
    comm::Communicator& world = a.grid()->world();
    const auto& rows = a.by_row();
    const int threads = kernels::detail::threads_for(kernels::ParallelPolicy{}, rows.nnz());
    const int ks = o.sample_neighbors;
    LocalForest<Id> forest{std::size_t(ids.size())};
    sample<Id>(rows, ids, ks, threads, forest, iterations);
    if (world.size() > 1) join_forests(forest, world, threads);
    const gindex_t c = giant_root(forest, a.nrows(), 1024);
    ++iterations;
    const CompressedBlock<Pattern>* cols = o.symmetric ? nullptr : &a.by_col();
    std::vector<std::vector<Id>> hooked(static_cast<std::size_t>(threads));
    auto hook = [&](Id x, Id y) {
        const Id h = forest.unite(x, y);
        if (h != LocalForest<Id>::none) {
            hooked[std::size_t(kernels::detail::thread_id())].push_back(h);
        }
    };
    for_each_outer(rows, threads, [&](lindex_t r, const lindex_t* b, const lindex_t* e) {
        const Id u = Id(ids.row(r));
        if (gindex_t(forest.find(u)) == c) return;
        const std::ptrdiff_t skip = ids.samples_row(r) ? std::min<std::ptrdiff_t>(ks, e - b) : 0;
        for (const lindex_t* p = b + skip; p < e; ++p) hook(u, Id(ids.col(*p)));
    });
    if (cols) {
        for_each_outer(*cols, threads, [&](lindex_t q, const lindex_t* b, const lindex_t* e) {
            const Id v = Id(ids.col(q));
            if (gindex_t(forest.find(v)) == c) return;
            for (const lindex_t* p = b; p < e; ++p) hook(Id(ids.row(*p)), v);
        });
    }
    if (world.size() > 1) {
        // The roots hooked here, each with its new root: applied on every rank, they join the
        // same trees there (every other id still points at an old root).
        std::vector<Id> mine, all;
        for (const auto& list : hooked) {
            for (Id h : list) mine.push_back(h), mine.push_back(forest.find(h));
        }
        std::vector<int> counts;
        world.allgatherv(std::span<const Id>(mine), all, counts, "cc-hooked");
        for (std::size_t k = 0; k < all.size(); k += 2) forest.unite(all[k], all[k + 1]);
    }
    const std::size_t m = f.size();
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (std::size_t k = 0; k < m; ++k) f[k] = gindex_t(forest.find(Id(begin + gindex_t(k))));
}

/// Steps 1 to 4 on a grid with pr, pc > 1: the ranks' forests joined by FastSV over the edges
/// {id, root}, the rest as edges between labels, joined by FastSV again.
template <class Id>
void grid_steps(const DistMatrix<Pattern>& a, const CcOptions& o, const BlockIds& ids,
                std::vector<gindex_t>& f, gindex_t begin, const Distribution& d, int& iterations) {
    const auto& grid = a.grid();
    comm::Communicator& world = grid->world();
    const auto& rows = a.by_row();
    const int threads = kernels::detail::threads_for(kernels::ParallelPolicy{}, rows.nnz());
    const int ks = o.sample_neighbors;
    {
        LocalForest<Id> forest{std::size_t(ids.size())};
        sample<Id>(rows, ids, ks, threads, forest, iterations);
        std::vector<std::uint32_t> pos(forest.size(), 0), ea, eb;
        for (std::size_t x = 0; x < forest.size(); ++x) {
            const Id px = forest.parent(x);
            if (px != Id(x)) pos[x] = pos[px] = 1;
        }
        std::vector<gindex_t> ends;
        for (std::size_t x = 0; x < forest.size(); ++x) {
            if (pos[x])
                pos[x] = std::uint32_t(ends.size()), ends.push_back(ids.global(gindex_t(x)));
        }
        for (std::size_t x = 0; x < forest.size(); ++x) {
            const Id px = forest.parent(x);
            if (px != Id(x)) ea.push_back(pos[x]), eb.push_back(pos[px]);
        }
        iterations += edge_list_fastsv(f, ends, ea, eb, d, begin, world);
    }
    const gindex_t c = giant_label(f, a.nrows(), 1024, world);
    ++iterations;
    // The rest as edges between the labels of their ends, deduplicated.
    const std::vector<gindex_t> lr = expand(f, grid->row(), d.block_rows());
    const std::vector<gindex_t> lc = expand(f, grid->col(), d.block_cols());
    std::vector<std::pair<gindex_t, gindex_t>> edges;
    auto add = [&](gindex_t x, gindex_t y) {
        if (x != y) edges.emplace_back(std::min(x, y), std::max(x, y));
    };
    for_each_outer(rows, 1, [&](lindex_t r, const lindex_t* b, const lindex_t* e) {
        if (lr[r] == c) return;
        for (const lindex_t* p = b + std::min<std::ptrdiff_t>(ks, e - b); p < e; ++p)
            add(lr[r], lc[*p]);
    });
    if (!o.symmetric) {
        for_each_outer(a.by_col(), 1, [&](lindex_t q, const lindex_t* b, const lindex_t* e) {
            if (lc[q] == c) return;
            for (const lindex_t* p = b; p < e; ++p) add(lr[*p], lc[q]);
        });
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    std::vector<gindex_t> ends;
    for (const auto& [x, y] : edges) ends.push_back(x), ends.push_back(y);
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    std::vector<std::uint32_t> ea, eb;
    auto at = [&](gindex_t g) {
        return std::uint32_t(std::lower_bound(ends.begin(), ends.end(), g) - ends.begin());
    };
    for (const auto& [x, y] : edges) ea.push_back(at(x)), eb.push_back(at(y));
    if (world.allreduce(gindex_t(edges.size()), comm::ReduceOp::sum, "cc-rest") == 0) return;
    const int it = edge_list_fastsv(f, ends, ea, eb, d, begin, world);
    iterations += it;
    if (it > 1) {  // labels moved: every vertex follows its old label
        std::vector<gindex_t> next;
        gather_dense(next, f, f, d, begin, world);
        f = std::move(next);
    }
}

template <class Id>
CcResult sampled(const DistMatrix<Pattern>& a, const CcOptions& o, double t0) {
    comm::Communicator& world = a.grid()->world();
    const DistVector<gindex_t> shape(a.grid(), a.nrows());
    const gindex_t begin = shape.local_begin();
    const BlockIds ids(shape.dist(), a.grid()->my_row(), a.grid()->my_col());
    std::vector<gindex_t> f(shape.local_size());
    for (std::size_t k = 0; k < f.size(); ++k) f[k] = begin + gindex_t(k);
    int iterations = 0;
    if (ids.identity()) {
        forest_steps<Id>(a, o, ids, f, begin, iterations);
    } else {
        grid_steps<Id>(a, o, ids, f, begin, shape.dist(), iterations);
    }
    return finish_cc_result(a, begin, std::move(f), iterations, t0, world);
}

}  // namespace

CcResult connected_components_sampled(const DistMatrix<Pattern>& a, const CcOptions& options,
                                      double t0) {
    const Distribution& d = a.row_dist();
    const gindex_t size = gindex_t(d.pr + d.pc - 1) * d.nb;
    if (size < gindex_t(1) << 32) return sampled<std::uint32_t>(a, options, t0);
    return sampled<std::uint64_t>(a, options, t0);
}

}  // namespace gridblas::detail
