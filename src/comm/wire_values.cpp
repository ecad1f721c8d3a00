// Fixed-width bit packing of the values that travel beside an id frame (see wire.hpp):
// one width per message, the bit width of its largest value, as the delta frames do for
// gaps (Young et al. 2016: pack to the entropy the message actually has).

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "gridblas/comm/wire.hpp"
#include "gridblas/core/error.hpp"
#include "varint.hpp"

namespace gridblas::comm::wire {

std::size_t encode_values(std::span<const std::uint64_t> values, std::vector<char>& out) {
    std::uint64_t largest = 0;
    for (const std::uint64_t v : values) largest |= v;  // same bit width as the maximum
    const unsigned width = unsigned(std::bit_width(largest));
    const std::size_t n = values.size();
    const std::size_t payload = (n * width + 7) / 8;
    const std::size_t size = 1 + detail::varint_size(n) + payload;
    const std::size_t old = out.size();
    out.resize(old + size);
    char* p = out.data() + old;
    *p++ = static_cast<char>(width);
    p = detail::put_varint(p, n);
    if (width == 0) return size;
    std::uint64_t acc = 0;
    unsigned used = 0;  // bits of acc already holding data
    for (const std::uint64_t v : values) {
        acc |= v << used;
        if (used + width >= 64) {
            std::memcpy(p, &acc, 8);
            p += 8;
            acc = used == 0 ? 0 : v >> (64 - used);
            used = used + width - 64;
        } else {
            used += width;
        }
    }
    for (; used > 0; used = used > 8 ? used - 8 : 0) {
        *p++ = static_cast<char>(acc & 0xff);
        acc >>= 8;
    }
    return size;
}

std::size_t decode_values(std::span<const char> in, std::vector<std::uint64_t>& out) {
    const char* p = in.data();
    const char* end = p + in.size();
    if (p == end) throw CommError("truncated value block in a received message");
    const unsigned width = static_cast<unsigned char>(*p++);
    if (width > 64) {
        throw CommError("value block of width " + std::to_string(width) + " (at most 64)");
    }
    std::uint64_t n = 0;
    p = detail::get_varint(p, end, n);
    const std::uint64_t payload = width == 0 ? 0 : (n * width + 7) / 8;
    if (width != 0 && n > (std::uint64_t(end - p) * 8) / width + 1) {
        throw CommError("value block of " + std::to_string(n) + " values is truncated");
    }
    if (std::uint64_t(end - p) < payload) {
        throw CommError("value block of " + std::to_string(n) + " values is truncated");
    }
    const std::size_t old = out.size();
    out.resize(old + n);
    std::uint64_t* dst = out.data() + old;
    if (width == 0) {
        std::fill(dst, dst + n, 0);
        return std::size_t(p - in.data());
    }
    const auto* bytes = reinterpret_cast<const unsigned char*>(p);
    const std::uint64_t mask = width == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << width) - 1;
    std::uint64_t k = 0;
    if (width <= 56 && payload >= 8) {
        // Fast path: every value lies within the 8 bytes loaded at its first byte (its offset
        // in that byte is at most 7 and 7 + 56 < 64), and those 8 bytes are inside the payload
        // up to value `safe`.
        const std::uint64_t safe = ((payload - 8) * 8) / width + 1;
        const std::uint64_t stop = std::min<std::uint64_t>(n, safe);
        for (std::uint64_t bit = 0; k < stop; ++k, bit += width) {
            std::uint64_t lo;
            std::memcpy(&lo, bytes + (bit >> 3), 8);
            dst[k] = (lo >> (bit & 7)) & mask;
        }
    }
    for (; k < n; ++k) {
        const std::uint64_t bit = k * width;
        const std::uint64_t byte = bit / 8;
        const unsigned shift = unsigned(bit % 8);
        // Up to 9 bytes hold the value: 8 loaded (fewer at the end), one more if needed.
        std::uint64_t lo = 0;
        const std::uint64_t avail = payload - byte;
        std::memcpy(&lo, bytes + byte, avail < 8 ? avail : 8);
        std::uint64_t v = lo >> shift;
        if (shift + width > 64) v |= std::uint64_t(bytes[byte + 8]) << (64 - shift);
        dst[k] = v & mask;
    }
    return std::size_t(p - in.data()) + payload;
}

}  // namespace gridblas::comm::wire
