// Counters, message counts, compression, argument errors, the automatic policy, the
// calibration and the steady-state allocation freedom of the communication backend. Message counts
// follow the schedules: a radix-k butterfly on p = k^d ranks sends d*(k-1) messages per rank and
// call, the ring p-1.

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <numeric>
#include <random>
#include <vector>

#include "gridblas/comm/communicator.hpp"

namespace gc = gridblas::comm;
using gridblas::lindex_t;

namespace {

std::unique_ptr<gc::Communicator> make(MPI_Comm comm, gc::Backend b, int k = 2,
                                       gc::WireFormat w = gc::WireFormat::automatic) {
    gc::Options o;
    o.backend = b;
    o.fanout = k;
    o.wire = w;
    return gc::Communicator::create(comm, o);
}

// Messages a rank sends in one radix-k butterfly call over p ranks, written out round by
// round: round i (stride k^i < p) has one partner per j = 1..k-1 with j * k^i < p.
std::uint64_t butterfly_messages(int p, int k) {
    std::uint64_t m = 0;
    for (long s = 1; s < p; s *= k) {
        for (long j = 1; j < k; ++j) m += j * s < p ? 1 : 0;
    }
    return m;
}

// d if p == k^d, else -1.
int log_exact(int p, int k) {
    int d = 0;
    long v = 1;
    while (v < p) v *= k, ++d;
    return v == p ? d : -1;
}

std::vector<lindex_t> random_set(std::uint64_t seed, lindex_t universe, double density) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution keep(density);
    std::vector<lindex_t> v;
    for (lindex_t i = 0; i < universe; ++i) {
        if (keep(rng)) v.push_back(i);
    }
    return v;
}

bool same_on_all_ranks(MPI_Comm comm, std::uint64_t v) {
    std::uint64_t lo = 0, hi = 0;
    MPI_Allreduce(&v, &lo, 1, MPI_UINT64_T, MPI_MIN, comm);
    MPI_Allreduce(&v, &hi, 1, MPI_UINT64_T, MPI_MAX, comm);
    return lo == hi;
}

// World and a sub-communicator of the ranks of one parity, to see more rank counts.
std::vector<MPI_Comm> test_comms() {
    int wr = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    MPI_Comm sub = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, wr % 2, wr, &sub);
    return {MPI_COMM_WORLD, sub};
}

void free_comms(std::vector<MPI_Comm>& comms) { MPI_Comm_free(&comms[1]); }

}  // namespace

TEST(CommCounters, ButterflySendsLogKRoundsOfKMinusOneMessages) {
    auto comms = test_comms();
    for (MPI_Comm base : comms) {
        int p = 0, r = 0;
        MPI_Comm_size(base, &p);
        MPI_Comm_rank(base, &r);
        for (const int k : {2, 3, 4, 5, 6, 7}) {
            auto c = make(base, gc::Backend::butterfly, k);
            const std::vector<lindex_t> ids = random_set(std::uint64_t(r), 500, 0.1);
            std::vector<lindex_t> out;
            std::vector<int> counts(std::size_t(p), 1);
            std::vector<int> buf(std::size_t(p), r);
            std::vector<int> got;
            std::vector<int> rc;
            std::vector<double> vals(ids.size(), 1.0);
            std::vector<int> sc(std::size_t(p), 0);
            sc[std::size_t(r)] = int(ids.size());
            std::vector<double> outv;
            c->allgather_ids(ids, 500, out, "union");
            c->allgatherv(std::span<const int>(buf.data(), 1), got, rc, "agv");
            c->alltoallv(std::span<const int>(buf), std::span<const int>(counts), got, rc, "a2a");
            c->reduce_scatter_pairs(
                std::span<const lindex_t>(ids), std::span<const double>(vals),
                std::span<const int>(sc), 500, [](double a, double b) { return a + b; }, out, outv,
                "fold");
            const std::uint64_t want = butterfly_messages(p, k);
            for (const char* site : {"union", "agv", "a2a", "fold"}) {
                const std::uint64_t m = c->counters().at(site).messages;
                EXPECT_EQ(m, want) << site << " p=" << p << " k=" << k;
                EXPECT_TRUE(same_on_all_ranks(base, m)) << site;  // no hot-spot rank
                const int d = log_exact(p, k);
                if (d >= 0) {
                    EXPECT_EQ(m, std::uint64_t(d * (k - 1))) << site << " p=k^" << d;
                }
            }
            EXPECT_EQ(c->counters().at("union").calls, 1u);
        }
    }
    free_comms(comms);
}

