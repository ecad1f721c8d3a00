// Tests of spmspv_update (spmspv_update.hpp): a sparse input pushed into a full output with
// the semiring's add, on every push view (DCSC of A with and without lookup, CSR of Aᵀ), with
// min_plus and plus_times on doubles (atomic path with 2 threads) and min_plus on a pair type
// (one thread), against a naive loop; 1 and 2 threads give identical results, also when the
// threads race on the same few outputs.

#include <gtest/gtest.h>

#include <random>
#include <span>
#include <vector>

#include "gridblas/kernels/cpu/spmspv_update.hpp"
#include "test_kernels_common.hpp"

namespace {

using namespace kt;

/// (distance, id) pairs: not atomic, so the kernel runs on one thread.
struct Pair {
    double d;
    long id;
    bool operator==(const Pair&) const = default;
};
struct min_plus_pair {
    using value_type = Pair;
    static Pair zero() { return {1e300, 1L << 40}; }
    static Pair add(Pair a, Pair b) { return (b.d < a.d || (b.d == a.d && b.id < a.id)) ? b : a; }
    static Pair mul(double w, Pair x) { return {x.d + w, x.id}; }
};

template <class Y>
Y make_value(std::mt19937_64& g, int lo, int hi, long id) {
    const double v = double(lo + int(g() % std::uint64_t(hi - lo + 1)));
    if constexpr (std::is_same_v<Y, Pair>) {
        return Pair{v, id};
    } else {
        return Y(v);
    }
}

template <class S>
void check(const Tuples& t, double xfrac, std::uint64_t seed, const char* name) {
    using Y = typename S::value_type;
    SCOPED_TRACE(std::string(name) + " " + std::to_string(t.nrows) + "x" + std::to_string(t.ncols) +
                 " xfrac " + std::to_string(xfrac));
    const Blocks<double> blocks(t);
    std::mt19937_64 g(seed);
    // Input: a random subset of the columns (outer = j); output: every row.
    std::vector<lindex_t> ids;
    std::vector<Y> vals;
    for (lindex_t j = 0; j < t.ncols; ++j) {
        if (double(g() % 1000) < xfrac * 1000) {
            ids.push_back(j);
            vals.push_back(make_value<Y>(g, 0, 9, long(j)));
        }
    }
    std::vector<Y> w0(t.nrows);
    for (lindex_t i = 0; i < t.nrows; ++i) w0[i] = make_value<Y>(g, 5, 30, long(i) + 7);
    // Naive: every product in input order.
    std::vector<Y> want = w0;
    for (std::size_t e = 0; e < ids.size(); ++e) {
        for (std::size_t k = 0; k < t.r.size(); ++k) {
            if (t.c[k] != ids[e]) continue;
            want[t.r[k]] = S::add(want[t.r[k]], S::mul(double(t.v[k]), vals[e]));
        }
    }
    std::vector<lindex_t> want_changed;
    for (lindex_t i = 0; i < t.nrows; ++i) {
        if (!(want[i] == w0[i])) want_changed.push_back(i);
    }
    for (const auto& named : blocks.push_views()) {
        SCOPED_TRACE(named.first);
        for (int threads : {1, 2}) {
            std::vector<Y> w = w0;
            std::vector<lindex_t> changed;
            UpdateWorkspace ws;
            ws.policy = eager_policy();
            for (int call = 0; call < 2; ++call) {  // the second call changes nothing
                with_threads(threads, [&] {
                    spmspv_update<S>(named.second, std::span<const lindex_t>(ids),
                                     std::span<const Y>(vals), std::span<Y>(w), changed, ws);
                });
                if (call == 0) {
                    EXPECT_TRUE(w == want) << threads << " threads";
                    EXPECT_EQ(changed, want_changed) << threads << " threads";
                }
            }
            if constexpr (!std::is_same_v<S, plus_times<double>>) {
                EXPECT_TRUE(changed.empty()) << "an idempotent add changes nothing twice";
            }
            for (std::uint64_t word : ws.bits) ASSERT_EQ(word, 0u) << "bits left set";
        }
    }
}

TEST(UpdateKernel, MatchesNaiveLoop) {
    std::uint64_t seed = 3;
    for (const auto& [nr, nc, nnz] :
         {std::tuple{200u, 150u, 2000u}, std::tuple{1000u, 700u, 30000u}, std::tuple{70u, 70u, 0u},
          std::tuple{1u, 1u, 1u},
          // Columns of about 1000 entries: the screened atomic path takes them in chunks.
          std::tuple{3000u, 20u, 20000u}}) {
        const Tuples t = random_tuples(nr, nc, nnz, nnz > 100, ++seed);
        for (double xfrac : {0.02, 0.3, 1.0}) {
            check<min_plus<double>>(t, xfrac, ++seed, "min_plus");
            check<plus_times<double>>(t, xfrac, ++seed, "plus_times");
            check<min_plus_pair>(t, xfrac, ++seed, "min_plus on pairs");
        }
    }
}

// Every column holds every one of a few rows, so the two threads store into the same outputs
// all the time and overwrite each other's smaller values: the min and max joins must still
// end at the naive result (the pass that adds back overwritten stores), every time.
TEST(UpdateKernel, ContendedOutputsMatchNaiveLoop) {
    Tuples t;
    t.nrows = 8;
    t.ncols = 3000;
    std::mt19937_64 g(11);
    for (lindex_t j = 0; j < t.ncols; ++j) {
        for (lindex_t i = 0; i < t.nrows; ++i) {
            t.r.push_back(i);
            t.c.push_back(j);
            t.v.push_back(std::int64_t(1 + g() % 1000));
        }
    }
    const Blocks<double> blocks(t);
    std::vector<lindex_t> ids(t.ncols);
    std::vector<double> vals(t.ncols);
    for (lindex_t j = 0; j < t.ncols; ++j) {
        ids[j] = j;
        vals[j] = double(g() % 100000);
    }
    const auto run = [&]<class S>(S, double start) {
        std::vector<double> want(t.nrows, start);
        for (std::size_t k = 0; k < t.r.size(); ++k) {
            want[t.r[k]] = S::add(want[t.r[k]], S::mul(double(t.v[k]), vals[t.c[k]]));
        }
        UpdateWorkspace ws;
        ws.policy = eager_policy();
        std::vector<lindex_t> changed;
        for (int rep = 0; rep < 200; ++rep) {
            std::vector<double> w(t.nrows, start);
            with_threads(2, [&] {
                spmspv_update<S>(make_view(blocks.csr_at), std::span<const lindex_t>(ids),
                                 std::span<const double>(vals), std::span<double>(w), changed, ws);
            });
            ASSERT_EQ(w, want) << "repetition " << rep;
            ASSERT_EQ(changed.size(), std::size_t(t.nrows)) << "repetition " << rep;
        }
    };
    run(min_plus<double>{}, 1e18);
    run(max_times<double>{}, -1.0);
}

TEST(UpdateKernel, RejectsMismatchedInput) {
    const Blocks<double> b(random_tuples(10, 10, 20, false, 1));
    std::vector<lindex_t> ids{1, 2};
    std::vector<double> vals{1.0}, w(10, 0.0);
    std::vector<lindex_t> changed;
    UpdateWorkspace ws;
    EXPECT_THROW(spmspv_update<min_plus<double>>(
                     make_view(b.csr_at), std::span<const lindex_t>(ids),
                     std::span<const double>(vals), std::span<double>(w), changed, ws),
                 DimensionMismatch);
}

}  // namespace
