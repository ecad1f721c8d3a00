// The CUDA device layer for a build without CUDA: device queries that report no device,
// allocations and transfers that throw NotCompiled, and a Workspace that holds nothing, so
// that objects without device memory (default-constructed containers, a Workspace) can still
// be created and destroyed. Same symbols as src/cuda/device.cpp; part of the gridblas_comm
// target, because ProcessGrid::set_exec_backend asks for devices.

#include <memory>
#include <string>

#include "gridblas/core/error.hpp"
#include "gridblas/cuda/device_base.hpp"

namespace gridblas {

namespace {

[[noreturn]] void not_compiled(const std::string& what) {
    throw NotCompiled(what +
                      ": gridblas was built without CUDA (configure with "
                      "-DGRIDBLAS_WITH_CUDA=ON and a CUDA toolkit)");
}

}  // namespace

int cuda_device_count() { return 0; }
bool cuda_available() { return false; }
std::string cuda_unavailable_reason() { return "gridblas was built without CUDA"; }
std::string cuda_device_name(int) { not_compiled("cuda_device_name"); }
void cuda_set_device(int) { not_compiled("cuda_set_device"); }
void cuda_synchronize() { not_compiled("cuda_synchronize"); }

namespace cuda {

// ---- allocations and DeviceBuffer transfers: nothing is ever allocated ----

void* detail::DeviceMemory::allocate(std::size_t) { not_compiled("device memory allocation"); }
void detail::DeviceMemory::release(void*) noexcept {}  // nothing is ever allocated
void* detail::PinnedHostMemory::allocate(std::size_t) { not_compiled("pinned host allocation"); }
void detail::PinnedHostMemory::release(void*) noexcept {}
void DeviceBuffer::copy_in(const void*, std::size_t) { not_compiled("host-to-device copy"); }
void DeviceBuffer::copy_out(void*, std::size_t) const { not_compiled("device-to-host copy"); }
void DeviceBuffer::zero_impl(std::size_t) { not_compiled("device memset"); }

// ---- Workspace ----

struct Workspace::Impl {};
Workspace::Workspace() : impl_(std::make_unique<Impl>()) {}
Workspace::~Workspace() = default;
Workspace::Workspace(Workspace&&) noexcept = default;
Workspace& Workspace::operator=(Workspace&&) noexcept = default;
std::size_t Workspace::memory_bytes() const { return 0; }

}  // namespace cuda
}  // namespace gridblas
