// Tests of mxm (include/gridblas/ops/mxm.hpp) against the serial triple loop on gathered data,
// on every grid shape of the rank count: every mask kind × complement × replace ×
// accumulator, each local kernel (Gustavson SPA, hash, dot) with and without transposed
// inputs, non-square and hypersparse shapes, both local formats, aliasing, Pattern operands,
// an exact integer comparison with Eigen's dense product, triangle counting on graph files,
// and the argument errors (same exception on every rank, C unchanged).

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <string>

#include "dist_test_util.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "gridblas/ops/mxm.hpp"
#include "gridblas/ops/reduce.hpp"
#include "gridblas/ops/select.hpp"
#include "gridblas/semirings/builtin.hpp"
#include "ops_check.hpp"
#include "reference/algo_reference.hpp"
#include "reference/mxm_reference.hpp"

namespace gridblas::test {
namespace {

using I64 = std::int64_t;
const std::string kData = GRIDBLAS_TEST_DATA_DIR;

struct Shape {
    gindex_t m, k, n;
    double density;
};

std::vector<Shape> shapes() {
    return {{0, 4, 3, 0.5},     {1, 1, 1, 1.0},     {6, 4, 5, 0.5},
            {23, 17, 29, 0.25}, {37, 41, 19, 0.15}, {50, 40, 60, 0.0015}};
}

std::string context(const ProcessGrid& g, const Shape& s, const std::string& what) {
    return what + " on a " + std::to_string(g.pr()) + "x" + std::to_string(g.pc()) + " grid, " +
           std::to_string(s.m) + "x" + std::to_string(s.k) + " times " + std::to_string(s.k) + "x" +
           std::to_string(s.n);
}

std::string describe(MaskKind mk, const Descriptor& d, bool accum) {
    return std::string(name(mk)) + (d.mask_complement ? " complement" : "") +
           (d.replace ? " replace" : "") + (accum ? " accum" : "") + (d.transpose_a ? " Aᵀ" : "") +
           (d.transpose_b ? " Bᵀ" : "") + " method " + std::to_string(int(d.mxm_method));
}

// One mxm against the reference: C0 ⟨M0⟩ = accum(C0, A0 · B0) (inputs as stored; the
// descriptor's transposes apply to them).
template <class Accum>
void check_one(const std::shared_ptr<ProcessGrid>& grid, const Shape& s, LocalFormat fmt,
               const ref::Mat<I64>& c0, const ref::Mat<I64>& a0, const ref::Mat<int>& b0,
               const ref::Mat<int>& m0, MaskKind mk, const Descriptor& d, Accum accum,
               const std::string& what) {
    const gindex_t ar = d.transpose_a ? s.k : s.m, ac = d.transpose_a ? s.m : s.k;
    const gindex_t br = d.transpose_b ? s.n : s.k, bc = d.transpose_b ? s.k : s.n;
    const auto a = make_matrix(grid, ar, ac, a0, fmt);
    const auto b = make_matrix(grid, br, bc, b0, fmt);
    auto c = make_matrix(grid, s.m, s.n, c0, fmt);
    const auto m = make_matrix(grid, s.m, s.n, m0, fmt);
    using S = plus_times<I64>;
    MxmStats stats;
    if (mk == MaskKind::none) {
        mxm(c, no_mask, accum, S{}, a, b, d, &stats);
    } else {
        mxm(c, m, accum, S{}, a, b, d, &stats);
    }
    const auto ta = d.transpose_a ? ref::transpose(a0) : a0;
    const auto tb = d.transpose_b ? ref::transpose(b0) : b0;
    const auto t = ref::mxm<S>(ta, tb);
    const auto want = mk == MaskKind::none ? ref::output_stage(c0, t, no_mask, accum, d)
                                           : ref::output_stage(c0, t, m0, accum, d);
    const auto got = to_map(c);
    ASSERT_EQ(got, want) << what << ": " << describe(mk, d, !std::is_same_v<Accum, NoAccum>);
    EXPECT_EQ(stats.stages, grid->pc());
    if (d.mxm_method != MxmMethod::automatic && d.mxm_method != MxmMethod::dot) {
        EXPECT_EQ(stats.method, d.mxm_method);
    }
}

TEST(Mxm, EveryMaskKindComplementReplaceAccumulator) {
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (const Shape& s : shapes()) {
            std::mt19937_64 rng(41 + std::uint64_t(s.m * 7 + s.n));
            const auto a0 = random_mat<I64>(rng, s.m, s.k, s.density);
            const auto b0 = random_mat<int>(rng, s.k, s.n, s.density);
            const auto c0 = random_mat<I64>(rng, s.m, s.n, 0.3);
            const auto m0 = random_mat<int>(rng, s.m, s.n, 0.5, 0, 1);
            const LocalFormat fmt = (checked % 2) ? LocalFormat::csr : LocalFormat::dcsc;
            for (MaskKind mk : {MaskKind::none, MaskKind::valued, MaskKind::structural}) {
                for (bool comp : {false, true}) {
                    for (bool repl : {false, true}) {
                        Descriptor d;
                        d.mask_complement = comp;
                        d.mask_structural = mk == MaskKind::structural;
                        d.replace = repl;
                        const std::string what = context(*grid, s, "mxm");
                        check_one(grid, s, fmt, c0, a0, b0, m0, mk, d, no_accum, what);
                        check_one(grid, s, fmt, c0, a0, b0, m0, mk, d, std::plus<I64>{}, what);
                        checked += 2;
                    }
                }
            }
        }
    }
    EXPECT_GT(checked, 0);
}

TEST(Mxm, EveryKernelWithTransposedInputs) {
    for (const auto& grid : all_grids()) {
        for (const Shape& s : shapes()) {
            std::mt19937_64 rng(7 + std::uint64_t(s.k));
            for (bool ta : {false, true}) {
                for (bool tb : {false, true}) {
                    const auto a0 = random_mat<I64>(rng, ta ? s.k : s.m, ta ? s.m : s.k, s.density);
                    const auto b0 = random_mat<int>(rng, tb ? s.n : s.k, tb ? s.k : s.n, s.density);
                    const auto c0 = random_mat<I64>(rng, s.m, s.n, 0.2);
                    const auto m0 = random_mat<int>(rng, s.m, s.n, 0.4, 0, 1);
                    for (MxmMethod method : {MxmMethod::automatic, MxmMethod::gustavson,
                                             MxmMethod::hash, MxmMethod::dot}) {
                        for (MaskKind mk : {MaskKind::none, MaskKind::valued}) {
                            for (bool comp : {false, true}) {
                                Descriptor d;
                                d.transpose_a = ta;
                                d.transpose_b = tb;
                                d.mxm_method = method;
                                d.mask_complement = comp;
                                check_one(grid, s, LocalFormat::dcsc, c0, a0, b0, m0, mk, d,
                                          std::plus<I64>{}, context(*grid, s, "kernels"));
                            }
                        }
                    }
                }
            }
        }
    }
}

// C = A·B with plus_times on integers equals Eigen's dense product exactly (a missing entry
// of C reads as 0; the products are small enough not to overflow).
TEST(Mxm, PlusTimesEqualsEigenDenseProduct) {
    for (const auto& grid : all_grids()) {
        for (LocalFormat fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            std::mt19937_64 rng(99);
            const gindex_t m = 61, k = 45, n = 70;
            const auto a0 = random_mat<I64>(rng, m, k, 0.12, -50, 50);
            const auto b0 = random_mat<int>(rng, k, n, 0.12, -50, 50);
            Eigen::Matrix<I64, Eigen::Dynamic, Eigen::Dynamic> ea(m, k), eb(k, n);
            ea.setZero();
            eb.setZero();
            for (const auto& [ij, x] : a0) ea(ij.first, ij.second) = x;
            for (const auto& [ij, x] : b0) eb(ij.first, ij.second) = x;
            const Eigen::Matrix<I64, Eigen::Dynamic, Eigen::Dynamic> want = ea * eb;
            const auto a = make_matrix(grid, m, k, a0, fmt);
            const auto b = make_matrix(grid, k, n, b0, fmt);
            auto c = DistMatrix<I64>::shell(grid, m, n);
            mxm(c, no_mask, no_accum, plus_times<I64>{}, a, b);
            Eigen::Matrix<I64, Eigen::Dynamic, Eigen::Dynamic> got(m, n);
            got.setZero();
            for (const auto& [ij, x] : to_map(c)) got(ij.first, ij.second) = x;
            ASSERT_TRUE(got == want) << "grid " << grid->pr() << "x" << grid->pc();
        }
    }
}

// C may be A, B or the mask: the product is formed from the inputs as they were.
TEST(Mxm, OutputMayAliasAnInputOrTheMask) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(5);
        const gindex_t n = 33;
        const auto a0 = random_mat<I64>(rng, n, n, 0.2);
        const auto b0 = random_mat<I64>(rng, n, n, 0.2);
        const auto m0 = random_mat<I64>(rng, n, n, 0.5, 0, 1);
        using S = plus_times<I64>;
        Descriptor d;
        {  // C is A, with accumulation: A = A + A·B
            auto a = make_matrix(grid, n, n, a0);
            const auto b = make_matrix(grid, n, n, b0);
            mxm(a, no_mask, std::plus<I64>{}, S{}, a, b);
            const auto want =
                ref::output_stage(a0, ref::mxm<S>(a0, b0), no_mask, std::plus<I64>{}, d);
            ASSERT_EQ(to_map(a), want) << "C is A, grid " << grid->pr() << "x" << grid->pc();
        }
        {  // C is B and the mask: B⟨B⟩ = A·B
            const auto a = make_matrix(grid, n, n, a0);
            auto b = make_matrix(grid, n, n, b0);
            mxm(b, b, no_accum, S{}, a, b);
            const auto want = ref::output_stage(b0, ref::mxm<S>(a0, b0), b0, no_accum, d);
            ASSERT_EQ(to_map(b), want) << "C is B and M, grid " << grid->pr() << "x" << grid->pc();
        }
        {  // C is the mask, complemented, replace: M⟨¬M, replace⟩ = A·A
            const auto a = make_matrix(grid, n, n, a0);
            auto m = make_matrix(grid, n, n, m0);
            Descriptor dc;
            dc.mask_complement = true;
            dc.replace = true;
            mxm(m, m, no_accum, S{}, a, a, dc);
            const auto want = ref::output_stage(m0, ref::mxm<S>(a0, a0), m0, no_accum, dc);
            ASSERT_EQ(to_map(m), want) << "C is M, grid " << grid->pr() << "x" << grid->pc();
        }
    }
}

