// Tests of assign / subassign with index lists (include/gridblas/ops/index_assign.hpp):
// C⟨M⟩(I, J) = accum(C(I, J), A), C(I, J)⟨M⟩ = accum(C(I, J), A) and w⟨m⟩(I) = accum(w(I), u),
// against the serial reference on every grid shape of the rank count: every mask kind ×
// complement × replace × accumulator × aliasing × local format, unsorted indices, transposed
// A, empty and hypersparse matrices, and the argument errors (repeated and out-of-range
// indices among them).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <sstream>

#include "dist_test_util.hpp"
#include "gridblas/ops/index_assign.hpp"
#include "matrix_ops_check.hpp"
#include "ops_check.hpp"
#include "reference/matrix_ops_reference.hpp"

namespace gridblas::test {
namespace {

using I64 = std::int64_t;

/// k distinct indices in [0, n), shuffled (unsorted).
std::vector<gindex_t> distinct_indices(std::mt19937_64& rng, gindex_t n, std::size_t k) {
    std::vector<gindex_t> idx(static_cast<std::size_t>(n));
    std::iota(idx.begin(), idx.end(), gindex_t(0));
    std::shuffle(idx.begin(), idx.end(), rng);
    idx.resize(std::min(k, idx.size()));
    return idx;
}

template <bool Sub>
void run_all_combinations(const char* what, std::uint64_t seed) {
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (const MatrixCase& cs : matrix_cases()) {
            for (bool full : {false, true}) {
                // full: I and J are permutations of every row / column, so C may be A (and,
                // for subassign, the mask).
                const gindex_t n = cs.n, m = cs.m;
                std::mt19937_64 rng(seed + std::uint64_t(n * 100 + m + (full ? 7 : 0)));
                const auto rows =
                    distinct_indices(rng, n, full ? std::size_t(n) : std::size_t(n / 2 + 1));
                const auto cols =
                    distinct_indices(rng, m, full ? std::size_t(m) : std::size_t(m / 2 + 1));
                const gindex_t ni = gindex_t(rows.size()), nj = gindex_t(cols.size());
                const auto c0 = random_mat<I64>(rng, n, m, cs.density);
                const auto a0 = random_mat<I64>(rng, ni, nj, cs.density * 1.3);
                const gindex_t mn = Sub ? ni : n, mm = Sub ? nj : m;
                const auto m0 = random_mat<int>(rng, mn, mm, cs.density * 1.5, 0, 1);
                std::vector<MAlias> aliases{MAlias::none};
                if (!Sub || full) aliases.push_back(MAlias::c_is_mask);
                if (full) aliases.push_back(MAlias::c_is_a);
                const DistMatrix<I64> a_fmt[2] = {make_matrix(grid, ni, nj, a0, LocalFormat::dcsc),
                                                  make_matrix(grid, ni, nj, a0, LocalFormat::csr)};
                auto dist_op = [&](DistMatrix<I64>& c, const auto& mask, auto accum,
                                   const Descriptor& d, MAlias alias, LocalFormat fmt) {
                    const DistMatrix<I64>& a =
                        alias == MAlias::c_is_a ? c : a_fmt[fmt == LocalFormat::csr];
                    if constexpr (Sub) {
                        subassign(c, mask, accum, a, rows, cols, d);
                    } else {
                        assign(c, mask, accum, a, rows, cols, d);
                    }
                };
                auto ref_c = [&](const ref::Mat<I64>& c_old, const auto& mask, auto accum,
                                 const Descriptor& d, MAlias alias) {
                    const auto& a = alias == MAlias::c_is_a ? c_old : a0;
                    if constexpr (Sub) {
                        return ref::subassign(c_old, mask, accum, a, rows, cols, d);
                    } else {
                        return ref::assign(c_old, mask, accum, a, rows, cols, d);
                    }
                };
                checked += check_matrix_combinations(grid, n, m, c0, mn, mm, m0, aliases, dist_op,
                                                     ref_c, what);
            }
        }
    }
    EXPECT_GT(checked, 0);
}

TEST(OpsMatrixAssign, EveryCombination) { run_all_combinations<false>("assign", 100); }

TEST(OpsMatrixSubassign, EveryCombination) { run_all_combinations<true>("subassign", 200); }

// Aᵀ, mixed types (A int, C double, bool and Pattern masks) and a hypersparse C.
TEST(OpsMatrixAssign, TransposedTypesAndHypersparse) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(300);
        const std::vector<gindex_t> rows{11, 2, 7}, cols{0, 9, 4, 5};
        const auto at0 = random_mat<int>(rng, 4, 3, 0.6);  // A = at0ᵀ is 3 x 4
        ref::Mat<double> a_read;
        for (const auto& [ij, x] : ref::transpose(at0)) a_read[ij] = x;
        const auto c0 = random_mat<double>(rng, 12, 10, 0.3);
        ref::Mat<bool> m0;
        for (const auto& [ij, x] : random_mat<int>(rng, 12, 10, 0.6)) m0[ij] = x > 2;
        ref::Mat<Pattern> s0;
        for (const auto& [ij, x] : random_mat<int>(rng, 3, 4, 0.5)) s0[ij] = Pattern{};
        const ref::Mat<I64> h0{{{3, 39}, 5}, {{49, 0}, 8}};
        for (LocalFormat fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            const auto at = make_matrix(grid, 4, 3, at0, fmt);
            const auto mask = make_matrix(grid, 12, 10, m0, fmt);
            const auto smask = make_matrix(grid, 3, 4, s0, fmt);
            Descriptor d;
            d.transpose_a = true;
            d.replace = true;
            auto c = make_matrix(grid, 12, 10, c0, fmt);
            assign(c, mask, std::plus<>{}, at, rows, cols, d);
            expect_matrix(c, ref::assign(c0, m0, std::plus<>{}, a_read, rows, cols, d),
                          "assign Aᵀ, bool mask, replace");
            d.mask_complement = true;
            auto c2 = make_matrix(grid, 12, 10, c0, fmt);
            subassign(c2, smask, no_accum, at, rows, cols, d);
            expect_matrix(c2, ref::subassign(c0, s0, no_accum, a_read, rows, cols, d),
                          "subassign Aᵀ, Pattern mask complemented, replace");
            auto h = make_matrix(grid, 50, 40, h0, fmt);
            const std::vector<gindex_t> hr{49, 20}, hc{0, 33};
            const ref::Mat<I64> x0{{{1, 1}, 9}, {{0, 1}, 2}};
            const auto x = make_matrix(grid, 2, 2, x0, fmt);
            assign(h, no_mask, no_accum, x, hr, hc);
            expect_matrix(h, ref::assign(h0, no_mask, no_accum, x0, hr, hc, Descriptor{}),
                          "assign into a hypersparse C");
        }
    }
}

