// release_free_heap(): glibc's malloc_trim where the C library is glibc, nothing elsewhere.

#include "gridblas/matrix/detail/heap.hpp"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gridblas::detail {

void release_free_heap() noexcept {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

}  // namespace gridblas::detail
