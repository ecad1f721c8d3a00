// Parent mode "after" (after Fu, Dasari, Berzins & Thompson, "Parallel breadth first search
// on GPU clusters", IEEE BigData 2014): the bottom-up levels record levels only; afterwards
// each vertex v they found, at level L, takes as parent its smallest-id in-neighbour at level
// L - 1. (Top-down levels already set min parents: their push finds them for free, while a
// vertex found top-down has few in-neighbours one level up, so a scan for one would read
// most of its in-edges.) Each rank reads its block's in-edges with the levels of its row and
// column blocks, and the candidates go to the owners along the grid column (for a matrix
// holding the graph by column, whose rows list in-edges: along the grid row), where the
// smallest wins. They travel as 4-byte local row ids with no vertex id: the ranks of a grid
// column first share one bit per column ("found a candidate"), so that an owner knows which
// of its vertices each sender's ascending list covers and the sender's grid row turns the
// local id back into a global one — a quarter of the bytes of (vertex, parent) pairs.
//
// The levels travel and are read as one byte each (level + 1, 0 = unreached) when the search
// is shallower than 255 levels — an eighth of the bytes, and a row block's levels that stay
// in cache for the scan's random reads; deeper searches fall back to 8-byte levels.

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <span>

#include "bfs/bfs_impl.hpp"
#include "bfs/levels_gather.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/vector/bitmap_vector.hpp"

namespace gridblas {

namespace {

constexpr lindex_t kNoCandidate = ~lindex_t(0);

/// cand[k] = the smallest inner index u of stored outer position k whose level is the outer
/// vertex's level - 1 (levels as stored: `none` = unreached; in `louter` also where no parent
/// is wanted), or kNoCandidate. By row the outer vertices are the block's columns and the
/// inner ones its rows; by column the reverse. Reads each outer vertex's in-edges in
/// ascending order (a block's global rows, and columns, increase with the local index) and
/// stops at the first match, in parallel over the outer vertices.
template <class L>
void scan_candidates(const kernels::CompressedView<Pattern>& view, const L* linner, const L* louter,
                     L none, std::vector<lindex_t>& cand) {
    const std::size_t cols = view.num_outer;
    cand.assign(cols, kNoCandidate);
    lindex_t* out = cand.data();
    const int threads = cols >= (std::size_t(1) << 14) ? omp_get_max_threads() : 1;
    // Few columns want a parent and their in-edges sit at random places in a large array:
    // the first in-edge of the column `ahead` positions on is prefetched when it wants one.
    constexpr std::size_t ahead = 16;
    const auto wanted = [none](L lv) { return lv != none && lv != L(none + 1); };  // not the source
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) if (threads > 1)
    for (std::size_t k = 0; k < cols; ++k) {
        if (k + ahead < cols && wanted(louter[view.outer_id(k + ahead)])) {
            __builtin_prefetch(view.inner + view.ptr[k + ahead]);
        }
        const L lv = louter[view.outer_id(k)];
        if (!wanted(lv)) continue;
        const L want = L(lv - 1);
        for (offset_t p = view.ptr[k]; p < view.ptr[k + 1]; ++p) {
            const lindex_t u = view.inner[p];
            if (linner[u] == want) {
                out[k] = u;
                break;
            }
        }
    }
}

/// Which way the pass runs. By row (a stored A(u, v) is the edge u -> v) the vertices that
/// want parents are the block's columns, their in-neighbours its rows, and candidates go
/// along the grid column; by column every role is swapped.
struct Orientation {
    bool by_column = false;
    /// The block whose outer index is the vertex wanting a parent.
    const CompressedBlock<Pattern>& in_edges(const DistMatrix<Pattern>& a) const {
        return by_column ? a.by_row() : a.by_col();
    }
    /// The ranks sharing those vertices' block (the candidates' exchange).
    comm::Communicator& fold(ProcessGrid& g) const { return by_column ? g.row() : g.col(); }
    int fold_rank(const ProcessGrid& g) const { return by_column ? g.my_col() : g.my_row(); }
    lindex_t outer_size(const Distribution& d) const {
        return by_column ? d.block_rows() : d.block_cols();
    }
    /// Global id of in-neighbour u (an inner index) of fold rank w's block.
    gindex_t in_neighbour(const Distribution& d, int w, lindex_t u) const {
        return by_column ? d.global_col(w, u) : d.global_row(w, u);
    }
};

/// Shares along the fold which outer vertices have a candidate on this rank, and sends the
/// candidates (inner ids, in ascending outer order) to the owners of their vertices; keeps
/// those of this rank's own piece in `b.own`.
void send_candidates(ProcessGrid& grid, const Distribution& dist, const Orientation& o,
                     const kernels::CompressedView<Pattern>& view, std::size_t local_n,
                     detail::AfterBuffers& b) {
    const int me = o.fold_rank(grid);
    const gindex_t nb = dist.nb;
    const gindex_t first = gindex_t(me) * nb;  // first outer index of this rank's piece
    comm::Communicator& fold = o.fold(grid);
    b.has.assign(bitmap_words(o.outer_size(dist)), 0);
    b.own.assign(local_n, kNoCandidate);
    b.send.clear();
    b.send_counts.assign(std::size_t(fold.size()), 0);
    for (std::size_t k = 0; k < b.cand.size(); ++k) {
        if (b.cand[k] == kNoCandidate) continue;
        const lindex_t v = view.outer_id(k);
        b.has[v / 64] |= std::uint64_t(1) << (v % 64);
        const int dest = int(gindex_t(v) / nb);
        if (dest == me) {
            b.own[std::size_t(gindex_t(v) - first)] = b.cand[k];
        } else {
            ++b.send_counts[std::size_t(dest)];
            b.send.push_back(b.cand[k]);
        }
    }
    fold.allgatherv(std::span<const std::uint64_t>(b.has), b.has_all, b.counts,
                    "bfs-parents-after");
    fold.alltoallv(std::span<const lindex_t>(b.send), std::span<const int>(b.send_counts), b.recv,
                   b.recv_counts, "bfs-parents-after");
}

/// Each vertex of this rank's piece takes the smallest (global id) of the candidates the
/// ranks of its fold found, its own included: rank w's list holds one inner id of rank w's
/// block per outer vertex whose bit w set, in outer order.
void take_smallest_candidates(ProcessGrid& grid, const Distribution& dist, const Orientation& o,
                              detail::AfterBuffers& b, BfsResult& r) {
    const int me = o.fold_rank(grid);
    const std::size_t q = std::size_t(o.fold(grid).size());
    const std::size_t words = b.has.size();
    b.next.assign(q, 0);
    for (std::size_t w = 1; w < q; ++w) {
        b.next[w] = b.next[w - 1] + std::size_t(b.recv_counts[w - 1]);
    }
    const gindex_t first = gindex_t(me) * dist.nb;
    for (std::size_t i = 0; i < b.own.size(); ++i) {
        const gindex_t v = first + gindex_t(i);
        const std::size_t word = std::size_t(v / 64);
        const std::uint64_t bit = std::uint64_t(1) << (v % 64);
        gindex_t best = -1;
        for (std::size_t w = 0; w < q; ++w) {
            if ((b.has_all[w * words + word] & bit) == 0) continue;
            const lindex_t u = int(w) == me ? b.own[i] : b.recv[b.next[w]++];
            const gindex_t g = o.in_neighbour(dist, int(w), u);
            if (best < 0 || g < best) best = g;
        }
        gindex_t& p = r.parent[i];
        if (best >= 0 && (p < 0 || best < p)) p = best;
    }
}

}  // namespace

