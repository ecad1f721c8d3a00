# Driver of the install test (run by ctest as `cmake -D... -P run_install_test.cmake`):
#   1. `cmake --install` the build tree GB_BUILD_DIR into a fresh prefix;
#   2. configure and build tests/install/consumer against that prefix only;
#   3. run the consumer under mpiexec -n 1.
# Any failing step stops the script with an error, which fails the test.
cmake_minimum_required(VERSION 3.25)

set(prefix "${GB_WORK_DIR}/prefix")
set(consumer_build "${GB_WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${prefix}" "${consumer_build}")

# Runs one step, echoing the command line so that a failure is easy to reproduce.
function(gb_step title)
  list(JOIN ARGN " " _cmdline)
  message(STATUS "install test: ${title}\n    ${_cmdline}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "install test: '${title}' failed (${_rc})")
  endif()
endfunction()

set(_config_args)
if(GB_CONFIG)
  set(_config_args --config "${GB_CONFIG}")
endif()
gb_step("install into ${prefix}"
        "${CMAKE_COMMAND}" --install "${GB_BUILD_DIR}" --prefix "${prefix}" ${_config_args})

# Only the scratch prefix is on the search path: the consumer must not see the build tree.
set(_configure_args
    -S "${GB_CONSUMER_SOURCE}" -B "${consumer_build}" -G "${GB_GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${prefix}"
    "-DCMAKE_BUILD_TYPE=${GB_CONFIG}"
    "-DCMAKE_CXX_COMPILER=${GB_CXX_COMPILER}"
    "-DCMAKE_CXX_FLAGS=${GB_CXX_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${GB_EXE_LINKER_FLAGS}"
    "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"
    "-DGB_EXPECT_CUDA=${GB_EXPECT_CUDA}")
if(GB_CUDA_ROOT)
  list(APPEND _configure_args "-DCUDAToolkit_ROOT=${GB_CUDA_ROOT}")
endif()
gb_step("configure the consumer" "${CMAKE_COMMAND}" ${_configure_args})
gb_step("build the consumer" "${CMAKE_COMMAND}" --build "${consumer_build}" ${_config_args})

# The program's path in a single- or multi-config build tree.
set(app "${consumer_build}/app")
if(NOT EXISTS "${app}" AND GB_CONFIG)
  set(app "${consumer_build}/${GB_CONFIG}/app")
endif()
if(GB_MPIEXEC)
  gb_step("run the consumer" "${GB_MPIEXEC}" ${GB_MPIEXEC_NUMPROC_FLAG} 1 "${app}")
else()
  gb_step("run the consumer" "${app}")
endif()
message(STATUS "install test: passed")
