// The alpha-beta (Hockney) cost model behind the automatic choices, and its calibration.
//
// A message of n bytes costs alpha + beta * n; a rank sends its messages one after the other
// (single-port model) and rounds are sequential. With p ranks, L2 = ceil(log2 p), k the
// fanout and M the largest contribution of any rank (its piece for allgathers, everything it
// sends for alltoalls), the modelled times are:
//
//   allgather   ring      (p-1) * (alpha + beta*M)              p-1 steps of one piece
//               mpi       2*L2*alpha + beta*(p-1)*M             size pre-exchange + the
//                                                               library's log-depth gather
//               butterfly sum over rounds s = k^i < p and partners j = 1.. with j*s < p of
//                         alpha + beta * bytes(j), bytes(j) = min(s, p - j*s) * M
//   allgather_ids         as allgather, except that the butterfly merges sets at every hop:
//                         bytes(j) = min(min(s, p - j*s) * M, cap), cap = size of a frame
//                         holding the whole universe in the configured format (bitmap: U/8,
//                         delta: U/4, raw: 4U); overlap between the sets is not credited
//   alltoall /  ring      (p-1) * alpha + beta * M              pairwise exchange
//   reduce_scatter mpi    L2*alpha + (p-1)*alpha + beta * M     count pre-exchange + pairwise
//               butterfly msgs * alpha + beta * M * h           msgs = sum over rounds of the
//                         partners, h = mean number of non-zero base-k digits of the offsets
//                         1..p-1 (hops a block makes; combining at hops is not credited)
//
// The butterfly trades p-1 latencies for O(k log_k p) of them at the price of forwarding
// bytes h times, so it wins on small (latency-bound) exchanges and on dense set unions;
// pairwise exchanges win on large personalised data. calibrate() measures alpha and beta.

#include <algorithm>
#include <bit>
#include <cmath>

#include "detail.hpp"

