// vxm_full / mxv_full (spmv_full.hpp) against the naive vxm / mxv of tests/reference on a
// full input, every grid shape, both local formats, square and non-square matrices (with
// ranks that own empty pieces), plus_times and min_plus; vxm_witness / mxv_witness
// (spmv_witness.hpp) against a naive search of the same matrices; and the length checks
// throwing on every rank when one rank passes a piece of the wrong length.

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "dist_test_util.hpp"
#include "gridblas/ops/spmv_full.hpp"
#include "gridblas/ops/spmv_witness.hpp"
#include "gridblas/semirings/builtin.hpp"
#include "reference/spmv_reference.hpp"

using namespace gridblas;
using test::all_grids;
using test::my_piece;

namespace {

template <class S>
void check(const std::shared_ptr<ProcessGrid>& grid, gindex_t n, gindex_t m, double density,
           LocalFormat fmt, bool as_mxv, std::uint64_t seed, const std::string& what) {
    using Y = typename S::value_type;
    std::mt19937_64 rng(seed);
    const ref::Mat<double> am = test::random_mat<double>(rng, n, m, density, 1, 9);
    const DistMatrix<double> a = test::make_matrix(grid, n, m, am, fmt);
    // A full input over the product's input space, values 0..9.
    const gindex_t in_n = as_mxv ? m : n;
    ref::Vec<double> u;
    std::uniform_int_distribution<int> val(0, 9);
    for (gindex_t i = 0; i < in_n; ++i) u[i] = double(val(rng));
    const ref::Vec<Y> want = as_mxv ? ref::mxv<S>(am, u) : ref::vxm<S>(u, am);

    const Distribution& din = as_mxv ? a.col_dist() : a.row_dist();
    const Distribution& dout = as_mxv ? a.row_dist() : a.col_dist();
    const auto [ib, in_len] = my_piece(*grid, din);
    const auto [ob, out_len] = my_piece(*grid, dout);
    std::vector<double> up(static_cast<std::size_t>(in_len));
    for (gindex_t k = 0; k < in_len; ++k) up[std::size_t(k)] = u.at(ib + k);
    std::vector<Y> wp(std::size_t(out_len), Y(-1));
    FullSpmvWorkspace<double, Y> ws;
    ws.policy.min_parallel_work = 0;        // take the threaded path on small blocks too
    for (int call = 0; call < 2; ++call) {  // the second call reuses the workspace
        if (as_mxv) {
            mxv_full<S>(std::span<Y>(wp), std::span<const double>(up), a, ws);
        } else {
            vxm_full<S>(std::span<Y>(wp), std::span<const double>(up), a, ws);
        }
        bool ok = true;
        std::string first_bad;
        for (gindex_t k = 0; k < out_len; ++k) {
            const auto it = want.find(ob + k);
            const Y expect = it == want.end() ? S::zero() : it->second;
            if (wp[std::size_t(k)] != expect && ok) {
                ok = false;
                first_bad = "index " + std::to_string(ob + k) + ": got " +
                            std::to_string(wp[std::size_t(k)]) + ", want " + std::to_string(expect);
            }
        }
        EXPECT_TRUE(ok) << what << " grid " << grid->pr() << "x" << grid->pc() << " call " << call
                        << ": " << first_bad;
    }
}

/// vxm_witness / mxv_witness over (min, +): targets that one or more products reach, that
/// none reaches, and the skip value; inputs with unreachable (+infinity) entries.
void check_witness(const std::shared_ptr<ProcessGrid>& grid, gindex_t n, gindex_t m, double density,
                   LocalFormat fmt, bool as_mxv, std::uint64_t seed, const std::string& what) {
    using S = min_plus<double>;
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::mt19937_64 rng(seed);
    const ref::Mat<double> am = test::random_mat<double>(rng, n, m, density, 1, 4);
    const DistMatrix<double> a = test::make_matrix(grid, n, m, am, fmt);
    const gindex_t in_n = as_mxv ? m : n;
    const gindex_t out_n = as_mxv ? n : m;
    std::vector<double> u(static_cast<std::size_t>(in_n));
    std::vector<double> target(static_cast<std::size_t>(out_n), -1.0);
    for (double& x : u) x = rng() % 6 == 0 ? inf : double(rng() % 4);
    // Each output's target: the product of one of its entries (small values: often several
    // inputs reach it), -1 (none does), or the skip value.
    for (const auto& [ij, v] : am) {
        const auto [in, out] = as_mxv ? std::pair{ij.second, ij.first} : ij;
        if (rng() % 2) target[std::size_t(out)] = S::mul(v, u[std::size_t(in)]);
    }
    for (double& t : target) {
        if (rng() % 8 == 0) t = inf;
    }
    std::vector<gindex_t> want(std::size_t(out_n), -1);
    for (const auto& [ij, v] : am) {  // ascending (row, column): keep the first input
        const auto [in, out] = as_mxv ? std::pair{ij.second, ij.first} : ij;
        const double t = target[std::size_t(out)];
        gindex_t& w = want[std::size_t(out)];
        if (t != inf && S::mul(v, u[std::size_t(in)]) == t && (w < 0 || in < w)) w = in;
    }
    const Distribution& din = as_mxv ? a.col_dist() : a.row_dist();
    const Distribution& dout = as_mxv ? a.row_dist() : a.col_dist();
    const auto [ib, in_len] = my_piece(*grid, din);
    const auto [ob, out_len] = my_piece(*grid, dout);
    const std::span<const double> up(u.data() + ib, std::size_t(in_len));
    const std::span<const double> tp(target.data() + ob, std::size_t(out_len));
    std::vector<gindex_t> got(std::size_t(out_len), -7);
    WitnessSpmvWorkspace<double, double> ws;
    ws.policy.min_parallel_work = 0;
    for (int call = 0; call < 2; ++call) {
        if (as_mxv) {
            mxv_witness<S>(std::span<gindex_t>(got), tp, up, a, inf, ws);
        } else {
            vxm_witness<S>(std::span<gindex_t>(got), tp, up, a, inf, ws);
        }
        const std::vector<gindex_t> mine(want.begin() + ob, want.begin() + ob + out_len);
        EXPECT_EQ(got, mine) << what << " grid " << grid->pr() << "x" << grid->pc() << " call "
                             << call;
    }
}

}  // namespace

