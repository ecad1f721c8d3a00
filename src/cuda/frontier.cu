// Semiring-independent device routines of the CUDA backend: the CUB prefix scan, bitmap
// compaction into sorted sparse vectors, frontier conversions (sparse <-> bitmap), fills,
// and the bookkeeping kernels of the single-GPU BFS (levels, visited bits, frontier degree
// sums, parents recovered from levels as in Fu et al. 2014).
//
// Compaction works on words, not bits: each word's popcount is prefix-scanned (n/64 items),
// then one thread per word writes its set positions in order, so the output is sorted with
// no sort. Bitmaps follow Bisson et al. 2016: 64-bit words, atomicOr after a plain
// read. Everything runs on the default stream; callers synchronise when they read a count.

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda/backend.hpp"
#include "cuda/device_ops.cuh"
#include "cuda/frontier.hpp"
#include "gridblas/cuda/detail/entry_points.hpp"

namespace gridblas::cuda::detail {

namespace {

__global__ void word_popcounts(const std::uint64_t* bits, std::size_t nwords, offset_t* cnt) {
    for (std::uint64_t w = thread_index(); w < nwords; w += thread_count()) {
        cnt[w] = offset_t(__popcll(bits[w]));
    }
}

/// One thread per word: writes the word's set positions from its scan offset on.
template <class T>
__global__ void emit_bits(const std::uint64_t* bits, std::size_t nwords, const offset_t* scan,
                          const T* src, lindex_t* ind, T* val) {
    for (std::uint64_t w = thread_index(); w < nwords; w += thread_count()) {
        std::uint64_t b = bits[w];
        offset_t o = scan[w] - offset_t(__popcll(b));
        while (b) {
            const lindex_t i = lindex_t(w * 64 + std::uint64_t(__ffsll((long long)b) - 1));
            b &= b - 1;
            ind[o] = i;
            if constexpr (!std::is_same_v<T, Pattern>) val[o] = src[i];
            ++o;
        }
    }
}

__global__ void count_bits_kernel(const std::uint64_t* words, std::size_t nwords,
                                  std::uint64_t* count) {
    unsigned long long c = 0;
    for (std::uint64_t w = thread_index(); w < nwords; w += thread_count()) c += __popcll(words[w]);
    warp_add_counter(count, c);
}

template <class T>
__global__ void fill_kernel(T* p, std::size_t n, T value) {
    for (std::uint64_t k = thread_index(); k < n; k += thread_count()) p[k] = value;
}

__global__ void narrow_kernel(const offset_t* src, std::int32_t* dst, std::size_t n) {
    for (std::uint64_t k = thread_index(); k < n; k += thread_count())
        dst[k] = std::int32_t(src[k]);
}

/// Sets the bit (and value) of every sparse entry; y's words were cleared before.
template <class T>
__global__ void scatter_to_bitmap(const lindex_t* ind, const T* xval, std::size_t nvals,
                                  std::uint64_t* words, T* yval) {
    for (std::uint64_t k = thread_index(); k < nvals; k += thread_count()) {
        const lindex_t i = ind[k];
        set_bit(words, i);
        if constexpr (!std::is_same_v<T, Pattern>) yval[i] = xval[k];
    }
}

__global__ void mark_list_kernel(const lindex_t* ind, std::size_t n_new, std::int64_t* level,
                                 std::uint64_t* visited, std::int64_t depth) {
    for (std::uint64_t k = thread_index(); k < n_new; k += thread_count()) {
        const lindex_t v = ind[k];
        level[v] = depth;
        set_bit(visited, v);
    }
}

/// One thread per word: it owns visited[w], so no atomic is needed.
__global__ void mark_bitmap_kernel(const std::uint64_t* next, std::size_t nwords,
                                   std::int64_t* level, std::uint64_t* visited,
                                   std::int64_t depth) {
    for (std::uint64_t w = thread_index(); w < nwords; w += thread_count()) {
        std::uint64_t b = next[w];
        if (!b) continue;
        visited[w] |= b;
        while (b) {
            level[w * 64 + std::uint64_t(__ffsll((long long)b) - 1)] = depth;
            b &= b - 1;
        }
    }
}

__global__ void degree_list_kernel(const offset_t* rowptr, const lindex_t* ind, std::size_t n_list,
                                   std::uint64_t* sum) {
    unsigned long long s = 0;
    for (std::uint64_t k = thread_index(); k < n_list; k += thread_count()) {
        const lindex_t v = ind[k];
        s += rowptr[v + 1] - rowptr[v];
    }
    warp_add_counter(sum, s);
}

__global__ void degree_bitmap_kernel(const offset_t* rowptr, const std::uint64_t* bits, lindex_t n,
                                     std::uint64_t* sum) {
    unsigned long long s = 0;
    for (std::uint64_t v = thread_index(); v < n; v += thread_count()) {
        if (test_bit(bits, lindex_t(v))) s += rowptr[v + 1] - rowptr[v];
    }
    warp_add_counter(sum, s);
}

/// A warp per 32 consecutive vertices. The lanes read the 32 levels and row bounds at once
/// (coalesced; an unreached vertex, many in a skewed graph, needs nothing more), then the warp
/// scans the rows of the reached ones one after the other with warp_first_hit (a thread per
/// vertex left each long row to one thread scanning serially, and the whole launch waited for
/// it). A warp per vertex, as before, spent four dependent memory round trips on each reached
/// vertex and one on each unreached one at full occupancy: latency-bound at 18% of DRAM
/// bandwidth on an H100 (2026-11-26). Rows of the in-edge CSR are sorted, so the first
/// in-neighbour one level up is the smallest one: the same tree as the CPU BFS's `min` parent
/// mode.
__global__ void parents_kernel(const offset_t* in_ptr, const lindex_t* in_col, lindex_t n,
                               const std::int64_t* level, std::int64_t* parent, lindex_t source) {
    constexpr unsigned all = 0xffffffffu;
    const unsigned lane = threadIdx.x & 31;
    const std::uint64_t stride = thread_count();  // a multiple of 32: whole warps
    for (std::uint64_t first = thread_index() - lane; first < n; first += stride) {  // warp-uniform
        const std::uint64_t v = first + lane;
        const bool mine = v < n;
        const std::int64_t lv = mine ? level[v] : -1;
        std::int64_t p = mine && v == source ? std::int64_t(v) : -1;
        const bool scan = mine && lv > 0;  // reached, not the source (level 0)
        const offset_t b = scan ? in_ptr[v] : 0;
        const offset_t e = scan ? in_ptr[v + 1] : 0;
        for (unsigned todo = __ballot_sync(all, scan); todo != 0; todo &= todo - 1) {
            const int k = __ffs(int(todo)) - 1;
            const offset_t kb = __shfl_sync(all, b, k);
            const offset_t ke = __shfl_sync(all, e, k);
            const std::int64_t want = __shfl_sync(all, lv, k) - 1;
            const offset_t q =
                warp_first_hit(in_col, kb, ke, [&](lindex_t u) { return level[u] == want; });
            if (int(lane) == k && q < ke) p = std::int64_t(in_col[q]);
        }
        if (mine) parent[v] = p;
    }
}

}  // namespace

void inclusive_scan(const offset_t* in, offset_t* out, std::size_t n, Workspace::Impl& w) {
    std::size_t bytes = 0;
    GRIDBLAS_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, std::int64_t(n)));
    w.cub_temp.reserve(std::max<std::size_t>(bytes, 1));  // a null pointer would mean "query"
    GRIDBLAS_CUDA_CHECK(
        cub::DeviceScan::InclusiveSum(w.cub_temp.data(), bytes, in, out, std::int64_t(n)));
}

