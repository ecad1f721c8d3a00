// Tests of ewise_add / ewise_mult / ewise_union on matrices (include/gridblas/ops/
// matrix_ewise.hpp) and of ewise_union on vectors (ewise.hpp) against the serial reference,
// on every grid shape of the rank count: every mask kind × complement × replace × accumulator
// × aliasing × local format, transposed inputs, mixed value types, empty and hypersparse
// matrices, and the argument errors.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>

#include "dist_test_util.hpp"
#include "gridblas/ops/matrix_ewise.hpp"
#include "matrix_ops_check.hpp"
#include "ops_check.hpp"
#include "reference/matrix_ops_reference.hpp"

namespace gridblas::test {
namespace {

using I64 = std::int64_t;

// A non-commutative operator, so that swapped operands would show.
struct MinusTwice {
    I64 operator()(I64 a, I64 b) const { return a - 2 * b; }
};

enum class Kind { add, mult, union_ };

template <Kind K>
void run_all_combinations(const char* what, std::uint64_t seed) {
    const MAlias aliases[] = {MAlias::none, MAlias::c_is_a, MAlias::c_is_b, MAlias::c_is_mask};
    constexpr I64 alpha = 5, beta = -7;
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (const MatrixCase& cs : matrix_cases()) {
            const gindex_t n = cs.n, m = cs.m;
            std::mt19937_64 rng(seed + std::uint64_t(n * 100 + m));
            const auto c0 = random_mat<I64>(rng, n, m, cs.density);
            const auto a0 = random_mat<I64>(rng, n, m, cs.density);
            const auto b0 = random_mat<I64>(rng, n, m, cs.density);
            const auto m0 = random_mat<int>(rng, n, m, cs.density * 1.5, 0, 1);
            const DistMatrix<I64> a_fmt[2] = {make_matrix(grid, n, m, a0, LocalFormat::dcsc),
                                              make_matrix(grid, n, m, a0, LocalFormat::csr)};
            const DistMatrix<I64> b_fmt[2] = {make_matrix(grid, n, m, b0, LocalFormat::dcsc),
                                              make_matrix(grid, n, m, b0, LocalFormat::csr)};
            auto dist_op = [&](DistMatrix<I64>& c, const auto& mask, auto accum,
                               const Descriptor& d, MAlias alias, LocalFormat fmt) {
                const auto& a = a_fmt[fmt == LocalFormat::csr];
                const auto& b = b_fmt[fmt == LocalFormat::csr];
                const DistMatrix<I64>& aa = *(alias == MAlias::c_is_a ? &c : &a);
                const DistMatrix<I64>& bb = *(alias == MAlias::c_is_b ? &c : &b);
                if constexpr (K == Kind::add) {
                    ewise_add(c, mask, accum, MinusTwice{}, aa, bb, d);
                } else if constexpr (K == Kind::mult) {
                    ewise_mult(c, mask, accum, MinusTwice{}, aa, bb, d);
                } else {
                    ewise_union(c, mask, accum, MinusTwice{}, aa, alpha, bb, beta, d);
                }
            };
            auto ref_t = [&](const ref::Mat<I64>& c_old, MAlias alias) {
                const auto& aa = alias == MAlias::c_is_a ? c_old : a0;
                const auto& bb = alias == MAlias::c_is_b ? c_old : b0;
                if constexpr (K == Kind::add) {
                    return ref::ewise_add(aa, bb, MinusTwice{});
                } else if constexpr (K == Kind::mult) {
                    return ref::ewise_mult(aa, bb, MinusTwice{});
                } else {
                    return ref::ewise_union(aa, alpha, bb, beta, MinusTwice{});
                }
            };
            checked += check_matrix_combinations(grid, n, m, c0, n, m, m0, aliases, dist_op,
                                                 via_output_stage(ref_t), what);
        }
    }
    EXPECT_GT(checked, 0);
}

TEST(OpsMatrixEwise, AddEveryMaskAccumReplaceAliasCombination) {
    run_all_combinations<Kind::add>("ewise_add", 100);
}

TEST(OpsMatrixEwise, MultEveryMaskAccumReplaceAliasCombination) {
    run_all_combinations<Kind::mult>("ewise_mult", 200);
}

TEST(OpsMatrixEwise, UnionEveryMaskAccumReplaceAliasCombination) {
    run_all_combinations<Kind::union_>("ewise_union", 300);
}

// Transposed inputs on a non-square C: A and/or B stored transposed.
TEST(OpsMatrixEwise, TransposedInputs) {
    for (const auto& grid : all_grids()) {
        const gindex_t n = 11, m = 6;
        std::mt19937_64 rng(400);
        const auto c0 = random_mat<I64>(rng, n, m, 0.3);
        const auto a0 = random_mat<I64>(rng, m, n, 0.4);  // stored transposed
        const auto b0 = random_mat<I64>(rng, n, m, 0.4);
        const auto bt0 = ref::transpose(b0);
        const auto m0 = random_mat<int>(rng, n, m, 0.5, 0, 1);
        for (LocalFormat fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            const auto a = make_matrix(grid, m, n, a0, fmt);
            const auto b = make_matrix(grid, n, m, b0, fmt);
            const auto bt = make_matrix(grid, m, n, bt0, fmt);
            const auto mask = make_matrix(grid, n, m, m0, fmt);
            Descriptor d;
            d.transpose_a = true;
            d.mask_complement = true;
            auto c = make_matrix(grid, n, m, c0, fmt);
            ewise_add(c, mask, std::plus<>{}, MinusTwice{}, a, b, d);
            expect_matrix(
                c,
                ref::output_stage(c0, ref::ewise_add(ref::transpose(a0), b0, MinusTwice{}), m0,
                                  std::plus<>{}, d),
                "ewise_add Aᵀ");
            d.transpose_b = true;
            auto c2 = make_matrix(grid, n, m, c0, fmt);
            ewise_mult(c2, mask, no_accum, MinusTwice{}, a, bt, d);
            expect_matrix(
                c2,
                ref::output_stage(c0, ref::ewise_mult(ref::transpose(a0), b0, MinusTwice{}), m0,
                                  no_accum, d),
                "ewise_mult Aᵀ Bᵀ");
            d = Descriptor{};
            d.transpose_b = true;
            d.replace = true;
            auto c3 = make_matrix(grid, n, m, c0, fmt);
            ewise_union(c3, mask, no_accum, MinusTwice{}, b, 2, bt, 3, d);
            expect_matrix(
                c3,
                ref::output_stage(c0, ref::ewise_union(b0, I64(2), b0, I64(3), MinusTwice{}), m0,
                                  no_accum, d),
                "ewise_union Bᵀ");
        }
    }
}

// C double, A int, B int64, op giving int64; Pattern and bool masks.
TEST(OpsMatrixEwise, MixedTypesAndPatternMask) {
    auto op = [](int a, I64 b) { return I64(a) * b + 1; };
    for (const auto& grid : all_grids()) {
        const gindex_t n = 9, m = 14;
        std::mt19937_64 rng(500);
        const auto c0 = random_mat<double>(rng, n, m, 0.4);
        const auto a0 = random_mat<int>(rng, n, m, 0.4);
        const auto b0 = random_mat<I64>(rng, n, m, 0.4);
        const auto pm = random_mat<int>(rng, n, m, 0.5);
        ref::Mat<Pattern> p0;
        ref::Mat<bool> q0;
        for (const auto& [ij, x] : pm) {
            p0[ij] = Pattern{};
            q0[ij] = x > 2;
        }
        const auto a = make_matrix(grid, n, m, a0, LocalFormat::csr);
        const auto b = make_matrix(grid, n, m, b0);
        const auto pmask = make_matrix(grid, n, m, p0);
        const auto qmask = make_matrix(grid, n, m, q0, LocalFormat::csr);
        for (bool comp : {false, true}) {
            Descriptor d;
            d.mask_complement = comp;
            auto c = make_matrix(grid, n, m, c0);
            ewise_add(c, pmask, std::plus<>{}, op, a, b, d);
            expect_matrix(c,
                          ref::output_stage(c0, ref::ewise_add(a0, b0, op), p0, std::plus<>{}, d),
                          "ewise_add mixed types, Pattern mask");
            auto c2 = make_matrix(grid, n, m, c0, LocalFormat::csr);
            ewise_mult(c2, qmask, no_accum, op, a, b, d);
            expect_matrix(c2, ref::output_stage(c0, ref::ewise_mult(a0, b0, op), q0, no_accum, d),
                          "ewise_mult mixed types, bool mask");
            auto c3 = make_matrix(grid, n, m, c0);
            ewise_union(c3, qmask, std::plus<>{}, op, a, 4, b, 1.0, d);
            expect_matrix(c3,
                          ref::output_stage(c0, ref::ewise_union(a0, 4, b0, I64(1), op), q0,
                                            std::plus<>{}, d),
                          "ewise_union mixed types");
        }
    }
}

// C is A, B and the mask at once: C = C ⊕ C under C.
TEST(OpsMatrixEwise, AllOperandsTheSameObject) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(600);
        const auto c0 = random_mat<I64>(rng, 17, 12, 0.4);
        auto c = make_matrix(grid, 17, 12, c0);
        ewise_add(c, c, std::plus<>{}, std::plus<>{}, c, c, Descriptor{});
        expect_matrix(c,
                      ref::output_stage(c0, ref::ewise_add(c0, c0, std::plus<>{}), c0,
                                        std::plus<>{}, Descriptor{}),
                      "ewise_add(C, C, plus, plus, C, C)");
    }
}

