#pragma once
/// @file bfs.hpp
/// @brief Distributed breadth-first search expressed in gridblas' own linear algebra, and its
/// Graph500 validation.
///
/// Convention: a stored A(u, v) is an edge u -> v; BFS follows out-edges. A matrix that holds
/// the graph's transpose (BfsOptions::edges = EdgeLayout::by_column) is searched as the graph
/// it holds: each level is then the mxv next = A ⊕.⊗ frontier.
///  - Top-down level: next⟨¬visited, structural, replace⟩ = frontierᵀ ⊕.⊗ A with
///    select2nd_min (vxm, SpMSpV push), the frontier carrying its own vertex ids, so each new
///    vertex gets its smallest-id parent.
///  - Bottom-up level (Beamer et al. 2012; distributed as Buluç et al. 2017, Algorithm 4): the
///    frontier as a bitmap gathered along the grid row, then pr sub-steps in which each rank
///    pulls over its block's in-edges for the unvisited vertices of one piece of its column
///    block, with early exit, and passes the piece's "completed" bitmap (and the parents found)
///    to the next rank of the grid column. In-edges come from the column-compressed copy of
///    each block that DistMatrix keeps, so directed graphs are handled correctly in both
///    directions.
///  - A matrix declared symmetric (DistMatrix::symmetric_pattern()) on a grid of several rows
///    and the CPU backend runs each level as the same product written as an mxv,
///    next = A ⊕.⊗ frontier: the frontier is then gathered along the grid column and the
///    pieces rotate along the grid row, over contiguous column blocks, so that a bottom-up
///    level reads exactly the entries one rank reads (the vxm's strided row blocks read
///    more on grids of several rows and columns).
///  - Direction optimisation: go bottom-up when the frontier's out-edges exceed the
///    unexplored edges / alpha, back top-down when the frontier falls below n / beta and
///    shrinks (one allreduce of three scalars per level).
///  - Parents: `min` (deterministic: the smallest-id neighbour in the previous level, the same
///    on every grid and backend), `any` (first found, faster bottom-up), `after` (top-down
///    levels take `min` parents; bottom-up levels record levels only, stopping at any
///    parent, and their vertices' parents are recovered from levels afterwards, as Fu et al.
///    2014; the parents are those of `min`. On the CPU `after` runs as `min` wherever the
///    bottom-up levels' input blocks are contiguous — a grid of one row or one column, and
///    every grid for a symmetric matrix or one stored by column — since `min` there reads
///    what `any` reads and sends each parent once, so recovering would only add a pass.
///    It recovers on the CPU for a matrix stored by row on a grid of several rows and
///    columns, where it measured slower than `min`, in time and bytes; and on cuda grids).
///  - On a grid whose exec_backend() is cuda (set before the solver is built) each rank's
///    local work runs on its GPU: top-down levels through vxm's device path, bottom-up
///    sub-steps through a device scan of the piece's in-edges; the exchanges stay on the
///    communication backend, staged through pinned host memory. Parent mode `any` then
///    gives the `min` tree (the device has kernels for the built-in semirings only).
///  - A matrix stored relabelled (BuildOptions::relabel) is searched in its stored ids and
///    the results come back in the caller's ids; `min` then picks the parent with the
///    smallest stored id (still deterministic for a given relabel seed, on every grid).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gridblas/comm/communicator.hpp"
#include "gridblas/core/distribution.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/dist_matrix.hpp"

