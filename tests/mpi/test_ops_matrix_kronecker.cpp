// Tests of kronecker (include/gridblas/ops/kronecker.hpp) against the serial reference, on
// every grid shape of the rank count: every mask kind × complement × replace × accumulator ×
// aliasing × local format, transposed inputs, mixed value types, empty and hypersparse
// products, and the argument errors.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>

#include "dist_test_util.hpp"
#include "gridblas/ops/kronecker.hpp"
#include "matrix_ops_check.hpp"
#include "reference/matrix_ops_reference.hpp"

namespace gridblas::test {
namespace {

using I64 = std::int64_t;

struct MinusTwice {
    I64 operator()(I64 a, I64 b) const { return a - 2 * b; }
};

struct KronCase {
    gindex_t ma, na, mb, nb;
    double da, db;  // densities of A and B
};

TEST(OpsMatrixKronecker, EveryCombination) {
    const KronCase cases[] = {
        {3, 2, 2, 4, 0.5, 0.5},     // 6 x 8
        {4, 5, 3, 3, 0.4, 0.4},     // 12 x 15
        {0, 3, 2, 2, 0.5, 0.5},     // 0 x 6: empty
        {10, 8, 5, 5, 0.03, 0.08},  // 50 x 40, hypersparse
        {6, 5, 1, 1, 0.4, 1.0},     // B 1 x 1: C may be A
        {1, 1, 7, 4, 1.0, 0.4},     // A 1 x 1: C may be B
    };
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (const KronCase& k : cases) {
            const gindex_t n = k.ma * k.mb, m = k.na * k.nb;
            std::mt19937_64 rng(std::uint64_t(1000 + n * 100 + m));
            const auto c0 = random_mat<I64>(rng, n, m, 0.3);
            const auto a0 = random_mat<I64>(rng, k.ma, k.na, k.da);
            const auto b0 = random_mat<I64>(rng, k.mb, k.nb, k.db);
            const auto m0 = random_mat<int>(rng, n, m, 0.5, 0, 1);
            std::vector<MAlias> aliases{MAlias::none, MAlias::c_is_mask};
            if (k.mb == 1 && k.nb == 1) aliases.push_back(MAlias::c_is_a);
            if (k.ma == 1 && k.na == 1) aliases.push_back(MAlias::c_is_b);
            const DistMatrix<I64> a_fmt[2] = {make_matrix(grid, k.ma, k.na, a0, LocalFormat::dcsc),
                                              make_matrix(grid, k.ma, k.na, a0, LocalFormat::csr)};
            const DistMatrix<I64> b_fmt[2] = {make_matrix(grid, k.mb, k.nb, b0, LocalFormat::csr),
                                              make_matrix(grid, k.mb, k.nb, b0, LocalFormat::dcsc)};
            auto dist_op = [&](DistMatrix<I64>& c, const auto& mask, auto accum,
                               const Descriptor& d, MAlias alias, LocalFormat fmt) {
                const auto& aa = alias == MAlias::c_is_a ? c : a_fmt[fmt == LocalFormat::csr];
                const auto& bb = alias == MAlias::c_is_b ? c : b_fmt[fmt == LocalFormat::csr];
                kronecker(c, mask, accum, MinusTwice{}, aa, bb, d);
            };
            auto ref_t = [&](const ref::Mat<I64>& c_old, MAlias alias) {
                const auto& aa = alias == MAlias::c_is_a ? c_old : a0;
                const auto& bb = alias == MAlias::c_is_b ? c_old : b0;
                return ref::kronecker(aa, bb, k.mb, k.nb, MinusTwice{});
            };
            checked += check_matrix_combinations(grid, n, m, c0, n, m, m0, aliases, dist_op,
                                                 via_output_stage(ref_t), "kronecker");
        }
    }
    EXPECT_GT(checked, 0);
}

// Aᵀ and Bᵀ, and mixed types: A int, B double, C double.
TEST(OpsMatrixKronecker, TransposedInputsAndMixedTypes) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(2000);
        const auto at0 = random_mat<int>(rng, 3, 4, 0.5);     // A = at0ᵀ is 4 x 3
        const auto bt0 = random_mat<double>(rng, 5, 2, 0.5);  // B = bt0ᵀ is 2 x 5
        const auto c0 = random_mat<double>(rng, 8, 15, 0.3);
        const auto m0 = random_mat<int>(rng, 8, 15, 0.6, 0, 1);
        const auto op = [](int x, double y) { return x * y + 0.5; };
        for (LocalFormat fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            const auto at = make_matrix(grid, 3, 4, at0, fmt);
            const auto bt = make_matrix(grid, 5, 2, bt0, fmt);
            const auto mask = make_matrix(grid, 8, 15, m0, fmt);
            Descriptor d;
            d.transpose_a = true;
            d.transpose_b = true;
            d.replace = true;
            auto c = make_matrix(grid, 8, 15, c0, fmt);
            kronecker(c, mask, std::plus<>{}, op, at, bt, d);
            const auto t = ref::kronecker(ref::transpose(at0), ref::transpose(bt0), 2, 5, op);
            expect_matrix(c, ref::output_stage(c0, t, m0, std::plus<>{}, d), "kronecker Aᵀ Bᵀ");
        }
    }
}

