// The CUDA kernels against the CPU kernels on the CPU tests' random blocks (same shapes and
// mask kinds as tests/unit/test_kernels_*.cpp, semirings from the typed list of
// tests/reference/kernel_semirings.hpp): push SpMSpV over
// DCSC(A) and CSR(Aᵀ), pull SpMV over CSR(A) and DCSC(Aᵀ) into sparse and bitmap outputs,
// frontier conversions, and cuSPARSE SpMV against Eigen. Every test skips without a device.
// Values are small integers, so even floating-point sums are exact whatever order the
// device's atomics add them in, and results are compared exactly.

#include <gtest/gtest.h>

#include <Eigen/SparseCore>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda/cuda_test_util.hpp"
#include "gridblas/cuda/kernels.hpp"
#include "unit/test_kernels_common.hpp"

namespace {

using namespace gridblas;
namespace gk = gridblas::kernels;

template <class Cfg>
class CudaKernels : public ::testing::Test {};
using Configs = ref::DeviceKernelSemirings::as<::testing::Types>;
TYPED_TEST_SUITE(CudaKernels, Configs);

template <class Cfg>
SparseVector<typename Cfg::S::value_type> random_x(lindex_t n, int every, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    SparseVector<typename Cfg::S::value_type> x(n);
    for (lindex_t j = 0; j < n; ++j) {
        if (rng() % std::uint64_t(every) == 0) x.push_back(j, Cfg::x_value(rng));
    }
    return x;
}

template <class Y>
void expect_same(const SparseVector<Y>& gpu, const SparseVector<Y>& cpu) {
    ASSERT_EQ(gpu.size(), cpu.size());
    ASSERT_EQ(gpu.indices(), cpu.indices());
    for (std::size_t k = 0; k < cpu.nvals(); ++k) {
        EXPECT_EQ(gpu.values()[k], cpu.values()[k]) << "at index " << cpu.indices()[k];
    }
}

/// The device masks equivalent to a test mask: its bits, and the complement of the
/// complementary bits (plus the bit-less forms for "no mask").
struct DeviceMasks {
    cuda::DeviceBitmapVector<Pattern> on, off;
    std::vector<std::pair<std::string, cuda::DeviceMask>> list;
    DeviceMasks(kt::MaskKind kind, const kt::TestMask& tm) {
        if (kind == kt::MaskKind::none) {
            list.push_back({"no mask", cuda::no_mask()});
        } else if (kind == kt::MaskKind::none_complement) {
            list.push_back({"no mask, complement", cuda::DeviceMask{nullptr, true, 0}});
        }
        on.assign(ct::bits_of(tm.allowed, false));
        off.assign(ct::bits_of(tm.allowed, true));
        list.push_back({"bits", cuda::make_mask(on, false)});
        list.push_back({"complemented bits", cuda::make_mask(off, true)});
    }
};

TYPED_TEST(CudaKernels, PushMatchesCpu) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    using Cfg = TypeParam;
    using S = typename Cfg::S;
    using A = typename Cfg::A;
    using Y = typename S::value_type;
    cuda::Workspace ws;
    gk::SpmspvWorkspace<Y> cpu_ws;
    std::uint64_t seed = 11;
    for (const kt::Shape& sh : kt::shapes()) {
        const kt::Tuples t =
            kt::random_tuples(sh.nrows, sh.ncols, sh.nnz, sh.hub, ++seed, Cfg::vmin);
        const kt::Blocks<A> b(t);
        const cuda::DeviceDcsc<A> da(b.dcsc_a);
        const cuda::DeviceCsr<A> dat(b.csr_at);
        for (int every : {1, 3, 40}) {
            const auto x = random_x<Cfg>(sh.ncols, every, ++seed);
            const cuda::DeviceSparseVector<Y> dx(x);
            for (kt::MaskKind kind : kt::all_masks()) {
                const kt::TestMask tm(kind, sh.nrows, ++seed);
                SparseVector<Y> ref;
                const auto cst =
                    gk::spmspv<S>(gk::make_view(b.dcsc_a, &b.lk_a), x, tm.view, ref, cpu_ws);
                DeviceMasks masks(kind, tm);
                for (const auto& [mname, m] : masks.list) {
                    SCOPED_TRACE(std::string(sh.name) + ", x every " + std::to_string(every) +
                                 ", mask kind " + std::to_string(int(kind)) + " as " + mname);
                    cuda::DeviceSparseVector<Y> dy;
                    auto st = cuda::spmspv<S>(da, dx, m, dy, ws);
                    EXPECT_EQ(st.nvals, ref.nvals());
                    // A reference mask that allows nothing without bits (complemented
                    // "none", or a dense structural complement) lets the CPU skip the
                    // product; the device's bit form of it cannot know that without a pass
                    // over the bits, so it expands every entry: only the counts differ.
                    if (!(tm.view.allows_none() && m.bits)) {
                        EXPECT_EQ(st.entries, cst.entries);
                    }
                    expect_same(dy.to_host(), ref);
                    st = cuda::spmspv<S>(dat, dx, m, dy, ws);  // reuses dy and ws
                    EXPECT_EQ(st.nvals, ref.nvals());
                    expect_same(dy.to_host(), ref);
                }
            }
        }
    }
}

