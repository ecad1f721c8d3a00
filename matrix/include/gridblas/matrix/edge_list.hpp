#pragma once
/// @file edge_list.hpp
/// @brief Plain-text edge lists as used by GAP and Graph500 tools: `.el` files hold one edge
/// "u v" per line, `.wel` files "u v w" with a weight. Vertex ids are 0-based; the matrix is
/// n x n with n = (largest id) + 1, and edge (u, v) is the entry A(u, v). Lines whose first
/// non-blank character is `#` or `%` are comments; blank lines are skipped. Duplicate edges
/// and self-loops are kept as they are.

#include <string>

#include "gridblas/core/types.hpp"
#include "gridblas/matrix/coo.hpp"

namespace gridblas {

/// Reads an unweighted edge list (two ids per line).
/// @throws IoError if the file cannot be read; ParseError (naming file and line) for a line
/// that is not two non-negative integers; IndexOutOfBounds for a negative id or one too large
/// for n to fit in gindex_t.
CooMatrix<Pattern, gindex_t> read_edge_list(const std::string& path);

/// Reads a weighted edge list (two ids and a real weight per line); errors as read_edge_list,
/// plus ParseError for a missing or malformed weight.
CooMatrix<double, gindex_t> read_weighted_edge_list(const std::string& path);

}  // namespace gridblas