TEST(CommCounters, RingSendsPMinusOneMessages) {
    auto comms = test_comms();
    for (MPI_Comm base : comms) {
        int p = 0, r = 0;
        MPI_Comm_size(base, &p);
        MPI_Comm_rank(base, &r);
        for (const gc::Backend b : {gc::Backend::ring, gc::Backend::mpi}) {
            auto c = make(base, b);
            std::vector<std::int32_t> piece(3, r);
            std::vector<std::int32_t> got;
            std::vector<int> rc;
            c->allgatherv(std::span<const std::int32_t>(piece), got, rc, "agv");
            EXPECT_EQ(c->counters().at("agv").messages, std::uint64_t(p - 1));
            EXPECT_EQ(c->counters().at("agv").bytes_wire, std::uint64_t(p - 1) * 12u);
            std::vector<int> sc(std::size_t(p), 1);
            std::vector<std::int32_t> send(std::size_t(p), r);
            c->alltoallv(std::span<const std::int32_t>(send), std::span<const int>(sc), got, rc,
                         "a2a");
            EXPECT_EQ(c->counters().at("a2a").messages, std::uint64_t(p - 1));
        }
    }
    free_comms(comms);
}

TEST(CommCounters, CompressedBytesNeverExceedRaw) {
    int p = 0, r = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    const lindex_t u = 20000;
    for (const gc::Backend b : {gc::Backend::mpi, gc::Backend::ring, gc::Backend::butterfly}) {
        auto c = make(MPI_COMM_WORLD, b, 2, gc::WireFormat::automatic);
        auto raw = make(MPI_COMM_WORLD, b, 2, gc::WireFormat::raw);
        for (const double density : {0.0005, 0.01, 0.1, 0.6}) {
            const auto mine = random_set(std::uint64_t(r) * 31 + 7, u, density);
            std::vector<lindex_t> out, out_raw;
            c->reset_counters();
            raw->reset_counters();
            c->allgather_ids(mine, u, out, "union");
            raw->allgather_ids(mine, u, out_raw, "union");
            EXPECT_EQ(out, out_raw);
            const gc::Counters t = c->total();
            EXPECT_LE(t.bytes_wire, t.bytes_raw) << density;
            EXPECT_EQ(raw->total().bytes_wire, raw->total().bytes_raw);
            if (p > 1 && density >= 0.01) {
                EXPECT_LT(t.bytes_wire * 2, t.bytes_raw) << "dense-ish sets compress, " << density;
            }
            // Personalised exchange: the whole set to every rank.
            std::vector<lindex_t> send;
            std::vector<int> sc;
            for (int d = 0; d < p; ++d) {
                send.insert(send.end(), mine.begin(), mine.end());
                sc.push_back(int(mine.size()));
            }
            std::vector<int> rc;
            c->reset_counters();
            c->alltoall_ids(send, sc, u, out, rc, "a2a");
            EXPECT_LE(c->total().bytes_wire, c->total().bytes_raw);
            if (p > 1 && density >= 0.01) {
                EXPECT_LT(c->total().bytes_wire, c->total().bytes_raw);
            }
        }
    }
}

