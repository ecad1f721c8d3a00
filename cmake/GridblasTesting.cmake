# Helpers that declare GoogleTest suites.
#
#   gridblas_add_unit_test(<name> SOURCES ... [LIBS ...])
#       a serial test executable registered with ctest (label "unit").
#   gridblas_add_mpi_test(<name> SOURCES ... [LIBS ...] [NP n...])
#       an MPI test executable with the MPI gtest main, registered once per rank count as
#       <name>.np<n> run under mpirun (label "mpi"). Rank counts above GRIDBLAS_MPI_MAX_NP are
#       left out; counts above the core count run oversubscribed (with the launcher's
#       option, GRIDBLAS_MPIEXEC_OVERSUBSCRIBE, when it needs one).
#
# Both put tests/ on the include path, so a suite includes the shared serial oracles as
# "reference/....hpp" (tests/reference/).
find_package(GTest REQUIRED)
# Eigen is the reference oracle of the tests.
find_package(Eigen3 3.3 REQUIRED NO_MODULE)

# Matrix Market files of a peer library's test suite, with MANIFEST.tsv.
set(GRIDBLAS_TEST_DATA_DIR "${PROJECT_SOURCE_DIR}/tests/data/lagraph"
    CACHE PATH "Folder of the LAGraph Matrix Market test files (MANIFEST.tsv)")

# A gtest main for MPI tests: initialises MPI, prints only from rank 0, and makes every rank
# agree on pass/fail so that mpirun's exit code reflects a failure on any rank.
add_library(gridblas_test_mpi_main STATIC "${PROJECT_SOURCE_DIR}/tests/mpi/mpi_main.cpp")
target_link_libraries(gridblas_test_mpi_main PUBLIC GTest::gtest MPI::MPI_CXX)

# Open MPI's launcher starts more ranks than cores only with --oversubscribe; MPICH's Hydra
# oversubscribes by itself and does not know the option. GRIDBLAS_MPIEXEC_OVERSUBSCRIBE is
# what the tests pass after the rank count: the option for Open MPI, nothing otherwise.
if(NOT DEFINED GRIDBLAS_MPIEXEC_OVERSUBSCRIBE)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _gb_mpiexec_version
                  ERROR_VARIABLE _gb_mpiexec_version TIMEOUT 30)
  if(_gb_mpiexec_version MATCHES "Open MPI|OpenRTE|open-mpi\\.org")
    set(_gb_oversubscribe "--oversubscribe")
  else()
    set(_gb_oversubscribe "")
  endif()
  set(GRIDBLAS_MPIEXEC_OVERSUBSCRIBE "${_gb_oversubscribe}" CACHE STRING
      "Option of the MPI launcher to run more ranks than cores (empty: none needed)")
  message(STATUS "gridblas: MPI launcher ${MPIEXEC_EXECUTABLE}, oversubscription option "
                 "'${GRIDBLAS_MPIEXEC_OVERSUBSCRIBE}'")
endif()

# The environment of every test that starts MPI programs (the scripts under tests/tools read
# GRIDBLAS_MPIEXEC_OVERSUBSCRIBE from it).
set(GRIDBLAS_MPIEXEC_ENV
    "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;OMP_NUM_THREADS=1;OMP_WAIT_POLICY=passive;OMPI_MCA_mpi_yield_when_idle=1;OMPI_MCA_btl_vader_single_copy_mechanism=none;GRIDBLAS_MPIEXEC_OVERSUBSCRIBE=${GRIDBLAS_MPIEXEC_OVERSUBSCRIBE}")

function(gridblas_add_unit_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} gridblas_options GTest::gtest_main)
  target_include_directories(${name} PRIVATE "${PROJECT_SOURCE_DIR}/tests")
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS unit TIMEOUT 300
                       ENVIRONMENT "${GRIDBLAS_MPIEXEC_ENV}")
endfunction()

function(gridblas_add_mpi_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;NP" ${ARGN})
  if(NOT ARG_NP)
    set(ARG_NP 1 2 3 4 6)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} gridblas_test_mpi_main gridblas_options)
  target_include_directories(${name} PRIVATE "${PROJECT_SOURCE_DIR}/tests")
  foreach(np IN LISTS ARG_NP)
    if(np GREATER GRIDBLAS_MPI_MAX_NP)
      continue()
    endif()
    add_test(NAME ${name}.np${np}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np}
                     ${GRIDBLAS_MPIEXEC_OVERSUBSCRIBE} --bind-to none ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${name}> ${MPIEXEC_POSTFLAGS})
    set_tests_properties(${name}.np${np} PROPERTIES LABELS mpi TIMEOUT 600 PROCESSORS 2
                         ENVIRONMENT "${GRIDBLAS_MPIEXEC_ENV}")
  endforeach()
endfunction()
