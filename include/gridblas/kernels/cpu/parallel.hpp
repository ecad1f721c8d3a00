#pragma once
/// @file parallel.hpp
/// @brief OpenMP helpers shared by the CPU kernels: thread counts that degrade to one thread
/// when OpenMP is off, the tuning knobs every kernel accepts (ParallelPolicy), and the small
/// statistics record the kernels return (KernelStats).
///
/// The kernels follow the GapBS habit of deciding per call whether a parallel region pays for
/// itself: below `min_parallel_work` units of work they run on the calling thread.

#include <algorithm>
#include <cstddef>
#include <cstdint>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace gridblas::kernels {

/// How a kernel may use threads. The defaults suit production; tests lower the thresholds
/// so that small inputs still take the parallel code paths.
struct ParallelPolicy {
    /// Work (matrix entries or rows) below which a kernel runs serially.
    std::size_t min_parallel_work = std::size_t(1) << 14;
    /// Rows per dynamically scheduled chunk in the row-wise kernels (rounded up to 64).
    std::size_t chunk_rows = 1024;
    /// Upper bound on threads; 0 means omp_get_max_threads().
    int max_threads = 0;
};

/// Which SpMSpV algorithm ran (or should run).
enum class SpmspvMethod {
    automatic,  ///< pick by the flop count (see spmspv_choose_method())
    spa,        ///< sparse accumulator over the output index space
    sort,       ///< gather (index, value) products, radix sort, reduce runs
};

/// What a kernel did, for load statistics and for edges-per-second counters.
struct KernelStats {
    /// Matrix entries the kernel read (after early exits and mask skips).
    std::uint64_t entries = 0;
    /// Entries in the output.
    std::size_t nvals = 0;
    /// For SpMSpV: the method that ran. Unused by the other kernels.
    SpmspvMethod method = SpmspvMethod::automatic;
};

namespace detail {

/// Threads the policy allows for `work` units of work (at least 1).
inline int threads_for(const ParallelPolicy& policy, std::size_t work) {
#if defined(_OPENMP)
    if (work < policy.min_parallel_work) return 1;
    int t = omp_get_max_threads();
    if (policy.max_threads > 0) t = std::min(t, policy.max_threads);
    return std::max(t, 1);
#else
    (void)policy;
    (void)work;
    return 1;
#endif
}

/// One thread per `per_thread` units of `work` (none: 0), at most what the policy allows and
/// whatever its min_parallel_work; 1 below two threads' worth.
inline int threads_per_share(const ParallelPolicy& policy, std::size_t work,
                             std::size_t per_thread) {
    if (per_thread == 0 || work / per_thread < 2) return 1;
    ParallelPolicy any_work = policy;
    any_work.min_parallel_work = 0;
    return int(std::min<std::size_t>(work / per_thread, std::size_t(threads_for(any_work, 1))));
}

/// Id of the calling thread inside a parallel region (0 outside).
inline int thread_id() {
#if defined(_OPENMP)
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/// Threads in the current parallel region (1 outside).
inline int team_size() {
#if defined(_OPENMP)
    return omp_get_num_threads();
#else
    return 1;
#endif
}

/// Calls body(t) once for each t in [0, parts): on up to `parts` OpenMP threads, or directly
/// on the calling thread when parts is 1. (libgomp ends even a one-thread region with a
/// futex system call, about 0.35 µs on the development VM, which the small levels of a
/// high-diameter BFS would pay several times each.) If the runtime grants fewer threads,
/// some run several parts, one after the other.
template <class Body>
void run_parts(int parts, Body&& body) {
#if defined(_OPENMP)
    if (parts > 1) {
#pragma omp parallel for num_threads(parts) schedule(static, 1)
        for (int t = 0; t < parts; ++t) body(t);
        return;
    }
#endif
    for (int t = 0; t < parts; ++t) body(t);
}

/// Runs `body()` as an OpenMP parallel region of `threads` threads, or calls it directly when
/// threads is 1 (see run_parts() for why), unless the caller is already inside a parallel
/// region: then a region of one thread keeps thread_id() and team_size() at 0 and 1. The
/// body reads its place from thread_id() and team_size(); its `omp barrier` and `omp for`
/// constructs work in either case (outside a region they bind to a team of one).
template <class Body>
void run_team(int threads, Body&& body) {
#if defined(_OPENMP)
    if (threads > 1 || omp_in_parallel()) {
#pragma omp parallel num_threads(threads)
        body();
        return;
    }
#endif
    body();
}

/// Begin of part `t` of `n` items cut into `parts` balanced contiguous parts.
inline std::size_t part_begin(std::size_t n, int t, int parts) {
    return std::size_t(std::uint64_t(n) * std::uint64_t(t) / std::uint64_t(parts));
}

}  // namespace detail
}  // namespace gridblas::kernels
