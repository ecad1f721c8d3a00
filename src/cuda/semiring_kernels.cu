// The semiring kernels of the CUDA backend, instantiated for the built-in semirings of
// GRIDBLAS_CUDA_FOR_EACH_BUILTIN (entry_points.hpp):
//
//  push (SpMSpV, top-down BFS): y⟨mask⟩ = M ⊕.⊗ x over a view with outer = input index j.
//    1. plan: one thread per entry x(j) finds column j (binary search in the DCSC's column
//       ids, or directly for CSR) and records where it starts and how long it is;
//    2. an inclusive CUB scan of the lengths numbers the frontier's edges 0 .. flops-1;
//    3. expand: one thread per edge e (grid-stride) finds its frontier entry by binary
//       search in the scan, forms S::mul(M(i,j), x(j)) and combines it into a dense
//       accumulator with the add monoid's atomic, setting bit i of a staging bitmap.
//    This is the thread-per-edge load balancing of Bisson, Bernaschi & Mastrostefano 2016 (§3.4:
//    exclusive scan + binary search, atomics instead of scatter/compact) — work is split by edges,
//    so one hub vertex cannot stall a thread block. The paper's "4 edges per thread" variant is a
//    tuning step left for measurement on hardware.
//  pull (masked SpMV, bottom-up BFS): y⟨mask⟩ = M ⊕.⊗ x over a view with outer = output
//    index i and x a bitmap; one thread per allowed row scans it with early exit at the add
//    monoid's terminal value (Beamer et al., SC'12); rows longer than a warp go to a queue
//    that a second kernel works through with one warp per row (the degree split used by
//    the GPU BFS of Merrill et al. 2012), the warp stopping as soon as any lane is terminal.
//
//  Both finish from the staging bitmap: a sparse output is compacted (scan over words, so
//  indices come out sorted), a bitmap output is written in place and its bits counted. The
//  host reads back one small counter block, the only synchronisation of a call.
//
// Atomics per add monoid: min/max → atomicMin/atomicMax for 32/64-bit integers, a
// compare-and-swap loop for float/double; plus → atomicAdd; any and lor → plain stores of
// the same value (idempotent, so races are benign and no atomic is needed).

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda/backend.hpp"
#include "cuda/device_ops.cuh"
#include "cuda/frontier.hpp"
#include "gridblas/cuda/detail/entry_points.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas::cuda::detail {

