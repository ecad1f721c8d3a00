#pragma once
/// @file kernels.hpp
/// @brief The local kernels of the CUDA backend, mirroring the CPU kernels of
/// gridblas/kernels/cpu with the same semantics, `y(i) = ⊕_j S::mul(M(i,j), x(j))`:
///
///  - spmspv<S>(): push SpMSpV (top-down BFS). Load balanced over the frontier's edges, not
///    its vertices: the selected columns' lengths are prefix-scanned and one thread takes one
///    edge, finding its column by binary search in the scan (the scheme of Bisson et
///    al. 2016, and of merge-path SpMV); products meet in a dense accumulator through
///    the add monoid's atomic (atomicMin, atomicAdd, a CAS loop for float min/max, plain
///    stores for the idempotent any/lor), then a scan-based compaction yields the sorted
///    sparse output.
///  - spmv_pull<S>(): masked pull SpMV over a bitmap x (bottom-up BFS, Beamer et al. SC'12),
///    with early exit at the add monoid's terminal value: one thread per row, and rows longer
///    than a warp handed to a second kernel that gives each one a warp.
///  - sparse_to_bitmap() / bitmap_to_sparse(): frontier format conversions.
///  - spmv_plus_times(): dense SpMV through cuSPARSE's generic API (cusparseSpMV).
///
/// Only the built-in semirings of GRIDBLAS_CUDA_FOR_EACH_BUILTIN have device kernels; any
/// other semiring throws NotSupported before the device is touched (user-defined semirings
/// run on the CPU backend). Every kernel call synchronises once, to read its output count.
/// Results equal the CPU kernels' except for the order of floating-point additions (atomics
/// combine products in any order) and which product an `any` monoid keeps.

#include <string>
#include <type_traits>

#include "gridblas/core/error.hpp"
#include "gridblas/cuda/detail/entry_points.hpp"
#include "gridblas/cuda/device.hpp"

