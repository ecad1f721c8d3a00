#pragma once
/// @file heap.hpp
/// @brief Gives memory that the C allocator holds free back to the system, for the builders'
/// large transients.

namespace gridblas::detail {

/// Returns the free pages the C library's allocator keeps in its heaps to the system (glibc's
/// malloc_trim; nothing elsewhere). A streamed build frees many round-sized buffers that
/// malloc keeps for reuse: without this they stay resident through the assembly, which is
/// the build's peak, and through the searches after it.
void release_free_heap() noexcept;

}  // namespace gridblas::detail
