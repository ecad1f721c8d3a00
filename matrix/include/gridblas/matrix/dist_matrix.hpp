#pragma once
/// @file dist_matrix.hpp
/// @brief A sparse matrix distributed in 2D blocks over a pr x pc process grid.
///
/// Block (i, j) — the rows of row block i and the columns of column block j (see
/// distribution.hpp) — lives on grid position P(i, j). Global ids are 64-bit, local ids inside
/// a block 32-bit. Each block is stored compressed by row and compressed by column
/// (compressed_block.hpp), so that both push (SpMSpV) and pull (masked SpMV) kernels can run
/// in either direction (vxm and mxv); a block equal to its transpose is stored once. Every member
/// that communicates is collective over the grid and says so.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gridblas/core/collective_check.hpp"
#include "gridblas/core/distribution.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/core/process_grid.hpp"
#include "gridblas/core/relabel.hpp"
#include "gridblas/core/route.hpp"
#include "gridblas/matrix/compressed_block.hpp"
#include "gridblas/matrix/coo.hpp"
#include "gridblas/matrix/detail/heap.hpp"

namespace gridblas {

/// How a distributed matrix is built.
struct BuildOptions {
    DuplicatePolicy duplicates = DuplicatePolicy::reject;  ///< tuples naming the same entry
    LocalFormat format = LocalFormat::dcsc;                ///< storage of the local blocks
    /// Square matrices only: store the matrix under a random relabelling of its vertices
    /// (VertexRelabel keyed by relabel_seed) so that heavy rows and columns spread evenly
    /// over the grid. Every accessor still speaks the caller's ids; BFS gives its results
    /// back in the caller's ids; vxm/mxv refuse a relabelled matrix (NotSupported).
    bool relabel = false;
    std::uint64_t relabel_seed = 1;
    /// The entries form a symmetric pattern: (j, i) is an entry wherever (i, j) is (an
    /// undirected graph; the graph builders set it when they symmetrise). Square matrices
    /// only. The build checks it: every rank sums a hash of each of its entries (i, j) and
    /// of its transpose (j, i), two independent 64-bit hashes each, and a pattern whose
    /// sums differ throws InvalidValue on every rank (one pass over the entries and one
    /// allreduce; a non-symmetric pattern passes only if both 64-bit sums collide).
    /// Operations may then read the matrix in either orientation (symmetric_pattern()).
    bool symmetric = false;
};

namespace detail {
/// A 64-bit mixer (the finaliser of splitmix64), for fingerprints.
inline std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// One tuple in flight to its owner, in the owner's local numbering.
template <class T>
struct RoutedTuple {
    lindex_t row;
    lindex_t col;
    [[no_unique_address]] T val;  ///< no bytes for Pattern: a graph's tuple is 8 bytes
};
}  // namespace detail

/// A distributed sparse matrix with values of type T (Pattern for a graph without values).
template <class T>
class DistMatrix {
public:
    using value_type = T;

    DistMatrix() = default;

    /// Builds an nrows x ncols matrix from tuples that each rank holds (any subset, any
    /// order; they are sent to their owners). Collective. Throws the same exception on every
    /// rank, with nothing built, when a tuple is out of range (IndexOutOfBounds), when a
    /// duplicate is found under DuplicatePolicy::reject (InvalidValue), or when a block would
    /// not fit 32-bit local indices (InvalidValue).
    template <class Combine = KeepLast>
    static DistMatrix from_tuples(std::shared_ptr<ProcessGrid> grid, gindex_t nrows, gindex_t ncols,
                                  std::span<const gindex_t> rows, std::span<const gindex_t> cols,
                                  const ValueArray<T>& vals, const BuildOptions& opts = {},
                                  Combine combine = {});