TEST(CommCounters, IntegerValuesOfAFoldTravelBitPacked) {
    // Every rank sends every other rank the same dense ids, valued below 2^20 (a BFS
    // parent): with packed values a pair costs a small fraction of its raw 4 + 8 bytes; on
    // the raw format it costs exactly that. Doubles travel raw on every format.
    int p = 0, r = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    if (p == 1) GTEST_SKIP() << "nothing crosses the wire on one rank";
    const lindex_t u = 4096;
    std::vector<lindex_t> ids;
    std::vector<std::int64_t> vals;
    std::vector<double> dvals;
    std::vector<int> sc;
    for (int d = 0; d < p; ++d) {
        for (lindex_t i = 0; i < u; i += 2) {
            ids.push_back(i);
            vals.push_back(std::int64_t((i * 7919 + r) % (1 << 20)));
            dvals.push_back(double(i) + 0.5);
        }
        sc.push_back(int(u / 2));
    }
    const auto add = [](std::int64_t a, std::int64_t b) { return std::min(a, b); };
    for (const gc::Backend b : {gc::Backend::mpi, gc::Backend::ring, gc::Backend::butterfly}) {
        auto packed = make(MPI_COMM_WORLD, b, 2, gc::WireFormat::delta);
        auto raw = make(MPI_COMM_WORLD, b, 2, gc::WireFormat::raw);
        std::vector<lindex_t> out, out_raw;
        std::vector<std::int64_t> v, v_raw;
        packed->reduce_scatter_pairs(std::span<const lindex_t>(ids),
                                     std::span<const std::int64_t>(vals), std::span<const int>(sc),
                                     u, add, out, v, "fold");
        raw->reduce_scatter_pairs(std::span<const lindex_t>(ids),
                                  std::span<const std::int64_t>(vals), std::span<const int>(sc), u,
                                  add, out_raw, v_raw, "fold");
        EXPECT_EQ(out, out_raw);
        EXPECT_EQ(v, v_raw);
        const gc::Counters t = packed->total();
        EXPECT_EQ(raw->total().bytes_wire, raw->total().bytes_raw);
        EXPECT_EQ(t.bytes_raw, raw->total().bytes_raw);
        // 2048 pairs per block: ids delta-coded (a byte each), values in 20 bits.
        EXPECT_LT(t.bytes_wire * 3, t.bytes_raw) << gc::to_string(b);
        std::vector<double> dv;
        packed->reset_counters();
        packed->reduce_scatter_pairs(
            std::span<const lindex_t>(ids), std::span<const double>(dvals),
            std::span<const int>(sc), u, [](double a, double b) { return a + b; }, out, dv,
            "fold-double");
        // Raw doubles: at least 8 bytes a pair on the wire.
        const std::uint64_t sent_pairs = packed->total().bytes_raw / 12;
        EXPECT_GE(packed->total().bytes_wire, sent_pairs * 8) << gc::to_string(b);
    }
}

TEST(CommCounters, ButterflyUnionOfIdenticalSetsSendsLessThanAllgather) {
    int p = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const auto same = random_set(5, 10000, 0.05);  // the same set on every rank
    auto mpi = make(MPI_COMM_WORLD, gc::Backend::mpi, 2, gc::WireFormat::raw);
    std::vector<lindex_t> out;
    mpi->allgather_ids(same, 10000, out, "u");
    for (const int k : {2, 3, 4}) {
        auto b = make(MPI_COMM_WORLD, gc::Backend::butterfly, k, gc::WireFormat::raw);
        b->allgather_ids(same, 10000, out, "u");
        EXPECT_EQ(out, same);
        EXPECT_LE(b->total().bytes_wire, mpi->total().bytes_wire) << "k=" << k;
    }
}

TEST(CommCounters, ButterflyUnionOfDisjointSetsSendsNoDuplicateIds) {
    // Disjoint sets: every id must reach every other rank once, as with an allgatherv. The
    // last round of a non-power of k sends a partner only the ranks it lacks, which is exact
    // for every p <= 6 and k in 2..4 (the frame headers differ: a few bytes per message).
    int p = 0, r = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    if (p > 6) GTEST_SKIP() << "exactness shown for p <= 6";
    std::vector<lindex_t> mine;
    for (lindex_t i = lindex_t(r); i < 60000; i += lindex_t(p)) mine.push_back(i);
    auto mpi = make(MPI_COMM_WORLD, gc::Backend::mpi, 2, gc::WireFormat::raw);
    std::vector<lindex_t> out;
    mpi->allgather_ids(mine, 60000, out, "u");
    const std::uint64_t ref = mpi->total().bytes_wire;
    for (const int k : {2, 3, 4}) {
        auto b = make(MPI_COMM_WORLD, gc::Backend::butterfly, k, gc::WireFormat::raw);
        b->allgather_ids(mine, 60000, out, "u");
        ASSERT_EQ(out.size(), 60000u);
        const std::uint64_t got = b->total().bytes_wire;
        EXPECT_LE(got, ref + 8 * std::uint64_t(p)) << "k=" << k;
        EXPECT_GE(got + 8 * std::uint64_t(p), ref) << "k=" << k;
    }
}