// Pattern operands with plus_pair count the common indices; min_plus on values.
TEST(Mxm, PatternOperandsAndOtherSemirings) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(17);
        const gindex_t m = 29, k = 31, n = 27;
        const auto a0 = random_mat<I64>(rng, m, k, 0.2, 1, 9);
        const auto b0 = random_mat<I64>(rng, k, n, 0.2, 1, 9);
        ref::Mat<Pattern> ap, bp;
        for (const auto& [ij, x] : a0) ap[ij] = Pattern{};
        for (const auto& [ij, x] : b0) bp[ij] = Pattern{};
        const auto a = make_matrix(grid, m, k, ap);
        const auto b = make_matrix(grid, k, n, bp);
        for (MxmMethod method : {MxmMethod::gustavson, MxmMethod::hash}) {
            auto c = DistMatrix<I64>::shell(grid, m, n);
            Descriptor d;
            d.mxm_method = method;
            mxm(c, no_mask, no_accum, plus_pair<I64>{}, a, b, d);
            ASSERT_EQ(to_map(c), ref::mxm<plus_pair<I64>>(a0, b0))
                << "plus_pair, grid " << grid->pr() << "x" << grid->pc();
        }
        const auto av = make_matrix(grid, m, k, a0);
        const auto bv = make_matrix(grid, k, n, b0);
        auto c = DistMatrix<I64>::shell(grid, m, n);
        mxm(c, no_mask, no_accum, min_plus<I64>{}, av, bv);
        ASSERT_EQ(to_map(c), ref::mxm<min_plus<I64>>(a0, b0))
            << "min_plus, grid " << grid->pr() << "x" << grid->pc();
        // A Pattern C holds the product's pattern.
        auto cp = DistMatrix<Pattern>::shell(grid, m, n);
        mxm(cp, no_mask, no_accum, plus_pair<I64>{}, av, bv);
        std::set<std::pair<gindex_t, gindex_t>> got, want;
        for (const auto& [ij, x] : to_map(cp)) got.insert(ij);
        for (const auto& [ij, x] : ref::mxm<plus_pair<I64>>(a0, b0)) want.insert(ij);
        ASSERT_EQ(got, want);
    }
}

