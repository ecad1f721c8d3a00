#pragma once
/// @file wire.hpp
/// @brief Wire formats of id sets (frontiers) exchanged by the communication backend.
///
/// An id set is a strictly increasing list of 32-bit local ids. On the wire it travels as one
/// self-describing *frame*:
///
///     frame  = format:u8  count:varint  payload
///     raw    : count x u32 little-endian ids
///     delta  : width:u8, then count gaps of `width` bits packed LSB first, where gap_0 = id_0
///              and gap_i = id_i - id_{i-1} - 1 (so consecutive ids cost 0 bits), `width` being
///              the bit width of the largest gap of this frame
///     bitmap : lo:varint  nbits:varint, then ceil(nbits/8) bytes; bit b set <=> id lo + b,
///              with lo = id_0 and nbits = id_last - id_0 + 1 (a bitmap of the frame's range)
///
/// An empty set is the two bytes `format 0`. Varints are unsigned LEB128. Sizes of all three
/// formats are computed exactly in one pass (frame_sizes), so the automatic choice takes the
/// smallest frame for each message (ties go to raw, then bitmap, then delta: cheapest to
/// decode first). The codecs follow the compressed frontier exchanges of Bisson et al. 2016 and
/// Young et al. 2016 (References in README.md).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gridblas/core/types.hpp"

namespace gridblas::comm {

/// How an id set is encoded on the wire.
enum class WireFormat { raw, delta, bitmap, automatic };

namespace wire {

/// Exact sizes, in bytes, of the frame holding one id set in each concrete format.
struct FrameSizes {
    std::size_t raw = 0;
    std::size_t delta = 0;
    std::size_t bitmap = 0;
    /// Size in `f`; for WireFormat::automatic the smallest of the three.
    std::size_t of(WireFormat f) const;
    /// The smallest format (ties: raw, then bitmap, then delta).
    WireFormat smallest() const;
};

/// Sizes of the three encodings of `ids` (strictly increasing), one pass over the ids.
FrameSizes frame_sizes(std::span<const lindex_t> ids);

/// Size of the raw frame of `count` ids: the "bytes before compression" of a frame.
std::size_t raw_frame_size(std::size_t count);

/// Appends the frame of `ids` (strictly increasing) in `format` to `out` (grown, never
/// shrunk; no allocation once `out` has the capacity). With WireFormat::automatic the
/// smallest format is used. Returns the format written.
WireFormat encode(std::span<const lindex_t> ids, WireFormat format, std::vector<char>& out);

/// What the first bytes of a frame say.
struct FrameHeader {
    WireFormat format = WireFormat::raw;
    std::size_t count = 0;        ///< number of ids in the frame
    std::size_t frame_bytes = 0;  ///< total size of the frame, header included
};

/// Parses the header of the frame at the start of `in`. Throws CommError if the bytes are
/// not a well-formed frame (unknown format, truncated).
FrameHeader read_header(std::span<const char> in);

/// Decodes the frame at the start of `in`, appending its ids to `out`. Returns the bytes the
/// frame took. Throws CommError on a malformed frame.
std::size_t decode(std::span<const char> in, std::vector<lindex_t>& out);

/// Decodes the frame at the start of `in` into the bit array `bits` (bit i of word i/64 is
/// id i), OR-ing it in. Every id must be below `universe` and `bits` must hold at least
/// ceil(universe/64) words. Returns the bytes the frame took.
std::size_t decode_into_bits(std::span<const char> in, lindex_t universe, std::uint64_t* bits);

/// Checks that `ids` is strictly increasing (InvalidValue) and below `universe`
/// (IndexOutOfBounds); `what` names the argument in the message, `block` >= 0 adds "block for
/// rank <block>". Allocates nothing unless it throws.
void check_ids(std::span<const lindex_t> ids, lindex_t universe, const char* what, int block = -1);

/// Unsigned values that travel beside an id frame (the BFS parents of the vertices a frame
/// lists), bit-packed at one width per message:
///
///     values = width:u8  count:varint  then count values of `width` bits, LSB first
///
/// `width` is the bit width of the largest value (0 when every value is 0, so the payload is
/// empty). A message of n values of at most b bits costs about n·b/8 bytes instead of 8n.
/// Appends the encoding of `values` to `out`; returns the bytes appended.
std::size_t encode_values(std::span<const std::uint64_t> values, std::vector<char>& out);

/// Decodes the values at the start of `in`, appending them to `out`; returns the bytes they
/// took. Throws CommError on a malformed or truncated encoding.
std::size_t decode_values(std::span<const char> in, std::vector<std::uint64_t>& out);

/// encode_values() of n unsigned integers of `value_size` bytes (4 or 8, at any alignment)
/// at `values`: the same encoding, with no widened copy. Throws InvalidValue for another size.
std::size_t encode_values(const char* values, std::size_t n, std::size_t value_size,
                          std::vector<char>& out);

/// Decodes the values at the start of `in` into `count` integers of `value_size` bytes (4
/// or 8) at `out`; returns the bytes they took. Throws CommError on a malformed or
/// truncated encoding, one of another count, or 4-byte values wider than 32 bits.
std::size_t decode_values(std::span<const char> in, std::size_t count, std::size_t value_size,
                          char* out);

}  // namespace wire
}  // namespace gridblas::comm
