// Tests of reduce / nvals (include/gridblas/ops/reduce.hpp) and extract_tuples / build
// (include/gridblas/ops/extract.hpp) against the serial reference, on every grid shape of the
// rank count, with empty objects and objects smaller than the rank count, and their errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "dist_test_util.hpp"
#include "gridblas/ops/extract.hpp"
#include "gridblas/ops/reduce.hpp"
#include "ops_check.hpp"
#include "reference/ops_reference.hpp"

namespace gridblas::test {
namespace {

using I64 = std::int64_t;

const auto kMin = [](I64 a, I64 b) { return std::min(a, b); };
const auto kMax = [](I64 a, I64 b) { return std::max(a, b); };
// Associative but not commutative monoids with identity kNone: the first / last operand
// that is not kNone. A distributed fold matches the serial one only in index order.
constexpr I64 kNone = -1000;
const auto kFirst = [](I64 a, I64 b) { return a != kNone ? a : b; };
const auto kLast = [](I64 a, I64 b) { return b != kNone ? b : a; };

TEST(OpsReduce, VectorToScalar) {
    for (const auto& grid : all_grids()) {
        for (gindex_t n : test_lengths()) {
            std::mt19937_64 rng(20 + std::uint64_t(n));
            const auto u0 = random_vec<I64>(rng, n, 0.5);
            auto u = make_vector(grid, n, u0);
            for (VectorFormat fmt : {VectorFormat::sparse, VectorFormat::bitmap}) {
                u.to_format(fmt);
                EXPECT_EQ(reduce(u, std::plus<>{}, I64(0)), ref::reduce(u0, std::plus<>{}, I64(0)));
                EXPECT_EQ(reduce(u, kMin, I64(1000)), ref::reduce(u0, kMin, I64(1000)));
                EXPECT_EQ(reduce(u, kMax, I64(-1000)), ref::reduce(u0, kMax, I64(-1000)));
                EXPECT_EQ(reduce(u, kFirst, kNone), ref::reduce(u0, kFirst, kNone));
                EXPECT_EQ(reduce(u, kLast, kNone), ref::reduce(u0, kLast, kNone));
                // The result type follows the identity: a double sum of integers.
                EXPECT_EQ(reduce(u, std::plus<>{}, 0.0), ref::reduce(u0, std::plus<>{}, 0.0));
                EXPECT_EQ(nvals(u), gindex_t(u0.size()));
            }
        }
    }
}

TEST(OpsReduce, MatrixToScalarAndNvals) {
    for (const auto& grid : all_grids()) {
        for (auto [n, m] : {std::pair<gindex_t, gindex_t>{0, 0}, {1, 1}, {3, 7}, {40, 25}}) {
            std::mt19937_64 rng(30 + std::uint64_t(n));
            const auto a0 = random_mat<I64>(rng, n, m, 0.3);
            const auto a = make_matrix(grid, n, m, a0);
            EXPECT_EQ(reduce(a, std::plus<>{}, I64(0)), ref::reduce(a0, std::plus<>{}, I64(0)));
            EXPECT_EQ(reduce(a, kMin, I64(1000)), ref::reduce(a0, kMin, I64(1000)));
            EXPECT_EQ(reduce(a, kMax, I64(-1000)), ref::reduce(a0, kMax, I64(-1000)));
            EXPECT_EQ(nvals(a), gindex_t(a0.size()));
            // A pattern matrix: every entry counts as 1.
            ref::Mat<Pattern> p0;
            for (const auto& [ij, x] : a0) p0[ij] = Pattern{};
            const auto p = make_matrix(grid, n, m, p0);
            EXPECT_EQ(reduce(p, std::plus<>{}, I64(0)), gindex_t(a0.size()));
        }
    }
}

// w⟨mask⟩ = accum(w, row sums of A) and, transposed, of the column sums; every mask kind ×
// complement × replace × accumulator × (w is the mask) × storage format.
TEST(OpsReduce, MatrixToVectorEveryCombination) {
    const Alias aliases[] = {Alias::none, Alias::w_is_mask};
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (gindex_t n : test_lengths()) {
            for (bool by_col : {false, true}) {
                std::mt19937_64 rng(40 + std::uint64_t(n) + (by_col ? 1000 : 0));
                const gindex_t other = 9;
                const auto a0 = by_col ? random_mat<I64>(rng, other, n, 0.3)
                                       : random_mat<I64>(rng, n, other, 0.3);
                const auto a = by_col ? make_matrix(grid, other, n, a0, LocalFormat::csr)
                                      : make_matrix(grid, n, other, a0);
                const auto w0 = random_vec<I64>(rng, n, 0.5);
                const auto m0 = random_vec<int>(rng, n, 0.6, 0, 1);
                auto dist_op = [&](DistVector<I64>& w, const auto& mask, auto accum,
                                   const Descriptor& d, Alias, VectorFormat) {
                    Descriptor dt = d;
                    dt.transpose_a = by_col;
                    reduce(w, mask, accum, std::plus<>{}, a, dt);
                };
                auto ref_t = [&](const ref::Vec<I64>&, Alias) {
                    return ref::reduce_rows<I64>(a0, std::plus<>{}, by_col);
                };
                checked += check_combinations(grid, n, w0, m0, aliases, dist_op, ref_t,
                                              by_col ? "reduce columns" : "reduce rows");
            }
        }
    }
    EXPECT_GT(checked, 0);
}

// Out-degrees of a pattern graph, and a non-commutative-safe max over a double matrix.
TEST(OpsReduce, PatternDegreesAndMaxPerRow) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(50);
        const auto a0 = random_mat<double>(rng, 31, 31, 0.2);
        ref::Mat<Pattern> p0;
        for (const auto& [ij, x] : a0) p0[ij] = Pattern{};
        const auto p = make_matrix(grid, 31, 31, p0);
        DistVector<I64> deg(grid, 31);
        reduce(deg, no_mask, no_accum, std::plus<>{}, p);
        ref::Vec<I64> want;
        for (const auto& [ij, x] : p0) want[ij.first] += 1;
        expect_vector(deg, want, "out-degrees");
        const auto a = make_matrix(grid, 31, 31, a0);
        DistVector<double> mx(grid, 31);
        const auto dmax = [](double x, double y) { return std::max(x, y); };
        reduce(mx, no_mask, no_accum, dmax, a);
        expect_vector(mx, ref::reduce_rows<double>(a0, dmax), "row maxima");
    }
}

