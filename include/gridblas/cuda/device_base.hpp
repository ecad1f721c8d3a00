#pragma once
/// @file device_base.hpp
/// @brief The CUDA-free foundation of the CUDA backend's public API: device queries, an
/// untyped growable device allocation (DeviceBuffer), the raw views that kernels receive,
/// output masks, kernel statistics and the reusable kernel Workspace.
///
/// This header includes no CUDA, Thrust, CUB or cuSPARSE header and is valid C++17, so that
/// both host code (C++20) and the backend's .cu files (nvcc, C++17) can include it. With the
/// backend compiled out (GRIDBLAS_HAVE_CUDA == 0) everything declared here still links: the
/// functions that would touch a device throw NotCompiled, and cuda_device_count() returns 0.
/// The design follows the executor split of the Ginkgo library (Anzt et al. 2022; References
/// in README.md): backend stubs that throw NotCompiled, opaque handles in public headers.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "gridblas/core/types.hpp"

namespace gridblas {

/// Number of CUDA devices usable by this process; 0 when the backend was compiled out, when
/// no driver is installed or when no device is present. Never throws.
int cuda_device_count();

/// True when cuda_device_count() > 0.
bool cuda_available();

/// Why no CUDA device can be used ("" when one can): names the failing runtime call and its
/// error string, or says that gridblas was built without CUDA. Meant for log and test-skip
/// messages. Never throws.
std::string cuda_unavailable_reason();

/// The name of device `device` (e.g. "NVIDIA H100 80GB HBM3").
/// @throws NotCompiled without the backend; IndexOutOfBounds for a bad id; CudaError
std::string cuda_device_name(int device = 0);

/// Makes `device` the current device of the calling host thread (one MPI rank per GPU:
/// call it with the node-local rank modulo cuda_device_count() before creating objects).
/// @throws NotCompiled without the backend; IndexOutOfBounds for a bad id; CudaError
void cuda_set_device(int device);

/// Waits for all work queued on the current device. @throws NotCompiled, CudaError
void cuda_synchronize();

namespace cuda {

/// Value types the device containers and frontier conversions support.
template <class T>
struct is_device_value
    : std::integral_constant<
          bool, std::is_same<T, Pattern>::value || std::is_same<T, std::uint8_t>::value ||
                    std::is_same<T, std::int32_t>::value || std::is_same<T, std::uint32_t>::value ||
                    std::is_same<T, std::int64_t>::value || std::is_same<T, float>::value ||
                    std::is_same<T, double>::value> {};

namespace detail {

/// Where a GrowingBuffer's memory lives. allocate() throws (NotCompiled without the backend,
/// CudaError when out of memory); release() ignores errors, as it runs in destructors.
struct DeviceMemory {
    static void* allocate(std::size_t bytes);
    static void release(void* p) noexcept;
};
struct PinnedHostMemory {
    static void* allocate(std::size_t bytes);
    static void release(void* p) noexcept;
};

/// One untyped allocation in `Memory` that grows and never shrinks, so that objects and
/// workspaces reused across calls (a BFS level loop) stop allocating once they are large
/// enough. Move-only. Zero bytes are never allocated, so empty objects can be created and
/// destroyed in a build without CUDA.
template <class Memory>
class GrowingBuffer {
public:
    GrowingBuffer() = default;
    ~GrowingBuffer() { release(); }
    GrowingBuffer(const GrowingBuffer&) = delete;
    GrowingBuffer& operator=(const GrowingBuffer&) = delete;
    GrowingBuffer(GrowingBuffer&& o) noexcept : ptr_(o.ptr_), cap_(o.cap_) {
        o.ptr_ = nullptr;
        o.cap_ = 0;
    }
    GrowingBuffer& operator=(GrowingBuffer&& o) noexcept {
        if (this != &o) {
            release();
            ptr_ = o.ptr_;
            cap_ = o.cap_;
            o.ptr_ = nullptr;
            o.cap_ = 0;
        }
        return *this;
    }

    /// Makes the capacity at least `bytes`. Growing reallocates and discards the contents;
    /// if the allocation fails the buffer is left empty.
    /// @throws NotCompiled, CudaError (out of memory)
    void reserve(std::size_t bytes) {
        if (bytes <= cap_) return;
        release();
        ptr_ = Memory::allocate(bytes);
        cap_ = bytes;
    }
    /// Frees the memory (errors are ignored: this runs in destructors).
    void release() noexcept {
        if (ptr_) Memory::release(ptr_);
        ptr_ = nullptr;
        cap_ = 0;
    }