TYPED_TEST(CudaKernels, PullMatchesCpu) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    using Cfg = TypeParam;
    using S = typename Cfg::S;
    using A = typename Cfg::A;
    using Y = typename S::value_type;
    cuda::Workspace ws;
    gk::PullWorkspace<Y> cpu_ws;
    std::uint64_t seed = 101;
    for (const kt::Shape& sh : kt::shapes()) {
        const kt::Tuples t =
            kt::random_tuples(sh.nrows, sh.ncols, sh.nnz, sh.hub, ++seed, Cfg::vmin);
        const kt::Blocks<A> b(t);
        const cuda::DeviceCsr<A> da(b.csr_a);
        const cuda::DeviceDcsc<A> dat(b.dcsc_at);
        for (int every : {1, 3, 40}) {
            const auto xb = to_bitmap(random_x<Cfg>(sh.ncols, every, ++seed));
            const cuda::DeviceBitmapVector<Y> dx(xb);
            for (kt::MaskKind kind : kt::all_masks()) {
                const kt::TestMask tm(kind, sh.nrows, ++seed);
                SparseVector<Y> ref;
                gk::spmv_pull<S>(gk::make_view(b.csr_a), xb, tm.view, ref, cpu_ws);
                DeviceMasks masks(kind, tm);
                for (const auto& [mname, m] : masks.list) {
                    SCOPED_TRACE(std::string(sh.name) + ", x every " + std::to_string(every) +
                                 ", mask kind " + std::to_string(int(kind)) + " as " + mname);
                    cuda::DeviceSparseVector<Y> dy;
                    auto st = cuda::spmv_pull<S>(da, dx, m, dy, ws);
                    EXPECT_EQ(st.nvals, ref.nvals());
                    expect_same(dy.to_host(), ref);
                    st = cuda::spmv_pull<S>(dat, dx, m, dy, ws);
                    EXPECT_EQ(st.nvals, ref.nvals());
                    expect_same(dy.to_host(), ref);
                    cuda::DeviceBitmapVector<Y> dyb;
                    st = cuda::spmv_pull<S>(da, dx, m, dyb, ws);
                    EXPECT_EQ(st.nvals, ref.nvals());
                    expect_same(to_sparse(dyb.to_host()), ref);
                }
            }
        }
    }
}

TEST(CudaKernelChecks, ArgumentErrors) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    using S = select2nd_min<std::uint32_t>;
    const kt::Tuples t = kt::random_tuples(30, 20, 100, false, 5);
    const kt::Blocks<Pattern> b(t);
    const cuda::DeviceDcsc<Pattern> da(b.dcsc_a);
    const cuda::DeviceCsr<Pattern> dcsr(b.csr_a);
    cuda::Workspace ws;
    cuda::DeviceSparseVector<std::uint32_t> x_bad(21), x(20), y;
    cuda::DeviceBitmapVector<Pattern> mask_bad(29);
    EXPECT_THROW(cuda::spmspv<S>(da, x_bad, cuda::no_mask(), y, ws), DimensionMismatch);
    EXPECT_THROW(cuda::spmspv<S>(da, x, cuda::make_mask(mask_bad), y, ws), DimensionMismatch);
    EXPECT_THROW(cuda::spmspv<S>(da, x, cuda::no_mask(), x, ws), InvalidValue);
    cuda::DeviceBitmapVector<std::uint32_t> xb_bad(19);
    EXPECT_THROW(cuda::spmv_pull<S>(dcsr, xb_bad, cuda::no_mask(), y, ws), DimensionMismatch);
}

