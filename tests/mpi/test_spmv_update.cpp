// vxm_update / mxv_update (spmv_update.hpp) against w ⊕ the naive vxm / mxv of
// tests/reference, every grid shape, both local formats, square and non-square matrices,
// min_plus and plus_times; the changed lists; and argument errors thrown on every rank.

#include <gtest/gtest.h>

#include <random>
#include <span>
#include <string>
#include <vector>

#include "dist_test_util.hpp"
#include "gridblas/ops/spmv_update.hpp"
#include "gridblas/semirings/builtin.hpp"
#include "reference/spmv_reference.hpp"

using namespace gridblas;
using test::all_grids;
using test::my_piece;

namespace {

template <class S>
void check(const std::shared_ptr<ProcessGrid>& grid, gindex_t n, gindex_t m, double density,
           double xfrac, LocalFormat fmt, bool as_mxv, std::uint64_t seed,
           const std::string& what) {
    std::mt19937_64 rng(seed);
    const ref::Mat<double> am = test::random_mat<double>(rng, n, m, density, 1, 9);
    const DistMatrix<double> a = test::make_matrix(grid, n, m, am, fmt);
    const gindex_t in_n = as_mxv ? m : n, out_n = as_mxv ? n : m;
    const ref::Vec<double> u = test::random_vec<double>(rng, in_n, xfrac, 0, 9);
    std::vector<double> w0(static_cast<std::size_t>(out_n));
    for (double& x : w0) x = double(5 + int(rng() % 26));
    const ref::Vec<double> t = as_mxv ? ref::mxv<S>(am, u) : ref::vxm<S>(u, am);

    const Distribution& din = as_mxv ? a.col_dist() : a.row_dist();
    const Distribution& dout = as_mxv ? a.row_dist() : a.col_dist();
    const auto [ib, in_len] = my_piece(*grid, din);
    const auto [ob, out_len] = my_piece(*grid, dout);
    std::vector<lindex_t> ids;
    std::vector<double> vals;
    for (const auto& [i, x] : u) {
        if (i >= ib && i < ib + in_len) {
            ids.push_back(lindex_t(i - ib));
            vals.push_back(x);
        }
    }
    std::vector<double> w(w0.begin() + ob, w0.begin() + ob + out_len);
    std::vector<lindex_t> changed, want_changed;
    std::vector<double> want(w);
    for (gindex_t k = 0; k < out_len; ++k) {
        const auto it = t.find(ob + k);
        if (it == t.end()) continue;
        const double now = S::add(want[std::size_t(k)], it->second);
        if (now != want[std::size_t(k)]) want_changed.push_back(lindex_t(k));
        want[std::size_t(k)] = now;
    }
    UpdateSpmvWorkspace<double, double> ws;
    ws.kernel.policy.min_parallel_work = 0;
    const auto run = [&] {
        if (as_mxv) {
            mxv_update<S>(std::span<double>(w), std::span<const lindex_t>(ids),
                          std::span<const double>(vals), a, ws, changed);
        } else {
            vxm_update<S>(std::span<double>(w), std::span<const lindex_t>(ids),
                          std::span<const double>(vals), a, ws, changed);
        }
    };
    run();
    const std::string ctx =
        what + " grid " + std::to_string(grid->pr()) + "x" + std::to_string(grid->pc());
    EXPECT_EQ(w, want) << ctx;
    EXPECT_EQ(changed, want_changed) << ctx;
    if constexpr (std::is_same_v<S, min_plus<double>>) {
        run();  // the workspace is reused; min changes nothing the second time
        EXPECT_TRUE(changed.empty()) << ctx;
        EXPECT_EQ(w, want) << ctx;
    }
}

}  // namespace

TEST(SpmvUpdate, MatchesReferenceEveryGrid) {
    struct Shape {
        gindex_t n, m;
        double density, xfrac;
    };
    std::uint64_t seed = 11;
    for (const Shape sh :
         {Shape{40, 40, 0.1, 0.3}, Shape{37, 23, 0.15, 1.0}, Shape{19, 45, 0.2, 0.1},
          Shape{5, 5, 0.5, 0.5}, Shape{30, 30, 0.0, 1.0}}) {
        for (auto& grid : all_grids()) {
            for (LocalFormat fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
                for (bool as_mxv : {false, true}) {
                    const std::string what = std::string(as_mxv ? "mxv" : "vxm") + " " +
                                             std::to_string(sh.n) + "x" + std::to_string(sh.m) +
                                             (fmt == LocalFormat::csr ? " csr" : " dcsc");
                    check<min_plus<double>>(grid, sh.n, sh.m, sh.density, sh.xfrac, fmt, as_mxv,
                                            ++seed, what + " min_plus");
                    check<plus_times<double>>(grid, sh.n, sh.m, sh.density, sh.xfrac, fmt, as_mxv,
                                              ++seed, what + " plus_times");
                }
            }
        }
    }
}

TEST(SpmvUpdate, BadArgumentsThrowOnEveryRank) {
    for (auto& grid : all_grids()) {
        std::mt19937_64 rng(5);
        const ref::Mat<double> am = test::random_mat<double>(rng, 20, 20, 0.2, 1, 9);
        const DistMatrix<double> a = test::make_matrix(grid, 20, 20, am);
        const auto [ob, len] = my_piece(*grid, a.col_dist());
        (void)ob;
        const bool last = grid->rank() == grid->size() - 1;
        std::vector<double> w(static_cast<std::size_t>(len + (last ? 1 : 0)), 0.0);
        std::vector<lindex_t> ids, changed;
        std::vector<double> vals;
        UpdateSpmvWorkspace<double, double> ws;
        EXPECT_THROW(
            vxm_update<min_plus<double>>(std::span<double>(w), std::span<const lindex_t>(ids),
                                         std::span<const double>(vals), a, ws, changed),
            DimensionMismatch);
        // Indices out of order on one rank.
        w.resize(static_cast<std::size_t>(len));
        if (last && len >= 2) {
            ids = {1, 0};
            vals = {1.0, 1.0};
        }
        if (test::all_ranks(len >= 2 || !last)) {
            EXPECT_THROW(
                vxm_update<min_plus<double>>(std::span<double>(w), std::span<const lindex_t>(ids),
                                             std::span<const double>(vals), a, ws, changed),
                InvalidValue);
        }
    }
}
