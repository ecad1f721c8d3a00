#pragma once
/// @file types.hpp
/// @brief Index types, the pattern value type and the host/device annotation macro.

#include <cstdint>
#include <limits>

/// Marks a function usable from host and device code when compiled by nvcc.
#if defined(__CUDACC__)
#define GRIDBLAS_HD __host__ __device__
#else
#define GRIDBLAS_HD
#endif

namespace gridblas {

/// Global vertex / row / column id. Signed so that -1 can mean "none" (unreached vertex).
using gindex_t = std::int64_t;
/// Index local to one block of a distributed matrix or one piece of a vector.
using lindex_t = std::uint32_t;
/// Offsets into entry arrays (column pointers, row pointers).
using offset_t = std::uint64_t;

/// Value type of a pattern-only matrix: stores no values, each entry "is" Pattern{}.
struct Pattern {
    GRIDBLAS_HD constexpr bool operator==(const Pattern&) const { return true; }
};

/// Largest local index a block may use.
inline constexpr lindex_t max_lindex = std::numeric_limits<lindex_t>::max() - 1;

}  // namespace gridblas
