#pragma once
/// @file communicator.hpp
/// @brief The communication backend: one object per MPI communicator (world, grid row, grid
/// column) through which every exchange of gridblas goes. Algorithms never call MPI directly.
///
/// A Communicator has a typed front (templates below) over a small type-erased back made of
/// byte-level virtual functions that each backend implements: `mpi` (MPI collectives),
/// `butterfly` (radix-k recursive doubling / halving, any rank count, merging set-union
/// payloads at intermediate hops) and `ring` (pairwise exchange, the baseline). Id sets can
/// travel in one of several wire formats (raw 32-bit ids, delta + bit-packed, bitmap; see
/// wire.hpp); the `automatic` choices pick backend and wire format per call from message
/// sizes and an alpha-beta cost model. Every call is counted per call site (messages, bytes
/// on the wire, bytes before compression, time).
///
/// **Butterfly for any rank count.** Round i (i = 0 .. ceil(log_k p) - 1) uses the stride
/// s = k^i; rank r talks to the ranks r +- j*s (mod p) for j = 1 .. k-1 with j*s < p. For
/// p = k^d this is d rounds of k-1 messages per rank, the radix-k butterfly of Green 2021; for
/// other p the same cyclic partners (as in Bruck et al. 1997) keep every rank at <= k-1 messages
/// sent and received per round, so there is no hot-spot rank (every rank sends the same number of
/// messages). Allgathers send only what the partner lacks in the last round; set unions merge
/// and de-duplicate at every hop (and in the last round send a partner only the union of the
/// ranks it lacks); personalised exchanges route each block along the base-k digits of
/// (destination - source) mod p, and reduce-scatters combine blocks bound for the same rank
/// at every intermediate hop. allreduce and broadcast always use MPI's collectives.
///
/// **Buffers.** Every backend works in grow-only buffers owned by the communicator: once they
/// have grown to the largest message seen, calls allocate nothing (beyond growing the output
/// vectors the caller passes in).
///
/// **Counters.** `messages` and `bytes_wire` count what this rank sent. For the calls that
/// the `mpi` backend hands to an MPI collective (and for allreduce / broadcast, which every
/// backend hands to MPI) they count what the textbook algorithm would send from this rank:
/// p-1 pieces for an allgather, one message per non-empty block for an alltoall,
/// ceil(log2 p) for an allreduce, the binomial-tree children for a broadcast. The size
/// pre-exchange of the mpi backend and the agreement allreduce of the automatic policy are not
/// counted. `bytes_raw` is what the same messages would take with every id list in the raw
/// format (for opaque payloads, the same as bytes_wire).
///
/// All calls are collective over the communicator and must be made in the same order on all
/// ranks. Argument errors are detected before any communication; they are raised on every
/// rank when the bad argument is the same on every rank.

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/comm/pair_merge.hpp"
#include "gridblas/comm/wire.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/core/types.hpp"

