// bfs_with_vxm: a breadth-first search written by hand with gridblas::vxm, the way a user
// would write it in GraphBLAS, checked against the library's own gridblas::bfs.
//
// Each level is one masked vector-matrix product:
//     next⟨¬parent, structural, replace⟩ = frontierᵀ min.secondi A
// min_secondi is a positional semiring: the product of an edge u -> v is u's own index, so
// every newly found vertex receives the smallest id among its frontier neighbours: its
// parent. The frontier's values are never read. The mask keeps visited vertices out. This is
// exactly the vxm that gridblas::bfs runs for each level.
//
// Run: mpirun -np 4 ./bfs_with_vxm   (any rank count works; 4 gives a 2 x 2 grid)

#include <mpi.h>

#include <cstdio>
#include <vector>

#include "gridblas/algorithms/bfs.hpp"
#include "gridblas/gridblas.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "gridblas/ops/assign.hpp"
#include "gridblas/ops/spmv.hpp"

using namespace gridblas;

/// BFS from `root`: parent(v) and level(v) for every vertex reached (no entry otherwise).
void bfs_with_vxm(const DistMatrix<Pattern>& a, gindex_t root, DistVector<gindex_t>& parent,
                  DistVector<gindex_t>& level) {
    const auto& grid = a.grid();
    const gindex_t n = a.nrows();
    // Start: the root is in the frontier, is its own parent, at level 0. (from_tuples is
    // collective: every rank calls it, only rank 0 passes the entry.)
    std::vector<gindex_t> at;
    if (grid->rank() == 0) at.push_back(root);
    const ValueArray<gindex_t> root_id(at.size(), root), zero(at.size(), 0);
    auto frontier = DistVector<gindex_t>::from_tuples(grid, n, at, root_id);
    parent = frontier;
    level = DistVector<gindex_t>::from_tuples(grid, n, at, zero);

    const Descriptor unvisited{.mask_complement = true, .mask_structural = true, .replace = true};
    const Descriptor found{.mask_structural = true};
    for (gindex_t depth = 1; frontier.nvals() > 0; ++depth) {
        // next(v) = min { u in frontier : u -> v }, for unvisited v only.
        vxm(frontier, parent, no_accum, min_secondi<gindex_t>{}, frontier, a, unvisited);
        // Record the new vertices' parents and level.
        assign(parent, frontier, no_accum, frontier, found);
        assign_scalar(level, frontier, no_accum, depth, found);
    }
}

/// This rank's piece of v as a dense array, -1 where v has no entry.
std::vector<gindex_t> local_dense(const DistVector<gindex_t>& v) {
    std::vector<gindex_t> out(v.local_size(), -1);
    v.for_each_local([&](gindex_t i, gindex_t x) { out[std::size_t(i - v.local_begin())] = x; });
    return out;
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int failures = 0;
    {
        auto grid = ProcessGrid::create(MPI_COMM_WORLD);  // the most square grid
        const bool rank0 = grid->rank() == 0;

        // A Graph500 Kronecker graph with 2^12 vertices, symmetrised, without self-loops.
        KroneckerParams kp;
        kp.scale = 12;
        kp.edgefactor = 8;
        const DistMatrix<Pattern> a = kronecker_graph(grid, kp);
        const gindex_t n = a.nrows();

        // Root: the first vertex that has an edge (the smallest over all ranks).
        BfsSolver solver(a);  // the library's BFS, also used below for the comparison
        gindex_t root = n;
        DistVector<gindex_t> shape(grid, n);
        const auto& degree = solver.local_degrees();
        for (std::size_t k = 0; k < degree.size() && root == n; ++k) {
            if (degree[k] > 0) root = shape.local_begin() + gindex_t(k);
        }
        root = grid->world().allreduce(root, comm::ReduceOp::min, "pick-root");

        DistVector<gindex_t> parent, level;
        bfs_with_vxm(a, root, parent, level);
        const BfsResult expect = solver.run(root);  // ParentMode::min: smallest-id parents

        // Compare this rank's pieces, then agree on the verdict.
        const auto p = local_dense(parent), l = local_dense(level);
        int bad = p.size() == expect.parent.size() ? 0 : 1;
        for (std::size_t k = 0; bad == 0 && k < p.size(); ++k) {
            if (p[k] != expect.parent[k] || l[k] != expect.level[k]) ++bad;
        }
        failures = grid->world().allreduce(bad, comm::ReduceOp::sum, "verdict");

        // Print a few vertices (extract_tuples gathers the whole vector: fine when small).
        std::vector<gindex_t> vi, vl, pi, pv;
        level.extract_tuples(vi, vl);
        parent.extract_tuples(pi, pv);
        if (rank0) {
            std::printf("graph: %lld vertices on a %dx%d grid; BFS from %lld reached %zu\n",
                        (long long)n, grid->pr(), grid->pc(), (long long)root, vi.size());
            for (std::size_t k = 0; k < vi.size(); k += vi.size() / 6 + 1) {
                std::printf("  vertex %5lld: level %lld, parent %lld\n", (long long)vi[k],
                            (long long)vl[k], (long long)pv[k]);
            }
            std::printf("gridblas::bfs agrees on all ranks: %s\n", failures ? "NO" : "yes");
        }
    }
    MPI_Finalize();
    return failures ? 1 : 0;
}
