// Bottom-up BFS level over a pr x pc grid: a masked pull SpMV over bitmaps with early exit,
// organised as seed 002's Algorithm 4 (Buluç, Beamer, Madduri, Asanović & Patterson, "Distributed-
// memory breadth-first search on massive graphs"), transposed to gridblas' vxm orientation:
//  1. the frontier is gathered as a bitmap over this rank's row block (along the grid row);
//  2. pr sub-steps: in sub-step s this rank scans the unvisited vertices of piece
//     (my_row + s) mod pr of its column block, reading each one's in-edges in its block until
//     one comes from the frontier, then hands that piece's "completed" bitmap and the parents
//     found so far to the previous rank of its grid column; after pr sub-steps each piece is
//     back at its owner with every discovery. A vertex found by one rank is skipped by the
//     next ones (parent mode any/after); in min mode every rank looks and the smallest parent
//     wins, which makes the tree independent of the grid.
// The hand-over is one message per sub-step: the completed bits, the found vertices as a
// compressed id frame and their parents bit-packed (uncompressed with --wire raw). On a grid
// running on the cuda backend the scan of step 2 runs on the rank's GPU
// (bottom_up_device.cpp); the rest is the same code.

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <string>

#include "bfs/bfs_impl.hpp"
#include "bfs/bottom_up_device.hpp"
#include "gridblas/core/collective_check.hpp"

