#pragma once
// Helpers of the MPI operation tests: every grid shape of the world communicator, random
// vectors and matrices that are the same on every rank (fixed seeds), and conversions between
// distributed objects and the std::map objects of tests/reference/ops_reference.hpp.

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "gridblas/core/process_grid.hpp"
#include "gridblas/cuda/device_base.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/extract.hpp"
#include "gridblas/vector/dist_vector.hpp"
#include "reference/ops_reference.hpp"

namespace gridblas::test {

/// This rank's piece of an index space distributed as `d`: (first global index, length).
inline std::pair<gindex_t, gindex_t> my_piece(const ProcessGrid& grid, const Distribution& d) {
    const int k = d.piece_at(grid.my_row(), grid.my_col());
    return {d.piece_begin(k), d.piece_size(k)};
}

inline int world_size() {
    int p = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    return p;
}

inline int world_rank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

/// Every (pr, pc) with pr * pc = p: 1 x p, ..., p x 1.
inline std::vector<std::pair<int, int>> grid_shapes(int p) {
    std::vector<std::pair<int, int>> s;
    for (int pr = 1; pr <= p; ++pr) {
        if (p % pr == 0) s.emplace_back(pr, p / pr);
    }
    return s;
}

/// One grid of every shape over MPI_COMM_WORLD (collective).
inline std::vector<std::shared_ptr<ProcessGrid>> all_grids() {
    std::vector<std::shared_ptr<ProcessGrid>> g;
    for (auto [pr, pc] : grid_shapes(world_size())) {
        g.push_back(ProcessGrid::create(MPI_COMM_WORLD, pr, pc));
    }
    return g;
}

/// True on every rank when every rank of the grid has a usable CUDA device (collective).
inline bool every_rank_has_cuda(ProcessGrid& grid) {
    const int have = cuda_device_count() > 0 ? 1 : 0;
    return grid.world().allreduce(have, comm::ReduceOp::min, "test") == 1;
}

/// Puts `grid` on `backend` and returns "", or returns why it cannot (no device on some
/// rank) without changing it. Collective; the answer is the same on every rank, so a test
/// can GTEST_SKIP on all ranks alike.
inline std::string try_exec_backend(ProcessGrid& grid, ExecBackend backend) {
    if (backend == ExecBackend::cpu) {
        grid.set_exec_backend(backend);
        return "";
    }
    if (!every_rank_has_cuda(grid)) {
        return "cuda backend: no usable CUDA device on every rank (" +
               (cuda_device_count() > 0 ? std::string("another rank has none")
                                        : cuda_unavailable_reason()) +
               ")";
    }
    grid.set_exec_backend(backend);
    return "";
}

/// The execution backends a parameterised test runs on.
inline std::vector<ExecBackend> exec_backends() { return {ExecBackend::cpu, ExecBackend::cuda}; }

/// A random sparse vector of length n: each index present with probability `density`,
/// values uniform in [lo, hi]. Same on every rank for the same rng state.
template <class T>
ref::Vec<T> random_vec(std::mt19937_64& rng, gindex_t n, double density, long lo = -3,
                       long hi = 9) {
    std::bernoulli_distribution keep(density);
    std::uniform_int_distribution<long> val(lo, hi);
    ref::Vec<T> v;
    for (gindex_t i = 0; i < n; ++i) {
        const bool k = keep(rng);
        const T x = T(val(rng));
        if (k) v[i] = x;
    }
    return v;
}

/// A random n x m sparse matrix, entries present with probability `density`.
template <class T>
ref::Mat<T> random_mat(std::mt19937_64& rng, gindex_t n, gindex_t m, double density, long lo = -3,
                       long hi = 9) {
    std::bernoulli_distribution keep(density);
    std::uniform_int_distribution<long> val(lo, hi);
    ref::Mat<T> a;
    for (gindex_t i = 0; i < n; ++i) {
        for (gindex_t j = 0; j < m; ++j) {
            const bool k = keep(rng);
            const T x = T(val(rng));
            if (k) a[{i, j}] = x;
        }
    }
    return a;
}

/// A distributed vector holding `v`. Each rank contributes a different, interleaved subset
/// of the tuples (entry k comes from rank k % p), so the build routes entries. Collective.
template <class T>
DistVector<T> make_vector(const std::shared_ptr<ProcessGrid>& grid, gindex_t n,
                          const ref::Vec<T>& v) {
    std::vector<gindex_t> idx;
    ValueArray<T> vals;
    std::size_t k = 0;
    for (const auto& [i, x] : v) {
        if (int(k++ % std::size_t(grid->size())) == grid->rank()) {
            idx.push_back(i);
            vals.push_back(x);
        }
    }
    return DistVector<T>::from_tuples(grid, n, idx, vals);
}

/// A distributed matrix holding `a`, tuples contributed as in make_vector(). Collective.
template <class T>
DistMatrix<T> make_matrix(const std::shared_ptr<ProcessGrid>& grid, gindex_t n, gindex_t m,
                          const ref::Mat<T>& a, LocalFormat fmt = LocalFormat::dcsc) {
    std::vector<gindex_t> r, c;
    ValueArray<T> vals;
    std::size_t k = 0;
    for (const auto& [ij, x] : a) {
        if (int(k++ % std::size_t(grid->size())) == grid->rank()) {
            r.push_back(ij.first);
            c.push_back(ij.second);
            vals.push_back(x);
        }
    }
    return DistMatrix<T>::from_tuples(grid, n, m, r, c, vals,
                                      BuildOptions{DuplicatePolicy::reject, fmt});
}

/// Every entry of a distributed vector, on every rank. Collective.
template <class T>
ref::Vec<T> to_map(const DistVector<T>& u) {
    std::vector<gindex_t> idx;
    std::vector<T> vals;
    extract_tuples(u, idx, vals);
    ref::Vec<T> m;
    for (std::size_t k = 0; k < idx.size(); ++k) m[idx[k]] = vals[k];
    return m;
}

/// Every entry of a distributed matrix, on every rank. Collective.
template <class T>
ref::Mat<T> to_map(const DistMatrix<T>& a) {
    std::vector<gindex_t> r, c;
    std::vector<T> vals;
    extract_tuples(a, r, c, vals);
    ref::Mat<T> m;
    for (std::size_t k = 0; k < r.size(); ++k) m[{r[k], c[k]}] = vals[k];
    return m;
}

/// True on every rank when `ok` is true on every rank (for checks whose failure on one rank
/// must be seen by all). Collective over MPI_COMM_WORLD.
inline bool all_ranks(bool ok) {
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all == 1;
}

}  // namespace gridblas::test
