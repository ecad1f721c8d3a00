#pragma once
/// @file spmv_rotate_parts.hpp
/// @brief Parts of the rotating pull (spmv_rotate.hpp): the hand-over message of a piece or
/// chunk, one rank's scan of it on the CPU, and the chunks of the pipelined schedules.

#include <algorithm>
#include <bit>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/comm/wire.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/pull_piece.hpp"
#include "gridblas/ops/spmv_layout.hpp"
#include "gridblas/ops/spmv_workspace.hpp"
#include "gridblas/semirings/semiring.hpp"

namespace gridblas::detail {

/// Whether positional values of type Y go to and from the bit-packed codec as they lie in
/// memory (integers of 4 or 8 bytes), with no widened copy.
template <class Y>
constexpr bool packs_in_place() {
    return std::is_integral_v<Y> && (sizeof(Y) == 4 || sizeof(Y) == 8);
}

/// Packs the piece's done bits (`piece_words` words; none for a finished piece going home,
/// whose owner has them) and candidates `ids` / `vals` into one message.
template <class S>
void encode_piece(RotationBuffers<typename S::value_type>& rb, std::size_t piece_words,
                  std::span<const lindex_t> ids, std::span<const typename S::value_type> vals,
                  comm::WireFormat wire) {
    using Y = typename S::value_type;
    rb.send.resize(piece_words * sizeof(std::uint64_t));
    if (piece_words != 0) std::memcpy(rb.send.data(), rb.done.data(), rb.send.size());
    comm::wire::encode(ids, wire, rb.send);
    if constexpr (semiring_is_positional<S>()) {
        if (wire != comm::WireFormat::raw) {
            // Global indices are non-negative: bit-packed at the width of the largest.
            if constexpr (packs_in_place<Y>()) {
                comm::wire::encode_values(reinterpret_cast<const char*>(vals.data()), vals.size(),
                                          sizeof(Y), rb.send);
            } else {
                rb.packed.assign(vals.begin(), vals.end());
                comm::wire::encode_values(rb.packed, rb.send);
            }
            return;
        }
    }
    const std::size_t at = rb.send.size();
    rb.send.resize(at + vals.size() * sizeof(Y));
    if (!vals.empty()) std::memcpy(rb.send.data() + at, vals.data(), vals.size() * sizeof(Y));
}

/// encode_piece() of rb.ids / rb.vals.
template <class S>
void encode_piece(RotationBuffers<typename S::value_type>& rb, std::size_t piece_words,
                  comm::WireFormat wire) {
    encode_piece<S>(rb, piece_words, rb.ids, rb.vals, wire);
}

/// Unpacks a message made by encode_piece() with the same `piece_words`: the done bits into
/// rb.done, the candidates into `ids` / `vals`.
template <class S, class Vals>
void decode_piece(RotationBuffers<typename S::value_type>& rb, lindex_t piece_len,
                  std::size_t piece_words, comm::WireFormat wire, std::vector<lindex_t>& ids,
                  Vals& vals) {
    using Y = typename S::value_type;
    const std::size_t head = piece_words * sizeof(std::uint64_t);
    if (rb.recv.size() < head) {
        throw CommError("rotating pull: a hand-over message of " + std::to_string(rb.recv.size()) +
                        " bytes is shorter than its " + std::to_string(head) + "-byte bitmap");
    }
    if (head != 0) std::memcpy(rb.done.data(), rb.recv.data(), head);
    const std::span<const char> rest(rb.recv.data() + head, rb.recv.size() - head);
    ids.clear();
    const std::size_t used = comm::wire::decode(rest, ids);
    if (!ids.empty() && ids.back() >= piece_len) {
        throw CommError("rotating pull: a hand-over message names output " +
                        std::to_string(ids.back()) + " of a " + std::to_string(piece_len) +
                        "-output piece");
    }
    const std::span<const char> tail = rest.subspan(used);
    if constexpr (semiring_is_positional<S>()) {
        if (wire != comm::WireFormat::raw) {
            if constexpr (packs_in_place<Y>()) {
                // (A value count other than the ids' throws CommError from the codec.)
                kernels::detail::resize_to_overwrite(vals, ids.size());
                comm::wire::decode_values(tail, ids.size(), sizeof(Y),
                                          reinterpret_cast<char*>(vals.data()));
                return;
            }
            rb.packed.clear();
            comm::wire::decode_values(tail, rb.packed);
            vals.assign(rb.packed.begin(), rb.packed.end());
            if (vals.size() != ids.size()) {
                throw CommError("rotating pull: a hand-over message lists " +
                                std::to_string(ids.size()) + " outputs but " +
                                std::to_string(vals.size()) + " values");
            }
            return;
        }
    }
    if (tail.size() != ids.size() * sizeof(Y)) {
        throw CommError("rotating pull: a hand-over message lists " + std::to_string(ids.size()) +
                        " outputs but holds " + std::to_string(tail.size()) + " bytes of values");
    }
    kernels::detail::resize_to_overwrite(vals, ids.size());
    if (!ids.empty()) std::memcpy(vals.data(), tail.data(), tail.size());
}

/// decode_piece() into rb.ids / rb.vals.
template <class S>
void decode_piece(RotationBuffers<typename S::value_type>& rb, lindex_t piece_len,
                  std::size_t piece_words, comm::WireFormat wire) {
    decode_piece<S>(rb, piece_len, piece_words, wire, rb.ids, rb.vals);
}

/// This rank's CPU scan of the `len` outputs at `offset` with the done bits in rb.done: every
/// candidate found is marked in rb.has / rb.best (which may hold earlier ones). Returns the
/// entries read.
template <class S, class U, class T>
std::uint64_t scan_chunk_cpu(const SpmvLayout<T>& L, const kernels::CompressedView<T>& view,
                             SpmvWorkspace<U, typename S::value_type, T>& ws, lindex_t offset,
                             lindex_t len) {
    RotationBuffers<typename S::value_type>& rb = ws.rot;
    kernels::PullPiece<typename S::value_type> pc{offset, len, rb.done.data(), rb.has.data(),
                                                  rb.best.data()};
    return kernels::pull_piece<S>(
        view, ws.pull_rows, ws.xb, pc, [&](lindex_t j) { return L.input_global(j); },
        [&](const typename S::value_type& c) { return L.input_bound(gindex_t(c)); },
        ws.pull.policy);
}

/// The CPU scan of one step: the candidates of earlier ranks (rb.ids / rb.vals) are marked
/// in rb.has / rb.best and merged with this rank's scan of the piece at `offset`, which
/// leaves every candidate of the piece marked there. Returns the entries read.
template <class S, class U, class T>
std::uint64_t scan_piece_cpu(const SpmvLayout<T>& L, const kernels::CompressedView<T>& view,
                             SpmvWorkspace<U, typename S::value_type, T>& ws, lindex_t offset,
                             lindex_t len) {
    RotationBuffers<typename S::value_type>& rb = ws.rot;
    for (std::size_t k = 0; k < rb.ids.size(); ++k) {
        const lindex_t v = rb.ids[k];
        rb.has[v >> 6] |= std::uint64_t(1) << (v & 63);
        rb.best[v] = rb.vals[k];
    }
    return scan_chunk_cpu<S>(L, view, ws, offset, len);
}

/// One step on the CPU: scan_piece_cpu(), then rb.ids / rb.vals list every candidate of
/// the piece (in output order; their marks are cleared). Returns the entries read.
template <class S, class U, class T>
std::uint64_t rotate_step_cpu(const SpmvLayout<T>& L, const kernels::CompressedView<T>& view,
                              SpmvWorkspace<U, typename S::value_type, T>& ws, lindex_t offset,
                              lindex_t len) {
    RotationBuffers<typename S::value_type>& rb = ws.rot;
    const std::uint64_t entries = scan_piece_cpu<S>(L, view, ws, offset, len);
    kernels::collect_candidates(rb.has.data(), rb.best.data(), len, rb.ids, rb.vals,
                                ws.pull.policy);
    return entries;
}

/// Outputs per chunk of the ascending schedule for pieces of `nb` outputs on a fold of q
/// ranks: `requested` rounded up to a multiple of 64 (chunks start at words of the done
/// bits), or where that is 0 about 16 K outputs, in at most max(8, 64 / q) chunks per piece;
/// never more than 4096 chunks per piece.
/// A piece in m chunks passes through the fold in m·q + q - 1 steps instead of m·q, so m of
/// 8 or more keeps the steps in which the first and last ranks wait to an eighth or less.
inline lindex_t ascending_chunk(lindex_t nb, int q, lindex_t requested) {
    const std::uint64_t n = nb;
    std::uint64_t per = requested;
    if (per == 0) {
        const std::uint64_t most = std::max<std::uint64_t>(8, 64 / std::uint64_t(q));
        const std::uint64_t m = std::clamp<std::uint64_t>(n / 16384, 1, most);
        per = (n + m - 1) / m;
    }
    per = std::max<std::uint64_t>(per, (n + 4095) / 4096);  // (the steps are counted in int)
    per = std::max<std::uint64_t>(64, (per + 63) / 64 * 64);
    return lindex_t(std::min<std::uint64_t>(per, std::uint64_t(~lindex_t(0)) / 64 * 64));
}

/// The chunks of the ascending schedules: m per piece of `nb` outputs (ascending_chunk()),
/// m·q in all, piece-major: chunk i is part i % m of fold rank i / m's piece.
struct AscendingChunks {
    lindex_t nb = 0;
    lindex_t chunk = 0;  ///< outputs per chunk (the last of a piece may be shorter)
    int m = 1;
    int total = 1;
    AscendingChunks(lindex_t nb_, int q, lindex_t requested)
        : nb(nb_), chunk(ascending_chunk(nb_, q, requested)) {
        m = nb == 0 ? 1 : int((std::uint64_t(nb) + chunk - 1) / chunk);
        total = m * q;
    }
    /// Where chunk i starts in its piece, and its length.
    lindex_t at(int i) const { return lindex_t(i % m) * chunk; }
    lindex_t len(int i) const { return std::min(chunk, nb - at(i)); }
    std::size_t words(int i) const { return bitmap_words(len(i)); }  ///< of its done bits

