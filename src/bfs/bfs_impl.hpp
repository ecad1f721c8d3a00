#pragma once
// Private state of BfsSolver, shared by the files of src/bfs.

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "gridblas/algorithms/bfs.hpp"
#include "gridblas/ops/spmv.hpp"
#include "gridblas/vector/dist_vector.hpp"

namespace gridblas {

namespace detail {
/// Sends per-vertex arrays (a, b; b may be empty) from one labelling to the other: the entry
/// of vertex v goes to the owner of its mapped id, and `a` is mapped too when it holds vertex
/// ids (a parent) and is >= 0. Collective over the world communicator.
void remap_vertex_arrays(ProcessGrid& grid, const Distribution& dist, gindex_t begin,
                         const std::vector<gindex_t>& a, const std::vector<gindex_t>& b,
                         bool a_is_vertex, const VertexRelabel& rl, bool to_internal,
                         std::vector<gindex_t>& a_out, std::vector<gindex_t>& b_out);

/// Buffers of parent mode "after" (parents_after.cpp), kept between searches.
struct AfterBuffers {
    /// Levels + 1 (0: unreached) of this rank's piece and of the block of in-neighbours (by
    /// row: its row block); of its piece and the block of vertices wanting parents (by row:
    /// its column block) the same, but 0 also where the search already set the parent.
    std::vector<std::uint8_t> mine, inner, mine_open, outer;
    std::vector<int> counts;
    /// Candidate parent (inner index) of each stored outer index of the in-edge block, or ~0.
    std::vector<lindex_t> cand;
    /// One bit per outer index of the block: this rank has a candidate; the same of every
    /// rank of the fold (by row: the grid column), rank after rank.
    std::vector<std::uint64_t> has, has_all;
    std::vector<lindex_t> own;         ///< this rank's candidates for its own piece
    std::vector<lindex_t> send, recv;  ///< candidates for other pieces, ascending outer index
    std::vector<int> send_counts, recv_counts;
    std::vector<std::size_t> next;  ///< read position in recv of each sender
};
}  // namespace detail

struct BfsSolver::Impl {
    const DistMatrix<Pattern>& a;
    BfsOptions opt;
    ProcessGrid& grid;
    Distribution dist;             ///< vertex distribution (rows and columns alike: A is square)
    gindex_t begin = 0;            ///< first vertex of this rank's piece
    lindex_t local_n = 0;          ///< vertices in this rank's piece
    std::vector<gindex_t> degree;  ///< out-degree of each vertex of the piece (stored ids)
    std::vector<gindex_t> caller_degree;  ///< the same in the caller's ids (relabelled graphs)
    gindex_t total_edges = 0;             ///< stored entries of A
    /// The orientation of the level products: vxm, next = frontierᵀ A (the frontier along A's
    /// rows), or mxv, next = A frontier, for a matrix holding the graph by column
    /// (BfsOptions::edges) and for a matrix declared symmetric (the same product either way,
    /// see symmetric_pattern()) on a grid of several rows and the CPU backend. Either folds
    /// along one grid dimension; the mxv fold's input blocks are contiguous column blocks,
    /// so its ascending bottom-up schedule reads exactly the entries one rank reads, where
    /// the vxm fold's strided row blocks read more (1.12 times on a 3 x 2 grid, 1.18 on
    /// 3 x 3: spmv_rotate.hpp). A grid of one row keeps vxm, whose fold is then one rank.
    bool input_is_rows = true;

    // Search state: each level is next⟨¬visited, structural, replace⟩ = frontierᵀ ⊕.⊗ A.
    DistVector<Pattern> visited;   ///< bitmap over the piece
    DistVector<Pattern> frontier;  ///< the vertices found at the previous level
    DistVector<gindex_t> next;     ///< the vertices found at this level, valued with parents
    SpmvWorkspace<Pattern, gindex_t, Pattern> ws;  ///< both directions, on the CPU backend
    /// On the cuda backend the device's push has kernels for the built-in semirings only, so
    /// top-down levels run select2nd_min over a frontier valued with its own ids.
    DistVector<gindex_t> frontier_ids;
    SpmvWorkspace<gindex_t, gindex_t, Pattern> ws_ids;

