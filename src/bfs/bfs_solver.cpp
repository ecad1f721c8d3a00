// BfsSolver: the level loop of direction-optimising BFS (Beamer, Asanović & Patterson,
// "Direction-optimizing breadth-first search", SC 2012) over a 2D-distributed matrix, with
// per-level statistics. Each level is one vxm, or for a symmetric matrix on several grid
// rows the same product as an mxv, and for a matrix holding the graph by column the mxv
// (level_step.cpp): its push is the top-down step, its rotating pull the bottom-up step.

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "bfs/bfs_impl.hpp"
#include "gridblas/core/collective_check.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/matrix/detail/huge_pages.hpp"

namespace gridblas {

std::string to_string(BfsDirection d) {
    switch (d) {
        case BfsDirection::top_down:
            return "topdown";
        case BfsDirection::bottom_up:
            return "bottomup";
        default:
            return "auto";
    }
}

std::string to_string(ParentMode p) {
    switch (p) {
        case ParentMode::any:
            return "any";
        case ParentMode::after:
            return "after";
        default:
            return "min";
    }
}

std::string to_string(EdgeLayout e) { return e == EdgeLayout::by_column ? "column" : "row"; }

BfsDirection parse_bfs_direction(const std::string& s) {
    if (s == "auto") return BfsDirection::automatic;
    if (s == "topdown") return BfsDirection::top_down;
    if (s == "bottomup") return BfsDirection::bottom_up;
    throw InvalidValue("BFS direction '" + s + "' (expected auto, topdown or bottomup)");
}

ParentMode parse_parent_mode(const std::string& s) {
    if (s == "min") return ParentMode::min;
    if (s == "any") return ParentMode::any;
    if (s == "after") return ParentMode::after;
    throw InvalidValue("parent mode '" + s + "' (expected min, any or after)");
}

EdgeLayout parse_edge_layout(const std::string& s) {
    if (s == "row") return EdgeLayout::by_row;
    if (s == "column") return EdgeLayout::by_column;
    throw InvalidValue("edge layout '" + s + "' (expected row or column)");
}

namespace {
void check_options(const BfsOptions& o) {
    if (!(o.alpha > 0) || !(o.beta > 0)) {
        throw InvalidValue("bfs: alpha and beta must be positive, not " + std::to_string(o.alpha) +
                           " and " + std::to_string(o.beta));
    }
}
}  // namespace

BfsSolver::Impl::Impl(const DistMatrix<Pattern>& m, const BfsOptions& o)
    : a(m), opt(o), grid(*m.grid()), dist(m.row_dist()) {
    if (m.nrows() != m.ncols()) {
        throw DimensionMismatch("bfs: the adjacency matrix must be square, not " +
                                std::to_string(m.nrows()) + " x " + std::to_string(m.ncols()));
    }
    check_options(o);
    const bool by_column = o.edges == EdgeLayout::by_column;
    if (by_column && grid.exec_backend() != ExecBackend::cpu) {
        throw NotSupported(
            "bfs: a matrix holding the graph by column (BfsOptions::edges) is searched on the "
            "cpu backend only; build the matrix by row for a cuda grid");
    }
    // By column the levels are A ⊕.⊗ frontier on every grid; a symmetric matrix is the same
    // product either way and takes the mxv where the grid has several rows.
    input_is_rows = !(by_column || (m.symmetric_pattern() && grid.pr() > 1 &&
                                    grid.exec_backend() == ExecBackend::cpu));
    visited = DistVector<Pattern>(m.grid(), m.nrows());
    visited.to_format(VectorFormat::bitmap);
    frontier = DistVector<Pattern>(m.grid(), m.nrows());
    frontier_ids = DistVector<gindex_t>(m.grid(), m.nrows());
    next = DistVector<gindex_t>(m.grid(), m.nrows());
    begin = visited.local_begin();
    local_n = visited.local_size();

    // Out-degrees: the block's row counts summed along the grid row (by column: its column
    // counts summed along the grid column), this rank's piece kept.
    std::vector<gindex_t> counts(by_column ? dist.block_cols() : dist.block_rows(), 0);
    if (by_column) {
        a.by_row().for_each([&](lindex_t, lindex_t c, Pattern) { ++counts[c]; });
    } else {
        a.by_row().for_each([&](lindex_t r, lindex_t, Pattern) { ++counts[r]; });
    }
    (by_column ? grid.col() : grid.row())
        .allreduce(std::span<gindex_t>(counts), comm::ReduceOp::sum, "bfs-setup");
    const std::size_t off =
        std::size_t(by_column ? grid.my_row() : grid.my_col()) * std::size_t(dist.nb);
    detail::reserve_huge(degree, local_n);  // read at every vertex found top-down
    degree.assign(
        counts.begin() + std::ptrdiff_t(std::min<std::size_t>(off, counts.size())),
        counts.begin() + std::ptrdiff_t(std::min<std::size_t>(off + local_n, counts.size())));
    total_edges = m.nvals();
    // Parents below kNoParent, levels + 1 and degrees up to n fit in 32 bits (a pattern row
    // has at most n entries). GRIDBLAS_BFS_WIDE_RECORD=1 makes the levels write the result
    // directly, as they must beyond 2^32 - 1 vertices (so that the tests reach that path on
    // small graphs).
    const char* wide = std::getenv("GRIDBLAS_BFS_WIDE_RECORD");
    compact = dist.length <= gindex_t(kNoParent) && !(wide && std::string(wide) == "1");
    // A top-down level's kernel records what each of its threads found (KernelRecord): the
    // parents kept (every mode keeps top-down parents), the degrees summed.
    ws.result_epilogue = [this](std::span<const lindex_t> ids, std::span<const gindex_t> parents) {
        KernelRecord& k = kernel_record;
        const gindex_t sum =
            record_found(ids.data(), parents.data(), 0, ids.size(), k.depth, *k.result, true, true);
        k.degree_sum.fetch_add(sum, std::memory_order_relaxed);
    };
    if (const VertexRelabel* rl = m.relabel()) {
        std::vector<gindex_t> unused;
        detail::remap_vertex_arrays(grid, dist, begin, degree, {}, false, *rl, false, caller_degree,
                                    unused);
    }
}

BfsSolver::Impl::~Impl() = default;

BfsSolver::BfsSolver(const DistMatrix<Pattern>& a, const BfsOptions& options)
    : impl_(std::make_unique<Impl>(a, options)) {}
BfsSolver::~BfsSolver() = default;

const BfsOptions& BfsSolver::options() const { return impl_->opt; }
void BfsSolver::set_options(const BfsOptions& options) {
    check_options(options);
    if (options.edges != impl_->opt.edges) {
        throw InvalidValue(
            "BfsSolver::set_options: the edge layout is fixed when the solver is "
            "built (it was " +
            to_string(impl_->opt.edges) + ", asked " + to_string(options.edges) + ")");
    }
    impl_->opt = options;
}
const std::vector<gindex_t>& BfsSolver::local_degrees() const {
    return impl_->a.relabel() ? impl_->caller_degree : impl_->degree;
}

BfsResult BfsSolver::run(gindex_t source) {
    BfsResult r;
    run(source, r);
    return r;
}

void BfsSolver::run(gindex_t caller_source, BfsResult& r) {
    Impl& s = *impl_;
    const gindex_t n = s.dist.length;
    if (caller_source < 0 || caller_source >= n) {
        throw IndexOutOfBounds("bfs: source " + std::to_string(caller_source) +
                               " is not a vertex of a " + std::to_string(n) + "-vertex graph");
    }
    const gindex_t source = s.a.internal_id(caller_source);
    comm::Communicator& world = s.grid.world();
    world.allreduce(0, comm::ReduceOp::sum, "bfs-start");  // align ranks before timing
    const double t0 = comm::wtime();

    r.dist = s.dist;
    r.local_begin = s.begin;
    r.source = source;
    s.start_search(r);
    r.levels.clear();
    r.levels.reserve(64);  // BFS depths beyond 64 grow it once; nothing else allocates per level
    s.visited.bitmap().clear_all();
    SparseVector<Pattern>& front = s.frontier.sparse();
    front.clear();
    if (source >= s.begin && source < s.begin + gindex_t(s.local_n)) {
        const lindex_t i = lindex_t(source - s.begin);
        if (s.compact) {
            s.reached[i] = {1, std::uint32_t(source)};
        } else {
            r.parent[i] = source;
            r.level[i] = 0;
        }
        s.visited.bitmap().set(i);
        front.push_back(i);
    }

    // Global frontier size and its out-edges drive the direction choice.
    gindex_t nf = 1;
    gindex_t mf = 0;
    for (lindex_t i : front.indices()) mf += s.degree[i];
    mf = world.allreduce(mf, comm::ReduceOp::sum, "bfs-level");
    // As in GapBS: `unexplored` (its edges_to_check) only shrinks by the frontier's out-edges
    // before each top-down level, and a bottom-up phase is always followed by one top-down
    // level (scout = 1) before the rule is asked again.
    gindex_t unexplored = s.total_edges;
    gindex_t scout = mf;  // out-edges of the frontier
    gindex_t reached = 1;
    gindex_t reached_degree_sum = mf;  // the source's; each level adds its vertices'
    bool bottom_up = s.opt.direction == BfsDirection::bottom_up;
    gindex_t depth = 0;

    while (nf > 0) {
        if (s.opt.direction == BfsDirection::automatic && !bottom_up) {
            bottom_up = bfs_go_bottom_up(scout, unexplored, s.opt.alpha);
        }
        if (!bottom_up) unexplored -= scout;
        const comm::Counters c0 = s.grid.total_counters();
        const double l0 = comm::wtime();
        const std::uint64_t examined = s.step(bottom_up, depth, r);
        const gindex_t found_degree = s.record_level(depth, r, !bottom_up);
        const double l1 = comm::wtime();
        const comm::Counters c1 = s.grid.total_counters();

        // One allreduce of the level's counts decides what comes next.
        const auto& found = s.frontier.sparse().indices();
        gindex_t local[6] = {gindex_t(found.size()),
                             found_degree,
                             gindex_t(examined),
                             gindex_t(c1.messages - c0.messages),
                             gindex_t(c1.bytes_wire - c0.bytes_wire),
                             gindex_t(c1.bytes_raw - c0.bytes_raw)};
        world.allreduce(std::span<gindex_t>(local, 6), comm::ReduceOp::sum, "bfs-level");
        // This rank's times; the maxima over ranks are taken once, when the search is over
        // (one collective per search instead of one per level).

        BfsLevelStats st;
        st.level = int(depth);
        st.bottom_up = bottom_up;
        st.frontier = nf;
        st.discovered = local[0];
        st.edges_examined = std::uint64_t(local[2]);
        st.edges_examined_max_rank = examined;  // this rank's, until the maximum below
        st.messages = std::uint64_t(local[3]);
        st.bytes_wire = std::uint64_t(local[4]);
        st.bytes_raw = std::uint64_t(local[5]);
        st.seconds = l1 - l0;
        st.comm_seconds = c1.seconds - c0.seconds;
        r.levels.push_back(st);

        const gindex_t nf_prev = nf;
        nf = local[0];
        scout = local[1];
        reached += nf;
        reached_degree_sum += local[1];
        ++depth;
        if (s.opt.direction == BfsDirection::automatic && bottom_up) {
            // Stay bottom-up while the frontier grows or is still large (GapBS's rule).
            bottom_up = bfs_stay_bottom_up(nf, nf_prev, n, s.opt.beta);
            if (!bottom_up) scout = 1;
        }
    }
    if (s.compact) s.write_out_reached(r);
    if (s.recovers_parents_after()) s.parents_from_levels(r);
    if (const VertexRelabel* rl = s.a.relabel()) {
        // Give the results back in the caller's ids.
        std::vector<gindex_t> parent, level;
        detail::remap_vertex_arrays(s.grid, s.dist, s.begin, r.parent, r.level, true, *rl, false,
                                    parent, level);
        r.parent.swap(parent);
        r.level.swap(level);
        r.source = caller_source;
    }

    // The search time, each level's times and its largest rank's reading, as maxima over the
    // ranks, in one allreduce (entry counts are exact in a double up to 2^53).
    std::vector<double>& times = s.level_times;
    times.assign(1, comm::wtime() - t0);
    for (const BfsLevelStats& st : r.levels)
        times.insert(times.end(),
                     {st.seconds, st.comm_seconds, double(st.edges_examined_max_rank)});
    world.allreduce(std::span<double>(times), comm::ReduceOp::max, "bfs-end");
    r.seconds = times[0];
    for (std::size_t l = 0; l < r.levels.size(); ++l) {
        r.levels[l].seconds = times[1 + 3 * l];
        r.levels[l].comm_seconds = times[2 + 3 * l];
        r.levels[l].edges_examined_max_rank = std::uint64_t(times[3 + 3 * l]);
    }
    r.reached = reached;
    r.reached_degree_sum = reached_degree_sum;
    r.depth = int(depth);
}

BfsResult bfs(const DistMatrix<Pattern>& a, gindex_t source, const BfsOptions& options) {
    BfsSolver solver(a, options);
    return solver.run(source);
}

}  // namespace gridblas