    /// Same, from a CooMatrix holding this rank's tuples.
    template <class Combine = KeepLast>
    static DistMatrix from_coo(std::shared_ptr<ProcessGrid> grid, const CooMatrix<T, gindex_t>& coo,
                               const BuildOptions& opts = {}, Combine combine = {}) {
        return from_tuples(std::move(grid), coo.nrows, coo.ncols, coo.rows, coo.cols, coo.vals,
                           opts, combine);
    }

    gindex_t nrows() const { return rows_.length; }
    gindex_t ncols() const { return cols_.length; }
    const std::shared_ptr<ProcessGrid>& grid() const { return grid_; }
    /// Distribution of the rows (row blocks) and of the columns (column blocks).
    const Distribution& row_dist() const { return rows_; }
    const Distribution& col_dist() const { return cols_; }
    LocalFormat local_format() const { return by_row_.format(); }
    /// The relabelling the matrix is stored under, or nullptr.
    const VertexRelabel* relabel() const { return relabel_.get(); }
    /// Caller's id of a stored (internal) row / column id, and the reverse.
    gindex_t external_id(gindex_t internal) const {
        return relabel_ ? relabel_->inverse(internal) : internal;
    }
    gindex_t internal_id(gindex_t external) const {
        return relabel_ ? relabel_->forward(external) : external;
    }

    /// Whether the build declared the pattern symmetric (BuildOptions::symmetric, checked
    /// there): the matrix equals its transpose in pattern, so an operation may read it in
    /// either orientation. False means "not declared", not "not symmetric".
    /// assemble_rows() clears it.
    bool symmetric_pattern() const { return symmetric_; }

    /// This rank's block compressed by local row (outer = row) / by local column.
    const CompressedBlock<T>& by_row() const { return by_row_; }
    /// When the block equals its transpose (in practice a symmetric matrix on one rank: the
    /// grid's row blocks are strided and its column blocks contiguous, so on more ranks no
    /// block of a symmetric matrix is its own transpose in general) this is by_row() itself
    /// and one copy is kept. Otherwise it is a counting-sort transpose of the by-row block,
    /// built with the block or, after assemble_rows(), on first use (so that a product
    /// consumed by rows never pays for it).
    /// That first call is not thread-safe: take the reference outside parallel regions.
    const CompressedBlock<T>& by_col() const {
        if (!by_col_ready_) derive_by_col();
        return col_is_row_ ? by_row_ : by_col_;
    }
    /// Whether by_col() and by_row() are one stored block (see by_col()).
    bool shares_orientations() const {
        by_col();
        return col_is_row_;
    }

    /// Entries stored on this rank.
    std::size_t local_nvals() const { return by_row_.nnz(); }
    /// Entries stored on all ranks. Collective.
    gindex_t nvals() const {
        return grid_->world().allreduce(gindex_t(local_nvals()), comm::ReduceOp::sum, "nvals");
    }
    /// Bytes of this rank's blocks (both compressions, or the one they share).
    std::size_t memory_bytes() const {
        return by_row_.memory_bytes() +
               (by_col_ready_ && !col_is_row_ ? by_col_.memory_bytes() : 0);
    }

    /// Calls f(global_row, global_col, value) for every entry stored on this rank (caller's
    /// ids).
    template <class F>
    void for_each_local(F&& f) const {
        const int i = grid_->my_row();
        const int j = grid_->my_col();
        by_row_.for_each([&](lindex_t r, lindex_t c, const auto& v) {
            f(external_id(rows_.global_row(i, r)), external_id(cols_.global_col(j, c)), v);
        });
    }

    /// The transpose, distributed over the same grid. Collective.
    DistMatrix transpose() const {
        std::vector<gindex_t> r, c;
        ValueArray<T> v;
        local_tuples(r, c, v);
        BuildOptions o{DuplicatePolicy::reject, local_format()};
        o.symmetric = symmetric_;
        if (relabel_) {
            o.relabel = true;
            o.relabel_seed = relabel_->seed();
        }
        return from_tuples(grid_, ncols(), nrows(), c, r, v, o);
    }

