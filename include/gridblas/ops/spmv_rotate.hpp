#pragma once
/// @file spmv_rotate.hpp
/// @brief The pull path of vxm / mxv for semirings with an early exit: the rotating masked
/// pull of Buluç, Beamer, Madduri, Asanović & Patterson ("Distributed-memory breadth-first
/// search on massive graphs", 2017, Algorithm 4), written for any such semiring. A bottom-up
/// BFS level is this operation with a positional semiring and the complemented structural
/// mask of the visited set.
///
/// Instead of every rank computing partial results for the whole output range of its block
/// and then folding them (an all-to-all along the fold dimension), the q ranks of the fold
/// communicator process the q pieces of that range one after the other. In step s rank k
/// scans piece (k - s) mod q and hands the piece on to rank k + 1, with
///  - the piece's `done` bits: outputs the mask excludes (set by the piece's owner, so the
///    mask never travels on its own) and outputs whose value is final (terminal, or found by
///    a positional "any" semiring); later ranks skip them;
///  - the candidates found so far (output, value), which each rank combines with its own
///    results by the semiring's add (for positional "min" a candidate c also bounds the later
///    ranks' reads to inputs below c).
/// Rank k of the fold communicator holds input block k. For mxv these are column blocks,
/// contiguous and ascending with k; for vxm they are row blocks, which interleave in stripes
/// (stripe t of row block k is piece t·q + k: distribution.hpp), ascending with k within each
/// stripe. Handing pieces to rank k + 1 makes a piece meet the blocks in that ascending order
/// up to the wrap to rank 0.
/// After q steps every piece is back at its owner with its complete result. Each piece
/// travels q hops, one message per hop: the done bits raw, the outputs as an id frame of the
/// fold communicator's wire format and the values after them (bit-packed when they are
/// global indices, raw otherwise).
///
/// Positional "min" (a found value is not final, but bounds the later reads) takes another
/// schedule on the CPU, the ascending one. Each rank's piece is cut into chunks (m per piece,
/// ascending_chunk()), and every chunk starts at rank 0 (which first takes each owner's done
/// bits), meets the ranks in the order 0, 1, ..., q - 1 and goes home from the last one
/// without its done bits: in step s rank k scans chunk s - k, so the chunks flow through the
/// fold like a pipeline, m·q + q - 1 steps in all. A rank skips, unread, an output whose
/// candidate lies below all of its inputs, as every candidate from a lower block does (for
/// vxm with several stripes: from a lower block's first stripe). Where a block holds one
/// stripe of the inputs (mxv; vxm on a grid with one column) the entries read are thus
/// exactly those of one rank reading each output's inputs in ascending order up to its
/// smallest present one; with several stripes a rank reads its higher stripes before a later
/// rank has read its lower one (a BFS bottom-up level read 1.08 times the one-rank entries
/// on a 2 × 2 grid, 1.18 on 3 × 3). The rotation has every piece but rank 0's first scanned
/// by a higher block, whose finds the ranks after the wrap must read past again (1.27 times
/// the one-rank entries at 2 × 2). The price is q - 1 more steps, in which ranks at the ends
/// of the fold wait; with m of 8 or more that is an eighth of the steps or less.
/// Where the blocks hold one stripe each, a candidate lies below every input of the ranks
/// after its finder, so it is final: the chunks then carry only their done bits (finds
/// marked), every rank keeps its finds until the pipeline has run, and q - 1 exchanges
/// bring each owner its piece's candidates (ascending_pull_contiguous() in
/// spmv_rotate_final.hpp), each candidate crossing the wire once instead of riding along
/// with its chunk (a BFS bottom-up level of Kronecker scale 20 on 2 × 2: 0.91 MB on the wire
/// instead of 1.73 MB).
/// Positional "any", whose every find is final on any blocks, keeps the rotation's order but
/// not its baggage: the rotating pipeline (rotating_pipeline()) cuts each piece into chunks
/// that start at their owner and go round the fold with their done bits only, and the finds
/// go home once at the end, as above. The rotation carrying candidates sent 2.4 MB at that
/// level, and the ascending schedule, which "any" took before, has rank 0 read first
/// everywhere, so it reads most of the level while the others wait; in the rotation's order
/// every rank reads its own piece first (4 ranks on 2 cores, 2 × 2, scale 20, ranks of a grid
/// column on one core: 18.8 ms a search against 22.4–23.4).

