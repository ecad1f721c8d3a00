// Tests of apply / apply_index / select on vectors and matrices (include/gridblas/ops/
// apply.hpp, select.hpp) against the serial reference, on every grid shape of the rank
// count: every mask kind × complement × replace × accumulator × aliasing (w is u, w is the
// mask) × storage format for the vector forms, matrices in both local formats, errors.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>

#include "dist_test_util.hpp"
#include "gridblas/ops/apply.hpp"
#include "gridblas/ops/select.hpp"
#include "ops_check.hpp"
#include "reference/ops_reference.hpp"

namespace gridblas::test {
namespace {

using I64 = std::int64_t;

const Alias kAliases[] = {Alias::none, Alias::w_is_u, Alias::w_is_mask};

/// Runs `dist(w, mask, accum, d, u)` / `reference(u)` through every combination.
template <class Dist, class Ref>
void run_vector_op(const char* what, std::uint64_t seed, Dist dist, Ref reference) {
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (gindex_t n : test_lengths()) {
            std::mt19937_64 rng(seed + std::uint64_t(n));
            const auto w0 = random_vec<I64>(rng, n, 0.5);
            const auto u0 = random_vec<I64>(rng, n, 0.5);
            const auto m0 = random_vec<int>(rng, n, 0.6, 0, 1);
            const DistVector<I64> u_dist = make_vector(grid, n, u0);
            auto dist_op = [&](DistVector<I64>& w, const auto& mask, auto accum,
                               const Descriptor& d, Alias alias, VectorFormat fmt) {
                const auto u = in_format(u_dist, fmt);
                dist(w, mask, accum, d, *(alias == Alias::w_is_u ? &w : &u));
            };
            auto ref_t = [&](const ref::Vec<I64>& w_old, Alias alias) {
                return reference(alias == Alias::w_is_u ? w_old : u0);
            };
            checked += check_combinations(grid, n, w0, m0, kAliases, dist_op, ref_t, what);
        }
    }
    EXPECT_GT(checked, 0);
}

const auto kSquareMinusOne = [](I64 x) { return x * x - 1; };
const auto kIndexPlusValue = [](gindex_t i, I64 x) { return I64(i) * 10 + x; };
const auto kKeepOddIndexOrPositive = [](gindex_t i, I64 x) { return i % 2 == 1 || x > 0; };

TEST(OpsApply, VectorEveryMaskAccumReplaceAliasCombination) {
    run_vector_op(
        "apply", 5000,
        [](auto& w, const auto& mask, auto accum, const Descriptor& d, const auto& u) {
            apply(w, mask, accum, kSquareMinusOne, u, d);
        },
        [](const ref::Vec<I64>& u) { return ref::apply(u, kSquareMinusOne); });
}

TEST(OpsApply, IndexVectorEveryMaskAccumReplaceAliasCombination) {
    run_vector_op(
        "apply_index", 6000,
        [](auto& w, const auto& mask, auto accum, const Descriptor& d, const auto& u) {
            apply_index(w, mask, accum, kIndexPlusValue, u, d);
        },
        [](const ref::Vec<I64>& u) { return ref::apply_index(u, kIndexPlusValue); });
}

TEST(OpsSelect, VectorEveryMaskAccumReplaceAliasCombination) {
    run_vector_op(
        "select", 7000,
        [](auto& w, const auto& mask, auto accum, const Descriptor& d, const auto& u) {
            select(w, mask, accum, kKeepOddIndexOrPositive, u, d);
        },
        [](const ref::Vec<I64>& u) { return ref::select(u, kKeepOddIndexOrPositive); });
}

// apply with a result type other than the input's, and the ROWINDEX idiom of BFS: every
// frontier entry replaced by its own index.
TEST(OpsApply, ResultTypeAndRowIndex) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(14);
        const auto u0 = random_vec<int>(rng, 130, 0.3);
        const auto u = make_vector(grid, 130, u0);
        DistVector<double> half(grid, 130);
        apply(
            half, no_mask, no_accum, [](int x) { return x / 2.0; }, u);
        expect_vector(half, ref::apply(u0, [](int x) { return x / 2.0; }), "apply int -> double");
        DistVector<I64> ids(grid, 130);
        apply_index(
            ids, no_mask, no_accum, [](gindex_t i, int) { return I64(i); }, u);
        expect_vector(ids, ref::apply_index(u0, [](gindex_t i, int) { return I64(i); }),
                      "apply_index rowindex");
    }
}