TEST(OpsExtract, VectorOnEveryRankAndOnEachRoot) {
    for (const auto& grid : all_grids()) {
        for (gindex_t n : test_lengths()) {
            std::mt19937_64 rng(60 + std::uint64_t(n));
            const auto u0 = random_vec<I64>(rng, n, 0.5);
            std::vector<gindex_t> want_i;
            std::vector<I64> want_v;
            for (const auto& [i, x] : u0) {
                want_i.push_back(i);
                want_v.push_back(x);
            }
            auto u = make_vector(grid, n, u0);
            u.to_format(n % 2 ? VectorFormat::bitmap : VectorFormat::sparse);
            std::vector<gindex_t> idx{42};
            std::vector<I64> vals{42};
            extract_tuples(u, idx, vals);
            EXPECT_EQ(idx, want_i);
            EXPECT_EQ(vals, want_v);
            for (int root = 0; root < grid->size(); ++root) {
                extract_tuples(u, idx, vals, root);
                if (grid->rank() == root) {
                    EXPECT_EQ(idx, want_i);
                    EXPECT_EQ(vals, want_v);
                } else {
                    EXPECT_TRUE(idx.empty() && vals.empty());
                }
            }
        }
    }
}

TEST(OpsExtract, MatrixOnEveryRankAndOnEachRoot) {
    for (const auto& grid : all_grids()) {
        for (auto [n, m] : {std::pair<gindex_t, gindex_t>{0, 3}, {2, 1}, {5, 5}, {33, 21}}) {
            std::mt19937_64 rng(70 + std::uint64_t(n));
            const auto a0 = random_mat<I64>(rng, n, m, 0.3);
            std::vector<gindex_t> want_r, want_c;
            std::vector<I64> want_v;
            for (const auto& [ij, x] : a0) {
                want_r.push_back(ij.first);
                want_c.push_back(ij.second);
                want_v.push_back(x);
            }
            const auto a =
                make_matrix(grid, n, m, a0, n % 2 ? LocalFormat::csr : LocalFormat::dcsc);
            std::vector<gindex_t> r, c;
            std::vector<I64> v;
            extract_tuples(a, r, c, v);
            EXPECT_EQ(r, want_r);
            EXPECT_EQ(c, want_c);
            EXPECT_EQ(v, want_v);
            for (int root = 0; root < grid->size(); ++root) {
                extract_tuples(a, r, c, v, root);
                if (grid->rank() == root) {
                    EXPECT_EQ(r, want_r);
                    EXPECT_EQ(c, want_c);
                    EXPECT_EQ(v, want_v);
                } else {
                    EXPECT_TRUE(r.empty() && c.empty() && v.empty());
                }
            }
        }
    }
}

