// The CUDA backend's kernel and BFS entry points for a build without CUDA
// (GRIDBLAS_WITH_CUDA=OFF, or AUTO with no nvcc): the same symbols as src/cuda, so that
// everything links, with bodies that throw NotCompiled (the device layer's stubs are in
// device_stubs.cpp, part of the gridblas_comm target). cuda_device_count() returns 0, so
// callers that check it first never reach the throwing paths. This is the "device hooks"
// pattern of the Ginkgo library (Anzt et al. 2022; see References in README.md).

#include <memory>
#include <string>

#include "gridblas/core/error.hpp"
#include "gridblas/cuda/bfs.hpp"
#include "gridblas/cuda/detail/bfs_entry_points.hpp"
#include "gridblas/cuda/detail/entry_points.hpp"
#include "gridblas/cuda/device_base.hpp"

namespace gridblas {

namespace {

[[noreturn]] void not_compiled(const std::string& what) {
    throw NotCompiled(what +
                      ": gridblas was built without CUDA (configure with "
                      "-DGRIDBLAS_WITH_CUDA=ON and a CUDA toolkit)");
}

}  // namespace

namespace cuda {

// ---- kernels ----

namespace detail {

template <class S, class A>
KernelStats push(const CompressedDeviceView<A>&, const DeviceSparseView<typename S::value_type>&,
                 const DeviceMask&, const DeviceOutput<typename S::value_type>&, Workspace&) {
    not_compiled("cuda::spmspv");
}

template <class S, class A>
KernelStats pull(const CompressedDeviceView<A>&, const DeviceBitmapView<typename S::value_type>&,
                 const DeviceMask&, const DeviceOutput<typename S::value_type>&, Workspace&) {
    not_compiled("cuda::spmv_pull");
}

template <class T>
std::size_t sparse_to_bitmap(const DeviceSparseView<T>&, const DeviceOutput<T>&) {
    not_compiled("cuda::sparse_to_bitmap");
}

template <class T>
std::size_t bitmap_to_sparse(const DeviceBitmapView<T>&, const DeviceOutput<T>&, Workspace&) {
    not_compiled("cuda::bitmap_to_sparse");
}

template <class T>
void spmv_plus_times(const CompressedDeviceView<T>&, const T*, T*, Workspace&) {
    not_compiled("cuda::spmv_plus_times");
}

std::uint64_t bfs_bottom_up_piece(const CompressedDeviceView<Pattern>&, const BottomUpPiece&,
                                  const std::uint64_t*, const std::uint64_t*, std::uint64_t*,
                                  std::int64_t*, Workspace&) {
    not_compiled("the distributed BFS on the cuda backend");
}

GRIDBLAS_CUDA_FOR_EACH_BUILTIN(GRIDBLAS_CUDA_INSTANTIATE_KERNELS)
GRIDBLAS_CUDA_FOR_EACH_VALUE_TYPE(GRIDBLAS_CUDA_INSTANTIATE_CONVERSIONS)
template void spmv_plus_times<float>(const CompressedDeviceView<float>&, const float*, float*,
                                     Workspace&);
template void spmv_plus_times<double>(const CompressedDeviceView<double>&, const double*, double*,
                                      Workspace&);

}  // namespace detail

// ---- single-GPU BFS ----

struct BfsGpuSolver::Impl {
    BfsGpuOptions opt;
};
BfsGpuSolver::BfsGpuSolver(const Csr<Pattern>&, const BfsGpuOptions&) {
    not_compiled("cuda::BfsGpuSolver");
}
BfsGpuSolver::~BfsGpuSolver() = default;
BfsGpuResult BfsGpuSolver::run(gindex_t) { not_compiled("cuda::BfsGpuSolver::run"); }
void BfsGpuSolver::run(gindex_t, BfsGpuResult&) { not_compiled("cuda::BfsGpuSolver::run"); }
const BfsGpuOptions& BfsGpuSolver::options() const { return impl_->opt; }

BfsGpuResult bfs_single_gpu(const Csr<Pattern>&, gindex_t, const BfsGpuOptions&) {
    not_compiled("cuda::bfs_single_gpu");
}

}  // namespace cuda
}  // namespace gridblas