TEST(OpsApplySelect, MatrixOnEveryGridAndLocalFormat) {
    for (const auto& grid : all_grids()) {
        for (LocalFormat fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            for (auto [n, m] : {std::pair<gindex_t, gindex_t>{0, 0}, {1, 4}, {5, 3}, {23, 31}}) {
                std::mt19937_64 rng(15 + std::uint64_t(n));
                const auto a0 = random_mat<int>(rng, n, m, 0.3);
                const auto a = make_matrix(grid, n, m, a0, fmt);
                const auto sq = [](int x) { return double(x) * x; };
                const auto c = apply(a, sq);
                EXPECT_EQ(c.local_format(), fmt);
                EXPECT_EQ(to_map(c), ref::apply(a0, sq));
                const auto pos = [](gindex_t i, gindex_t j, int x) { return I64(i - j + x); };
                ref::Mat<I64> expected;
                for (const auto& [ij, x] : a0) expected[ij] = pos(ij.first, ij.second, x);
                EXPECT_EQ(to_map(apply_index(a, pos)), expected);
                const auto offdiag_pos = [](gindex_t i, gindex_t j, int x) {
                    return i != j && x > 0;
                };
                const auto s = select(a, offdiag_pos);
                EXPECT_EQ(s.nvals(), gindex_t(ref::select(a0, offdiag_pos).size()));
                EXPECT_EQ(to_map(s), ref::select(a0, offdiag_pos));
            }
        }
    }
}

TEST(OpsApplySelect, ArgumentErrorsThrowOnEveryRankAndLeaveWUnchanged) {
    for (const auto& grid : all_grids()) {
        auto other = ProcessGrid::create(MPI_COMM_WORLD, grid->pr(), grid->pc());
        std::mt19937_64 rng(16);
        const auto w0 = random_vec<I64>(rng, 10, 0.5);
        auto w = make_vector(grid, 10, w0);
        const auto shorter = make_vector(grid, 7, random_vec<I64>(rng, 7, 0.5));
        const auto elsewhere = make_vector(other, 10, random_vec<I64>(rng, 10, 0.5));
        const auto long_mask = make_vector(grid, 12, random_vec<int>(rng, 12, 0.5));
        const auto id = [](I64 x) { return x; };
        const auto all = [](gindex_t, I64) { return true; };
        const auto index = [](gindex_t i, I64) { return I64(i); };
        EXPECT_THROW(apply(w, no_mask, no_accum, id, shorter), DimensionMismatch);
        EXPECT_THROW(apply(w, long_mask, no_accum, id, w), DimensionMismatch);
        EXPECT_THROW(apply(w, no_mask, no_accum, id, elsewhere), InvalidValue);
        EXPECT_THROW(apply_index(w, no_mask, no_accum, index, shorter), DimensionMismatch);
        EXPECT_THROW(select(w, no_mask, no_accum, all, shorter), DimensionMismatch);
        EXPECT_THROW(select(w, no_mask, no_accum, all, elsewhere), InvalidValue);
        EXPECT_THROW(select(w, long_mask, std::plus<>{}, all, w), DimensionMismatch);
        const DistMatrix<int> uninitialised;
        EXPECT_THROW(apply(uninitialised, [](int x) { return x; }), InvalidValue);
        EXPECT_THROW(select(uninitialised, [](gindex_t, gindex_t, int) { return true; }),
                     InvalidValue);
        expect_vector(w, w0, "w after failed calls");
    }
}

}  // namespace
}  // namespace gridblas::test
