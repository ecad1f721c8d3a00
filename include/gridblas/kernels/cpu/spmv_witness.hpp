#pragma once
/// @file spmv_witness.hpp
/// @brief Witness search on one local block, outputs as outer index: for every output i, the
/// first stored entry A(i, j) (in stored, ascending-j order) whose product S::mul(A(i, j),
/// x[j]) equals a given target t[i]. This is how a shortest-path search recovers its parents
/// once the distances are final: the parent of v is an in-neighbour u with d(u) + w(u, v) =
/// d(v), and the scan of v's row stops at the first one, so it reads part of the edges where
/// a (min, +) pass on (distance, vertex) pairs (the argmin as a semiring) reads all of them,
/// with values half the size. Rows are dynamically scheduled over OpenMP threads in chunks
/// (as in spmv_dense.hpp); each row is scanned by one thread, so the result does not depend
/// on the thread count.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/view.hpp"

namespace gridblas::kernels {

/// Returned by spmv_witness() for an output with no matching entry.
inline constexpr lindex_t no_witness = ~lindex_t(0);

/// For every outer index i of `a` (outer = output index), out[i] = the smallest stored
/// position's inner index j with S::mul(A(i, j), x[j]) == t[i] (compared with operator==),
/// or no_witness. Outputs whose target is `skip` are not scanned (no_witness).
/// @param x the input, a.n_inner values
/// @param t the targets, a.n_outer values
/// @param out the witnesses, a.n_outer entries; must not overlap x or t
/// @returns the matrix entries read
/// @throws DimensionMismatch when x, t or out have the wrong length
template <class S, class A, class X, class Y>
std::uint64_t spmv_witness(const CompressedView<A>& a, std::span<const X> x, std::span<const Y> t,
                           const Y& skip, std::span<lindex_t> out,
                           const ParallelPolicy& policy = {}) {
    if (x.size() != a.n_inner || t.size() != a.n_outer || out.size() != a.n_outer) {
        throw DimensionMismatch("spmv_witness: x, t and out have sizes " +
                                std::to_string(x.size()) + ", " + std::to_string(t.size()) +
                                " and " + std::to_string(out.size()) + " but the matrix view has " +
                                std::to_string(a.n_inner) + " inner and " +
                                std::to_string(a.n_outer) + " outer indices");
    }
    const X* xv = x.data();
    const Y* tv = t.data();
    lindex_t* ov = out.data();
    const lindex_t* inner = a.inner;
    const offset_t* ptr = a.ptr;
    const detail::ValueReader<A> av(a.vals);
    const int threads = detail::threads_for(policy, a.nnz() + a.num_outer);
    const std::size_t chunk = std::max<std::size_t>(64, policy.chunk_rows);
    std::uint64_t entries = 0;
    if (a.outer_ids) std::fill(ov, ov + a.n_outer, no_witness);
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk) reduction(+ : entries) \
    if (threads > 1)
    for (std::size_t k = 0; k < a.num_outer; ++k) {
        const lindex_t i = a.outer_id(k);
        const Y target = tv[i];
        lindex_t found = no_witness;
        offset_t p = ptr[k];
        const offset_t e = ptr[k + 1];
        if (!(target == skip)) {
            for (; p < e; ++p) {
                // The inputs sit at random places: the one a few entries ahead is prefetched.
                if (p + 8 < e) __builtin_prefetch(xv + inner[p + 8]);
                if (S::mul(av(p), xv[inner[p]]) == target) {
                    found = inner[p];
                    ++p;
                    break;
                }
            }
        }
        entries += std::uint64_t(p - ptr[k]);
        ov[i] = found;
    }
    return entries;
}

}  // namespace gridblas::kernels