namespace {

enum class AddKind { min, max, plus, any, lor };

/// The add monoid of each built-in semiring (the device kernels only need its kind).
template <class S>
struct add_kind;
template <class T>
struct add_kind<select2nd_min<T>> : std::integral_constant<AddKind, AddKind::min> {};
template <class T>
struct add_kind<min_plus<T>> : std::integral_constant<AddKind, AddKind::min> {};
template <class T>
struct add_kind<max_times<T>> : std::integral_constant<AddKind, AddKind::max> {};
template <class T>
struct add_kind<plus_times<T>> : std::integral_constant<AddKind, AddKind::plus> {};
template <class T>
struct add_kind<plus_pair<T>> : std::integral_constant<AddKind, AddKind::plus> {};
template <class T>
struct add_kind<any_pair<T>> : std::integral_constant<AddKind, AddKind::any> {};
template <class T>
struct add_kind<lor_land<T>> : std::integral_constant<AddKind, AddKind::lor> {};

/// Rows longer than this are pulled by a whole warp.
constexpr offset_t kHeavyRow = 32;

template <class S>
__device__ __forceinline__ bool terminal(typename S::value_type v) {
    if constexpr (S::has_terminal) {
        return S::is_terminal(v);
    } else {
        return false;
    }
}

/// *p = S::add(*p, v) by compare-and-swap on the value's bits (4- or 8-byte types).
template <class S, class Y>
__device__ void cas_combine(Y* p, Y v) {
    using W = std::conditional_t<sizeof(Y) == 4, unsigned int, unsigned long long>;
    static_assert(sizeof(Y) == sizeof(W), "cas_combine: 4- or 8-byte values only");
    W* wp = reinterpret_cast<W*>(p);
    W old = *reinterpret_cast<volatile W*>(wp);
    while (true) {
        Y cur;
        memcpy(&cur, &old, sizeof(Y));
        const Y next = S::add(cur, v);
        W want;
        memcpy(&want, &next, sizeof(Y));
        if (want == old) return;  // v does not change the value
        const W seen = atomicCAS(wp, old, want);
        if (seen == old) return;
        old = seen;
    }
}

template <class Y>
__device__ __forceinline__ void atomic_plus(Y* p, Y v) {
    if constexpr (std::is_same_v<Y, float> || std::is_same_v<Y, double>) {
        atomicAdd(p, v);
    } else if constexpr (sizeof(Y) == 4) {  // two's complement: unsigned add is signed add
        atomicAdd(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(v));
    } else {
        static_assert(sizeof(Y) == 8, "atomic_plus: 4- or 8-byte values only");
        atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
    }
}

template <class S, class Y>
__device__ __forceinline__ void atomic_minmax(Y* p, Y v) {
    constexpr bool is_min = add_kind<S>::value == AddKind::min;
    if constexpr (std::is_integral_v<Y> && sizeof(Y) == 4 && std::is_signed_v<Y>) {
        int* q = reinterpret_cast<int*>(p);
        is_min ? atomicMin(q, int(v)) : atomicMax(q, int(v));
    } else if constexpr (std::is_integral_v<Y> && sizeof(Y) == 4) {
        unsigned int* q = reinterpret_cast<unsigned int*>(p);
        is_min ? atomicMin(q, (unsigned int)v) : atomicMax(q, (unsigned int)v);
    } else if constexpr (std::is_integral_v<Y> && sizeof(Y) == 8 && std::is_signed_v<Y>) {
        long long* q = reinterpret_cast<long long*>(p);
        is_min ? atomicMin(q, (long long)v) : atomicMax(q, (long long)v);
    } else if constexpr (std::is_integral_v<Y> && sizeof(Y) == 8) {
        unsigned long long* q = reinterpret_cast<unsigned long long*>(p);
        is_min ? atomicMin(q, (unsigned long long)v) : atomicMax(q, (unsigned long long)v);
    } else {
        cas_combine<S>(p, v);  // float, double
    }
}

/// acc[i] = S::add(acc[i], v), safe against concurrent callers.
template <class S, class Y>
__device__ __forceinline__ void atomic_combine(Y* p, Y v) {
    constexpr AddKind k = add_kind<S>::value;
    if constexpr (k == AddKind::any) {
        *p = v;  // any product is a valid result; aligned stores do not tear
    } else if constexpr (k == AddKind::lor) {
        if (v != Y(0)) *p = Y(1);  // acc starts at 0; every writer stores the same 1
    } else if constexpr (k == AddKind::plus) {
        atomic_plus(p, v);
    } else {
        atomic_minmax<S>(p, v);
    }
}

/// Shuffles any 1..8-byte value across the warp (through its bits).
template <class Y>
__device__ __forceinline__ Y shfl_xor(Y v, int lane_mask) {
    unsigned long long bits = 0;
    memcpy(&bits, &v, sizeof(Y));
    bits = __shfl_xor_sync(0xffffffffu, bits, lane_mask);
    Y r;
    memcpy(&r, &bits, sizeof(Y));
    return r;
}

// ---- push ----

/// begin[k], len[k]: the entries of the column that x's k-th entry selects (len 0 if none).
__global__ void plan_columns(bool hyper, const lindex_t* outer_ids, std::size_t num_outer,
                             const offset_t* ptr, const lindex_t* xind, std::size_t nx,
                             offset_t* begin, offset_t* len) {
    for (std::uint64_t k = thread_index(); k < nx; k += thread_count()) {
        const lindex_t j = xind[k];
        std::size_t pos = j;
        bool found = true;
        if (hyper) {  // lower_bound of j in the sorted column ids
            std::size_t lo = 0, hi = num_outer;
            while (lo < hi) {
                const std::size_t mid = lo + (hi - lo) / 2;
                if (outer_ids[mid] < j) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            pos = lo;
            found = lo < num_outer && outer_ids[lo] == j;
        }
        const offset_t b = found ? ptr[pos] : 0;
        begin[k] = b;
        len[k] = found ? ptr[pos + 1] - b : 0;
    }
}

/// One thread per frontier edge e < scan[nx-1] (nx >= 1).
template <class S, class A>
__global__ void expand_edges(const lindex_t* inner, const A* vals,
                             const typename S::value_type* xval, std::size_t nx,
                             const offset_t* begin, const offset_t* scan, DeviceMask mask,
                             typename S::value_type* acc, std::uint64_t* bits) {
    using Y = typename S::value_type;
    const offset_t total = scan[nx - 1];
    for (offset_t e = thread_index(); e < total; e += thread_count()) {
        // The frontier entry owning edge e: the first k with scan[k] > e.
        std::size_t lo = 0, hi = nx - 1;
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (scan[mid] > e) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        const offset_t first = lo == 0 ? 0 : scan[lo - 1];
        const offset_t p = begin[lo] + (e - first);
        const lindex_t i = inner[p];
        if (!mask_allows(mask, i)) continue;
        atomic_combine<S>(acc + i, Y(S::mul(load_value(vals, p), xval[lo])));
        set_bit(bits, i);
    }
}

// ---- pull ----

/// Thread per stored row position k; long rows are queued for pull_heavy.
template <class S, class A>
__global__ void pull_light(CompressedDeviceView<A> a, DeviceBitmapView<typename S::value_type> x,
                           DeviceMask mask, typename S::value_type* acc, std::uint64_t* bits,
                           lindex_t* heavy, std::uint64_t* counters) {
    using Y = typename S::value_type;
    unsigned long long entries = 0;
    for (std::uint64_t k = thread_index(); k < a.num_outer; k += thread_count()) {
        const lindex_t i = a.hyper ? a.outer_ids[k] : lindex_t(k);
        if (!mask_allows(mask, i)) continue;
        const offset_t b = a.ptr[k];
        const offset_t e = a.ptr[k + 1];
        if (e - b > kHeavyRow) {
            queue_push(counters + kHeavyRows, heavy, lindex_t(k));
            continue;
        }
        Y r{};
        bool has = false;
        offset_t p = b;
        while (p < e) {
            const lindex_t j = a.inner[p];
            const offset_t q = p++;
            if (!test_bit(x.words, j)) continue;
            const Y v = S::mul(load_value(a.vals, q), load_value(x.val, j));
            r = has ? Y(S::add(r, v)) : v;
            has = true;
            if (terminal<S>(r)) break;
        }
        entries += p - b;
        if (has) {
            acc[i] = r;
            set_bit(bits, i);
        }
    }
    warp_add_counter(counters + kEntries, entries);
}

/// One warp per queued row. Lane l reads entries b+l, b+l+32, ...; after each round of 32 the
/// warp stops if any lane's partial result is terminal (it absorbs the rest). The partials
/// are then combined with the add monoid by a butterfly of shuffles.
template <class S, class A>
__global__ void pull_heavy(CompressedDeviceView<A> a, DeviceBitmapView<typename S::value_type> x,
                           typename S::value_type* acc, std::uint64_t* bits, const lindex_t* heavy,
                           std::uint64_t* counters) {
    using Y = typename S::value_type;
    const unsigned lane = threadIdx.x & 31;
    const std::uint64_t warps = thread_count() / 32;
    const std::uint64_t nheavy = counters[kHeavyRows];  // written by pull_light
    unsigned long long entries = 0;
    for (std::uint64_t h = thread_index() / 32; h < nheavy; h += warps) {  // warp-uniform
        const std::size_t k = heavy[h];
        const lindex_t i = a.hyper ? a.outer_ids[k] : lindex_t(k);
        const offset_t b = a.ptr[k];
        const offset_t e = a.ptr[k + 1];
        Y r{};
        bool has = false;
        for (offset_t base = b; base < e; base += 32) {  // warp-uniform
            const offset_t p = base + lane;
            if (p < e) {
                ++entries;
                const lindex_t j = a.inner[p];
                if (test_bit(x.words, j)) {
                    const Y v = S::mul(load_value(a.vals, p), load_value(x.val, j));
                    r = has ? Y(S::add(r, v)) : v;
                    has = true;
                }
            }
            if constexpr (S::has_terminal) {
                if (__any_sync(0xffffffffu, has && terminal<S>(r))) break;
            }
        }
        for (int off = 16; off > 0; off >>= 1) {
            const bool other_has = __shfl_xor_sync(0xffffffffu, int(has), off) != 0;
            const Y other = shfl_xor(r, off);
            if (other_has) {
                r = has ? Y(S::add(r, other)) : other;
                has = true;
            }
        }
        if (lane == 0 && has) {
            acc[i] = r;
            set_bit(bits, i);
        }
    }
    warp_add_counter(counters + kEntries, entries);
}

/// Staging of a kernel's result: the output's own arrays for a bitmap output, the
/// workspace's for a sparse one (compacted afterwards).
template <class Y>
struct Staging {
    std::uint64_t* bits;
    Y* acc;
};

template <class Y>
Staging<Y> staging_for(const DeviceOutput<Y>& y, Workspace::Impl& w) {
    if (y.bitmap) return {y.words, y.val};
    w.bits.reserve(words_for(y.n) * sizeof(std::uint64_t));
    w.acc.reserve(std::size_t(y.n) * sizeof(Y));
    return {w.bits.as<std::uint64_t>(), w.acc.as<Y>()};
}

/// Compacts or counts the staged result, reads the counters back (the call's one
/// synchronisation) and returns them as statistics.
template <class Y>
KernelStats finish(const DeviceOutput<Y>& y, const Staging<Y>& s, Workspace::Impl& w) {
    std::uint64_t* counters = w.counter_ptr();
    if (y.bitmap) {
        count_bits(s.bits, words_for(y.n), counters + kOutCount);
    } else {
        compact_bits<Y>(s.bits, y.n, s.acc, y.ind, y.val, counters + kOutCount, w);
    }
    std::uint64_t host[kNumCounters];
    w.read_counters(host);
    KernelStats st;
    st.nvals = std::size_t(host[kOutCount]);
    st.entries = host[kEntries];
    return st;
}

}  // namespace

template <class S, class A>
KernelStats push(const CompressedDeviceView<A>& a,
                 const DeviceSparseView<typename S::value_type>& x, const DeviceMask& mask,
                 const DeviceOutput<typename S::value_type>& y, Workspace& ws) {
    using Y = typename S::value_type;
    Workspace::Impl& w = ws.impl();
    const lindex_t n = y.n;  // == a.n_inner (checked by the caller)
    const std::size_t nw = words_for(n);
    w.zero_counters();
    const Staging<Y> s = staging_for(y, w);
    if (nw > 0) GRIDBLAS_CUDA_CHECK(cudaMemset(s.bits, 0, nw * sizeof(std::uint64_t)));
    if (x.nvals == 0 || a.nnz == 0 || n == 0 || mask.allows_none()) return finish(y, s, w);

    const std::size_t nx = x.nvals;
    w.plan_begin.reserve(nx * sizeof(offset_t));
    w.plan_len.reserve(nx * sizeof(offset_t));
    w.plan_scan.reserve(nx * sizeof(offset_t));
    offset_t* begin = w.plan_begin.as<offset_t>();
    offset_t* len = w.plan_len.as<offset_t>();
    offset_t* scan = w.plan_scan.as<offset_t>();
    plan_columns<<<grid_for(nx), kBlockSize>>>(a.hyper, a.outer_ids, a.num_outer, a.ptr, x.ind, nx,
                                               begin, len);
    check_launch("plan_columns");
    inclusive_scan(len, scan, nx, w);

    // The accumulator starts at the monoid's identity (lor/any rely on 0 too).
    fill<Y>(s.acc, n, Y(S::zero()));
    // a.nnz bounds the edge count (x's indices are distinct), so it sizes the grid without
    // reading the scan's total back to the host.
    expand_edges<S, A><<<grid_for(a.nnz), kBlockSize>>>(a.inner, a.vals, x.val, nx, begin, scan,
                                                        mask, s.acc, s.bits);
    check_launch("expand_edges");
    GRIDBLAS_CUDA_CHECK(cudaMemcpy(w.counter_ptr() + kEntries, scan + (nx - 1),
                                   sizeof(std::uint64_t), cudaMemcpyDeviceToDevice));
    return finish(y, s, w);
}

template <class S, class A>
KernelStats pull(const CompressedDeviceView<A>& a,
                 const DeviceBitmapView<typename S::value_type>& x, const DeviceMask& mask,
                 const DeviceOutput<typename S::value_type>& y, Workspace& ws) {
    using Y = typename S::value_type;
    Workspace::Impl& w = ws.impl();
    const lindex_t n = y.n;  // == a.n_outer
    const std::size_t nw = words_for(n);
    w.zero_counters();
    const Staging<Y> s = staging_for(y, w);
    if (nw > 0) GRIDBLAS_CUDA_CHECK(cudaMemset(s.bits, 0, nw * sizeof(std::uint64_t)));
    if (a.nnz == 0 || n == 0 || mask.allows_none()) return finish(y, s, w);

    // At most min(rows, nnz / 33) rows are heavy.
    const std::uint64_t max_heavy = std::min<std::uint64_t>(a.num_outer, a.nnz / (kHeavyRow + 1));
    w.heavy.reserve(std::max<std::uint64_t>(max_heavy, 1) * sizeof(lindex_t));
    lindex_t* heavy = w.heavy.as<lindex_t>();
    std::uint64_t* counters = w.counter_ptr();
    pull_light<S, A>
        <<<grid_for(a.num_outer), kBlockSize>>>(a, x, mask, s.acc, s.bits, heavy, counters);
    check_launch("pull_light");
    if (max_heavy > 0) {
        pull_heavy<S, A>
            <<<grid_for(max_heavy * 32), kBlockSize>>>(a, x, s.acc, s.bits, heavy, counters);
        check_launch("pull_heavy");
    }
    return finish(y, s, w);
}

GRIDBLAS_CUDA_FOR_EACH_BUILTIN(GRIDBLAS_CUDA_INSTANTIATE_KERNELS)

}  // namespace gridblas::cuda::detail
