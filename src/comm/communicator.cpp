// The typed front of the communication backend: construction, names, counters, argument
// checks (all before the first message, so that a bad argument given on every rank throws
// on every rank), and the id-set calls built on the byte-level back (see communicator.hpp).

#include "gridblas/comm/communicator.hpp"

#include <string_view>

#include "detail.hpp"

namespace gridblas::comm {

double wtime() { return MPI_Wtime(); }
namespace {

// Charges one call and its wall time to a counter.
class CallScope {
public:
    explicit CallScope(Counters& c) : c_(c), t0_(MPI_Wtime()) { ++c_.calls; }
    ~CallScope() { c_.seconds += MPI_Wtime() - t0_; }
    CallScope(const CallScope&) = delete;
    CallScope& operator=(const CallScope&) = delete;

private:
    Counters& c_;
    double t0_;
};

MPI_Op to_mpi_op(ReduceOp op) {
    switch (op) {
        case ReduceOp::sum:
            return MPI_SUM;
        case ReduceOp::min:
            return MPI_MIN;
        case ReduceOp::max:
            return MPI_MAX;
        case ReduceOp::lor:
            return MPI_LOR;
        default:
            return MPI_LAND;
    }
}

// Checks a counts argument: one non-negative entry per rank, summing to `total`.
void check_counts(std::span<const int> counts, int p, std::size_t total, const char* what) {
    if (counts.size() != std::size_t(p)) {
        throw InvalidValue(std::string(what) + ": send_counts has " +
                           std::to_string(counts.size()) + " entries, the communicator has " +
                           std::to_string(p) + " ranks");
    }
    std::size_t sum = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
        if (counts[r] < 0) {
            throw InvalidValue(std::string(what) + ": send_counts[" + std::to_string(r) +
                               "] = " + std::to_string(counts[r]) + " is negative");
        }
        sum += std::size_t(counts[r]);
    }
    if (sum != total) {
        throw InvalidValue(std::string(what) + ": send_counts sum to " + std::to_string(sum) +
                           " but " + std::to_string(total) + " elements were given");
    }
}

void check_rank(int r, int p, const char* what) {
    if (r == MPI_PROC_NULL) return;
    if (r < 0 || r >= p) {
        throw IndexOutOfBounds(std::string(what) + " rank " + std::to_string(r) + " outside [0, " +
                               std::to_string(p) + ")");
    }
}

int to_count(std::size_t bytes, std::size_t elem) {
    if (bytes % elem != 0) throw CommError("received a partial element");
    return detail::to_int(bytes / elem, "element count");
}

const detail::Payload kOpaque{};

}  // namespace

// ---- names, counters ----------------------------------------------------------------------

std::string to_string(Backend b) {
    switch (b) {
        case Backend::mpi:
            return "mpi";
        case Backend::butterfly:
            return "butterfly";
        case Backend::ring:
            return "ring";
        default:
            return "auto";
    }
}

std::string to_string(WireFormat w) {
    switch (w) {
        case WireFormat::raw:
            return "raw";
        case WireFormat::delta:
            return "delta";
        case WireFormat::bitmap:
            return "bitmap";
        default:
            return "auto";
    }
}

Backend parse_backend(const std::string& s) {
    if (s == "mpi") return Backend::mpi;
    if (s == "butterfly") return Backend::butterfly;
    if (s == "ring") return Backend::ring;
    if (s == "auto" || s == "automatic") return Backend::automatic;
    throw InvalidValue("unknown comm backend '" + s + "' (mpi, butterfly, ring, auto)");
}

WireFormat parse_wire_format(const std::string& s) {
    if (s == "raw") return WireFormat::raw;
    if (s == "delta") return WireFormat::delta;
    if (s == "bitmap") return WireFormat::bitmap;
    if (s == "auto" || s == "automatic") return WireFormat::automatic;
    throw InvalidValue("unknown wire format '" + s + "' (raw, delta, bitmap, auto)");
}

Counters& Counters::operator+=(const Counters& o) {
    calls += o.calls;
    messages += o.messages;
    bytes_wire += o.bytes_wire;
    bytes_raw += o.bytes_raw;
    seconds += o.seconds;
    return *this;
}

Counters Communicator::total() const {
    Counters t;
    for (const auto& [name, c] : counters_) t += c;
    return t;
}

Counters& Communicator::counter_for(const char* site) {
    const std::string_view name = site != nullptr ? site : "(unnamed)";
    auto it = counters_.find(name);
    if (it == counters_.end()) it = counters_.emplace(std::string(name), Counters{}).first;
    return it->second;
}

// ---- construction ---------------------------------------------------------------------------

