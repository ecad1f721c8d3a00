// Tests of the CUDA backend's API that need no GPU: device queries, the NotSupported
// dispatch for semirings without device kernels, and — in a build without CUDA — that every
// entry point throws NotCompiled. These run in every build; device round trips skip
// without a device.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "cuda/cuda_test_util.hpp"
#include "gridblas/config.hpp"
#include "gridblas/cuda/bfs.hpp"
#include "gridblas/cuda/detail/bfs_entry_points.hpp"
#include "gridblas/cuda/kernels.hpp"
#include "gridblas/vector/convert.hpp"

#if GRIDBLAS_HAVE_CUDA
#include "cuda/cusparse_api.hpp"  // src/cuda: the cuSPARSE loader
#endif

namespace {

using namespace gridblas;

/// A user-defined semiring: the CUDA backend has no kernel for it.
struct user_plus_times {
    using value_type = double;
    static double zero() { return 0; }
    static double add(double a, double b) { return a + b; }
    static double mul(double a, double x) { return a * x + 1; }
};

TEST(CudaApi, DeviceQueriesAgree) {
    const int n = cuda_device_count();
    EXPECT_GE(n, 0);
    EXPECT_EQ(cuda_available(), n > 0);
    EXPECT_EQ(cuda_unavailable_reason().empty(), n > 0);
    if (!GRIDBLAS_HAVE_CUDA) {
        EXPECT_EQ(n, 0);
    }
    if (n == 0) std::cout << "[ info ] no CUDA device: " << cuda_unavailable_reason() << "\n";
}

TEST(CudaApi, ObjectsWithoutDataNeedNoDevice) {
    cuda::Workspace ws;
    EXPECT_EQ(ws.memory_bytes(), 0u);
    cuda::DeviceCsr<double> a;
    cuda::DeviceSparseVector<std::int32_t> x(0);
    cuda::DeviceBitmapVector<Pattern> b;
    EXPECT_EQ(a.nrows(), 0u);
    EXPECT_EQ(x.nvals(), 0u);
    EXPECT_EQ(b.size(), 0u);
    cuda::Workspace moved(std::move(ws));
    EXPECT_EQ(moved.memory_bytes(), 0u);
}

TEST(CudaApi, UserDefinedSemiringThrowsNotSupported) {
    cuda::Workspace ws;
    cuda::DeviceDcsc<double> dcsc;
    cuda::DeviceCsr<double> csr;
    cuda::DeviceSparseVector<double> x, y;
    cuda::DeviceBitmapVector<double> xb, yb;
    EXPECT_THROW(cuda::spmspv<user_plus_times>(dcsc, x, cuda::no_mask(), y, ws), NotSupported);
    EXPECT_THROW(cuda::spmspv<user_plus_times>(csr, x, cuda::no_mask(), y, ws), NotSupported);
    EXPECT_THROW(cuda::spmv_pull<user_plus_times>(csr, xb, cuda::no_mask(), y, ws), NotSupported);
    EXPECT_THROW(cuda::spmv_pull<user_plus_times>(csr, xb, cuda::no_mask(), yb, ws), NotSupported);
    try {
        cuda::spmspv<user_plus_times>(dcsc, x, cuda::no_mask(), y, ws);
    } catch (const NotSupported& e) {
        EXPECT_NE(std::string(e.what()).find("user-defined"), std::string::npos) << e.what();
    }
}

TEST(CudaApi, BuiltinSemiringWithoutKernelThrowsNotSupported) {
    // plus_times over uint32 and min_plus with a float matrix on an int vector have no
    // device kernels (see GRIDBLAS_CUDA_FOR_EACH_BUILTIN).
    static_assert(!cuda::cuda_supports_v<plus_times<std::uint32_t>, std::uint32_t>);
    static_assert(!cuda::cuda_supports_v<min_plus<std::int32_t>, float>);
    static_assert(cuda::cuda_supports_v<select2nd_min<std::uint32_t>, Pattern>);
    static_assert(cuda::cuda_supports_v<plus_times<double>, double>);
    cuda::Workspace ws;
    cuda::DeviceCsr<std::uint32_t> a;
    cuda::DeviceSparseVector<std::uint32_t> x, y;
    EXPECT_THROW(cuda::spmspv<plus_times<std::uint32_t>>(a, x, cuda::no_mask(), y, ws),
                 NotSupported);
    cuda::DeviceCsr<float> af;
    cuda::DeviceSparseVector<std::int32_t> xi, yi;
    EXPECT_THROW(cuda::spmspv<min_plus<std::int32_t>>(af, xi, cuda::no_mask(), yi, ws),
                 NotSupported);
}

TEST(CudaApi, EntryPointsThrowNotCompiledWithoutCuda) {
    if (GRIDBLAS_HAVE_CUDA) GTEST_SKIP() << "this build has the CUDA backend";
    EXPECT_EQ(cuda_device_count(), 0);
    EXPECT_FALSE(cuda_available());
    EXPECT_THROW(cuda_device_name(0), NotCompiled);
    EXPECT_THROW(cuda_set_device(0), NotCompiled);
    EXPECT_THROW(cuda_synchronize(), NotCompiled);

    const auto csr = Csr<double>::from_tuples(
        2, 2, std::vector<lindex_t>{0, 1}, std::vector<lindex_t>{1, 0}, ValueArray<double>(2, 1.0));
    EXPECT_THROW(cuda::DeviceCsr<double>{csr}, NotCompiled);
    EXPECT_THROW(cuda::DeviceDcsc<double>{Dcsc<double>::from_coo(csr.to_coo())}, NotCompiled);
    EXPECT_THROW(cuda::DeviceSparseVector<std::int32_t>(10), NotCompiled);
    EXPECT_THROW(cuda::DeviceBitmapVector<Pattern>(10), NotCompiled);
    EXPECT_THROW(cuda::DeviceDenseVector<float>(10), NotCompiled);

    // Kernels on empty objects reach the backend, which is absent.
    cuda::Workspace ws;
    cuda::DeviceDcsc<Pattern> dcsc;
    cuda::DeviceCsr<Pattern> pcsr;
    cuda::DeviceCsr<double> dcsr;
    cuda::DeviceSparseVector<std::uint32_t> x, y;
    cuda::DeviceBitmapVector<std::uint32_t> xb, yb;
    using S = select2nd_min<std::uint32_t>;
    EXPECT_THROW(cuda::spmspv<S>(dcsc, x, cuda::no_mask(), y, ws), NotCompiled);
    EXPECT_THROW(cuda::spmspv<S>(pcsr, x, cuda::no_mask(), y, ws), NotCompiled);
    EXPECT_THROW(cuda::spmv_pull<S>(pcsr, xb, cuda::no_mask(), y, ws), NotCompiled);
    EXPECT_THROW(cuda::spmv_pull<S>(pcsr, xb, cuda::no_mask(), yb, ws), NotCompiled);
    EXPECT_THROW(cuda::sparse_to_bitmap(x, xb), NotCompiled);
    EXPECT_THROW(cuda::bitmap_to_sparse(xb, x, ws), NotCompiled);
    cuda::DeviceDenseVector<double> dx, dy;
    EXPECT_THROW(cuda::spmv_plus_times(dcsr, dx, dy, ws), NotCompiled);

    const auto g = Csr<Pattern>::from_tuples(2, 2, std::vector<lindex_t>{0, 1},
                                             std::vector<lindex_t>{1, 0}, ValueArray<Pattern>(2));
    EXPECT_THROW(cuda::bfs_single_gpu(g, 0), NotCompiled);
    EXPECT_THROW(cuda::BfsGpuSolver{g}, NotCompiled);

    cuda::PinnedBuffer pinned;
    EXPECT_THROW(pinned.reserve(64), NotCompiled);
    cuda::detail::BottomUpPiece piece;
    piece.k1 = 1;
    EXPECT_THROW(
        cuda::detail::bfs_bottom_up_piece({}, piece, nullptr, nullptr, nullptr, nullptr, ws),
        NotCompiled);
}

// cuSPARSE is opened on first use rather than linked; opening it and finding its entry points
// needs no device (creating a handle would).
TEST(CudaApi, CusparseOpensOnFirstUse) {
#if GRIDBLAS_HAVE_CUDA
    EXPECT_EQ(cuda::detail::cusparse_if_loaded(), nullptr) << "loaded before any use";
    const cuda::detail::CusparseApi& api = cuda::detail::cusparse();
    EXPECT_NE(api.create, nullptr);
    EXPECT_NE(api.spmv, nullptr);
    EXPECT_EQ(cuda::detail::cusparse_if_loaded(), &api);
    EXPECT_FALSE(std::string(api.error_string(CUSPARSE_STATUS_SUCCESS)).empty());
#else
    GTEST_SKIP() << "built without CUDA: there is no cuSPARSE to open";
#endif
}

TEST(CudaApi, BfsChecksArgumentsBeforeTheDevice) {
    if (!GRIDBLAS_HAVE_CUDA) GTEST_SKIP() << "built without CUDA: the stubs throw NotCompiled";
    const auto rect = Csr<Pattern>::from_tuples(2, 3, std::vector<lindex_t>{0},
                                                std::vector<lindex_t>{2}, ValueArray<Pattern>(1));
    EXPECT_THROW(cuda::BfsGpuSolver{rect}, DimensionMismatch);
    const auto sq = Csr<Pattern>(2, 2);
    cuda::BfsGpuOptions bad;
    bad.alpha = 0;
    EXPECT_THROW((cuda::BfsGpuSolver{sq, bad}), InvalidValue);
}

TEST(CudaDevice, PinnedStagingRoundTrip) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    cuda::PinnedBuffer ind, val;
    ind.reserve(3 * sizeof(lindex_t));
    val.reserve(3 * sizeof(std::int64_t));
    const lindex_t in_ind[3] = {2, 40, 63};
    const std::int64_t in_val[3] = {-5, 7, 1LL << 40};
    std::copy(in_ind, in_ind + 3, ind.as<lindex_t>());
    std::copy(in_val, in_val + 3, val.as<std::int64_t>());
    cuda::DeviceSparseVector<std::int64_t> d;
    d.assign(64, 3, ind.as<lindex_t>(), val.as<std::int64_t>());
    std::fill(ind.as<lindex_t>(), ind.as<lindex_t>() + 3, 0);
    std::fill(val.as<std::int64_t>(), val.as<std::int64_t>() + 3, 0);
    d.download(ind.as<lindex_t>(), val.as<std::int64_t>());
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(ind.as<lindex_t>()[k], in_ind[k]);
        EXPECT_EQ(val.as<std::int64_t>()[k], in_val[k]);
    }
    // Growing keeps working; a smaller request keeps the allocation.
    ind.reserve(1 << 20);
    const std::size_t cap = ind.capacity();
    ind.reserve(16);
    EXPECT_EQ(ind.capacity(), cap);
}