TEST(OpsMatrixKronecker, ArgumentErrorsThrowOnEveryRankAndLeaveCUnchanged) {
    for (const auto& grid : all_grids()) {
        auto other = ProcessGrid::create(MPI_COMM_WORLD, grid->pr(), grid->pc());
        std::mt19937_64 rng(3000);
        const auto c0 = random_mat<I64>(rng, 6, 8, 0.5);
        auto c = make_matrix(grid, 6, 8, c0);
        const auto a = make_matrix(grid, 3, 2, random_mat<I64>(rng, 3, 2, 0.5));
        const auto b = make_matrix(grid, 2, 4, random_mat<I64>(rng, 2, 4, 0.5));
        const auto b_elsewhere = make_matrix(other, 2, 4, random_mat<I64>(rng, 2, 4, 0.5));
        const auto bad_mask = make_matrix(grid, 6, 7, random_mat<int>(rng, 6, 7, 0.5));
        const DistMatrix<I64> uninitialised;
        const auto plus = std::plus<>{};
        Descriptor tr;
        tr.transpose_a = true;
        EXPECT_THROW(kronecker(c, no_mask, no_accum, plus, a, a), DimensionMismatch);
        EXPECT_THROW(kronecker(c, no_mask, no_accum, plus, a, b, tr), DimensionMismatch);
        EXPECT_THROW(kronecker(c, bad_mask, no_accum, plus, a, b), DimensionMismatch);
        EXPECT_THROW(kronecker(c, no_mask, no_accum, plus, a, b_elsewhere), InvalidValue);
        EXPECT_THROW(kronecker(c, no_mask, no_accum, plus, uninitialised, b), InvalidValue);
        std::vector<gindex_t> r, k;
        ValueArray<I64> v;
        if (grid->rank() == 0) {
            r = {0, 1};
            k = {1, 0};
            v.push_back(1);
            v.push_back(2);
        }
        BuildOptions rel;
        rel.relabel = true;
        const auto relabelled = DistMatrix<I64>::from_tuples(grid, 2, 2, r, k, v, rel);
        auto c4 = make_matrix(grid, 4, 4, ref::Mat<I64>{{{0, 3}, 7}});
        EXPECT_THROW(kronecker(c4, no_mask, no_accum, plus, relabelled, relabelled), NotSupported);
        expect_matrix(c, c0, "C after failed calls");
        expect_matrix(c4, ref::Mat<I64>{{{0, 3}, 7}}, "4 x 4 C after a failed call");
    }
}

}  // namespace
}  // namespace gridblas::test
