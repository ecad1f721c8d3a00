// advise_huge_pages(): madvise(MADV_HUGEPAGE) over the huge-page-aligned interior of a range,
// on Linux; nothing elsewhere.

#include "gridblas/matrix/detail/huge_pages.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gridblas::detail {

#if defined(__linux__)
namespace {

/// The PMD-sized transparent huge page of this system (2 MiB on x86-64), or 0 when
/// transparent huge pages are unavailable or turned off by GRIDBLAS_HUGE_PAGES=0.
std::size_t huge_page_bytes() {
    static const std::size_t bytes = [] {
        if (const char* e = std::getenv("GRIDBLAS_HUGE_PAGES"); e && std::strcmp(e, "0") == 0) {
            return std::size_t(0);
        }
        std::ifstream f("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
        std::size_t b = 0;
        if (!(f >> b) || b == 0 || (b & (b - 1)) != 0) return std::size_t(0);
        return b;
    }();
    return bytes;
}

}  // namespace
#endif

void advise_huge_pages(const void* p, std::size_t bytes) noexcept {
#if defined(__linux__)
    try {
        const std::size_t huge = huge_page_bytes();
        if (huge == 0 || p == nullptr) return;
        const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
        const std::uintptr_t lo = (a + huge - 1) & ~std::uintptr_t(huge - 1);
        const std::uintptr_t hi = (a + bytes) & ~std::uintptr_t(huge - 1);
        if (hi <= lo) return;
        // Pages faulted after this come as huge pages; a refusal changes nothing.
        (void)madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
    } catch (...) {
    }
#else
    (void)p;
    (void)bytes;
#endif
}

}  // namespace gridblas::detail
