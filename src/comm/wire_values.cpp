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

namespace {

/// Packs n values, value k read by load(k), at the end of `out`.
template <class Load>
std::size_t encode_with(std::size_t n, Load load, std::vector<char>& out) {
    std::uint64_t largest = 0;
    for (std::size_t k = 0; k < n; ++k) largest |= load(k);  // same bit width as the maximum
    const unsigned width = unsigned(std::bit_width(largest));
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
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint64_t v = load(k);
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

/// The header of a value block: its width and count, checked against the bytes at hand.
struct ValueHeader {
    unsigned width = 0;
    std::uint64_t n = 0;
    std::uint64_t payload = 0;
    const unsigned char* bytes = nullptr;  ///< the payload
    std::size_t size = 0;                  ///< of the whole block
};

ValueHeader read_value_header(std::span<const char> in) {
    const char* p = in.data();
    const char* end = p + in.size();
    if (p == end) throw CommError("truncated value block in a received message");
    ValueHeader h;
    h.width = static_cast<unsigned char>(*p++);
    if (h.width > 64) {
        throw CommError("value block of width " + std::to_string(h.width) + " (at most 64)");
    }
    p = detail::get_varint(p, end, h.n);
    h.payload = h.width == 0 ? 0 : (h.n * h.width + 7) / 8;
    if (h.width != 0 && h.n > (std::uint64_t(end - p) * 8) / h.width + 1) {
        throw CommError("value block of " + std::to_string(h.n) + " values is truncated");
    }
    if (std::uint64_t(end - p) < h.payload) {
        throw CommError("value block of " + std::to_string(h.n) + " values is truncated");
    }
    h.bytes = reinterpret_cast<const unsigned char*>(p);
    h.size = std::size_t(p - in.data()) + std::size_t(h.payload);
    return h;
}

/// Unpacks the block's values, handing value k to store(k, v).
template <class Store>
void decode_with(const ValueHeader& h, Store store) {
    const std::uint64_t n = h.n;
    const unsigned width = h.width;
    if (width == 0) {
        for (std::uint64_t k = 0; k < n; ++k) store(k, 0);
        return;
    }
    const unsigned char* bytes = h.bytes;
    const std::uint64_t payload = h.payload;
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
            store(k, (lo >> (bit & 7)) & mask);
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
        store(k, v & mask);
    }
}

void check_value_size(std::size_t value_size) {
    if (value_size != 4 && value_size != 8) {
        throw InvalidValue("bit-packed values are 4 or 8 bytes, not " + std::to_string(value_size));
    }
}

}  // namespace

std::size_t encode_values(std::span<const std::uint64_t> values, std::vector<char>& out) {
    return encode_with(
        values.size(), [&](std::size_t k) { return values[k]; }, out);
}

std::size_t encode_values(const char* values, std::size_t n, std::size_t value_size,
                          std::vector<char>& out) {
    check_value_size(value_size);
    if (value_size == 8) {
        return encode_with(
            n,
            [&](std::size_t k) {
                std::uint64_t v;
                std::memcpy(&v, values + k * 8, 8);
                return v;
            },
            out);
    }
    return encode_with(
        n,
        [&](std::size_t k) {
            std::uint32_t v;
            std::memcpy(&v, values + k * 4, 4);
            return std::uint64_t(v);
        },
        out);
}

std::size_t decode_values(std::span<const char> in, std::vector<std::uint64_t>& out) {
    const ValueHeader h = read_value_header(in);
    const std::size_t old = out.size();
    out.resize(old + h.n);
    std::uint64_t* dst = out.data() + old;
    decode_with(h, [dst](std::uint64_t k, std::uint64_t v) { dst[k] = v; });
    return h.size;
}

std::size_t decode_values(std::span<const char> in, std::size_t count, std::size_t value_size,
                          char* out) {
    check_value_size(value_size);
    const ValueHeader h = read_value_header(in);
    if (h.n != count) {
        throw CommError("a value block holds " + std::to_string(h.n) + " values where " +
                        std::to_string(count) + " were expected");
    }
    if (value_size == 8) {
        decode_with(h,
                    [out](std::uint64_t k, std::uint64_t v) { std::memcpy(out + k * 8, &v, 8); });
    } else {
        if (h.width > 32) {
            throw CommError("a value block of width " + std::to_string(h.width) +
                            " holds 4-byte values");
        }
        decode_with(h, [out](std::uint64_t k, std::uint64_t v) {
            const std::uint32_t w = std::uint32_t(v);
            std::memcpy(out + k * 4, &w, 4);
        });
    }
    return h.size;
}

}  // namespace gridblas::comm::wire
