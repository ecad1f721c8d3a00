// The `butterfly` backend: radix-k exchanges in ceil(log_k p) rounds for ANY rank count p,
// after the ButterFly BFS of Green 2021, generalised with cyclic partners as in Bruck et
// al. 1997 (References in README.md) so that non-powers of k need no hot-spot rank.
//
// Round i has the stride s = k^i and runs while s < p. Rank r sends k-1 messages (fewer in
// the last round when (k-1)*s >= p: only j with j*s < p) and receives as many:
//   allgather / set union : send to r - j*s, receive from r + j*s (mod p). After round i,
//       rank r holds the pieces of ranks r .. r + k^(i+1) - 1 (mod p). Only the last round
//       can have a partner that needs fewer ranks (m < s) than this rank holds: it gets just
//       the pieces it lacks (opaque data), or for set unions the union of this rank's set and
//       the frames it received from ranks r+1 .. r+m-1 in earlier rounds (an overlap of at
//       most part of one earlier frame; unions are idempotent, so overlap costs bytes only).
//       Sets are merged and de-duplicated at every hop: no id is forwarded twice.
//   personalised exchange / reduce-scatter ("recursive halving"): a block for rank
//       r + u (mod p) moves in round i by j*s to rank r + j*s, where j is the i-th base-k digit
//       of u; it reaches its owner once all digits are consumed. Blocks that meet at an
//       intermediate rank with the same destination are combined there (reduce-scatter).
// For p = k^d every rank sends exactly d*(k-1) messages per call. Messages carry
// varint-framed blocks; receives probe for the size, so no size pre-exchange is needed.

#include <algorithm>
#include <cstring>

#include "detail.hpp"
#include "varint.hpp"