// Triangles as C⟨L⟩ = L·U (plus_pair, structural mask) with each kernel, against a count
// over the edge list.
TEST(Mxm, TriangleCountOnGraphFiles) {
    for (const char* f : {"karate.mtx", "ldbc-undirected-example.mtx", "jagmesh7.mtx"}) {
        const auto e = load_edges(kData + "/" + f, false);
        std::set<std::pair<gindex_t, gindex_t>> edges;
        std::vector<std::set<gindex_t>> adj(std::size_t(e.n));
        for (std::size_t i = 0; i < e.src.size(); ++i) {
            if (e.src[i] == e.dst[i]) continue;
            adj[std::size_t(e.src[i])].insert(e.dst[i]);
            adj[std::size_t(e.dst[i])].insert(e.src[i]);
        }
        I64 want = 0;
        for (gindex_t u = 0; u < e.n; ++u) {
            for (gindex_t v : adj[std::size_t(u)]) {
                if (v <= u) continue;
                for (gindex_t w : adj[std::size_t(v)]) {
                    if (w > v && adj[std::size_t(u)].count(w)) ++want;
                }
            }
        }
        for (const auto& grid : all_grids()) {
            const auto a = read_graph_matrix_market(grid, kData + "/" + f);
            const auto l = select(a, [](gindex_t i, gindex_t j, auto) { return j < i; });
            const auto u = select(a, [](gindex_t i, gindex_t j, auto) { return j > i; });
            for (MxmMethod method :
                 {MxmMethod::automatic, MxmMethod::gustavson, MxmMethod::hash, MxmMethod::dot}) {
                auto c = DistMatrix<I64>::shell(grid, a.nrows(), a.ncols());
                Descriptor d;
                d.mask_structural = true;
                d.mxm_method = method;
                mxm(c, l, no_accum, plus_pair<I64>{}, l, u, d);
                const I64 got = reduce(c, std::plus<I64>{}, I64(0));
                ASSERT_EQ(got, want) << f << " method " << int(method) << " grid " << grid->pr()
                                     << "x" << grid->pc();
            }
        }
    }
}

