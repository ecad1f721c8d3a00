// cuSPARSE opened with dlopen on first use: see cusparse_api.hpp.

#include "cuda/cusparse_api.hpp"

#include <dlfcn.h>

#include <atomic>
#include <mutex>
#include <string>

#include "gridblas/core/error.hpp"

namespace gridblas::cuda::detail {

namespace {

std::mutex load_mutex;
CusparseApi loaded;
std::atomic<bool> ready{false};

/// Looks `name` up in `lib` into `f`, or throws.
template <class F>
void resolve(void* lib, const char* name, F& f, const std::string& file) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    if (f == nullptr) {
        throw CudaError("cuSPARSE: " + file + " has no function " + name +
                        " (a cuSPARSE older than the one gridblas was compiled with?)");
    }
}

}  // namespace

const CusparseApi& cusparse() {
    if (ready.load(std::memory_order_acquire)) return loaded;
    std::lock_guard<std::mutex> lock(load_mutex);
    if (ready.load(std::memory_order_relaxed)) return loaded;
    const std::string file = "libcusparse.so." + std::to_string(CUSPARSE_VER_MAJOR);
    void* lib = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
        const char* why = dlerror();
        throw CudaError("cuSPARSE could not be loaded: " + file + ": " +
                        (why ? why : "unknown error") +
                        " (is the CUDA toolkit's library directory on LD_LIBRARY_PATH?)");
    }
    CusparseApi api;
    try {
        resolve(lib, "cusparseCreate", api.create, file);
        resolve(lib, "cusparseDestroy", api.destroy, file);
        resolve(lib, "cusparseGetErrorString", api.error_string, file);
        resolve(lib, "cusparseCreateConstCsr", api.create_const_csr, file);
        resolve(lib, "cusparseCreateConstDnVec", api.create_const_dn_vec, file);
        resolve(lib, "cusparseCreateDnVec", api.create_dn_vec, file);
        resolve(lib, "cusparseDestroySpMat", api.destroy_sp_mat, file);
        resolve(lib, "cusparseDestroyDnVec", api.destroy_dn_vec, file);
        resolve(lib, "cusparseSpMV_bufferSize", api.spmv_buffer_size, file);
        resolve(lib, "cusparseSpMV", api.spmv, file);
    } catch (...) {
        dlclose(lib);
        throw;
    }
    // The library stays open for the life of the process (handles may outlive any caller).
    loaded = api;
    ready.store(true, std::memory_order_release);
    return loaded;
}

const CusparseApi* cusparse_if_loaded() {
    return ready.load(std::memory_order_acquire) ? &loaded : nullptr;
}

}  // namespace gridblas::cuda::detail