namespace gridblas::comm::detail {
namespace {

int mod(long a, int p) { return static_cast<int>(((a % p) + p) % p); }

void prepare_partners(Workspace& ws, int k) {
    if (ws.out.size() < std::size_t(k - 1)) ws.out.resize(std::size_t(k - 1));
    if (ws.in.size() < std::size_t(k - 1)) ws.in.resize(std::size_t(k - 1));
    if (ws.raw.size() < std::size_t(k - 1)) ws.raw.resize(std::size_t(k - 1));
}

// A routed block of a personalised exchange: origin and destination ranks, payload length and
// its raw-format length, then the payload.
struct Block {
    std::uint64_t origin = 0, dest = 0, len = 0, raw = 0;
    const char* data = nullptr;
    const char* next = nullptr;  // byte after the block
};

Block read_block(const char* p, const char* end, int size) {
    Block b;
    p = get_varint(p, end, b.origin);
    p = get_varint(p, end, b.dest);
    p = get_varint(p, end, b.len);
    p = get_varint(p, end, b.raw);
    if (b.origin >= std::uint64_t(size) || b.dest >= std::uint64_t(size) ||
        b.len > std::uint64_t(end - p)) {
        throw CommError("malformed block in a butterfly message");
    }
    b.data = p;
    b.next = p + b.len;
    return b;
}

// Appends a block to `out`; returns its header size.
std::size_t append_block(std::vector<char>& out, std::uint64_t origin, std::uint64_t dest,
                         const char* data, std::uint64_t len, std::uint64_t raw) {
    const std::size_t hdr =
        varint_size(origin) + varint_size(dest) + varint_size(len) + varint_size(raw);
    const std::size_t at = out.size();
    out.resize(at + hdr + len);
    char* p = out.data() + at;
    p = put_varint(p, origin);
    p = put_varint(p, dest);
    p = put_varint(p, len);
    p = put_varint(p, raw);
    if (len != 0) std::memcpy(p, data, len);
    return hdr;
}

}  // namespace

void bfly_allgatherv(Ctx& x, int k, const char* send, std::size_t bytes, const Payload& pl,
                     std::vector<char>& recv, std::vector<std::size_t>& recv_bytes) {
    const int p = x.size;
    const int r = x.rank;
    Workspace& ws = x.ws;
    // Collection: pieces of ranks r, r+1, ... (mod p) back to back; sizes and offsets.
    ws.stage.assign(send, send + bytes);
    ws.sizes.assign(1, bytes);
    ws.offs.assign(1, 0);
    prepare_partners(ws, k);
    int round = 0;
    for (long s = 1; s < p; s *= k, ++round) {
        const int J = bfly_partners(p, k, s);
        ws.reqs.resize(std::size_t(J));
        for (int j = 1; j <= J; ++j) {
            const std::size_t m = std::size_t(std::min<long>(s, p - j * s));  // pieces to send
            std::vector<char>& out = ws.out[j - 1];
            std::size_t hdr = 0, raw = 0;
            for (std::size_t b = 0; b < m; ++b) {
                hdr += varint_size(ws.sizes[b]);
                raw += pl.raw(ws.stage.data() + ws.offs[b], ws.sizes[b]);
            }
            const std::size_t body = ws.offs[m - 1] + ws.sizes[m - 1];
            out.resize(hdr + body);
            char* q = out.data();
            for (std::size_t b = 0; b < m; ++b) q = put_varint(q, ws.sizes[b]);
            if (body != 0) std::memcpy(q, ws.stage.data(), body);
            post_send(x, out.data(), out.size(), hdr + raw, mod(r - j * s, p),
                      kTagAllgather + round, &ws.reqs[j - 1]);
        }
        for (int j = 1; j <= J; ++j)
            recv_any(x, mod(r + j * s, p), kTagAllgather + round, ws.in[j - 1]);
        wait_all(ws.reqs);
        for (int j = 1; j <= J; ++j) {
            const std::size_t m = std::size_t(std::min<long>(s, p - j * s));
            const std::vector<char>& in = ws.in[j - 1];
            const char* q = in.data();
            const char* end = in.data() + in.size();
            const std::size_t first = ws.sizes.size();
            for (std::size_t b = 0; b < m; ++b) {
                std::uint64_t len = 0;
                q = get_varint(q, end, len);
                ws.sizes.push_back(len);
            }
            std::size_t at = ws.stage.size();
            for (std::size_t b = first; b < ws.sizes.size(); ++b) {
                ws.offs.push_back(at);
                at += ws.sizes[b];
            }
            if (at - ws.stage.size() != std::size_t(end - q))
                throw CommError("butterfly allgather: message size does not match its pieces");
            ws.stage.insert(ws.stage.end(), q, end);
        }
    }
    if (ws.sizes.size() != std::size_t(p)) throw CommError("butterfly allgather: pieces missing");
    // Rank order: piece of rank o sits at collection position (o - r) mod p.
    recv_bytes.resize(std::size_t(p));
    recv.resize(ws.stage.size());
    std::size_t out = 0;
    for (int o = 0; o < p; ++o) {
        const std::size_t b = std::size_t(mod(o - r, p));
        recv_bytes[o] = ws.sizes[b];
        if (ws.sizes[b] != 0)
            std::memcpy(recv.data() + out, ws.stage.data() + ws.offs[b], ws.sizes[b]);
        out += ws.sizes[b];
    }
}

void bfly_alltoallv(Ctx& x, int k, const char* send, std::span<const std::size_t> send_bytes,
                    const Payload& pl, std::vector<char>& recv,
                    std::vector<std::size_t>& recv_bytes) {
    const int p = x.size;
    const int r = x.rank;
    Workspace& ws = x.ws;
    prepare_partners(ws, k);
    ws.offs.resize(std::size_t(p));
    std::size_t at = 0;
    for (int d = 0; d < p; ++d) {
        ws.offs[d] = at;
        at += send_bytes[d];
    }
    // cur: blocks still travelling through this rank; fin: blocks that arrived here.
    std::vector<char>* cur = &ws.stage;
    std::vector<char>* nxt = &ws.send;
    cur->clear();
    ws.fin.clear();
    for (int t = 1; t < p; ++t) {
        const int d = (r + t) % p;
        if (send_bytes[d] == 0) continue;
        const char* b = send + ws.offs[d];
        append_block(*cur, r, d, b, send_bytes[d], pl.raw(b, send_bytes[d]));
    }
    int round = 0;
    for (long s = 1; s < p; s *= k, ++round) {
        const int J = bfly_partners(p, k, s);
        for (int j = 0; j < J; ++j) ws.out[j].clear(), ws.raw[j] = 0;
        nxt->clear();
        for (const char* q = cur->data(); q != cur->data() + cur->size();) {
            const Block b = read_block(q, cur->data() + cur->size(), p);
            const long u = mod(long(b.dest) - r, p);
            const int j = static_cast<int>((u / s) % k);
            std::vector<char>& to = j == 0 ? *nxt : ws.out[j - 1];
            const std::size_t hdr = append_block(to, b.origin, b.dest, b.data, b.len, b.raw);
            if (j != 0) ws.raw[j - 1] += hdr + b.raw;
            q = b.next;
        }
        ws.reqs.resize(std::size_t(J));
        for (int j = 1; j <= J; ++j) {
            post_send(x, ws.out[j - 1].data(), ws.out[j - 1].size(), ws.raw[j - 1],
                      mod(r + j * s, p), kTagAlltoall + round, &ws.reqs[j - 1]);
        }
        for (int j = 1; j <= J; ++j)
            recv_any(x, mod(r - j * s, p), kTagAlltoall + round, ws.in[j - 1]);
        wait_all(ws.reqs);
        for (int j = 1; j <= J; ++j) {
            const std::vector<char>& in = ws.in[j - 1];
            for (const char* q = in.data(); q != in.data() + in.size();) {
                const Block b = read_block(q, in.data() + in.size(), p);
                append_block(int(b.dest) == r ? ws.fin : *nxt, b.origin, b.dest, b.data, b.len,
                             b.raw);
                q = b.next;
            }
        }
        std::swap(cur, nxt);
    }
    if (!cur->empty()) throw CommError("butterfly alltoall: blocks left undelivered");
    // Index the arrived blocks by origin, then lay them out in source order.
    const std::size_t own_at = ws.offs[r];
    recv_bytes.assign(std::size_t(p), 0);
    ws.offs.assign(std::size_t(p), 0);
    recv_bytes[r] = send_bytes[r];
    std::size_t total = send_bytes[r];
    for (const char* q = ws.fin.data(); q != ws.fin.data() + ws.fin.size();) {
        const Block b = read_block(q, ws.fin.data() + ws.fin.size(), p);
        if (int(b.dest) != r || int(b.origin) == r || recv_bytes[b.origin] != 0)
            throw CommError("butterfly alltoall: misrouted block");
        recv_bytes[b.origin] = b.len;
        ws.offs[b.origin] = std::size_t(b.data - ws.fin.data());
        total += b.len;
        q = b.next;
    }
    recv.resize(total);
    std::size_t out = 0;
    for (int o = 0; o < p; ++o) {
        const char* src = o == r ? send + own_at : ws.fin.data() + ws.offs[o];
        if (recv_bytes[o] != 0) std::memcpy(recv.data() + out, src, recv_bytes[o]);
        out += recv_bytes[o];
    }
}

void bfly_union_ids(Ctx& x, int k, std::span<const lindex_t> mine, lindex_t universe,
                    WireFormat wire, std::vector<lindex_t>& result, std::uint64_t* bits) {
    const int p = x.size;
    const int r = x.rank;
    Workspace& ws = x.ws;
    prepare_partners(ws, k);
    ws.ids.assign(mine.begin(), mine.end());
    // Frames received in earlier rounds: the one of round t from partner j holds the union
    // of ranks r + j*k^t .. r + (j+1)*k^t - 1. They let the last round send a partner only the
    // ranks it lacks.
    std::size_t kept = 0;
    int round = 0;
    for (long s = 1; s < p; s *= k, ++round) {
        const int J = bfly_partners(p, k, s);
        ws.send.clear();
        wire::encode(ws.ids, wire, ws.send);
        const std::size_t raw = wire::raw_frame_size(ws.ids.size());
        // Only partner J of the last round can need fewer than the s ranks held (m < s):
        // send it the union of this rank's set and the kept frames starting below m.
        const long m = p - long(J) * s;
        if (m < s) {
            ws.frames.clear();
            long t_stride = 1;
            for (std::size_t t = 0, i = 0; i < kept; ++t, t_stride *= k) {
                const int jt = bfly_partners(p, k, t_stride);
                for (int j = 1; j <= jt; ++j, ++i) {
                    if (j * t_stride < m)
                        ws.frames.emplace_back(ws.keep[i].data(), ws.keep[i].size());
                }
            }
            union_frames(ws, mine, ws.frames, universe, ws.ids3);
            ws.send2.clear();
            wire::encode(ws.ids3, wire, ws.send2);
        }
        ws.reqs.resize(std::size_t(J));
        for (int j = 1; j <= J; ++j) {
            const bool part = j == J && m < s;
            const std::vector<char>& out = part ? ws.send2 : ws.send;
            post_send(x, out.data(), out.size(), part ? wire::raw_frame_size(ws.ids3.size()) : raw,
                      mod(r - j * s, p), kTagUnion + round, &ws.reqs[j - 1]);
        }
        ws.frames.clear();
        for (int j = 1; j <= J; ++j) {
            recv_any(x, mod(r + j * s, p), kTagUnion + round, ws.in[j - 1]);
            ws.frames.emplace_back(ws.in[j - 1].data(), ws.in[j - 1].size());
        }
        wait_all(ws.reqs);
        if (bits != nullptr && s * k >= p) {
            // The last round: the union goes straight into the caller's bitmap.
            union_frames(ws, ws.ids, ws.frames, universe, ws.ids2, bits);
            return;
        }
        union_frames(ws, ws.ids, ws.frames, universe, ws.ids2);
        ws.ids.swap(ws.ids2);
        for (int j = 1; j <= J; ++j, ++kept) {
            if (ws.keep.size() <= kept) ws.keep.resize(kept + 1);
            ws.keep[kept].swap(ws.in[j - 1]);
        }
    }
    if (bits != nullptr) {  // one rank: no rounds
        or_ids_into(ws.ids, bits);
        return;
    }
    result.assign(ws.ids.begin(), ws.ids.end());
}

void bfly_reduce_scatter(Ctx& x, int k, std::span<const lindex_t> ids, const char* values,
                         std::span<const std::size_t> counts, lindex_t universe, WireFormat wire,
                         const PairCombiner& comb, std::vector<lindex_t>& out_ids,
                         std::vector<char>& out_values) {
    const int p = x.size;
    const int r = x.rank;
    const std::size_t vs = comb.value_size;
    Workspace& ws = x.ws;
    prepare_partners(ws, k);
    if (ws.cls_ids.size() < std::size_t(p)) {
        ws.cls_ids.resize(std::size_t(p));
        ws.cls_vals.resize(std::size_t(p));
    }
    // Class u holds the pairs bound for rank r + u (mod p). Until a received block is merged
    // into it a class is read where the caller's arrays hold it (cls_at >= 0), not copied: on
    // two ranks no class is ever copied, the one sent is encoded from the caller's arrays and
    // the one kept is merged from them with what arrives.
    ws.cls_at.assign(std::size_t(p), 0);
    std::size_t at = 0;
    for (int d = 0; d < p; ++d) {
        const int u = mod(d - r, p);
        ws.cls_at[u] = std::ptrdiff_t(at);
        ws.cls_ids[u].clear();
        ws.cls_vals[u].clear();
        at += counts[d];
    }
    const auto class_ids = [&](int u) -> std::span<const lindex_t> {
        if (ws.cls_at[u] < 0) return ws.cls_ids[u];
        return ids.subspan(std::size_t(ws.cls_at[u]), counts[std::size_t(mod(u + r, p))]);
    };
    const auto class_vals = [&](int u) -> const char* {
        return ws.cls_at[u] < 0 ? ws.cls_vals[u].data() : values + std::size_t(ws.cls_at[u]) * vs;
    };
    int round = 0;
    for (long s = 1; s < p; s *= k, ++round) {
        const int J = bfly_partners(p, k, s);
        for (int j = 0; j < J; ++j) ws.out[j].clear(), ws.raw[j] = 0;
        for (int u = 1; u < p; ++u) {
            const int j = static_cast<int>((u / s) % k);
            const std::span<const lindex_t> cu = class_ids(u);
            if (j == 0 || cu.empty()) continue;
            std::vector<char>& out = ws.out[j - 1];
            const std::size_t n = cu.size();
            const std::size_t o = out.size();
            out.resize(o + varint_size(std::uint64_t(u)));
            put_varint(out.data() + o, std::uint64_t(u));
            encode_pairs(cu, class_vals(u), comb, wire, out);
            ws.raw[j - 1] += varint_size(std::uint64_t(u)) + wire::raw_frame_size(n) + n * vs;
            ws.cls_at[u] = -1;  // sent: empty from now on
            ws.cls_ids[u].clear();
            ws.cls_vals[u].clear();
        }
        ws.reqs.resize(std::size_t(J));
        for (int j = 1; j <= J; ++j) {
            post_send(x, ws.out[j - 1].data(), ws.out[j - 1].size(), ws.raw[j - 1],
                      mod(r + j * s, p), kTagReduce + round, &ws.reqs[j - 1]);
        }
        for (int j = 1; j <= J; ++j)
            recv_any(x, mod(r - j * s, p), kTagReduce + round, ws.in[j - 1]);
        wait_all(ws.reqs);
        for (int j = 1; j <= J; ++j) {
            const std::vector<char>& in = ws.in[j - 1];
            const char* q = in.data();
            const char* end = in.data() + in.size();
            while (q != end) {
                std::uint64_t u = 0;
                q = get_varint(q, end, u);
                if (u >= std::uint64_t(p) || long(u) < j * s || (long(u) / s) % k != j)
                    throw CommError("butterfly reduce-scatter: misrouted block");
                std::size_t used = 0;
                ws.ids.clear();
                const char* v =
                    decode_pairs({q, std::size_t(end - q)}, comb, wire, ws, ws.ids, used);
                if (!ws.ids.empty() && ws.ids.back() >= universe)
                    throw CommError("butterfly reduce-scatter: received id past the universe");
                const int nu = int(long(u) - j * s);
                if (ws.cls_at[nu] >= 0) {
                    // First block into a class still in the caller's arrays: merged from
                    // there straight into the class's own buffers.
                    merge_pairs_into(class_ids(nu), class_vals(nu), ws.ids, v, comb, ws.cls_ids[nu],
                                     ws.cls_vals[nu]);
                    ws.cls_at[nu] = -1;
                } else {
                    merge_pairs(ws, ws.cls_ids[nu], ws.cls_vals[nu], ws.ids, v, comb);
                }
                q += used;
            }
        }
    }
    if (ws.cls_at[0] >= 0) {
        // Nothing arrived for this rank: its own pairs, copied through the workspace (the
        // caller's out_ids may be the very array they lie in).
        const std::span<const lindex_t> c0 = class_ids(0);
        ws.cls_ids[0].assign(c0.begin(), c0.end());
        out_values.assign(class_vals(0), class_vals(0) + c0.size() * vs);
        out_ids.swap(ws.cls_ids[0]);
    } else {
        // The buffers change hands (the workspace keeps the caller's old ones).
        out_ids.swap(ws.cls_ids[0]);
        out_values.swap(ws.cls_vals[0]);
    }
}

}  // namespace gridblas::comm::detail