// Every error is thrown on every rank with C unchanged.
TEST(Mxm, ArgumentErrorsOnEveryRankWithCUnchanged) {
    for (const auto& grid : all_grids()) {
        std::mt19937_64 rng(3);
        const auto a0 = random_mat<I64>(rng, 8, 6, 0.3);
        const auto c0 = random_mat<I64>(rng, 8, 8, 0.3);
        const auto a = make_matrix(grid, 8, 6, a0);
        auto c = make_matrix(grid, 8, 8, c0);
        using S = plus_times<I64>;
        // Inner dimensions differ: A is 8x6, A as B is 8x6.
        EXPECT_THROW(mxm(c, no_mask, no_accum, S{}, a, a), DimensionMismatch);
        // Aᵀ·A is 6x6, C is 8x8.
        EXPECT_THROW(mxm(c, no_mask, no_accum, S{}, a, a, Descriptor{.transpose_a = true}),
                     DimensionMismatch);
        // The mask has the wrong shape.
        EXPECT_THROW(mxm(c, a, no_accum, S{}, a, a, Descriptor{.transpose_b = true}),
                     DimensionMismatch);
        // An uninitialised operand.
        DistMatrix<I64> none;
        EXPECT_THROW(mxm(c, no_mask, no_accum, S{}, none, a), InvalidValue);
        // Operands on another grid of the same shape.
        auto other = ProcessGrid::create(MPI_COMM_WORLD, grid->pr(), grid->pc());
        const auto a_other = make_matrix(other, 8, 6, a0);
        EXPECT_THROW(mxm(c, no_mask, no_accum, S{}, a_other, a, Descriptor{.transpose_b = true}),
                     InvalidValue);
        // A relabelled operand.
        // (Rank 0 contributes the tuples; every rank passing them would make duplicates.)
        std::vector<gindex_t> r, cc;
        ValueArray<I64> v;
        if (grid->rank() == 0) {
            r = {0, 1};
            cc = {1, 0};
            v.push_back(1);
            v.push_back(2);
        }
        BuildOptions o;
        o.relabel = true;
        const auto rel = DistMatrix<I64>::from_tuples(grid, 8, 8, r, cc, v, o);
        EXPECT_THROW(mxm(c, no_mask, no_accum, S{}, rel, rel), NotSupported);
        ASSERT_EQ(to_map(c), c0) << "grid " << grid->pr() << "x" << grid->pc();
    }
}

}  // namespace
}  // namespace gridblas::test
