// Host side of the CUDA backend: device queries, the allocation primitives under
// every device container, the Workspace, and the CudaError reporting used by all of
// src/cuda. Compiled by the host compiler against the CUDA runtime API (no kernels here).
// Follows the Ginkgo library's split of executor memory operations into a few out-of-line
// functions (Anzt et al. 2022; References in README.md); src/cuda_stubs/cuda_stubs.cpp defines the
// same symbols for builds without CUDA.

#include <cstdio>
#include <string>

#include "cuda/backend.hpp"
#include "cuda/cusparse_api.hpp"
#include "gridblas/cuda/device_base.hpp"

namespace gridblas {

namespace {

/// cudaGetDeviceCount, turning "no driver" and "no device" into 0 and a reason.
int query_device_count(std::string* reason) {
    int n = 0;
    const cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();  // clear the (non-sticky) error
        if (reason) {
            *reason = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(err) + " (" +
                      cudaGetErrorName(err) + ")";
        }
        return 0;
    }
    if (n == 0 && reason) *reason = "cudaGetDeviceCount: no CUDA device found";
    return n;
}

void check_device_id(int device, const char* who) {
    const int n = query_device_count(nullptr);
    if (device < 0 || device >= n) {
        throw IndexOutOfBounds(std::string(who) + ": device " + std::to_string(device) +
                               " does not exist (" + std::to_string(n) + " CUDA devices)");
    }
}

}  // namespace

int cuda_device_count() { return query_device_count(nullptr); }

bool cuda_available() { return cuda_device_count() > 0; }

std::string cuda_unavailable_reason() {
    std::string reason;
    return query_device_count(&reason) > 0 ? std::string() : reason;
}

std::string cuda_device_name(int device) {
    check_device_id(device, "cuda_device_name");
    cudaDeviceProp prop{};
    GRIDBLAS_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    return prop.name;
}

void cuda_set_device(int device) {
    check_device_id(device, "cuda_set_device");
    GRIDBLAS_CUDA_CHECK(cudaSetDevice(device));
}

void cuda_synchronize() { GRIDBLAS_CUDA_CHECK(cudaDeviceSynchronize()); }

namespace cuda {

namespace detail {

void throw_cuda_error(const char* call, cudaError_t err, const char* file, int line) {
    (void)cudaGetLastError();  // clear a non-sticky error so later calls can proceed
    std::string where(file);
    const std::size_t slash = where.find_last_of('/');
    if (slash != std::string::npos) where = where.substr(slash + 1);
    throw CudaError(std::string(call) + " failed: " + cudaGetErrorString(err) + " (" +
                    cudaGetErrorName(err) + ") at " + where + ":" + std::to_string(line));
}

void check_launch(const char* kernel) {
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        throw CudaError(std::string("launch of kernel ") + kernel +
                        " failed: " + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) + ")");
    }
}

}  // namespace detail

// ---- device and pinned allocations, DeviceBuffer transfers ----

namespace detail {

void* DeviceMemory::allocate(std::size_t bytes) {
    void* p = nullptr;
    GRIDBLAS_CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
}

void DeviceMemory::release(void* p) noexcept {
    (void)cudaFree(p);  // errors (e.g. a context torn down at exit) are ignored
}

void* PinnedHostMemory::allocate(std::size_t bytes) {
    void* p = nullptr;
    GRIDBLAS_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocDefault));
    return p;
}

void PinnedHostMemory::release(void* p) noexcept { (void)cudaFreeHost(p); }

}  // namespace detail

void DeviceBuffer::copy_in(const void* host, std::size_t bytes) {
    GRIDBLAS_CUDA_CHECK(cudaMemcpy(data(), host, bytes, cudaMemcpyHostToDevice));
}

void DeviceBuffer::copy_out(void* host, std::size_t bytes) const {
    if (bytes > capacity()) {
        throw InvalidValue("DeviceBuffer::download: " + std::to_string(bytes) +
                           " bytes requested from a buffer of " + std::to_string(capacity()));
    }
    GRIDBLAS_CUDA_CHECK(cudaMemcpy(host, data(), bytes, cudaMemcpyDeviceToHost));
}

void DeviceBuffer::zero_impl(std::size_t bytes) {
    if (bytes > capacity()) {
        throw InvalidValue("DeviceBuffer::zero: " + std::to_string(bytes) +
                           " bytes requested in a buffer of " + std::to_string(capacity()));
    }
    GRIDBLAS_CUDA_CHECK(cudaMemset(data(), 0, bytes));
}

// ---- Workspace ----

Workspace::Workspace() : impl_(std::make_unique<Impl>()) {}

namespace {
/// Destroys a workspace's cuSPARSE handle, if it has one (which exists only if cuSPARSE was
/// loaded to make it).
void release_sparse(Workspace::Impl* impl) noexcept {
    if (impl && impl->sparse) {
        if (const detail::CusparseApi* api = detail::cusparse_if_loaded()) {
            api->destroy(impl->sparse);
        }
        impl->sparse = nullptr;
    }
}
}  // namespace

Workspace::~Workspace() { release_sparse(impl_.get()); }

// A moved-from workspace holds nothing; it may only be destroyed or assigned to.
Workspace::Workspace(Workspace&& o) noexcept = default;

Workspace& Workspace::operator=(Workspace&& o) noexcept {
    if (this != &o) {
        release_sparse(impl_.get());
        impl_ = std::move(o.impl_);
    }
    return *this;
}

std::size_t Workspace::memory_bytes() const {
    if (!impl_) return 0;
    const Impl& w = *impl_;
    return w.plan_begin.capacity() + w.plan_len.capacity() + w.plan_scan.capacity() +
           w.bits.capacity() + w.acc.capacity() + w.word_count.capacity() + w.word_scan.capacity() +
           w.cub_temp.capacity() + w.counters.capacity() + w.heavy.capacity() +
           w.rowptr32.capacity() + w.sparse_buf.capacity();
}

}  // namespace cuda
}  // namespace gridblas
