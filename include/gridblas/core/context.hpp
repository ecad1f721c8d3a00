#pragma once
/// @file context.hpp
/// @brief Where local work runs: the CPU (OpenMP) or the CUDA backend.

#include <string>

namespace gridblas {

/// The execution backend of local kernels. `cuda` needs a build with the CUDA backend
/// (GRIDBLAS_HAVE_CUDA) and a GPU; otherwise entry points throw NotCompiled / CudaError.
enum class ExecBackend { cpu, cuda };

/// "cpu" / "cuda".
inline std::string to_string(ExecBackend b) { return b == ExecBackend::cpu ? "cpu" : "cuda"; }

}  // namespace gridblas