// The distributed BFS's bottom-up kernels against the same scan on the host: CSR and DCSC
// blocks, pieces starting inside the block, earlier candidates, min and first-found modes,
// and columns longer than a warp (the warp-per-column kernel) whose first hit lies past the
// first round of 32 entries or that have no hit at all.
TEST(CudaDevice, BottomUpPieceMatchesHostScan) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    std::mt19937_64 rng(17);
    const lindex_t n_rows = 200, n_cols = 300;  // block: outer = column v, inner = row u
    const lindex_t quiet_rows = 40;             // rows 0..39 are never in the frontier
    std::vector<lindex_t> r, c;
    std::bernoulli_distribution edge(0.03), dense(0.6), quiet(0.95);
    std::size_t long_columns = 0;
    for (lindex_t v = 0; v < n_cols; ++v) {
        if (v % 7 == 3) continue;  // empty columns make the DCSC hypersparse
        const std::size_t before = r.size();
        for (lindex_t u = 0; u < n_rows; ++u) {
            bool e = edge(rng);
            if (v % 11 == 5) e = dense(rng);                    // ~120 entries, hits late
            if (v % 13 == 6) e = u < quiet_rows && quiet(rng);  // ~38 entries, no hit
            if (e) r.push_back(u), c.push_back(v);
        }
        if (r.size() - before > 32) ++long_columns;
    }
    ASSERT_GT(long_columns, 20u);
    const auto csr = Csr<Pattern>::from_tuples(n_cols, n_rows, c, r, ValueArray<Pattern>(r.size()));
    const auto dcsc =
        Dcsc<Pattern>::from_tuples(n_rows, n_cols, r, c, ValueArray<Pattern>(r.size()));
    const lindex_t col_off = 50, len = 200;
    std::bernoulli_distribution half(0.5), few(0.1);
    std::vector<std::uint64_t> front(bitmap_words(n_rows), 0), completed(bitmap_words(len), 0);
    for (lindex_t u = quiet_rows; u < n_rows; ++u)
        if (few(rng)) front[u >> 6] |= 1ull << (u & 63);
    for (lindex_t v = 0; v < len; ++v)
        if (half(rng)) completed[v >> 6] |= 1ull << (v & 63);
    SparseVector<std::int64_t> earlier(len);  // candidates of earlier ranks
    // Some earlier candidates beat every parent here (0), some lose to any (100000 + v).
    for (lindex_t v = 0; v < len; v += 9) earlier.push_back(v, v % 2 ? 0 : 100000 + v);

    cuda::detail::BottomUpPiece p;
    p.col_off = col_off;
    p.nb = 64;
    p.pr = 3;
    p.my_row = 1;
    auto global = [&](lindex_t u) {
        return (std::int64_t(u / p.nb) * p.pr + p.my_row) * p.nb + std::int64_t(u % p.nb);
    };
    for (bool min_mode : {true, false}) {
        p.min_mode = min_mode;
        // Host reference.
        std::map<lindex_t, std::int64_t> expect;
        for (std::size_t k = 0; k < earlier.nvals(); ++k)
            expect[earlier.indices()[k]] = earlier.values()[k];
        std::uint64_t expect_entries = 0;
        for (lindex_t v = 0; v < len; ++v) {
            if ((completed[v >> 6] >> (v & 63)) & 1) continue;
            const lindex_t col = col_off + v;
            for (offset_t q = csr.rowptr()[col]; q < csr.rowptr()[col + 1]; ++q) {
                ++expect_entries;
                const lindex_t u = csr.colind()[q];
                if (!((front[u >> 6] >> (u & 63)) & 1)) continue;
                auto it = expect.find(v);
                if (it == expect.end()) {
                    expect[v] = global(u);
                } else if (min_mode && global(u) < it->second) {
                    it->second = global(u);
                }
                break;
            }
        }
        for (bool use_dcsc : {false, true}) {
            cuda::DeviceCsr<Pattern> dc(csr);
            cuda::DeviceDcsc<Pattern> dd(dcsc);
            const auto view = use_dcsc ? dd.view() : dc.view();
            if (use_dcsc) {
                const auto& jc = dcsc.jc();
                p.k0 = std::size_t(std::lower_bound(jc.begin(), jc.end(), col_off) - jc.begin());
                p.k1 =
                    std::size_t(std::lower_bound(jc.begin(), jc.end(), col_off + len) - jc.begin());
            } else {
                p.k0 = col_off;
                p.k1 = col_off + len;
            }
            cuda::DeviceBuffer dfront, dcompleted;
            dfront.upload(front.data(), front.size() * sizeof(std::uint64_t));
            dcompleted.upload(completed.data(), completed.size() * sizeof(std::uint64_t));
            cuda::DeviceSparseVector<std::int64_t> dearlier(earlier), found;
            cuda::DeviceBitmapVector<std::int64_t> fresh;
            cuda::sparse_to_bitmap(dearlier, fresh);
            cuda::Workspace ws;
            const auto out = fresh.output();
            const std::uint64_t entries = cuda::detail::bfs_bottom_up_piece(
                view, p, dfront.as<std::uint64_t>(), dcompleted.as<std::uint64_t>(), out.words,
                out.val, ws);
            cuda::bitmap_to_sparse(fresh, found, ws);
            const SparseVector<std::int64_t> got = found.to_host();
            std::map<lindex_t, std::int64_t> got_map;
            for (std::size_t k = 0; k < got.nvals(); ++k)
                got_map[got.indices()[k]] = got.values()[k];
            EXPECT_EQ(got_map, expect) << (use_dcsc ? "dcsc" : "csr") << " min " << min_mode;
            EXPECT_EQ(entries, expect_entries) << (use_dcsc ? "dcsc" : "csr");
        }
    }
}

