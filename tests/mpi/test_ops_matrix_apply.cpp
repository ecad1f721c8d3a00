// Tests of the masked matrix apply / apply_index / bound binary operators / select /
// transpose (include/gridblas/ops/matrix_apply.hpp) against the serial reference, on every
// grid shape of the rank count: every mask kind × complement × replace × accumulator ×
// aliasing × local format, transposed inputs, value types, empty and hypersparse matrices,
// and the argument errors.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>

#include "dist_test_util.hpp"
#include "gridblas/ops/matrix_apply.hpp"
#include "matrix_ops_check.hpp"
#include "reference/matrix_ops_reference.hpp"

namespace gridblas::test {
namespace {

using I64 = std::int64_t;

struct MinusTwice {
    I64 operator()(I64 a, I64 b) const { return a - 2 * b; }
};

const auto kAffine = [](I64 x) { return 3 * x - 1; };
const auto kIndexOp = [](gindex_t i, gindex_t j, I64 x) { return I64(i * 100 + j * 7) + x; };
const auto kPred = [](gindex_t i, gindex_t j, I64 x) { return (i + j) % 2 == 0 || x > 4; };

enum class Op { apply, bound_first, bound_second, apply_index, select, transpose };

template <Op K>
void run_all_combinations(const char* what, std::uint64_t seed) {
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (const MatrixCase& cs : matrix_cases()) {
            const gindex_t n = cs.n, m = cs.m;
            const bool square = n == m;
            // transpose reads an m x n A; C is A only when that is C's shape.
            const bool a_is_c_shaped = K != Op::transpose || square;
            std::vector<MAlias> aliases{MAlias::none, MAlias::c_is_mask};
            if (a_is_c_shaped) aliases.push_back(MAlias::c_is_a);
            std::mt19937_64 rng(seed + std::uint64_t(n * 100 + m));
            const auto c0 = random_mat<I64>(rng, n, m, cs.density);
            const gindex_t an = K == Op::transpose ? m : n, am = K == Op::transpose ? n : m;
            const auto a0 = random_mat<I64>(rng, an, am, cs.density * 1.3);
            const auto m0 = random_mat<int>(rng, n, m, cs.density * 1.5, 0, 1);
            const DistMatrix<I64> a_fmt[2] = {make_matrix(grid, an, am, a0, LocalFormat::dcsc),
                                              make_matrix(grid, an, am, a0, LocalFormat::csr)};
            auto dist_op = [&](DistMatrix<I64>& c, const auto& mask, auto accum,
                               const Descriptor& d, MAlias alias, LocalFormat fmt) {
                const DistMatrix<I64>& a =
                    alias == MAlias::c_is_a ? c : a_fmt[fmt == LocalFormat::csr];
                if constexpr (K == Op::apply) {
                    apply(c, mask, accum, kAffine, a, d);
                } else if constexpr (K == Op::bound_first) {
                    apply(c, mask, accum, bind_first(MinusTwice{}, I64(5)), a, d);
                } else if constexpr (K == Op::bound_second) {
                    apply(c, mask, accum, bind_second(MinusTwice{}, I64(5)), a, d);
                } else if constexpr (K == Op::apply_index) {
                    apply_index(c, mask, accum, kIndexOp, a, d);
                } else if constexpr (K == Op::select) {
                    select(c, mask, accum, kPred, a, d);
                } else {
                    transpose(c, mask, accum, a, d);
                }
            };
            auto ref_t = [&](const ref::Mat<I64>& c_old, MAlias alias) {
                const auto& a = alias == MAlias::c_is_a ? c_old : a0;
                if constexpr (K == Op::apply) {
                    return ref::apply(a, kAffine);
                } else if constexpr (K == Op::bound_first) {
                    return ref::apply(a, [](I64 x) { return MinusTwice{}(5, x); });
                } else if constexpr (K == Op::bound_second) {
                    return ref::apply(a, [](I64 x) { return MinusTwice{}(x, 5); });
                } else if constexpr (K == Op::apply_index) {
                    return ref::apply_index(a, kIndexOp);
                } else if constexpr (K == Op::select) {
                    return ref::select(a, kPred);
                } else {
                    return ref::transpose(a);
                }
            };
            checked += check_matrix_combinations(grid, n, m, c0, n, m, m0, aliases, dist_op,
                                                 via_output_stage(ref_t), what);
        }
    }
    EXPECT_GT(checked, 0);
}

TEST(OpsMatrixApply, UnaryEveryCombination) { run_all_combinations<Op::apply>("apply", 10); }

TEST(OpsMatrixApply, BoundFirstEveryCombination) {
    run_all_combinations<Op::bound_first>("apply bind_first", 20);
}

TEST(OpsMatrixApply, BoundSecondEveryCombination) {
    run_all_combinations<Op::bound_second>("apply bind_second", 30);
}

TEST(OpsMatrixApply, IndexEveryCombination) {
    run_all_combinations<Op::apply_index>("apply_index", 40);
}

TEST(OpsMatrixSelect, EveryCombination) { run_all_combinations<Op::select>("select", 50); }

TEST(OpsMatrixTranspose, EveryCombination) { run_all_combinations<Op::transpose>("transpose", 60); }

// desc.transpose_a on a non-square C: apply, apply_index and select read Aᵀ (the index
// operators see C's ids), transpose reads A itself. Both local formats.
TEST(OpsMatrixApply, TransposedInput) {
    for (const auto& grid : all_grids()) {
        const gindex_t n = 12, m = 7;
        std::mt19937_64 rng(70);
        const auto c0 = random_mat<I64>(rng, n, m, 0.3);
        const auto at0 = random_mat<I64>(rng, m, n, 0.4);  // A stored transposed
        const auto a0 = random_mat<I64>(rng, n, m, 0.4);   // A for transpose with transpose_a
        const auto m0 = random_mat<int>(rng, n, m, 0.5, 0, 1);
        const auto a_as_read = ref::transpose(at0);
        for (LocalFormat fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            const auto at = make_matrix(grid, m, n, at0, fmt);
            const auto a = make_matrix(grid, n, m, a0, fmt);
            const auto mask = make_matrix(grid, n, m, m0, fmt);
            Descriptor d;
            d.transpose_a = true;
            d.mask_structural = true;
            auto c = make_matrix(grid, n, m, c0, fmt);
            apply(c, mask, std::plus<>{}, kAffine, at, d);
            expect_matrix(
                c, ref::output_stage(c0, ref::apply(a_as_read, kAffine), m0, std::plus<>{}, d),
                "apply Aᵀ");
            c = make_matrix(grid, n, m, c0, fmt);
            apply_index(c, mask, no_accum, kIndexOp, at, d);
            expect_matrix(
                c, ref::output_stage(c0, ref::apply_index(a_as_read, kIndexOp), m0, no_accum, d),
                "apply_index Aᵀ");
            d.replace = true;
            c = make_matrix(grid, n, m, c0, fmt);
            select(c, mask, no_accum, kPred, at, d);
            expect_matrix(c, ref::output_stage(c0, ref::select(a_as_read, kPred), m0, no_accum, d),
                          "select Aᵀ");
            c = make_matrix(grid, n, m, c0, fmt);
            transpose(c, mask, std::plus<>{}, a, d);
            expect_matrix(c, ref::output_stage(c0, a0, m0, std::plus<>{}, d),
                          "transpose with transpose_a (C = A)");
        }
    }
}

// Result types follow the operator; values are cast to C's type; C = Cᵀ in place.
TEST(OpsMatrixApply, TypesAndInPlaceTranspose) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(80);
        const auto a0 = random_mat<int>(rng, 10, 15, 0.3);
        const auto c0 = random_mat<double>(rng, 10, 15, 0.3);
        const auto a = make_matrix(grid, 10, 15, a0, LocalFormat::csr);
        auto c = make_matrix(grid, 10, 15, c0);
        const auto half = [](int x) { return double(x) / 2.0; };
        apply(c, no_mask, std::plus<>{}, half, a);
        expect_matrix(c, ref::output_stage(c0, ref::apply(a0, half), no_mask, std::plus<>{}, {}),
                      "apply int -> double");
        auto c2 = make_matrix(grid, 10, 15, c0);
        apply(c2, no_mask, no_accum, bind_second(std::multiplies<>{}, 0.25), a);
        expect_matrix(c2, ref::apply(a0, [](int x) { return x * 0.25; }), "bind_second double");
        const auto s0 = random_mat<I64>(rng, 21, 21, 0.2);
        auto s = make_matrix(grid, 21, 21, s0);
        transpose(s, no_mask, no_accum, s);
        expect_matrix(s, ref::transpose(s0), "C = Cᵀ");
        ref::Mat<bool> b0;
        for (const auto& [ij, x] : s0) b0[ij] = x > 2;
        const auto bmask = make_matrix(grid, 21, 21, b0, LocalFormat::csr);
        auto s2 = make_matrix(grid, 21, 21, s0, LocalFormat::csr);
        Descriptor d;
        d.mask_complement = true;
        d.replace = true;
        apply_index(s2, bmask, std::plus<>{}, kIndexOp, s2, d);
        expect_matrix(s2,
                      ref::output_stage(s0, ref::apply_index(s0, kIndexOp), b0, std::plus<>{}, d),
                      "apply_index in place, bool mask complemented");
    }
}

