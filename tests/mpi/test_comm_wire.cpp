// Wire codecs of id sets (raw, delta + bit packing, range bitmap): exact round trips, exact
// size predictions, the smallest-format choice and rejection of malformed frames. Local to
// each rank (every rank checks a different random sample).

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <random>
#include <vector>

#include "gridblas/comm/wire.hpp"
#include "gridblas/core/error.hpp"

namespace gc = gridblas::comm;
namespace wire = gridblas::comm::wire;
using gridblas::lindex_t;

namespace {

int world_rank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

std::vector<lindex_t> random_set(std::mt19937_64& rng, std::uint64_t universe, double density) {
    std::vector<lindex_t> ids;
    std::bernoulli_distribution keep(density);
    for (std::uint64_t i = 0; i < universe; ++i) {
        if (keep(rng)) ids.push_back(lindex_t(i));
    }
    return ids;
}

const gc::WireFormat kFormats[] = {gc::WireFormat::raw, gc::WireFormat::delta,
                                   gc::WireFormat::bitmap, gc::WireFormat::automatic};

void expect_round_trip(const std::vector<lindex_t>& ids) {
    const wire::FrameSizes sizes = wire::frame_sizes(ids);
    for (const gc::WireFormat f : kFormats) {
        std::vector<char> buf = {'x'};  // encode appends
        const gc::WireFormat used = wire::encode(ids, f, buf);
        if (f != gc::WireFormat::automatic) {
            EXPECT_EQ(used, f);
        }
        if (f == gc::WireFormat::automatic && !ids.empty()) {
            EXPECT_EQ(used, sizes.smallest());
        }
        EXPECT_EQ(buf.size() - 1, sizes.of(f)) << "size prediction, format " << int(f);
        const std::span<const char> frame(buf.data() + 1, buf.size() - 1);
        const wire::FrameHeader h = wire::read_header(frame);
        EXPECT_EQ(h.count, ids.size());
        EXPECT_EQ(h.frame_bytes, frame.size());
        std::vector<lindex_t> back = {7};  // decode appends
        EXPECT_EQ(wire::decode(frame, back), frame.size());
        ASSERT_EQ(back.size(), ids.size() + 1);
        EXPECT_TRUE(std::equal(ids.begin(), ids.end(), back.begin() + 1)) << "format " << int(f);
        if (!ids.empty() && ids.back() < (1u << 24)) {  // bit array of the universe
            const lindex_t universe = ids.back() + 1;
            std::vector<std::uint64_t> bits((std::size_t(universe) + 63) / 64 + 1, 0);
            wire::decode_into_bits(frame, universe, bits.data());
            std::size_t set = 0;
            for (const auto w : bits) set += std::size_t(__builtin_popcountll(w));
            EXPECT_EQ(set, ids.size());
            for (const lindex_t id : ids) EXPECT_TRUE((bits[id >> 6] >> (id & 63)) & 1);
        }
    }
}

}  // namespace

TEST(CommWire, RoundTripsRandomSetsOfManyDensities) {
    std::mt19937_64 rng(1234 + world_rank());
    for (const double d : {0.0, 0.001, 0.01, 0.05, 0.2, 0.5, 0.9, 1.0}) {
        for (const std::uint64_t u : {1ull, 7ull, 64ull, 65ull, 1000ull, 6000ull}) {
            expect_round_trip(random_set(rng, u, d));
        }
    }
}

TEST(CommWire, RoundTripsEdgeSets) {
    const lindex_t top = 0xfffffffeu;  // largest id of the largest universe
    expect_round_trip({});
    expect_round_trip({0});
    expect_round_trip({top});
    expect_round_trip({0, top});
    expect_round_trip({top - 1, top});
    expect_round_trip({1, 2, 3, 4, 5, 6, 7, 8, 9});
    std::vector<lindex_t> run(1000);
    for (lindex_t i = 0; i < 1000; ++i) run[i] = i;  // delta width 0
    expect_round_trip(run);
    for (auto& v : run) v = v * 3 + 1000000;
    expect_round_trip(run);
}

TEST(CommWire, SmallestFormatFollowsDensity) {
    std::mt19937_64 rng(99);
    const auto dense = random_set(rng, 100000, 0.5);
    std::vector<lindex_t> sparse(100);
    for (auto& v : sparse) v = lindex_t(rng() % (1u << 30));
    std::sort(sparse.begin(), sparse.end());
    sparse.erase(std::unique(sparse.begin(), sparse.end()), sparse.end());
    const auto mid = random_set(rng, 100000, 0.02);
    EXPECT_EQ(wire::frame_sizes(dense).smallest(), gc::WireFormat::bitmap);
    EXPECT_EQ(wire::frame_sizes(mid).smallest(), gc::WireFormat::delta);
    const wire::FrameSizes s = wire::frame_sizes(sparse);
    EXPECT_LE(s.of(gc::WireFormat::automatic), s.raw);
    EXPECT_NE(s.smallest(), gc::WireFormat::bitmap);
    // A set of density 1/2 takes about one bit per id slot: 2 bits per id instead of 32.
    EXPECT_LT(wire::frame_sizes(dense).of(gc::WireFormat::automatic) * 15,
              wire::frame_sizes(dense).raw);
    EXPECT_EQ(wire::raw_frame_size(0), 2u);
    EXPECT_EQ(wire::raw_frame_size(3), 1u + 1u + 12u);
}

TEST(CommWire, MalformedFramesThrowCommError) {
    std::vector<char> buf;
    wire::encode(std::vector<lindex_t>{1, 5, 9, 200}, gc::WireFormat::delta, buf);
    std::vector<lindex_t> out;
    for (std::size_t cut = 0; cut < buf.size(); ++cut) {
        EXPECT_THROW(wire::decode({buf.data(), cut}, out), gridblas::CommError) << cut;
    }
    std::vector<char> bad = {char(9), char(1), char(0)};  // unknown format byte
    EXPECT_THROW(wire::decode(bad, out), gridblas::CommError);
    std::vector<char> bm;
    wire::encode(std::vector<lindex_t>{10, 90}, gc::WireFormat::bitmap, bm);
    std::vector<std::uint64_t> bits(1, 0);
    EXPECT_THROW(wire::decode_into_bits(bm, 64, bits.data()), gridblas::CommError);
}

TEST(CommWire, CheckIdsNamesTheProblem) {
    EXPECT_NO_THROW(wire::check_ids(std::vector<lindex_t>{}, 0, "x"));
    EXPECT_NO_THROW(wire::check_ids(std::vector<lindex_t>{0, 4}, 5, "x"));
    EXPECT_THROW(wire::check_ids(std::vector<lindex_t>{0, 5}, 5, "x"), gridblas::IndexOutOfBounds);
    EXPECT_THROW(wire::check_ids(std::vector<lindex_t>{3, 3}, 5, "x"), gridblas::InvalidValue);
    EXPECT_THROW(wire::check_ids(std::vector<lindex_t>{4, 3}, 5, "x"), gridblas::InvalidValue);
}