namespace gridblas::cuda {

namespace detail {

template <class S, class A>
[[noreturn]] void throw_unsupported(const char* who) {
    if constexpr (is_builtin_semiring<S>::value) {
        throw NotSupported(std::string(who) +
                           ": this built-in semiring has no CUDA kernel for its value type or "
                           "for this matrix value type (see GRIDBLAS_CUDA_FOR_EACH_BUILTIN); "
                           "use the CPU backend");
    } else {
        throw NotSupported(std::string(who) +
                           ": user-defined semirings run on the CPU backend only; the CUDA "
                           "backend has kernels for the built-in semirings");
    }
}

inline void check_size(const char* who, const char* what, std::size_t got, std::size_t want) {
    if (got != want) {
        throw DimensionMismatch(std::string(who) + ": " + what + " has size " +
                                std::to_string(got) + " but " + std::to_string(want) +
                                " is required");
    }
}

inline void check_mask(const char* who, const DeviceMask& mask, std::size_t n) {
    if (mask.bits) check_size(who, "the mask", mask.size, n);
}

}  // namespace detail

/// Push SpMSpV, y⟨mask⟩ = A ⊕.⊗ x, over a DCSC block of A (outer = column j = input index).
/// y becomes a sparse vector of length a.nrows() with ascending indices: the allowed rows
/// met by at least one product.
/// @tparam S a built-in semiring; x and y hold S::value_type; A is Pattern or S::value_type
/// @throws NotSupported for other semirings; DimensionMismatch; InvalidValue when y is x;
///         NotCompiled without the backend; CudaError
template <class S, class A, class Y>
KernelStats spmspv(const DeviceDcsc<A>& a, const DeviceSparseVector<Y>& x, const DeviceMask& mask,
                   DeviceSparseVector<Y>& y, Workspace& ws) {
    if constexpr (!cuda_supports_v<S, A>) {
        detail::throw_unsupported<S, A>("cuda::spmspv");
    } else {
        static_assert(std::is_same_v<Y, typename S::value_type>,
                      "cuda::spmspv: vectors must hold the semiring's value_type");
        detail::check_size("cuda::spmspv", "x", x.size(), a.ncols());
        detail::check_mask("cuda::spmspv", mask, a.nrows());
        if (&x == &y) throw InvalidValue("cuda::spmspv: y must not be the same object as x");
        if (y.size() != a.nrows()) y.reset(a.nrows());
        y.set_nvals(0);  // a call that throws leaves y empty rather than stale
        const KernelStats st = detail::push<S, A>(a.view(), x.view(), mask, y.output(), ws);
        y.set_nvals(st.nvals);
        return st;
    }
}

/// Push SpMSpV over a CSR block holding Mᵀ (outer = row = input index j): y(i) =
/// ⊕_j S::mul(T(j,i), x(j)) where T is the stored block. For BFS, pass the CSR of the
/// adjacency matrix itself (row u lists the out-neighbours of u). y has length a.ncols().
/// @throws as the DCSC overload
template <class S, class A, class Y>
KernelStats spmspv(const DeviceCsr<A>& a_transposed, const DeviceSparseVector<Y>& x,
                   const DeviceMask& mask, DeviceSparseVector<Y>& y, Workspace& ws) {
    if constexpr (!cuda_supports_v<S, A>) {
        detail::throw_unsupported<S, A>("cuda::spmspv");
    } else {
        static_assert(std::is_same_v<Y, typename S::value_type>,
                      "cuda::spmspv: vectors must hold the semiring's value_type");
        const auto& a = a_transposed;
        detail::check_size("cuda::spmspv", "x", x.size(), a.nrows());
        detail::check_mask("cuda::spmspv", mask, a.ncols());
        if (&x == &y) throw InvalidValue("cuda::spmspv: y must not be the same object as x");
        if (y.size() != a.ncols()) y.reset(a.ncols());
        y.set_nvals(0);  // a call that throws leaves y empty rather than stale
        const KernelStats st = detail::push<S, A>(a.view(), x.view(), mask, y.output(), ws);
        y.set_nvals(st.nvals);
        return st;
    }
}

namespace detail {
template <class S, class A, class Y, class Out>
KernelStats pull_into(const CompressedDeviceView<A>& v, const DeviceBitmapVector<Y>& x,
                      const DeviceMask& mask, Out& y, Workspace& ws) {
    check_size("cuda::spmv_pull", "x", x.size(), v.n_inner);
    check_mask("cuda::spmv_pull", mask, v.n_outer);
    if (static_cast<const void*>(&x) == static_cast<const void*>(&y)) {
        throw InvalidValue("cuda::spmv_pull: y must not be the same object as x");
    }
    if (y.size() != v.n_outer) y.reset(v.n_outer);
    return pull<S, A>(v, x.view(), mask, y.output(), ws);
}
}  // namespace detail

/// Masked pull SpMV, y⟨mask⟩ = A ⊕.⊗ x with x a bitmap, over a CSR block of A (outer = row
/// = output index). Rows the mask excludes are skipped; each row stops at the semiring's
/// terminal value. y (sparse, length a.nrows()) holds the rows with a result.
/// @throws as spmspv()
template <class S, class A, class Y>
KernelStats spmv_pull(const DeviceCsr<A>& a, const DeviceBitmapVector<Y>& x, const DeviceMask& mask,
                      DeviceSparseVector<Y>& y, Workspace& ws) {
    if constexpr (!cuda_supports_v<S, A>) {
        detail::throw_unsupported<S, A>("cuda::spmv_pull");
    } else {
        static_assert(std::is_same_v<Y, typename S::value_type>,
                      "cuda::spmv_pull: vectors must hold the semiring's value_type");
        y.set_nvals(0);  // a call that throws leaves y empty rather than stale
        const KernelStats st = detail::pull_into<S, A>(a.view(), x, mask, y, ws);
        y.set_nvals(st.nvals);
        return st;
    }
}

/// Masked pull SpMV into a bitmap y of length a.nrows() (bits of the rows with a result and
/// their values).
template <class S, class A, class Y>
KernelStats spmv_pull(const DeviceCsr<A>& a, const DeviceBitmapVector<Y>& x, const DeviceMask& mask,
                      DeviceBitmapVector<Y>& y, Workspace& ws) {
    if constexpr (!cuda_supports_v<S, A>) {
        detail::throw_unsupported<S, A>("cuda::spmv_pull");
    } else {
        static_assert(std::is_same_v<Y, typename S::value_type>,
                      "cuda::spmv_pull: vectors must hold the semiring's value_type");
        return detail::pull_into<S, A>(a.view(), x, mask, y, ws);
    }
}

/// Masked pull SpMV over a DCSC block of Aᵀ, the hypersparse form of the pull: the stored
/// block's columns are A's rows (output indices) and only its non-empty ones are visited.
/// x has length a_transposed.nrows(); y (sparse) has length a_transposed.ncols().
template <class S, class A, class Y>
KernelStats spmv_pull(const DeviceDcsc<A>& a_transposed, const DeviceBitmapVector<Y>& x,
                      const DeviceMask& mask, DeviceSparseVector<Y>& y, Workspace& ws) {
    if constexpr (!cuda_supports_v<S, A>) {
        detail::throw_unsupported<S, A>("cuda::spmv_pull");
    } else {
        static_assert(std::is_same_v<Y, typename S::value_type>,
                      "cuda::spmv_pull: vectors must hold the semiring's value_type");
        y.set_nvals(0);  // a call that throws leaves y empty rather than stale
        const KernelStats st = detail::pull_into<S, A>(a_transposed.view(), x, mask, y, ws);
        y.set_nvals(st.nvals);
        return st;
    }
}

/// Sparse -> bitmap frontier conversion (y gets x's length, bits and values).
/// @throws NotCompiled, CudaError
template <class T>
void sparse_to_bitmap(const DeviceSparseVector<T>& x, DeviceBitmapVector<T>& y) {
    if (y.size() != x.size()) y.reset(x.size());
    detail::sparse_to_bitmap<T>(x.view(), y.output());
}

/// Bitmap -> sparse frontier conversion (ascending indices).
/// @throws NotCompiled, CudaError
template <class T>
void bitmap_to_sparse(const DeviceBitmapVector<T>& x, DeviceSparseVector<T>& y, Workspace& ws) {
    if (y.size() != x.size()) y.reset(x.size());
    y.set_nvals(detail::bitmap_to_sparse<T>(x.view(), y.output(), ws));
}

/// Dense SpMV with the arithmetic semiring, y = A x, through cuSPARSE (cusparseSpMV with
/// 32-bit indices: A needs fewer than 2^31 rows, columns and entries, else NotSupported).
/// Every row of y is written (0 where a row is empty). T is float or double.
/// @throws DimensionMismatch; NotSupported; NotCompiled; CudaError (cuSPARSE failures too)
template <class T>
void spmv_plus_times(const DeviceCsr<T>& a, const DeviceDenseVector<T>& x, DeviceDenseVector<T>& y,
                     Workspace& ws) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                  "cuda::spmv_plus_times: cuSPARSE SpMV is offered for float and double");
    detail::check_size("cuda::spmv_plus_times", "x", x.size(), a.ncols());
    if (&x == &y) throw InvalidValue("cuda::spmv_plus_times: y must not be the same object as x");
    if (y.size() != a.nrows()) y.reset(a.nrows());
    detail::spmv_plus_times<T>(a.view(), x.data(), y.data(), ws);
}

}  // namespace gridblas::cuda