    /// Every entry, gathered on rank `root` (others get an empty CooMatrix with the right
    /// dimensions). Collective; for tests and small outputs.
    CooMatrix<T, gindex_t> gather(int root = 0) const;

    /// This rank's entries as global tuples (appended).
    void local_tuples(std::vector<gindex_t>& r, std::vector<gindex_t>& c, ValueArray<T>& v) const {
        r.reserve(r.size() + local_nvals());
        c.reserve(c.size() + local_nvals());
        for_each_local([&](gindex_t gr, gindex_t gc, const auto& val) {
            r.push_back(gr);
            c.push_back(gc);
            v.push_back(val);
        });
    }

    /// Tuples routed to this rank, in its block's local numbering, in chunks that are filled
    /// and never moved, so that collecting them never copies (assemble() frees each chunk as
    /// it uses it; route_append() says how they grow).
    struct LocalTuples {
        std::vector<detail::TupleChunk<T>> chunks;
        /// Each off-diagonal tuple also stands for its transpose (a symmetric graph built on
        /// one rank from half its tuples; the block must be square).
        bool mirror = false;
        /// Buffers of route_append(), kept from one call to the next so that a streamed build
        /// does not allocate and free a round's worth of tuples every round (freed memory
        /// that malloc keeps would stay resident through the assembly); assemble() frees them.
        struct Scratch {
            std::vector<int> dest, counts, recv_counts;
            std::vector<detail::RoutedTuple<T>> send, recv;
        } scratch;
    };

    /// An empty matrix shell on `grid` (no blocks built yet); used by builders that stream
    /// tuples in with route_append() and finish with assemble().
    static DistMatrix shell(std::shared_ptr<ProcessGrid> grid, gindex_t nrows, gindex_t ncols,
                            const BuildOptions& opts = {}) {
        if (!grid) throw InvalidValue("DistMatrix: null process grid");
        if (nrows < 0 || ncols < 0) {
            throw InvalidValue("DistMatrix: negative dimensions " + std::to_string(nrows) + " x " +
                               std::to_string(ncols));
        }
        DistMatrix m;
        m.grid_ = std::move(grid);
        m.rows_ = Distribution(nrows, m.grid_->pr(), m.grid_->pc());
        m.cols_ = Distribution(ncols, m.grid_->pr(), m.grid_->pc());
        if (gindex_t(m.grid_->pc()) * m.rows_.nb > gindex_t(max_lindex) ||
            gindex_t(m.grid_->pr()) * m.cols_.nb > gindex_t(max_lindex)) {
            throw InvalidValue("DistMatrix: a " + std::to_string(nrows) + " x " +
                               std::to_string(ncols) + " matrix on a " +
                               std::to_string(m.grid_->pr()) + " x " +
                               std::to_string(m.grid_->pc()) +
                               " grid has blocks too large for 32-bit local indices");
        }
        if (opts.relabel) {
            if (nrows != ncols) {
                throw InvalidValue("DistMatrix: relabelling needs a square matrix, not " +
                                   std::to_string(nrows) + " x " + std::to_string(ncols));
            }
            m.relabel_ = std::make_shared<const VertexRelabel>(nrows, opts.relabel_seed);
        }
        if (opts.symmetric && nrows != ncols) {
            throw InvalidValue("DistMatrix: BuildOptions::symmetric needs a square matrix, not " +
                               std::to_string(nrows) + " x " + std::to_string(ncols));
        }
        // Empty blocks in the requested format (local_format() reports it).
        m.by_row_ = CompressedBlock<T>::from_outer_arrays(
            opts.format, m.rows_.block_rows(), m.cols_.block_cols(),
            std::vector<offset_t>(std::size_t(m.rows_.block_rows()) + 1, 0), {}, {});
        m.by_col_ready_ = false;
        return m;
    }
    /// Sends global tuples in the caller's ids (already checked to be in range) to their
    /// owners and appends the ones this rank receives to `acc`. Collective.
    void route_append(std::span<const gindex_t> rows, std::span<const gindex_t> cols,
                      const ValueArray<T>& vals, LocalTuples& acc) const;
    /// Builds this rank's blocks from its routed tuples. Collective (errors agree).
    template <class Combine = KeepLast>
    void assemble(LocalTuples&& acc, const BuildOptions& opts, Combine combine = {});