TEST(CudaDevice, NameAndRoundTrips) {
    GRIDBLAS_REQUIRE_CUDA_DEVICE();
    EXPECT_FALSE(cuda_device_name(0).empty());
    EXPECT_THROW(cuda_device_name(cuda_device_count()), IndexOutOfBounds);
    cuda_set_device(0);

    const std::vector<lindex_t> r{0, 2, 2, 4, 4}, c{1, 0, 3, 4, 0};
    ValueArray<float> v(5);
    for (std::size_t k = 0; k < 5; ++k) v[k] = float(k) + 0.5f;
    const auto csr = Csr<float>::from_tuples(5, 6, r, c, v);
    const auto dcsc = Dcsc<float>::from_tuples(5, 6, r, c, v);
    EXPECT_EQ(cuda::DeviceCsr<float>(csr).to_host(), csr);
    EXPECT_EQ(cuda::DeviceDcsc<float>(dcsc).to_host(), dcsc);
    const auto pcsr = Csr<Pattern>::from_tuples(5, 6, r, c, ValueArray<Pattern>(5));
    EXPECT_EQ(cuda::DeviceCsr<Pattern>(pcsr).to_host(), pcsr);
    EXPECT_EQ(cuda::DeviceCsr<float>(Csr<float>(0, 3)).to_host(), Csr<float>(0, 3));
    EXPECT_EQ(cuda::DeviceDcsc<float>(Dcsc<float>(4, 3)).to_host(), Dcsc<float>(4, 3));

    SparseVector<std::int64_t> s(100);
    s.push_back(3, -7);
    s.push_back(64, 9);
    s.push_back(99, 1);
    cuda::DeviceSparseVector<std::int64_t> ds(s);
    EXPECT_EQ(ds.to_host(), s);
    EXPECT_EQ(ds.nvals(), 3u);
    const auto bm = to_bitmap(s);
    cuda::DeviceBitmapVector<std::int64_t> db(bm);
    EXPECT_EQ(db.to_host(), bm);
    EXPECT_EQ(db.nvals(), 3u);
    const DenseVector<double> d(std::vector<double>{1.5, -2, 3});
    EXPECT_EQ(cuda::DeviceDenseVector<double>(d).to_host(), d);

    // Reuse: a smaller assignment keeps the allocation.
    SparseVector<std::int64_t> small(10);
    small.push_back(1, 2);
    ds.assign(small);
    EXPECT_EQ(ds.to_host(), small);
}

}  // namespace
