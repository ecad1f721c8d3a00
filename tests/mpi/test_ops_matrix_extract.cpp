// Tests of extract with index lists (include/gridblas/ops/index_extract.hpp), C⟨M⟩ =
// accum(C, A(I, J)) and w⟨m⟩ = accum(w, u(I)), against the serial reference on every grid
// shape of the rank count: every mask kind × complement × replace × accumulator × aliasing ×
// local format, repeated and unsorted indices, transposed A, empty and hypersparse matrices,
// and the argument errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>

#include "dist_test_util.hpp"
#include "gridblas/ops/index_extract.hpp"
#include "matrix_ops_check.hpp"
#include "ops_check.hpp"
#include "reference/matrix_ops_reference.hpp"

namespace gridblas::test {
namespace {

using I64 = std::int64_t;

/// k indices in [0, n): distinct (a shuffled subset) or drawn with repeats; unsorted.
std::vector<gindex_t> random_indices(std::mt19937_64& rng, gindex_t n, std::size_t k,
                                     bool distinct) {
    std::vector<gindex_t> idx;
    if (n == 0) return idx;
    if (distinct) {
        idx.resize(std::size_t(n));
        std::iota(idx.begin(), idx.end(), gindex_t(0));
        std::shuffle(idx.begin(), idx.end(), rng);
        idx.resize(std::min(k, idx.size()));
    } else {
        std::uniform_int_distribution<gindex_t> pick(0, n - 1);
        for (std::size_t p = 0; p < k; ++p) idx.push_back(pick(rng));
    }
    return idx;
}

TEST(OpsMatrixExtract, EveryCombination) {
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (const MatrixCase& cs : matrix_cases()) {
            for (bool full : {false, true}) {
                // full: I and J are permutations of every row / column, so C may be A.
                std::mt19937_64 rng(std::uint64_t(100 + cs.n * 100 + cs.m + (full ? 7 : 0)));
                const auto a0 = random_mat<I64>(rng, cs.n, cs.m, cs.density * 1.5);
                const auto rows = full
                                      ? random_indices(rng, cs.n, std::size_t(cs.n), true)
                                      : random_indices(rng, cs.n, std::size_t(cs.n / 2 + 3), false);
                const auto cols = full
                                      ? random_indices(rng, cs.m, std::size_t(cs.m), true)
                                      : random_indices(rng, cs.m, std::size_t(cs.m / 2 + 2), false);
                const gindex_t n = gindex_t(rows.size()), m = gindex_t(cols.size());
                const auto c0 = random_mat<I64>(rng, n, m, 0.3);
                const auto m0 = random_mat<int>(rng, n, m, 0.5, 0, 1);
                std::vector<MAlias> aliases{MAlias::none, MAlias::c_is_mask};
                if (full) aliases.push_back(MAlias::c_is_a);
                const DistMatrix<I64> a_fmt[2] = {
                    make_matrix(grid, cs.n, cs.m, a0, LocalFormat::dcsc),
                    make_matrix(grid, cs.n, cs.m, a0, LocalFormat::csr)};
                auto dist_op = [&](DistMatrix<I64>& c, const auto& mask, auto accum,
                                   const Descriptor& d, MAlias alias, LocalFormat fmt) {
                    const DistMatrix<I64>& a =
                        alias == MAlias::c_is_a ? c : a_fmt[fmt == LocalFormat::csr];
                    extract(c, mask, accum, a, rows, cols, d);
                };
                auto ref_t = [&](const ref::Mat<I64>& c_old, MAlias alias) {
                    return ref::extract(alias == MAlias::c_is_a ? c_old : a0, rows, cols);
                };
                checked += check_matrix_combinations(grid, n, m, c0, n, m, m0, aliases, dist_op,
                                                     via_output_stage(ref_t), "extract");
            }
        }
    }
    EXPECT_GT(checked, 0);
}

// Aᵀ(I, J), mixed types (A int, C double, bool mask), hypersparse A with its entries picked.
TEST(OpsMatrixExtract, TransposedTypesAndHypersparse) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(200);
        const auto at0 = random_mat<int>(rng, 9, 14, 0.4);  // A = at0ᵀ is 14 x 9
        const std::vector<gindex_t> rows{13, 0, 5, 5, 7}, cols{8, 1, 1, 3};
        const auto c0 = random_mat<double>(rng, 5, 4, 0.4);
        ref::Mat<bool> m0;
        for (const auto& [ij, x] : random_mat<int>(rng, 5, 4, 0.6)) m0[ij] = x > 2;
        const ref::Mat<I64> h0{{{3, 39}, 5}, {{17, 2}, -4}, {{49, 0}, 8}};
        const std::vector<gindex_t> hr{49, 17, 3, 3, 0}, hc{0, 39, 2, 2};
        for (LocalFormat fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            const auto at = make_matrix(grid, 9, 14, at0, fmt);
            const auto mask = make_matrix(grid, 5, 4, m0, fmt);
            Descriptor d;
            d.transpose_a = true;
            d.mask_complement = true;
            auto c = make_matrix(grid, 5, 4, c0, fmt);
            extract(c, mask, std::plus<>{}, at, rows, cols, d);
            ref::Mat<double> t;
            for (const auto& [ij, x] : ref::extract(ref::transpose(at0), rows, cols)) t[ij] = x;
            expect_matrix(c, ref::output_stage(c0, t, m0, std::plus<>{}, d), "extract Aᵀ(I, J)");
            const auto h = make_matrix(grid, 50, 40, h0, fmt);
            auto hc_out = make_matrix(grid, 5, 4, ref::Mat<I64>{{{0, 0}, 1}}, fmt);
            extract(hc_out, no_mask, no_accum, h, hr, hc);
            expect_matrix(hc_out, ref::extract(h0, hr, hc), "extract from a hypersparse A");
        }
    }
}

