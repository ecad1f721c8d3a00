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
#include <sstream>

#include "bfs/bfs_impl.hpp"
#include "bfs/levels_gather.hpp"

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
BfsValidation validate_internal(const DistMatrix<Pattern>& a, const BfsResult& r, bool by_column) {
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

    // Local rules and the parent queries.
    std::vector<std::vector<ParentQuery>> q(std::size_t(fold.size()));
    for (std::size_t k = 0; k < r.parent.size(); ++k) {
        const gindex_t v = begin + gindex_t(k);
        const gindex_t p = r.parent[k];
        const gindex_t l = r.level[k];
        if ((p >= 0) != (l >= 0)) {
            ++c[5];
            continue;
        }
        if (v == r.source) {
            if (p != v || l != 0) ++c[0];
            continue;
        }
        if (p < 0) continue;
        if (l == 0 || p >= dist.length) {
            ++c[1];
            continue;
        }
        q[std::size_t(holder(p))].push_back({lindex_t(my_off + k), inner_of(p), l});
    }
    std::vector<ParentQuery> send, recv;
    std::vector<int> counts, recv_counts;
    for (auto& x : q) {
        counts.push_back(int(x.size()));
        send.insert(send.end(), x.begin(), x.end());
    }
    fold.alltoallv(std::span<const ParentQuery>(send), std::span<const int>(counts), recv,
                   recv_counts, "bfs-validate");

    std::vector<gindex_t> level_row, level_col;
    detail::gather_block(grid, dist, r.level, true, level_row, gindex_t(-1));
    detail::gather_block(grid, dist, r.level, false, level_col, gindex_t(-1));
    const std::vector<gindex_t>& level_inner = by_column ? level_col : level_row;
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
    for (const ParentQuery& x : recv) {
        if (!has_edge(x.v_outer, x.p_inner)) ++c[2];
        const gindex_t lp = level_inner[x.p_inner];
        if (lp < 0 || x.level_v != lp + 1) ++c[1];
    }
    // Edge rules over this rank's block: the stored A(i, j) is the edge i -> j by row and
    // j -> i by column.
    a.by_row().for_each([&](lindex_t i, lindex_t j, Pattern) {
        const gindex_t lu = by_column ? level_col[j] : level_row[i];
        if (lu < 0) return;
        const gindex_t lv = by_column ? level_row[i] : level_col[j];
        if (lv < 0) {
            ++c[3];
        } else if (lv > lu + 1) {
            ++c[4];
        }
    });
    grid.world().allreduce(std::span<std::uint64_t>(c, 6), comm::ReduceOp::sum, "bfs-validate");
    out.bad_root = c[0];
    out.bad_level = c[1];
    out.parent_not_edge = c[2];
    out.missed_vertex = c[3];
    out.edge_spans_levels = c[4];
    out.inconsistent = c[5];
    return out;
}

}  // namespace

}  // namespace gridblas
