// The typed merge of two ascending (id, value) runs that reduce-scatters combine blocks with
// (comm::detail::merge_pair_runs_typed): against a std::map reference on random runs of
// several overlaps, for an 8-byte minimum, a 12-byte struct, values at odd alignments, empty
// runs and runs that do not interleave at all.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <vector>

#include "gridblas/comm/pair_merge.hpp"

using gridblas::lindex_t;
using gridblas::comm::detail::merge_pair_runs_typed;

namespace {

struct Three {
    std::uint32_t a, b, c;
};

// A run of strictly increasing ids, each id below `universe` kept with probability `p`.
std::vector<lindex_t> random_run(std::mt19937& rng, lindex_t universe, double p) {
    std::bernoulli_distribution keep(p);
    std::vector<lindex_t> ids;
    for (lindex_t i = 0; i < universe; ++i) {
        if (keep(rng)) ids.push_back(i);
    }
    return ids;
}

// Values laid out at byte offset `shift` of a char buffer (any alignment).
template <class V>
std::vector<char> packed(const std::vector<V>& v, std::size_t shift) {
    std::vector<char> out(shift + v.size() * sizeof(V));
    if (!v.empty()) std::memcpy(out.data() + shift, v.data(), v.size() * sizeof(V));
    return out;
}

// Merges x and y with `add` and checks ids and values against a map built from both.
template <class V, class Add, class Eq>
void check_merge(const std::vector<lindex_t>& x, const std::vector<V>& xv,
                 const std::vector<lindex_t>& y, const std::vector<V>& yv, Add add, Eq eq,
                 std::size_t shift) {
    std::map<lindex_t, V> ref;
    for (std::size_t k = 0; k < x.size(); ++k) ref.emplace(x[k], xv[k]);
    for (std::size_t k = 0; k < y.size(); ++k) {
        auto [it, fresh] = ref.emplace(y[k], yv[k]);
        if (!fresh) it->second = add(it->second, yv[k]);
    }
    const std::vector<char> xb = packed(xv, shift), yb = packed(yv, shift + 1);
    std::vector<lindex_t> o(x.size() + y.size() + 1, 7);
    std::vector<char> ob(shift + (x.size() + y.size() + 1) * sizeof(V));
    const std::size_t n =
        merge_pair_runs_typed<V>(add, x.data(), xb.data() + shift, x.size(), y.data(),
                                 yb.data() + shift + 1, y.size(), o.data(), ob.data() + shift);
    ASSERT_EQ(n, ref.size());
    std::size_t k = 0;
    for (const auto& [id, v] : ref) {
        ASSERT_EQ(o[k], id) << "entry " << k;
        V got;
        std::memcpy(&got, ob.data() + shift + k * sizeof(V), sizeof(V));
        ASSERT_TRUE(eq(got, v)) << "value of id " << id;
        ++k;
    }
    EXPECT_EQ(o[n], 7u) << "wrote past the merged length";
}

}  // namespace

TEST(PairMerge, MinOfRandomRunsMatchesReference) {
    std::mt19937 rng(5);
    auto min = [](std::int64_t a, std::int64_t b) { return std::min(a, b); };
    auto eq = [](std::int64_t a, std::int64_t b) { return a == b; };
    for (double px : {0.0, 0.01, 0.2, 0.9, 1.0}) {
        for (double py : {0.0, 0.05, 0.5, 1.0}) {
            const auto x = random_run(rng, 3000, px);
            const auto y = random_run(rng, 3000, py);
            std::vector<std::int64_t> xv(x.size()), yv(y.size());
            for (auto& v : xv) v = std::int64_t(rng() % 1000) - 500;
            for (auto& v : yv) v = std::int64_t(rng() % 1000) - 500;
            for (std::size_t shift : {0u, 3u}) check_merge(x, xv, y, yv, min, eq, shift);
        }
    }
}

TEST(PairMerge, StructValuesAndDisjointRuns) {
    std::mt19937 rng(11);
    auto add = [](Three p, Three q) { return Three{p.a + q.a, std::max(p.b, q.b), p.c + q.c}; };
    auto eq = [](Three p, Three q) { return p.a == q.a && p.b == q.b && p.c == q.c; };
    const auto x = random_run(rng, 5000, 0.3);
    const auto y = random_run(rng, 5000, 0.3);
    std::vector<Three> xv(x.size()), yv(y.size());
    for (auto& v : xv) v = Three{std::uint32_t(rng() % 100), std::uint32_t(rng() % 100), 1};
    for (auto& v : yv) v = Three{std::uint32_t(rng() % 100), std::uint32_t(rng() % 100), 1};
    check_merge(x, xv, y, yv, add, eq, 1);
    // One run entirely below the other, in both orders: the tails are copied whole.
    std::vector<lindex_t> low = {1, 2, 5}, high = {9, 10};
    std::vector<Three> lv = {{1, 1, 1}, {2, 2, 1}, {3, 3, 1}}, hv = {{4, 4, 1}, {5, 5, 1}};
    check_merge(low, lv, high, hv, add, eq, 0);
    check_merge(high, hv, low, lv, add, eq, 2);
    // Identical ids: every entry combined.
    check_merge(low, lv, low, lv, add, eq, 0);
}
