#pragma once
/// @file huge_pages.hpp
/// @brief Asks for transparent huge pages under large arrays, before they are first written.
///
/// The searches read the matrix and the per-vertex arrays at random places: with 4 KiB pages
/// nearly every such read of an array larger than the TLB's reach (a few MiB) also walks the
/// page table. On Linux a range can ask for 2 MiB pages with madvise(MADV_HUGEPAGE), which
/// Debian's default THP mode ("madvise") requires and mode "always" does anyway; pages first
/// touched after the advice come as huge pages, at no cost beyond zeroing them. Arrays are
/// advised when they are allocated, not after: gathering pages already in use into huge pages
/// (MADV_COLLAPSE) copies them at about 0.4 GB/s on the development VM, far more than the
/// searches gain. Where the system refuses (THP "never", another OS) the calls do nothing.
/// GRIDBLAS_HUGE_PAGES=0 in the environment turns them off (for measuring their effect).

#include <cstddef>
#include <type_traits>
#include <vector>

namespace gridblas::detail {

/// Asks for huge pages over the whole huge pages inside [p, p + bytes): those first touched
/// afterwards are allocated as huge pages. Ranges shorter than one huge page are left alone.
/// Never throws; failures are ignored.
void advise_huge_pages(const void* p, std::size_t bytes) noexcept;

/// Gives `v` room for n elements in a buffer advised for huge pages before its first touch
/// (its elements are kept); does nothing when the capacity already suffices.
template <class T, class Alloc>
void reserve_huge(std::vector<T, Alloc>& v, std::size_t n) {
    if (v.capacity() >= n) return;
    if constexpr (std::is_same_v<T, bool>) {
        v.reserve(n);  // packed bits: no data pointer to advise
    } else {
        std::vector<T, Alloc> fresh(v.get_allocator());
        fresh.reserve(n);
        advise_huge_pages(fresh.data(), n * sizeof(T));
        fresh.insert(fresh.end(), v.begin(), v.end());
        v.swap(fresh);
    }
}

/// shrink_to_fit() into a buffer advised for huge pages (the elements are copied, as
/// shrink_to_fit does); nothing when there is no spare capacity.
template <class T, class Alloc>
void shrink_to_fit_huge(std::vector<T, Alloc>& v) {
    if (v.capacity() == v.size()) return;
    std::vector<T, Alloc> fit(v.get_allocator());
    reserve_huge(fit, v.size());
    fit.insert(fit.end(), v.begin(), v.end());
    v.swap(fit);
}

}  // namespace gridblas::detail