TEST(OpsVectorExtract, EveryCombination) {
    const Alias aliases[] = {Alias::none, Alias::w_is_u, Alias::w_is_mask};
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (gindex_t n : test_lengths()) {
            std::mt19937_64 rng(300 + std::uint64_t(n));
            // |I| = n, indices repeating, so that w (length |I|) may also be u (length n).
            const auto idx = random_indices(rng, n, std::size_t(n), false);
            const auto w0 = random_vec<I64>(rng, n, 0.5);
            const auto u0 = random_vec<I64>(rng, n, 0.5);
            const auto m0 = random_vec<int>(rng, n, 0.6, 0, 1);
            const DistVector<I64> u_dist = make_vector(grid, n, u0);
            auto dist_op = [&](DistVector<I64>& w, const auto& mask, auto accum,
                               const Descriptor& d, Alias alias, VectorFormat fmt) {
                const auto u = in_format(u_dist, fmt);
                extract(w, mask, accum, alias == Alias::w_is_u ? w : u, idx, d);
            };
            auto ref_t = [&](const ref::Vec<I64>& w_old, Alias alias) {
                return ref::extract(alias == Alias::w_is_u ? w_old : u0, idx);
            };
            checked +=
                check_combinations(grid, n, w0, m0, aliases, dist_op, ref_t, "vector extract");
        }
    }
    EXPECT_GT(checked, 0);
}

TEST(OpsMatrixExtract, ArgumentErrorsThrowOnEveryRankAndLeaveCUnchanged) {
    for (const auto& grid : all_grids()) {
        auto other = ProcessGrid::create(MPI_COMM_WORLD, grid->pr(), grid->pc());
        std::mt19937_64 rng(400);
        const auto c0 = random_mat<I64>(rng, 3, 2, 0.5);
        auto c = make_matrix(grid, 3, 2, c0);
        const auto a = make_matrix(grid, 8, 5, random_mat<I64>(rng, 8, 5, 0.5));
        const auto elsewhere = make_matrix(other, 8, 5, random_mat<I64>(rng, 8, 5, 0.5));
        const auto bad_mask = make_matrix(grid, 2, 3, random_mat<int>(rng, 2, 3, 0.5));
        const std::vector<gindex_t> rows{7, 0, 7}, cols{4, 1}, too_far{8, 0, 1}, neg{0, -1};
        const std::vector<gindex_t> four{0, 1, 2, 3};
        Descriptor tr;
        tr.transpose_a = true;
        EXPECT_THROW(extract(c, no_mask, no_accum, a, too_far, cols), IndexOutOfBounds);
        EXPECT_THROW(extract(c, no_mask, no_accum, a, rows, neg), IndexOutOfBounds);
        EXPECT_THROW(extract(c, no_mask, no_accum, a, rows, cols, tr), IndexOutOfBounds);
        EXPECT_THROW(extract(c, no_mask, no_accum, a, four, cols), DimensionMismatch);
        EXPECT_THROW(extract(c, bad_mask, no_accum, a, rows, cols), DimensionMismatch);
        EXPECT_THROW(extract(c, no_mask, no_accum, elsewhere, rows, cols), InvalidValue);
        EXPECT_THROW(extract(c, no_mask, no_accum, DistMatrix<I64>{}, rows, cols), InvalidValue);
        expect_matrix(c, c0, "C after failed calls");

        const ref::Vec<I64> w0{{0, 4}, {2, 6}};
        auto w = make_vector(grid, 3, w0);
        const auto u = make_vector(grid, 8, random_vec<I64>(rng, 8, 0.5));
        const auto u_elsewhere = make_vector(other, 8, random_vec<I64>(rng, 8, 0.5));
        EXPECT_THROW(extract(w, no_mask, no_accum, u, too_far), IndexOutOfBounds);
        EXPECT_THROW(extract(w, no_mask, no_accum, u, four), DimensionMismatch);
        EXPECT_THROW(extract(w, no_mask, no_accum, u_elsewhere, rows), InvalidValue);
        expect_vector(w, w0, "w after failed calls");
    }
}

}  // namespace
}  // namespace gridblas::test
