#pragma once
/// @file default_init.hpp
/// @brief A std::vector whose resize(n) leaves new arithmetic elements unwritten, for
/// buffers that the caller fills whole right after growing them (a value-initialising
/// resize would first write every new element with zero: a second pass over the memory).

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace gridblas::detail {

/// std::allocator whose construct(p) with no arguments default-initialises (`new (p) U`)
/// instead of value-initialising; construction with arguments is unchanged.
template <class E>
struct DefaultInitAllocator : std::allocator<E> {
    template <class U>
    struct rebind {
        using other = DefaultInitAllocator<U>;
    };
    using std::allocator<E>::allocator;
    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        std::allocator_traits<std::allocator<E>>::construct(static_cast<std::allocator<E>&>(*this),
                                                            p, std::forward<Args>(args)...);
    }
};

/// A vector for lists that are written whole after each resize (see the file comment).
template <class T>
using OverwriteVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace gridblas::detail
