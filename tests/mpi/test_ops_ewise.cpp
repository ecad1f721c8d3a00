// Tests of ewise_add / ewise_mult (include/gridblas/ops/ewise.hpp) against the serial
// reference, on every grid shape of the rank count: every mask kind × complement × replace ×
// accumulator × aliasing × storage format, mixed value types, and the argument errors.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>

#include "dist_test_util.hpp"
#include "gridblas/ops/ewise.hpp"
#include "ops_check.hpp"
#include "reference/ops_reference.hpp"

namespace gridblas::test {
namespace {

using I64 = std::int64_t;

// A non-commutative operator, so that swapped operands would show.
struct MinusTwice {
    I64 operator()(I64 a, I64 b) const { return a - 2 * b; }
};

template <bool Add>
void run_all_combinations(const char* what, std::uint64_t seed) {
    const Alias aliases[] = {Alias::none, Alias::w_is_u, Alias::w_is_v, Alias::w_is_mask};
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (gindex_t n : test_lengths()) {
            std::mt19937_64 rng(seed + std::uint64_t(n));
            const auto w0 = random_vec<I64>(rng, n, 0.5);
            const auto u0 = random_vec<I64>(rng, n, 0.4);
            const auto v0 = random_vec<I64>(rng, n, 0.4);
            const auto m0 = random_vec<int>(rng, n, 0.6, 0, 1);
            const DistVector<I64> u_dist = make_vector(grid, n, u0);
            const DistVector<I64> v_dist = make_vector(grid, n, v0);
            auto dist_op = [&](DistVector<I64>& w, const auto& mask, auto accum,
                               const Descriptor& d, Alias alias, VectorFormat fmt) {
                const auto u = in_format(u_dist, fmt);
                const auto v = in_format(v_dist, fmt);
                const DistVector<I64>& uu = *(alias == Alias::w_is_u ? &w : &u);
                const DistVector<I64>& vv = *(alias == Alias::w_is_v ? &w : &v);
                if constexpr (Add) {
                    ewise_add(w, mask, accum, MinusTwice{}, uu, vv, d);
                } else {
                    ewise_mult(w, mask, accum, MinusTwice{}, uu, vv, d);
                }
            };
            auto ref_t = [&](const ref::Vec<I64>& w_old, Alias alias) {
                const auto& uu = alias == Alias::w_is_u ? w_old : u0;
                const auto& vv = alias == Alias::w_is_v ? w_old : v0;
                return Add ? ref::ewise_add(uu, vv, MinusTwice{})
                           : ref::ewise_mult(uu, vv, MinusTwice{});
            };
            checked += check_combinations(grid, n, w0, m0, aliases, dist_op, ref_t, what);
        }
    }
    EXPECT_GT(checked, 0);
}

TEST(OpsEwise, AddEveryMaskAccumReplaceAliasCombination) {
    run_all_combinations<true>("ewise_add", 1000);
}

TEST(OpsEwise, MultEveryMaskAccumReplaceAliasCombination) {
    run_all_combinations<false>("ewise_mult", 2000);
}

// Different value types: w double, u int, v int64, op returning int64; a Pattern mask.
TEST(OpsEwise, MixedTypesAndPatternMask) {
    auto op = [](int a, I64 b) { return I64(a) * b + 1; };
    for (const auto& grid : all_grids()) {
        for (gindex_t n : test_lengths()) {
            std::mt19937_64 rng(77 + std::uint64_t(n));
            const auto w0 = random_vec<double>(rng, n, 0.5);
            const auto u0 = random_vec<int>(rng, n, 0.5);
            const auto v0 = random_vec<I64>(rng, n, 0.5);
            const auto pm = random_vec<int>(rng, n, 0.5);
            ref::Vec<Pattern> m0;
            for (const auto& [i, x] : pm) m0[i] = Pattern{};
            const auto u = make_vector(grid, n, u0);
            const auto v = make_vector(grid, n, v0);
            const auto mask = make_vector(grid, n, m0);
            for (bool comp : {false, true}) {
                Descriptor d;
                d.mask_complement = comp;
                auto w = make_vector(grid, n, w0);
                ewise_add(w, mask, std::plus<>{}, op, u, v, d);
                auto expected =
                    ref::output_stage(w0, ref::ewise_add(u0, v0, op), m0, std::plus<>{}, d);
                expect_vector(w, expected, "ewise_add mixed types");
                auto w2 = make_vector(grid, n, w0);
                ewise_mult(w2, mask, no_accum, op, u, v, d);
                expected = ref::output_stage(w0, ref::ewise_mult(u0, v0, op), m0, no_accum, d);
                expect_vector(w2, expected, "ewise_mult mixed types");
            }
        }
    }
}

// u, v and w all the same object: w = w ⊕ w.
TEST(OpsEwise, AllOperandsTheSameObject) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(5);
        const auto w0 = random_vec<I64>(rng, 37, 0.5);
        auto w = make_vector(grid, 37, w0);
        ewise_add(w, w, std::plus<>{}, std::plus<>{}, w, w, Descriptor{});
        expect_vector(w,
                      ref::output_stage(w0, ref::ewise_add(w0, w0, std::plus<>{}), w0,
                                        std::plus<>{}, Descriptor{}),
                      "ewise_add(w, w, plus, plus, w, w)");
        auto w2 = make_vector(grid, 37, w0);
        ewise_mult(w2, no_mask, no_accum, std::multiplies<>{}, w2, w2, Descriptor{});
        expect_vector(w2, ref::ewise_mult(w0, w0, std::multiplies<>{}), "ewise_mult(w, w, w)");
    }
}

TEST(OpsEwise, ArgumentErrorsThrowOnEveryRankAndLeaveWUnchanged) {
    for (const auto& grid : all_grids()) {
        auto other = ProcessGrid::create(MPI_COMM_WORLD, grid->pr(), grid->pc());
        std::mt19937_64 rng(9);
        const auto w0 = random_vec<I64>(rng, 12, 0.5);
        auto w = make_vector(grid, 12, w0);
        const auto u = make_vector(grid, 12, random_vec<I64>(rng, 12, 0.5));
        const auto shorter = make_vector(grid, 11, random_vec<I64>(rng, 11, 0.5));
        const auto elsewhere = make_vector(other, 12, random_vec<I64>(rng, 12, 0.5));
        const auto short_mask = make_vector(grid, 13, random_vec<int>(rng, 13, 0.5));
        const DistVector<I64> uninitialised;
        const auto plus = std::plus<>{};
        EXPECT_THROW(ewise_add(w, no_mask, no_accum, plus, shorter, u), DimensionMismatch);
        EXPECT_THROW(ewise_add(w, no_mask, no_accum, plus, u, shorter), DimensionMismatch);
        EXPECT_THROW(ewise_mult(w, short_mask, plus, plus, u, u), DimensionMismatch);
        EXPECT_THROW(ewise_add(w, no_mask, no_accum, plus, u, elsewhere), InvalidValue);
        EXPECT_THROW(ewise_mult(w, no_mask, no_accum, plus, elsewhere, u), InvalidValue);
        EXPECT_THROW(ewise_add(w, no_mask, no_accum, plus, uninitialised, u), InvalidValue);
        DistVector<I64> w_short = make_vector(grid, 11, ref::Vec<I64>{{3, 1}});
        EXPECT_THROW(ewise_add(w_short, no_mask, no_accum, plus, u, u), DimensionMismatch);
        expect_vector(w, w0, "w after failed calls");
        expect_vector(w_short, ref::Vec<I64>{{3, 1}}, "w_short after a failed call");
    }
}

}  // namespace
}  // namespace gridblas::test
