// vxm_full / mxv_full (spmv_full.hpp) against the naive vxm / mxv of tests/reference on a
// full input, every grid shape, both local formats, square and non-square matrices (with
// ranks that own empty pieces), plus_times and min_plus; and the length check throwing on
// every rank when one rank passes a piece of the wrong length.

#include <gtest/gtest.h>

#include <random>
#include <span>
#include <string>
#include <vector>

#include "dist_test_util.hpp"
#include "gridblas/ops/spmv_full.hpp"
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

}  // namespace

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
