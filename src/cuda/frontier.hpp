#pragma once
// Internal declarations of src/cuda/frontier.cu: the semiring-independent device routines
// that the kernels, the conversions and the single-GPU BFS share (CUB scan, bitmap
// compaction, fills, BFS bookkeeping). Raw device pointers only; every routine queues its
// work on the default stream and returns without synchronising.

#include <cstddef>
#include <cstdint>

#include "cuda/backend.hpp"
#include "gridblas/core/types.hpp"

namespace gridblas::cuda::detail {

/// out[k] = in[0] + ... + in[k] for k < n (CUB DeviceScan); n >= 1.
void inclusive_scan(const offset_t* in, offset_t* out, std::size_t n, Workspace::Impl& w);

/// Compaction of a bitmap of n bits (bits past n clear): writes the set positions ascending
/// to ind[] and, unless T is Pattern, val[k] = src[ind[k]]; stores their number in *count.
template <class T>
void compact_bits(const std::uint64_t* bits, lindex_t n, const T* src, lindex_t* ind, T* val,
                  std::uint64_t* count, Workspace::Impl& w);

/// *count = number of set bits in words[0 .. nwords) (added to *count: zero it first).
void count_bits(const std::uint64_t* words, std::size_t nwords, std::uint64_t* count);

/// p[0 .. n) = value.
template <class T>
void fill(T* p, std::size_t n, T value);

/// dst[k] = int32(src[k]) for k < n (row pointers for cuSPARSE; values < 2^31 checked by
/// the caller).
void narrow_offsets(const offset_t* src, std::int32_t* dst, std::size_t n);

// ---- single-GPU BFS bookkeeping (see bfs_single_gpu.cpp) ----

/// For each of the n_new vertices ind[k]: level = depth, visited bit set.
void bfs_mark_list(const lindex_t* ind, std::size_t n_new, std::int64_t* level,
                   std::uint64_t* visited, std::int64_t depth);

/// For each bit set in next[0 .. nwords): level = depth; visited |= next.
void bfs_mark_bitmap(const std::uint64_t* next, std::size_t nwords, std::int64_t* level,
                     std::uint64_t* visited, std::int64_t depth);

/// *sum += Σ (rowptr[v+1] - rowptr[v]) over the listed vertices.
void degree_sum_list(const offset_t* rowptr, const lindex_t* ind, std::size_t n_list,
                     std::uint64_t* sum);

/// *sum += Σ (rowptr[v+1] - rowptr[v]) over the vertices whose bit is set (n vertices).
void degree_sum_bitmap(const offset_t* rowptr, const std::uint64_t* bits, lindex_t n,
                       std::uint64_t* sum);

/// Parents from levels (Fu et al. 2014): for every reached v other than the source, parent(v) is
/// the first in-neighbour u (smallest id: in_col is sorted per row) with level(u) ==
/// level(v) - 1; the source is its own parent; unreached vertices get -1.
void bfs_parents_from_levels(const offset_t* in_ptr, const lindex_t* in_col, lindex_t n,
                             const std::int64_t* level, std::int64_t* parent, lindex_t source);

}  // namespace gridblas::cuda::detail
