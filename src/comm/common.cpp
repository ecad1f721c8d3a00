// Shared pieces of the communication backends: MPI helpers that throw CommError, how raw
// bytes are counted, the set-union and monoid merges used at the receivers (and at the
// intermediate hops of the butterfly), and the set-union / reduce-scatter built on a plain
// allgatherv / alltoallv for the mpi and ring backends.

#include <algorithm>
#include <bit>
#include <climits>
#include <cstring>
#include <string>

#include "detail.hpp"

namespace gridblas::comm::detail {

// ---- MPI helpers ---------------------------------------------------------------------------

void check_mpi(int rc, const char* call) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
    throw CommError(std::string(call) + " failed: " + std::string(text, std::size_t(len)));
}

int to_int(std::size_t n, const char* call) {
    if (n > static_cast<std::size_t>(INT_MAX)) {
        throw CommError(std::string(call) + ": " + std::to_string(n) +
                        " bytes exceed MPI's int count limit");
    }
    return static_cast<int>(n);
}

void post_send(Ctx& x, const void* buf, std::size_t bytes, std::size_t raw, int dest, int tag,
               MPI_Request* req) {
    check_mpi(MPI_Isend(buf, to_int(bytes, "MPI_Isend"), MPI_BYTE, dest, tag, x.comm, req),
              "MPI_Isend");
    x.c.messages += 1;
    x.c.bytes_wire += bytes;
    x.c.bytes_raw += raw;
}

void recv_any(Ctx& x, int source, int tag, std::vector<char>& buf) {
    MPI_Status st;
    check_mpi(MPI_Probe(source, tag, x.comm, &st), "MPI_Probe");
    int n = 0;
    check_mpi(MPI_Get_count(&st, MPI_BYTE, &n), "MPI_Get_count");
    buf.resize(static_cast<std::size_t>(n));
    check_mpi(MPI_Recv(buf.data(), n, MPI_BYTE, source, tag, x.comm, MPI_STATUS_IGNORE),
              "MPI_Recv");
}

void wait_all(std::vector<MPI_Request>& reqs) {
    if (!reqs.empty()) {
        check_mpi(MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE),
                  "MPI_Waitall");
    }
    reqs.clear();
}

int ceil_log2(int p) {
    int l = 0;
    while ((1L << l) < p) ++l;
    return l;
}

std::size_t Payload::raw(const char* p, std::size_t len) const {
    if (kind == opaque || len == 0) return len;
    const std::size_t n = wire::read_header({p, len}).count;
    return wire::raw_frame_size(n) + (kind == pair_block ? n * value_size : 0);
}

// ---- merges --------------------------------------------------------------------------------

namespace {

lindex_t* merge_unique(const lindex_t* a, const lindex_t* ae, const lindex_t* b, const lindex_t* be,
                       lindex_t* o) {
    while (a != ae && b != be) {
        const lindex_t va = *a, vb = *b;
        *o++ = va < vb ? va : vb;
        a += va <= vb;
        b += vb <= va;
    }
    o = std::copy(a, ae, o);
    return std::copy(b, be, o);
}

// Merges the sorted unique runs of `src` (boundaries in `runs`) pairwise until one is left;
// returns the buffer holding it (src or dst) and its length.
std::vector<lindex_t>& merge_runs(std::vector<lindex_t>& src, std::vector<lindex_t>& dst,
                                  std::vector<std::size_t>& runs, std::size_t& len) {
    std::vector<lindex_t>* a = &src;
    std::vector<lindex_t>* b = &dst;
    std::size_t m = runs.size() - 1;  // number of runs
    while (m > 1) {
        b->resize(runs[m]);
        std::size_t out = 0;
        std::size_t nm = 0;
        for (std::size_t r = 0; r < m; r += 2) {
            const lindex_t* s = a->data();
            lindex_t* o = b->data() + out;
            if (r + 1 < m) {
                o = merge_unique(s + runs[r], s + runs[r + 1], s + runs[r + 1], s + runs[r + 2], o);
            } else {
                o = std::copy(s + runs[r], s + runs[r + 1], o);
            }
            runs[nm] = out;  // start of merged run nm (runs[nm] was already read)
            out = static_cast<std::size_t>(o - b->data());
            ++nm;
        }
        runs[nm] = out;
        runs.resize(nm + 1);
        m = nm;
        std::swap(a, b);
    }
    len = runs[m];
    return *a;
}

}  // namespace