    /// Rank `me`'s part in step s on a fold of q ranks: chunk i = s - me, which it scans
    /// when `scans` and hands on to `to`; chunk `next`, which it receives for step s + 1
    /// from `from` (MPI_PROC_NULL: none).
    struct Step {
        int i = 0;
        bool scans = false;
        int to = MPI_PROC_NULL;
        int next = 0;
        int from = MPI_PROC_NULL;
    };
    Step step(int s, int me, int q) const {
        Step st;
        st.i = s - me;
        st.scans = st.i >= 0 && st.i < total;
        st.to = st.scans && me + 1 < q ? me + 1 : MPI_PROC_NULL;
        st.next = s + 1 - me;
        st.from = me > 0 && st.next >= 0 && st.next < total ? me - 1 : MPI_PROC_NULL;
        return st;
    }
};

/// Rank 0 of an ascending schedule starts chunk i: rb.done takes its owner's done bits from
/// rb.seeds (gather_seeds()).
template <class Y>
void seed_chunk(RotationBuffers<Y>& rb, const AscendingChunks& ch, int i, std::size_t piece_words) {
    if (ch.words(i) == 0) return;
    std::memcpy(rb.done.data(),
                rb.seeds.data() + std::size_t(i / ch.m) * piece_words + ch.at(i) / 64,
                ch.words(i) * sizeof(std::uint64_t));
}

/// The ascending schedules start every chunk at rank 0 of the fold, so it first takes each
/// owner's done bits (the mask) into rb.seeds, piece after piece. Collective over `fold`.
template <class Y>
void gather_seeds(RotationBuffers<Y>& rb, comm::Communicator& fold, std::size_t piece_words,
                  const char* name) {
    const std::size_t piece_bytes = piece_words * sizeof(std::uint64_t);
    if (fold.rank() == 0) {
        rb.seeds.resize(std::size_t(fold.size()) * piece_words);
        if (piece_words != 0) std::memcpy(rb.seeds.data(), rb.done.data(), piece_bytes);
        for (int g = 1; g < fold.size(); ++g) {
            fold.sendrecv_compressed({}, 0, MPI_PROC_NULL, rb.recv, g, name);
            if (rb.recv.size() != piece_bytes) {
                throw CommError("rotating pull: rank " + std::to_string(g) + " sent " +
                                std::to_string(rb.recv.size()) + " bytes of done bits for a " +
                                std::to_string(piece_bytes) + "-byte piece");
            }
            if (piece_words != 0) {
                std::memcpy(rb.seeds.data() + std::size_t(g) * piece_words, rb.recv.data(),
                            piece_bytes);
            }
        }
    } else {
        rb.send.resize(piece_bytes);
        if (piece_words != 0) std::memcpy(rb.send.data(), rb.done.data(), piece_bytes);
        fold.sendrecv_compressed(rb.send, piece_bytes, 0, rb.recv, MPI_PROC_NULL, name);
    }
}

}  // namespace gridblas::detail
