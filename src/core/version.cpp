#include "gridblas/core/version.hpp"

#include "gridblas/config.hpp"

namespace gridblas {

std::string version() { return GRIDBLAS_VERSION_STRING; }
bool has_cuda() { return GRIDBLAS_HAVE_CUDA != 0; }

}  // namespace gridblas
