#pragma once
// Private state of BfsSolver, shared by the files of src/bfs.

#include <cstdint>
#include <memory>
#include <vector>

#include "gridblas/algorithms/bfs.hpp"
#include "gridblas/ops/spmv.hpp"
#include "gridblas/vector/dist_vector.hpp"

namespace gridblas {

/// A vertex found by the bottom-up step: its index in the piece and its parent's global id.
struct BfsFound {
    lindex_t v;
    gindex_t parent;
};

namespace detail {
/// Sends per-vertex arrays (a, b; b may be empty) from one labelling to the other: the entry
/// of vertex v goes to the owner of its mapped id, and `a` is mapped too when it holds vertex
/// ids (a parent) and is >= 0. Collective over the world communicator.
void remap_vertex_arrays(ProcessGrid& grid, const Distribution& dist, gindex_t begin,
                         const std::vector<gindex_t>& a, const std::vector<gindex_t>& b,
                         bool a_is_vertex, const VertexRelabel& rl, bool to_internal,
                         std::vector<gindex_t>& a_out, std::vector<gindex_t>& b_out);
}  // namespace detail

class BfsDeviceBottomUp;

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

    // Search state.
    DistVector<Pattern> visited;          ///< bitmap over the piece
    DistVector<gindex_t> frontier;        ///< top-down input: entries carry their own global id
    DistVector<gindex_t> next;            ///< top-down output
    std::vector<lindex_t> frontier_list;  ///< the frontier as sorted piece indices
    SpmvWorkspace<gindex_t, gindex_t, Pattern> td_ws;

    // Bottom-up buffers (sized once).
    std::vector<lindex_t> bu_ids;
    std::vector<lindex_t> bu_all;
    std::vector<std::uint64_t> front_bits;  ///< frontier over the row block
    std::vector<std::uint64_t> completed;   ///< "done" bits of the piece being processed
    std::vector<std::uint64_t> completed_in;
    std::vector<BfsFound> found;
    std::vector<BfsFound> found_in;
    std::vector<char> rot_send;  ///< rotation message (compressed wire formats)
    std::vector<char> rot_recv;
    std::vector<lindex_t> rot_ids;
    std::vector<std::uint64_t> rot_vals;
    std::vector<gindex_t> best;        ///< candidate parent per piece index (-1: none)
    std::vector<std::uint64_t> newly;  ///< piece indices with a candidate

    /// The bottom-up step's device state when the grid runs on the cuda backend (top-down
    /// levels reach the GPU through vxm's device path).
    std::unique_ptr<BfsDeviceBottomUp> device;
    /// True when this search runs on the GPU: the grid is on the cuda backend (read at
    /// every search, so a backend set after the solver was built is honoured).
    bool on_device() const { return device != nullptr && grid.exec_backend() == ExecBackend::cuda; }
    /// Creates `device` when the grid is on the cuda backend and it does not exist yet
    /// (collective: a failure on one rank throws on all).
    void prepare_device();

    Impl(const DistMatrix<Pattern>& m, const BfsOptions& o);
    ~Impl();

    /// One top-down level: returns the adjacency entries examined on this rank.
    std::uint64_t top_down_step(gindex_t depth, BfsResult& r);
    /// One bottom-up level: returns the adjacency entries examined on this rank.
    std::uint64_t bottom_up_step(gindex_t depth, BfsResult& r);
    /// The bottom-up hand-over of the piece's completed bits and found list to the previous
    /// rank of the grid column (and the next one's in return); compressed unless the
    /// column's wire format is raw.
    void rotate_piece(std::size_t piece_words);
    /// Parent mode "after": parents from levels, once the search is over.
    void parents_from_levels(BfsResult& r);
};

}  // namespace gridblas