namespace gridblas::comm {

/// Which algorithm carries the collectives.
enum class Backend { mpi, butterfly, ring, automatic };
/// Wall-clock seconds of the communication layer's clock (MPI_Wtime), for algorithms that
/// time their phases without calling MPI themselves.
double wtime();

/// Element-wise reduction operators for allreduce.
enum class ReduceOp { sum, min, max, lor, land };
/// Kinds of exchange the automatic policy and the cost model distinguish.
enum class Collective { allgather, allgather_ids, alltoall, reduce_scatter };

/// Name of a backend / wire format ("mpi", "butterfly", "ring", "auto"; "raw", "delta",
/// "bitmap", "auto") and the reverse; parse_* throw InvalidValue naming the bad string.
std::string to_string(Backend b);
std::string to_string(WireFormat w);
Backend parse_backend(const std::string& s);
WireFormat parse_wire_format(const std::string& s);

/// Counters of one call site (or of a whole communicator).
struct Counters {
    std::uint64_t calls = 0;       ///< collective calls made
    std::uint64_t messages = 0;    ///< point-to-point messages this rank sent
    std::uint64_t bytes_wire = 0;  ///< bytes this rank sent, as encoded on the wire
    std::uint64_t bytes_raw = 0;   ///< bytes the same messages take with raw id lists
    double seconds = 0.0;          ///< wall time spent inside the calls
    Counters& operator+=(const Counters& o);
};

/// Construction options of a communicator.
struct Options {
    /// Algorithm of the collectives. `automatic` agrees per call on the largest contribution
    /// of any rank (one extra MPI_Allreduce of a word) and runs the backend with the smallest
    /// predicted time (pick_backend).
    Backend backend = Backend::automatic;
    /// Encoding of id lists. A concrete format is used for every message (a forced bitmap of
    /// a sparse set spanning a huge id range is as large as that range); `automatic` takes the
    /// smallest frame for each message from its exact sizes (wire::frame_sizes).
    WireFormat wire = WireFormat::automatic;
    int fanout = 2;           ///< radix k of the butterfly (>= 2)
    double alpha_s = 2.0e-6;  ///< latency per message, seconds (alpha-beta model)
    double beta_s = 1.0e-10;  ///< seconds per byte (alpha-beta model)
};

namespace detail {
struct Workspace;
struct Payload;
/// Type-erased monoid of reduce_scatter_pairs for values of `value_size` bytes (0 for empty
/// value types: nothing is sent or combined). `merge(ctx, x, xv, nx, y, yv, ny, o, ov)` merges
/// two ascending runs of pairs, adding the values of equal ids, and returns the length written
/// (merge_pair_runs_typed, instantiated for the value type and the add). `integer_values`:
/// the values are integers of 4 or 8 bytes, which travel bit-packed (wire::encode_values)
/// unless the wire format is raw.
struct PairCombiner {
    std::size_t value_size = 0;
    bool integer_values = false;
    std::size_t (*merge)(const void* ctx, const lindex_t* x, const char* xv, std::size_t nx,
                         const lindex_t* y, const char* yv, std::size_t ny, lindex_t* o,
                         char* ov) = nullptr;
    const void* ctx = nullptr;
};
}  // namespace detail

/// Map from call site to its counters (heterogeneous lookup: no allocation per call).
using CounterMap = std::map<std::string, Counters, std::less<>>;

/// One communicator with a communication backend and its counters.
class Communicator {
public:
    /// Wraps `comm` (duplicated; the duplicate is freed with this object). Collective.
    /// Throws InvalidValue if opts.fanout < 2 or alpha/beta are negative (before any
    /// communication), CommError if MPI fails.
    static std::unique_ptr<Communicator> create(MPI_Comm comm, const Options& opts = {});
    virtual ~Communicator();
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    MPI_Comm native() const { return comm_; }
    const Options& options() const { return opts_; }

    /// Measures alpha (one-way latency of a small ping-pong between ranks 0 and 1, and of a
    /// small allgather divided by its ceil(log2 p) rounds; the larger) and beta (from a 1 MiB
    /// ping-pong) and stores them in the options used by the automatic policy. Every rank gets
    /// the same values. With one rank nothing is measured. Collective; takes a few ms.
    void calibrate();

    // ---- typed collectives (T trivially copyable) --------------------------------------

    /// Concatenates every rank's `send` in rank order into `recv`; `recv_counts[r]` is the
    /// element count from rank r. Pieces may be empty.
    template <class T>
    void allgatherv(std::span<const T> send, std::vector<T>& recv, std::vector<int>& recv_counts,
                    const char* site);

    /// Personalised exchange: `send` holds the blocks for ranks 0..p-1 back to back,
    /// `send_counts[r]` elements each. On return `recv` holds the blocks received, in source
    /// rank order, `recv_counts[r]` elements from rank r. Throws InvalidValue if
    /// send_counts.size() != size(), a count is negative or the counts do not sum to
    /// send.size().
    template <class T>
    void alltoallv(std::span<const T> send, std::span<const int> send_counts, std::vector<T>& recv,
                   std::vector<int>& recv_counts, const char* site);

    /// Sends `send` to rank `dest` and receives from rank `source` into `recv` (resized to
    /// what arrived). Either may be MPI_PROC_NULL. Throws IndexOutOfBounds for other ranks
    /// outside [0, size()).
    template <class T>
    void sendrecv(std::span<const T> send, int dest, std::vector<T>& recv, int source,
                  const char* site);

    /// sendrecv of a message the caller has already compressed (for example with the codecs
    /// of wire.hpp): the counters book send.size() bytes on the wire and `raw_bytes`, what
    /// the same content would have taken uncompressed, as bytes before compression.
    void sendrecv_compressed(std::span<const char> send, std::size_t raw_bytes, int dest,
                             std::vector<char>& recv, int source, const char* site);

    /// Element-wise reduction of `inout` (arithmetic T) over all ranks; every rank gets the
    /// result. lor / land need an integral or bool T, sum / min / max a non-bool T
    /// (InvalidValue otherwise).
    template <class T>
    void allreduce(std::span<T> inout, ReduceOp op, const char* site);

