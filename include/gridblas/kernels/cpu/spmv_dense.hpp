#pragma once
/// @file spmv_dense.hpp
/// @brief Dense SpMV on one local block, rows of A outer: y = A ⊕.⊗ x for a dense x, every
/// row written (S::zero() where a row has no entry). Rows are reduced in stored order with
/// the semiring's early exit, dynamically scheduled over OpenMP threads as in
/// spmv_pull.hpp, whose row reducer it shares.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/spmv_pull.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/vector/dense_vector.hpp"

namespace gridblas::kernels {

/// Dense SpMV: y = A ⊕.⊗ x for every row of `a` (outer = output index); rows without a
/// product get S::zero(). y is resized to a.n_outer.
/// @throws DimensionMismatch when x.size() != a.n_inner; InvalidValue when y is x
template <class S, class A, class X, class Y>
KernelStats spmv_dense(const CompressedView<A>& a, const DenseVector<X>& x, DenseVector<Y>& y,
                       const ParallelPolicy& policy = {}) {
    static_assert(std::is_same_v<Y, typename S::value_type>);
    detail::check_pull(a, x, "spmv_dense");
    if (static_cast<const void*>(&x) == static_cast<const void*>(&y)) {
        throw InvalidValue("spmv_dense: y must not be the same object as x");
    }
    KernelStats st;
    y.values().resize(a.n_outer);
    Y* yv = y.data();
    const int threads = detail::threads_for(policy, a.nnz() + a.num_outer);
    const detail::DenseAccess<X> xa(x);
    const detail::ValueReader<A> av(a.vals);
    const std::size_t chunk = std::max<std::size_t>(64, policy.chunk_rows);
    std::uint64_t entries = 0;
    if (a.outer_ids) {
        std::fill(yv, yv + a.n_outer, S::zero());
    }
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk) reduction(+ : entries) \
    if (threads > 1)
    for (std::size_t k = 0; k < a.num_outer; ++k) {
        Y r{};
        const bool found = detail::pull_row<S>(a, av, xa, k, r, entries);
        yv[a.outer_id(k)] = found ? r : Y(S::zero());
    }
    st.entries = entries;
    st.nvals = a.n_outer;
    return st;
}

}  // namespace gridblas::kernels
