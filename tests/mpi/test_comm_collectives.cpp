// Results of every collective of the communication backend, for every backend x wire format
// x fanout, on MPI_COMM_WORLD and on a split sub-communicator (ranks of one parity, in
// reverse order): typed collectives against MPI's own, id-set unions and personalised id
// exchanges against a reference computed locally from the generators of every rank, and the
// monoid reduce-scatter against a local reference.

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gridblas/comm/communicator.hpp"

namespace gc = gridblas::comm;
using gridblas::lindex_t;

namespace {

struct Config {
    gc::Backend backend;
    gc::WireFormat wire;
    int fanout;
    bool split;
};

std::vector<Config> all_configs() {
    std::vector<Config> v;
    for (const bool split : {false, true}) {
        for (const auto w : {gc::WireFormat::raw, gc::WireFormat::delta, gc::WireFormat::bitmap,
                             gc::WireFormat::automatic}) {
            for (const auto b : {gc::Backend::mpi, gc::Backend::ring})
                v.push_back({b, w, 2, split});
            for (const auto b : {gc::Backend::butterfly, gc::Backend::automatic}) {
                for (const int k : {2, 3, 4}) v.push_back({b, w, k, split});
            }
        }
    }
    return v;
}

std::string config_name(const testing::TestParamInfo<Config>& info) {
    const Config& c = info.param;
    return gc::to_string(c.backend) + "_" + gc::to_string(c.wire) + "_k" +
           std::to_string(c.fanout) + (c.split ? "_split" : "_world");
}

// Deterministic data of rank `r` so that every rank can compute every other rank's input.
std::vector<lindex_t> gen_set(int r, int salt, lindex_t universe, double density) {
    std::mt19937_64 rng(std::uint64_t(r) * 7919 + std::uint64_t(salt) * 104729 + 17);
    std::bernoulli_distribution keep(density);
    std::vector<lindex_t> ids;
    for (std::uint64_t i = 0; i < universe; ++i) {
        if (keep(rng)) ids.push_back(lindex_t(i));
    }
    return ids;
}

struct Val {  // a trivially copyable struct payload
    std::int64_t a;
    double b;
    bool operator==(const Val& o) const { return a == o.a && b == o.b; }
};

struct MinCount {  // a monoid value: (count, min)
    std::uint32_t count;
    std::uint32_t min;
};

class CommCollectives : public testing::TestWithParam<Config> {
protected:
    void SetUp() override {
        const Config& c = GetParam();
        int wr = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &wr);
        if (c.split) {
            MPI_Comm_split(MPI_COMM_WORLD, wr % 2, -wr, &sub_);
        } else {
            MPI_Comm_dup(MPI_COMM_WORLD, &sub_);
        }
        gc::Options o;
        o.backend = c.backend;
        o.wire = c.wire;
        o.fanout = c.fanout;
        comm_ = gc::Communicator::create(sub_, o);
        p_ = comm_->size();
        r_ = comm_->rank();
    }
    void TearDown() override {
        comm_.reset();
        MPI_Comm_free(&sub_);
    }

    MPI_Comm sub_ = MPI_COMM_NULL;
    std::unique_ptr<gc::Communicator> comm_;
    int p_ = 1;
    int r_ = 0;
};

TEST_P(CommCollectives, AllgathervMatchesMpi) {
    for (int call = 0; call < 3; ++call) {
        // Piece sizes vary by rank and call, some empty.
        const int n = (r_ * 5 + call * 3) % 4 == 0 ? 0 : 1 + (r_ * 37 + call * 11) % 300;
        std::vector<Val> mine(std::size_t(n), Val{0, 0.0});
        for (int i = 0; i < n; ++i) mine[i] = Val{r_ * 1000 + i, 0.5 * i + call};
        std::vector<Val> got;
        std::vector<int> counts;
        comm_->allgatherv(std::span<const Val>(mine), got, counts, "agv");
        std::vector<int> ref_counts(static_cast<std::size_t>(p_));
        MPI_Allgather(&n, 1, MPI_INT, ref_counts.data(), 1, MPI_INT, sub_);
        std::vector<int> displs(static_cast<std::size_t>(p_));
        std::vector<int> bytes(static_cast<std::size_t>(p_));
        int total = 0;
        for (int r = 0; r < p_; ++r) {
            displs[r] = total * int(sizeof(Val));
            bytes[r] = ref_counts[r] * int(sizeof(Val));
            total += ref_counts[r];
        }
        std::vector<Val> ref(static_cast<std::size_t>(total));
        MPI_Allgatherv(mine.data(), n * int(sizeof(Val)), MPI_BYTE, ref.data(), bytes.data(),
                       displs.data(), MPI_BYTE, sub_);
        EXPECT_EQ(counts, ref_counts);
        EXPECT_EQ(got, ref);
    }
}

