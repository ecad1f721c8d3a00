#pragma once
/// @file bfs.hpp
/// @brief Single-GPU breadth-first search built from the CUDA backend's kernels: top-down
/// levels are a push SpMSpV (cuda::spmspv), bottom-up levels a masked pull SpMV with early
/// exit (cuda::spmv_pull), switched by Beamer's direction-optimizing rule (SC'12) with the
/// same alpha/beta test as the distributed BFS. Levels are computed during the search and
/// parents afterwards from the levels, on the device (Fu et al. 2014): each vertex takes
/// its smallest-id in-neighbour one level up, the same tree as BfsOptions::parents == min.
///
/// Convention as in algorithms/bfs.hpp: a stored A(u, v) is an edge u -> v. The graph is one
/// local CSR block (single GPU, fewer than 2^32 vertices). Every device buffer is allocated
/// when the solver is built or during the first search; later searches allocate nothing.

#include <memory>
#include <vector>

#include "gridblas/algorithms/bfs.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/csr.hpp"

namespace gridblas::cuda {

/// Options of the single-GPU BFS.
struct BfsGpuOptions {
    /// automatic (direction-optimizing), top_down only, or bottom_up only.
    BfsDirection direction = BfsDirection::automatic;
    /// Top-down -> bottom-up when frontier out-edges > unexplored edges / alpha.
    double alpha = 15.0;
    /// Bottom-up -> top-down when the frontier stops growing and has at most n / beta vertices.
    double beta = 18.0;
    /// The graph is symmetric (undirected), so its CSR also lists in-edges. When false the
    /// solver builds and uploads the transpose for the bottom-up steps and the parents.
    bool symmetric = true;
};

/// Result of one search: parent and level of every vertex (-1 when unreached; the source is
/// its own parent at level 0), and per-level statistics.
struct BfsGpuResult {
    std::vector<gindex_t> parent;
    std::vector<gindex_t> level;
    gindex_t source = 0;
    gindex_t reached = 0;  ///< vertices reached, the source included
    int depth = 0;         ///< levels expanded
    double seconds = 0.0;  ///< search, parents and download of both arrays to the host
    /// Part of `seconds` spent downloading `level` and `parent` (16 bytes per vertex over the
    /// host link; at scale 24 a large share of a search).
    double download_seconds = 0.0;
    std::vector<BfsLevelStats> levels;  ///< messages/bytes fields stay 0 (no communication)
};

/// A BFS engine bound to one graph on the current device. Not copyable.
class BfsGpuSolver {
public:
    /// Uploads the graph (and its transpose when !options.symmetric).
    /// @throws DimensionMismatch when the graph is not square; InvalidValue for bad
    ///         alpha/beta; NotCompiled without the backend; CudaError
    explicit BfsGpuSolver(const Csr<Pattern>& graph, const BfsGpuOptions& options = {});
    ~BfsGpuSolver();
    BfsGpuSolver(const BfsGpuSolver&) = delete;
    BfsGpuSolver& operator=(const BfsGpuSolver&) = delete;

    /// One search from `source`. @throws IndexOutOfBounds; CudaError
    BfsGpuResult run(gindex_t source);
    /// One search into an existing result (reusing its arrays).
    void run(gindex_t source, BfsGpuResult& result);

    const BfsGpuOptions& options() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// One-shot convenience: BfsGpuSolver(graph, options).run(source).
BfsGpuResult bfs_single_gpu(const Csr<Pattern>& graph, gindex_t source,
                            const BfsGpuOptions& options = {});

}  // namespace gridblas::cuda
