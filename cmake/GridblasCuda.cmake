# Decides whether the CUDA backend is built. GRIDBLAS_WITH_CUDA is the request (ON, OFF,
# AUTO); GRIDBLAS_HAVE_CUDA (0/1) is the result, written into config.hpp.
set(GRIDBLAS_HAVE_CUDA 0)
string(TOUPPER "${GRIDBLAS_WITH_CUDA}" _gb_cuda_request)
if(_gb_cuda_request STREQUAL "AUTO" OR _gb_cuda_request STREQUAL "ON")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    # .cu files are C++17 (the public headers they include avoid concepts). Without this,
    # CMAKE_CXX_STANDARD 20 makes CMake 3.25 ask for a "CUDA20" dialect it cannot map to
    # an nvcc flag, and generation fails as soon as a .cu file exists.
    if(NOT DEFINED CMAKE_CUDA_STANDARD)
      set(CMAKE_CUDA_STANDARD 17)
      set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(GRIDBLAS_HAVE_CUDA 1)
  elseif(_gb_cuda_request STREQUAL "ON")
    message(FATAL_ERROR "GRIDBLAS_WITH_CUDA=ON but no CUDA compiler was found")
  endif()
elseif(NOT _gb_cuda_request STREQUAL "OFF")
  message(FATAL_ERROR "GRIDBLAS_WITH_CUDA must be ON, OFF or AUTO, not '${GRIDBLAS_WITH_CUDA}'")
endif()
message(STATUS "gridblas: CUDA backend ${GRIDBLAS_HAVE_CUDA} (requested ${GRIDBLAS_WITH_CUDA})")