TEST(OpsMatrixApply, ArgumentErrorsThrowOnEveryRankAndLeaveCUnchanged) {
    for (const auto& grid : all_grids()) {
        auto other = ProcessGrid::create(MPI_COMM_WORLD, grid->pr(), grid->pc());
        std::mt19937_64 rng(90);
        const auto c0 = random_mat<I64>(rng, 8, 5, 0.5);
        auto c = make_matrix(grid, 8, 5, c0);
        const auto a = make_matrix(grid, 8, 5, random_mat<I64>(rng, 8, 5, 0.5));
        const auto at = make_matrix(grid, 5, 8, random_mat<I64>(rng, 5, 8, 0.5));
        const auto elsewhere = make_matrix(other, 8, 5, random_mat<I64>(rng, 8, 5, 0.5));
        const auto mask_elsewhere = make_matrix(other, 8, 5, random_mat<int>(rng, 8, 5, 0.5));
        const auto bad_mask = make_matrix(grid, 5, 8, random_mat<int>(rng, 5, 8, 0.5));
        const DistMatrix<I64> uninitialised;
        Descriptor tr;
        tr.transpose_a = true;
        EXPECT_THROW(apply(c, no_mask, no_accum, kAffine, at), DimensionMismatch);
        EXPECT_THROW(apply(c, no_mask, no_accum, kAffine, a, tr), DimensionMismatch);
        EXPECT_THROW(apply_index(c, bad_mask, no_accum, kIndexOp, a), DimensionMismatch);
        EXPECT_THROW(select(c, no_mask, no_accum, kPred, at), DimensionMismatch);
        EXPECT_THROW(transpose(c, no_mask, no_accum, a), DimensionMismatch);
        EXPECT_THROW(transpose(c, no_mask, no_accum, at, tr), DimensionMismatch);
        EXPECT_THROW(apply(c, no_mask, no_accum, kAffine, elsewhere), InvalidValue);
        EXPECT_THROW(select(c, mask_elsewhere, no_accum, kPred, a), InvalidValue);
        EXPECT_THROW(transpose(c, no_mask, no_accum, uninitialised), InvalidValue);
        std::vector<gindex_t> r, k;
        ValueArray<I64> v;
        if (grid->rank() == 0) {
            r = {0, 3};
            k = {1, 2};
            v.push_back(1);
            v.push_back(2);
        }
        BuildOptions rel;
        rel.relabel = true;
        const auto relabelled = DistMatrix<I64>::from_tuples(grid, 6, 6, r, k, v, rel);
        auto csq = make_matrix(grid, 6, 6, ref::Mat<I64>{{{1, 1}, 4}});
        EXPECT_THROW(transpose(csq, no_mask, no_accum, relabelled), NotSupported);
        EXPECT_THROW(apply(csq, relabelled, no_accum, kAffine, csq), NotSupported);
        expect_matrix(c, c0, "C after failed calls");
        expect_matrix(csq, ref::Mat<I64>{{{1, 1}, 4}}, "square C after failed calls");
    }
}

}  // namespace
}  // namespace gridblas::test
