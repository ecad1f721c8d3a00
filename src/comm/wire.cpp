// Id-set codecs of the wire (see wire.hpp for the frame layout): raw 32-bit lists, delta
// gaps bit-packed at the width of the frame's largest gap, and range bitmaps. This is the
// per-message "smallest representation" policy of Bisson et al. 2016 and Young et al. 2016
// (delta + bit packing close to the entropy of a frontier, bitmaps for dense ones).

#include "gridblas/comm/wire.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "gridblas/core/error.hpp"
#include "varint.hpp"

static_assert(std::endian::native == std::endian::little,
              "gridblas wire formats assume a little-endian host");

namespace gridblas::comm::wire {
namespace {

constexpr std::uint8_t kRaw = 0;
constexpr std::uint8_t kDelta = 1;
constexpr std::uint8_t kBitmap = 2;

using detail::get_varint;
using detail::put_varint;
using detail::varint_size;

std::uint32_t max_gap(std::span<const lindex_t> ids) {
    std::uint32_t g = ids[0];
    for (std::size_t i = 1; i < ids.size(); ++i) {
        const std::uint32_t d = ids[i] - ids[i - 1] - 1;
        g = d > g ? d : g;
    }
    return g;
}

std::size_t delta_size(std::size_t n, unsigned width) {
    return 1 + varint_size(n) + 1 + (n * width + 7) / 8;
}

std::size_t bitmap_size(std::span<const lindex_t> ids) {
    const std::uint64_t lo = ids.front();
    const std::uint64_t nbits = std::uint64_t(ids.back()) - lo + 1;
    return 1 + varint_size(ids.size()) + varint_size(lo) + varint_size(nbits) + (nbits + 7) / 8;
}

char* grow(std::vector<char>& out, std::size_t bytes) {
    const std::size_t old = out.size();
    out.resize(old + bytes);
    return out.data() + old;
}

void encode_delta(std::span<const lindex_t> ids, unsigned width, char* p) {
    *p++ = static_cast<char>(width);
    if (width == 0) return;
    std::uint64_t acc = 0;
    unsigned nb = 0;
    std::uint32_t prev = ~std::uint32_t(0);  // so that gap_0 = id_0
    for (const lindex_t id : ids) {
        acc |= std::uint64_t(id - prev - 1) << nb;
        prev = id;
        nb += width;
        if (nb >= 32) {
            const auto lo = static_cast<std::uint32_t>(acc);
            std::memcpy(p, &lo, 4);
            p += 4;
            acc >>= 32;
            nb -= 32;
        }
    }
    while (nb > 0) {
        *p++ = static_cast<char>(acc & 0xff);
        acc >>= 8;
        nb = nb > 8 ? nb - 8 : 0;
    }
}

void encode_bitmap(std::span<const lindex_t> ids, char* p) {
    const lindex_t lo = ids.front();
    const std::uint64_t nbits = std::uint64_t(ids.back()) - lo + 1;
    p = put_varint(p, lo);
    p = put_varint(p, nbits);
    const std::size_t nbytes = (nbits + 7) / 8;
    // The bits gather in a 64-bit word, stored (little-endian, byte b holding ids lo + 8b ..
    // lo + 8b + 7) when the ids move past it: one store per word instead of one per id.
    std::uint64_t word = 0;
    std::uint64_t at = 0;  // first bit of `word`
    const auto flush = [&] {
        const std::size_t b = at / 8;
        const std::size_t n = std::min<std::size_t>(8, nbytes - b);
        std::memcpy(p + b, &word, n);
    };
    std::memset(p, 0, nbytes);
    for (const lindex_t id : ids) {
        const std::uint64_t bit = std::uint64_t(id - lo);
        if (bit - at >= 64) {
            flush();
            word = 0;
            at = bit & ~std::uint64_t(63);
        }
        word |= std::uint64_t(1) << (bit - at);
    }
    flush();
}

// Parsed frame: header fields plus where its payload starts and ends.
struct Frame {
    std::uint8_t tag = kRaw;
    std::size_t count = 0;
    const char* payload = nullptr;
    const char* end = nullptr;  // end of the frame
    unsigned width = 0;         // delta
    std::uint64_t lo = 0;       // bitmap
    std::uint64_t nbits = 0;    // bitmap
};

Frame parse(std::span<const char> in) {
    const char* p = in.data();
    const char* end = in.data() + in.size();
    if (p == end) throw CommError("empty id frame in a received message");
    Frame f;
    f.tag = static_cast<std::uint8_t>(*p++);
    std::uint64_t count = 0;
    p = get_varint(p, end, count);
    f.count = count;
    if (count > (std::uint64_t(1) << 32)) throw CommError("id frame with an impossible count");
    std::uint64_t bytes = 0;
    if (count == 0) {
        if (f.tag > kBitmap) throw CommError("id frame with unknown format byte");
    } else if (f.tag == kRaw) {
        bytes = 4 * count;
    } else if (f.tag == kDelta) {
        if (p == end) throw CommError("truncated delta id frame");
        f.width = static_cast<unsigned char>(*p++);
        if (f.width > 32) throw CommError("delta id frame with gap width above 32 bits");
        bytes = (count * f.width + 7) / 8;
    } else if (f.tag == kBitmap) {
        p = get_varint(p, end, f.lo);
        p = get_varint(p, end, f.nbits);
        if (f.nbits == 0 || f.lo + f.nbits > (std::uint64_t(1) << 32))
            throw CommError("bitmap id frame with a bad range");
        bytes = (f.nbits + 7) / 8;
    } else {
        throw CommError("id frame with unknown format byte " + std::to_string(f.tag));
    }
    if (bytes > std::uint64_t(end - p)) throw CommError("truncated id frame in a received message");
    f.payload = p;
    f.end = p + bytes;
    return f;
}

// Calls fn(id) for every id of a non-empty delta frame, in order.
template <class Fn>
void for_each_delta(const Frame& f, Fn&& fn) {
    std::uint64_t id = 0;  // id_{i-1} + 1
    if (f.width == 0) {
        for (std::size_t i = 0; i < f.count; ++i) fn(static_cast<lindex_t>(i));
        return;
    }
    const auto* p = reinterpret_cast<const unsigned char*>(f.payload);
    const std::uint64_t mask = (std::uint64_t(1) << f.width) - 1;
    std::uint64_t acc = 0;
    unsigned nb = 0;
    const auto* end = reinterpret_cast<const unsigned char*>(f.end);
    for (std::size_t i = 0; i < f.count; ++i) {
        if (nb < f.width) {
            if (end - p >= 4) {
                // Four bytes at once: nb < width <= 32, so they fit above the nb held bits.
                std::uint32_t w;
                std::memcpy(&w, p, 4);
                acc |= std::uint64_t(w) << nb;
                p += 4;
                nb += 32;
            } else {
                while (nb < f.width) {
                    acc |= std::uint64_t(*p++) << nb;
                    nb += 8;
                }
            }
        }
        id += acc & mask;
        acc >>= f.width;
        nb -= f.width;
        if (id > 0xffffffffull) throw CommError("delta id frame decodes past 2^32");
        fn(static_cast<lindex_t>(id));
        ++id;
    }
}

// Calls fn(id) for every id of a non-empty bitmap frame, in order; returns how many.
template <class Fn>
std::size_t for_each_bit(const Frame& f, Fn&& fn) {
    const auto* p = reinterpret_cast<const unsigned char*>(f.payload);
    const std::size_t nbytes = (f.nbits + 7) / 8;
    std::size_t seen = 0;
    for (std::size_t b = 0; b < nbytes; b += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, p + b, nbytes - b >= 8 ? 8 : nbytes - b);
        while (w != 0) {
            const std::uint64_t bit = 8 * b + std::countr_zero(w);
            if (bit >= f.nbits) throw CommError("bitmap id frame has bits past its range");
            fn(static_cast<lindex_t>(f.lo + bit));
            ++seen;
            w &= w - 1;
        }
    }
    return seen;
}

}  // namespace

