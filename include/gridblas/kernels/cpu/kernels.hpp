#pragma once
/// @file kernels.hpp
/// @brief All CPU kernels of gridblas in one include: the compressed-block view and its
/// column lookup, output masks, push SpMSpV (SPA and sort), pull / dense SpMV and the rotating
/// pull's piece scan with its bitmap helpers. They are templates (header-only) so that user-defined
/// semirings work with them.

#include "gridblas/kernels/cpu/bitmap_ops.hpp"
#include "gridblas/kernels/cpu/mask.hpp"
#include "gridblas/kernels/cpu/outer_bitmap.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/pull_piece.hpp"
#include "gridblas/kernels/cpu/spmspv.hpp"
#include "gridblas/kernels/cpu/spmv_dense.hpp"
#include "gridblas/kernels/cpu/spmv_pull.hpp"
#include "gridblas/kernels/cpu/view.hpp"