namespace gridblas {

/// Which traversal directions BFS may use.
enum class BfsDirection { automatic, top_down, bottom_up };
/// How parents are chosen.
enum class ParentMode { min, any, after };
/// Which way the adjacency matrix holds the graph's edges.
enum class EdgeLayout {
    by_row,     ///< a stored A(u, v) is the edge u -> v: row u lists u's out-edges
    by_column,  ///< a stored A(u, v) is the edge v -> u: the matrix is the graph's transpose
};

std::string to_string(BfsDirection d);
std::string to_string(ParentMode p);
std::string to_string(EdgeLayout e);
/// Parse "auto|topdown|bottomup", "min|any|after" and "row|column"; InvalidValue otherwise.
BfsDirection parse_bfs_direction(const std::string& s);
ParentMode parse_parent_mode(const std::string& s);
EdgeLayout parse_edge_layout(const std::string& s);

/// The direction-optimising rule (Beamer et al., SC'12, with GapBS's hysteresis), shared by
/// the CPU and GPU searches: go bottom-up when the frontier's out-edges `mf` exceed the
/// unexplored edges / alpha; stay bottom-up while the frontier `nf` grows or is larger than
/// n / beta.
inline bool bfs_go_bottom_up(gindex_t mf, gindex_t unexplored, double alpha) {
    return double(mf) > double(unexplored) / alpha;
}
inline bool bfs_stay_bottom_up(gindex_t nf, gindex_t nf_prev, gindex_t n, double beta) {
    return nf >= nf_prev || double(nf) > double(n) / beta;
}

/// Options of bfs().
struct BfsOptions {
    BfsDirection direction = BfsDirection::automatic;
    ParentMode parents = ParentMode::min;
    /// Top-down -> bottom-up when frontier out-edges > unexplored edges / alpha (Beamer et al.
    /// SC'12 use 14; GapBS 15).
    double alpha = 15.0;
    /// Bottom-up -> top-down when the frontier has fewer than n / beta vertices and shrinks
    /// (Beamer 24; GapBS 18).
    double beta = 18.0;
    /// How the matrix holds the edges. For a directed graph searched on a grid of several rows
    /// and several columns, store it by column (GraphOptions::transpose): the levels then run
    /// as mxv over the grid's contiguous column blocks, and a bottom-up level reads exactly
    /// the entries one rank reads, where by row (the vxm's strided row blocks) it read 1.07
    /// to 1.16 times as many (directed Kronecker scale 20, 2 x 2 to 3 x 3). A matrix declared
    /// symmetric is the same either way. Fixed when the solver is built (set_options() throws
    /// InvalidValue for another layout); CPU grids only (a cuda grid throws NotSupported).
    EdgeLayout edges = EdgeLayout::by_row;
};

/// What one BFS level did (global figures, identical on every rank).
struct BfsLevelStats {
    int level = 0;                     ///< depth of the frontier expanded
    bool bottom_up = false;            ///< direction used
    gindex_t frontier = 0;             ///< vertices in the frontier expanded
    gindex_t discovered = 0;           ///< vertices found at this level
    std::uint64_t edges_examined = 0;  ///< adjacency entries read, all ranks
    /// The most entries one rank read at this level: against edges_examined / ranks it shows
    /// how evenly the level's reading was spread (in a `min` bottom-up level on a grid of
    /// several rows and columns, the rank holding each fold's lowest block reads the most).
    std::uint64_t edges_examined_max_rank = 0;
    std::uint64_t messages = 0;    ///< messages sent, all ranks
    std::uint64_t bytes_wire = 0;  ///< bytes sent as encoded, all ranks
    std::uint64_t bytes_raw = 0;   ///< bytes before compression, all ranks
    double seconds = 0.0;          ///< wall time of the level (max over ranks)
    double comm_seconds = 0.0;     ///< time inside communication (max over ranks)
};

/// The result of one search. `parent` and `level` hold this rank's piece of the vertex
/// distribution (vertex local_begin + k at index k); -1 marks an unreached vertex. The source
/// is its own parent at level 0.
struct BfsResult {
    Distribution dist;
    gindex_t local_begin = 0;
    std::vector<gindex_t> parent;
    std::vector<gindex_t> level;
    gindex_t source = 0;
    gindex_t reached = 0;  ///< vertices reached, all ranks
    /// The out-degrees of the reached vertices summed over all ranks (out-degree in the graph
    /// searched, as BfsSolver::local_degrees() gives it): the Graph500 TEPS count for a
    /// directed graph, twice it for an undirected one. Counted as the levels record their
    /// vertices, so no pass over the result is needed; -1 where a solver did not count it.
    gindex_t reached_degree_sum = -1;
    int depth = 0;         ///< number of levels expanded
    double seconds = 0.0;  ///< wall time of the search (max over ranks)
    std::vector<BfsLevelStats> levels;
};

/// A BFS engine bound to one graph: checks the graph and allocates every buffer once, so that
/// repeated searches (a Graph500 run) allocate nothing inside the level loop.
class BfsSolver {
public:
    /// `a` must be square. Collective. The matrix must outlive the solver.
    BfsSolver(const DistMatrix<Pattern>& a, const BfsOptions& options = {});
    ~BfsSolver();
    BfsSolver(const BfsSolver&) = delete;
    BfsSolver& operator=(const BfsSolver&) = delete;

    /// Runs one search from `source`. Collective; IndexOutOfBounds on every rank when the
    /// source is not a vertex.
    BfsResult run(gindex_t source);
    /// Runs into an existing result (reusing its arrays).
    void run(gindex_t source, BfsResult& result);

    const BfsOptions& options() const;
    void set_options(const BfsOptions& options);
    /// Out-degree of each vertex of this rank's piece.
    const std::vector<gindex_t>& local_degrees() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// One-shot convenience: BfsSolver(a, options).run(source).
BfsResult bfs(const DistMatrix<Pattern>& a, gindex_t source, const BfsOptions& options = {});

/// Outcome of validate_bfs(): counts of violations of each rule, over all ranks.
struct BfsValidation {
    std::uint64_t bad_root = 0;           ///< source not its own parent at level 0
    std::uint64_t bad_level = 0;          ///< level(v) != level(parent(v)) + 1 (also cycles)
    std::uint64_t parent_not_edge = 0;    ///< (parent(v), v) is not an edge of the graph
    std::uint64_t missed_vertex = 0;      ///< an edge from a reached to an unreached vertex
    std::uint64_t edge_spans_levels = 0;  ///< an edge between levels more than one apart
    std::uint64_t inconsistent = 0;       ///< parent set without level or the reverse
    bool ok() const {
        return bad_root + bad_level + parent_not_edge + missed_vertex + edge_spans_levels +
                   inconsistent ==
               0;
    }
    /// A one-line summary naming the rules broken.
    std::string summary() const;
};

/// Checks a BFS result against the graph with the Graph500 rules (tree from the source, each
/// tree edge a graph edge, levels differing by one along tree edges, every edge spanning at
/// most one level, every vertex reachable from the source reached). For a directed graph the
/// rules use edges in their direction (u -> v may go down any number of levels, never skip
/// one going forward); `edges` says which way the matrix holds them (BfsOptions::edges).
/// Collective.
BfsValidation validate_bfs(const DistMatrix<Pattern>& a, const BfsResult& result,
                           EdgeLayout edges = EdgeLayout::by_row);

}  // namespace gridblas
