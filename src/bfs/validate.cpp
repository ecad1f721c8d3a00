// validate_bfs: the Graph500 kernel-2 validation rules, distributed over the grid.
//  - the source is its own parent at level 0, and no other vertex is at level 0;
//  - every reached vertex v != source has level(v) = level(parent(v)) + 1 (which also rules
//    out cycles: levels strictly decrease along parent pointers down to the source);
//  - (parent(v), v) is an edge of the graph;
//  - every edge u -> v with u reached has v reached (nothing reachable is missed) and
//    level(v) <= level(u) + 1 (no edge skips a level).
// Parent checks travel to the rank holding the edge's block, along the grid column (along the
// grid row for a matrix holding the graph by column).

#include <algorithm>
#include <limits>
#include <sstream>

#include "bfs/bfs_impl.hpp"
#include "bfs/levels_gather.hpp"
#include "gridblas/kernels/cpu/view.hpp"

namespace gridblas {

std::string BfsValidation::summary() const {
    if (ok()) return "valid";
    std::ostringstream s;
    s << "invalid BFS:";
    if (bad_root) s << " source not its own parent at level 0 (" << bad_root << ");";
    if (bad_level) s << " level(v) != level(parent)+1 (" << bad_level << ");";
    if (parent_not_edge) s << " parent edge missing from graph (" << parent_not_edge << ");";
    if (missed_vertex) s << " reachable vertex not reached (" << missed_vertex << ");";
    if (edge_spans_levels) s << " edge spans more than one level (" << edge_spans_levels << ");";
    if (inconsistent) s << " parent and level disagree on reached (" << inconsistent << ");";
    return s.str();
}

namespace {
struct ParentQuery {
    lindex_t v_outer;  // index of v in the receiver's block of in-edge lists
    lindex_t p_inner;  // index of the parent in the receiver's block of in-neighbours
    gindex_t level_v;
};
}  // namespace

namespace {
BfsValidation validate_internal(const DistMatrix<Pattern>& a, const BfsResult& r, bool by_column);
}  // namespace

BfsValidation validate_bfs(const DistMatrix<Pattern>& a, const BfsResult& r, EdgeLayout edges) {
    const bool by_column = edges == EdgeLayout::by_column;
    ProcessGrid& grid = *a.grid();
    detail::run_collectively(grid.world(), [&] {
        if (a.nrows() != a.ncols()) throw DimensionMismatch("validate_bfs: matrix is not square");
        DistVector<Pattern> shape(a.grid(), a.nrows());
        if (r.parent.size() != shape.local_size() || r.level.size() != shape.local_size() ||
            r.local_begin != shape.local_begin()) {
            throw DimensionMismatch(
                "validate_bfs: the result does not match the graph's vertex "
                "distribution");
        }
    });
    const VertexRelabel* rl = a.relabel();
    if (rl == nullptr) return validate_internal(a, r, by_column);
    // The result is in the caller's ids; the matrix is stored relabelled.
    BfsResult internal = r;
    detail::remap_vertex_arrays(*a.grid(), a.row_dist(), r.local_begin, r.parent, r.level, true,
                                *rl, true, internal.parent, internal.level);
    internal.source = a.internal_id(r.source);
    return validate_internal(a, internal, by_column);
}

namespace {

/// Levels as the rules read them: stored level + 1, 0 for unreached (as `L`: one byte while
/// every level is below 254, else 8 bytes).
template <class L>
void shifted_levels(const BfsResult& r, std::vector<L>& out) {
    constexpr gindex_t top = std::numeric_limits<gindex_t>::max();
    out.resize(r.level.size());
    for (std::size_t k = 0; k < r.level.size(); ++k) {
        // (A level of `top` is no BFS level; saturating keeps the shift defined.)
        const gindex_t l = r.level[k];
        out[k] = l < 0 ? L(0) : L(l == top ? top : l + 1);
    }
}

template <class L>
BfsValidation validate_levels_as(const DistMatrix<Pattern>& a, const BfsResult& r, bool by_column) {
    ProcessGrid& grid = *a.grid();
    const Distribution& dist = a.row_dist();
    BfsValidation out;
    std::uint64_t c[6] = {0, 0, 0, 0, 0, 0};  // root, level, edge, missed, spans, inconsistent
    const gindex_t begin = r.local_begin;
    const gindex_t nb = dist.nb;
    // The graph edge (p, v) is stored as A(p, v) (by row: on the rank of p's row block in
    // this grid column) or as A(v, p) (by column: on the rank of p's column block in this
    // grid row). The block of in-edge lists has outer index v: by_col, or by column by_row.
    comm::Communicator& fold = by_column ? grid.row() : grid.col();
    const lindex_t my_off = lindex_t(gindex_t(by_column ? grid.my_col() : grid.my_row()) * nb);
    auto holder = [&](gindex_t p) {
        return by_column ? dist.col_block_of(p) : dist.row_block_of(p);
    };
    auto inner_of = [&](gindex_t p) { return by_column ? dist.local_col(p) : dist.local_row(p); };

    // Local rules, then the parent queries, written in place grouped by the rank holding the
    // parent's edges (counted first, so that they are held once before the exchange).
    std::vector<int> counts(std::size_t(fold.size()), 0);
    auto query_of = [&](std::size_t k, bool count) {
        const gindex_t v = begin + gindex_t(k);
        const gindex_t p = r.parent[k];
        const gindex_t l = r.level[k];
        if ((p >= 0) != (l >= 0)) {
            c[5] += count;
            return -1;
        }
        if (v == r.source) {
            if (count && (p != v || l != 0)) ++c[0];
            return -1;
        }
        if (p < 0) return -1;
        if (l == 0 || p >= dist.length) {
            c[1] += count;
            return -1;
        }
        return holder(p);
    };
    for (std::size_t k = 0; k < r.parent.size(); ++k) {
        const int h = query_of(k, true);
        if (h >= 0) ++counts[std::size_t(h)];
    }
    std::vector<std::size_t> at(counts.size() + 1, 0);
    for (std::size_t h = 0; h < counts.size(); ++h) at[h + 1] = at[h] + std::size_t(counts[h]);
    std::vector<ParentQuery> send(at.back()), recv;
    for (std::size_t k = 0; k < r.parent.size(); ++k) {
        const int h = query_of(k, false);
        if (h < 0) continue;
        send[at[std::size_t(h)]++] = {lindex_t(my_off + k), inner_of(r.parent[k]), r.level[k]};
    }
    std::vector<int> recv_counts;
    fold.alltoallv(std::span<const ParentQuery>(send), std::span<const int>(counts), recv,
                   recv_counts, "bfs-validate");
    send = {};

    std::vector<L> level_row, level_col;
    {
        std::vector<L> mine;
        shifted_levels(r, mine);
        detail::gather_block(grid, dist, mine, true, level_row, L(0), recv_counts, "bfs-validate");
        detail::gather_block(grid, dist, mine, false, level_col, L(0), recv_counts, "bfs-validate");
    }
    const std::vector<L>& level_inner = by_column ? level_col : level_row;
    const CompressedBlock<Pattern>& in_edges = by_column ? a.by_row() : a.by_col();
    auto has_edge = [&](lindex_t v_outer, lindex_t u_inner) {
        if (in_edges.format() == LocalFormat::dcsc) {
            const auto& jc = in_edges.dcsc().jc();
            auto it = std::lower_bound(jc.begin(), jc.end(), v_outer);
            if (it == jc.end() || *it != v_outer) return false;
            const std::size_t k = std::size_t(it - jc.begin());
            const auto* b = in_edges.dcsc().ir().data() + in_edges.dcsc().cp()[k];
            const auto* e = in_edges.dcsc().ir().data() + in_edges.dcsc().cp()[k + 1];
            return std::binary_search(b, e, u_inner);
        }
        const auto& rp = in_edges.csr().rowptr();
        const auto* b = in_edges.csr().colind().data() + rp[v_outer];
        const auto* e = in_edges.csr().colind().data() + rp[v_outer + 1];
        return std::binary_search(b, e, u_inner);
    };
    // The rules below read shared arrays only; threads split the queries and the block's
    // stored rows (or columns), and their counts are summed.
    std::uint64_t not_edge = 0, bad_level = 0, missed = 0, spans = 0;
    const std::ptrdiff_t nq = std::ptrdiff_t(recv.size());
#pragma omp parallel for schedule(static) reduction(+ : not_edge, bad_level) if (nq > 16384)
    for (std::ptrdiff_t t = 0; t < nq; ++t) {
        const ParentQuery& x = recv[std::size_t(t)];
        if (!has_edge(x.v_outer, x.p_inner)) ++not_edge;
        // Shifted: the parent's level + 1 (0: unreached), which must equal v's level.
        const gindex_t lp1 = gindex_t(level_inner[x.p_inner]);
        if (lp1 == 0 || x.level_v != lp1) ++bad_level;
    }
    // Edge rules over this rank's block: the stored A(i, j) is the edge i -> j by row and
    // j -> i by column (levels shifted by one: 0 is unreached).
    const CompressedBlock<Pattern>& rows = a.by_row();
    const kernels::CompressedView<Pattern> view = rows.format() == LocalFormat::csr
                                                      ? kernels::make_view(rows.csr())
                                                      : kernels::make_view(rows.dcsc());
    const std::ptrdiff_t outers = std::ptrdiff_t(view.num_outer);
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : missed, spans) \
    if (view.nnz() > (std::size_t(1) << 16))
    for (std::ptrdiff_t k = 0; k < outers; ++k) {
        const lindex_t i = view.outer_id(std::size_t(k));
        for (offset_t p = view.ptr[k]; p < view.ptr[k + 1]; ++p) {
            const lindex_t j = view.inner[p];
            const L lu = by_column ? level_col[j] : level_row[i];
            if (lu == 0) continue;
            const L lv = by_column ? level_row[i] : level_col[j];
            if (lv == 0) {
                ++missed;
            } else if (lv > lu && gindex_t(lv) - gindex_t(lu) > 1) {
                ++spans;
            }
        }
    }
    c[1] += bad_level;
    c[2] += not_edge;
    c[3] += missed;
    c[4] += spans;
    grid.world().allreduce(std::span<std::uint64_t>(c, 6), comm::ReduceOp::sum, "bfs-validate");
    out.bad_root = c[0];
    out.bad_level = c[1];
    out.parent_not_edge = c[2];
    out.missed_vertex = c[3];
    out.edge_spans_levels = c[4];
    out.inconsistent = c[5];
    return out;
}

// The edge rules read the levels of a row block and a column block at random: one byte a
// vertex while the deepest level is below 254 (any BFS of a small-world graph), an eighth of
// the memory and of the bytes gathered (at scale 25 on 2 x 2, two blocks of 134 MB a rank in
// 8-byte levels, each held twice: the copy and the communicator's receive buffer).
BfsValidation validate_internal(const DistMatrix<Pattern>& a, const BfsResult& r, bool by_column) {
    gindex_t deepest = -1;
    for (gindex_t l : r.level) deepest = std::max(deepest, l);
    deepest = a.grid()->world().allreduce(deepest, comm::ReduceOp::max, "bfs-validate");
    if (deepest < 254) return validate_levels_as<std::uint8_t>(a, r, by_column);
    return validate_levels_as<gindex_t>(a, r, by_column);
}

}  // namespace

}  // namespace gridblas
