#pragma once
/// @file communicator.hpp
/// @brief The communication backend: one object per MPI communicator (world, grid row, grid
/// column) through which every exchange of gridblas goes. Algorithms never call MPI directly.
///
/// A Communicator has a typed front (templates below) over a small type-erased back made of
/// byte-level virtual functions that each backend implements: `mpi` (MPI collectives),
/// `butterfly` (radix-k recursive doubling / halving, any rank count, merging set-union
/// payloads at intermediate hops) and `ring` (pairwise exchange, the baseline). Id sets can
/// travel in one of several wire formats (raw 32-bit ids, delta + bit-packed, bitmap); the
/// `automatic` choices pick backend and wire format per call from message sizes and an
/// alpha-beta cost model. Every call is counted per call site (messages, bytes on the wire,
/// bytes before compression, time).

#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/core/types.hpp"

namespace gridblas::comm {

/// Which algorithm carries the collectives.
enum class Backend { mpi, butterfly, ring, automatic };
/// How an id set is encoded on the wire.
enum class WireFormat { raw, delta, bitmap, automatic };
/// Element-wise reduction operators for allreduce.
enum class ReduceOp { sum, min, max, lor, land };

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
    std::uint64_t bytes_raw = 0;   ///< bytes the same payload takes uncompressed
    double seconds = 0.0;          ///< wall time spent inside the calls
    Counters& operator+=(const Counters& o);
};

/// Construction options of a communicator.
struct Options {
    Backend backend = Backend::automatic;
    WireFormat wire = WireFormat::automatic;
    int fanout = 2;             ///< radix k of the butterfly (>= 2)
    double alpha_s = 2.0e-6;    ///< latency per message, seconds (alpha-beta model)
    double beta_s = 1.0e-10;    ///< seconds per byte (alpha-beta model)
};

/// One communicator with a communication backend and its counters.
class Communicator {
public:
    /// Wraps `comm` (duplicated; the duplicate is freed with this object). Collective.
    static std::unique_ptr<Communicator> create(MPI_Comm comm, const Options& opts = {});
    virtual ~Communicator();

    int rank() const { return rank_; }
    int size() const { return size_; }
    MPI_Comm native() const { return comm_; }
    const Options& options() const { return opts_; }

    /// Measures alpha and beta with a short ping-pong / allgather run and stores them in the
    /// options used by the automatic policy. Collective.
    void calibrate();

    // ---- typed collectives (T trivially copyable) --------------------------------------

    /// Concatenates every rank's `send` in rank order into `recv`; `recv_counts[r]` is the
    /// element count from rank r. Pieces may be empty.
    template <class T>
    void allgatherv(std::span<const T> send, std::vector<T>& recv, std::vector<int>& recv_counts,
                    const char* site);

    /// Personalised exchange: `send` holds the blocks for ranks 0..p-1 back to back,
    /// `send_counts[r]` elements each. On return `recv` holds the blocks received, in source
    /// rank order, `recv_counts[r]` elements from rank r.
    template <class T>
    void alltoallv(std::span<const T> send, std::span<const int> send_counts, std::vector<T>& recv,
                   std::vector<int>& recv_counts, const char* site);

    /// Sends `send` to rank `dest` and receives from rank `source` into `recv` (resized).
    template <class T>
    void sendrecv(std::span<const T> send, int dest, std::vector<T>& recv, int source,
                  const char* site);

    /// Element-wise reduction of `inout` over all ranks; every rank gets the result.
    template <class T>
    void allreduce(std::span<T> inout, ReduceOp op, const char* site);

    /// Scalar allreduce.
    template <class T>
    T allreduce(T value, ReduceOp op, const char* site) {
        allreduce(std::span<T>(&value, 1), op, site);
        return value;
    }

    /// Copies `data` from `root` to every rank (sizes must agree on all ranks).
    template <class T>
    void broadcast(std::span<T> data, int root, const char* site);

    // ---- id sets (frontiers), compressed on the wire ------------------------------------

    /// Set-union allgather. Each rank gives sorted, unique ids below `universe`; every rank
    /// gets the sorted union in `result`. With the butterfly backend duplicates are merged at
    /// every hop, so no id crosses a link twice.
    void allgather_ids(std::span<const lindex_t> mine, lindex_t universe,
                       std::vector<lindex_t>& result, const char* site);

    /// Personalised id exchange: `send` holds, for each destination r in turn,
    /// `send_counts[r]` sorted unique ids below `universe`. `recv` gets the lists received in
    /// source order, `recv_counts[r]` ids from rank r.
    void alltoall_ids(std::span<const lindex_t> send, std::span<const int> send_counts,
                      lindex_t universe, std::vector<lindex_t>& recv, std::vector<int>& recv_counts,
                      const char* site);

    /// Wire format the automatic policy would pick for `count` ids below `universe`.
    WireFormat pick_wire(std::size_t count, lindex_t universe) const;

    // ---- counters ------------------------------------------------------------------------

    /// Counters per call site (the `site` strings given to the calls).
    const std::map<std::string, Counters>& counters() const { return counters_; }
    /// Sum over all call sites.
    Counters total() const;
    void reset_counters() { counters_.clear(); }

protected:
    Communicator(MPI_Comm comm, const Options& opts);

    // Byte-level back, implemented per backend. Counts are in bytes.
    virtual void allgatherv_bytes(const void* send, std::size_t bytes, std::vector<char>& recv,
                                  std::vector<std::size_t>& recv_bytes, Counters& c) = 0;
    virtual void alltoallv_bytes(const void* send, std::span<const std::size_t> send_bytes,
                                 std::vector<char>& recv, std::vector<std::size_t>& recv_bytes,
                                 Counters& c) = 0;
    virtual void union_ids(std::span<const lindex_t> mine, lindex_t universe, WireFormat wire,
                           std::vector<lindex_t>& result, Counters& c) = 0;

    void sendrecv_bytes(const void* send, std::size_t bytes, int dest, std::vector<char>& recv,
                        int source, Counters& c);
    void allreduce_raw(void* inout, std::size_t count, MPI_Datatype type, ReduceOp op, Counters& c);
    void broadcast_raw(void* data, std::size_t bytes, int root, Counters& c);
    Counters& site(const char* name) { return counters_[name]; }

    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0;
    int size_ = 1;
    Options opts_;
    std::map<std::string, Counters> counters_;
    std::vector<char> scratch_;  ///< reused receive / staging buffer
};

/// MPI datatype of an arithmetic type (compile-time error for others).
template <class T>
MPI_Datatype mpi_type();

}  // namespace gridblas::comm
