// Top-down BFS level as GraphBLAS linear algebra (gridblas::vxm's core, run in the matrix's
// stored ids so that relabelled graphs work too):
//   next⟨¬visited, structural, replace⟩ = frontierᵀ ⊕.⊗ A   over (min, select2nd)
// an SpMSpV (push) whose input entries carry their own vertex ids, so next(v) is the
// smallest-id frontier vertex with an edge to v (Buluç & Madduri, SC'11; CombBLAS).

#include "bfs/bfs_impl.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas {

namespace {
/// (any, second): like select2nd_min but any candidate is as good as the smallest.
struct any_second {
    using value_type = gindex_t;
    static constexpr bool has_terminal = true;
    static constexpr gindex_t zero() { return -1; }
    static constexpr gindex_t add(gindex_t a, gindex_t) { return a; }
    static constexpr gindex_t mul(Pattern, gindex_t x) { return x; }
    static constexpr bool is_terminal(gindex_t) { return true; }
};
}  // namespace

std::uint64_t BfsSolver::Impl::top_down_step(gindex_t depth, BfsResult& r) {
    // The frontier vector: entries at the frontier's vertices, valued with their own ids.
    SparseVector<gindex_t>& f = frontier.sparse();
    f.clear();
    std::uint64_t examined = 0;
    for (lindex_t i : frontier_list) {
        f.push_back(i, begin + gindex_t(i));
        examined += std::uint64_t(degree[i]);
    }
    Descriptor d;
    d.mask_complement = true;
    d.mask_structural = true;
    d.replace = true;
    d.direction = Direction::push;
    // On the cuda backend (any) runs as (min): the device has kernels for the built-in
    // semirings only, and the smallest parent is as good as any.
    if (opt.parents == ParentMode::min || grid.exec_backend() == ExecBackend::cuda) {
        detail::spmv_dist<select2nd_min<gindex_t>>(next, visited, no_accum, frontier, a, d, true,
                                                   td_ws, "bfs-topdown");
    } else {
        // Any parent will do: the (any, second) product keeps whichever arrives first.
        detail::spmv_dist<any_second>(next, visited, no_accum, frontier, a, d, true, td_ws,
                                      "bfs-topdown");
    }
    // Record the new vertices; they form the next frontier.
    frontier_list.clear();
    BitmapVector<Pattern>& vis = visited.bitmap();
    const SparseVector<gindex_t>& nx = next.sparse();
    const bool keep_parent = opt.parents != ParentMode::after;
    for (std::size_t k = 0; k < nx.nvals(); ++k) {
        const lindex_t i = nx.indices()[k];
        vis.set(i);
        r.level[i] = depth + 1;
        if (keep_parent) r.parent[i] = nx.values()[k];
        frontier_list.push_back(i);
    }
    return examined;
}

}  // namespace gridblas