TEST(OpsBuild, FromTuplesHeldByAnyRank) {
    for (const auto& grid : all_grids()) {
        const int p = grid->size();
        const int me = grid->rank();
        for (gindex_t n : test_lengths()) {
            std::mt19937_64 rng(80 + std::uint64_t(n));
            const auto u0 = random_vec<I64>(rng, n, 0.5);
            // Rank r passes the entries k with k % p == p - 1 - r, in reverse order.
            std::vector<gindex_t> idx;
            std::vector<I64> vals;
            std::size_t k = 0;
            for (const auto& [i, x] : u0) {
                if (int(k++ % std::size_t(p)) == p - 1 - me) {
                    idx.insert(idx.begin(), i);
                    vals.insert(vals.begin(), x);
                }
            }
            DistVector<I64> w(grid, n);
            build(w, idx, vals);
            expect_vector(w, u0, "build");
        }
        // Duplicates are combined in (rank, position) order: every rank passes index 2 twice.
        const std::vector<gindex_t> dup_idx{2, 2, 0};
        const std::vector<I64> dup_vals{I64(me) * 10, I64(me) * 10 + 1, 5};
        DistVector<I64> w(grid, 4);
        build(w, dup_idx, dup_vals, kLast);
        expect_vector(w, ref::Vec<I64>{{0, 5}, {2, I64(p - 1) * 10 + 1}}, "build, dup = last");
        DistVector<I64> w2(grid, 4);
        build(w2, dup_idx, dup_vals, kFirst);
        expect_vector(w2, ref::Vec<I64>{{0, 5}, {2, 0}}, "build, dup = first");
        DistVector<I64> w3(grid, 4);
        build(w3, dup_idx, dup_vals, std::plus<>{});
        expect_vector(w3, ref::Vec<I64>{{0, 5 * I64(p)}, {2, I64(p) * I64(p - 1) * 10 + p}},
                      "build, dup = plus");
    }
}

TEST(OpsBuild, ErrorsThrowOnEveryRankAndLeaveWUnchanged) {
    for (const auto& grid : all_grids()) {
        const int me = grid->rank();
        const std::vector<gindex_t> one_idx{1};
        const std::vector<I64> one_val{7};
        // Output not empty (GrB_OUTPUT_NOT_EMPTY): only the owner of index 1 holds an entry.
        auto w = make_vector(grid, 6, ref::Vec<I64>{{1, 3}});
        EXPECT_THROW(build(w, one_idx, one_val), InvalidValue);
        expect_vector(w, ref::Vec<I64>{{1, 3}}, "w after build into a non-empty vector");
        // An index out of range, passed by the last rank only.
        DistVector<I64> e(grid, 6);
        const bool last = me == grid->size() - 1;
        const std::vector<gindex_t> bad_idx{last ? gindex_t(6) : gindex_t(0)};
        EXPECT_THROW(build(e, bad_idx, one_val), IndexOutOfBounds);
        // Duplicates without a dup operator: index 0 passed by every rank (twice at np 1).
        const std::vector<gindex_t> dup_idx{0, 0};
        const std::vector<I64> dup_vals{1, 2};
        EXPECT_THROW(build(e, dup_idx, dup_vals), InvalidValue);
        // idx and vals of different lengths on rank 0 only.
        const std::vector<I64> two_vals{1, 2};
        EXPECT_THROW(
            build(e, one_idx,
                  me == 0 ? std::span<const I64>(two_vals) : std::span<const I64>(one_val)),
            DimensionMismatch);
        expect_vector(e, ref::Vec<I64>{}, "w after failed builds");
        DistVector<I64> uninitialised;
        EXPECT_THROW(build(uninitialised, one_idx, one_val), InvalidValue);
    }
}

TEST(OpsReduceExtract, ArgumentErrorsThrowOnEveryRank) {
    for (const auto& grid : all_grids()) {
        auto other = ProcessGrid::create(MPI_COMM_WORLD, grid->pr(), grid->pc());
        const auto a = make_matrix(grid, 6, 4, ref::Mat<I64>{{{0, 1}, 2}, {{5, 3}, 1}});
        const auto w0 = ref::Vec<I64>{{2, 9}};
        auto w = make_vector(grid, 6, w0);
        auto w4 = make_vector(grid, 4, w0);
        auto elsewhere = make_vector(other, 6, w0);
        const auto short_mask = make_vector(grid, 5, ref::Vec<int>{{1, 1}});
        Descriptor t;
        t.transpose_a = true;
        EXPECT_THROW(reduce(w4, no_mask, no_accum, std::plus<>{}, a), DimensionMismatch);
        EXPECT_THROW(reduce(w, no_mask, no_accum, std::plus<>{}, a, t), DimensionMismatch);
        EXPECT_THROW(reduce(w, short_mask, no_accum, std::plus<>{}, a), DimensionMismatch);
        EXPECT_THROW(reduce(elsewhere, no_mask, no_accum, std::plus<>{}, a), InvalidValue);
        expect_vector(w, w0, "w after failed reductions");
        expect_vector(w4, w0, "w4 after a failed reduction");
        const DistVector<I64> u0;
        const DistMatrix<I64> a0;
        EXPECT_THROW(reduce(u0, std::plus<>{}, I64(0)), InvalidValue);
        EXPECT_THROW(reduce(a0, std::plus<>{}, I64(0)), InvalidValue);
        EXPECT_THROW(nvals(u0), InvalidValue);
        std::vector<gindex_t> idx, c;
        std::vector<I64> v;
        EXPECT_THROW(extract_tuples(w, idx, v, grid->size()), InvalidValue);
        EXPECT_THROW(extract_tuples(w, idx, v, -1), InvalidValue);
        EXPECT_THROW(extract_tuples(a, idx, c, v, grid->size()), InvalidValue);
        EXPECT_THROW(extract_tuples(u0, idx, v), InvalidValue);
    }
}

}  // namespace
}  // namespace gridblas::test