TEST_P(CommCollectives, AlltoallvMatchesMpi) {
    for (int call = 0; call < 3; ++call) {
        std::vector<int> sc(static_cast<std::size_t>(p_));
        std::vector<std::int64_t> send;
        for (int d = 0; d < p_; ++d) {
            sc[d] = (r_ + d + call) % 3 == 0 ? 0 : 1 + (r_ * 13 + d * 7 + call) % 50;
            for (int i = 0; i < sc[d]; ++i) send.push_back(r_ * 1000000 + d * 1000 + i);
        }
        std::vector<std::int64_t> got;
        std::vector<int> rc;
        comm_->alltoallv(std::span<const std::int64_t>(send), std::span<const int>(sc), got, rc,
                         "a2a");
        std::vector<int> ref_rc(static_cast<std::size_t>(p_));
        MPI_Alltoall(sc.data(), 1, MPI_INT, ref_rc.data(), 1, MPI_INT, sub_);
        std::vector<int> sd(static_cast<std::size_t>(p_)), rd(static_cast<std::size_t>(p_));
        std::partial_sum(sc.begin(), sc.end() - 1, sd.begin() + 1);
        std::partial_sum(ref_rc.begin(), ref_rc.end() - 1, rd.begin() + 1);
        std::vector<std::int64_t> ref(
            std::size_t(std::accumulate(ref_rc.begin(), ref_rc.end(), 0)));
        MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_INT64_T, ref.data(), ref_rc.data(),
                      rd.data(), MPI_INT64_T, sub_);
        EXPECT_EQ(rc, ref_rc);
        EXPECT_EQ(got, ref);
    }
}

TEST_P(CommCollectives, SendrecvAllreduceBroadcast) {
    // Ring rotation, as the bottom-up step does it.
    std::vector<std::uint64_t> mine(std::size_t(10 + r_), std::uint64_t(r_));
    std::vector<std::uint64_t> got;
    comm_->sendrecv(std::span<const std::uint64_t>(mine), (r_ + 1) % p_, got, (r_ + p_ - 1) % p_,
                    "rotate");
    const int prev = (r_ + p_ - 1) % p_;
    EXPECT_EQ(got, std::vector<std::uint64_t>(std::size_t(10 + prev), std::uint64_t(prev)));
    comm_->sendrecv(std::span<const std::uint64_t>(mine), MPI_PROC_NULL, got, MPI_PROC_NULL, "x");
    EXPECT_TRUE(got.empty());

    std::vector<double> v = {double(r_), -double(r_), 1.0};
    std::vector<double> ref(3);
    MPI_Allreduce(v.data(), ref.data(), 3, MPI_DOUBLE, MPI_SUM, sub_);
    comm_->allreduce(std::span<double>(v), gc::ReduceOp::sum, "sum");
    EXPECT_EQ(v, ref);
    EXPECT_EQ(comm_->allreduce(r_, gc::ReduceOp::max, "max"), p_ - 1);
    EXPECT_EQ(comm_->allreduce(r_ + 3, gc::ReduceOp::min, "min"), 3);
    EXPECT_EQ(comm_->allreduce(std::int64_t(r_ == 0), gc::ReduceOp::lor, "lor"), 1);
    EXPECT_EQ(comm_->allreduce(r_ == 0, gc::ReduceOp::land, "land"), p_ == 1);

    for (int root = 0; root < p_; ++root) {
        std::vector<Val> data(5, Val{r_, 0.25 * r_});
        comm_->broadcast(std::span<Val>(data), root, "bcast");
        EXPECT_EQ(data, std::vector<Val>(5, Val{root, 0.25 * root}));
    }
}