void BfsSolver::Impl::parents_from_levels(BfsResult& r) {
    detail::AfterBuffers& b = after;
    const Orientation o{opt.edges == EdgeLayout::by_column};
    const CompressedBlock<Pattern>& bc = o.in_edges(a);
    const kernels::CompressedView<Pattern> view = bc.format() == LocalFormat::csr
                                                      ? kernels::make_view(bc.csr())
                                                      : kernels::make_view(bc.dcsc());
    // The in-neighbours' levels come from their block's ranks, those of the vertices wanting
    // a parent from the fold (by row: the row block's and the column block's).
    const bool inner_along_row = !o.by_column;
    // Every rank knows the depth (the level loop's allreduces), so all take the same path.
    if (r.levels.size() < 255) {
        const std::size_t m = r.level.size();
        b.mine.resize(m);
        b.mine_open.resize(m);
        for (std::size_t i = 0; i < m; ++i) {
            b.mine[i] = std::uint8_t(r.level[i] + 1);
            b.mine_open[i] = r.parent[i] < 0 ? b.mine[i] : std::uint8_t(0);
        }
        detail::gather_block(grid, dist, b.mine, inner_along_row, b.inner, std::uint8_t(0),
                             b.counts, "bfs-parents-after");
        detail::gather_block(grid, dist, b.mine_open, !inner_along_row, b.outer, std::uint8_t(0),
                             b.counts, "bfs-parents-after");
        scan_candidates<std::uint8_t>(view, b.inner.data(), b.outer.data(), 0, b.cand);
    } else {
        std::vector<gindex_t> level_inner, level_outer, open(r.level);
        for (std::size_t i = 0; i < open.size(); ++i) {
            if (r.parent[i] >= 0) open[i] = -1;
        }
        detail::gather_block(grid, dist, r.level, inner_along_row, level_inner, gindex_t(-1));
        detail::gather_block(grid, dist, open, !inner_along_row, level_outer, gindex_t(-1));
        scan_candidates<gindex_t>(view, level_inner.data(), level_outer.data(), -1, b.cand);
    }
    send_candidates(grid, dist, o, view, r.parent.size(), b);
    take_smallest_candidates(grid, dist, o, b, r);
    if (r.source >= begin && r.source < begin + gindex_t(local_n)) {
        r.parent[std::size_t(r.source - begin)] = r.source;
    }
}

}  // namespace gridblas