void union_frames(Workspace& ws, std::span<const lindex_t> base,
                  std::span<const std::span<const char>> frames, lindex_t universe,
                  std::vector<lindex_t>& out, std::uint64_t* bits_out) {
    if (bits_out != nullptr) {
        or_ids_into(base, bits_out);
        for (const auto& f : frames) wire::decode_into_bits(f, universe, bits_out);
        return;
    }
    std::size_t total = base.size();
    for (const auto& f : frames) total += wire::read_header(f).count;
    if (universe > 0 && total >= universe / 32) {
        // Dense: OR everything into a bit array of the universe, then read it out. The array
        // is kept all-zero between calls (it is cleared while being read).
        const std::size_t words = (std::size_t(universe) + 63) / 64;
        if (ws.bits.size() < words) ws.bits.resize(words, 0);
        std::uint64_t* bits = ws.bits.data();
        try {
            or_ids_into(base, bits);
            for (const auto& f : frames) wire::decode_into_bits(f, universe, bits);
        } catch (...) {
            std::fill(ws.bits.begin(), ws.bits.end(), 0);
            throw;
        }
        out.resize(std::min<std::size_t>(total, universe));
        lindex_t* o = out.data();
        for (std::size_t w = 0; w < words; ++w) {
            std::uint64_t v = bits[w];
            if (v == 0) continue;
            bits[w] = 0;
            const lindex_t at = static_cast<lindex_t>(w * 64);
            while (v != 0) {
                *o++ = at + static_cast<lindex_t>(std::countr_zero(v));
                v &= v - 1;
            }
        }
        out.resize(static_cast<std::size_t>(o - out.data()));
        return;
    }
    // Sparse: decode the runs back to back and merge them pairwise.
    ws.mrg_a.assign(base.begin(), base.end());
    ws.runs.clear();
    ws.runs.push_back(0);
    ws.runs.push_back(ws.mrg_a.size());
    for (const auto& f : frames) {
        wire::decode(f, ws.mrg_a);
        if (!ws.mrg_a.empty() && ws.mrg_a.back() >= universe) {
            throw CommError("received id " + std::to_string(ws.mrg_a.back()) + " >= universe " +
                            std::to_string(universe));
        }
        ws.runs.push_back(ws.mrg_a.size());
    }
    std::size_t len = 0;
    const std::vector<lindex_t>& merged = merge_runs(ws.mrg_a, ws.mrg_b, ws.runs, len);
    out.assign(merged.begin(), merged.begin() + static_cast<std::ptrdiff_t>(len));
}

namespace {

// Merges the sorted pair lists x and y into o / ov, combining equal ids (the combiner's
// typed merge); returns the length. Ids alone (empty values) merge here as a set union.
std::size_t merge_two(const lindex_t* x, const char* xv, std::size_t nx, const lindex_t* y,
                      const char* yv, std::size_t ny, lindex_t* o, char* ov,
                      const PairCombiner& comb) {
    if (comb.value_size != 0) {
        if (comb.merge == nullptr) throw CommError("reduce-scatter: a value type without a merge");
        return comb.merge(comb.ctx, x, xv, nx, y, yv, ny, o, ov);
    }
    std::size_t i = 0, j = 0, n = 0;
    while (i < nx && j < ny) {
        const lindex_t a = x[i], b = y[j];
        o[n++] = a <= b ? a : b;
        i += a <= b;
        j += b <= a;
    }
    const std::size_t ti = nx - i, tj = ny - j;
    if (ti != 0) std::memcpy(o + n, x + i, ti * sizeof(lindex_t));
    if (tj != 0) std::memcpy(o + n + ti, y + j, tj * sizeof(lindex_t));
    return n + ti + tj;
}

}  // namespace