TEST(SpmvWitness, MatchesNaiveSearchEveryGrid) {
    std::uint64_t seed = 101;
    for (const auto& [n, m, density] :
         {std::tuple{40, 40, 0.15}, std::tuple{37, 23, 0.2}, std::tuple{19, 45, 0.25},
          std::tuple{1, 1, 1.0}, std::tuple{30, 30, 0.0}}) {
        for (auto& grid : all_grids()) {
            for (LocalFormat fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
                for (bool as_mxv : {false, true}) {
                    check_witness(grid, n, m, density, fmt, as_mxv, ++seed,
                                  std::string(as_mxv ? "mxv" : "vxm") + " " + std::to_string(n) +
                                      "x" + std::to_string(m));
                }
            }
        }
    }
}

TEST(SpmvWitness, WrongPieceLengthThrowsOnEveryRank) {
    for (auto& grid : all_grids()) {
        std::mt19937_64 rng(9);
        const ref::Mat<double> am = test::random_mat<double>(rng, 20, 20, 0.2, 1, 9);
        const DistMatrix<double> a = test::make_matrix(grid, 20, 20, am);
        const auto [ib, len] = my_piece(*grid, a.row_dist());
        (void)ib;
        const bool bad = grid->rank() == 0;  // only rank 0's targets are one too short
        std::vector<double> u(std::size_t(len), 1.0), t(std::size_t(len - (bad ? 1 : 0)), 2.0);
        std::vector<gindex_t> w(t.size());
        WitnessSpmvWorkspace<double, double> ws;
        EXPECT_THROW(
            vxm_witness<min_plus<double>>(std::span<gindex_t>(w), std::span<const double>(t),
                                          std::span<const double>(u), a, 1e300, ws),
            DimensionMismatch);
    }
}

TEST(SpmvFull, MatchesReferenceEveryGrid) {
    struct Shape {
        gindex_t n, m;
        double density;
    };
    std::uint64_t seed = 1;
    for (const Shape sh : {Shape{40, 40, 0.1}, Shape{37, 23, 0.15}, Shape{19, 45, 0.2},
                           Shape{5, 5, 0.5}, Shape{1, 1, 1.0}, Shape{64, 64, 0.0}}) {
        for (auto& grid : all_grids()) {
            for (LocalFormat fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
                for (bool as_mxv : {false, true}) {
                    const std::string what = std::string(as_mxv ? "mxv" : "vxm") + " " +
                                             std::to_string(sh.n) + "x" + std::to_string(sh.m) +
                                             (fmt == LocalFormat::csr ? " csr" : " dcsc");
                    check<plus_times<double>>(grid, sh.n, sh.m, sh.density, fmt, as_mxv, ++seed,
                                              what + " plus_times");
                    check<min_plus<double>>(grid, sh.n, sh.m, sh.density, fmt, as_mxv, ++seed,
                                            what + " min_plus");
                }
            }
        }
    }
}

TEST(SpmvFull, WrongPieceLengthThrowsOnEveryRank) {
    for (auto& grid : all_grids()) {
        std::mt19937_64 rng(7);
        const ref::Mat<double> am = test::random_mat<double>(rng, 20, 20, 0.2, 1, 9);
        const DistMatrix<double> a = test::make_matrix(grid, 20, 20, am);
        const auto [ib, len] = my_piece(*grid, a.row_dist());
        (void)ib;
        // Only the last rank gets a piece one too long; every rank must throw.
        const bool bad = grid->rank() == grid->size() - 1;
        std::vector<double> u(static_cast<std::size_t>(len + (bad ? 1 : 0)), 1.0);
        std::vector<double> w(static_cast<std::size_t>(len));
        FullSpmvWorkspace<double, double> ws;
        EXPECT_THROW(
            vxm_full<plus_times<double>>(std::span<double>(w), std::span<const double>(u), a, ws),
            DimensionMismatch);
    }
}
