#pragma once
// The containers of the serial references: a vector is a std::map from global index to value,
// a matrix a std::map from (row, column) to value. Plain, ordered and MPI-free, so every rank
// can build them from gathered data and compare.

#include <map>
#include <utility>

#include "gridblas/core/types.hpp"

namespace gridblas::ref {

template <class T>
using Vec = std::map<gindex_t, T>;
template <class T>
using Mat = std::map<std::pair<gindex_t, gindex_t>, T>;

}  // namespace gridblas::ref