// Vector ewise_union under every combination (ops_check.hpp's driver).
TEST(OpsMatrixEwise, VectorUnionEveryCombination) {
    const Alias aliases[] = {Alias::none, Alias::w_is_u, Alias::w_is_v, Alias::w_is_mask};
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (gindex_t n : test_lengths()) {
            std::mt19937_64 rng(700 + std::uint64_t(n));
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
                ewise_union(w, mask, accum, MinusTwice{}, uu, 3, vv, -4, d);
            };
            auto ref_t = [&](const ref::Vec<I64>& w_old, Alias alias) {
                const auto& uu = alias == Alias::w_is_u ? w_old : u0;
                const auto& vv = alias == Alias::w_is_v ? w_old : v0;
                return ref::ewise_union(uu, I64(3), vv, I64(-4), MinusTwice{});
            };
            checked +=
                check_combinations(grid, n, w0, m0, aliases, dist_op, ref_t, "vector ewise_union");
        }
    }
    EXPECT_GT(checked, 0);
}

TEST(OpsMatrixEwise, ArgumentErrorsThrowOnEveryRankAndLeaveCUnchanged) {
    for (const auto& grid : all_grids()) {
        auto other = ProcessGrid::create(MPI_COMM_WORLD, grid->pr(), grid->pc());
        std::mt19937_64 rng(800);
        const auto c0 = random_mat<I64>(rng, 8, 5, 0.5);
        auto c = make_matrix(grid, 8, 5, c0);
        const auto a = make_matrix(grid, 8, 5, random_mat<I64>(rng, 8, 5, 0.5));
        const auto wrong = make_matrix(grid, 5, 8, random_mat<I64>(rng, 5, 8, 0.5));
        const auto elsewhere = make_matrix(other, 8, 5, random_mat<I64>(rng, 8, 5, 0.5));
        const auto bad_mask = make_matrix(grid, 8, 6, random_mat<int>(rng, 8, 6, 0.5));
        const DistMatrix<I64> uninitialised;
        const auto plus = std::plus<>{};
        Descriptor tr;
        tr.transpose_a = true;
        EXPECT_THROW(ewise_add(c, no_mask, no_accum, plus, wrong, a), DimensionMismatch);
        EXPECT_THROW(ewise_mult(c, no_mask, no_accum, plus, a, wrong), DimensionMismatch);
        EXPECT_THROW(ewise_add(c, no_mask, no_accum, plus, a, a, tr), DimensionMismatch);
        EXPECT_THROW(ewise_union(c, bad_mask, plus, plus, a, 0, a, 0), DimensionMismatch);
        EXPECT_THROW(ewise_add(c, no_mask, no_accum, plus, a, elsewhere), InvalidValue);
        EXPECT_THROW(ewise_mult(c, no_mask, no_accum, plus, uninitialised, a), InvalidValue);
        DistMatrix<I64> c_uninit;
        EXPECT_THROW(ewise_add(c_uninit, no_mask, no_accum, plus, a, a), InvalidValue);
        // A relabelled operand (square matrices only).
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
        const auto sq = make_matrix(grid, 6, 6, random_mat<I64>(rng, 6, 6, 0.3));
        auto csq = make_matrix(grid, 6, 6, ref::Mat<I64>{});
        EXPECT_THROW(ewise_add(csq, no_mask, no_accum, plus, relabelled, sq), NotSupported);
        expect_matrix(c, c0, "C after failed calls");
        expect_matrix(csq, ref::Mat<I64>{}, "square C after a failed call");
    }
}

// The matrix operations run on the cpu backend only: on a cuda grid every rank throws
// NotSupported before anything changes (skipped where not every rank has a device).
TEST(OpsMatrixEwise, CudaGridIsRejectedOnEveryRank) {
    auto grid = ProcessGrid::create(MPI_COMM_WORLD, 1, world_size());
    const ref::Mat<I64> c0{{{0, 1}, 3}};
    auto c = make_matrix(grid, 4, 4, c0);
    const auto a = make_matrix(grid, 4, 4, ref::Mat<I64>{{{2, 2}, 5}});
    const std::string why = try_exec_backend(*grid, ExecBackend::cuda);
    if (!why.empty()) GTEST_SKIP() << why;
    EXPECT_THROW(ewise_add(c, no_mask, no_accum, std::plus<>{}, a, a), NotSupported);
    grid->set_exec_backend(ExecBackend::cpu);
    expect_matrix(c, c0, "C after a refused call on a cuda grid");
}

}  // namespace
}  // namespace gridblas::test