TEST_P(CommCollectives, AllgatherIdsGivesTheExactUnion) {
    struct Case {
        const char* name;
        lindex_t universe;
        std::function<std::vector<lindex_t>(int)> make;
    };
    const int p = p_;
    const std::vector<Case> cases = {
        {"overlapping", 3000, [](int r) { return gen_set(r, 1, 3000, 0.05); }},
        {"dense", 5000, [](int r) { return gen_set(r, 2, 5000, 0.7); }},
        {"disjoint", 4096,
         [p](int r) {
             std::vector<lindex_t> v;
             for (lindex_t i = lindex_t(r); i < 4096; i += lindex_t(p)) v.push_back(i);
             return v;
         }},
        {"some empty", 2000,
         [](int r) { return r % 2 == 1 ? std::vector<lindex_t>{} : gen_set(r, 3, 2000, 0.02); }},
        {"all empty", 100, [](int) { return std::vector<lindex_t>{}; }},
        {"empty universe", 0, [](int) { return std::vector<lindex_t>{}; }},
        {"universe edge", 777,
         [](int r) {
             return r % 2 == 0 ? std::vector<lindex_t>{0, 776} : std::vector<lindex_t>{5, 776};
         }},
        {"huge universe", 0xffffffffu,
         [](int r) {
             // Ids near the top of the largest universe (kept within a 64 Ki range so that a
             // forced bitmap stays small).
             return std::vector<lindex_t>{0xffff0000u + lindex_t(r), 0xfffffff0u + lindex_t(r % 8),
                                          0xfffffffeu};
         }},
        {"identical", 1500, [](int) { return gen_set(0, 4, 1500, 0.3); }},
    };
    for (const Case& c : cases) {
        const std::vector<lindex_t> mine = c.make(r_);
        std::set<lindex_t> ref;
        for (int r = 0; r < p_; ++r) {
            const auto s = c.make(r);
            ref.insert(s.begin(), s.end());
        }
        std::vector<lindex_t> got = {42, 43};  // overwritten
        comm_->allgather_ids(mine, c.universe, got, "union");
        EXPECT_EQ(got, std::vector<lindex_t>(ref.begin(), ref.end())) << c.name;
        if (c.universe > (lindex_t(1) << 20)) continue;  // (its bitmap would be 512 MB)
        // The same union delivered as a bitmap, ORed into one that already has a bit set
        // (the last id of the universe) which must stay set.
        const std::size_t words = (std::size_t(c.universe) + 63) / 64;
        std::vector<std::uint64_t> bits(words, 0), want(words, 0);
        if (c.universe > 0) {
            const lindex_t last = c.universe - 1;
            bits[last >> 6] |= std::uint64_t(1) << (last & 63);
            want[last >> 6] |= std::uint64_t(1) << (last & 63);
        }
        for (const lindex_t id : ref) want[id >> 6] |= std::uint64_t(1) << (id & 63);
        comm_->allgather_bits(mine, c.universe, std::span<std::uint64_t>(bits), "union-bits");
        EXPECT_EQ(bits, want) << c.name << " (allgather_bits)";
    }
}

TEST_P(CommCollectives, AlltoallIdsIsExact) {
    const lindex_t universe = 2500;
    auto block = [&](int src, int dst, int call) {
        if ((src + dst + call) % 4 == 3) return std::vector<lindex_t>{};
        const double density = (src + dst) % 2 == 0 ? 0.4 : 0.01;
        return gen_set(src * 64 + dst, 10 + call, universe, density);
    };
    for (int call = 0; call < 2; ++call) {
        std::vector<lindex_t> send;
        std::vector<int> sc;
        for (int d = 0; d < p_; ++d) {
            const auto b = block(r_, d, call);
            send.insert(send.end(), b.begin(), b.end());
            sc.push_back(int(b.size()));
        }
        std::vector<lindex_t> got;
        std::vector<int> rc;
        comm_->alltoall_ids(send, sc, universe, got, rc, "a2a-ids");
        std::vector<lindex_t> ref;
        std::vector<int> ref_rc;
        for (int s = 0; s < p_; ++s) {
            const auto b = block(s, r_, call);
            ref.insert(ref.end(), b.begin(), b.end());
            ref_rc.push_back(int(b.size()));
        }
        EXPECT_EQ(rc, ref_rc);
        EXPECT_EQ(got, ref);
    }
}

