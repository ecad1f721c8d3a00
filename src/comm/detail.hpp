#pragma once
// Private machinery of the communication backends: the grow-only workspace, how payload bytes
// are counted, MPI helpers that throw CommError, the set-union / monoid merges, and the
// algorithms of the three backends as free functions (so that the automatic backend can call
// any of them per call).

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gridblas/comm/communicator.hpp"

namespace gridblas::comm::detail {

/// How bytes_raw is counted for forwarded blocks.
struct Payload {
    enum Kind { opaque, id_frame, pair_block };
    Kind kind = opaque;
    std::size_t value_size = 0;  ///< pair_block: bytes of one value
    /// Raw-format size of one block of `len` bytes at `p` (one id frame, or one id frame
    /// followed by its values).
    std::size_t raw(const char* p, std::size_t len) const;
};

/// Grow-only buffers reused by every call: capacities only grow, so steady-state calls do not
/// allocate. `f*` buffers belong to the front (Communicator), the others to the algorithms.
struct Workspace {
    // front (Communicator members)
    std::vector<char> fsend, frecv;
    std::vector<std::size_t> fsizes, frsizes;
    // composite algorithms (set union / reduce-scatter over an allgatherv / alltoallv)
    std::vector<char> csend, crecv;
    std::vector<std::size_t> csizes, crsizes;
    // merges
    std::vector<lindex_t> mrg_a, mrg_b;
    std::vector<std::size_t> runs;
    // algorithms

