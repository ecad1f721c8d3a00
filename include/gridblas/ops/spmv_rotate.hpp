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
/// bring each owner its piece's candidates (ascending_pull_contiguous), each candidate
/// crossing the wire once instead of riding along with its chunk (a BFS bottom-up level of
/// Kronecker scale 20 on 2 × 2: 0.91 MB on the wire instead of 1.73 MB).
/// Positional "any" takes that form on every fold, its blocks contiguous or not: every find
/// is final there. (Through the rotation, where each hop carries the piece's candidates so
/// far, the same level sent 2.4 MB, and a 2 × 2 search took 21.5 ms against 19.1 for "min"
/// in one pair of runs.)

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

/// Packs the piece's done bits (`piece_words` words; none for a finished piece going home,
/// whose owner has them) and candidates `ids` / `vals` into one message.
template <class S>
void encode_piece(RotationBuffers<typename S::value_type>& rb, std::size_t piece_words,
                  const std::vector<lindex_t>& ids, const std::vector<typename S::value_type>& vals,
                  comm::WireFormat wire) {
    using Y = typename S::value_type;
    rb.send.resize(piece_words * sizeof(std::uint64_t));
    if (piece_words != 0) std::memcpy(rb.send.data(), rb.done.data(), rb.send.size());
    comm::wire::encode(ids, wire, rb.send);
    if constexpr (semiring_is_positional<S>()) {
        if (wire != comm::WireFormat::raw) {
            // Global indices are non-negative: bit-packed at the width of the largest.
            rb.packed.assign(vals.begin(), vals.end());
            comm::wire::encode_values(rb.packed, rb.send);
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
template <class S>
void decode_piece(RotationBuffers<typename S::value_type>& rb, lindex_t piece_len,
                  std::size_t piece_words, comm::WireFormat wire, std::vector<lindex_t>& ids,
                  std::vector<typename S::value_type>& vals) {
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
    vals.resize(ids.size());
    if (!ids.empty()) std::memcpy(vals.data(), tail.data(), tail.size());
}

/// decode_piece() into rb.ids / rb.vals.
template <class S>
void decode_piece(RotationBuffers<typename S::value_type>& rb, lindex_t piece_len,
                  std::size_t piece_words, comm::WireFormat wire) {
    decode_piece<S>(rb, piece_len, piece_words, wire, rb.ids, rb.vals);
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
    kernels::PullPiece<typename S::value_type> pc{offset, len, rb.done.data(), rb.has.data(),
                                                  rb.best.data()};
    return kernels::pull_piece<S>(
        view, ws.pull_rows, ws.xb, pc, [&](lindex_t j) { return L.input_global(j); },
        [&](const typename S::value_type& c) { return L.input_bound(gindex_t(c)); },
        ws.pull.policy);
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
    const auto take_home = [&](int i, const std::vector<lindex_t>& ids,
                               const std::vector<Y>& vals) {
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
                                        lindex_t nb, std::size_t piece_words, const char* name) {
    using Y = typename S::value_type;
    RotationBuffers<Y>& rb = ws.rot;
    comm::Communicator& fold = *L.fold;
    const int q = fold.size();
    const int me = fold.rank();
    const comm::WireFormat wire = fold.options().wire;
    const AscendingChunks ch(nb, q, ws.ascending_chunk_outputs);
    gather_seeds(rb, fold, piece_words, name);

    // This rank's finds in each owner's piece, in ascending output order.
    rb.give_ids.resize(std::size_t(q));
    rb.give_vals.resize(std::size_t(q));
    for (int o = 0; o < q; ++o) {
        rb.give_ids[std::size_t(o)].clear();
        rb.give_vals[std::size_t(o)].clear();
    }
    std::uint64_t entries = 0;
    for (int s = 0; s < ch.total + q - 1; ++s) {
        const AscendingChunks::Step st = ch.step(s, me, q);
        const int i = st.i;
        if (st.scans) {
            const int owner = i / ch.m;
            const lindex_t at = ch.at(i);
            const lindex_t len = ch.len(i);
            if (me == 0) seed_chunk(rb, ch, i, piece_words);
            // No candidate comes with a chunk here: the scan starts from clear marks.
            kernels::PullPiece<Y> pc{lindex_t(gindex_t(owner) * nb) + at, len, rb.done.data(),
                                     rb.has.data(), rb.best.data()};
            entries += kernels::pull_piece<S>(
                view, ws.pull_rows, ws.xb, pc, [&](lindex_t j) { return L.input_global(j); },
                [&](const Y& c) { return L.input_bound(gindex_t(c)); }, ws.pull.policy);
            // The finds go on the owner's list and into the done bits (the later ranks skip
            // them), in one pass that also clears the marks.
            kernels::append_final_candidates(rb.has.data(), rb.best.data(), len, rb.done.data(), at,
                                             rb.give_ids[std::size_t(owner)],
                                             rb.give_vals[std::size_t(owner)]);
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

    // Every owner gathers its piece's candidates: its own, then each other rank's (each
    // list ascends, and no output is on two: a find is marked done). On short folds the
    // lists are merged as they come; each merge re-reads what the earlier ones built, about
    // q / 2 passes over the piece's finds in all, so longer folds mark them in has / best
    // and collect the piece once.
    constexpr int kMostMerged = 4;
    const bool merge = q <= kMostMerged;
    const auto mark = [&](const std::vector<lindex_t>& ids, const std::vector<Y>& vals) {
        for (std::size_t k = 0; k < ids.size(); ++k) {
            const lindex_t v = ids[k];
            rb.has[v >> 6] |= std::uint64_t(1) << (v & 63);
            rb.best[v] = vals[k];
        }
    };
    std::swap(rb.ids, rb.give_ids[std::size_t(me)]);
    std::swap(rb.vals, rb.give_vals[std::size_t(me)]);
    if (!merge) mark(rb.ids, rb.vals);
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
        if (!kernels::merge_disjoint_candidates(rb.ids, rb.vals, rb.in_ids, rb.in_vals, rb.home_ids,
                                                rb.home_vals)) {
            throw CommError("rotating pull: rank " + std::to_string(src) +
                            " sent candidates out of order or for an output found elsewhere");
        }
        std::swap(rb.ids, rb.home_ids);
        std::swap(rb.vals, rb.home_vals);
    }
    if (!merge) {
        kernels::collect_candidates(rb.has.data(), rb.best.data(), nb, rb.ids, rb.vals,
                                    ws.pull.policy);
    }
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
            entries = contiguous || semiring_has_terminal<S>()
                          ? ascending_pull_contiguous<S>(L, view, ws, nb, piece_words, name)
                          : ascending_pull<S>(L, view, ws, nb, piece_words, name);
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