template <class T>
void compact_bits(const std::uint64_t* bits, lindex_t n, const T* src, lindex_t* ind, T* val,
                  std::uint64_t* count, Workspace::Impl& w) {
    const std::size_t nw = words_for(n);
    if (nw == 0) {
        GRIDBLAS_CUDA_CHECK(cudaMemset(count, 0, sizeof(std::uint64_t)));
        return;
    }
    w.word_count.reserve(nw * sizeof(offset_t));
    w.word_scan.reserve(nw * sizeof(offset_t));
    offset_t* cnt = w.word_count.as<offset_t>();
    offset_t* scan = w.word_scan.as<offset_t>();
    word_popcounts<<<grid_for(nw), kBlockSize>>>(bits, nw, cnt);
    check_launch("word_popcounts");
    inclusive_scan(cnt, scan, nw, w);
    emit_bits<T><<<grid_for(nw), kBlockSize>>>(bits, nw, scan, src, ind, val);
    check_launch("emit_bits");
    GRIDBLAS_CUDA_CHECK(
        cudaMemcpy(count, scan + (nw - 1), sizeof(std::uint64_t), cudaMemcpyDeviceToDevice));
}

void count_bits(const std::uint64_t* words, std::size_t nwords, std::uint64_t* count) {
    if (nwords == 0) return;
    count_bits_kernel<<<grid_for(nwords), kBlockSize>>>(words, nwords, count);
    check_launch("count_bits");
}

template <class T>
void fill(T* p, std::size_t n, T value) {
    if (n == 0) return;
    fill_kernel<T><<<grid_for(n), kBlockSize>>>(p, n, value);
    check_launch("fill");
}