    /// Scalar allreduce.
    template <class T>
    T allreduce(T value, ReduceOp op, const char* site) {
        allreduce(std::span<T>(&value, 1), op, site);
        return value;
    }

    /// Copies `data` from `root` to every rank (sizes must agree on all ranks). Throws
    /// IndexOutOfBounds if root is not a rank of this communicator.
    template <class T>
    void broadcast(std::span<T> data, int root, const char* site);

    /// Sparse reduce-scatter with a monoid: a fold that combines partial results on their
    /// way to the owner (gridblas-comm-bench times it as `fold`). vxm / mxv do not call it:
    /// their fold sends every (index, value) pair to its owner with alltoallv and combines
    /// with the semiring's add there (include/gridblas/ops/spmv.hpp), which is what the
    /// butterfly's in-transit combination would save bytes on when many ranks hit the same
    /// ids.
    ///
    /// `ids` / `values` hold, for each destination rank r in turn, `send_counts[r]` pairs
    /// (id, value) with strictly increasing ids below `universe` (ids are local to the
    /// destination's piece; `universe` bounds every piece). On return `out_ids` is the sorted
    /// union of the ids sent to this rank by every rank (itself included) and `out_values[i]`
    /// the `add`-combination of all values sent for `out_ids[i]`. `add(V a, V b) -> V` must be
    /// associative and commutative: backends combine in different orders (the butterfly
    /// combines blocks bound for the same rank at every intermediate hop, so each id crosses
    /// each link at most once per round), so floating-point sums may differ in the last bits
    /// between backends. Ids travel in the communicator's wire format; integer values of 4 or
    /// 8 bytes bit-packed at the width of each block's largest (raw on the raw format), other
    /// values raw; an empty V (e.g. Pattern) sends ids only. Throws InvalidValue (bad counts,
    /// values.size() != ids.size(), unsorted ids) or IndexOutOfBounds (id >= universe) before
    /// communicating.
    template <class V, class Add>
    void reduce_scatter_pairs(std::span<const lindex_t> ids, std::span<const V> values,
                              std::span<const int> send_counts, lindex_t universe, Add add,
                              std::vector<lindex_t>& out_ids, std::vector<V>& out_values,
                              const char* site);

    // ---- id sets (frontiers), compressed on the wire ------------------------------------

    /// Set-union allgather. Each rank gives sorted, unique ids below `universe`; every rank
    /// gets the sorted union in `result`. With the butterfly backend duplicates are merged at
    /// every hop, so no id crosses a link twice in a round. Throws InvalidValue (unsorted /
    /// duplicate ids) or IndexOutOfBounds (id >= universe) before communicating.
    void allgather_ids(std::span<const lindex_t> mine, lindex_t universe,
                       std::vector<lindex_t>& result, const char* site);

    /// allgather_ids() with the union delivered as a bitmap: the bit of every id of every
    /// rank is set in `bits` (ORed in: bits already set stay set), for a consumer that wants
    /// a bitmap (the bottom-up BFS step) and would otherwise rebuild it from the id list.
    /// `bits` must hold at least (universe + 63) / 64 words (InvalidValue otherwise, before
    /// communicating). Same errors as allgather_ids.
    void allgather_bits(std::span<const lindex_t> mine, lindex_t universe,
                        std::span<std::uint64_t> bits, const char* site);

    /// Personalised id exchange: `send` holds, for each destination r in turn,
    /// `send_counts[r]` sorted unique ids below `universe`. `recv` gets the lists received in
    /// source order, `recv_counts[r]` ids from rank r. Same errors as alltoallv and
    /// allgather_ids.
    void alltoall_ids(std::span<const lindex_t> send, std::span<const int> send_counts,
                      lindex_t universe, std::vector<lindex_t>& recv, std::vector<int>& recv_counts,
                      const char* site);

    /// Wire format the automatic policy would expect to be smallest for `count` ids spread
    /// uniformly below `universe` (an estimate; the encoder itself picks per message from the
    /// exact sizes of the data).
    WireFormat pick_wire(std::size_t count, lindex_t universe) const;

    // ---- automatic backend choice (alpha-beta model) ----------------------------------

    /// Modelled seconds of `op` on backend `b` (not automatic) when the largest contribution
    /// of any rank is `max_bytes` (its piece for allgathers, everything it sends for
    /// alltoalls); `universe` bounds the merged sets of allgather_ids. No communication.
    double predict_seconds(Backend b, Collective op, std::size_t max_bytes,
                           lindex_t universe = 0) const;
    /// The backend with the smallest predicted time (ties: mpi, butterfly, ring).
    Backend pick_backend(Collective op, std::size_t max_bytes, lindex_t universe = 0) const;
    /// The backend that carried the latest collective of this object.
    Backend last_backend() const { return last_backend_; }

