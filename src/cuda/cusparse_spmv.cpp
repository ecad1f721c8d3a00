// Dense SpMV with the arithmetic semiring through cuSPARSE's generic API: y = A x with
// cusparseSpMV (CSR, CUSPARSE_SPMV_ALG_DEFAULT), for float and double. The CUDA backend
// hands the arithmetic semirings to cuSPARSE rather than to its own kernels.
//
// Our CSR stores 64-bit row offsets and 32-bit column ids. cuSPARSE is given 32-bit indices
// for both (the combination every cuSPARSE release accepts): the row offsets are narrowed
// into workspace memory on each call, an O(rows) pass next to the O(nnz) product; blocks
// with 2^31 or more rows, columns or entries are refused with NotSupported. The handle and
// the external buffer live in the Workspace and are reused. cuSPARSE is opened on the first
// call (cusparse_api.hpp), not linked.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "cuda/backend.hpp"
#include "cuda/cusparse_api.hpp"
#include "cuda/frontier.hpp"
#include "gridblas/cuda/detail/entry_points.hpp"

namespace gridblas::cuda::detail {

namespace {

void check_sparse(cusparseStatus_t st, const char* call) {
    if (st != CUSPARSE_STATUS_SUCCESS) {
        throw CudaError(std::string(call) + " failed: " + cusparse().error_string(st) +
                        " (cuSPARSE status " + std::to_string(int(st)) + ")");
    }
}
#define GRIDBLAS_CUSPARSE_CHECK(call) check_sparse((call), #call)

/// Destroys the descriptors of one call, also when an exception leaves it.
struct Descriptors {
    cusparseConstSpMatDescr_t mat = nullptr;
    cusparseConstDnVecDescr_t x = nullptr;
    cusparseDnVecDescr_t y = nullptr;
    ~Descriptors() {
        if (mat) cusparse().destroy_sp_mat(mat);
        if (x) cusparse().destroy_dn_vec(x);
        if (y) cusparse().destroy_dn_vec(y);
    }
};

}  // namespace

template <class T>
void spmv_plus_times(const CompressedDeviceView<T>& a, const T* x, T* y, Workspace& ws) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
    if (a.hyper) throw InvalidValue("cuda::spmv_plus_times: needs a CSR block");
    const std::size_t rows = a.n_outer;
    if (rows == 0) return;
    if (a.nnz == 0 || a.n_inner == 0) {
        GRIDBLAS_CUDA_CHECK(cudaMemset(y, 0, rows * sizeof(T)));
        GRIDBLAS_CUDA_CHECK(cudaDeviceSynchronize());
        return;
    }
    constexpr std::size_t max32 = std::size_t(std::numeric_limits<std::int32_t>::max());
    if (rows >= max32 || std::size_t(a.n_inner) >= max32 || a.nnz >= max32) {
        throw NotSupported(
            "cuda::spmv_plus_times: blocks need fewer than 2^31 rows, columns "
            "and entries (got " +
            std::to_string(rows) + " x " + std::to_string(a.n_inner) + " with " +
            std::to_string(a.nnz) + " entries)");
    }
    const CusparseApi& api = cusparse();
    Workspace::Impl& w = ws.impl();
    w.rowptr32.reserve((rows + 1) * sizeof(std::int32_t));
    std::int32_t* rowptr = w.rowptr32.as<std::int32_t>();
    narrow_offsets(a.ptr, rowptr, rows + 1);

    if (!w.sparse) {
        cusparseHandle_t h = nullptr;
        GRIDBLAS_CUSPARSE_CHECK(api.create(&h));
        w.sparse = h;
    }
    cusparseHandle_t handle = w.sparse;
    constexpr cudaDataType dtype = std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F;
    Descriptors d;
    GRIDBLAS_CUSPARSE_CHECK(api.create_const_csr(
        &d.mat, std::int64_t(rows), std::int64_t(a.n_inner), std::int64_t(a.nnz), rowptr, a.inner,
        a.vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dtype));
    GRIDBLAS_CUSPARSE_CHECK(api.create_const_dn_vec(&d.x, std::int64_t(a.n_inner), x, dtype));
    GRIDBLAS_CUSPARSE_CHECK(api.create_dn_vec(&d.y, std::int64_t(rows), y, dtype));
    const T alpha = T(1);
    const T beta = T(0);
    std::size_t bytes = 0;
    GRIDBLAS_CUSPARSE_CHECK(api.spmv_buffer_size(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                                 d.mat, d.x, &beta, d.y, dtype,
                                                 CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    w.sparse_buf.reserve(std::max<std::size_t>(bytes, 1));
    GRIDBLAS_CUSPARSE_CHECK(api.spmv(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, d.mat, d.x,
                                     &beta, d.y, dtype, CUSPARSE_SPMV_ALG_DEFAULT,
                                     w.sparse_buf.data()));
    // Report faults of this call here rather than at some later, unrelated call.
    GRIDBLAS_CUDA_CHECK(cudaDeviceSynchronize());
}

template void spmv_plus_times<float>(const CompressedDeviceView<float>&, const float*, float*,
                                     Workspace&);
template void spmv_plus_times<double>(const CompressedDeviceView<double>&, const double*, double*,
                                      Workspace&);

}  // namespace gridblas::cuda::detail
