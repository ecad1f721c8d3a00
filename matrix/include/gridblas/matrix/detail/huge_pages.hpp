#pragma once
/// @file huge_pages.hpp
/// @brief Backs large arrays with transparent huge pages where the system allows it.
///
/// The searches read the matrix and the per-vertex arrays at random places: with 4 KiB pages
/// nearly every such read of a block larger than the TLB's reach (a few MiB) also walks the
/// page table. On Linux an array can ask for 2 MiB pages with madvise (MADV_HUGEPAGE before
/// its pages are first touched; MADV_COLLAPSE for pages already in use, Linux 6.1 and later),
/// which Debian's default THP setting ("madvise") requires and "always" does anyway. Where the
/// system refuses (THP "never", an older kernel, another OS) the calls do nothing. Setting
/// GRIDBLAS_HUGE_PAGES=0 in the environment turns them off (for measuring their effect).

#include <cstddef>
#include <type_traits>
#include <vector>

namespace gridblas::detail {

/// Asks for huge pages over the whole huge pages inside [p, p + bytes): those not touched yet
/// are allocated as huge pages on first touch, those in use are copied into huge pages now
/// (synchronously: about the cost of copying them). Ranges shorter than one huge page are
/// left alone. Never throws; failures are ignored.
void back_with_huge_pages(const void* p, std::size_t bytes) noexcept;

/// Gives `v` room for n elements in a buffer advised for huge pages before its first touch
/// (its elements are kept); does nothing when the capacity already suffices.
template <class T>
void reserve_huge(std::vector<T>& v, std::size_t n) {
    if (v.capacity() >= n) return;
    if constexpr (std::is_same_v<T, bool>) {
        v.reserve(n);  // packed bits: no data pointer to advise
    } else {
        std::vector<T> fresh;
        fresh.reserve(n);
        back_with_huge_pages(fresh.data(), n * sizeof(T));
        fresh.insert(fresh.end(), v.begin(), v.end());
        v.swap(fresh);
    }
}

}  // namespace gridblas::detail
