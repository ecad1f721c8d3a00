#pragma once
// cuSPARSE, opened on first use instead of linked (src/cuda only; never installed). Loading
// libcusparse and the JIT linker it depends on costs every process about 30 MB of resident
// memory (measured: an MPI program's peak went from 14 to 45 MB when linked with it), which
// a CPU run, or a GPU run that never does an arithmetic SpMV, should not pay: summed over
// ranks it was a quarter of gridblas-bfs's footprint at scale 20 on 4 ranks. The entry
// points gridblas calls are looked up once, by name, in the library of the toolkit's major
// version (libcusparse.so.<CUSPARSE_VER_MAJOR>), found like any shared library (the
// executable's run path, LD_LIBRARY_PATH, the system's).

#include <cusparse.h>

namespace gridblas::cuda::detail {

/// The cuSPARSE functions gridblas uses.
struct CusparseApi {
    decltype(&cusparseCreate) create = nullptr;
    decltype(&cusparseDestroy) destroy = nullptr;
    decltype(&cusparseGetErrorString) error_string = nullptr;
    decltype(&cusparseCreateConstCsr) create_const_csr = nullptr;
    decltype(&cusparseCreateConstDnVec) create_const_dn_vec = nullptr;
    decltype(&cusparseCreateDnVec) create_dn_vec = nullptr;
    decltype(&cusparseDestroySpMat) destroy_sp_mat = nullptr;
    decltype(&cusparseDestroyDnVec) destroy_dn_vec = nullptr;
    decltype(&cusparseSpMV_bufferSize) spmv_buffer_size = nullptr;
    decltype(&cusparseSpMV) spmv = nullptr;
};

/// The loaded library's entry points; opens it on the first call (thread-safe).
/// @throws CudaError naming the library and the loader's message when it cannot be opened
///         or lacks one of the functions (the next call tries again)
const CusparseApi& cusparse();

/// The loaded entry points when cusparse() has succeeded before, else nullptr: for releasing
/// a handle, which exists only if the library was loaded.
const CusparseApi* cusparse_if_loaded();

}  // namespace gridblas::cuda::detail