std::size_t FrameSizes::of(WireFormat f) const {
    switch (f) {
        case WireFormat::raw:
            return raw;
        case WireFormat::delta:
            return delta;
        case WireFormat::bitmap:
            return bitmap;
        default:
            return of(smallest());
    }
}

WireFormat FrameSizes::smallest() const {
    WireFormat best = WireFormat::raw;
    std::size_t size = raw;
    if (bitmap < size) best = WireFormat::bitmap, size = bitmap;
    if (delta < size) best = WireFormat::delta;
    return best;
}

std::size_t raw_frame_size(std::size_t count) {
    return count == 0 ? 2 : 1 + varint_size(count) + 4 * count;
}

FrameSizes frame_sizes(std::span<const lindex_t> ids) {
    if (ids.empty()) return {2, 2, 2};
    FrameSizes s;
    s.raw = raw_frame_size(ids.size());
    s.delta = delta_size(ids.size(), std::bit_width(max_gap(ids)));
    s.bitmap = bitmap_size(ids);
    return s;
}

WireFormat encode(std::span<const lindex_t> ids, WireFormat format, std::vector<char>& out) {
    const std::size_t n = ids.size();
    if (n == 0) {
        char* p = grow(out, 2);
        p[0] = static_cast<char>(kRaw);
        p[1] = 0;
        return format == WireFormat::automatic ? WireFormat::raw : format;
    }
    unsigned width = 0;
    if (format == WireFormat::automatic) {
        width = std::bit_width(max_gap(ids));
        const FrameSizes s{raw_frame_size(n), delta_size(n, width), bitmap_size(ids)};
        format = s.smallest();
    } else if (format == WireFormat::delta) {
        width = std::bit_width(max_gap(ids));
    }
    std::size_t size = 0;
    switch (format) {
        case WireFormat::raw:
            size = raw_frame_size(n);
            break;
        case WireFormat::delta:
            size = delta_size(n, width);
            break;
        default:
            size = bitmap_size(ids);
            break;
    }
    char* p = grow(out, size);
    const std::uint8_t tag = format == WireFormat::raw     ? kRaw
                             : format == WireFormat::delta ? kDelta
                                                           : kBitmap;
    *p++ = static_cast<char>(tag);
    p = put_varint(p, n);
    if (format == WireFormat::raw) {
        std::memcpy(p, ids.data(), 4 * n);
    } else if (format == WireFormat::delta) {
        encode_delta(ids, width, p);
    } else {
        encode_bitmap(ids, p);
    }
    return format;
}