void merge_pairs_into(std::span<const lindex_t> a_ids, const char* a_vals,
                      std::span<const lindex_t> b_ids, const char* b_vals, const PairCombiner& comb,
                      std::vector<lindex_t>& out_ids, std::vector<char>& out_vals) {
    const std::size_t vs = comb.value_size;
    out_ids.resize(a_ids.size() + b_ids.size());
    out_vals.resize(out_ids.size() * vs);
    const std::size_t n = merge_two(a_ids.data(), a_vals, a_ids.size(), b_ids.data(), b_vals,
                                    b_ids.size(), out_ids.data(), out_vals.data(), comb);
    out_ids.resize(n);
    out_vals.resize(n * vs);
}

void merge_pairs(Workspace& ws, std::vector<lindex_t>& ids, std::vector<char>& vals,
                 std::span<const lindex_t> b_ids, const char* b_vals, const PairCombiner& comb) {
    const std::size_t vs = comb.value_size;
    const std::size_t na = ids.size();
    const std::size_t nb = b_ids.size();
    if (nb == 0) return;
    if (na == 0) {
        ids.assign(b_ids.begin(), b_ids.end());
        vals.assign(b_vals, b_vals + nb * vs);
        return;
    }
    merge_pairs_into(ids, vals.data(), b_ids, b_vals, comb, ws.mrg_a, ws.vals2);
    ids.swap(ws.mrg_a);
    vals.swap(ws.vals2);
}

void merge_pair_runs(Workspace& ws, const PairCombiner& comb, std::vector<lindex_t>& out_ids,
                     std::vector<char>& out_vals) {
    const std::size_t vs = comb.value_size;
    std::vector<lindex_t>* a = &ws.mrg_a;
    std::vector<char>* av = &ws.vals2;
    std::vector<lindex_t>* b = &ws.mrg_b;
    std::vector<char>* bv = &ws.vals3;
    std::vector<std::size_t>& runs = ws.runs;
    std::size_t m = runs.size() - 1;
    while (m > 1) {
        b->resize(runs[m]);
        bv->resize(runs[m] * vs);
        std::size_t out = 0, nm = 0;
        for (std::size_t r = 0; r < m; r += 2, ++nm) {
            const std::size_t x = runs[r];
            const std::size_t nx = runs[r + 1] - x;
            const std::size_t y = runs[r + 1];
            const std::size_t ny = r + 1 < m ? runs[r + 2] - y : 0;
            const std::size_t n =
                merge_two(a->data() + x, av->data() + x * vs, nx, a->data() + y,
                          av->data() + y * vs, ny, b->data() + out, bv->data() + out * vs, comb);
            runs[nm] = out;
            out += n;
        }
        runs[nm] = out;
        runs.resize(nm + 1);
        m = nm;
        std::swap(a, b);
        std::swap(av, bv);
    }
    out_ids.assign(a->begin(), a->begin() + std::ptrdiff_t(runs[m]));
    out_vals.assign(av->begin(), av->begin() + std::ptrdiff_t(runs[m] * vs));
}

void encode_pairs(std::span<const lindex_t> ids, const char* vals, const PairCombiner& comb,
                  WireFormat wire, std::vector<char>& out) {
    wire::encode(ids, wire, out);
    const std::size_t vs = comb.value_size;
    if (vs == 0) return;
    if (packs_values(comb, wire)) {
        wire::encode_values(vals, ids.size(), vs, out);
        return;
    }
    const std::size_t nv = ids.size() * vs;
    if (nv != 0) {
        const std::size_t old = out.size();
        out.resize(old + nv);
        std::memcpy(out.data() + old, vals, nv);
    }
}

const char* decode_pairs(std::span<const char> in, const PairCombiner& comb, WireFormat wire,
                         Workspace& ws, std::vector<lindex_t>& ids, std::size_t& used) {
    const std::size_t before = ids.size();
    const std::size_t n = wire::decode(in, ids);
    const std::size_t count = ids.size() - before;
    const std::size_t vs = comb.value_size;
    if (vs == 0) {
        used = n;
        return in.data() + n;
    }
    if (packs_values(comb, wire)) {
        ws.vdec.resize(count * vs);
        used = n + wire::decode_values(in.subspan(n), count, vs, ws.vdec.data());
        return ws.vdec.data();
    }
    const std::size_t nv = count * vs;
    if (in.size() - n < nv) throw CommError("truncated values of a received pair block");
    used = n + nv;
    return in.data() + n;
}

