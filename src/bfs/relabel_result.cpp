// Moving BFS results between the caller's vertex ids and the relabelled ids a DistMatrix is
// stored under (BuildOptions::relabel): each vertex's (parent, level) travels to the owner of
// its id in the other labelling, with the parent id translated too. One alltoallv.

#include "bfs/bfs_impl.hpp"
#include "gridblas/core/route.hpp"

namespace gridblas::detail {

namespace {
struct Moved {
    gindex_t v;  // vertex id in the target labelling
    gindex_t a;  // parent (target labelling) or degree
    gindex_t b;  // level
};
}  // namespace

void remap_vertex_arrays(ProcessGrid& grid, const Distribution& dist, gindex_t begin,
                         const std::vector<gindex_t>& a, const std::vector<gindex_t>& b,
                         bool a_is_vertex, const VertexRelabel& rl, bool to_internal,
                         std::vector<gindex_t>& a_out, std::vector<gindex_t>& b_out) {
    auto map = [&](gindex_t x) { return to_internal ? rl.forward(x) : rl.inverse(x); };
    std::vector<int> counts;
    std::vector<Moved> send;
    group_by_destination(
        a.size(), grid.size(), [&](std::size_t k) { return dist.owner(map(begin + gindex_t(k))); },
        [&](std::size_t k) {
            return Moved{map(begin + gindex_t(k)), (a_is_vertex && a[k] >= 0) ? map(a[k]) : a[k],
                         b.empty() ? 0 : b[k]};
        },
        counts, send);
    std::vector<Moved> recv;
    std::vector<int> recv_counts;
    grid.world().alltoallv(std::span<const Moved>(send), std::span<const int>(counts), recv,
                           recv_counts, "bfs-relabel");
    a_out.assign(a.size(), -1);
    if (!b.empty()) b_out.assign(b.size(), -1);
    for (const Moved& m : recv) {
        const std::size_t k = std::size_t(m.v - begin);
        a_out[k] = m.a;
        if (!b.empty()) b_out[k] = m.b;
    }
}

}  // namespace gridblas::detail