    /// Levels and parents as the levels record them: 8 bytes a vertex in one array, where
    /// the result keeps two arrays of 8 bytes, so a vertex found costs one cache line instead
    /// of two (on a road network or mesh each vertex of a level lies on its own lines). While
    /// a vertex is unreached its entry holds its out-degree, which the level that finds it
    /// adds to its degree sum (the next frontier's edge count, and the result's
    /// reached_degree_sum) as it records the vertex: the line it writes anyway, not a line of
    /// the degree array besides. They are written out to the result in one
    /// sequential pass when the search is over. Used when every vertex id fits in 32 bits
    /// (`compact`; a degree then fits too); otherwise the levels write the result directly.
    struct Reached {
        std::uint32_t level_plus1;  ///< 0: not reached
        /// Reached: the parent (kNoParent: not set); unreached: the vertex's out-degree.
        std::uint32_t parent_or_degree;
    };
    static constexpr std::uint32_t kNoParent = ~std::uint32_t(0);
    bool compact = false;
    std::vector<Reached> reached;
    bool reached_clean = false;  ///< every entry of `reached` is {0, out-degree}

    /// Buffers of parent mode "after", kept between searches.
    detail::AfterBuffers after;
    /// The search's and each level's times, reduced over the ranks at the end of a search.
    std::vector<double> level_times;

    Impl(const DistMatrix<Pattern>& m, const BfsOptions& o);
    ~Impl();

    /// A top-down level's finds recorded by the level's own kernel (the workspace's result
    /// epilogue, set up by the constructor): where the push writes its result on several
    /// threads, each thread records the vertices it wrote right there, in the kernel's
    /// parallel region, instead of record_level() opening one more region for them. On a
    /// 1024 x 1024 mesh on two threads (levels of a few hundred vertices, 15-17 us each)
    /// that region cost about 0.7 us a level by itself. The level and result are the
    /// step's; the out-degrees of the vertices recorded add up in `degree_sum`.
    struct KernelRecord {
        gindex_t depth = 0;
        BfsResult* result = nullptr;
        std::atomic<gindex_t> degree_sum{0};
    };
    KernelRecord kernel_record;

    /// One level in the given direction, the `depth + 1`-th, of the search writing to `r`:
    /// fills `next` and returns the adjacency entries examined on this rank. A top-down level
    /// may record its finds as it goes (KernelRecord; `ws.result_epilogue_ran` then says so).
    std::uint64_t step(bool bottom_up, gindex_t depth, BfsResult& r);
    /// Records found vertices ids[lo, hi) (ascending local ids; their parents in parent_of
    /// when `keep_parent`) at level depth + 1 and sets their visited bits (with
    /// `shared_edges`, atomically in the first and last words, which other threads recording
    /// the neighbouring ranges may share). Returns the sum of their out-degrees.
    gindex_t record_found(const lindex_t* ids, const gindex_t* parent_of, std::size_t lo,
                          std::size_t hi, gindex_t depth, BfsResult& r, bool keep_parent,
                          bool shared_edges);
    /// Readies the per-vertex state of a search: `reached` (compact) or the result's arrays.
    void start_search(BfsResult& r);
    /// Compact searches: writes `reached` out to the result's level and parent arrays and
    /// clears it for the next search.
    void write_out_reached(BfsResult& r);
    /// Records the vertices of `next` (level depth + 1; unless the level's kernel has
    /// recorded them already), makes them the frontier, and returns the sum of their
    /// out-degrees after a top-down level (0 after a bottom-up one).
    gindex_t record_level(gindex_t depth, BfsResult& r, bool top_down);
    /// Parent mode "after": the parents the search left unset (those of the vertices found by
    /// bottom-up levels) from levels, once the search is over.
    void parents_from_levels(BfsResult& r);
    /// Whether parents of bottom-up levels are recovered after the search. Top-down levels
    /// keep computing min parents: the push finds them at no extra cost, while recovering
    /// them afterwards would scan long in-edge lists for the few vertices one level up. Where
    /// the levels' fold has one rank (a grid of one row, one rank included; with the mxv
    /// orientation a grid of one column) "after" searches as "min" throughout: the parents
    /// it would recover are by definition the ones min computes (the smallest-id neighbour
    /// one level up), and no parent crosses the wire there, so recovering them would only
    /// add a pass.
    /// On the CPU the same holds wherever the fold's input blocks are contiguous (the mxv;
    /// the vxm on a grid of one column): the bottom-up levels' ascending schedule then finds
    /// min parents reading what "any" reads and sends each once, so a recovery pass would
    /// add its scan and exchanges to the same search (scale 20 on 2 x 2: 43 ms against 19).
    bool recovers_parents_after() const {
        if (opt.parents != ParentMode::after || (input_is_rows ? grid.pr() : grid.pc()) == 1) {
            return false;
        }
        const bool contiguous_fold = !input_is_rows || grid.pc() == 1;
        return grid.exec_backend() == ExecBackend::cuda || !contiguous_fold;
    }
};

}  // namespace gridblas