FrameHeader read_header(std::span<const char> in) {
    const Frame f = parse(in);
    FrameHeader h;
    h.format = f.tag == kRaw     ? WireFormat::raw
               : f.tag == kDelta ? WireFormat::delta
                                 : WireFormat::bitmap;
    h.count = f.count;
    h.frame_bytes = static_cast<std::size_t>(f.end - in.data());
    return h;
}

std::size_t decode(std::span<const char> in, std::vector<lindex_t>& out) {
    const Frame f = parse(in);
    const std::size_t used = static_cast<std::size_t>(f.end - in.data());
    if (f.count == 0) return used;
    const std::size_t old = out.size();
    out.resize(old + f.count);
    lindex_t* dst = out.data() + old;
    if (f.tag == kRaw) {
        std::memcpy(dst, f.payload, 4 * f.count);
    } else if (f.tag == kDelta) {
        for_each_delta(f, [&](lindex_t id) { *dst++ = id; });
    } else {
        std::size_t room = f.count;
        const std::size_t seen = for_each_bit(f, [&](lindex_t id) {
            if (room == 0) throw CommError("bitmap id frame holds more ids than its count");
            --room;
            *dst++ = id;
        });
        if (seen != f.count) throw CommError("bitmap id frame holds fewer ids than its count");
    }
    return used;
}

std::size_t decode_into_bits(std::span<const char> in, lindex_t universe, std::uint64_t* bits) {
    const Frame f = parse(in);
    const std::size_t used = static_cast<std::size_t>(f.end - in.data());
    if (f.count == 0) return used;
    auto set = [&](lindex_t id) {
        if (id >= universe)
            throw CommError("received id " + std::to_string(id) + " >= universe " +
                            std::to_string(universe));
        bits[id >> 6] |= std::uint64_t(1) << (id & 63);
    };
    if (f.tag == kRaw) {
        for (std::size_t i = 0; i < f.count; ++i) {
            lindex_t id;
            std::memcpy(&id, f.payload + 4 * i, 4);
            set(id);
        }
    } else if (f.tag == kDelta) {
        for_each_delta(f, set);
    } else {
        if (f.lo + f.nbits > universe) {
            throw CommError("bitmap id frame reaches past the universe " +
                            std::to_string(universe));
        }
        // OR eight bytes at a time: byte b covers ids lo + 8b .. lo + 8b + 7, so the word
        // read at byte b covers lo + 8b .. lo + 8b + 63 and lands across at most two words.
        const char* p = f.payload;
        const std::size_t nbytes = (f.nbits + 7) / 8;
        for (std::size_t b = 0; b < nbytes; b += 8) {
            std::uint64_t v = 0;
            if (nbytes - b >= 8) {
                std::memcpy(&v, p + b, 8);
            } else {
                std::memcpy(&v, p + b, nbytes - b);
            }
            const std::uint64_t first = 8 * std::uint64_t(b);
            if (f.nbits - first < 64) v &= (std::uint64_t(1) << (f.nbits - first)) - 1;
            if (v == 0) continue;
            const std::uint64_t pos = f.lo + first;
            const unsigned sh = pos & 63;
            bits[pos >> 6] |= v << sh;
            if (sh != 0 && (v >> (64 - sh)) != 0) bits[(pos >> 6) + 1] |= v >> (64 - sh);
        }
    }
    return used;
}

void check_ids(std::span<const lindex_t> ids, lindex_t universe, const char* what, int block) {
    auto name = [&] {
        std::string n = what;
        if (block >= 0) n += " (block for rank " + std::to_string(block) + ")";
        return n;
    };
    for (std::size_t i = 1; i < ids.size(); ++i) {
        if (ids[i] <= ids[i - 1]) {
            throw InvalidValue(name() + ": ids must be strictly increasing, but id[" +
                               std::to_string(i) + "] = " + std::to_string(ids[i]) + " follows " +
                               std::to_string(ids[i - 1]));
        }
    }
    if (!ids.empty() && ids.back() >= universe) {
        throw IndexOutOfBounds(name() + ": id " + std::to_string(ids.back()) + " >= universe " +
                               std::to_string(universe));
    }
}

}  // namespace gridblas::comm::wire
