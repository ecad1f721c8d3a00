// Tests of the push SpMSpV kernels (spmspv.hpp): every method (SPA, sort, automatic) on every
// push view (DCSC of A with and without its lookup, CSR of Aᵀ), every mask kind, the
// semirings of tests/reference/kernel_semirings.hpp (incl. a user-defined one with a
// non-commutative product), against the naive SpMV of tests/reference and (for plus_times)
// Eigen, with 1 and 2 threads giving identical results.

#include <Eigen/SparseCore>

#include "test_kernels_common.hpp"

namespace {

using namespace kt;

const SpmspvMethod kMethods[] = {SpmspvMethod::spa, SpmspvMethod::sort, SpmspvMethod::automatic};

const char* method_name(SpmspvMethod m) {
    return m == SpmspvMethod::spa ? "spa" : m == SpmspvMethod::sort ? "sort" : "automatic";
}

template <class Case>
void check_push(const Shape& sh, MaskKind mk, double xfrac, std::uint64_t seed) {
    using S = typename Case::S;
    using A = typename Case::A;
    using Y = typename S::value_type;
    SCOPED_TRACE(std::string(Case::name) + " shape " + sh.name + " xfrac " + std::to_string(xfrac));
    const Tuples t = random_tuples(sh.nrows, sh.ncols, sh.nnz, sh.hub, seed, Case::vmin);
    const Blocks<A> blocks(t);
    std::mt19937_64 g(seed + 1);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    SparseVector<Y> x(sh.ncols);
    std::vector<char> has(sh.ncols, 0);
    std::vector<Y> xv(sh.ncols, Y{});
    for (lindex_t j = 0; j < sh.ncols; ++j) {
        if (u(g) < xfrac) {
            xv[j] = Case::x_value(g);
            has[j] = 1;
            x.push_back(j, xv[j]);
        }
    }
    const TestMask mask(mk, sh.nrows, seed + 2);
    const auto ref = naive<S, A>(
        t, [&](lindex_t j) { return has[j] != 0; }, [&](lindex_t j) { return xv[j]; },
        mask.allowed);
    std::uint64_t flops = 0;
    for (lindex_t j = 0; j < sh.ncols; ++j) {
        if (!has[j]) continue;
        for (std::size_t k = 0; k < t.c.size(); ++k) flops += t.c[k] == j;
    }

    for (const auto& named_view : blocks.push_views()) {
        // Named, not bound: lambdas capturing structured bindings need clang 16.
        const auto& vname = named_view.first;
        const auto& view = named_view.second;
        for (SpmspvMethod method : kMethods) {
            SCOPED_TRACE(vname + " " + method_name(method));
            SparseVector<Y> y1, y2;
            with_threads(1, [&] {
                SpmspvWorkspace<Y> ws;
                const KernelStats st = spmspv<S>(view, x, mask.view, y1, ws, method);
                if (!mask.view.allows_none()) {
                    EXPECT_EQ(st.entries, flops);
                }
                EXPECT_EQ(st.nvals, y1.nvals());
                if (method != SpmspvMethod::automatic) {
                    EXPECT_EQ(st.method, method);
                }
            });
            EXPECT_EQ(y1.size(), sh.nrows);
            expect_matches(y1, ref, Case::pattern_only);
            if (method == SpmspvMethod::spa) {
                // One thread, SPA bucketed by row range instead of scattered directly.
                with_threads(1, [&] {
                    SpmspvWorkspace<Y> ws;
                    ws.spa_direct_max_bytes = 0;
                    spmspv<S>(view, x, mask.view, y2, ws, method);
                });
                EXPECT_EQ(y1, y2) << "bucketed SPA differs from direct SPA";
            }
            // 2 threads through the parallel paths (automatic is one of spa / sort), for
            // the masks that exercise the three mask tests (none, bits, complemented bits).
            if (method == SpmspvMethod::automatic || xfrac < 0.5 || vname == "dcsc(A)" ||
                !threaded(sh, mk) || !Case::threaded_check) {
                continue;
            }
            with_threads(2, [&] {
                SpmspvWorkspace<Y> ws(sh.ncols, sh.nrows);
                ws.policy = eager_policy();
                spmspv<S>(view, x, mask.view, y2, ws, method);
                EXPECT_EQ(y1, y2) << "1 and 2 threads differ";
                if (vname == "csr(At)") {
                    // The same workspace and output again: the steady state gives the same.
                    spmspv<S>(view, x, mask.view, y2, ws, method);
                    EXPECT_EQ(y1, y2) << "second call with a reused workspace differs";
                }
            });
        }
    }
}

class PushKernels : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(PushKernels, MatchesNaiveReferenceForEverySemiring) {
    const Shape& sh = shapes()[std::size_t(std::get<0>(GetParam()))];
    const MaskKind mk = all_masks()[std::size_t(std::get<1>(GetParam()))];
    const std::uint64_t seed =
        1000 + std::uint64_t(std::get<0>(GetParam())) * 37 + std::uint64_t(std::get<1>(GetParam()));
    for (double xfrac : {0.0, 0.05, 0.6}) {
        ref::CpuKernelSemirings::for_each(
            [&]<class Case>() { check_push<Case>(sh, mk, xfrac, seed); });
    }
}

INSTANTIATE_TEST_SUITE_P(ShapesAndMasks, PushKernels,
                         ::testing::Combine(::testing::Range(0, int(shapes().size())),
                                            ::testing::Range(0, int(all_masks().size()))),
                         [](const ::testing::TestParamInfo<std::tuple<int, int>>& info) {
                             return std::string(
                                        shapes()[std::size_t(std::get<0>(info.param))].name) +
                                    "_mask" + std::to_string(std::get<1>(info.param));
                         });

TEST(PushKernels, PlusTimesMatchesEigenOnRealValues) {
    const lindex_t nr = 500, nc = 400;
    const Tuples t = random_tuples(nr, nc, 6000, true, 7);
    std::mt19937_64 g(8);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    ValueArray<double> va(t.v.size());
    for (std::size_t k = 0; k < va.size(); ++k) va[k] = u(g);
    const auto a = Dcsc<double>::from_tuples(nr, nc, t.r, t.c, va);
    const auto at = Csr<double>::from_tuples(nc, nr, t.c, t.r, va);
    Eigen::SparseMatrix<double> ea(nr, nc);
    std::vector<Eigen::Triplet<double>> trips;
    for (std::size_t k = 0; k < va.size(); ++k) trips.emplace_back(t.r[k], t.c[k], va[k]);
    ea.setFromTriplets(trips.begin(), trips.end());
    SparseVector<double> x(nc);
    Eigen::VectorXd ex = Eigen::VectorXd::Zero(nc);
    for (lindex_t j = 0; j < nc; j += 3) {
        x.push_back(j, u(g));
        ex(j) = x.values()[x.nvals() - 1];
    }
    const Eigen::VectorXd ey = ea * ex;
    const OuterLookup lk = make_lookup(a);
    for (const auto& view : {make_view(a, &lk), make_view(at)}) {
        SparseVector<double> first;
        for (SpmspvMethod method : kMethods) {
            for (int threads : {1, 2}) {
                SpmspvWorkspace<double> ws;
                ws.policy = eager_policy();
                SparseVector<double> y;
                with_threads(threads, [&] {
                    spmspv<plus_times<double>>(view, x, no_mask(), y, ws, method);
                });
                std::vector<double> dense(nr, 0.0);
                for (std::size_t k = 0; k < y.nvals(); ++k) dense[y.indices()[k]] = y.values()[k];
                for (lindex_t i = 0; i < nr; ++i) EXPECT_NEAR(dense[i], ey(i), 1e-12) << i;
                // Rounding is the same for every method and thread count: each output folds
                // its products in x's order.
                if (first.size() == 0) first = y;
                EXPECT_EQ(y, first) << method_name(method) << " with " << threads << " threads";
            }
        }
    }
}

TEST(PushKernels, AutomaticChoosesSortForFewProductsAndSpaForMany) {
    EXPECT_EQ(spmspv_choose_method(10, 1u << 20), SpmspvMethod::sort);
    EXPECT_EQ(spmspv_choose_method(1u << 22, 1u << 20), SpmspvMethod::spa);
    const Tuples t = random_tuples(4000, 4000, 40000, false, 3);
    const Blocks<Pattern> b(t);
    SparseVector<lindex_t> few(4000), many(4000);
    few.push_back(17, 17);
    for (lindex_t j = 0; j < 4000; ++j) many.push_back(j, j);
    SpmspvWorkspace<lindex_t> ws;
    SparseVector<lindex_t> y;
    const auto view = make_view(b.dcsc_a, &b.lk_a);
    EXPECT_EQ(spmspv<select2nd_min<lindex_t>>(view, few, no_mask(), y, ws).method,
              SpmspvMethod::sort);
    EXPECT_EQ(spmspv<select2nd_min<lindex_t>>(view, many, no_mask(), y, ws).method,
              SpmspvMethod::spa);
}

TEST(PushKernels, OneWorkspaceServesBlocksOfDifferentSizes) {
    SpmspvWorkspace<lindex_t> ws;
    ws.policy = eager_policy();
    for (lindex_t n : {50u, 3000u, 7u, 3000u, 129u}) {
        const Tuples t = random_tuples(n, n, std::size_t(n) * 4, n > 100, n);
        const Blocks<Pattern> b(t);
        SparseVector<lindex_t> x(n);
        for (lindex_t j = 0; j < n; j += 3) x.push_back(j, j);
        std::vector<char> all(n, 1);
        const auto ref = naive<select2nd_min<lindex_t>, Pattern>(
            t, [](lindex_t j) { return j % 3 == 0; }, [](lindex_t j) { return j; }, all);
        for (SpmspvMethod m : {SpmspvMethod::spa, SpmspvMethod::sort}) {
            SparseVector<lindex_t> y;
            with_threads(2, [&] {
                spmspv<select2nd_min<lindex_t>>(make_view(b.dcsc_a), x, no_mask(), y, ws, m);
            });
            expect_matches(y, ref, false);
        }
    }
}

/// A value type that is not trivially copyable, so the SPA takes its branching update.
struct Boxed {
    std::int64_t v = 0;
    Boxed() = default;
    Boxed(std::int64_t x) : v(x) {}  // NOLINT: implicit on purpose
    Boxed(const Boxed& o) : v(o.v) {}
    Boxed& operator=(const Boxed& o) {
        v = o.v;
        return *this;
    }
    bool operator==(const Boxed& o) const { return v == o.v; }
};
std::ostream& operator<<(std::ostream& os, const Boxed& b) { return os << b.v; }

/// min over a - x: a user-defined semiring over Boxed values.
struct boxed_min_minus {
    using value_type = Boxed;
    static Boxed zero() { return Boxed(std::numeric_limits<std::int64_t>::max()); }
    static Boxed add(const Boxed& a, const Boxed& b) { return b.v < a.v ? b : a; }
    static Boxed mul(std::int64_t a, const Boxed& x) { return Boxed(a - x.v); }
};

TEST(PushKernels, NonTriviallyCopyableValuesWork) {
    const Tuples t = random_tuples(700, 600, 5000, true, 31);
    const Blocks<std::int64_t> b(t);
    SparseVector<Boxed> x(600);
    for (lindex_t j = 0; j < 600; j += 3) x.push_back(j, Boxed(std::int64_t(j % 17)));
    const TestMask mask(MaskKind::sparse_structural_complement, 700, 32);
    const auto ref = naive<boxed_min_minus, std::int64_t>(
        t, [](lindex_t j) { return j % 3 == 0; },
        [](lindex_t j) { return Boxed(std::int64_t(j % 17)); }, mask.allowed);
    for (SpmspvMethod m : kMethods) {
        for (int threads : {1, 2}) {
            SpmspvWorkspace<Boxed> ws;
            ws.policy = eager_policy();
            SparseVector<Boxed> y;
            with_threads(threads, [&] {
                spmspv<boxed_min_minus>(make_view(b.csr_at), x, mask.view, y, ws, m);
            });
            expect_matches(y, ref, false);
        }
    }
}

TEST(PushKernels, SteadyStateAllocatesNothing) {
    const Tuples t = random_tuples(3000, 3000, 30000, true, 21);
    const Blocks<Pattern> b(t);
    SparseVector<lindex_t> x(3000);
    for (lindex_t j = 0; j < 3000; j += 4) x.push_back(j, j);
    MaskStorage st;
    BitmapVector<Pattern> visited(3000);
    for (lindex_t i = 0; i < 3000; i += 2) visited.set(i);
    const MaskView mask = make_mask(visited, 3000, true, true, st);
    for (SpmspvMethod m : {SpmspvMethod::spa, SpmspvMethod::sort}) {
        with_threads(2, [&] {
            SpmspvWorkspace<lindex_t> ws;
            ws.policy = eager_policy();
            SparseVector<lindex_t> y;
            const auto view = make_view(b.dcsc_a, &b.lk_a);
            spmspv<select2nd_min<lindex_t>>(view, x, mask, y, ws, m);
            const std::size_t bytes = ws.memory_bytes();
            const lindex_t* yi = y.indices().data();
            const SparseVector<lindex_t> first = y;
            for (int rep = 0; rep < 3; ++rep) {
                spmspv<select2nd_min<lindex_t>>(view, x, mask, y, ws, m);
                EXPECT_EQ(ws.memory_bytes(), bytes) << "the workspace grew";
                EXPECT_EQ(y.indices().data(), yi) << "the output was reallocated";
                EXPECT_EQ(y, first);
            }
        });
    }
}

TEST(PushKernels, RejectsMismatchedSizesAndAliasing) {
    const Tuples t = random_tuples(10, 20, 30, false, 1);
    const Blocks<double> b(t);
    SpmspvWorkspace<double> ws;
    SparseVector<double> x(19), y;
    try {
        spmspv<plus_times<double>>(make_view(b.dcsc_a), x, no_mask(), y, ws);
        FAIL() << "expected DimensionMismatch";
    } catch (const DimensionMismatch& e) {
        EXPECT_NE(std::string(e.what()).find("19"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("20"), std::string::npos) << e.what();
    }
    SparseVector<double> x20(20);
    x20.push_back(3, 1.0);
    EXPECT_THROW(spmspv<plus_times<double>>(make_view(b.dcsc_a), x20, no_mask(), x20, ws),
                 InvalidValue);
}

}  // namespace