std::unique_ptr<Communicator> Communicator::create(MPI_Comm comm, const Options& opts) {
    if (comm == MPI_COMM_NULL) throw InvalidValue("Communicator::create: comm is MPI_COMM_NULL");
    if (opts.fanout < 2) {
        throw InvalidValue("comm fanout must be >= 2, got " + std::to_string(opts.fanout));
    }
    if (!(opts.alpha_s >= 0.0) || !(opts.beta_s >= 0.0)) {
        throw InvalidValue("comm alpha_s and beta_s must be >= 0");
    }
    return detail::make_backend(comm, opts);
}

Communicator::Communicator(MPI_Comm comm, const Options& opts)
    : opts_(opts), ws_(std::make_unique<detail::Workspace>()) {
    detail::check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    detail::check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    detail::check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    detail::check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
    last_backend_ = opts.backend == Backend::automatic ? Backend::mpi : opts.backend;
}

Communicator::~Communicator() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

// ---- fronts of the typed collectives -------------------------------------------------------

void Communicator::allgatherv_front(const void* send, std::size_t bytes, std::size_t elem,
                                    std::vector<int>& recv_counts, const char* site) {
    Counters& c = counter_for(site);
    CallScope scope(c);
    allgatherv_bytes(send, bytes, scratch_, ws_->frsizes, kOpaque, c);
    recv_counts.resize(std::size_t(size_));
    for (int r = 0; r < size_; ++r) recv_counts[r] = to_count(ws_->frsizes[r], elem);
}

void Communicator::alltoallv_front(const void* send, std::size_t elems,
                                   std::span<const int> send_counts, std::size_t elem,
                                   std::vector<int>& recv_counts, const char* site) {
    check_counts(send_counts, size_, elems, "alltoallv");
    Counters& c = counter_for(site);
    CallScope scope(c);
    ws_->fsizes.resize(std::size_t(size_));
    for (int r = 0; r < size_; ++r) ws_->fsizes[r] = std::size_t(send_counts[r]) * elem;
    alltoallv_bytes(send, ws_->fsizes, scratch_, ws_->frsizes, kOpaque, c);
    recv_counts.resize(std::size_t(size_));
    for (int r = 0; r < size_; ++r) recv_counts[r] = to_count(ws_->frsizes[r], elem);
}

void Communicator::sendrecv_compressed(std::span<const char> send, std::size_t raw_bytes, int dest,
                                       std::vector<char>& recv, int source, const char* site) {
    sendrecv_front(send.data(), send.size(), raw_bytes, dest, source, site);
    // The message changes hands instead of being copied: scratch_ keeps the caller's old
    // buffer, which the next receive overwrites.
    recv.swap(scratch_);
}

void Communicator::sendrecv_front(const void* send, std::size_t bytes, std::size_t raw, int dest,
                                  int source, const char* site) {
    check_rank(dest, size_, "sendrecv: destination");
    check_rank(source, size_, "sendrecv: source");
    Counters& c = counter_for(site);
    CallScope scope(c);
    detail::Ctx x{comm_, rank_, size_, *ws_, c};
    ws_->reqs.clear();
    if (dest != MPI_PROC_NULL) {
        ws_->reqs.resize(1);
        detail::post_send(x, send, bytes, raw, dest, detail::kTagSendrecv, ws_->reqs.data());
    }
    if (source != MPI_PROC_NULL) {
        detail::recv_any(x, source, detail::kTagSendrecv, scratch_);
    } else {
        scratch_.clear();
    }
    detail::wait_all(ws_->reqs);
}

void Communicator::allreduce_front(void* inout, std::size_t count, std::size_t elem,
                                   MPI_Datatype type, ReduceOp op, const char* site) {
    Counters& c = counter_for(site);
    CallScope scope(c);
    if (count == 0 || size_ == 1) return;
    detail::check_mpi(MPI_Allreduce(MPI_IN_PLACE, inout, detail::to_int(count, "MPI_Allreduce"),
                                    type, to_mpi_op(op), comm_),
                      "MPI_Allreduce");
    const auto rounds = std::uint64_t(detail::ceil_log2(size_));
    c.messages += rounds;
    c.bytes_wire += rounds * count * elem;
    c.bytes_raw += rounds * count * elem;
}

void Communicator::broadcast_front(void* data, std::size_t bytes, int root, const char* site) {
    if (root < 0 || root >= size_) {
        throw IndexOutOfBounds("broadcast: root " + std::to_string(root) + " outside [0, " +
                               std::to_string(size_) + ")");
    }
    Counters& c = counter_for(site);
    CallScope scope(c);
    if (bytes == 0 || size_ == 1) return;
    constexpr std::size_t chunk = std::size_t(1) << 30;
    for (std::size_t at = 0; at < bytes; at += chunk) {
        const std::size_t n = bytes - at < chunk ? bytes - at : chunk;
        detail::check_mpi(MPI_Bcast(static_cast<char*>(data) + at, int(n), MPI_BYTE, root, comm_),
                          "MPI_Bcast");
    }
    // Children of this rank in a binomial tree rooted at `root`.
    const int v = (rank_ - root + size_) % size_;
    int mask = 1;
    while (mask < size_ && (v & mask) == 0) mask <<= 1;
    std::uint64_t children = 0;
    for (mask >>= 1; mask > 0; mask >>= 1) children += (v + mask < size_) ? 1 : 0;
    c.messages += children;
    c.bytes_wire += children * bytes;
    c.bytes_raw += children * bytes;
}

