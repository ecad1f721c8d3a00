// FastSV (Zhang, Azad & Hu, SIAM PP 2020) over an explicit list of edges rather than a
// matrix: the step that joins the per-rank forests of the sampling connected components.
// The ends of this rank's edges are sent to their owners once; each iteration then moves
// only values: the grandparents of the ends out to this rank, the smallest neighbouring
// grandparent of each end back to its owner (two alltoallv with the same counts), and the
// hooking and grandparent steps of the ends' owners (indexed.hpp). Vertices that end no edge
// anywhere are never touched, so an iteration costs O(edges + ends), not O(n).

#include <algorithm>
#include <span>
#include <vector>

#include "algorithms/cc_detail.hpp"
#include "algorithms/indexed.hpp"
#include "gridblas/core/error.hpp"

namespace gridblas::detail {

namespace {
struct MinOp {
    gindex_t operator()(gindex_t a, gindex_t b) const { return b < a ? b : a; }
};
}  // namespace

int edge_list_fastsv(std::vector<gindex_t>& f, const std::vector<gindex_t>& ends,
                     const std::vector<std::uint32_t>& ea, const std::vector<std::uint32_t>& eb,
                     const Distribution& d, gindex_t begin, comm::Communicator& world) {
    const std::size_t ne = ends.size();
    // The owners learn once which of their vertices this rank's ends are.
    std::vector<std::size_t> slot;
    std::vector<int> counts;
    group_slots(
        ne, world.size(), [&](std::size_t k) { return d.owner(ends[k]); }, slot, counts);
    std::vector<gindex_t> buf(ne), asked, got;
    for (std::size_t k = 0; k < ne; ++k) buf[slot[k]] = ends[k];
    std::vector<int> asked_counts, got_counts;
    world.alltoallv(std::span<const gindex_t>(buf), std::span<const int>(counts), asked,
                    asked_counts, "cc-edges-ends");
    for (gindex_t& g : asked) g -= begin;  // now local positions
    // The active vertices of this rank: ends of some rank's edges.
    const std::size_t m = f.size();
    std::vector<char> on(m, 0);
    for (gindex_t v : asked) on[std::size_t(v)] = 1;
    std::vector<std::size_t> act;
    for (std::size_t v = 0; v < m; ++v) {
        if (on[v]) act.push_back(v);
    }
    on = {};
    std::vector<gindex_t> gf(m), mngf(m), answers(asked.size()), gfe(ne), mn(ne), targets,
        vals(act.size()), next;
    for (std::size_t v : act) gf[v] = f[v];  // ends are roots: f(f(v)) = f(v)
    targets.resize(act.size());
    int iterations = 0;
    for (;;) {
        ++iterations;
        // 1. The grandparents of this rank's ends.
        for (std::size_t k = 0; k < asked.size(); ++k) answers[k] = gf[std::size_t(asked[k])];
        world.alltoallv(std::span<const gindex_t>(answers), std::span<const int>(asked_counts), got,
                        got_counts, "cc-edges-gf");
        for (std::size_t k = 0; k < ne; ++k) mn[k] = gfe[k] = got[slot[k]];
        // 2. The smallest grandparent next to each end, over this rank's edges.
        for (std::size_t e = 0; e < ea.size(); ++e) {
            const std::uint32_t x = ea[e], y = eb[e];
            mn[x] = std::min(mn[x], gfe[y]);
            mn[y] = std::min(mn[y], gfe[x]);
        }
        // 3. mngf at the owners: the minimum over every rank's edges.
        for (std::size_t k = 0; k < ne; ++k) buf[slot[k]] = mn[k];
        world.alltoallv(std::span<const gindex_t>(buf), std::span<const int>(counts), got,
                        got_counts, "cc-edges-min");
        for (std::size_t v : act) mngf[v] = gf[v];
        for (std::size_t k = 0; k < asked.size(); ++k) {
            gindex_t& x = mngf[std::size_t(asked[k])];
            x = std::min(x, got[k]);
        }
        // 4. Stochastic hooking (onto the parents taken first), 5. aggressive hooking and
        // shortcutting.
        for (std::size_t k = 0; k < act.size(); ++k) {
            targets[k] = f[act[k]];
            vals[k] = mngf[act[k]];
        }
        scatter_combine_dense(f, targets, vals, MinOp{}, d, begin, world);
        for (std::size_t v : act) f[v] = std::min({f[v], mngf[v], gf[v]});
        // 6. Grandparents, and whether any changed.
        for (std::size_t k = 0; k < act.size(); ++k) targets[k] = f[act[k]];
        gather_dense(next, targets, f, d, begin, world);
        gindex_t moved = 0;
        for (std::size_t k = 0; k < act.size(); ++k) {
            moved += next[k] != gf[act[k]];
            gf[act[k]] = next[k];
        }
        if (world.allreduce(moved, comm::ReduceOp::sum, "cc-edges-moved") == 0) break;
    }
    return iterations;
}

}  // namespace gridblas::detail