TEST(CommCounters, CountersPerSiteAndTotal) {
    auto c = make(MPI_COMM_WORLD, gc::Backend::butterfly);
    for (int i = 0; i < 3; ++i) c->allreduce(1, gc::ReduceOp::sum, "level-a");
    std::vector<lindex_t> out;
    c->allgather_ids(std::vector<lindex_t>{1, 2}, 10, out, "level-b");
    ASSERT_EQ(c->counters().size(), 2u);
    EXPECT_EQ(c->counters().at("level-a").calls, 3u);
    EXPECT_EQ(c->counters().at("level-b").calls, 1u);
    EXPECT_GE(c->counters().at("level-b").seconds, 0.0);
    const gc::Counters t = c->total();
    EXPECT_EQ(t.calls, 4u);
    EXPECT_EQ(t.messages,
              c->counters().at("level-a").messages + c->counters().at("level-b").messages);
    c->reset_counters();
    EXPECT_TRUE(c->counters().empty());
    EXPECT_EQ(c->total().calls, 0u);
}

TEST(CommCounters, BadArgumentsThrowOnEveryRankBeforeCommunicating) {
    int p = 0, r = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    gc::Options bad;
    bad.fanout = 1;
    EXPECT_THROW(gc::Communicator::create(MPI_COMM_WORLD, bad), gridblas::InvalidValue);
    bad.fanout = 0;
    EXPECT_THROW(gc::Communicator::create(MPI_COMM_WORLD, bad), gridblas::InvalidValue);
    EXPECT_THROW(gc::parse_backend("hypercube"), gridblas::InvalidValue);
    EXPECT_THROW(gc::parse_wire_format("zip"), gridblas::InvalidValue);
    for (const gc::Backend b :
         {gc::Backend::mpi, gc::Backend::butterfly, gc::Backend::ring, gc::Backend::automatic}) {
        auto c = make(MPI_COMM_WORLD, b, 3);
        std::vector<int> data(std::size_t(p), 1), got, rc;
        std::vector<int> wrong_size(std::size_t(p) + 1, 0);
        std::vector<int> counts(std::size_t(p), 1);
        EXPECT_THROW(c->alltoallv(std::span<const int>(data), std::span<const int>(wrong_size), got,
                                  rc, "bad"),
                     gridblas::InvalidValue);
        counts[0] = -1;
        EXPECT_THROW(
            c->alltoallv(std::span<const int>(data), std::span<const int>(counts), got, rc, "bad"),
            gridblas::InvalidValue);
        counts[0] = 2;  // sums to p + 1
        EXPECT_THROW(
            c->alltoallv(std::span<const int>(data), std::span<const int>(counts), got, rc, "bad"),
            gridblas::InvalidValue);
        std::vector<lindex_t> out;
        EXPECT_THROW(c->allgather_ids(std::vector<lindex_t>{3, 1}, 10, out, "bad"),
                     gridblas::InvalidValue);
        EXPECT_THROW(c->allgather_ids(std::vector<lindex_t>{3, 3}, 10, out, "bad"),
                     gridblas::InvalidValue);
        std::vector<std::uint64_t> bits(1, 0);
        EXPECT_THROW(
            c->allgather_bits(std::vector<lindex_t>{1}, 65, std::span<std::uint64_t>(bits), "bad"),
            gridblas::InvalidValue);  // 65 ids need two words
        EXPECT_THROW(c->allgather_bits(std::vector<lindex_t>{3, 1}, 10,
                                       std::span<std::uint64_t>(bits), "bad"),
                     gridblas::InvalidValue);
        EXPECT_EQ(bits[0], 0u);
        EXPECT_THROW(c->allgather_ids(std::vector<lindex_t>{1, 10}, 10, out, "bad"),
                     gridblas::IndexOutOfBounds);
        std::vector<lindex_t> ids(std::size_t(p), 10);
        std::vector<int> ones(std::size_t(p), 1);
        EXPECT_THROW(c->alltoall_ids(ids, ones, 10, out, rc, "bad"), gridblas::IndexOutOfBounds);
        EXPECT_THROW(c->alltoall_ids(ids, wrong_size, 10, out, rc, "bad"), gridblas::InvalidValue);
        std::vector<double> vals(std::size_t(p) + 1, 1.0), outv;
        std::fill(ids.begin(), ids.end(), 0);
        EXPECT_THROW(c->reduce_scatter_pairs(
                         std::span<const lindex_t>(ids), std::span<const double>(vals),
                         std::span<const int>(ones), 10, [](double a, double x) { return a + x; },
                         out, outv, "bad"),
                     gridblas::InvalidValue);
        vals.resize(static_cast<std::size_t>(p));
        ids[0] = 11;
        EXPECT_THROW(c->reduce_scatter_pairs(
                         std::span<const lindex_t>(ids), std::span<const double>(vals),
                         std::span<const int>(ones), 10, [](double a, double x) { return a + x; },
                         out, outv, "bad"),
                     gridblas::IndexOutOfBounds);
        std::vector<int> one(1, r);
        EXPECT_THROW(c->broadcast(std::span<int>(one), p, "bad"), gridblas::IndexOutOfBounds);
        EXPECT_THROW(c->broadcast(std::span<int>(one), -1, "bad"), gridblas::IndexOutOfBounds);
        EXPECT_THROW(c->sendrecv(std::span<const int>(one), p, got, 0, "bad"),
                     gridblas::IndexOutOfBounds);
        EXPECT_THROW(c->allreduce(1.5, gc::ReduceOp::lor, "bad"), gridblas::InvalidValue);
        EXPECT_THROW(c->allreduce(true, gc::ReduceOp::sum, "bad"), gridblas::InvalidValue);
        // Nothing was sent, and the communicator still works.
        EXPECT_EQ(c->total().messages, 0u);
        c->allgather_ids(std::vector<lindex_t>{lindex_t(r)}, lindex_t(p), out, "good");
        std::vector<lindex_t> all(static_cast<std::size_t>(p));
        std::iota(all.begin(), all.end(), 0u);
        EXPECT_EQ(out, all);
    }
}