// w⟨m⟩(I) = accum(w(I), u): its own loop, as the expected w is not the plain output stage.
TEST(OpsVectorAssign, EveryCombination) {
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (gindex_t n : test_lengths()) {
            for (bool full : {false, true}) {
                std::mt19937_64 rng(400 + std::uint64_t(n) + (full ? 1000 : 0));
                const auto idx =
                    distinct_indices(rng, n, full ? std::size_t(n) : std::size_t(n / 2 + 1));
                const gindex_t ni = gindex_t(idx.size());
                const auto w0 = random_vec<I64>(rng, n, 0.5);
                const auto u0 = random_vec<I64>(rng, ni, 0.5);
                const auto m0 = random_vec<int>(rng, n, 0.6, 0, 1);
                const auto mask = make_vector(grid, n, m0);
                for (VectorFormat fmt : {VectorFormat::sparse, VectorFormat::bitmap}) {
                    auto u = make_vector(grid, ni, u0);
                    u.to_format(fmt);
                    for (MaskKind mk : {MaskKind::none, MaskKind::valued, MaskKind::structural}) {
                        for (int bits = 0; bits < 8; ++bits) {
                            for (Alias alias : {Alias::none, Alias::w_is_u, Alias::w_is_mask}) {
                                if (alias == Alias::w_is_u && !full) continue;
                                if (alias == Alias::w_is_mask && mk == MaskKind::none) continue;
                                Descriptor d;
                                d.mask_complement = bits & 1;
                                d.replace = bits & 2;
                                d.mask_structural = mk == MaskKind::structural;
                                const bool acc = bits & 4;
                                auto w = make_vector(grid, n, w0);
                                w.to_format(fmt);
                                const DistVector<I64>& uu = alias == Alias::w_is_u ? w : u;
                                const auto& ur = alias == Alias::w_is_u ? w0 : u0;
                                ref::Vec<I64> want;
                                auto run = [&](const auto& dm, const auto& rm) {
                                    if (acc) {
                                        assign(w, dm, std::plus<>{}, uu, idx, d);
                                        want = ref::assign(w0, rm, std::plus<>{}, ur, idx, d);
                                    } else {
                                        assign(w, dm, no_accum, uu, idx, d);
                                        want = ref::assign(w0, rm, no_accum, ur, idx, d);
                                    }
                                };
                                if (mk == MaskKind::none) {
                                    run(no_mask, no_mask);
                                } else if (alias == Alias::w_is_mask) {
                                    run(w, w0);
                                } else {
                                    run(mask, m0);
                                }
                                std::ostringstream label;
                                label << "vector assign: grid " << grid->pr() << "x" << grid->pc()
                                      << ", n " << n << (full ? " full" : "") << ", " << name(mk)
                                      << (d.mask_complement ? " complemented" : "")
                                      << (d.replace ? ", replace" : "") << (acc ? ", accum" : "")
                                      << ", " << name(alias);
                                expect_vector(w, want, label.str());
                                ++checked;
                            }
                        }
                    }
                }
            }
        }
    }
    EXPECT_GT(checked, 0);
}