    /// Replaces this rank's blocks by the entries given as CSR arrays over the block's local
    /// rows (block_rows() + 1 offsets; ascending, distinct local columns in each row), for
    /// operations that produce their result row by row. Taken over; not collective. The
    /// by-column copy follows on first use of by_col().
    void assemble_rows(std::vector<offset_t> ptr, std::vector<lindex_t> cols, ValueArray<T> vals) {
        const LocalFormat fmt = local_format();
        by_row_ =
            CompressedBlock<T>::from_outer_arrays(fmt, rows_.block_rows(), cols_.block_cols(),
                                                  std::move(ptr), std::move(cols), std::move(vals));
        by_col_ = CompressedBlock<T>();
        by_col_ready_ = false;
        col_is_row_ = false;
        symmetric_ = false;
    }

    /// Same, from the block's rows as a CSR (block_rows() x block_cols(); consumed).
    void assemble_rows(Csr<T>&& rows) {
        std::vector<offset_t> ptr;
        std::vector<lindex_t> cols;
        ValueArray<T> vals;
        rows.release(ptr, cols, vals);
        assemble_rows(std::move(ptr), std::move(cols), std::move(vals));
    }

private:
    std::shared_ptr<ProcessGrid> grid_;
    Distribution rows_;
    Distribution cols_;
    CompressedBlock<T> by_row_;
    mutable CompressedBlock<T> by_col_;
    mutable bool by_col_ready_ = true;  // false: by_col_ is due from by_row_
    mutable bool col_is_row_ = false;   // by_col() is by_row_ (the block is symmetric)
    bool symmetric_ = false;            // the whole matrix is (BuildOptions::symmetric)

    // Throws InvalidValue on every rank unless the entries' fingerprint equals their
    // transposes' (see BuildOptions::symmetric). Collective.
    void check_symmetric() const;