#include <algorithm>
#include <memory>
#include <type_traits>

#include "gridblas/comm/wire.hpp"
#include "gridblas/core/collective_check.hpp"
#include "gridblas/kernels/cpu/pull_piece.hpp"
#include "gridblas/matrix/detail/huge_pages.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "gridblas/ops/pull_piece_device.hpp"
#include "gridblas/ops/spmv_layout.hpp"
#include "gridblas/ops/spmv_rotate_final.hpp"
#include "gridblas/ops/spmv_rotate_parts.hpp"
#include "gridblas/ops/spmv_workspace.hpp"
#include "gridblas/semirings/semiring.hpp"

namespace gridblas::detail {

/// Does vxm / mxv with semiring S pull through the rotation? Yes when the semiring has an
/// early exit: a terminal value, or a positional product.
template <class S>
inline constexpr bool rotating_pull_v = semiring_has_terminal<S>() || semiring_is_positional<S>();

/// Can the rotation's piece scan run on the GPU? For the positional semirings over a pattern
/// matrix with 64-bit indices in vxm orientation (the BFS bottom-up step).
template <class S, class T>
inline constexpr bool device_rotation_v =
    semiring_is_positional<S>() &&
    std::is_same_v<T, Pattern>&& std::is_same_v<typename S::value_type, std::int64_t>;

/// The ascending schedule, for positional "min" on the CPU (see the file comment). Each
/// rank's piece is cut into m chunks of `chunk` outputs; chunk i of the q·m (piece-major)
/// meets the ranks of the fold communicator in the order 0, 1, ..., q - 1, in steps i to
/// i + q - 1, and the last rank hands it back to its owner. Expects rb.done to hold this rank's own
/// piece's done bits and rb.has / rb.best to be ready; on return rb.ids / rb.vals list the
/// own piece's candidates. Returns the entries read.
template <class S, class U, class T>
std::uint64_t ascending_pull(const SpmvLayout<T>& L, const kernels::CompressedView<T>& view,
                             SpmvWorkspace<U, typename S::value_type, T>& ws, lindex_t nb,
                             std::size_t piece_words, const char* name) {
    using Y = typename S::value_type;
    RotationBuffers<Y>& rb = ws.rot;
    comm::Communicator& fold = *L.fold;
    const int q = fold.size();
    const int me = fold.rank();
    const comm::WireFormat wire = fold.options().wire;
    const AscendingChunks ch(nb, q, ws.ascending_chunk_outputs);

    gather_seeds(rb, fold, piece_words, name);

    // The own piece's candidates, chunk after chunk (ascending outputs).
    rb.home_ids.clear();
    rb.home_vals.clear();
    const auto take_home = [&](int i, const std::vector<lindex_t>& ids, const auto& vals) {
        const lindex_t at = ch.at(i);
        const std::size_t had = rb.home_ids.size();
        rb.home_ids.resize(had + ids.size());
        rb.home_vals.resize(had + ids.size());
        for (std::size_t k = 0; k < ids.size(); ++k) rb.home_ids[had + k] = ids[k] + at;
        std::copy(vals.begin(), vals.end(), rb.home_vals.begin() + std::ptrdiff_t(had));
    };
    std::uint64_t entries = 0;
    for (int s = 0; s < ch.total + q - 1; ++s) {
        const AscendingChunks::Step st = ch.step(s, me, q);
        const int i = st.i;
        const bool scans = st.scans;
        const int owner = scans ? i / ch.m : -1;
        if (scans) {
            if (me == 0) {
                seed_chunk(rb, ch, i, piece_words);
                rb.ids.clear();
                rb.vals.clear();
            }
            entries += rotate_step_cpu<S>(L, view, ws, lindex_t(gindex_t(owner) * nb) + ch.at(i),
                                          ch.len(i));
        }
        // The last rank's chunk goes home (without its done bits) ...
        if (me + 1 == q && scans) {
            if (owner == me) {
                take_home(i, rb.ids, rb.vals);
            } else {
                encode_piece<S>(rb, 0, wire);
                fold.sendrecv_compressed(rb.send, rb.ids.size() * (sizeof(lindex_t) + sizeof(Y)),
                                         owner, rb.recv, MPI_PROC_NULL, name);
            }
        }
        const int back = s - (q - 1);  // the chunk the last rank finished in step s
        if (me + 1 < q && back >= 0 && back < ch.total && back / ch.m == me) {
            fold.sendrecv_compressed({}, 0, MPI_PROC_NULL, rb.recv, q - 1, name);
            decode_piece<S>(rb, ch.len(back), 0, wire, rb.in_ids, rb.in_vals);
            take_home(back, rb.in_ids, rb.in_vals);
        }
        // ... the others' up the fold, to the rank that scans it in the next step.
        const int to = st.to;
        const int next = st.next;
        const int from = st.from;
        if (to == MPI_PROC_NULL && from == MPI_PROC_NULL) continue;
        std::size_t raw = 0;
        rb.send.clear();
        if (to != MPI_PROC_NULL) {
            encode_piece<S>(rb, ch.words(i), wire);
            raw = ch.words(i) * sizeof(std::uint64_t) +
                  rb.ids.size() * (sizeof(lindex_t) + sizeof(Y));
        }
        fold.sendrecv_compressed(rb.send, raw, to, rb.recv, from, name);
        if (from != MPI_PROC_NULL) decode_piece<S>(rb, ch.len(next), ch.words(next), wire);
    }
    std::swap(rb.ids, rb.home_ids);
    std::swap(rb.vals, rb.home_vals);
    return entries;
}

/// The rotating pull: on return ws.t holds this rank's piece of the product (before the
/// output stage), computed over the gathered input in ws.xb and the mask `mask` of this
/// rank's piece of the output (`out_len` outputs). Collective over the fold communicator.
template <class S, class U, class T>
void rotate_pull(const SpmvLayout<T>& L, const LocalMask& mask, lindex_t out_len,
                 SpmvWorkspace<U, typename S::value_type, T>& ws, bool on_device, int device,
                 const char* name) {
    using Y = typename S::value_type;
    RotationBuffers<Y>& rb = ws.rot;
    comm::Communicator& fold = *L.fold;
    const int q = fold.size();
    const int me = fold.rank();
    const lindex_t nb = lindex_t(L.out->nb);
    const std::size_t piece_words = bitmap_words(nb);
    const comm::WireFormat wire = fold.options().wire;

    // This rank's own piece starts the rotation: done = what the mask excludes, and the
    // padding past the piece's end.
    rb.done.assign(std::max<std::size_t>(piece_words, 1), ~std::uint64_t(0));
    const std::size_t own_words = bitmap_words(out_len);
    for (std::size_t w = 0; w < own_words; ++w) rb.done[w] = ~mask.allowed_word(w);
    if (out_len & 63) rb.done[own_words - 1] |= ~std::uint64_t(0) << (out_len & 63);
    rb.has.assign(std::max<std::size_t>(piece_words, 1), 0);
    if (rb.best.size() < nb) {
        reserve_huge(rb.best, nb);  // written and read at the outputs found, all over the piece
        rb.best.resize(nb);
    }
    rb.ids.clear();
    rb.vals.clear();

    std::uint64_t entries = 0;
    int q_steps = q;  // steps of the rotation (none where the ascending schedule runs)
    const kernels::CompressedView<T> view = view_of(*L.pull_block, nullptr, ws.lookup_for);
    if (!on_device &&
        (ws.pull_rows_for != L.pull_block->stamp() || !ws.pull_rows.fits(view.n_outer))) {
        ws.pull_rows = kernels::OuterBitmap(view, ws.pull.policy);
        ws.pull_rows_for = L.pull_block->stamp();
    }
    DevicePieceScanner* scanner = nullptr;
    if constexpr (device_rotation_v<S, T>) {
        if (on_device) {
            run_collectively(*L.fold, [&] {
                auto* cur = static_cast<DevicePieceScanner*>(ws.device_rotate.get());
                if (!cur || cur->block_stamp() != L.pull_block->stamp()) {
                    ws.device_rotate.reset();
                    ws.device_rotate =
                        std::make_shared<DevicePieceScanner>(device, *L.pull_block, nb, L.n_in);
                }
                scanner = static_cast<DevicePieceScanner*>(ws.device_rotate.get());
                scanner->set_input(ws.xb.words().data());
            });
        }
    }
    (void)device;
    if constexpr (semiring_is_positional<S>()) {
        if (scanner == nullptr && q > 1) {
            // mxv's input blocks are column blocks, contiguous; vxm's row blocks are
            // contiguous on a grid of one column only (stripes otherwise). A positional
            // "any" finds final values on any blocks.
            const bool contiguous = !L.input_is_rows || L.in->pc == 1;
            // The schedules whose finds are final leave the product in ws.t themselves.
            if constexpr (semiring_has_terminal<S>()) {
                ws.last_entries = rotating_pipeline<S>(L, view, ws, nb, out_len, piece_words, name);
                return;
            } else if (contiguous) {
                ws.last_entries =
                    ascending_pull_contiguous<S>(L, view, ws, nb, out_len, piece_words, name);
                return;
            } else {
                entries = ascending_pull<S>(L, view, ws, nb, piece_words, name);
            }
            q_steps = 0;
        }
    }
    if (scanner == nullptr && q_steps == 1) {
        // One rank in the fold: the scan's candidates are the product, collected straight
        // into ws.t (in a one-rank BFS the serial copy from rb took 1.7% of the samples).
        rb.ids.clear();
        ws.last_entries = scan_piece_cpu<S>(L, view, ws, 0, nb);
        ws.t.reset(out_len);
        kernels::collect_candidates(rb.has.data(), rb.best.data(), nb, ws.t.indices(),
                                    ws.t.values(), ws.pull.policy);
        return;
    }
    for (int s = 0; s < q_steps; ++s) {
        const int owner = (me + q - s) % q;
        const lindex_t offset = lindex_t(gindex_t(owner) * nb);
        if (scanner != nullptr) {
            if constexpr (device_rotation_v<S, T>) {
                cuda::detail::BottomUpPiece bp;
                const auto& blk = *L.pull_block;
                if (blk.format() == LocalFormat::dcsc) {
                    const auto& jc = blk.dcsc().jc();
                    bp.k0 =
                        std::size_t(std::lower_bound(jc.begin(), jc.end(), offset) - jc.begin());
                    bp.k1 = std::size_t(std::lower_bound(jc.begin(), jc.end(), offset + nb) -
                                        jc.begin());
                } else {
                    bp.k0 = offset;
                    bp.k1 = std::min<std::size_t>(std::size_t(offset) + nb, blk.csr().nrows());
                }
                bp.col_off = offset;
                bp.nb = L.in->nb;
                bp.pr = L.in->pr;
                bp.my_row = L.grid_row;
                bp.min_mode = !semiring_has_terminal<S>();
                // A device failure on one rank must not leave the others in the rotation.
                run_collectively(*L.fold, [&] {
                    entries += scanner->scan(bp, nb, rb.done.data(), rb.ids, rb.vals);
                });
            }
        } else {
            entries += rotate_step_cpu<S>(L, view, ws, offset, nb);
        }
        // Final values need no more reading by the ranks after this one.
        if constexpr (semiring_has_terminal<S>()) {
            for (std::size_t k = 0; k < rb.ids.size(); ++k) {
                if (semiring_is_terminal<S>(rb.vals[k])) {
                    rb.done[rb.ids[k] >> 6] |= std::uint64_t(1) << (rb.ids[k] & 63);
                }
            }
        }
        if (q > 1) {
            const int to = (me + 1) % q;
            const int from = (me + q - 1) % q;
            encode_piece<S>(rb, piece_words, wire);
            const std::size_t raw = piece_words * sizeof(std::uint64_t) +
                                    rb.ids.size() * (sizeof(lindex_t) + sizeof(Y));
            fold.sendrecv_compressed(rb.send, raw, to, rb.recv, from, name);
            decode_piece<S>(rb, nb, piece_words, wire);
        }
    }
    // The own piece is back with every candidate: that is the product over the piece.
    ws.t.reset(out_len);
    std::swap(ws.t.indices(), rb.ids);
    ws.t.values().resize_for_overwrite(rb.vals.size());
    std::copy(rb.vals.begin(), rb.vals.end(), ws.t.values().data());
    ws.last_entries = entries;
}

}  // namespace gridblas::detail