TEST(CudaConversions, SparseBitmapRoundTrip) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    cuda::Workspace ws;
    std::mt19937_64 rng(7);
    for (lindex_t n : {0u, 1u, 63u, 64u, 65u, 1000u, 100000u}) {
        for (int every : {1, 2, 97}) {
            SparseVector<std::int32_t> s(n);
            SparseVector<Pattern> p(n);
            for (lindex_t i = 0; i < n; ++i) {
                if (rng() % std::uint64_t(every) == 0) {
                    s.push_back(i, std::int32_t(rng() % 1000) - 500);
                    p.push_back(i);
                }
            }
            SCOPED_TRACE("n " + std::to_string(n) + ", every " + std::to_string(every));
            const cuda::DeviceSparseVector<std::int32_t> ds(s);
            cuda::DeviceBitmapVector<std::int32_t> db;
            cuda::sparse_to_bitmap(ds, db);
            EXPECT_EQ(db.to_host(), to_bitmap(s));
            cuda::DeviceSparseVector<std::int32_t> back;
            cuda::bitmap_to_sparse(db, back, ws);
            EXPECT_EQ(back.nvals(), s.nvals());
            EXPECT_EQ(back.to_host(), s);

            const cuda::DeviceSparseVector<Pattern> dp(p);
            cuda::DeviceBitmapVector<Pattern> dpb;
            cuda::sparse_to_bitmap(dp, dpb);
            EXPECT_EQ(dpb.to_host(), to_bitmap(p));
            cuda::DeviceSparseVector<Pattern> pback;
            cuda::bitmap_to_sparse(dpb, pback, ws);
            EXPECT_EQ(pback.to_host(), p);
        }
    }
}

template <class T>
void check_cusparse_spmv() {
    cuda::Workspace ws;
    std::uint64_t seed = 3;
    for (const kt::Shape& sh : kt::shapes()) {
        SCOPED_TRACE(sh.name);
        const kt::Tuples t = kt::random_tuples(sh.nrows, sh.ncols, sh.nnz, sh.hub, ++seed);
        const auto csr = Csr<T>::from_tuples(t.nrows, t.ncols, t.r, t.c, kt::values_as<T>(t));
        std::mt19937_64 rng(++seed);
        DenseVector<T> x(sh.ncols);
        for (lindex_t j = 0; j < sh.ncols; ++j) x[j] = T(rng() % 9) - T(4);
        // Reference: Eigen.
        Eigen::SparseMatrix<T, Eigen::RowMajor> e(sh.nrows, sh.ncols);
        std::vector<Eigen::Triplet<T>> trip;
        for (std::size_t k = 0; k < t.r.size(); ++k) trip.emplace_back(t.r[k], t.c[k], T(t.v[k]));
        e.setFromTriplets(trip.begin(), trip.end());
        Eigen::Matrix<T, Eigen::Dynamic, 1> ex(sh.ncols);
        for (lindex_t j = 0; j < sh.ncols; ++j) ex[j] = x[j];
        const Eigen::Matrix<T, Eigen::Dynamic, 1> ey = e * ex;

        const cuda::DeviceCsr<T> da(csr);
        const cuda::DeviceDenseVector<T> dx(x);
        cuda::DeviceDenseVector<T> dy;
        cuda::spmv_plus_times(da, dx, dy, ws);
        const DenseVector<T> y = dy.to_host();
        ASSERT_EQ(y.size(), sh.nrows);
        for (lindex_t i = 0; i < sh.nrows; ++i) EXPECT_EQ(y[i], ey[i]) << "row " << i;
    }
}

TEST(CudaCusparse, SpmvMatchesEigenDouble) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    check_cusparse_spmv<double>();
}

TEST(CudaCusparse, SpmvMatchesEigenFloat) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    check_cusparse_spmv<float>();
}

}  // namespace