void narrow_offsets(const offset_t* src, std::int32_t* dst, std::size_t n) {
    if (n == 0) return;
    narrow_kernel<<<grid_for(n), kBlockSize>>>(src, dst, n);
    check_launch("narrow_offsets");
}

void bfs_mark_list(const lindex_t* ind, std::size_t n_new, std::int64_t* level,
                   std::uint64_t* visited, std::int64_t depth) {
    if (n_new == 0) return;
    mark_list_kernel<<<grid_for(n_new), kBlockSize>>>(ind, n_new, level, visited, depth);
    check_launch("bfs_mark_list");
}

void bfs_mark_bitmap(const std::uint64_t* next, std::size_t nwords, std::int64_t* level,
                     std::uint64_t* visited, std::int64_t depth) {
    if (nwords == 0) return;
    mark_bitmap_kernel<<<grid_for(nwords), kBlockSize>>>(next, nwords, level, visited, depth);
    check_launch("bfs_mark_bitmap");
}

void degree_sum_list(const offset_t* rowptr, const lindex_t* ind, std::size_t n_list,
                     std::uint64_t* sum) {
    if (n_list == 0) return;
    degree_list_kernel<<<grid_for(n_list), kBlockSize>>>(rowptr, ind, n_list, sum);
    check_launch("degree_sum_list");
}

void degree_sum_bitmap(const offset_t* rowptr, const std::uint64_t* bits, lindex_t n,
                       std::uint64_t* sum) {
    if (n == 0) return;
    degree_bitmap_kernel<<<grid_for(n), kBlockSize>>>(rowptr, bits, n, sum);
    check_launch("degree_sum_bitmap");
}

void bfs_parents_from_levels(const offset_t* in_ptr, const lindex_t* in_col, lindex_t n,
                             const std::int64_t* level, std::int64_t* parent, lindex_t source) {
    if (n == 0) return;
    parents_kernel<<<grid_for(n), kBlockSize>>>(in_ptr, in_col, n, level, parent, source);
    check_launch("bfs_parents_from_levels");
}

// ---- frontier conversions (public entry points) ----

template <class T>
std::size_t sparse_to_bitmap(const DeviceSparseView<T>& x, const DeviceOutput<T>& y) {
    const std::size_t nw = words_for(y.n);
    if (nw > 0) GRIDBLAS_CUDA_CHECK(cudaMemset(y.words, 0, nw * sizeof(std::uint64_t)));
    if (x.nvals > 0) {
        scatter_to_bitmap<T>
            <<<grid_for(x.nvals), kBlockSize>>>(x.ind, x.val, x.nvals, y.words, y.val);
        check_launch("scatter_to_bitmap");
    }
    GRIDBLAS_CUDA_CHECK(cudaDeviceSynchronize());
    return x.nvals;
}

template <class T>
std::size_t bitmap_to_sparse(const DeviceBitmapView<T>& x, const DeviceOutput<T>& y,
                             Workspace& ws) {
    Workspace::Impl& w = ws.impl();
    std::uint64_t* counters = w.counter_ptr();
    compact_bits<T>(x.words, x.n, x.val, y.ind, y.val, counters + kOutCount, w);
    std::uint64_t host[kNumCounters];
    w.read_counters(host);
    return std::size_t(host[kOutCount]);
}

#define GRIDBLAS_CUDA_INSTANTIATE_FRONTIER_(T)                                             \
    template void compact_bits<T>(const std::uint64_t*, lindex_t, const T*, lindex_t*, T*, \
                                  std::uint64_t*, Workspace::Impl&);                       \
    GRIDBLAS_CUDA_INSTANTIATE_CONVERSIONS(T)
GRIDBLAS_CUDA_FOR_EACH_VALUE_TYPE(GRIDBLAS_CUDA_INSTANTIATE_FRONTIER_)
#undef GRIDBLAS_CUDA_INSTANTIATE_FRONTIER_

#define GRIDBLAS_CUDA_INSTANTIATE_FILL_(T) template void fill<T>(T*, std::size_t, T);
GRIDBLAS_CUDA_INSTANTIATE_FILL_(std::uint8_t)
GRIDBLAS_CUDA_INSTANTIATE_FILL_(std::int32_t)
GRIDBLAS_CUDA_INSTANTIATE_FILL_(std::uint32_t)
GRIDBLAS_CUDA_INSTANTIATE_FILL_(std::int64_t)
GRIDBLAS_CUDA_INSTANTIATE_FILL_(float)
GRIDBLAS_CUDA_INSTANTIATE_FILL_(double)
#undef GRIDBLAS_CUDA_INSTANTIATE_FILL_

}  // namespace gridblas::cuda::detail