TEST_P(CommCollectives, ReduceScatterPairsCombinesWithTheMonoid) {
    const lindex_t universe = 1200;
    auto block = [&](int src, int dst) {
        return gen_set(src * 64 + dst, 20, universe, (src + dst) % 3 == 0 ? 0.5 : 0.03);
    };
    auto value = [](int src, lindex_t id) { return std::uint64_t(src + 1) * 1000003 + id; };
    std::vector<lindex_t> ids;
    std::vector<std::uint64_t> vals;
    std::vector<MinCount> mcs;
    std::vector<int> sc;
    for (int d = 0; d < p_; ++d) {
        const auto b = block(r_, d);
        for (const lindex_t id : b) {
            ids.push_back(id);
            vals.push_back(value(r_, id));
            mcs.push_back(MinCount{1, std::uint32_t(value(r_, id) % 1000)});
        }
        sc.push_back(int(b.size()));
    }
    std::map<lindex_t, std::uint64_t> ref_sum, ref_max;
    std::map<lindex_t, MinCount> ref_mc;
    for (int s = 0; s < p_; ++s) {
        for (const lindex_t id : block(s, r_)) {
            ref_sum[id] += value(s, id);
            ref_max[id] = std::max(ref_max[id], value(s, id));
            const auto m = std::uint32_t(value(s, id) % 1000);
            auto [it, fresh] = ref_mc.try_emplace(id, MinCount{1, m});
            if (!fresh) it->second = MinCount{it->second.count + 1, std::min(it->second.min, m)};
        }
    }
    std::vector<lindex_t> out_ids;
    std::vector<std::uint64_t> out_vals;
    comm_->reduce_scatter_pairs(
        std::span<const lindex_t>(ids), std::span<const std::uint64_t>(vals),
        std::span<const int>(sc), universe, [](std::uint64_t a, std::uint64_t b) { return a + b; },
        out_ids, out_vals, "fold");
    ASSERT_EQ(out_ids.size(), ref_sum.size());
    ASSERT_EQ(out_vals.size(), ref_sum.size());
    std::size_t i = 0;
    for (const auto& [id, v] : ref_sum) {
        EXPECT_EQ(out_ids[i], id);
        EXPECT_EQ(out_vals[i], v);
        ++i;
    }
    std::vector<MinCount> out_mc;
    comm_->reduce_scatter_pairs(
        std::span<const lindex_t>(ids), std::span<const MinCount>(mcs), std::span<const int>(sc),
        universe,
        [](MinCount a, MinCount b) {
            return MinCount{a.count + b.count, std::min(a.min, b.min)};
        },
        out_ids, out_mc, "fold-struct");
    ASSERT_EQ(out_mc.size(), ref_mc.size());
    i = 0;
    for (const auto& [id, m] : ref_mc) {
        EXPECT_EQ(out_ids[i], id);
        EXPECT_EQ(out_mc[i].count, m.count);
        EXPECT_EQ(out_mc[i].min, m.min);
        ++i;
    }
    // Values of 4, 12 and 16 bytes (the merge is instantiated per value type and add): sums,
    // counts and maxima of the same values.
    struct Three {
        std::uint32_t lo, hi, one;
    };
    struct Wide {
        std::uint64_t sum, max;
    };
    std::vector<std::uint32_t> v4;
    std::vector<Three> v12;
    std::vector<Wide> v16;
    for (std::size_t k = 0; k < ids.size(); ++k) {
        v4.push_back(std::uint32_t(vals[k]));
        v12.push_back(Three{std::uint32_t(vals[k]), std::uint32_t(vals[k] >> 32), 1});
        v16.push_back(Wide{vals[k], vals[k]});
    }
    std::vector<std::uint32_t> out4;
    comm_->reduce_scatter_pairs(
        std::span<const lindex_t>(ids), std::span<const std::uint32_t>(v4),
        std::span<const int>(sc), universe,
        [](std::uint32_t a, std::uint32_t b) { return std::uint32_t(a + b); }, out_ids, out4,
        "fold-4");
    ASSERT_EQ(out4.size(), ref_sum.size());
    std::vector<Three> out12;
    std::vector<lindex_t> ids12;
    comm_->reduce_scatter_pairs(
        std::span<const lindex_t>(ids), std::span<const Three>(v12), std::span<const int>(sc),
        universe,
        [](Three a, Three b) {
            const std::uint64_t lo = std::uint64_t(a.lo) + b.lo;
            return Three{std::uint32_t(lo), std::uint32_t(a.hi + b.hi + (lo >> 32)), a.one + b.one};
        },
        ids12, out12, "fold-12");
    ASSERT_EQ(out12.size(), ref_sum.size());
    std::vector<Wide> out16;
    std::vector<lindex_t> ids16;
    comm_->reduce_scatter_pairs(
        std::span<const lindex_t>(ids), std::span<const Wide>(v16), std::span<const int>(sc),
        universe,
        [](Wide a, Wide b) {
            return Wide{a.sum + b.sum, std::max(a.max, b.max)};
        },
        ids16, out16, "fold-16");
    ASSERT_EQ(out16.size(), ref_sum.size());
    i = 0;
    for (const auto& [id, v] : ref_sum) {
        EXPECT_EQ(out_ids[i], id);
        EXPECT_EQ(ids12[i], id);
        EXPECT_EQ(ids16[i], id);
        EXPECT_EQ(out4[i], std::uint32_t(v));
        EXPECT_EQ(out12[i].lo | (std::uint64_t(out12[i].hi) << 32), v);
        EXPECT_EQ(out12[i].one, ref_mc.at(id).count);
        EXPECT_EQ(out16[i].sum, v);
        EXPECT_EQ(out16[i].max, ref_max.at(id));
        ++i;
    }
    // Signed integers travel bit-packed on every wire format but raw: negative values, and
    // values that need every bit, come back exact (minima of 8- and 4-byte values).
    auto signed_value = [](int src, lindex_t id) {
        const std::int64_t v = std::int64_t(src + 1) * 1000003 + id;
        return id % 5 == 0 ? -v : (id % 7 == 0 ? v << 30 : v);
    };
    std::vector<std::int64_t> s8;
    std::vector<std::int32_t> s4;
    for (int d = 0, k = 0; d < p_; ++d) {
        for (int c = 0; c < sc[std::size_t(d)]; ++c, ++k) {
            s8.push_back(signed_value(r_, ids[std::size_t(k)]));
            s4.push_back(std::int32_t(signed_value(r_, ids[std::size_t(k)]) % 2000000007));
        }
    }
    std::map<lindex_t, std::int64_t> ref_min8;
    std::map<lindex_t, std::int32_t> ref_min4;
    for (int s = 0; s < p_; ++s) {
        for (const lindex_t id : block(s, r_)) {
            const std::int64_t v = signed_value(s, id);
            const auto v4 = std::int32_t(v % 2000000007);
            auto [a, fresh8] = ref_min8.try_emplace(id, v);
            if (!fresh8) a->second = std::min(a->second, v);
            auto [b, fresh4] = ref_min4.try_emplace(id, v4);
            if (!fresh4) b->second = std::min(b->second, v4);
        }
    }
    std::vector<std::int64_t> out_s8;
    std::vector<std::int32_t> out_s4;
    std::vector<lindex_t> ids4;
    comm_->reduce_scatter_pairs(
        std::span<const lindex_t>(ids), std::span<const std::int64_t>(s8), std::span<const int>(sc),
        universe, [](std::int64_t a, std::int64_t b) { return std::min(a, b); }, out_ids, out_s8,
        "fold-signed-8");
    comm_->reduce_scatter_pairs(
        std::span<const lindex_t>(ids), std::span<const std::int32_t>(s4), std::span<const int>(sc),
        universe, [](std::int32_t a, std::int32_t b) { return std::min(a, b); }, ids4, out_s4,
        "fold-signed-4");
    ASSERT_EQ(out_s8.size(), ref_min8.size());
    ASSERT_EQ(out_s4.size(), ref_min4.size());
    i = 0;
    for (const auto& [id, v] : ref_min8) {
        EXPECT_EQ(out_ids[i], id);
        EXPECT_EQ(ids4[i], id);
        EXPECT_EQ(out_s8[i], v);
        EXPECT_EQ(out_s4[i], ref_min4.at(id));
        ++i;
    }
    // An empty value type sends ids only: the result is the union of the ids.
    struct Nothing {};
    std::vector<Nothing> none(ids.size());
    std::vector<Nothing> out_none;
    comm_->reduce_scatter_pairs(
        std::span<const lindex_t>(ids), std::span<const Nothing>(none), std::span<const int>(sc),
        universe, [](Nothing a, Nothing) { return a; }, out_ids, out_none, "ids");
    EXPECT_EQ(out_none.size(), ref_sum.size());
    i = 0;
    for (const auto& kv : ref_sum) EXPECT_EQ(out_ids[i++], kv.first);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, CommCollectives, testing::ValuesIn(all_configs()),
                         config_name);

}  // namespace