namespace gridblas {

namespace {

bool test_word_bit(const std::uint64_t* w, lindex_t i) { return (w[i >> 6] >> (i & 63)) & 1u; }

/// How many columns ahead the scan prefetches a column's first in-edge.
constexpr std::size_t kPrefetchAhead = 16;

}  // namespace

void BfsSolver::Impl::rotate_piece(std::size_t piece_words) {
    // Hand the piece to the previous rank of the column, take the next one's.
    const int pr = grid.pr();
    const int to = (grid.my_row() + pr - 1) % pr;
    const int from = (grid.my_row() + 1) % pr;
    comm::Communicator& col = grid.col();
    if (col.options().wire == comm::WireFormat::raw) {
        // Uncompressed: the bitmap and the found list as they are in memory.
        col.sendrecv(std::span<const std::uint64_t>(completed.data(), piece_words), to,
                     completed_in, from, "bfs-bottomup-rotate");
        col.sendrecv(std::span<const BfsFound>(found), to, found_in, from, "bfs-bottomup-rotate");
        std::copy(completed_in.begin(), completed_in.end(), completed.begin());
        found.swap(found_in);
        return;
    }
    // One message: the completed bits, the found vertices as an id frame (delta or bitmap,
    // whichever is smaller) and their parents bit-packed at the width of the largest one.
    rot_ids.clear();
    rot_vals.clear();
    for (const BfsFound& f : found) {
        rot_ids.push_back(f.v);
        rot_vals.push_back(std::uint64_t(f.parent));
    }
    rot_send.resize(piece_words * sizeof(std::uint64_t));
    std::memcpy(rot_send.data(), completed.data(), rot_send.size());
    comm::wire::encode(rot_ids, col.options().wire, rot_send);
    comm::wire::encode_values(rot_vals, rot_send);
    const std::size_t raw = piece_words * sizeof(std::uint64_t) + found.size() * sizeof(BfsFound);
    col.sendrecv_compressed(rot_send, raw, to, rot_recv, from, "bfs-bottomup-rotate");

    const std::size_t head = piece_words * sizeof(std::uint64_t);
    if (rot_recv.size() < head) {
        throw CommError("bfs: rotation message of " + std::to_string(rot_recv.size()) +
                        " bytes is shorter than its bitmap");
    }
    std::memcpy(completed.data(), rot_recv.data(), head);
    const std::span<const char> rest(rot_recv.data() + head, rot_recv.size() - head);
    rot_ids.clear();
    rot_vals.clear();
    const std::size_t used = comm::wire::decode(rest, rot_ids);
    comm::wire::decode_values(rest.subspan(used), rot_vals);
    if (rot_ids.size() != rot_vals.size()) {
        throw CommError("bfs: rotation message holds " + std::to_string(rot_ids.size()) +
                        " vertices but " + std::to_string(rot_vals.size()) + " parents");
    }
    found.resize(rot_ids.size());
    for (std::size_t k = 0; k < found.size(); ++k) {
        found[k] = {rot_ids[k], gindex_t(rot_vals[k])};
    }
}

std::uint64_t BfsSolver::Impl::bottom_up_step(gindex_t depth, BfsResult& r) {
    const int pr = grid.pr();
    const int my_row = grid.my_row();
    const int my_col = grid.my_col();
    const gindex_t nb = dist.nb;
    const lindex_t nrb = dist.block_rows();
    const bool min_mode = opt.parents == ParentMode::min;

    // 1. Frontier bitmap over the row block (row-block numbering: piece of row rank j at j*nb).
    const lindex_t row_off = lindex_t(gindex_t(my_col) * nb);
    bu_ids.clear();
    for (lindex_t i : frontier_list) bu_ids.push_back(row_off + i);
    grid.row().allgather_ids(bu_ids, nrb, bu_all, "bfs-bottomup-expand");
    std::fill(front_bits.begin(), front_bits.end(), 0);
    for (lindex_t u : bu_all) front_bits[u >> 6] |= std::uint64_t(1) << (u & 63);
    if (on_device()) device->set_frontier(front_bits);  // uploaded by the first scan()

    // 2. Rotation along the grid column. Start with this rank's own piece: completed = visited.
    const auto& vis_words = visited.bitmap().words();
    const std::size_t piece_words = bitmap_words(std::size_t(nb));
    std::fill(completed.begin(), completed.end(), 0);
    std::copy(vis_words.begin(), vis_words.end(), completed.begin());
    found.clear();

    const CompressedBlock<Pattern>& blk = a.by_col();  // outer = column (v), inner = row (u)
    const bool dcsc = blk.format() == LocalFormat::dcsc;
    const lindex_t* outer_ids = dcsc ? blk.dcsc().jc().data() : nullptr;
    const std::size_t num_outer = dcsc ? blk.dcsc().nzc() : blk.csr().nrows();
    const offset_t* ptr = dcsc ? blk.dcsc().cp().data() : blk.csr().rowptr().data();
    const lindex_t* inner = dcsc ? blk.dcsc().ir().data() : blk.csr().colind().data();
    const std::uint64_t* fb = front_bits.data();
    std::uint64_t examined = 0;

    for (int s = 0; s < pr; ++s) {
        const int q = (my_row + s) % pr;  // grid row owning the piece processed now
        const lindex_t col_off = lindex_t(gindex_t(q) * nb);
        const int piece = dist.piece_at(q, my_col);
        const lindex_t len = lindex_t(dist.piece_size(piece));
        // Outer positions of this piece's columns.
        std::size_t k0, k1;
        if (dcsc) {
            k0 = std::size_t(std::lower_bound(outer_ids, outer_ids + num_outer, col_off) -
                             outer_ids);
            k1 = std::size_t(std::lower_bound(outer_ids, outer_ids + num_outer, col_off + len) -
                             outer_ids);
        } else {
            k0 = col_off;
            k1 = std::min<std::size_t>(col_off + len, num_outer);
        }
        if (on_device()) {
            // The piece's scan on the GPU; `found` goes in with the earlier ranks'
            // candidates and comes back with every candidate of the piece.
            cuda::detail::BottomUpPiece bp;
            bp.k0 = k0;
            bp.k1 = k1;
            bp.col_off = col_off;
            bp.nb = nb;
            bp.pr = pr;
            bp.my_row = my_row;
            bp.min_mode = min_mode;
            // A device failure on one rank must not leave the others in the rotation.
            detail::run_collectively(
                grid.world(), [&] { examined += device->scan(bp, len, completed.data(), found); });
            if (!min_mode) {
                for (const BfsFound& f : found) {
                    completed[f.v >> 6] |= std::uint64_t(1) << (f.v & 63);
                }
            }
        } else {
            // Parents found by earlier ranks of the rotation (min mode compares with them);
            // `newly` marks every vertex of the piece with a candidate.
            gindex_t* cand = best.data();
            std::uint64_t* fresh = newly.data();
            const std::size_t nwords = bitmap_words(len);
            std::fill(fresh, fresh + nwords, 0);
            for (const BfsFound& f : found) {
                cand[f.v] = f.parent;
                fresh[f.v >> 6] |= std::uint64_t(1) << (f.v & 63);
            }
            std::uint64_t* done = completed.data();
            // Piece index of the vertex at outer position k.
            auto piece_vertex = [&](std::size_t k) {
                return (dcsc ? outer_ids[k] : lindex_t(k)) - col_off;
            };
#pragma omp parallel for schedule(dynamic, 512) reduction(+ : examined)
            for (std::size_t k = k0; k < k1; ++k) {
                // The first in-edge of an unvisited column a few ahead: each costs one cache
                // miss on `inner`, and the early exits keep the hardware from overlapping
                // them on its own.
                if (const std::size_t ka = k + kPrefetchAhead; ka < k1) {
                    if (!test_word_bit(done, piece_vertex(ka))) __builtin_prefetch(inner + ptr[ka]);
                }
                const lindex_t v = piece_vertex(k);
                if (test_word_bit(done, v)) continue;
                for (offset_t p = ptr[k]; p < ptr[k + 1]; ++p) {
                    ++examined;
                    const lindex_t u = inner[p];
                    if (test_word_bit(fb, u)) {
                        // Inner ids ascend: this is the block's smallest frontier parent.
                        const gindex_t par = dist.global_row(my_row, u);
                        if (cand[v] < 0 || par < cand[v]) cand[v] = par;
                        std::atomic_ref<std::uint64_t>(fresh[v >> 6])
                            .fetch_or(std::uint64_t(1) << (v & 63), std::memory_order_relaxed);
                        break;
                    }
                }
            }
            // Collect the piece's discoveries in index order and reset their candidates; in
            // any/after mode also mark them completed so that later ranks skip them.
            found.clear();
            for (std::size_t w = 0; w < nwords; ++w) {
                std::uint64_t bits = fresh[w];
                if (!min_mode) done[w] |= bits;
                while (bits) {
                    const lindex_t v = lindex_t(w * 64 + std::size_t(std::countr_zero(bits)));
                    bits &= bits - 1;
                    found.push_back({v, cand[v]});
                    cand[v] = -1;
                }
            }
        }
        if (pr > 1) rotate_piece(piece_words);
    }

    // 3. This rank's own piece is back with every discovery: record them.
    frontier_list.clear();
    BitmapVector<Pattern>& vis = visited.bitmap();
    const bool keep_parent = opt.parents != ParentMode::after;
    for (const BfsFound& f : found) {
        vis.set(f.v);
        r.level[f.v] = depth + 1;
        if (keep_parent) r.parent[f.v] = f.parent;
        frontier_list.push_back(f.v);
    }
    return examined;
}

}  // namespace gridblas
