#pragma once
// Internal helpers of the CUDA backend (src/cuda only; never installed): the error check
// that turns a failing CUDA call into gridblas::CudaError, launch geometry, and the device
// buffers behind cuda::Workspace. Valid for both nvcc (C++17) and the host compiler; it
// includes the CUDA runtime API header, which is why it is not public.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "gridblas/core/error.hpp"
#include "gridblas/cuda/device_base.hpp"

struct cusparseContext;  // cusparseHandle_t is cusparseContext*

namespace gridblas::cuda::detail {

/// Throws CudaError naming the call, the error's name and string, and the place.
[[noreturn]] void throw_cuda_error(const char* call, cudaError_t err, const char* file, int line);

/// Checks a cudaError_t-returning expression (runtime calls, CUB algorithms).
#define GRIDBLAS_CUDA_CHECK(call)                                                                \
    do {                                                                                         \
        const cudaError_t gb_cuda_err_ = (call);                                                 \
        if (gb_cuda_err_ != cudaSuccess) {                                                       \
            ::gridblas::cuda::detail::throw_cuda_error(#call, gb_cuda_err_, __FILE__, __LINE__); \
        }                                                                                        \
    } while (0)

/// After a kernel launch: throws CudaError for a bad launch configuration or for an error
/// left by earlier asynchronous work. (Faults inside the kernel surface at the next
/// synchronising call, which every entry point makes before returning.)
void check_launch(const char* kernel);

/// Threads per block of every kernel (a multiple of the warp size).
inline constexpr unsigned kBlockSize = 256;
/// Grid cap: kernels use grid-stride loops, so more blocks than the device holds at once
/// (132 SMs x 8 blocks of 256 on an H100) buy nothing.
inline constexpr std::uint64_t kMaxBlocks = 4096;

/// Blocks for `threads` threads of kBlockSize, at least 1 and at most kMaxBlocks.
inline unsigned grid_for(std::uint64_t threads) {
    const std::uint64_t b = (threads + kBlockSize - 1) / kBlockSize;
    return unsigned(std::clamp<std::uint64_t>(b, 1, kMaxBlocks));
}

/// Number of 64-bit words of a bitmap of n bits.
inline std::size_t words_for(std::size_t n) { return (n + 63) / 64; }

/// Slots of the counters buffer (64-bit, device).
enum Counter : int { kOutCount = 0, kEntries = 1, kHeavyRows = 2, kScratch = 3, kNumCounters = 4 };

}  // namespace gridblas::cuda::detail

namespace gridblas::cuda {

/// Device scratch behind Workspace. Every buffer grows to the largest request and stays.
struct Workspace::Impl {
    DeviceBuffer plan_begin;            ///< push: first entry of each selected column (offset_t)
    DeviceBuffer plan_len;              ///< push: length of each selected column (offset_t)
    DeviceBuffer plan_scan;             ///< push: inclusive scan of plan_len (offset_t)
    DeviceBuffer bits;                  ///< staging bitmap of a sparse output
    DeviceBuffer acc;                   ///< staging values of a sparse output
    DeviceBuffer word_count;            ///< compaction: set bits per word (offset_t)
    DeviceBuffer word_scan;             ///< compaction: inclusive scan of word_count (offset_t)
    DeviceBuffer cub_temp;              ///< CUB temporary storage
    DeviceBuffer counters;              ///< kNumCounters 64-bit counters (see Counter)
    DeviceBuffer heavy;                 ///< pull: positions of rows longer than a warp (lindex_t)
    DeviceBuffer rowptr32;              ///< cuSPARSE: 32-bit copy of a CSR row pointer
    DeviceBuffer sparse_buf;            ///< cuSPARSE: SpMV external buffer
    cusparseContext* sparse = nullptr;  ///< cuSPARSE handle, created on first use

    /// Device pointer to the counters (allocated and zeroed on first use, so that
    /// read_counters() never copies memory no kernel has written).
    std::uint64_t* counter_ptr() {
        constexpr std::size_t bytes = detail::kNumCounters * sizeof(std::uint64_t);
        if (counters.capacity() < bytes) {
            counters.reserve(bytes);
            counters.zero(bytes);
        }
        return counters.as<std::uint64_t>();
    }
    /// Zeroes the counters (asynchronously, default stream).
    void zero_counters() {
        counter_ptr();
        counters.zero(detail::kNumCounters * sizeof(std::uint64_t));
    }
    /// Copies the counters to `host[0 .. kNumCounters)`; synchronises the default stream.
    void read_counters(std::uint64_t* host) {
        counters.download(host, detail::kNumCounters * sizeof(std::uint64_t));
    }
};

}  // namespace gridblas::cuda
