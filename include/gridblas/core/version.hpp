#pragma once
/// @file version.hpp
/// @brief Version and build information of the linked gridblas library.

#include <string>

namespace gridblas {

/// "MAJOR.MINOR.PATCH" of the library actually linked.
std::string version();
/// True when the linked library has the CUDA backend compiled in.
bool has_cuda();

}  // namespace gridblas