    std::vector<char> send, send2, recv, stage, fin;
    std::vector<std::vector<char>> keep;     // frames of earlier butterfly rounds
    std::vector<std::vector<char>> out, in;  // per partner of a round
    std::vector<std::size_t> sizes, offs, raw;
    std::vector<lindex_t> ids, ids2, ids3;
    std::vector<std::uint64_t> bits;
    std::vector<char> vals2, vals3;
    std::vector<MPI_Request> reqs;
    std::vector<int> icounts, idispls, icounts2, idispls2;
    std::vector<std::uint64_t> u64a, u64b;
    std::vector<std::span<const char>> frames;
    std::vector<std::vector<lindex_t>> cls_ids;  // reduce-scatter classes
    std::vector<std::vector<char>> cls_vals;
    std::vector<std::ptrdiff_t> cls_at;  // where a class still lies in the caller's arrays, or -1
    std::vector<char> vdec;              // the values of a received pair block, unpacked
};

/// What an algorithm needs: the communicator, buffers and the counters to charge.
struct Ctx {
    MPI_Comm comm;
    int rank;
    int size;
    Workspace& ws;
    Counters& c;
};

// ---- MPI helpers ---------------------------------------------------------------------------

/// Throws CommError naming `call` and MPI's error string unless rc == MPI_SUCCESS.
void check_mpi(int rc, const char* call);
/// Converts a byte count to an MPI int count, throwing CommError if it does not fit.
int to_int(std::size_t n, const char* call);
/// Starts sending `bytes` at `buf` to `dest` and charges one message of `wire` / `raw` bytes.
void post_send(Ctx& x, const void* buf, std::size_t bytes, std::size_t raw, int dest, int tag,
               MPI_Request* req);
/// Receives the next message from `source` with `tag`, whatever its size, into `buf`.
void recv_any(Ctx& x, int source, int tag, std::vector<char>& buf);
/// Waits for `n` requests.
void wait_all(std::vector<MPI_Request>& reqs);
/// ceil(log2 p).
int ceil_log2(int p);

// Message tags of the backends (the communicator is duplicated, so user tags do not mix).
inline constexpr int kTagAllgather = 100;  // + round
inline constexpr int kTagAlltoall = 200;   // + round
inline constexpr int kTagUnion = 300;      // + round
inline constexpr int kTagReduce = 400;     // + round
inline constexpr int kTagSendrecv = 90;
inline constexpr int kTagCalibrate = 91;

// ---- merges ------------------------------------------------------------------------------

/// Sets the bit of every id of `ids` in `bits` (which must reach past the largest).
inline void or_ids_into(std::span<const lindex_t> ids, std::uint64_t* bits) {
    for (const lindex_t id : ids) bits[id >> 6] |= std::uint64_t(1) << (id & 63);
}

/// out = sorted union of `base` and the ids of the id frames `frames`, every id below
/// `universe`. Dense inputs go through a bit array, sparse ones through pairwise merges of
/// the sorted runs. `out` must not alias `base`. With `bits` (bitmap_words(universe) words)
/// the union is ORed into it instead and `out` is left alone.
void union_frames(Workspace& ws, std::span<const lindex_t> base,
                  std::span<const std::span<const char>> frames, lindex_t universe,
                  std::vector<lindex_t>& out, std::uint64_t* bits = nullptr);

/// Merges the sorted pair list (b_ids, b_vals) into (ids, vals), combining equal ids.
void merge_pairs(Workspace& ws, std::vector<lindex_t>& ids, std::vector<char>& vals,
                 std::span<const lindex_t> b_ids, const char* b_vals, const PairCombiner& comb);

/// Merges the sorted pair lists (a_ids, a_vals) and (b_ids, b_vals) into (out_ids,
/// out_vals), combining equal ids; the outputs must not alias the inputs.
void merge_pairs_into(std::span<const lindex_t> a_ids, const char* a_vals,
                      std::span<const lindex_t> b_ids, const char* b_vals, const PairCombiner& comb,
                      std::vector<lindex_t>& out_ids, std::vector<char>& out_vals);

/// Combines the sorted pair runs held back to back in ws.mrg_a (ids) / ws.vals2 (values),
/// with boundaries ws.runs, in a pairwise merge tree: O(n log runs).
void merge_pair_runs(Workspace& ws, const PairCombiner& comb, std::vector<lindex_t>& out_ids,
                     std::vector<char>& out_vals);

/// Whether the values of pair blocks travel bit-packed: integers (comb.integer_values) on
/// any wire format but raw. Every rank of a communicator shares its wire format, so sender
/// and receiver agree.
inline bool packs_values(const PairCombiner& comb, WireFormat wire) {
    return comb.integer_values && wire != WireFormat::raw;
}

/// Encodes one pair block at the end of `out`: the id frame, then the values, raw or
/// bit-packed (packs_values).
void encode_pairs(std::span<const lindex_t> ids, const char* vals, const PairCombiner& comb,
                  WireFormat wire, std::vector<char>& out);
/// Decodes the pair block at the start of `in` (made by encode_pairs with the same comb and
/// wire), appending its ids to `ids`, and returns a pointer to its values, one per id
/// appended, raw: in the block itself, or in ws.vdec where they were packed. `used` gets the
/// block's size. Throws CommError on a malformed block.
const char* decode_pairs(std::span<const char> in, const PairCombiner& comb, WireFormat wire,
                         Workspace& ws, std::vector<lindex_t>& ids, std::size_t& used);

// ---- algorithms --------------------------------------------------------------------------
// allgatherv: recv = the pieces of ranks 0..p-1 back to back, recv_bytes[r] their sizes.
// alltoallv: send_bytes[r] bytes for rank r back to back in `send`; recv in source order.

void mpi_allgatherv(Ctx& x, const char* send, std::size_t bytes, const Payload& pl,
                    std::vector<char>& recv, std::vector<std::size_t>& recv_bytes);
void mpi_alltoallv(Ctx& x, const char* send, std::span<const std::size_t> send_bytes,
                   const Payload& pl, std::vector<char>& recv,
                   std::vector<std::size_t>& recv_bytes);

void ring_allgatherv(Ctx& x, const char* send, std::size_t bytes, const Payload& pl,
                     std::vector<char>& recv, std::vector<std::size_t>& recv_bytes);
void ring_alltoallv(Ctx& x, const char* send, std::span<const std::size_t> send_bytes,
                    const Payload& pl, std::vector<char>& recv,
                    std::vector<std::size_t>& recv_bytes);

void bfly_allgatherv(Ctx& x, int k, const char* send, std::size_t bytes, const Payload& pl,
                     std::vector<char>& recv, std::vector<std::size_t>& recv_bytes);
void bfly_alltoallv(Ctx& x, int k, const char* send, std::span<const std::size_t> send_bytes,
                    const Payload& pl, std::vector<char>& recv,
                    std::vector<std::size_t>& recv_bytes);
void bfly_union_ids(Ctx& x, int k, std::span<const lindex_t> mine, lindex_t universe,
                    WireFormat wire, std::vector<lindex_t>& result, std::uint64_t* bits);
void bfly_reduce_scatter(Ctx& x, int k, std::span<const lindex_t> ids, const char* values,
                         std::span<const std::size_t> counts, lindex_t universe, WireFormat wire,
                         const PairCombiner& comb, std::vector<lindex_t>& out_ids,
                         std::vector<char>& out_values);

/// Set union over an allgatherv flavour (mpi or ring): encode, gather the frames, merge.
using AllgatherFn = void (*)(Ctx&, const char*, std::size_t, const Payload&, std::vector<char>&,
                             std::vector<std::size_t>&);
/// With `bits` the union is ORed into it (union_frames) and `result` is left alone.
void gather_union_ids(Ctx& x, AllgatherFn gather, std::span<const lindex_t> mine, lindex_t universe,
                      WireFormat wire, std::vector<lindex_t>& result, std::uint64_t* bits);

/// Sparse reduce-scatter over an alltoallv flavour (mpi or ring): encode the blocks,
/// exchange, combine at the receiver.
using AlltoallFn = void (*)(Ctx&, const char*, std::span<const std::size_t>, const Payload&,
                            std::vector<char>&, std::vector<std::size_t>&);
void exchange_reduce_scatter(Ctx& x, AlltoallFn exchange, std::span<const lindex_t> ids,
                             const char* values, std::span<const std::size_t> counts,
                             lindex_t universe, WireFormat wire, const PairCombiner& comb,
                             std::vector<lindex_t>& out_ids, std::vector<char>& out_values);

// ---- butterfly schedule ------------------------------------------------------------------

/// Round i of a radix-k butterfly over p ranks has the stride s = k^i (rounds while s < p);
/// a rank sends bfly_partners(p, k, s) = #{ j in 1..k-1 : j * s < p } messages in it.
inline int bfly_partners(int p, int k, long stride) {
    const long j = (p - 1) / stride;  // largest j with j * stride < p
    return static_cast<int>(j < k - 1 ? j : k - 1);
}

/// Creates the backend object for opts.backend.
std::unique_ptr<Communicator> make_backend(MPI_Comm comm, const Options& opts);

}  // namespace gridblas::comm::detail