    // ---- counters ------------------------------------------------------------------------

    /// Counters per call site (the `site` strings given to the calls).
    const CounterMap& counters() const { return counters_; }
    /// Sum over all call sites.
    Counters total() const;
    void reset_counters() { counters_.clear(); }

protected:
    Communicator(MPI_Comm comm, const Options& opts);

    // Non-virtual fronts of the templates: argument checks, timing, counters. Results are
    // left in scratch_ (bytes) where the template copies them out.
    void allgatherv_front(const void* send, std::size_t bytes, std::size_t elem,
                          std::vector<int>& recv_counts, const char* site);
    void alltoallv_front(const void* send, std::size_t elems, std::span<const int> send_counts,
                         std::size_t elem, std::vector<int>& recv_counts, const char* site);
    void sendrecv_front(const void* send, std::size_t bytes, std::size_t raw, int dest, int source,
                        const char* site);
    void allreduce_front(void* inout, std::size_t count, std::size_t elem, MPI_Datatype type,
                         ReduceOp op, const char* site);
    void broadcast_front(void* data, std::size_t bytes, int root, const char* site);
    void reduce_scatter_front(std::span<const lindex_t> ids, const void* values,
                              std::size_t nvalues, std::span<const int> send_counts,
                              lindex_t universe, const detail::PairCombiner& comb,
                              std::vector<lindex_t>& out_ids, const char* site);

    // Byte-level back, implemented per backend. Counts are in bytes; `payload` says how to
    // count bytes_raw of what is forwarded.
    virtual void allgatherv_bytes(const void* send, std::size_t bytes, std::vector<char>& recv,
                                  std::vector<std::size_t>& recv_bytes,
                                  const detail::Payload& payload, Counters& c) = 0;
    virtual void alltoallv_bytes(const void* send, std::span<const std::size_t> send_bytes,
                                 std::vector<char>& recv, std::vector<std::size_t>& recv_bytes,
                                 const detail::Payload& payload, Counters& c) = 0;
    /// The union into `result`, or with `bits` ORed into that bitmap (result untouched).
    virtual void union_ids(std::span<const lindex_t> mine, lindex_t universe, WireFormat wire,
                           std::vector<lindex_t>& result, std::uint64_t* bits, Counters& c) = 0;
    virtual void reduce_scatter_bytes(std::span<const lindex_t> ids, const char* values,
                                      std::span<const std::size_t> counts, lindex_t universe,
                                      WireFormat wire, const detail::PairCombiner& comb,
                                      std::vector<lindex_t>& out_ids, std::vector<char>& out_values,
                                      Counters& c) = 0;

