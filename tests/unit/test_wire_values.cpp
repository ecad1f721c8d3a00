// The value codec of the wire (wire::encode_values / decode_values): exact round trips at
// every bit width 0..64 and several counts, the size the format promises, appending after
// earlier bytes, and rejection of malformed blocks.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "gridblas/comm/wire.hpp"
#include "gridblas/core/error.hpp"

namespace wire = gridblas::comm::wire;

namespace {

std::size_t varint_bytes(std::uint64_t v) {
    std::size_t n = 1;
    for (; v >= 0x80; v >>= 7) ++n;
    return n;
}

}  // namespace

TEST(WireValues, RoundTripEveryWidthAndCount) {
    std::mt19937_64 rng(9);
    for (unsigned width = 0; width <= 64; ++width) {
        const std::uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
        for (std::size_t n : {0u, 1u, 7u, 8u, 63u, 64u, 65u, 1000u}) {
            std::vector<std::uint64_t> v(n);
            for (auto& x : v) x = rng() & mask;
            if (n > 0) v[n / 2] = mask;  // one value of exactly `width` bits
            std::vector<char> buf = {'a', 'b'};
            const std::size_t wrote = wire::encode_values(v, buf);
            const unsigned w = n == 0 ? 0 : width;
            EXPECT_EQ(wrote, 1 + varint_bytes(n) + (n * w + 7) / 8) << width << " " << n;
            ASSERT_EQ(buf.size(), 2 + wrote);
            buf.push_back('z');  // trailing bytes are not part of the block
            std::vector<std::uint64_t> back = {42};
            const std::span<const char> in(buf.data() + 2, buf.size() - 2);
            EXPECT_EQ(wire::decode_values(in, back), wrote);
            ASSERT_EQ(back.size(), n + 1);
            EXPECT_EQ(back[0], 42u);
            for (std::size_t k = 0; k < n; ++k) {
                ASSERT_EQ(back[k + 1], v[k]) << "width " << width << " count " << n << " k " << k;
            }
        }
    }
}

TEST(WireValues, AllZeroValuesTakeNoPayload) {
    std::vector<char> buf;
    EXPECT_EQ(wire::encode_values(std::vector<std::uint64_t>(500, 0), buf), 1 + 2u);
    std::vector<std::uint64_t> back;
    EXPECT_EQ(wire::decode_values(buf, back), buf.size());
    EXPECT_EQ(back, std::vector<std::uint64_t>(500, 0));
}

TEST(WireValues, MalformedBlocksAreRejected) {
    std::vector<char> buf;
    wire::encode_values(std::vector<std::uint64_t>{5, 6, 7, 1u << 20}, buf);
    std::vector<std::uint64_t> out;
    for (std::size_t cut = 0; cut < buf.size(); ++cut) {
        EXPECT_THROW(wire::decode_values(std::span<const char>(buf.data(), cut), out),
                     gridblas::CommError)
            << "cut at " << cut;
    }
    std::vector<char> wide = buf;
    wide[0] = char(65);
    EXPECT_THROW(wire::decode_values(wide, out), gridblas::CommError);
    // A count far beyond what the bytes can hold must not allocate it.
    const std::vector<char> huge = {char(8),    char(0xff), char(0xff), char(0xff), char(0xff),
                                    char(0xff), char(0xff), char(0xff), char(0x7f), 'x'};
    EXPECT_THROW(wire::decode_values(huge, out), gridblas::CommError);
}

TEST(WireValues, ValuesOfFourAndEightBytesAtAnyAlignmentRoundTrip) {
    // Signed values keep their bit patterns: a negative 8-byte value takes all 64 bits, a
    // negative 4-byte one 32.
    const std::vector<std::int64_t> v8 = {0, 5, -1, 1ll << 40, -(1ll << 62), 77};
    const std::vector<std::int32_t> v4 = {0, 5, -1, 1 << 30, -7, 77};
    for (std::size_t shift : {0u, 1u, 3u}) {
        std::vector<char> raw8(shift + v8.size() * 8), raw4(shift + v4.size() * 4);
        std::memcpy(raw8.data() + shift, v8.data(), v8.size() * 8);
        std::memcpy(raw4.data() + shift, v4.data(), v4.size() * 4);
        std::vector<char> buf8, buf4;
        const std::size_t n8 = wire::encode_values(raw8.data() + shift, v8.size(), 8, buf8);
        const std::size_t n4 = wire::encode_values(raw4.data() + shift, v4.size(), 4, buf4);
        EXPECT_EQ(buf8[0], char(64));
        EXPECT_EQ(buf4[0], char(32));
        // The same block as the widened values give.
        std::vector<std::uint64_t> wide4;
        for (const std::int32_t x : v4) wide4.push_back(std::uint32_t(x));
        std::vector<char> ref4;
        wire::encode_values(wide4, ref4);
        EXPECT_EQ(buf4, ref4);
        std::vector<char> back8(shift + v8.size() * 8), back4(shift + v4.size() * 4);
        EXPECT_EQ(wire::decode_values(buf8, v8.size(), 8, back8.data() + shift), n8);
        EXPECT_EQ(wire::decode_values(buf4, v4.size(), 4, back4.data() + shift), n4);
        EXPECT_EQ(std::memcmp(back8.data() + shift, v8.data(), v8.size() * 8), 0);
        EXPECT_EQ(std::memcmp(back4.data() + shift, v4.data(), v4.size() * 4), 0);
    }
    // Small non-negative values pack to their width.
    const std::vector<std::int64_t> small = {3, 1000, 1 << 19};
    std::vector<char> buf;
    wire::encode_values(reinterpret_cast<const char*>(small.data()), small.size(), 8, buf);
    EXPECT_EQ(buf.size(), 1 + 1 + (3 * 20 + 7) / 8u);
}

TEST(WireValues, FixedCountDecodingRejectsWhatDoesNotFit) {
    std::vector<char> buf;
    wire::encode_values(std::vector<std::uint64_t>{1, 2, 1ull << 33}, buf);
    std::vector<char> out(64);
    EXPECT_THROW(wire::decode_values(buf, 2, 8, out.data()), gridblas::CommError);  // count
    EXPECT_THROW(wire::decode_values(buf, 3, 4, out.data()), gridblas::CommError);  // 34 bits
    EXPECT_THROW(
        wire::decode_values(std::span<const char>(buf.data(), buf.size() - 1), 3, 8, out.data()),
        gridblas::CommError);  // truncated
    EXPECT_THROW(wire::decode_values(buf, 3, 2, out.data()), gridblas::InvalidValue);
    std::vector<char> enc;
    EXPECT_THROW(wire::encode_values(out.data(), 1, 16, enc), gridblas::InvalidValue);
    EXPECT_EQ(wire::decode_values(buf, 3, 8, out.data()), buf.size());
}