namespace gridblas::comm {
namespace {

double frame_cap(WireFormat wire, lindex_t universe) {
    const double u = double(universe);
    switch (wire) {
        case WireFormat::raw:
            return 4.0 * u + 16.0;
        case WireFormat::delta:
            return u / 4.0 + 16.0;
        default:
            return u / 8.0 + 16.0;
    }
}

}  // namespace

double Communicator::predict_seconds(Backend b, Collective op, std::size_t max_bytes,
                                     lindex_t universe) const {
    if (b == Backend::automatic) {
        throw InvalidValue("predict_seconds: give a concrete backend, not auto");
    }
    const int p = size_;
    if (p <= 1) return 0.0;
    const double a = opts_.alpha_s;
    const double be = opts_.beta_s;
    const double m = double(max_bytes);
    const long k = opts_.fanout;
    const double l2 = detail::ceil_log2(p);
    const bool gather = op == Collective::allgather || op == Collective::allgather_ids;
    if (b == Backend::ring) return gather ? (p - 1) * (a + be * m) : (p - 1) * a + be * m;
    if (b == Backend::mpi) {
        return gather ? 2 * l2 * a + be * (p - 1) * m : l2 * a + (p - 1) * a + be * m;
    }
    double t = 0.0;
    if (gather) {
        const double cap = op == Collective::allgather_ids && universe > 0
                               ? frame_cap(opts_.wire, universe)
                               : HUGE_VAL;
        for (long s = 1; s < p; s *= k) {
            const int parts = detail::bfly_partners(p, int(k), s);
            for (long j = 1; j <= parts; ++j) {
                const double bytes = std::min(double(std::min(s, p - j * s)) * m, cap);
                t += a + be * bytes;
            }
        }
        return t;
    }
    long msgs = 0;
    for (long s = 1; s < p; s *= k) msgs += detail::bfly_partners(p, int(k), s);
    long digits = 0;
    for (long u = 1; u < p; ++u) {
        for (long v = u; v > 0; v /= k) digits += (v % k) != 0;
    }
    const double hops = double(digits) / double(p - 1);
    return double(msgs) * a + be * m * hops;
}

Backend Communicator::pick_backend(Collective op, std::size_t max_bytes, lindex_t universe) const {
    if (size_ <= 1) return Backend::mpi;
    Backend best = Backend::mpi;
    double t = predict_seconds(Backend::mpi, op, max_bytes, universe);
    for (const Backend b : {Backend::butterfly, Backend::ring}) {
        const double tb = predict_seconds(b, op, max_bytes, universe);
        if (tb < t) best = b, t = tb;
    }
    return best;
}

WireFormat Communicator::pick_wire(std::size_t count, lindex_t universe) const {
    if (count == 0 || universe == 0) return WireFormat::raw;
    const double n = double(count);
    const double u = double(universe);
    // Expected largest gap of n uniform ids in [0, u): about (u / n) * ln(n + 1).
    const double gap = (u / n) * std::log(n + 1.0);
    const double width = gap < 1.0 ? 1.0 : std::floor(std::log2(gap)) + 1.0;
    const double raw = 4.0 * n;
    const double delta = n * width / 8.0 + 1.0;
    const double bitmap = std::min(u, u * (n - 1.0) / (n + 1.0) + 1.0) / 8.0 + 4.0;
    if (raw <= bitmap && raw <= delta) return WireFormat::raw;
    return bitmap <= delta ? WireFormat::bitmap : WireFormat::delta;
}

void Communicator::calibrate() {
    if (size_ < 2) return;
    using detail::check_mpi;
    constexpr int kSmallReps = 50;
    constexpr int kLargeReps = 8;
    constexpr int kLarge = 1 << 20;
    double alpha_pp = 0.0, beta = 0.0, alpha_ag = 0.0;
    std::vector<char>& buf = ws_->send;
    buf.assign(kLarge, 0);
    // Ping-pong between ranks 0 and 1: small messages give alpha, 1 MiB gives beta.
    auto pingpong = [&](int bytes, int reps) {
        check_mpi(MPI_Barrier(comm_), "MPI_Barrier");
        const double t0 = MPI_Wtime();
        for (int i = 0; i < reps; ++i) {
            if (rank_ == 0) {
                check_mpi(MPI_Send(buf.data(), bytes, MPI_BYTE, 1, detail::kTagCalibrate, comm_),
                          "MPI_Send");
                check_mpi(MPI_Recv(buf.data(), bytes, MPI_BYTE, 1, detail::kTagCalibrate, comm_,
                                   MPI_STATUS_IGNORE),
                          "MPI_Recv");
            } else if (rank_ == 1) {
                check_mpi(MPI_Recv(buf.data(), bytes, MPI_BYTE, 0, detail::kTagCalibrate, comm_,
                                   MPI_STATUS_IGNORE),
                          "MPI_Recv");
                check_mpi(MPI_Send(buf.data(), bytes, MPI_BYTE, 0, detail::kTagCalibrate, comm_),
                          "MPI_Send");
            }
        }
        return (MPI_Wtime() - t0) / (2.0 * reps);  // one way
    };
    pingpong(8, 5);  // warm-up
    const double t_small = pingpong(8, kSmallReps);
    const double t_large = pingpong(kLarge, kLargeReps);
    if (rank_ == 0) {
        alpha_pp = t_small;
        beta = std::max(t_large - t_small, 0.0) / kLarge;
    }
    // A small allgather over everybody: its latency per log2 round.
    std::uint64_t word = std::uint64_t(rank_);
    ws_->u64a.resize(std::size_t(size_));
    check_mpi(MPI_Barrier(comm_), "MPI_Barrier");
    const double t0 = MPI_Wtime();
    constexpr int kAgReps = 20;
    for (int i = 0; i < kAgReps; ++i) {
        check_mpi(MPI_Allgather(&word, 1, MPI_UINT64_T, ws_->u64a.data(), 1, MPI_UINT64_T, comm_),
                  "MPI_Allgather");
    }
    alpha_ag = (MPI_Wtime() - t0) / kAgReps / detail::ceil_log2(size_);
    double v[3] = {alpha_pp, beta, alpha_ag};
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_DOUBLE, MPI_MAX, comm_), "MPI_Allreduce");
    opts_.alpha_s = std::max({v[0], v[2], 1e-9});
    opts_.beta_s = std::max(v[1], 1e-13);
}

}  // namespace gridblas::comm