    // Makes by_col(): by_row_ itself when the block is symmetric (tested in place, so a
    // symmetric block never holds a transposed copy, not even for a moment), else the
    // transpose of by_row_.
    void derive_by_col() const {
        col_is_row_ = by_row_.is_symmetric();
        by_col_ = col_is_row_ ? CompressedBlock<T>() : by_row_.swapped(by_row_.format());
        by_col_ready_ = true;
    }
    std::shared_ptr<const VertexRelabel> relabel_;
};

// ---- implementation -------------------------------------------------------------------

template <class T>
template <class Combine>
DistMatrix<T> DistMatrix<T>::from_tuples(std::shared_ptr<ProcessGrid> grid, gindex_t nrows,
                                         gindex_t ncols, std::span<const gindex_t> rows,
                                         std::span<const gindex_t> cols, const ValueArray<T>& vals,
                                         const BuildOptions& opts, Combine combine) {
    DistMatrix m = shell(grid, nrows, ncols, opts);  // checks shared arguments, no communication
    comm::Communicator& world = grid->world();
    // Local argument checks, made collective.
    detail::run_collectively(world, [&] {
        if (rows.size() != cols.size() || rows.size() != vals.size()) {
            throw DimensionMismatch("DistMatrix: " + std::to_string(rows.size()) + " rows, " +
                                    std::to_string(cols.size()) + " columns and " +
                                    std::to_string(vals.size()) + " values given");
        }
        for (std::size_t k = 0; k < rows.size(); ++k) {
            if (rows[k] < 0 || rows[k] >= nrows || cols[k] < 0 || cols[k] >= ncols) {
                throw IndexOutOfBounds("DistMatrix: tuple (" + std::to_string(rows[k]) + ", " +
                                       std::to_string(cols[k]) + ") outside a " +
                                       std::to_string(nrows) + " x " + std::to_string(ncols) +
                                       " matrix");
            }
        }
    });

    LocalTuples acc;
    m.route_append(rows, cols, vals, acc);
    m.assemble(std::move(acc), opts, combine);
    return m;
}

template <class T>
void DistMatrix<T>::route_append(std::span<const gindex_t> rows_in,
                                 std::span<const gindex_t> cols_in, const ValueArray<T>& vals,
                                 LocalTuples& acc) const {
    comm::Communicator& world = grid_->world();
    const Distribution& rd = rows_;
    const Distribution& cd = cols_;
    const int p = world.size();
    const int pc = grid_->pc();
    // Internal ids: the caller's, or their relabelling.
    std::vector<gindex_t> rmap, cmap;
    std::span<const gindex_t> rows = rows_in, cols = cols_in;
    if (relabel_) {
        rmap.resize(rows_in.size());
        cmap.resize(cols_in.size());
#pragma omp parallel for schedule(static)
        for (std::size_t k = 0; k < rows_in.size(); ++k) {
            rmap[k] = relabel_->forward(rows_in[k]);
            cmap[k] = relabel_->forward(cols_in[k]);
        }
        rows = rmap;
        cols = cmap;
    }
    auto& [dest, counts, recv_counts, send, recv] = acc.scratch;
    detail::group_by_destination(
        rows.size(), p,
        [&](std::size_t k) { return rd.row_block_of(rows[k]) * pc + cd.col_block_of(cols[k]); },
        [&](std::size_t k) {
            return detail::RoutedTuple<T>{rd.local_row(rows[k]), cd.local_col(cols[k]), vals[k]};
        },
        counts, send, dest);
    world.alltoallv(std::span<const detail::RoutedTuple<T>>(send), std::span<const int>(counts),
                    recv, recv_counts, "matrix-build");
    if (recv.empty()) return;
    // Append to the last chunk while it has room, else open one with room for the larger of
    // this round and (up to 2^23 tuples) everything held so far. Large chunks are thus few
    // and big enough for malloc to map them on their own, so freeing one in assemble() gives
    // its memory back instead of leaving holes between this loop's temporaries; room never
    // written is never made resident.
    std::size_t held = 0;
    for (const auto& c : acc.chunks) held += c.rows.size();
    if (acc.chunks.empty() ||
        acc.chunks.back().rows.capacity() - acc.chunks.back().rows.size() < recv.size()) {
        const std::size_t room = std::max(recv.size(), std::min(held, std::size_t(1) << 23));
        acc.chunks.emplace_back();
        acc.chunks.back().rows.reserve(room);
        acc.chunks.back().cols.reserve(room);
        acc.chunks.back().vals.reserve(room);
    }
    detail::TupleChunk<T>& chunk = acc.chunks.back();
    const std::size_t at = chunk.rows.size();
    chunk.rows.resize(at + recv.size());
    chunk.cols.resize(at + recv.size());
    chunk.vals.resize(at + recv.size());
#pragma omp parallel for schedule(static) if (recv.size() > 65536)
    for (std::size_t k = 0; k < recv.size(); ++k) {
        chunk.rows[at + k] = recv[k].row;
        chunk.cols[at + k] = recv[k].col;
        if constexpr (!std::is_same_v<T, Pattern>) chunk.vals[at + k] = recv[k].val;
    }
}

template <class T>
template <class Combine>
void DistMatrix<T>::assemble(LocalTuples&& acc, const BuildOptions& opts, Combine combine) {
    // Build the local block, collectively agreeing on duplicate errors.
    acc.scratch = {};
    detail::release_free_heap();
    detail::run_collectively(grid_->world(), [&] {
        const lindex_t br = rows_.block_rows();
        const lindex_t bc = cols_.block_cols();
        by_row_ = CompressedBlock<T>::from_compressed(
            opts.format, br, bc,
            detail::compress_chunks<T>(br, bc, std::move(acc.chunks), opts.duplicates, combine,
                                       acc.mirror));
        // The by-column copy comes from the de-duplicated by-row block.
        derive_by_col();
    });
    detail::release_free_heap();
    if (opts.symmetric) check_symmetric();
    symmetric_ = opts.symmetric;
}

template <class T>
void DistMatrix<T>::check_symmetric() const {
    // Sums over the entries of h(i, j) and of h(j, i), for two hashes h: equal for a
    // symmetric pattern (the same set of pairs), different otherwise but by a collision.
    // Internal ids: a relabelling maps rows and columns alike.
    const int bi = grid_->my_row();
    const int bj = grid_->my_col();
    const auto h1 = [](std::uint64_t a, std::uint64_t b) {
        return detail::mix64(a * 0x9e3779b97f4a7c15ULL + detail::mix64(b));
    };
    const auto h2 = [](std::uint64_t a, std::uint64_t b) {
        return detail::mix64((a ^ 0xd1b54a32d192ed03ULL) +
                             detail::mix64(b) * 0xff51afd7ed558ccdULL);
    };
    // The stored rows whatever the format, split over the threads.
    const bool dcsc = by_row_.format() == LocalFormat::dcsc;
    const std::size_t rows = dcsc ? by_row_.dcsc().jc().size() : by_row_.csr().nrows();
    const offset_t* ptr = dcsc ? by_row_.dcsc().cp().data() : by_row_.csr().rowptr().data();
    const lindex_t* ids = dcsc ? by_row_.dcsc().jc().data() : nullptr;
    const lindex_t* inner = dcsc ? by_row_.dcsc().ir().data() : by_row_.csr().colind().data();
    std::uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#pragma omp parallel for schedule(static) reduction(+ : s0, s1, s2, s3) if (rows > 65536)
    for (std::size_t k = 0; k < rows; ++k) {
        const auto gr = std::uint64_t(rows_.global_row(bi, ids ? ids[k] : lindex_t(k)));
        for (offset_t p = ptr[k]; p < ptr[k + 1]; ++p) {
            const auto gc = std::uint64_t(cols_.global_col(bj, inner[p]));
            s0 += h1(gr, gc);
            s1 += h1(gc, gr);
            s2 += h2(gr, gc);
            s3 += h2(gc, gr);
        }
    }
    std::uint64_t sums[4] = {s0, s1, s2, s3};
    grid_->world().allreduce(std::span<std::uint64_t>(sums, 4), comm::ReduceOp::sum,
                             "symmetric-check");
    if (sums[0] != sums[1] || sums[2] != sums[3]) {
        throw InvalidValue(
            "DistMatrix: BuildOptions::symmetric is set but the entries are not symmetric "
            "(some entry (i, j) has no entry (j, i))");
    }
}

template <class T>
CooMatrix<T, gindex_t> DistMatrix<T>::gather(int root) const {
    std::vector<gindex_t> r, c;
    ValueArray<T> v;
    local_tuples(r, c, v);
    comm::Communicator& world = grid_->world();
    std::vector<gindex_t> all_r, all_c;
    std::vector<int> counts;
    world.allgatherv(std::span<const gindex_t>(r), all_r, counts, "gather");
    world.allgatherv(std::span<const gindex_t>(c), all_c, counts, "gather");
    CooMatrix<T, gindex_t> out(nrows(), ncols());
    if constexpr (!std::is_same_v<T, Pattern>) {
        std::vector<T> vv(v.data(), v.data() + v.size()), all_v;
        world.allgatherv(std::span<const T>(vv), all_v, counts, "gather");
        if (world.rank() == root) {
            for (std::size_t k = 0; k < all_r.size(); ++k)
                out.push_back(all_r[k], all_c[k], all_v[k]);
        }
    } else {
        if (world.rank() == root) {
            for (std::size_t k = 0; k < all_r.size(); ++k) out.push_back(all_r[k], all_c[k]);
        }
    }
    return out;
}

}  // namespace gridblas
