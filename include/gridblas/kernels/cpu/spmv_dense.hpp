#pragma once
/// @file spmv_dense.hpp
/// @brief Dense SpMV on one local block, rows of A outer: y = A ⊕.⊗ x for a dense x, every
/// row written (S::zero() where a row has no entry). One pass over the block's entries: each
/// row is reduced in stored order with the semiring's early exit; rows are dynamically
/// scheduled over OpenMP threads in chunks, as in spmv_pull.hpp, because Kronecker degrees
/// are heavily skewed, so the result does not depend on the thread count. (Four interleaved
/// partial sums per row were tried for plus_times: no gain at Kronecker scale 18, where the
/// random reads of x, not the chain of adds, set the pace; prefetching the x entry 16 products
/// ahead took about 15% off 20 PageRank iterations on one thread there.) This is the pull step
/// of PageRank in GapBS (Beamer, Asanović & Patterson, "The GAP Benchmark Suite", 2015):
/// every input present, so no bit is tested and no output list is built.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>

#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/semirings/semiring.hpp"
#include "gridblas/vector/dense_vector.hpp"

namespace gridblas::kernels {

/// Dense SpMV over raw arrays: y[i] = ⊕_j S::mul(A(i,j), x[j]) for every outer index i of
/// `a` (outer = output index), S::zero() for rows without an entry.
/// @param x the input, a.n_inner values
/// @param y the output, a.n_outer values; must not overlap x
/// @throws DimensionMismatch when x.size() != a.n_inner or y.size() != a.n_outer
template <class S, class A, class X, class Y>
KernelStats spmv_dense(const CompressedView<A>& a, std::span<const X> x, std::span<Y> y,
                       const ParallelPolicy& policy = {}) {
    static_assert(std::is_same_v<std::remove_cv_t<Y>, typename S::value_type>);
    if (x.size() != a.n_inner || y.size() != a.n_outer) {
        throw DimensionMismatch("spmv_dense: x has size " + std::to_string(x.size()) +
                                " and y size " + std::to_string(y.size()) +
                                " but the matrix view has " + std::to_string(a.n_inner) +
                                " inner and " + std::to_string(a.n_outer) + " outer indices");
    }
    KernelStats st;
    Y* yv = y.data();
    const X* xv = x.data();
    const lindex_t* inner = a.inner;
    const offset_t* ptr = a.ptr;
    const int threads = detail::threads_for(policy, a.nnz() + a.num_outer);
    const detail::ValueReader<A> av(a.vals);
    const std::size_t chunk = std::max<std::size_t>(64, policy.chunk_rows);
    std::uint64_t entries = 0;
    // The inputs are read at random places: the one a few entries ahead (in this row or the
    // next ones, which are stored right after it) is prefetched.
    constexpr offset_t prefetch_ahead = 16;
    const offset_t total = offset_t(a.nnz());
    if (a.outer_ids) std::fill(yv, yv + a.n_outer, S::zero());
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk) reduction(+ : entries) \
    if (threads > 1)
    for (std::size_t k = 0; k < a.num_outer; ++k) {
        const offset_t b = ptr[k];
        const offset_t e = ptr[k + 1];
        Y acc = S::zero();
        offset_t p = b;
        if (p < e) {
            if (p + prefetch_ahead < total) __builtin_prefetch(xv + inner[p + prefetch_ahead]);
            acc = S::mul(av(p), xv[inner[p]]);
            for (++p; p < e && !semiring_is_terminal<S>(acc); ++p) {
                if (p + prefetch_ahead < total) __builtin_prefetch(xv + inner[p + prefetch_ahead]);
                acc = S::add(acc, S::mul(av(p), xv[inner[p]]));
            }
        }
        entries += std::uint64_t(p - b);
        yv[a.outer_id(k)] = acc;
    }
    st.entries = entries;
    st.nvals = a.n_outer;
    return st;
}

/// Dense SpMV: y = A ⊕.⊗ x for every row of `a` (outer = output index); rows without a
/// product get S::zero(). y is resized to a.n_outer.
/// @throws DimensionMismatch when x.size() != a.n_inner; InvalidValue when y is x
template <class S, class A, class X, class Y>
KernelStats spmv_dense(const CompressedView<A>& a, const DenseVector<X>& x, DenseVector<Y>& y,
                       const ParallelPolicy& policy = {}) {
    if (static_cast<const void*>(&x) == static_cast<const void*>(&y)) {
        throw InvalidValue("spmv_dense: y must not be the same object as x");
    }
    if (x.size() != a.n_inner) {
        throw DimensionMismatch("spmv_dense: x has size " + std::to_string(x.size()) +
                                " but the matrix view has " + std::to_string(a.n_inner) +
                                " inner (input) indices");
    }
    y.values().resize(a.n_outer);
    return spmv_dense<S>(a, std::span<const X>(x.data(), x.size()),
                         std::span<Y>(y.data(), a.n_outer), policy);
}

}  // namespace gridblas::kernels