TEST(CommCounters, AutomaticPolicyFollowsTheModelAndIsCorrect) {
    int p = 0, r = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    gc::Options o;
    o.backend = gc::Backend::automatic;
    o.alpha_s = 1e-5;
    o.beta_s = 1e-9;
    o.fanout = 2;
    auto c = gc::Communicator::create(MPI_COMM_WORLD, o);
    for (const auto op : {gc::Collective::allgather, gc::Collective::allgather_ids,
                          gc::Collective::alltoall, gc::Collective::reduce_scatter}) {
        for (const std::size_t m : {std::size_t(8), std::size_t(1) << 26}) {
            const gc::Backend pick = c->pick_backend(op, m, 100000);
            double best = 1e300;
            for (const auto b : {gc::Backend::mpi, gc::Backend::butterfly, gc::Backend::ring}) {
                best = std::min(best, c->predict_seconds(b, op, m, 100000));
            }
            EXPECT_EQ(c->predict_seconds(pick, op, m, 100000), best);
        }
    }
    if (p >= 4) {
        // Latency-bound personalised exchanges go to the butterfly, bandwidth-bound to pairs.
        EXPECT_EQ(c->pick_backend(gc::Collective::alltoall, 64), gc::Backend::butterfly);
        EXPECT_EQ(c->pick_backend(gc::Collective::alltoall, std::size_t(1) << 30),
                  gc::Backend::ring);
        // Dense unions are cheaper merged at every hop.
        EXPECT_EQ(c->pick_backend(gc::Collective::allgather_ids, 100000, 800000),
                  gc::Backend::butterfly);
    }
    EXPECT_THROW(c->predict_seconds(gc::Backend::automatic, gc::Collective::alltoall, 1),
                 gridblas::InvalidValue);
    // Small and large alltoallv through the automatic backend: right results, and the
    // backend used is the one the model picks for the largest contribution.
    for (const int n : {1, 300000}) {
        std::vector<int> sc(std::size_t(p), n);
        std::vector<std::int32_t> send(std::size_t(p) * std::size_t(n));
        for (std::size_t i = 0; i < send.size(); ++i) send[i] = r * 7 + int(i % 1000);
        std::vector<std::int32_t> got;
        std::vector<int> rc;
        c->alltoallv(std::span<const std::int32_t>(send), std::span<const int>(sc), got, rc,
                     "auto");
        EXPECT_EQ(c->last_backend(),
                  c->pick_backend(gc::Collective::alltoall, send.size() * sizeof(std::int32_t)));
        ASSERT_EQ(got.size(), send.size());
        for (int s = 0; s < p; ++s) {
            EXPECT_EQ(rc[s], n);
            EXPECT_EQ(got[std::size_t(s) * n], s * 7 + int((std::size_t(r) * n) % 1000));
        }
    }
    EXPECT_NE(c->pick_wire(100, 1u << 30), gc::WireFormat::bitmap);
    EXPECT_EQ(c->pick_wire(50000, 100000), gc::WireFormat::bitmap);
    EXPECT_EQ(c->pick_wire(0, 100), gc::WireFormat::raw);
}

