#pragma once
/// @file descriptor.hpp
/// @brief Descriptor, "no mask" and "no accumulator" markers of the GraphBLAS operations.

namespace gridblas {

/// Push/pull hint of vxm / mxv: push = SpMSpV over the input's entries, pull = masked SpMV
/// over the output's allowed positions; automatic decides from densities.
enum class Direction { automatic, push, pull };
/// How mxm computes its local products (SuiteSparse's GxB_AxB_METHOD): gustavson = row by row
/// with a dense accumulator (SPA), hash = row by row with a hash accumulator, dot = one inner
/// product per allowed output entry (only with a mask that is not complemented); automatic
/// picks by the sizes of the mask and of the operands.
enum class MxmMethod { automatic, gustavson, hash, dot };

/// Modifiers of an operation, as GrB_Descriptor (GraphBLAS C API 2.1 §3.5.3).
struct Descriptor {
    bool transpose_a = false;  ///< use Aᵀ instead of A (GrB_INP0 of mxm; the matrix of vxm/mxv)
    bool transpose_b = false;  ///< use Bᵀ instead of B (GrB_INP1 of mxm and the ewise ops)
    bool mask_complement = false;  ///< use ¬mask (GrB_COMP)
    bool mask_structural = false;  ///< mask by presence, ignoring values (GrB_STRUCTURE)
    bool replace = false;          ///< clear output entries outside the mask (GrB_REPLACE)
    Direction direction = Direction::automatic;
    MxmMethod mxm_method = MxmMethod::automatic;  ///< local product kernel of mxm
};

/// Pass as the mask to mean "no mask" (GrB_NULL).
struct NoMask {};
inline constexpr NoMask no_mask{};

/// Pass as the accumulator to mean "no accumulator" (GrB_NULL).
struct NoAccum {};
inline constexpr NoAccum no_accum{};

}  // namespace gridblas
