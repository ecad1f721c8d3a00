#pragma once
/// @file graph_builders.hpp
/// @brief Distributed matrices from generators and files: each rank generates its own slice
/// of a Kronecker or uniform graph, or rank 0 streams a Matrix Market file in bounded chunks
/// to the owners of the entries. Graph preparation for BFS (symmetrise, drop self-loops,
/// combine duplicates) is an option of each builder.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gridblas/core/collective_check.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/matrix/generators.hpp"
#include "gridblas/matrix/matrix_market.hpp"

namespace gridblas {

/// Preparation of an edge set into a graph matrix.
struct GraphOptions {
    /// Add v -> u for every u -> v (an undirected graph); the matrix is then declared
    /// symmetric (BuildOptions::symmetric).
    bool symmetrize = true;
    bool drop_self_loops = true;  ///< remove u -> u
    /// Store each edge u -> v as A(v, u): the graph's transpose, whose column u lists u's
    /// out-edges (for BfsOptions::edges = EdgeLayout::by_column). No effect with symmetrize.
    bool transpose = false;
    LocalFormat format = LocalFormat::dcsc;
    bool relabel = false;  ///< store under a random vertex relabelling (BuildOptions)
    std::uint64_t relabel_seed = 1;
    /// The BuildOptions these options imply (duplicates are always combined).
    BuildOptions build() const {
        BuildOptions b{DuplicatePolicy::combine, format};
        b.symmetric = symmetrize;
        b.relabel = relabel;
        b.relabel_seed = relabel_seed;
        return b;
    }
};

namespace detail {

/// Applies GraphOptions to edge arrays in place (pattern values).
inline void prepare_edges(std::vector<gindex_t>& src, std::vector<gindex_t>& dst,
                          const GraphOptions& g) {
    if (g.drop_self_loops) {
        std::size_t w = 0;
        for (std::size_t k = 0; k < src.size(); ++k) {
            if (src[k] != dst[k]) {
                src[w] = src[k];
                dst[w] = dst[k];
                ++w;
            }
        }
        src.resize(w);
        dst.resize(w);
    }
    if (g.symmetrize) {
        const std::size_t m = src.size();
        src.reserve(2 * m);
        dst.reserve(2 * m);
        for (std::size_t k = 0; k < m; ++k) {
            src.push_back(dst[k]);
            dst.push_back(src[k]);
        }
    } else if (g.transpose) {
        src.swap(dst);
    }
}

/// The edges of a symmetric graph built on one rank, each kept once as (larger id, smaller id):
/// the block's assembly adds the other direction (LocalTuples::mirror), so half the tuples are
/// held. `mirrored`: the input already has both directions of every edge (a symmetric file's
/// reader gives each entry twice), and the copy above the diagonal is dropped instead.
inline void fold_edges(std::vector<gindex_t>& src, std::vector<gindex_t>& dst, bool mirrored,
                       bool drop_self_loops) {
    std::size_t w = 0;
    for (std::size_t k = 0; k < src.size(); ++k) {
        gindex_t r = src[k], c = dst[k];
        if (r == c && drop_self_loops) continue;
        if (r < c) {
            if (mirrored) continue;
            std::swap(r, c);
        }
        src[w] = r;
        dst[w] = c;
        ++w;
    }
    src.resize(w);
    dst.resize(w);
}

/// Builds a pattern graph from per-rank edge slices produced by `gen(first, count, s, d)`.
template <class Gen>
DistMatrix<Pattern> graph_from_slices(std::shared_ptr<ProcessGrid> grid, gindex_t n,
                                      std::uint64_t total, const GraphOptions& g, Gen&& gen) {
    auto m = DistMatrix<Pattern>::shell(grid, n, n, g.build());
    typename DistMatrix<Pattern>::LocalTuples acc;
    // On one rank the whole matrix is one square block: keep each edge once and let the
    // block's assembly add the reverse direction (half the tuples held).
    GraphOptions prepare = g;
    if (g.symmetrize && grid->size() == 1) {
        prepare.symmetrize = false;
        acc.mirror = true;
    }
    // Generate and route in bounded batches so the peak memory stays near the final size.
    const auto [first, count] = slice_range(total, grid->rank(), grid->size());
    const std::uint64_t batch = std::uint64_t(1) << 20;
    const std::uint64_t max_count = grid->world().allreduce(count, comm::ReduceOp::max, "graph");
    std::vector<gindex_t> src, dst;
    for (std::uint64_t done = 0; done < max_count; done += batch) {
        src.clear();
        dst.clear();
        if (done < count) gen(first + done, std::min(batch, count - done), src, dst);
        prepare_edges(src, dst, prepare);
        m.route_append(src, dst, ValueArray<Pattern>(src.size()), acc);
    }
    m.assemble(std::move(acc), g.build());
    return m;
}

}  // namespace detail

/// The Graph500 Kronecker graph of `p` as a distributed pattern matrix; rank r generates
/// edges slice_range(num_edges, r, p). Identical for every grid shape and rank count.
/// Collective.
inline DistMatrix<Pattern> kronecker_graph(std::shared_ptr<ProcessGrid> grid,
                                           const KroneckerParams& p, const GraphOptions& g = {}) {
    validate(p);
    return detail::graph_from_slices(std::move(grid), num_vertices(p), num_edges(p), g,
                                     [&](std::uint64_t first, std::uint64_t count, auto& s,
                                         auto& d) { kronecker_edges(p, first, count, s, d); });
}

/// A uniform random graph as a distributed pattern matrix. Collective.
inline DistMatrix<Pattern> uniform_graph(std::shared_ptr<ProcessGrid> grid, const UniformParams& p,
                                         const GraphOptions& g = {}) {
    validate(p);
    return detail::graph_from_slices(std::move(grid), p.num_vertices, p.num_edges, g,
                                     [&](std::uint64_t first, std::uint64_t count, auto& s,
                                         auto& d) { uniform_edges(p, first, count, s, d); });
}

/// A pattern graph from edges that each rank holds (any subset; duplicates are combined),
/// prepared by GraphOptions. Throws IndexOutOfBounds on every rank for an endpoint outside
/// [0, n). Collective.
inline DistMatrix<Pattern> graph_from_edges(std::shared_ptr<ProcessGrid> grid, gindex_t n,
                                            std::vector<gindex_t> src, std::vector<gindex_t> dst,
                                            const GraphOptions& g = {}) {
    detail::prepare_edges(src, dst, g);
    return DistMatrix<Pattern>::from_tuples(std::move(grid), n, n, src, dst,
                                            ValueArray<Pattern>(src.size()), g.build());
}

/// Options of read_matrix_market_dist().
struct DistReadOptions {
    DuplicatePolicy duplicates = DuplicatePolicy::reject;
    LocalFormat format = LocalFormat::dcsc;
    std::size_t chunk_entries = std::size_t(1) << 20;  ///< entries rank 0 holds at a time
    int root = 0;                                      ///< the rank that reads the file
};

namespace detail {

/// Entries rank 0 reads per round when it loads a graph file: up to 2^19 tuples once mirrored
/// (8 MB of 64-bit ids, and the routing buffers after them), small next to the blocks being
/// built, so that the load's peak is the assembly's; each further round costs one exchange.
inline constexpr std::size_t kGraphFileChunk = std::size_t(1) << 18;

/// The streaming loader behind read_matrix_market_dist() and read_graph_matrix_market():
/// rank `root` opens the file and reads it in chunks of `chunk_entries` entries; each chunk
/// is passed to `prepare(rows, cols, vals)` (which may rewrite the tuples) and routed to the
/// owners; `build` gives the shell's relabelling and the blocks' format and duplicate policy.
/// With `mirror` (one rank, square) each prepared off-diagonal tuple also stands for its
/// transpose. Errors in the file, and `square` files that are not, throw on every rank.
/// Collective.
template <class T, class Prepare, class Combine>
DistMatrix<T> stream_matrix_market(std::shared_ptr<ProcessGrid> grid, const std::string& path,
                                   std::size_t chunk_entries, int root_rank, bool square,
                                   const BuildOptions& build, Prepare prepare, Combine combine,
                                   bool mirror = false) {
    comm::Communicator& world = grid->world();
    const bool root = world.rank() == root_rank;
    std::unique_ptr<MatrixMarketReader> reader;
    gindex_t dims[2] = {0, 0};
    run_collectively(world, [&] {
        if (chunk_entries == 0) throw InvalidValue("Matrix Market loader: chunk_entries is 0");
        if (root_rank < 0 || root_rank >= world.size()) {
            throw IndexOutOfBounds("Matrix Market loader: root rank " + std::to_string(root_rank) +
                                   " of " + std::to_string(world.size()));
        }
        if (!root) return;
        reader = std::make_unique<MatrixMarketReader>(path);
        dims[0] = reader->header().nrows;
        dims[1] = reader->header().ncols;
        if (square && dims[0] != dims[1]) {
            throw DimensionMismatch(path + ": a graph needs a square matrix, this one is " +
                                    std::to_string(dims[0]) + " x " + std::to_string(dims[1]));
        }
    });
    world.broadcast(std::span<gindex_t>(dims, 2), root_rank, "read-matrix-market");
    DistMatrix<T> m;
    run_collectively(world, [&] { m = DistMatrix<T>::shell(grid, dims[0], dims[1], build); });
    typename DistMatrix<T>::LocalTuples acc;
    acc.mirror = mirror;
    CooMatrix<T, gindex_t> chunk;
    int more = 1;
    while (more) {
        chunk.clear();
        run_collectively(world, [&] {
            if (root) more = reader->read_chunk<T>(chunk_entries, chunk) ? 1 : 0;
        });
        world.broadcast(std::span<int>(&more, 1), root_rank, "read-matrix-market");
        prepare(chunk.rows, chunk.cols, chunk.vals);
        m.route_append(chunk.rows, chunk.cols, chunk.vals, acc);
    }
    reader.reset();
    chunk = CooMatrix<T, gindex_t>();
    m.assemble(std::move(acc), build, combine);
    return m;
}

}  // namespace detail

/// Reads a Matrix Market file into a distributed matrix: rank `root` streams it in chunks of
/// `chunk_entries` entries and sends each chunk's tuples to their owners, so no rank ever
/// holds the file's text or more than one chunk of tuples besides its own block. Errors in
/// the file are thrown on every rank. Collective.
template <class T, class Combine = KeepLast>
DistMatrix<T> read_matrix_market_dist(std::shared_ptr<ProcessGrid> grid, const std::string& path,
                                      const DistReadOptions& o = {}, Combine combine = {}) {
    return detail::stream_matrix_market<T>(
        std::move(grid), path, o.chunk_entries, o.root, false, BuildOptions{o.duplicates, o.format},
        [](auto&, auto&, auto&) {}, combine);
}

/// A BFS graph from a Matrix Market file: pattern only, prepared by GraphOptions (duplicates
/// are combined). GraphOptions::symmetrize applies whatever the file declares; to follow the
/// file's own declaration (`general`: directed, `symmetric` / `skew-symmetric`: undirected),
/// read its header first with read_matrix_market_header(). Collective.
DistMatrix<Pattern> read_graph_matrix_market(std::shared_ptr<ProcessGrid> grid,
                                             const std::string& path, const GraphOptions& g = {});

/// The header of a Matrix Market file, parsed on rank `root` and returned on every rank (for
/// example to ask whether the file declares a symmetric matrix before reading it as a graph).
/// An unreadable file or a bad header throws the reader's exception on every rank.
/// Collective over the grid's world communicator.
MatrixMarketHeader read_matrix_market_header(ProcessGrid& grid, const std::string& path,
                                             int root = 0);

}  // namespace gridblas
