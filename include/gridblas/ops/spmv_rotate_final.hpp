#pragma once
/// @file spmv_rotate_final.hpp
/// @brief The schedules of the rotating pull (spmv_rotate.hpp) in which every find is final:
/// the chunks travel the fold with their done bits only, each rank keeps its finds, and the
/// owners collect them once at the end. The ascending schedule over contiguous input blocks
/// (positional "min": a find in a lower block is below every later input) and the rotating
/// pipeline (positional "any").

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/pull_piece.hpp"
#include "gridblas/ops/spmv_rotate_parts.hpp"

namespace gridblas::detail {

/// Empties this rank's lists of finds per owner of a piece (rb.give_ids / rb.give_vals).
template <class Y>
void clear_finds(RotationBuffers<Y>& rb, int q) {
    rb.give_ids.resize(std::size_t(q));
    rb.give_vals.resize(std::size_t(q));
    for (int o = 0; o < q; ++o) {
        rb.give_ids[std::size_t(o)].clear();
        rb.give_vals[std::size_t(o)].clear();
    }
}

/// Scans the `len` outputs at `at` of fold rank `owner`'s piece (pieces of `nb`) with the
/// done bits in rb.done. No candidate comes with a chunk in these schedules, so the scan
/// starts from clear marks; its finds go on the owner's list and into the done bits (the
/// later ranks skip them), in one pass that also clears the marks. Returns the entries read.
template <class S, class U, class T>
std::uint64_t scan_chunk_final(const SpmvLayout<T>& L, const kernels::CompressedView<T>& view,
                               SpmvWorkspace<U, typename S::value_type, T>& ws, lindex_t nb,
                               int owner, lindex_t at, lindex_t len) {
    RotationBuffers<typename S::value_type>& rb = ws.rot;
    const std::uint64_t entries =
        scan_chunk_cpu<S>(L, view, ws, lindex_t(gindex_t(owner) * nb) + at, len);
    kernels::append_final_candidates(rb.has.data(), rb.best.data(), len, rb.done.data(), at,
                                     rb.give_ids[std::size_t(owner)],
                                     rb.give_vals[std::size_t(owner)]);
    return entries;
}

/// The end of the schedules whose every find is final: each rank holds, in rb.give_ids /
/// rb.give_vals, its finds in every owner's piece (ascending outputs, piece offsets; no
/// output on two ranks' lists, as a find is marked done before the chunk moves on). Every
/// rank sends each owner its list (q - 1 exchanges), and on return ws.t holds the own piece's
/// candidates in output order (`out_len` outputs): the product over the piece. Collective
/// over the fold communicator.
template <class S, class U, class T>
void deliver_finds(const SpmvLayout<T>& L, SpmvWorkspace<U, typename S::value_type, T>& ws,
                   lindex_t nb, lindex_t out_len, const char* name) {
    using Y = typename S::value_type;
    RotationBuffers<Y>& rb = ws.rot;
    comm::Communicator& fold = *L.fold;
    const int q = fold.size();
    const int me = fold.rank();
    const comm::WireFormat wire = fold.options().wire;
    SparseVector<Y>& out = ws.t;
    out.reset(out_len);
    // Every owner gathers its piece's candidates: its own, then each other rank's. On short folds
    // the lists are merged as they come; each merge re-reads what the earlier ones built, about q /
    // 2 passes over the piece's finds in all, so longer folds mark them in has / best and collect
    // the piece once. The lists grow without being zeroed first (OverwriteVector); the last merge
    // writes the result.
    constexpr int kMostMerged = 4;
    const bool merge = q <= kMostMerged;
    const auto mark = [&](const auto& ids, const auto& vals) {
        for (std::size_t k = 0; k < ids.size(); ++k) {
            const lindex_t v = ids[k];
            rb.has[v >> 6] |= std::uint64_t(1) << (v & 63);
            rb.best[v] = vals[k];
        }
    };
    // The candidates so far: the own list, then the latest merge.
    OverwriteVector<lindex_t>* cur_ids = &rb.give_ids[std::size_t(me)];
    OverwriteVector<Y>* cur_vals = &rb.give_vals[std::size_t(me)];
    if (!merge) mark(*cur_ids, *cur_vals);
    bool in_out = false;  // whether `out` holds them already
    for (int r = 1; r < q; ++r) {
        const int dest = (me + r) % q;
        const int src = (me + q - r) % q;
        const auto& gi = rb.give_ids[std::size_t(dest)];
        encode_piece<S>(rb, 0, gi, rb.give_vals[std::size_t(dest)], wire);
        fold.sendrecv_compressed(rb.send, gi.size() * (sizeof(lindex_t) + sizeof(Y)), dest, rb.recv,
                                 src, name);
        decode_piece<S>(rb, nb, 0, wire, rb.in_ids, rb.in_vals);
        if (!merge) {
            mark(rb.in_ids, rb.in_vals);
            continue;
        }
        if (rb.in_ids.empty()) continue;
        bool ok = false;
        if (r + 1 == q) {  // the last list: the merge is the product
            ok = kernels::merge_disjoint_candidates(*cur_ids, *cur_vals, rb.in_ids, rb.in_vals,
                                                    out.indices(), out.values());
            in_out = true;
        } else {
            // Into rb.merged_*, or where that holds the candidates so far, into the list just
            // sent to `dest` (sent once, never read again).
            OverwriteVector<lindex_t>& to_ids =
                cur_ids == &rb.merged_ids ? rb.give_ids[std::size_t(dest)] : rb.merged_ids;
            OverwriteVector<Y>& to_vals =
                cur_vals == &rb.merged_vals ? rb.give_vals[std::size_t(dest)] : rb.merged_vals;
            ok = kernels::merge_disjoint_candidates(*cur_ids, *cur_vals, rb.in_ids, rb.in_vals,
                                                    to_ids, to_vals);
            cur_ids = &to_ids;
            cur_vals = &to_vals;
        }
        if (!ok) {
            throw CommError("rotating pull: rank " + std::to_string(src) +
                            " sent candidates out of order or for an output found elsewhere");
        }
    }
    if (!merge) {
        kernels::collect_candidates(rb.has.data(), rb.best.data(), nb, out.indices(), out.values(),
                                    ws.pull.policy);
    } else if (!in_out) {
        out.indices().assign(cur_ids->begin(), cur_ids->end());
        out.values().resize_for_overwrite(cur_vals->size());
        std::copy(cur_vals->begin(), cur_vals->end(), out.values().data());
    }
}

/// The ascending schedule where the fold's input blocks are contiguous and ascending with
/// the rank (mxv; vxm on a grid of one column): a candidate rank k finds lies below every
/// input of the ranks after it, so it is final (for positional "any" on any blocks, every
/// candidate is). The chunks then carry only their done bits
/// up the fold, with the outputs found so far marked, and each rank keeps what it finds
/// until the pipeline has run; then every rank sends each owner its finds in the owner's
/// piece (q - 1 exchanges), and the owner merges them into output order. Each candidate
/// crosses the wire once, and no rank reads or re-lists another's candidates. A chunk's
/// finds leave its scan in one pass over its words (listed for their owner, marked done);
/// the owner merges the ascending lists instead of marking and re-collecting them (a 2 x 2
/// BFS at scale 20: about 4 per cent of the search's time, ten interleaved pairs). Same
/// contract as ascending_pull().
template <class S, class U, class T>
std::uint64_t ascending_pull_contiguous(const SpmvLayout<T>& L,
                                        const kernels::CompressedView<T>& view,
                                        SpmvWorkspace<U, typename S::value_type, T>& ws,
                                        lindex_t nb, lindex_t out_len, std::size_t piece_words,
                                        const char* name) {
    using Y = typename S::value_type;
    RotationBuffers<Y>& rb = ws.rot;
    comm::Communicator& fold = *L.fold;
    const int q = fold.size();
    const int me = fold.rank();
    const AscendingChunks ch(nb, q, ws.ascending_chunk_outputs);
    gather_seeds(rb, fold, piece_words, name);

    clear_finds(rb, q);
    std::uint64_t entries = 0;
    for (int s = 0; s < ch.total + q - 1; ++s) {
        const AscendingChunks::Step st = ch.step(s, me, q);
        const int i = st.i;
        if (st.scans) {
            const int owner = i / ch.m;
            const lindex_t at = ch.at(i);
            const lindex_t len = ch.len(i);
            if (me == 0) seed_chunk(rb, ch, i, piece_words);
            entries += scan_chunk_final<S>(L, view, ws, nb, owner, at, len);
        }
        // The chunk's done bits go up the fold, to the rank that scans it in the next step.
        const int to = st.to;
        const int next = st.next;
        const int from = st.from;
        if (to == MPI_PROC_NULL && from == MPI_PROC_NULL) continue;
        rb.send.clear();
        if (to != MPI_PROC_NULL) {
            const std::size_t bytes = ch.words(i) * sizeof(std::uint64_t);
            rb.send.resize(bytes);
            if (bytes != 0) std::memcpy(rb.send.data(), rb.done.data(), bytes);
        }
        fold.sendrecv_compressed(rb.send, rb.send.size(), to, rb.recv, from, name);
        if (from != MPI_PROC_NULL) {
            const std::size_t bytes = ch.words(next) * sizeof(std::uint64_t);
            if (rb.recv.size() != bytes) {
                throw CommError("rotating pull: rank " + std::to_string(from) + " handed on " +
                                std::to_string(rb.recv.size()) + " bytes of done bits for a " +
                                std::to_string(bytes) + "-byte chunk");
            }
            if (bytes != 0) std::memcpy(rb.done.data(), rb.recv.data(), bytes);
        }
    }
    deliver_finds<S>(L, ws, nb, out_len, name);
    return entries;
}

/// The rotating pipeline, for semirings whose every find is final (positional "any"): the
/// rotation of Algorithm 4, in chunks. Each owner's piece is cut into m chunks (as in the
/// ascending schedule) that start at their owner and meet the ranks of the fold in the
/// rotation's order, owner, owner + 1, ..., owner - 1 (mod q), carrying their done bits only.
/// In step s rank k scans chunk s - ((k - r) mod q) of every owner r's piece, where there is
/// one, and hands those that have ranks left to visit to rank k + 1 in one message:
/// m + q - 1 steps in all, then deliver_finds(). A piece's first reader finds most of its
/// outputs (in a BFS bottom-up level, most of a piece's unvisited vertices have a frontier
/// neighbour in any one block), so in the ascending schedule, where rank 0 reads every chunk
/// first, rank 0 reads most of the entries while the others wait for it (2 ranks, 2 x 1,
/// one core each: 20.6 per cent of the samples in the scan on rank 0 against 5.8 on rank
/// 1). Here every rank reads its own piece first and the others' later, so on blocks of
/// equal kind the reading is shared evenly. Same contract as ascending_pull().
template <class S, class U, class T>
std::uint64_t rotating_pipeline(const SpmvLayout<T>& L, const kernels::CompressedView<T>& view,
                                SpmvWorkspace<U, typename S::value_type, T>& ws, lindex_t nb,
                                lindex_t out_len, std::size_t piece_words, const char* name) {
    using Y = typename S::value_type;
    RotationBuffers<Y>& rb = ws.rot;
    comm::Communicator& fold = *L.fold;
    const int q = fold.size();
    const int me = fold.rank();
    const AscendingChunks ch(nb, q, ws.ascending_chunk_outputs);
    // The own piece's done bits (what the mask excludes), which its chunks start from.
    rb.seeds.assign(rb.done.begin(), rb.done.begin() + std::ptrdiff_t(piece_words));
    clear_finds(rb, q);
    const int to = (me + 1) % q;
    const int from = (me + q - 1) % q;
    std::uint64_t entries = 0;
    const int steps = ch.m + q - 1;
    for (int s = 0; s < steps; ++s) {
        rb.send.clear();
        std::size_t taken = 0;  // bytes of rb.recv (the chunks from `from`) used so far
        // d: this rank's place in the order of owner r's chunks (0: r is this rank).
        for (int d = 0; d < q; ++d) {
            const int p = s - d;
            if (p < 0 || p >= ch.m) continue;
            const int r = (me + q - d) % q;
            const int i = r * ch.m + p;
            const std::size_t bytes = ch.words(i) * sizeof(std::uint64_t);
            const lindex_t at = ch.at(i);
            const lindex_t len = ch.len(i);
            if (d == 0) {
                if (bytes != 0) std::memcpy(rb.done.data(), rb.seeds.data() + at / 64, bytes);
            } else {
                if (rb.recv.size() < taken + bytes) {
                    throw CommError("rotating pull: rank " + std::to_string(from) + " handed on " +
                                    std::to_string(rb.recv.size()) +
                                    " bytes of done bits, short of the chunks of step " +
                                    std::to_string(s));
                }
                if (bytes != 0) std::memcpy(rb.done.data(), rb.recv.data() + taken, bytes);
                taken += bytes;
            }
            entries += scan_chunk_final<S>(L, view, ws, nb, r, at, len);
            if (d + 1 < q) {  // ranks left to visit: on to the next one
                const std::size_t had = rb.send.size();
                rb.send.resize(had + bytes);
                if (bytes != 0) std::memcpy(rb.send.data() + had, rb.done.data(), bytes);
            }
        }
        if (s > 0 && taken != rb.recv.size()) {
            throw CommError("rotating pull: rank " + std::to_string(from) + " handed on " +
                            std::to_string(rb.recv.size()) + " bytes of done bits where step " +
                            std::to_string(s) + " takes " + std::to_string(taken));
        }
        // Chunks move on after every step but the last (the last rank of a chunk keeps it),
        // and every rank has some to send and some to take in each of those steps.
        if (s + 1 < steps)
            fold.sendrecv_compressed(rb.send, rb.send.size(), to, rb.recv, from, name);
    }
    deliver_finds<S>(L, ws, nb, out_len, name);
    return entries;
}

}  // namespace gridblas::detail
