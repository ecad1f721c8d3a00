#pragma once
// Unsigned LEB128 varints, used by the id frames (wire.cpp) and by the block headers of the
// butterfly exchanges. Private to src/comm.

#include <cstddef>
#include <cstdint>

#include "gridblas/core/error.hpp"

namespace gridblas::comm::detail {

/// Bytes the varint of `v` takes (1 to 10).
inline std::size_t varint_size(std::uint64_t v) {
    std::size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        ++n;
    }
    return n;
}

/// Writes the varint of `v` at `p`; returns the byte after it.
inline char* put_varint(char* p, std::uint64_t v) {
    while (v >= 0x80) {
        *p++ = static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<char>(v);
    return p;
}

/// Reads a varint from [p, end) into `v`; returns the byte after it. Throws CommError on a
/// truncated or over-long varint.
inline const char* get_varint(const char* p, const char* end, std::uint64_t& v) {
    v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (p == end) throw CommError("truncated varint in a received message");
        const auto b = static_cast<unsigned char>(*p++);
        v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if ((b & 0x80) == 0) return p;
    }
    throw CommError("over-long varint in a received message");
}

}  // namespace gridblas::comm::detail
