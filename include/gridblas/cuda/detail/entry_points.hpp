#pragma once
/// @file entry_points.hpp
/// @brief The backend entry points behind the templates of gridblas/cuda/kernels.hpp, and
/// the one list of (built-in semiring, value type) pairs that has CUDA kernels.
///
/// The entry points are function templates declared here and explicitly instantiated in
/// the backend (src/cuda/*.cu) for the pairs of GRIDBLAS_CUDA_FOR_EACH_BUILTIN, each with
/// matrix value type Pattern and the semiring's own type; a build without CUDA instantiates
/// the same list in src/cuda_stubs/cuda_stubs.cpp with bodies that throw NotCompiled. The
/// generated list follows the instantiation macros of the Ginkgo library (Anzt et al. 2022)
/// and SuiteSparse:GraphBLAS's factory kernels (Davis 2019). Valid C++17, no CUDA header: the .cu
/// files include it too. Users call the templates of kernels.hpp, not these.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gridblas/core/types.hpp"
#include "gridblas/cuda/device_base.hpp"
#include "gridblas/semirings/builtin.hpp"

/// Calls X(semiring_template, value_type) for every built-in semiring x value type pair that
/// has CUDA kernels. The add monoid decides which types make sense on the device: min/max
/// and plus need a native atomic or a 32/64-bit compare-and-swap, so 8-bit types are only
/// offered for the idempotent any/lor monoids (plain byte stores).
#define GRIDBLAS_CUDA_FOR_EACH_BUILTIN(X) \
    X(select2nd_min, std::int32_t)        \
    X(select2nd_min, std::uint32_t)       \
    X(select2nd_min, std::int64_t)        \
    X(any_pair, std::uint8_t)             \
    X(any_pair, std::int32_t)             \
    X(any_pair, std::uint32_t)            \
    X(lor_land, std::uint8_t)             \
    X(lor_land, std::int32_t)             \
    X(min_plus, std::int32_t)             \
    X(min_plus, std::int64_t)             \
    X(min_plus, float)                    \
    X(min_plus, double)                   \
    X(plus_times, std::int32_t)           \
    X(plus_times, std::int64_t)           \
    X(plus_times, float)                  \
    X(plus_times, double)                 \
    X(plus_pair, std::int32_t)            \
    X(plus_pair, std::int64_t)            \
    X(max_times, float)                   \
    X(max_times, double)

/// Calls X(T) for every value type of the device containers (see is_device_value).
#define GRIDBLAS_CUDA_FOR_EACH_VALUE_TYPE(X) \
    X(Pattern)                               \
    X(std::uint8_t)                          \
    X(std::int32_t)                          \
    X(std::uint32_t)                         \
    X(std::int64_t)                          \
    X(float)                                 \
    X(double)

namespace gridblas::cuda {

/// True for the semirings of GRIDBLAS_CUDA_FOR_EACH_BUILTIN.
template <class S>
struct has_cuda_kernels : std::false_type {};
#define GRIDBLAS_CUDA_DECLARE_SUPPORTED_(SR, T) \
    template <>                                 \
    struct has_cuda_kernels<SR<T>> : std::true_type {};
GRIDBLAS_CUDA_FOR_EACH_BUILTIN(GRIDBLAS_CUDA_DECLARE_SUPPORTED_)
#undef GRIDBLAS_CUDA_DECLARE_SUPPORTED_

namespace detail {
template <class S, class A>
struct matrix_type_fits
    : std::bool_constant<std::is_same_v<A, Pattern> || std::is_same_v<A, typename S::value_type>> {
};
}  // namespace detail

/// True when the CUDA kernels exist for semiring S over a matrix with values of type A (A is
/// Pattern or S::value_type). User-defined semirings are never supported.
template <class S, class A>
inline constexpr bool cuda_supports_v =
    std::conjunction_v<has_cuda_kernels<S>, detail::matrix_type_fits<S, A>>;

namespace detail {

/// Push SpMSpV: y⟨mask⟩ = M ⊕.⊗ x over a view with outer = input index j.
template <class S, class A>
KernelStats push(const CompressedDeviceView<A>& a,
                 const DeviceSparseView<typename S::value_type>& x, const DeviceMask& mask,
                 const DeviceOutput<typename S::value_type>& y, Workspace& ws);

/// Masked pull SpMV: y⟨mask⟩ = M ⊕.⊗ x over a view with outer = output index i.
template <class S, class A>
KernelStats pull(const CompressedDeviceView<A>& a,
                 const DeviceBitmapView<typename S::value_type>& x, const DeviceMask& mask,
                 const DeviceOutput<typename S::value_type>& y, Workspace& ws);

/// Frontier conversions; they return the number of entries of the output.
template <class T>
std::size_t sparse_to_bitmap(const DeviceSparseView<T>& x, const DeviceOutput<T>& y);
template <class T>
std::size_t bitmap_to_sparse(const DeviceBitmapView<T>& x, const DeviceOutput<T>& y, Workspace& ws);

/// Dense y = A x through cuSPARSE (generic SpMV), A a CSR view; T is float or double.
template <class T>
void spmv_plus_times(const CompressedDeviceView<T>& a, const T* x, T* y, Workspace& ws);

}  // namespace detail
}  // namespace gridblas::cuda

/// Explicit instantiations of push and pull for one list entry (used by the backend and by
/// the stubs, inside namespace gridblas::cuda::detail).
#define GRIDBLAS_CUDA_INSTANTIATE_KERNELS_A_(SR, T, A)                                 \
    template KernelStats push<SR<T>, A>(const CompressedDeviceView<A>&,                \
                                        const DeviceSparseView<T>&, const DeviceMask&, \
                                        const DeviceOutput<T>&, Workspace&);           \
    template KernelStats pull<SR<T>, A>(const CompressedDeviceView<A>&,                \
                                        const DeviceBitmapView<T>&, const DeviceMask&, \
                                        const DeviceOutput<T>&, Workspace&);
#define GRIDBLAS_CUDA_INSTANTIATE_KERNELS(SR, T)         \
    GRIDBLAS_CUDA_INSTANTIATE_KERNELS_A_(SR, T, Pattern) \
    GRIDBLAS_CUDA_INSTANTIATE_KERNELS_A_(SR, T, T)

/// Explicit instantiations of the conversions for one value type.
#define GRIDBLAS_CUDA_INSTANTIATE_CONVERSIONS(T)                                                  \
    template std::size_t sparse_to_bitmap<T>(const DeviceSparseView<T>&, const DeviceOutput<T>&); \
    template std::size_t bitmap_to_sparse<T>(const DeviceBitmapView<T>&, const DeviceOutput<T>&,  \
                                             Workspace&);
