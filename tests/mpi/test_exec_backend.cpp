// The execution backend of a grid (ProcessGrid::set_exec_backend): vxm / mxv on the cpu
// and cuda backends against the serial reference, on every grid shape, push and pull, every
// mask kind, both local formats; the cuda cases skip, saying why, where a rank has no
// device. Without a device the failure to select cuda is checked instead: the same error on
// every rank, the grid left on the cpu and still usable.

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "dist_test_util.hpp"
#include "gridblas/core/version.hpp"
#include "gridblas/ops/spmv.hpp"
#include "gridblas/semirings/builtin.hpp"
#include "reference/spmv_reference.hpp"
#include "spmv_check.hpp"

using namespace gridblas;

namespace {

/// A semiring the cuda backend has no kernel for.
struct UserMinPlus {
    using value_type = std::int64_t;
    static constexpr bool has_terminal = false;
    static constexpr std::int64_t zero() { return std::int64_t(1) << 60; }
    static constexpr std::int64_t add(std::int64_t a, std::int64_t b) { return a < b ? a : b; }
    static constexpr std::int64_t mul(std::int64_t a, std::int64_t x) { return a + x; }
    static constexpr bool is_terminal(std::int64_t) { return false; }
};

class SpmvOnBackend : public ::testing::TestWithParam<ExecBackend> {};

}  // namespace

TEST_P(SpmvOnBackend, MatchesReferenceEveryGridMaskFormat) {
    std::mt19937_64 rng(19);
    for (auto [pr, pc] : test::grid_shapes(test::world_size())) {
        auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc);
        const std::string why = test::try_exec_backend(*grid, GetParam());
        if (!why.empty()) GTEST_SKIP() << why;
        ASSERT_EQ(grid->exec_backend(), GetParam());
        const gindex_t n = 29, m = 21;
        const auto am = test::random_mat<std::int64_t>(rng, n, m, 0.2, 1, 9);
        for (auto fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            auto a = test::make_matrix(grid, n, m, am, fmt);
            for (bool is_vxm : {true, false}) {
                for (Direction dir : {Direction::push, Direction::pull}) {
                    for (int mask_kind : {0, 1, 2}) {
                        for (bool comp : {false, true}) {
                            Descriptor d;
                            d.direction = dir;
                            d.mask_complement = comp;
                            d.replace = comp;
                            d.transpose_a = mask_kind == 1;
                            test::check_case<select2nd_min<std::int64_t>>(
                                grid, am, n, m, a, is_vxm, d, mask_kind, false, rng, 0.3);
                            test::check_case<min_plus<std::int64_t>>(grid, am, n, m, a, is_vxm, d,
                                                                     mask_kind, false, rng, 0.1);
                            test::check_case<plus_times<std::int64_t>>(grid, am, n, m, a, is_vxm, d,
                                                                       mask_kind, true, rng, 0.6);
                            test::check_case<plus_pair<std::int64_t>>(grid, am, n, m, a, is_vxm, d,
                                                                      mask_kind, false, rng, 0.9);
                        }
                    }
                }
            }
        }
    }
}

TEST_P(SpmvOnBackend, UserSemiringRunsOnCpuOnly) {
    auto grid = ProcessGrid::create(MPI_COMM_WORLD);
    const std::string why = test::try_exec_backend(*grid, GetParam());
    if (!why.empty()) GTEST_SKIP() << why;
    std::mt19937_64 rng(5);
    const gindex_t n = 17;
    const auto am = test::random_mat<std::int64_t>(rng, n, n, 0.3, 1, 5);
    auto a = test::make_matrix(grid, n, n, am);
    const auto um = test::random_vec<std::int64_t>(rng, n, 0.5);
    auto u = test::make_vector(grid, n, um);
    const auto wm = test::random_vec<std::int64_t>(rng, n, 0.5);
    auto w = test::make_vector(grid, n, wm);
    if (GetParam() == ExecBackend::cpu) {
        vxm(w, no_mask, no_accum, UserMinPlus{}, u, a);
        EXPECT_EQ(test::to_map(w), ref::vxm<UserMinPlus>(um, am));
    } else {
        // Refused on every rank before any communication, w unchanged.
        EXPECT_THROW(vxm(w, no_mask, no_accum, UserMinPlus{}, u, a), NotSupported);
        EXPECT_EQ(test::to_map(w), wm);
    }
}

