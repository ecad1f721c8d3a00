// quickstart: the README's distributed example. Builds a Kronecker graph over all ranks,
// takes one BFS step by hand with a masked vxm, runs the library's BFS, and checks that the
// hand-made step found exactly the source's neighbours at level 1.
//
//   mpirun -np 4 build/release/examples/quickstart

#include <gridblas/gridblas.hpp>

#include <cstdio>

using namespace gridblas;

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int status = 0;
    try {
        auto grid = ProcessGrid::create(MPI_COMM_WORLD);  // the most square pr x pc grid
        KroneckerParams kp;
        kp.scale = 12;
        auto a = kronecker_graph(grid, kp);  // each rank generates its own slice of edges

        // The frontier {source}, valued with its own id (rank 0 holds the tuple).
        const gindex_t source = 3;
        std::vector<gindex_t> idx;
        ValueArray<gindex_t> val;
        if (grid->rank() == 0) {
            idx.push_back(source);
            val.push_back(source);
        }
        auto frontier = DistVector<gindex_t>::from_tuples(grid, a.nrows(), idx, val);

        // One top-down step: next⟨¬frontier, structural, replace⟩ = frontierᵀ A over
        // (min, second): every neighbour of the source, with the source as its parent.
        DistVector<gindex_t> next(grid, a.nrows());
        Descriptor d;
        d.mask_complement = true;
        d.mask_structural = true;
        d.replace = true;
        vxm(next, frontier, no_accum, select2nd_min<gindex_t>{}, frontier, a, d);

        // The whole search, validated with the Graph500 rules.
        const BfsResult r = bfs(a, source);
        const bool valid = validate_bfs(a, r).ok();

        // Level-1 vertices of the search must be exactly the entries of `next`.
        gindex_t mismatches = 0;
        const auto& nx = next.sparse();
        std::size_t k = 0;
        for (std::size_t i = 0; i < r.level.size(); ++i) {
            const bool in_next = k < nx.nvals() && nx.indices()[k] == i;
            if (in_next) ++k;
            if (in_next != (r.level[i] == 1)) ++mismatches;
        }
        mismatches = grid->world().allreduce(mismatches, comm::ReduceOp::sum, "quickstart");
        const gindex_t found = next.nvals();  // collective: every rank calls it
        const gindex_t stored = a.nvals();    // collective too
        if (grid->rank() == 0) {
            std::printf(
                "grid %dx%d: %lld vertices, %lld stored entries; source %lld has %lld "
                "neighbours; BFS reached %lld vertices in %d levels (%s)\n",
                grid->pr(), grid->pc(), (long long)a.nrows(), (long long)stored, (long long)source,
                (long long)found, (long long)r.reached, r.depth, valid ? "valid" : "INVALID");
        }
        status = (valid && mismatches == 0 && found > 0) ? 0 : 1;
    } catch (const Error& e) {
        std::fprintf(stderr, "quickstart: %s\n", e.what());
        status = 1;
    }
    MPI_Finalize();
    return status;
}