    void* data() { return ptr_; }
    const void* data() const { return ptr_; }
    template <class T>
    T* as() {
        return static_cast<T*>(ptr_);
    }
    template <class T>
    const T* as() const {
        return static_cast<const T*>(ptr_);
    }
    std::size_t capacity() const { return cap_; }

private:
    void* ptr_ = nullptr;
    std::size_t cap_ = 0;
};

}  // namespace detail

/// A growing allocation in device memory (see detail::GrowingBuffer) with host transfers.
class DeviceBuffer : public detail::GrowingBuffer<detail::DeviceMemory> {
public:
    /// Copies `bytes` bytes from host memory to the start of the buffer (growing it first).
    void upload(const void* host, std::size_t bytes) {
        if (bytes == 0) return;
        reserve(bytes);
        copy_in(host, bytes);
    }
    /// Copies the first `bytes` bytes to host memory (bytes <= capacity()).
    void download(void* host, std::size_t bytes) const {
        if (bytes > 0) copy_out(host, bytes);
    }
    /// Sets the first `bytes` bytes to zero (bytes <= capacity()).
    void zero(std::size_t bytes) {
        if (bytes > 0) zero_impl(bytes);
    }

private:
    void copy_in(const void* host, std::size_t bytes);
    void copy_out(void* host, std::size_t bytes) const;
    void zero_impl(std::size_t bytes);
};

/// Page-locked (pinned) host memory that grows and never shrinks (see
/// detail::GrowingBuffer): the staging area of the exchanges between device and network
/// (device -> pinned -> MPI and back), so that copies run at full PCIe/NVLink speed by DMA
/// instead of through the driver's bounce buffer.
class PinnedBuffer : public detail::GrowingBuffer<detail::PinnedHostMemory> {};

/// A compressed block in device memory as kernels see it: outer position k holds entries
/// `ptr[k] .. ptr[k+1]-1` with inner ids `inner[...]` and values `vals[...]` (nullptr for
/// Pattern). Kernels compute `y(i) = ⊕_j S::mul(M(i,j), x(j))`; push kernels want outer = j,
/// pull kernels outer = i, exactly as the CPU CompressedView (kernels/cpu/view.hpp).
template <class A>
struct CompressedDeviceView {
    lindex_t n_outer = 0;                 ///< size of the outer index space
    lindex_t n_inner = 0;                 ///< size of the inner index space
    bool hyper = false;                   ///< doubly compressed: `outer_ids` lists the stored ids
    const lindex_t* outer_ids = nullptr;  ///< ascending stored outer ids (hyper only)
    std::size_t num_outer = 0;            ///< stored outer positions (n_outer unless hyper)
    std::size_t nnz = 0;                  ///< stored entries
    const offset_t* ptr = nullptr;        ///< num_outer + 1 offsets
    const lindex_t* inner = nullptr;      ///< inner id of each entry
    const A* vals = nullptr;              ///< value of each entry; nullptr for Pattern
};

/// A sparse vector in device memory: `nvals` ascending indices and their values.
template <class T>
struct DeviceSparseView {
    lindex_t n = 0;
    std::size_t nvals = 0;
    const lindex_t* ind = nullptr;
    const T* val = nullptr;  ///< nullptr for Pattern
};

/// A bitmap vector in device memory: bit i of word i/64 says whether entry i is present.
template <class T>
struct DeviceBitmapView {
    lindex_t n = 0;
    const std::uint64_t* words = nullptr;
    const T* val = nullptr;  ///< n values, indexed by position; nullptr for Pattern
};

/// Where a kernel writes its result: a sparse vector (ind/val with room for n entries) or a
/// bitmap vector (words/val of length n).
template <class T>
struct DeviceOutput {
    lindex_t n = 0;
    bool bitmap = false;
    lindex_t* ind = nullptr;         ///< sparse output only
    std::uint64_t* words = nullptr;  ///< bitmap output only
    T* val = nullptr;                ///< nullptr for Pattern
};

/// A structural output mask in device memory: one bit per output index and a complement
/// flag, with the semantics of the CPU MaskView (GraphBLAS C API 2.1 §3.5.3). No bits and no
/// complement allows every index; no bits with complement allows none.
struct DeviceMask {
    const std::uint64_t* bits = nullptr;  ///< device pointer, or nullptr: "no mask vector"
    bool complement = false;
    lindex_t size = 0;  ///< length of the mask vector (checked against the output)

    bool allows_all() const { return !bits && !complement; }
    bool allows_none() const { return !bits && complement; }
};

/// The mask that allows every output index.
inline DeviceMask no_mask() { return DeviceMask{}; }

/// What a device kernel did.
struct KernelStats {
    std::uint64_t entries = 0;  ///< matrix entries read
    std::size_t nvals = 0;      ///< entries in the output
};

/// Reusable device scratch of the kernels: per-call plans, the staging accumulator of push
/// kernels, scan and compaction buffers, counters and the cuSPARSE handle. Keep one per
/// stream of work (e.g. one per BFS) and pass it to every call; it grows to the largest call
/// and then allocates nothing. Creating one never touches the device; its memory and
/// cuSPARSE handle belong to the device that is current at its first use, so use it with
/// that device only (one workspace per device). Not thread-safe. A moved-from workspace may
/// only be destroyed or assigned to.
class Workspace {
public:
    Workspace();
    ~Workspace();
    Workspace(Workspace&&) noexcept;
    Workspace& operator=(Workspace&&) noexcept;
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;

    /// Device bytes currently held.
    std::size_t memory_bytes() const;

    struct Impl;  ///< defined by the backend (src/cuda/backend.hpp)
    Impl& impl() { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace cuda
}  // namespace gridblas
