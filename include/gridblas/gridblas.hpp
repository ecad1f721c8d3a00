#pragma once
/// @file gridblas.hpp
/// @brief Umbrella header: one include gives the whole public API of gridblas.

#include "gridblas/config.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/convert.hpp"
#include "gridblas/matrix/coo.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dcsc.hpp"
#include "gridblas/semirings/builtin.hpp"
#include "gridblas/semirings/semiring.hpp"
#include "gridblas/vector/bitmap_vector.hpp"
#include "gridblas/vector/convert.hpp"
#include "gridblas/vector/dense_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"
