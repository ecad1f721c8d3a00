// Tests of assign / assign_scalar (include/gridblas/ops/assign.hpp) against the serial
// reference, on every grid shape of the rank count: every mask kind × complement × replace ×
// accumulator × aliasing × storage format, the empty-mask-complement corner, and the
// argument errors.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>

#include "dist_test_util.hpp"
#include "gridblas/ops/assign.hpp"
#include "ops_check.hpp"
#include "reference/ops_reference.hpp"

namespace gridblas::test {
namespace {

using I64 = std::int64_t;

TEST(OpsAssign, VectorEveryMaskAccumReplaceAliasCombination) {
    const Alias aliases[] = {Alias::none, Alias::w_is_u, Alias::w_is_mask};
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (gindex_t n : test_lengths()) {
            std::mt19937_64 rng(3000 + std::uint64_t(n));
            const auto w0 = random_vec<I64>(rng, n, 0.5);
            const auto u0 = random_vec<I64>(rng, n, 0.4);
            const auto m0 = random_vec<int>(rng, n, 0.6, 0, 1);
            const DistVector<I64> u_dist = make_vector(grid, n, u0);
            auto dist_op = [&](DistVector<I64>& w, const auto& mask, auto accum,
                               const Descriptor& d, Alias alias, VectorFormat fmt) {
                const auto u = in_format(u_dist, fmt);
                const DistVector<I64>* src = alias == Alias::w_is_u ? &w : &u;
                assign(w, mask, accum, *src, d);
            };
            auto ref_t = [&](const ref::Vec<I64>& w_old, Alias alias) {
                return alias == Alias::w_is_u ? w_old : u0;
            };
            checked += check_combinations(grid, n, w0, m0, aliases, dist_op, ref_t, "assign");
        }
    }
    EXPECT_GT(checked, 0);
}

TEST(OpsAssign, ScalarEveryMaskAccumReplaceCombination) {
    const Alias aliases[] = {Alias::none, Alias::w_is_mask};
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (gindex_t n : test_lengths()) {
            std::mt19937_64 rng(4000 + std::uint64_t(n));
            const auto w0 = random_vec<I64>(rng, n, 0.5);
            const auto m0 = random_vec<int>(rng, n, 0.6, 0, 1);
            auto dist_op = [&](DistVector<I64>& w, const auto& mask, auto accum,
                               const Descriptor& d, Alias,
                               VectorFormat) { assign_scalar(w, mask, accum, I64(7), d); };
            auto ref_t = [&](const ref::Vec<I64>&, Alias) { return ref::full(n, I64(7)); };
            checked +=
                check_combinations(grid, n, w0, m0, aliases, dist_op, ref_t, "assign_scalar");
        }
    }
    EXPECT_GT(checked, 0);
}

// Different types: a double vector assigned into an int64 vector (values cast), and a
// double scalar assigned into an int vector with a Pattern mask.
TEST(OpsAssign, CastsBetweenValueTypes) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(11);
        const auto w0 = random_vec<I64>(rng, 37, 0.5);
        const auto u0 = random_vec<double>(rng, 37, 0.5);
        ref::Vec<Pattern> m0;
        for (gindex_t i = 0; i < 37; i += 3) m0[i] = Pattern{};
        auto w = make_vector(grid, 37, w0);
        assign(w, no_mask, std::plus<>{}, make_vector(grid, 37, u0));
        expect_vector(w, ref::output_stage(w0, u0, no_mask, std::plus<>{}, Descriptor{}),
                      "assign double into int64");
        auto w2 = make_vector(grid, 37, ref::Vec<int>{{1, 5}, {3, 4}});
        Descriptor rc;
        rc.replace = true;
        assign_scalar(w2, make_vector(grid, 37, m0), no_accum, 2.0, rc);
        expect_vector(
            w2,
            ref::output_stage(ref::Vec<int>{{1, 5}, {3, 4}}, ref::full(37, 2.0), m0, no_accum, rc),
            "assign_scalar with a Pattern mask and replace");
    }
}

// No mask with complement is an empty mask: w is untouched, or cleared under replace.
TEST(OpsAssign, EmptyMaskComplement) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(12);
        const auto w0 = random_vec<I64>(rng, 37, 0.5);
        const auto u = make_vector(grid, 37, random_vec<I64>(rng, 37, 0.5));
        Descriptor c;
        c.mask_complement = true;
        auto w = make_vector(grid, 37, w0);
        assign(w, no_mask, std::plus<>{}, u, c);
        expect_vector(w, w0, "assign with an empty mask: w unchanged");
        c.replace = true;
        assign_scalar(w, no_mask, no_accum, I64(1), c);
        expect_vector(w, ref::Vec<I64>{}, "assign_scalar with an empty mask and replace");
    }
}

TEST(OpsAssign, ArgumentErrorsThrowOnEveryRankAndLeaveWUnchanged) {
    for (const auto& grid : all_grids()) {
        auto other = ProcessGrid::create(MPI_COMM_WORLD, grid->pr(), grid->pc());
        std::mt19937_64 rng(13);
        const auto w0 = random_vec<I64>(rng, 10, 0.5);
        auto w = make_vector(grid, 10, w0);
        const auto longer = make_vector(grid, 11, random_vec<I64>(rng, 11, 0.5));
        const auto elsewhere = make_vector(other, 10, random_vec<I64>(rng, 10, 0.5));
        const auto mask_elsewhere = make_vector(other, 10, random_vec<int>(rng, 10, 0.5));
        const auto short_mask = make_vector(grid, 9, random_vec<int>(rng, 9, 0.5));
        EXPECT_THROW(assign(w, no_mask, no_accum, longer), DimensionMismatch);
        EXPECT_THROW(assign(w, short_mask, no_accum, w), DimensionMismatch);
        EXPECT_THROW(assign(w, no_mask, no_accum, elsewhere), InvalidValue);
        EXPECT_THROW(assign(w, mask_elsewhere, no_accum, w), InvalidValue);
        EXPECT_THROW(assign_scalar(w, short_mask, no_accum, I64(1)), DimensionMismatch);
        EXPECT_THROW(assign_scalar(w, mask_elsewhere, no_accum, I64(1)), InvalidValue);
        DistVector<I64> uninitialised;
        EXPECT_THROW(assign_scalar(uninitialised, no_mask, no_accum, I64(1)), InvalidValue);
        expect_vector(w, w0, "w after failed calls");
    }
}

}  // namespace
}  // namespace gridblas::test