TEST(CommCounters, CalibrateGivesEveryRankTheSameModel) {
    auto c = make(MPI_COMM_WORLD, gc::Backend::automatic);
    c->calibrate();
    const double a = c->options().alpha_s;
    const double b = c->options().beta_s;
    EXPECT_GT(a, 0.0);
    EXPECT_GT(b, 0.0);
    double mm[4] = {a, b, -a, -b};
    MPI_Allreduce(MPI_IN_PLACE, mm, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(mm[0], -mm[2]);
    EXPECT_EQ(mm[1], -mm[3]);
    std::vector<lindex_t> out;
    c->allgather_ids(std::vector<lindex_t>{0}, 1, out, "after");
    EXPECT_EQ(out, std::vector<lindex_t>{0});
}

// ---- steady state: no heap allocation once the buffers have grown -----------------------

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

TEST(CommCounters, SteadyStateCallsDoNotAllocate) {
    int p = 0, r = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    const lindex_t u = 4000;
    const auto mine = random_set(std::uint64_t(r) + 77, u, 0.05);
    const auto dense = random_set(std::uint64_t(r) + 78, u, 0.6);
    std::vector<int> sc(static_cast<std::size_t>(p), 0);
    std::vector<lindex_t> send;
    std::vector<double> vals;
    for (int d = 0; d < p; ++d) {
        send.insert(send.end(), mine.begin(), mine.end());
        vals.insert(vals.end(), mine.size(), 1.0);
        sc[std::size_t(d)] = int(mine.size());
    }
    for (const gc::Backend b :
         {gc::Backend::mpi, gc::Backend::butterfly, gc::Backend::ring, gc::Backend::automatic}) {
        auto c = make(MPI_COMM_WORLD, b, 3);
        std::vector<lindex_t> out, out2;
        std::vector<int> rc;
        std::vector<double> outv;
        std::vector<lindex_t> got;
        auto level = [&] {
            c->allgather_ids(mine, u, out, "union");
            c->allgather_ids(dense, u, out2, "union-dense");
            c->alltoall_ids(send, sc, u, got, rc, "a2a");
            c->reduce_scatter_pairs(
                std::span<const lindex_t>(send), std::span<const double>(vals),
                std::span<const int>(sc), u, [](double a, double x) { return a + x; }, out, outv,
                "fold");
            c->allgatherv(std::span<const lindex_t>(mine), got, rc, "agv");
            c->alltoallv(std::span<const lindex_t>(send), std::span<const int>(sc), got, rc,
                         "a2av");
            c->allreduce(std::int64_t(1), gc::ReduceOp::sum, "sum");
        };
        for (int warm = 0; warm < 3; ++warm) level();
        const long before = g_allocations.load();
        for (int i = 0; i < 4; ++i) level();
        EXPECT_EQ(g_allocations.load() - before, 0) << gc::to_string(b);
    }
}
