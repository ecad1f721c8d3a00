#pragma once
/// @file descriptor.hpp
/// @brief Descriptor, "no mask" and "no accumulator" markers of the GraphBLAS operations.

namespace gridblas {

/// Push/pull hint of vxm / mxv: push = SpMSpV over the input's entries, pull = masked SpMV
/// over the output's allowed positions; automatic decides from densities.
enum class Direction { automatic, push, pull };

/// Modifiers of an operation, as GrB_Descriptor (GraphBLAS C API 2.1 §3.5.3).
struct Descriptor {
    bool transpose_a = false;      ///< use Aᵀ instead of A (GrB_INP1 / GrB_TRAN for the matrix)
    bool mask_complement = false;  ///< use ¬mask (GrB_COMP)
    bool mask_structural = false;  ///< mask by presence, ignoring values (GrB_STRUCTURE)
    bool replace = false;          ///< clear output entries outside the mask (GrB_REPLACE)
    Direction direction = Direction::automatic;
};

/// Pass as the mask to mean "no mask" (GrB_NULL).
struct NoMask {};
inline constexpr NoMask no_mask{};

/// Pass as the accumulator to mean "no accumulator" (GrB_NULL).
struct NoAccum {};
inline constexpr NoAccum no_accum{};

}  // namespace gridblas
