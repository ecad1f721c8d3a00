// custom_semiring: a user-defined semiring with vxm and mxv. The (max, min) semiring
// computes widest paths (maximum bottleneck capacity): a path is as wide as its narrowest
// edge, and of two paths we keep the wider. Iterating
//     width = max(width, widthᵀ max.min A)
// from width(source) = ∞ until nothing changes gives, for every vertex, the widest path from
// the source. The result is checked against a serial widest-path search.
//
// Run: mpirun -np 4 ./custom_semiring

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "gridblas/gridblas.hpp"
#include "gridblas/ops/spmv.hpp"

using namespace gridblas;

/// The semiring: a plain struct with static members. gridblas calls mul(matrix entry,
/// vector entry).
struct max_min {
    using value_type = double;
    static double zero() { return 0.0; }  // "no path"; the identity of max over widths >= 0
    static double add(double a, double b) { return a < b ? b : a; }  // keep the wider path
    static double mul(double edge, double width) { return edge < width ? edge : width; }
};
static_assert(Semiring<max_min>);

/// The accumulator: keep the wider of the old and the new width.
const auto wider = [](double a, double b) { return a < b ? b : a; };

struct Edges {
    std::vector<gindex_t> src, dst;
    std::vector<double> width;
};

/// Widest paths from `source` with vxm (use_mxv: the same with mxv on Aᵀ). Collective.
DistVector<double> widest_paths(const DistMatrix<double>& a, gindex_t source, bool use_mxv) {
    const auto& grid = a.grid();
    std::vector<gindex_t> at;
    if (grid->rank() == 0) at.push_back(source);
    const ValueArray<double> inf(at.size(), std::numeric_limits<double>::infinity());
    auto width = DistVector<double>::from_tuples(grid, a.nrows(), at, inf);
    for (;;) {
        const DistVector<double> old = width;
        if (use_mxv) {  // w(j) = max_i min(A(i,j), w(i)) as Aᵀ w
            mxv(width, no_mask, wider, max_min{}, a, width, Descriptor{.transpose_a = true});
        } else {  // the same as wᵀ A
            vxm(width, no_mask, wider, max_min{}, width, a);
        }
        // Stop when no width changed on any rank.
        const auto& o = old.sparse();
        const auto& w = width.sparse();
        bool changed = o.indices() != w.indices();
        for (std::size_t k = 0; !changed && k < w.nvals(); ++k) {
            changed = o.values()[k] != w.values()[k];
        }
        if (grid->world().allreduce(gindex_t(changed), comm::ReduceOp::sum, "changed") == 0) break;
    }
    return width;
}

/// Serial reference: Bellman-Ford style relaxation over the edge list.
std::vector<double> serial_widest(const Edges& e, gindex_t n, gindex_t source) {
    std::vector<double> w(std::size_t(n), 0.0);
    w[std::size_t(source)] = std::numeric_limits<double>::infinity();
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t k = 0; k < e.src.size(); ++k) {
            const double via = std::min(w[std::size_t(e.src[k])], e.width[k]);
            if (via > w[std::size_t(e.dst[k])]) {
                w[std::size_t(e.dst[k])] = via;
                changed = true;
            }
        }
    }
    return w;
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    gindex_t failures = 0;
    {
        auto grid = ProcessGrid::create(MPI_COMM_WORLD);
        const bool rank0 = grid->rank() == 0;

        // A random directed graph with integer capacities 1..100; every rank makes the same
        // edge list (same seed), rank 0 hands it to the matrix builder.
        const gindex_t n = 300, source = 0;
        Edges e;
        std::mt19937_64 rng(42);
        std::uniform_int_distribution<gindex_t> vertex(0, n - 1);
        std::uniform_int_distribution<int> capacity(1, 100);
        for (int k = 0; k < 700; ++k) {
            e.src.push_back(vertex(rng));
            e.dst.push_back(vertex(rng));
            e.width.push_back(capacity(rng));
        }
        std::vector<gindex_t> rows, cols;
        ValueArray<double> vals;
        if (rank0) {
            rows = e.src;
            cols = e.dst;
            for (double x : e.width) vals.push_back(x);
        }
        // Parallel edges: keep the widest.
        const auto a = DistMatrix<double>::from_tuples(
            grid, n, n, rows, cols, vals, BuildOptions{DuplicatePolicy::combine}, wider);

        const std::vector<double> expect = serial_widest(e, n, source);
        for (const bool use_mxv : {false, true}) {
            const DistVector<double> width = widest_paths(a, source, use_mxv);
            // Compare this rank's piece with the reference (no entry = width 0).
            std::vector<double> mine(width.local_size(), 0.0);
            width.for_each_local(
                [&](gindex_t i, double x) { mine[std::size_t(i - width.local_begin())] = x; });
            gindex_t bad = 0;
            for (std::size_t k = 0; k < mine.size(); ++k) {
                if (mine[k] != expect[std::size_t(width.local_begin()) + k]) ++bad;
            }
            bad = grid->world().allreduce(bad, comm::ReduceOp::sum, "verdict");
            failures += bad;
            std::vector<gindex_t> idx;  // gathered on every rank: fine for a small vector
            std::vector<double> val;
            width.extract_tuples(idx, val);
            if (rank0) {
                std::printf("%s: %zu vertices reachable from %lld; widths:",
                            use_mxv ? "mxv" : "vxm", idx.size(), (long long)source);
                for (std::size_t k = 0; k < idx.size() && k < 8; ++k) {
                    std::printf(" %lld:%g", (long long)idx[k], val[k]);
                }
                std::printf(" ... %s\n", bad ? "MISMATCH with the serial reference"
                                             : "matches the serial reference");
            }
        }
    }
    MPI_Finalize();
    return failures ? 1 : 0;
}
