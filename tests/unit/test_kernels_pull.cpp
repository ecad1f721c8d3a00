// Tests of the pull kernels (spmv_pull.hpp, spmv_dense.hpp): masked pull SpMV with bitmap
// and dense x into sparse and bitmap outputs, and the dense SpMV, on every pull view (CSR of
// A, DCSC of Aᵀ with and without lookup), every mask kind and the semirings of
// tests/reference/kernel_semirings.hpp, against the naive SpMV of tests/reference and Eigen,
// with 1 and 2 threads giving identical results; plus the early exit.

#include <Eigen/SparseCore>
#include <span>
#include <vector>

#include "test_kernels_common.hpp"

namespace {

using namespace kt;

template <class Case>
void check_pull(const Shape& sh, MaskKind mk, double xfrac, std::uint64_t seed) {
    using S = typename Case::S;
    using A = typename Case::A;
    using Y = typename S::value_type;
    SCOPED_TRACE(std::string(Case::name) + " shape " + sh.name + " xfrac " + std::to_string(xfrac));
    const Tuples t = random_tuples(sh.nrows, sh.ncols, sh.nnz, sh.hub, seed, Case::vmin);
    const Blocks<A> blocks(t);
    std::mt19937_64 g(seed + 1);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    SparseVector<Y> xs(sh.ncols);
    DenseVector<Y> xd(sh.ncols);
    std::vector<char> has(sh.ncols, 0);
    for (lindex_t j = 0; j < sh.ncols; ++j) {
        xd[j] = Case::x_value(g);
        if (u(g) < xfrac) {
            has[j] = 1;
            xs.push_back(j, xd[j]);
        }
    }
    const BitmapVector<Y> xb = to_bitmap(xs);
    const TestMask mask(mk, sh.nrows, seed + 2);
    const auto x_of = [&](lindex_t j) { return xd[j]; };
    const auto ref_b = naive<S, A>(
        t, [&](lindex_t j) { return has[j] != 0; }, x_of, mask.allowed);
    const auto ref_d = naive<S, A>(
        t, [](lindex_t) { return true; }, x_of, mask.allowed);

    for (const auto& named_view : blocks.pull_views()) {
        // Named, not bound: lambdas capturing structured bindings need clang 16.
        const auto& vname = named_view.first;
        const auto& view = named_view.second;
        SCOPED_TRACE(vname);
        SparseVector<Y> ys1, yd1;
        BitmapVector<Y> yb1, ydb1;
        with_threads(1, [&] {
            PullWorkspace<Y> ws;
            const KernelStats st = spmv_pull<S>(view, xb, mask.view, ys1, ws);
            EXPECT_EQ(st.nvals, ys1.nvals());
            EXPECT_LE(st.entries, view.nnz());
            spmv_pull<S>(view, xd, mask.view, yd1, ws);
            spmv_pull<S>(view, xb, mask.view, yb1);
            spmv_pull<S>(view, xd, mask.view, ydb1);
        });
        EXPECT_EQ(ys1.size(), sh.nrows);
        expect_matches(ys1, ref_b, Case::pattern_only);
        expect_matches(yd1, ref_d, Case::pattern_only);
        ASSERT_EQ(yb1.size(), sh.nrows);
        expect_matches(to_sparse(yb1), ref_b, Case::pattern_only);
        expect_matches(to_sparse(ydb1), ref_d, Case::pattern_only);
        if (xfrac < 0.5 || vname == "dcsc(At)" || !threaded(sh, mk) || !Case::threaded_check)
            continue;
        with_threads(2, [&] {
            PullWorkspace<Y> ws;
            ws.policy = eager_policy();
            SparseVector<Y> ys2;
            BitmapVector<Y> yb2;
            spmv_pull<S>(view, xb, mask.view, ys2, ws);
            EXPECT_EQ(ys1, ys2) << "sparse output: 1 and 2 threads differ";
            spmv_pull<S>(view, xb, mask.view, yb2, ws.policy);
            EXPECT_EQ(yb1, yb2) << "bitmap output: 1 and 2 threads differ";
        });
    }
}

template <class Case>
void check_dense(const Shape& sh, std::uint64_t seed) {
    using S = typename Case::S;
    using A = typename Case::A;
    using Y = typename S::value_type;
    SCOPED_TRACE(std::string(Case::name) + " shape " + sh.name);
    const Tuples t = random_tuples(sh.nrows, sh.ncols, sh.nnz, sh.hub, seed, Case::vmin);
    const Blocks<A> blocks(t);
    std::mt19937_64 g(seed + 1);
    DenseVector<Y> x(sh.ncols);
    for (lindex_t j = 0; j < sh.ncols; ++j) x[j] = Case::x_value(g);
    const std::vector<char> all(sh.nrows, 1);
    const auto ref = naive<S, A>(
        t, [](lindex_t) { return true; }, [&](lindex_t j) { return x[j]; }, all);
    for (const auto& named_view : blocks.pull_views()) {
        // Named, not bound: lambdas capturing structured bindings need clang 16.
        const auto& vname = named_view.first;
        const auto& view = named_view.second;
        SCOPED_TRACE(vname);
        DenseVector<Y> y1, y2;
        with_threads(1, [&] { spmv_dense<S>(view, x, y1); });
        ASSERT_EQ(y1.size(), sh.nrows);
        for (lindex_t i = 0; i < sh.nrows; ++i) {
            const auto it = ref.find(i);
            if (Case::pattern_only) {
                EXPECT_EQ(y1[i] != S::zero(), it != ref.end()) << "row " << i;
            } else {
                EXPECT_EQ(y1[i], it == ref.end() ? S::zero() : it->second) << "row " << i;
            }
        }
        if (sh.nnz < 100) continue;
        with_threads(2, [&] { spmv_dense<S>(view, x, y2, eager_policy()); });
        EXPECT_EQ(y1, y2) << "1 and 2 threads differ";
    }
}

class PullKernels : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(PullKernels, MatchesNaiveReferenceForEverySemiring) {
    const Shape& sh = shapes()[std::size_t(std::get<0>(GetParam()))];
    const MaskKind mk = all_masks()[std::size_t(std::get<1>(GetParam()))];
    const std::uint64_t seed =
        5000 + std::uint64_t(std::get<0>(GetParam())) * 41 + std::uint64_t(std::get<1>(GetParam()));
    for (double xfrac : {0.0, 0.05, 0.6}) {
        ref::CpuKernelSemirings::for_each(
            [&]<class Case>() { check_pull<Case>(sh, mk, xfrac, seed); });
    }
}

INSTANTIATE_TEST_SUITE_P(ShapesAndMasks, PullKernels,
                         ::testing::Combine(::testing::Range(0, int(shapes().size())),
                                            ::testing::Range(0, int(all_masks().size()))),
                         [](const ::testing::TestParamInfo<std::tuple<int, int>>& info) {
                             return std::string(
                                        shapes()[std::size_t(std::get<0>(info.param))].name) +
                                    "_mask" + std::to_string(std::get<1>(info.param));
                         });

TEST(DenseSpmv, MatchesNaiveReferenceForEverySemiring) {
    for (std::size_t s = 0; s < shapes().size(); ++s) {
        const std::uint64_t seed = 9000 + s;
        ref::CpuKernelSemirings::for_each(
            [&]<class Case>() { check_dense<Case>(shapes()[s], seed); });
    }
}

TEST(DenseSpmv, PlusTimesMatchesEigenOnRealValues) {
    const lindex_t nr = 700, nc = 500;
    const Tuples t = random_tuples(nr, nc, 9000, true, 11);
    std::mt19937_64 g(12);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    ValueArray<double> va(t.v.size());
    for (std::size_t k = 0; k < va.size(); ++k) va[k] = u(g);
    const auto a = Csr<double>::from_tuples(nr, nc, t.r, t.c, va);
    const auto at = Dcsc<double>::from_tuples(nc, nr, t.c, t.r, va);
    Eigen::SparseMatrix<double> ea(nr, nc);
    std::vector<Eigen::Triplet<double>> trips;
    for (std::size_t k = 0; k < va.size(); ++k) trips.emplace_back(t.r[k], t.c[k], va[k]);
    ea.setFromTriplets(trips.begin(), trips.end());
    DenseVector<double> x(nc);
    Eigen::VectorXd ex(nc);
    for (lindex_t j = 0; j < nc; ++j) ex(j) = x[j] = u(g);
    const Eigen::VectorXd ey = ea * ex;
    for (const auto& view : {make_view(a), make_view(at)}) {
        DenseVector<double> y1, y2;
        with_threads(1, [&] { spmv_dense<plus_times<double>>(view, x, y1); });
        with_threads(2, [&] { spmv_dense<plus_times<double>>(view, x, y2, eager_policy()); });
        for (lindex_t i = 0; i < nr; ++i) EXPECT_NEAR(y1[i], ey(i), 1e-12) << i;
        EXPECT_EQ(y1, y2) << "rounding must not depend on the thread count";
        // The pull kernel with everything present computes the same, row by row.
        SparseVector<double> ys;
        PullWorkspace<double> ws;
        spmv_pull<plus_times<double>>(view, x, no_mask(), ys, ws);
        for (std::size_t k = 0; k < ys.nvals(); ++k) {
            EXPECT_EQ(ys.values()[k], y1[ys.indices()[k]]);
        }
    }
}

TEST(PullKernels, StopsARowAtTheTerminalValue) {
    // One row, ten stored entries; x present everywhere.
    const Tuples t = random_tuples(1, 10, 10, false, 1);
    const Blocks<Pattern> b(t);
    const auto view = make_view(b.csr_a);
    DenseVector<lindex_t> x(10);
    for (lindex_t j = 0; j < 10; ++j) x[j] = 100 + j;
    SparseVector<lindex_t> y;
    PullWorkspace<lindex_t> ws;
    // any_pair: the first present entry ends the row.
    EXPECT_EQ(spmv_pull<any_pair<lindex_t>>(view, x, no_mask(), y, ws).entries, 1u);
    // select2nd_min: only the lowest value (0) is terminal; without it the whole row is read.
    EXPECT_EQ(spmv_pull<select2nd_min<lindex_t>>(view, x, no_mask(), y, ws).entries, 10u);
    EXPECT_EQ(y.values()[0], 100u);
    x[3] = 0;
    EXPECT_EQ(spmv_pull<select2nd_min<lindex_t>>(view, x, no_mask(), y, ws).entries, 4u);
    EXPECT_EQ(y.values()[0], 0u);
    // With a bitmap x the kernel skips absent columns before it reads a value.
    BitmapVector<lindex_t> xb(10);
    xb.set(7, 5);
    xb.set(9, 2);
    EXPECT_EQ(spmv_pull<any_pair<lindex_t>>(view, xb, no_mask(), y, ws).entries, 8u);
    EXPECT_EQ(spmv_pull<select2nd_min<lindex_t>>(view, xb, no_mask(), y, ws).entries, 10u);
    EXPECT_EQ(y.values()[0], 2u);
    // Rows the mask excludes are not read at all.
    EXPECT_EQ(spmv_pull<any_pair<lindex_t>>(view, xb, MaskView{nullptr, true}, y, ws).entries, 0u);
    EXPECT_EQ(y.nvals(), 0u);
}

TEST(PullKernels, RejectsMismatchedSizesAndAliasing) {
    const Tuples t = random_tuples(10, 20, 30, false, 1);
    const Blocks<double> b(t);
    BitmapVector<double> xb(21);
    SparseVector<double> y;
    PullWorkspace<double> ws;
    try {
        spmv_pull<plus_times<double>>(make_view(b.csr_a), xb, no_mask(), y, ws);
        FAIL() << "expected DimensionMismatch";
    } catch (const DimensionMismatch& e) {
        EXPECT_NE(std::string(e.what()).find("21"), std::string::npos) << e.what();
    }
    DenseVector<double> xd(20), yd;
    EXPECT_THROW(spmv_dense<plus_times<double>>(make_view(b.csr_at), xd, yd), DimensionMismatch);
    DenseVector<double> sq(10);
    const Blocks<double> square(random_tuples(10, 10, 30, false, 2));
    EXPECT_THROW(spmv_dense<plus_times<double>>(make_view(square.csr_a), sq, sq), InvalidValue);
    // The array overload checks both lengths.
    std::vector<double> x20(20), y9(9), y10(10);
    const auto view = make_view(b.csr_a);
    EXPECT_THROW(
        spmv_dense<plus_times<double>>(view, std::span<const double>(x20), std::span<double>(y9)),
        DimensionMismatch);
    EXPECT_NO_THROW(
        spmv_dense<plus_times<double>>(view, std::span<const double>(x20), std::span<double>(y10)));
}

}  // namespace
