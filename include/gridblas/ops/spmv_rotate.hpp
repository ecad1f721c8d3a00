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
/// up to the wrap to rank 0. For positional "min" that is the order that pays: a rank skips,
/// unread, an output whose candidate lies below all of its inputs, as every candidate from a
/// lower block does (for vxm with several stripes: from a lower block's first stripe), so
/// before the wrap such outputs are read once; handing pieces downwards would have every
/// step re-read them.
/// After q steps every piece is back at its owner with its complete result. Each piece
/// travels q hops, one message per hop: the done bits raw, the outputs as an id frame of the
/// fold communicator's wire format and the values after them (bit-packed when they are
/// global indices, raw otherwise).

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#include "gridblas/comm/wire.hpp"
#include "gridblas/core/collective_check.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/pull_piece.hpp"
#include "gridblas/matrix/detail/huge_pages.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "gridblas/ops/pull_piece_device.hpp"
#include "gridblas/ops/spmv_layout.hpp"
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

/// Packs the piece's done bits and candidates into one message.
template <class S>
void encode_piece(RotationBuffers<typename S::value_type>& rb, std::size_t piece_words,
                  comm::WireFormat wire) {
    using Y = typename S::value_type;
    rb.send.resize(piece_words * sizeof(std::uint64_t));
    std::memcpy(rb.send.data(), rb.done.data(), rb.send.size());
    comm::wire::encode(rb.ids, wire, rb.send);
    if constexpr (semiring_is_positional<S>()) {
        if (wire != comm::WireFormat::raw) {
            // Global indices are non-negative: bit-packed at the width of the largest.
            rb.packed.assign(rb.vals.begin(), rb.vals.end());
            comm::wire::encode_values(rb.packed, rb.send);
            return;
        }
    }
    const std::size_t at = rb.send.size();
    rb.send.resize(at + rb.vals.size() * sizeof(Y));
    if (!rb.vals.empty())
        std::memcpy(rb.send.data() + at, rb.vals.data(), rb.vals.size() * sizeof(Y));
}

/// Unpacks a message made by encode_piece().
template <class S>
void decode_piece(RotationBuffers<typename S::value_type>& rb, lindex_t piece_len,
                  std::size_t piece_words, comm::WireFormat wire) {
    using Y = typename S::value_type;
    const std::size_t head = piece_words * sizeof(std::uint64_t);
    if (rb.recv.size() < head) {
        throw CommError("rotating pull: a hand-over message of " + std::to_string(rb.recv.size()) +
                        " bytes is shorter than its " + std::to_string(head) + "-byte bitmap");
    }
    std::memcpy(rb.done.data(), rb.recv.data(), head);
    const std::span<const char> rest(rb.recv.data() + head, rb.recv.size() - head);
    rb.ids.clear();
    const std::size_t used = comm::wire::decode(rest, rb.ids);
    if (!rb.ids.empty() && rb.ids.back() >= piece_len) {
        throw CommError("rotating pull: a hand-over message names output " +
                        std::to_string(rb.ids.back()) + " of a " + std::to_string(piece_len) +
                        "-output piece");
    }
    const std::span<const char> vals = rest.subspan(used);
    if constexpr (semiring_is_positional<S>()) {
        if (wire != comm::WireFormat::raw) {
            rb.packed.clear();
            comm::wire::decode_values(vals, rb.packed);
            rb.vals.assign(rb.packed.begin(), rb.packed.end());
            if (rb.vals.size() != rb.ids.size()) {
                throw CommError("rotating pull: a hand-over message lists " +
                                std::to_string(rb.ids.size()) + " outputs but " +
                                std::to_string(rb.vals.size()) + " values");
            }
            return;
        }
    }
    if (vals.size() != rb.ids.size() * sizeof(Y)) {
        throw CommError("rotating pull: a hand-over message lists " +
                        std::to_string(rb.ids.size()) + " outputs but holds " +
                        std::to_string(vals.size()) + " bytes of values");
    }
    rb.vals.resize(rb.ids.size());
    if (!rb.ids.empty()) std::memcpy(rb.vals.data(), vals.data(), vals.size());
}

/// One step on the CPU: the candidates of earlier ranks (rb.ids / rb.vals) are merged with
/// this rank's scan of the piece at `offset`; rb.ids / rb.vals then list every candidate of
/// the piece, and final ones are marked done. Returns the entries read.
template <class S, class U, class T>
std::uint64_t rotate_step_cpu(const SpmvLayout<T>& L, const kernels::CompressedView<T>& view,
                              SpmvWorkspace<U, typename S::value_type, T>& ws, lindex_t offset,
                              lindex_t len) {
    RotationBuffers<typename S::value_type>& rb = ws.rot;
    for (std::size_t k = 0; k < rb.ids.size(); ++k) {
        const lindex_t v = rb.ids[k];
        rb.has[v >> 6] |= std::uint64_t(1) << (v & 63);
        rb.best[v] = rb.vals[k];
    }
    kernels::PullPiece<typename S::value_type> pc{offset, len, rb.done.data(), rb.has.data(),
                                                  rb.best.data()};
    const std::uint64_t entries = kernels::pull_piece<S>(
        view, ws.pull_rows, ws.xb, pc, [&](lindex_t j) { return L.input_global(j); },
        [&](const typename S::value_type& c) { return L.input_bound(gindex_t(c)); },
        ws.pull.policy);
    // The piece's candidates in output order; their marks are cleared.
    kernels::collect_candidates(rb.has.data(), rb.best.data(), len, rb.ids, rb.vals,
                                ws.pull.policy);
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
    for (int s = 0; s < q; ++s) {
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