    Counters& counter_for(const char* site);

    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0;
    int size_ = 1;
    Options opts_;
    Backend last_backend_ = Backend::mpi;
    CounterMap counters_;
    std::vector<char> scratch_;              ///< reused result buffer of the typed front
    std::unique_ptr<detail::Workspace> ws_;  ///< grow-only buffers of the backends
};

/// MPI datatype of an arithmetic type (compile-time error for others).
template <class T>
MPI_Datatype mpi_type() {
    using U = std::remove_cv_t<T>;
    static_assert(std::is_arithmetic_v<U>, "mpi_type<T>: T must be an arithmetic type");
    if constexpr (std::is_same_v<U, bool>)
        return MPI_CXX_BOOL;
    else if constexpr (std::is_same_v<U, char>)
        return MPI_CHAR;
    else if constexpr (std::is_same_v<U, signed char>)
        return MPI_SIGNED_CHAR;
    else if constexpr (std::is_same_v<U, unsigned char>)
        return MPI_UNSIGNED_CHAR;
    else if constexpr (std::is_same_v<U, float>)
        return MPI_FLOAT;
    else if constexpr (std::is_same_v<U, double>)
        return MPI_DOUBLE;
    else if constexpr (std::is_same_v<U, long double>)
        return MPI_LONG_DOUBLE;
    else if constexpr (std::is_signed_v<U>) {
        if constexpr (sizeof(U) == 1)
            return MPI_INT8_T;
        else if constexpr (sizeof(U) == 2)
            return MPI_INT16_T;
        else if constexpr (sizeof(U) == 4)
            return MPI_INT32_T;
        else
            return MPI_INT64_T;
    } else {
        if constexpr (sizeof(U) == 1)
            return MPI_UINT8_T;
        else if constexpr (sizeof(U) == 2)
            return MPI_UINT16_T;
        else if constexpr (sizeof(U) == 4)
            return MPI_UINT32_T;
        else
            return MPI_UINT64_T;
    }
}

// ---- template definitions ----------------------------------------------------------------

template <class T>
void Communicator::allgatherv(std::span<const T> send, std::vector<T>& recv,
                              std::vector<int>& recv_counts, const char* site) {
    static_assert(std::is_trivially_copyable_v<T>, "allgatherv: T must be trivially copyable");
    allgatherv_front(send.data(), send.size_bytes(), sizeof(T), recv_counts, site);
    recv.resize(scratch_.size() / sizeof(T));
    if (!scratch_.empty()) std::memcpy(recv.data(), scratch_.data(), scratch_.size());
}

template <class T>
void Communicator::alltoallv(std::span<const T> send, std::span<const int> send_counts,
                             std::vector<T>& recv, std::vector<int>& recv_counts,
                             const char* site) {
    static_assert(std::is_trivially_copyable_v<T>, "alltoallv: T must be trivially copyable");
    alltoallv_front(send.data(), send.size(), send_counts, sizeof(T), recv_counts, site);
    recv.resize(scratch_.size() / sizeof(T));
    if (!scratch_.empty()) std::memcpy(recv.data(), scratch_.data(), scratch_.size());
}

template <class T>
void Communicator::sendrecv(std::span<const T> send, int dest, std::vector<T>& recv, int source,
                            const char* site) {
    static_assert(std::is_trivially_copyable_v<T>, "sendrecv: T must be trivially copyable");
    sendrecv_front(send.data(), send.size_bytes(), send.size_bytes(), dest, source, site);
    if (scratch_.size() % sizeof(T) != 0) {
        throw CommError("sendrecv: received " + std::to_string(scratch_.size()) +
                        " bytes, not a whole number of elements of size " +
                        std::to_string(sizeof(T)));
    }
    recv.resize(scratch_.size() / sizeof(T));
    if (!scratch_.empty()) std::memcpy(recv.data(), scratch_.data(), scratch_.size());
}

template <class T>
void Communicator::allreduce(std::span<T> inout, ReduceOp op, const char* site) {
    static_assert(std::is_arithmetic_v<T>, "allreduce: T must be an arithmetic type");
    const bool logical = op == ReduceOp::lor || op == ReduceOp::land;
    if constexpr (std::is_floating_point_v<T>) {
        if (logical) throw InvalidValue("allreduce: lor / land need an integral or bool type");
    }
    if constexpr (std::is_same_v<T, bool>) {
        if (!logical) throw InvalidValue("allreduce: bool values take only lor / land");
    }
    allreduce_front(inout.data(), inout.size(), sizeof(T), mpi_type<T>(), op, site);
}

template <class T>
void Communicator::broadcast(std::span<T> data, int root, const char* site) {
    static_assert(std::is_trivially_copyable_v<T>, "broadcast: T must be trivially copyable");
    broadcast_front(data.data(), data.size_bytes(), root, site);
}

template <class V, class Add>
void Communicator::reduce_scatter_pairs(std::span<const lindex_t> ids, std::span<const V> values,
                                        std::span<const int> send_counts, lindex_t universe,
                                        Add add, std::vector<lindex_t>& out_ids,
                                        std::vector<V>& out_values, const char* site) {
    static_assert(std::is_trivially_copyable_v<V>,
                  "reduce_scatter_pairs: V must be trivially copyable");
    detail::PairCombiner comb;
    if constexpr (!std::is_empty_v<V>) {
        comb.value_size = sizeof(V);
        comb.integer_values = std::is_integral_v<V> && (sizeof(V) == 4 || sizeof(V) == 8);
        comb.merge = [](const void* ctx, const lindex_t* x, const char* xv, std::size_t nx,
                        const lindex_t* y, const char* yv, std::size_t ny, lindex_t* o, char* ov) {
            return detail::merge_pair_runs_typed<V>(*static_cast<const Add*>(ctx), x, xv, nx, y, yv,
                                                    ny, o, ov);
        };
        comb.ctx = &add;
    }
    reduce_scatter_front(ids, values.data(), values.size(), send_counts, universe, comb, out_ids,
                         site);
    out_values.resize(out_ids.size());
    if constexpr (!std::is_empty_v<V>) {
        if (!out_ids.empty()) std::memcpy(out_values.data(), scratch_.data(), scratch_.size());
    }
}

}  // namespace gridblas::comm
