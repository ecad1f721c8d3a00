// Tests of the graph generators (generators.hpp): Graph500 Kronecker and uniform random edge
// lists, their slicing invariance (edge k depends only on the seed and k), the vertex
// relabelling bijection, the initiator statistics, degree skew, and parameter validation.

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/matrix/generators.hpp"

namespace gridblas {
namespace {

using Edges = std::vector<gindex_t>;

/// Runs f, expects it to throw E with a message containing every string of `parts`.
template <class E, class F>
void expect_throw_naming(F&& f, std::initializer_list<std::string> parts) {
    try {
        f();
        ADD_FAILURE() << "expected an exception";
    } catch (const E& e) {
        const std::string msg = e.what();
        for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << msg;
    }
}

KroneckerParams kron(int scale, std::uint64_t seed = 1, bool permute = true) {
    KroneckerParams p;
    p.scale = scale;
    p.seed = seed;
    p.permute = permute;
    return p;
}

std::vector<std::uint64_t> degrees(gindex_t n, const Edges& s, const Edges& d) {
    std::vector<std::uint64_t> deg(static_cast<std::size_t>(n), 0);
    for (gindex_t v : s) ++deg[static_cast<std::size_t>(v)];
    for (gindex_t v : d) ++deg[static_cast<std::size_t>(v)];
    return deg;
}

TEST(Kronecker, SizesFollowScaleAndEdgefactor) {
    KroneckerParams p = kron(10);
    EXPECT_EQ(num_vertices(p), 1024);
    EXPECT_EQ(num_edges(p), 16u * 1024u);
    p.edgefactor = 3;
    EXPECT_EQ(num_edges(p), 3u * 1024u);
    Edges s, d;
    kronecker_edges(p, 0, num_edges(p), s, d);
    EXPECT_EQ(s.size(), num_edges(p));
    EXPECT_EQ(d.size(), num_edges(p));
    EXPECT_EQ(num_vertices(kron(48)), gindex_t(1) << 48);
}

TEST(Kronecker, IdsInRangeAtEveryScale) {
    for (int scale : {1, 2, 3, 4, 5, 7, 8, 13, 31, 32, 33, 48, 62}) {
        for (bool permute : {false, true}) {
            KroneckerParams p = kron(scale, 5, permute);
            if (scale == 62) p.edgefactor = 3;  // 16 * 2^62 tuples would not fit 64 bits
            const std::uint64_t m = std::min<std::uint64_t>(num_edges(p), 4000);
            Edges s, d;
            kronecker_edges(p, num_edges(p) - m, m, s, d);
            const gindex_t n = num_vertices(p);
            for (std::size_t k = 0; k < s.size(); ++k) {
                ASSERT_TRUE(s[k] >= 0 && s[k] < n) << "scale " << scale << " src " << s[k];
                ASSERT_TRUE(d[k] >= 0 && d[k] < n) << "scale " << scale << " dst " << d[k];
            }
            // Large scales must actually use the high bits (vertex 0 is the likely corner only
            // without the relabelling, so look at the maximum over all ids).
            if (scale >= 8) {
                const gindex_t mx = std::max(*std::max_element(s.begin(), s.end()),
                                             *std::max_element(d.begin(), d.end()));
                EXPECT_GE(mx, n / 2) << "scale " << scale << " permute " << permute;
            }
        }
    }
}

TEST(Kronecker, SlicesConcatenateToTheWholeList) {
    const KroneckerParams p = kron(11, 42);
    const std::uint64_t m = num_edges(p);
    Edges all_s, all_d;
    kronecker_edges(p, 0, m, all_s, all_d);  // large enough to run in parallel

    const std::vector<std::uint64_t> cuts = {0, 1, 17, 4000, 4001, 9999, 20000, m - 1, m};
    Edges s, d;
    for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
        const std::uint64_t first = cuts[c];
        const std::uint64_t count = cuts[c + 1] - cuts[c];
        kronecker_edges(p, first, count, s, d);
        ASSERT_EQ(s.size(), count);
        for (std::uint64_t i = 0; i < count; ++i) {
            ASSERT_EQ(s[i], all_s[first + i]) << "edge " << first + i;
            ASSERT_EQ(d[i], all_d[first + i]) << "edge " << first + i;
        }
    }
    // The same through slice_range for several rank counts.
    for (int np : {1, 2, 3, 7}) {
        Edges cat_s, cat_d;
        for (int r = 0; r < np; ++r) {
            const auto [first, count] = slice_range(m, r, np);
            kronecker_edges(p, first, count, s, d);
            cat_s.insert(cat_s.end(), s.begin(), s.end());
            cat_d.insert(cat_d.end(), d.begin(), d.end());
        }
        EXPECT_EQ(cat_s, all_s) << np << " parts";
        EXPECT_EQ(cat_d, all_d) << np << " parts";
    }
}

TEST(Generators, OutputDoesNotDependOnTheThreadCount) {
    const KroneckerParams p = kron(14, 3);
    const UniformParams u{5000, 100000, 3};
    const int saved = omp_get_max_threads();
    Edges ks1, kd1, us1, ud1, ks3, kd3, us3, ud3;
    omp_set_num_threads(1);
    kronecker_edges(p, 123, 200000, ks1, kd1);
    uniform_edges(u, 0, u.num_edges, us1, ud1);
    omp_set_num_threads(3);
    kronecker_edges(p, 123, 200000, ks3, kd3);
    uniform_edges(u, 0, u.num_edges, us3, ud3);
    omp_set_num_threads(saved);
    EXPECT_EQ(ks1, ks3);
    EXPECT_EQ(kd1, kd3);
    EXPECT_EQ(us1, us3);
    EXPECT_EQ(ud1, ud3);
}

TEST(Kronecker, OutputsAreOverwrittenAndEmptySliceIsEmpty) {
    const KroneckerParams p = kron(6);
    Edges s(100, -7), d(3, -7);
    kronecker_edges(p, 10, 5, s, d);
    EXPECT_EQ(s.size(), 5u);
    EXPECT_EQ(d.size(), 5u);
    for (std::size_t k = 0; k < 5; ++k) EXPECT_TRUE(s[k] >= 0 && d[k] >= 0);
    kronecker_edges(p, num_edges(p), 0, s, d);
    EXPECT_TRUE(s.empty());
    EXPECT_TRUE(d.empty());
}

TEST(Kronecker, SeedSelectsTheGraph) {
    Edges s1, d1, s1b, d1b, s2, d2;
    kronecker_edges(kron(12, 1), 0, 20000, s1, d1);
    kronecker_edges(kron(12, 1), 0, 20000, s1b, d1b);
    kronecker_edges(kron(12, 2), 0, 20000, s2, d2);
    EXPECT_EQ(s1, s1b);
    EXPECT_EQ(d1, d1b);
    std::size_t same = 0;
    for (std::size_t k = 0; k < s1.size(); ++k) same += (s1[k] == s2[k] && d1[k] == d2[k]);
    // Two unrelated skewed graphs share a few tuples by chance (the hub pairs), not most.
    EXPECT_LT(same, s1.size() / 20);
}

TEST(Kronecker, RelabellingIsABijection) {
    for (int scale = 1; scale <= 16; ++scale) {
        for (std::uint64_t seed : {1u, 2u, 12345u}) {
            const KroneckerParams p = kron(scale, seed);
            const gindex_t n = num_vertices(p);
            std::vector<char> seen(static_cast<std::size_t>(n), 0);
            std::size_t fixed_points = 0;
            for (gindex_t v = 0; v < n; ++v) {
                const gindex_t w = kronecker_permute(p, v);
                ASSERT_TRUE(w >= 0 && w < n) << "scale " << scale << " v " << v << " -> " << w;
                ASSERT_FALSE(seen[static_cast<std::size_t>(w)])
                    << "scale " << scale << " seed " << seed << ": " << w << " hit twice";
                seen[static_cast<std::size_t>(w)] = 1;
                fixed_points += (w == v);
            }
            // A random permutation has about one fixed point; the identity would have n.
            if (scale >= 8) {
                EXPECT_LT(fixed_points, 16u) << "scale " << scale;
            }
        }
    }
    // Different seeds give different relabellings.
    std::size_t differ = 0;
    for (gindex_t v = 0; v < 1024; ++v) {
        differ += kronecker_permute(kron(10, 1), v) != kronecker_permute(kron(10, 2), v);
    }
    EXPECT_GT(differ, 900u);
}

TEST(Kronecker, RelabelledListIsThePermutedPlainList) {
    const KroneckerParams plain = kron(13, 9, false);
    const KroneckerParams perm = kron(13, 9, true);
    Edges ps, pd, qs, qd;
    kronecker_edges(plain, 1000, 30000, ps, pd);
    kronecker_edges(perm, 1000, 30000, qs, qd);
    for (std::size_t k = 0; k < ps.size(); ++k) {
        ASSERT_EQ(qs[k], kronecker_permute(perm, ps[k]));
        ASSERT_EQ(qd[k], kronecker_permute(perm, pd[k]));
    }
    // Without relabelling the hub is vertex 0 (every level prefers quadrant A); with it, the
    // hub moves away from 0.
    const auto deg = degrees(num_vertices(plain), ps, pd);
    EXPECT_EQ(std::max_element(deg.begin(), deg.end()) - deg.begin(), 0);
    EXPECT_NE(kronecker_permute(perm, 0), 0);
}

// Counts, over all levels, how often an edge's (row bit, column bit) at a level is each
// quadrant; checks the frequencies against the initiator. Scale 7 leaves the last random word
// partly unused, which this also covers.
TEST(Kronecker, QuadrantFrequenciesMatchTheInitiator) {
    KroneckerParams p = kron(7, 3, false);
    p.edgefactor = 256;  // 32768 edges
    p.a = 0.5;
    p.b = 0.3;
    p.c = 0.12;  // d = 0.08; b != c so that a row/column mix-up shows
    Edges s, d;
    kronecker_edges(p, 0, num_edges(p), s, d);
    const double expect[4] = {p.a, p.b, p.c, 1.0 - p.a - p.b - p.c};
    double total[4] = {0, 0, 0, 0};
    for (int bit = 0; bit < p.scale; ++bit) {
        double count[4] = {0, 0, 0, 0};
        for (std::size_t k = 0; k < s.size(); ++k) {
            const int q = int(((s[k] >> bit) & 1) * 2 + ((d[k] >> bit) & 1));
            count[q] += 1;
        }
        for (int q = 0; q < 4; ++q) {
            const double f = count[q] / double(s.size());
            total[q] += f / p.scale;
            // sd <= sqrt(0.25 / 32768) = 0.0028; allow about 6 sd per level.
            EXPECT_NEAR(f, expect[q], 0.017) << "bit " << bit << " quadrant " << q;
        }
    }
    for (int q = 0; q < 4; ++q) EXPECT_NEAR(total[q], expect[q], 0.007) << "quadrant " << q;
}

TEST(Kronecker, DegenerateInitiatorsPickOneCorner) {
    struct Case {
        double a, b, c;
        gindex_t src, dst;  // in units of n - 1
    };
    for (const Case& cs :
         {Case{1, 0, 0, 0, 0}, Case{0, 1, 0, 0, 1}, Case{0, 0, 1, 1, 0}, Case{0, 0, 0, 1, 1}}) {
        KroneckerParams p = kron(9, 1, false);
        p.a = cs.a;
        p.b = cs.b;
        p.c = cs.c;
        Edges s, d;
        kronecker_edges(p, 0, 2000, s, d);
        const gindex_t last = num_vertices(p) - 1;
        for (std::size_t k = 0; k < s.size(); ++k) {
            ASSERT_EQ(s[k], cs.src * last) << "a b c = " << cs.a << " " << cs.b << " " << cs.c;
            ASSERT_EQ(d[k], cs.dst * last);
        }
    }
}

// Scale 12, edgefactor 16: n = 4096, m = 65536, mean degree (in + out) 2m/n = 32. The hub
// (vertex 0 before relabelling) has expected degree m((a+b)^12 + (a+c)^12) = 2 * 65536 *
// 0.76^12 ~ 4860, about 150x the mean; we require 20x, a margin of over 7x.
TEST(Kronecker, DegreesAreSkewed) {
    const KroneckerParams p = kron(12, 7);
    Edges s, d;
    kronecker_edges(p, 0, num_edges(p), s, d);
    const auto deg = degrees(num_vertices(p), s, d);
    const double mean = 2.0 * double(num_edges(p)) / double(num_vertices(p));
    const auto mx = *std::max_element(deg.begin(), deg.end());
    EXPECT_GT(double(mx), 20.0 * mean);
    // Graph500 graphs have many isolated vertices and keep self-loops and duplicates.
    EXPECT_GT(std::count(deg.begin(), deg.end(), 0u), 100);
    std::size_t loops = 0;
    for (std::size_t k = 0; k < s.size(); ++k) loops += s[k] == d[k];
    EXPECT_GT(loops, 0u);
    std::set<std::pair<gindex_t, gindex_t>> uniq;
    for (std::size_t k = 0; k < s.size(); ++k) uniq.insert({s[k], d[k]});
    EXPECT_LT(uniq.size(), s.size());
}

// Pins the graph of one parameter set, so that an accidental change of the generator (which
// would change every published number) is noticed. Update deliberately if the generator
// changes on purpose.
TEST(Kronecker, GraphIsStableAcrossVersions) {
    Edges s, d;
    kronecker_edges(kron(16, 1), 0, num_edges(kron(16, 1)), s, d);
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a over the id words
    for (std::size_t k = 0; k < s.size(); ++k) {
        for (gindex_t v : {s[k], d[k]}) {
            h ^= std::uint64_t(v);
            h *= 1099511628211ULL;
        }
    }
    EXPECT_EQ(h, 0xf819b5bd06f7a8f5ULL) << "generator output changed: 0x" << std::hex << h;
}

TEST(Uniform, SlicesConcatenateAndSeedMatters) {
    const UniformParams p{1000, 50000, 11};
    Edges all_s, all_d, s, d;
    uniform_edges(p, 0, p.num_edges, all_s, all_d);
    Edges cat_s, cat_d;
    for (int r = 0; r < 5; ++r) {
        const auto [first, count] = slice_range(p.num_edges, r, 5);
        uniform_edges(p, first, count, s, d);
        cat_s.insert(cat_s.end(), s.begin(), s.end());
        cat_d.insert(cat_d.end(), d.begin(), d.end());
    }
    EXPECT_EQ(cat_s, all_s);
    EXPECT_EQ(cat_d, all_d);
    uniform_edges(UniformParams{1000, 50000, 12}, 0, 50000, s, d);
    std::size_t same = 0;
    for (std::size_t k = 0; k < s.size(); ++k) same += (s[k] == all_s[k]);
    EXPECT_LT(same, 500u);  // about 50 expected by chance (1 / 1000 per edge)
}

// n = 4096, m = 65536: each degree (in + out) is Binomial(131072, 1/4096) ~ Poisson(32).
// P(X >= 80) and P(X <= 5) are below 1e-10 each, so over 4096 vertices the bounds hold with
// overwhelming probability (and the test is deterministic for its seed).
TEST(Uniform, DegreesAreNearlyUniform) {
    const UniformParams p{4096, 65536, 5};
    Edges s, d;
    uniform_edges(p, 0, p.num_edges, s, d);
    const auto deg = degrees(p.num_vertices, s, d);
    EXPECT_LT(*std::max_element(deg.begin(), deg.end()), 80u);
    EXPECT_GT(*std::min_element(deg.begin(), deg.end()), 5u);
    std::size_t low = 0;
    for (gindex_t v : s) low += v < 2048;
    EXPECT_NEAR(double(low) / double(s.size()), 0.5, 0.01);
}

TEST(Uniform, IdsInRangeForAnyVertexCount) {
    for (gindex_t n : {gindex_t(1), gindex_t(2), gindex_t(3), gindex_t(1000), gindex_t(1) << 40,
                       std::numeric_limits<gindex_t>::max()}) {
        const UniformParams p{n, 3000, 1};
        Edges s, d;
        uniform_edges(p, 0, 3000, s, d);
        for (std::size_t k = 0; k < s.size(); ++k) {
            ASSERT_TRUE(s[k] >= 0 && s[k] < n && d[k] >= 0 && d[k] < n) << "n " << n;
        }
        if (n == 1) {
            EXPECT_EQ(*std::max_element(s.begin(), s.end()), 0);
        }
        if (n >= 1000) {
            EXPECT_GT(*std::max_element(d.begin(), d.end()), n / 2);
        }
    }
}

TEST(SliceRange, BalancedContiguousAndComplete) {
    for (std::uint64_t total :
         {std::uint64_t(0), std::uint64_t(1), std::uint64_t(7), std::uint64_t(100),
          (std::uint64_t(1) << 40) + 3, std::numeric_limits<std::uint64_t>::max()}) {
        for (int np = 1; np <= 9; ++np) {
            std::uint64_t next = 0, lo = ~std::uint64_t(0), hi = 0;
            for (int r = 0; r < np; ++r) {
                const auto [first, count] = slice_range(total, r, np);
                EXPECT_EQ(first, next) << total << " / " << np << " part " << r;
                next = first + count;
                lo = std::min(lo, count);
                hi = std::max(hi, count);
            }
            EXPECT_EQ(next, total) << total << " / " << np;
            EXPECT_LE(hi - lo, 1u) << total << " / " << np;
        }
    }
}

TEST(Generators, InvalidParametersThrowNamingTheValue) {
    auto with = [](auto f) {
        KroneckerParams p = kron(10);
        f(p);
        return p;
    };
    expect_throw_naming<InvalidValue>([&] { num_edges(kron(0)); }, {"scale", "0"});
    expect_throw_naming<InvalidValue>([&] { num_vertices(kron(-3)); }, {"scale", "-3"});
    expect_throw_naming<InvalidValue>([&] { num_vertices(kron(63)); }, {"scale", "63"});
    expect_throw_naming<InvalidValue>(
        [&] { num_edges(with([](KroneckerParams& p) { p.edgefactor = 0; })); },
        {"edgefactor", "0"});
    expect_throw_naming<InvalidValue>(
        [&] { num_edges(with([](KroneckerParams& p) { p.edgefactor = -5; })); },
        {"edgefactor", "-5"});
    expect_throw_naming<InvalidValue>(
        [&] {
            KroneckerParams p = kron(62);
            p.edgefactor = 1 << 20;
            num_edges(p);
        },
        {"edgefactor", "1048576"});
    expect_throw_naming<InvalidValue>(
        [&] { validate(with([](KroneckerParams& p) { p.a = -0.1; })); }, {"a", "-0.1"});
    expect_throw_naming<InvalidValue>(
        [&] { validate(with([](KroneckerParams& p) { p.b = 1.5; })); }, {"b", "1.5"});
    expect_throw_naming<InvalidValue>(
        [&] { validate(with([](KroneckerParams& p) { p.c = std::nan(""); })); }, {"c", "nan"});
    expect_throw_naming<InvalidValue>(
        [&] { validate(with([](KroneckerParams& p) { p.a = 0.6, p.b = 0.3, p.c = 0.3; })); },
        {"a + b + c", "1.2"});
    EXPECT_NO_THROW(validate(with([](KroneckerParams& p) { p.a = 0.5, p.b = 0.25, p.c = 0.25; })));

    // Bad ranges leave the outputs untouched.
    Edges s = {1, 2}, d = {3};
    const KroneckerParams p = kron(5);
    const std::uint64_t m = num_edges(p);
    expect_throw_naming<IndexOutOfBounds>([&] { kronecker_edges(p, m, 1, s, d); },
                                          {std::to_string(m)});
    expect_throw_naming<IndexOutOfBounds>([&] { kronecker_edges(p, 1, ~std::uint64_t(0), s, d); },
                                          {"edge range"});
    expect_throw_naming<InvalidValue>([&] { kronecker_edges(kron(0), 0, 1, s, d); }, {"scale"});
    EXPECT_EQ(s, (Edges{1, 2}));
    EXPECT_EQ(d, (Edges{3}));
    expect_throw_naming<IndexOutOfBounds>([&] { kronecker_permute(p, 32); }, {"32"});
    expect_throw_naming<IndexOutOfBounds>([&] { kronecker_permute(p, -1); }, {"-1"});

    expect_throw_naming<InvalidValue>(
        [&] {
            uniform_edges({0, 10, 1}, 0, 1, s, d);
        },
        {"num_vertices", "0"});
    expect_throw_naming<InvalidValue>(
        [&] {
            uniform_edges({-4, 10, 1}, 0, 1, s, d);
        },
        {"num_vertices", "-4"});
    expect_throw_naming<IndexOutOfBounds>([&] { uniform_edges({8, 10, 1}, 5, 6, s, d); }, {"10"});
    EXPECT_EQ(s, (Edges{1, 2}));

    expect_throw_naming<InvalidValue>([&] { slice_range(10, 0, 0); }, {"nparts", "0"});
    expect_throw_naming<IndexOutOfBounds>([&] { slice_range(10, 3, 3); }, {"part", "3"});
    expect_throw_naming<IndexOutOfBounds>([&] { slice_range(10, -1, 3); }, {"part", "-1"});
}

}  // namespace
}  // namespace gridblas