void Communicator::reduce_scatter_front(std::span<const lindex_t> ids, const void* values,
                                        std::size_t nvalues, std::span<const int> send_counts,
                                        lindex_t universe, const detail::PairCombiner& comb,
                                        std::vector<lindex_t>& out_ids, const char* site) {
    check_counts(send_counts, size_, ids.size(), "reduce_scatter_pairs");
    if (nvalues != ids.size()) {
        throw InvalidValue("reduce_scatter_pairs: " + std::to_string(ids.size()) + " ids but " +
                           std::to_string(nvalues) + " values");
    }
    std::size_t at = 0;
    for (int r = 0; r < size_; ++r) {
        wire::check_ids(ids.subspan(at, std::size_t(send_counts[r])), universe,
                        "reduce_scatter_pairs", r);
        at += std::size_t(send_counts[r]);
    }
    Counters& c = counter_for(site);
    CallScope scope(c);
    ws_->fsizes.assign(send_counts.begin(), send_counts.end());
    reduce_scatter_bytes(ids, static_cast<const char*>(values), ws_->fsizes, universe, opts_.wire,
                         comb, out_ids, scratch_, c);
}

// ---- id sets ----------------------------------------------------------------------------

void Communicator::allgather_ids(std::span<const lindex_t> mine, lindex_t universe,
                                 std::vector<lindex_t>& result, const char* site) {
    wire::check_ids(mine, universe, "allgather_ids");
    Counters& c = counter_for(site);
    CallScope scope(c);
    if (size_ == 1) {  // nothing to exchange: the union is this rank's own set
        result.assign(mine.begin(), mine.end());
        return;
    }
    union_ids(mine, universe, opts_.wire, result, nullptr, c);
}

void Communicator::allgather_bits(std::span<const lindex_t> mine, lindex_t universe,
                                  std::span<std::uint64_t> bits, const char* site) {
    const std::size_t words = (std::size_t(universe) + 63) / 64;
    if (bits.size() < words) {
        throw InvalidValue("allgather_bits: a bitmap of " + std::to_string(bits.size()) +
                           " words cannot hold " + std::to_string(universe) + " ids");
    }
    wire::check_ids(mine, universe, "allgather_bits");
    Counters& c = counter_for(site);
    CallScope scope(c);
    if (size_ == 1) {
        detail::or_ids_into(mine, bits.data());
        return;
    }
    union_ids(mine, universe, opts_.wire, ws_->ids, bits.data(), c);  // (no list written)
}

void Communicator::alltoall_ids(std::span<const lindex_t> send, std::span<const int> send_counts,
                                lindex_t universe, std::vector<lindex_t>& recv,
                                std::vector<int>& recv_counts, const char* site) {
    check_counts(send_counts, size_, send.size(), "alltoall_ids");
    std::size_t at = 0;
    for (int r = 0; r < size_; ++r) {
        wire::check_ids(send.subspan(at, std::size_t(send_counts[r])), universe, "alltoall_ids", r);
        at += std::size_t(send_counts[r]);
    }
    Counters& c = counter_for(site);
    CallScope scope(c);
    detail::Workspace& ws = *ws_;
    ws.fsend.clear();
    ws.fsizes.resize(std::size_t(size_));
    at = 0;
    for (int r = 0; r < size_; ++r) {
        const std::size_t before = ws.fsend.size();
        wire::encode(send.subspan(at, std::size_t(send_counts[r])), opts_.wire, ws.fsend);
        ws.fsizes[r] = ws.fsend.size() - before;
        at += std::size_t(send_counts[r]);
    }
    const detail::Payload frames{detail::Payload::id_frame, 0};
    alltoallv_bytes(ws.fsend.data(), ws.fsizes, ws.frecv, ws.frsizes, frames, c);
    recv.clear();
    recv_counts.resize(std::size_t(size_));
    std::size_t off = 0;
    for (int r = 0; r < size_; ++r) {
        const std::size_t before = recv.size();
        const std::size_t used = wire::decode({ws.frecv.data() + off, ws.frsizes[r]}, recv);
        if (used != ws.frsizes[r]) throw CommError("alltoall_ids: trailing bytes after a frame");
        if (recv.size() > before && recv.back() >= universe) {
            throw CommError("alltoall_ids: received id " + std::to_string(recv.back()) +
                            " >= universe " + std::to_string(universe));
        }
        recv_counts[r] = detail::to_int(recv.size() - before, "alltoall_ids");
        off += ws.frsizes[r];
    }
}

}  // namespace gridblas::comm