// ---- composites over a plain allgatherv / alltoallv --------------------------------------

void gather_union_ids(Ctx& x, AllgatherFn gather, std::span<const lindex_t> mine, lindex_t universe,
                      WireFormat wire, std::vector<lindex_t>& result, std::uint64_t* bits) {
    Workspace& ws = x.ws;
    ws.csend.clear();
    wire::encode(mine, wire, ws.csend);
    const Payload pl{Payload::id_frame, 0};
    gather(x, ws.csend.data(), ws.csend.size(), pl, ws.crecv, ws.csizes);
    ws.frames.clear();
    std::size_t at = 0;
    for (int r = 0; r < x.size; ++r) {
        if (r != x.rank) ws.frames.emplace_back(ws.crecv.data() + at, ws.csizes[r]);
        at += ws.csizes[r];
    }
    union_frames(ws, mine, ws.frames, universe, result, bits);
}

void exchange_reduce_scatter(Ctx& x, AlltoallFn exchange, std::span<const lindex_t> ids,
                             const char* values, std::span<const std::size_t> counts,
                             lindex_t universe, WireFormat wire, const PairCombiner& comb,
                             std::vector<lindex_t>& out_ids, std::vector<char>& out_values) {
    Workspace& ws = x.ws;
    const std::size_t vs = comb.value_size;
    ws.csend.clear();
    ws.csizes.resize(std::size_t(x.size));
    // This rank's own pairs stay out of the exchange and the codec: they join the merge as
    // they are, as the run of their rank.
    std::size_t at = 0, own_at = 0;
    for (int r = 0; r < x.size; ++r) {
        const std::size_t before = ws.csend.size();
        if (r == x.rank) {
            own_at = at;
        } else {
            encode_pairs(ids.subspan(at, counts[r]), values + at * vs, comb, wire, ws.csend);
        }
        ws.csizes[r] = ws.csend.size() - before;
        at += counts[r];
    }
    const std::size_t own_n = counts[std::size_t(x.rank)];
    const Payload pl{Payload::pair_block, vs};
    exchange(x, ws.csend.data(), ws.csizes, pl, ws.crecv, ws.crsizes);
    // Decode the p received lists back to back, then combine them in a merge tree.
    ws.mrg_a.clear();
    ws.vals2.clear();
    ws.runs.assign(1, 0);
    std::size_t off = 0;
    for (int r = 0; r < x.size; ++r) {
        const std::span<const char> block(ws.crecv.data() + off, ws.crsizes[r]);
        off += ws.crsizes[r];
        if (r == x.rank) {
            if (!block.empty()) throw CommError("a pair block received from this rank itself");
            ws.mrg_a.insert(ws.mrg_a.end(), ids.begin() + std::ptrdiff_t(own_at),
                            ids.begin() + std::ptrdiff_t(own_at + own_n));
            ws.vals2.insert(ws.vals2.end(), values + own_at * vs, values + (own_at + own_n) * vs);
            ws.runs.push_back(ws.mrg_a.size());
            continue;
        }
        const std::size_t before = ws.mrg_a.size();
        std::size_t used = 0;
        const char* v = decode_pairs(block, comb, wire, ws, ws.mrg_a, used);
        const std::size_t n = ws.mrg_a.size() - before;
        if (n != 0 && ws.mrg_a.back() >= universe) {
            throw CommError("received id " + std::to_string(ws.mrg_a.back()) + " >= universe " +
                            std::to_string(universe));
        }
        if (used != block.size()) throw CommError("pair block of the wrong size");
        ws.vals2.insert(ws.vals2.end(), v, v + n * vs);
        ws.runs.push_back(ws.mrg_a.size());
    }
    merge_pair_runs(ws, comb, out_ids, out_values);
}

}  // namespace gridblas::comm::detail