TEST(OpsMatrixAssign, ArgumentErrorsThrowOnEveryRankAndLeaveCUnchanged) {
    for (const auto& grid : all_grids()) {
        auto other = ProcessGrid::create(MPI_COMM_WORLD, grid->pr(), grid->pc());
        std::mt19937_64 rng(500);
        const auto c0 = random_mat<I64>(rng, 8, 5, 0.5);
        auto c = make_matrix(grid, 8, 5, c0);
        const auto a = make_matrix(grid, 3, 2, random_mat<I64>(rng, 3, 2, 0.5));
        const auto a_elsewhere = make_matrix(other, 3, 2, random_mat<I64>(rng, 3, 2, 0.5));
        const auto mask = make_matrix(grid, 8, 5, random_mat<int>(rng, 8, 5, 0.5));
        const auto small_mask = make_matrix(grid, 3, 2, random_mat<int>(rng, 3, 2, 0.5));
        const std::vector<gindex_t> rows{7, 0, 3}, cols{4, 1}, dup_rows{7, 0, 7}, dup_cols{1, 1};
        const std::vector<gindex_t> far_rows{8, 0, 1}, far_cols{4, 5}, two{0, 1};
        Descriptor tr;
        tr.transpose_a = true;
        for (int sub = 0; sub < 2; ++sub) {
            auto call = [&](const auto& msk, const DistMatrix<I64>& aa,
                            const std::vector<gindex_t>& i, const std::vector<gindex_t>& j,
                            const Descriptor& d = {}) {
                if (sub) {
                    subassign(c, msk, no_accum, aa, i, j, d);
                } else {
                    assign(c, msk, no_accum, aa, i, j, d);
                }
            };
            EXPECT_THROW(call(no_mask, a, far_rows, cols), IndexOutOfBounds);
            EXPECT_THROW(call(no_mask, a, rows, far_cols), IndexOutOfBounds);
            EXPECT_THROW(call(no_mask, a, dup_rows, cols), InvalidValue);
            EXPECT_THROW(call(no_mask, a, rows, dup_cols), InvalidValue);
            EXPECT_THROW(call(no_mask, a, two, cols), DimensionMismatch);
            EXPECT_THROW(call(no_mask, a, rows, cols, tr), DimensionMismatch);
            EXPECT_THROW(call(no_mask, a_elsewhere, rows, cols), InvalidValue);
            EXPECT_THROW(call(no_mask, DistMatrix<I64>{}, rows, cols), InvalidValue);
            // assign wants C's shape for the mask, subassign A's.
            EXPECT_THROW(call(sub ? mask : small_mask, a, rows, cols), DimensionMismatch);
        }
        expect_matrix(c, c0, "C after failed calls");

        const ref::Vec<I64> w0{{0, 4}, {6, 6}};
        auto w = make_vector(grid, 8, w0);
        const auto u = make_vector(grid, 3, random_vec<I64>(rng, 3, 0.7));
        const auto u_elsewhere = make_vector(other, 3, random_vec<I64>(rng, 3, 0.7));
        EXPECT_THROW(assign(w, no_mask, no_accum, u, far_rows), IndexOutOfBounds);
        EXPECT_THROW(assign(w, no_mask, no_accum, u, dup_rows), InvalidValue);
        EXPECT_THROW(assign(w, no_mask, no_accum, u, two), DimensionMismatch);
        EXPECT_THROW(assign(w, no_mask, no_accum, u_elsewhere, rows), InvalidValue);
        expect_vector(w, w0, "w after failed calls");
    }
}

}  // namespace
}  // namespace gridblas::test