// One workspace reused across push and pull, vxm and mxv, and across a matrix rebuilt in
// place (same object, new blocks): the cached block copies (device copies on cuda, DCSC
// lookups on the cpu) must follow the rebuild.
TEST_P(SpmvOnBackend, WorkspaceReusedAcrossDirectionsAndRebuiltMatrix) {
    std::mt19937_64 rng(23);
    for (auto [pr, pc] : test::grid_shapes(test::world_size())) {
        auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc);
        const std::string why = test::try_exec_backend(*grid, GetParam());
        if (!why.empty()) GTEST_SKIP() << why;
        using S = min_plus<std::int64_t>;
        const gindex_t n = 37;
        auto am = test::random_mat<std::int64_t>(rng, n, n, 0.15, 1, 9);
        auto a = test::make_matrix(grid, n, n, am);
        SpmvWorkspace<std::int64_t, std::int64_t, std::int64_t> ws;
        for (int round = 0; round < 2; ++round) {
            for (Direction dir : {Direction::push, Direction::pull, Direction::push}) {
                for (bool is_vxm : {true, false}) {
                    const auto um = test::random_vec<std::int64_t>(rng, n, 0.4);
                    auto u = test::make_vector(grid, n, um);
                    DistVector<std::int64_t> w(grid, n);
                    Descriptor d;
                    d.direction = dir;
                    if (is_vxm) {
                        vxm(w, no_mask, no_accum, S{}, u, a, d, &ws);
                    } else {
                        mxv(w, no_mask, no_accum, S{}, a, u, d, &ws);
                    }
                    const auto expect = is_vxm ? ref::vxm<S>(um, am) : ref::mxv<S>(am, um);
                    ASSERT_EQ(test::to_map(w), expect)
                        << "round " << round << (is_vxm ? " vxm" : " mxv")
                        << (dir == Direction::push ? " push" : " pull") << " grid " << pr << "x"
                        << pc;
                }
            }
            // Rebuild the matrix in place with other entries.
            am = test::random_mat<std::int64_t>(rng, n, n, 0.15, 1, 9);
            a = test::make_matrix(grid, n, n, am);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, SpmvOnBackend, ::testing::ValuesIn(test::exec_backends()),
                         [](const auto& info) { return to_string(info.param); });

TEST(ExecBackend, CudaWithoutDeviceFailsOnEveryRankAndGridStaysUsable) {
    auto grid = ProcessGrid::create(MPI_COMM_WORLD);
    if (test::every_rank_has_cuda(*grid)) {
        GTEST_SKIP() << "every rank has a CUDA device; the failure path needs a rank without one";
    }
    EXPECT_EQ(grid->exec_backend(), ExecBackend::cpu);
    if (has_cuda()) {
        EXPECT_THROW(grid->set_exec_backend(ExecBackend::cuda), CudaError);
    } else {
        try {
            grid->set_exec_backend(ExecBackend::cuda);
            ADD_FAILURE() << "set_exec_backend(cuda) succeeded in a build without CUDA";
        } catch (const NotCompiled& e) {
            EXPECT_NE(std::string(e.what()).find("built without CUDA"), std::string::npos)
                << e.what();
        }
    }
    EXPECT_EQ(grid->exec_backend(), ExecBackend::cpu);
    EXPECT_EQ(grid->cuda_device(), -1);
    // The grid still works (no rank is stuck in a collective): a vxm on the cpu.
    std::mt19937_64 rng(2);
    const gindex_t n = 13;
    const auto am = test::random_mat<std::int64_t>(rng, n, n, 0.3, 1, 5);
    auto a = test::make_matrix(grid, n, n, am);
    const auto um = test::random_vec<std::int64_t>(rng, n, 0.5);
    auto u = test::make_vector(grid, n, um);
    DistVector<std::int64_t> w(grid, n);
    vxm(w, no_mask, no_accum, min_plus<std::int64_t>{}, u, a);
    EXPECT_EQ(test::to_map(w), ref::vxm<min_plus<std::int64_t>>(um, am));
}
