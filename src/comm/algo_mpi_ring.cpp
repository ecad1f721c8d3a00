// The `mpi` backend (MPI_Allgatherv / MPI_Alltoallv after a size pre-exchange) and the `ring`
// baseline: an allgather of p-1 steps that passes each piece on to rank+1 (the "wave" that
// Fu et al. 2014 describe), and a pairwise alltoall of p-1 steps (step s: send to rank+s, receive
// from rank-s). Both are payload-agnostic; set unions and reduce-scatters are layered on top of
// them in common.cpp.

#include <cstring>

#include "detail.hpp"

namespace gridblas::comm::detail {
namespace {

void copy_self(const char* send, std::size_t bytes, std::vector<char>& recv,
               std::vector<std::size_t>& recv_bytes) {
    recv.resize(bytes);
    if (bytes != 0) std::memcpy(recv.data(), send, bytes);
    recv_bytes.assign(1, bytes);
}

// Reorders `stage` (blocks in arrival order a = 0..p-1, arrival a coming from rank
// origin(a)) into rank order in `recv`.
template <class Origin>
void to_rank_order(const std::vector<char>& stage, const std::vector<std::size_t>& sizes,
                   std::vector<std::size_t>& offs, int p, Origin origin, std::vector<char>& recv,
                   std::vector<std::size_t>& recv_bytes) {
    recv_bytes.resize(std::size_t(p));
    offs.resize(std::size_t(p));
    std::size_t at = 0;
    for (int a = 0; a < p; ++a) {
        const int o = origin(a);
        recv_bytes[o] = sizes[a];
        offs[o] = at;
        at += sizes[a];
    }
    recv.resize(at);
    std::size_t out = 0;
    for (int o = 0; o < p; ++o) {
        if (recv_bytes[o] != 0)
            std::memcpy(recv.data() + out, stage.data() + offs[o], recv_bytes[o]);
        out += recv_bytes[o];
    }
}

}  // namespace

void mpi_allgatherv(Ctx& x, const char* send, std::size_t bytes, const Payload& pl,
                    std::vector<char>& recv, std::vector<std::size_t>& recv_bytes) {
    const int p = x.size;
    if (p == 1) return copy_self(send, bytes, recv, recv_bytes);
    Workspace& ws = x.ws;
    const std::uint64_t mine = bytes;
    ws.u64a.resize(std::size_t(p));
    check_mpi(MPI_Allgather(&mine, 1, MPI_UINT64_T, ws.u64a.data(), 1, MPI_UINT64_T, x.comm),
              "MPI_Allgather");
    ws.icounts.resize(std::size_t(p));
    ws.idispls.resize(std::size_t(p));
    recv_bytes.resize(std::size_t(p));
    std::size_t total = 0;
    for (int r = 0; r < p; ++r) {
        ws.icounts[r] = to_int(ws.u64a[r], "MPI_Allgatherv");
        ws.idispls[r] = to_int(total, "MPI_Allgatherv");
        recv_bytes[r] = ws.u64a[r];
        total += ws.u64a[r];
    }
    recv.resize(total);
    check_mpi(MPI_Allgatherv(send, to_int(bytes, "MPI_Allgatherv"), MPI_BYTE, recv.data(),
                             ws.icounts.data(), ws.idispls.data(), MPI_BYTE, x.comm),
              "MPI_Allgatherv");
    x.c.messages += std::uint64_t(p - 1);
    x.c.bytes_wire += bytes * std::uint64_t(p - 1);
    x.c.bytes_raw += pl.raw(send, bytes) * std::uint64_t(p - 1);
}

void mpi_alltoallv(Ctx& x, const char* send, std::span<const std::size_t> send_bytes,
                   const Payload& pl, std::vector<char>& recv,
                   std::vector<std::size_t>& recv_bytes) {
    const int p = x.size;
    if (p == 1) return copy_self(send, send_bytes[0], recv, recv_bytes);
    Workspace& ws = x.ws;
    ws.u64a.assign(send_bytes.begin(), send_bytes.end());
    ws.u64b.resize(std::size_t(p));
    check_mpi(
        MPI_Alltoall(ws.u64a.data(), 1, MPI_UINT64_T, ws.u64b.data(), 1, MPI_UINT64_T, x.comm),
        "MPI_Alltoall");
    ws.icounts.resize(std::size_t(p));
    ws.idispls.resize(std::size_t(p));
    ws.icounts2.resize(std::size_t(p));
    ws.idispls2.resize(std::size_t(p));
    recv_bytes.resize(std::size_t(p));
    std::size_t sat = 0, rat = 0;
    for (int r = 0; r < p; ++r) {
        ws.icounts[r] = to_int(send_bytes[r], "MPI_Alltoallv");
        ws.idispls[r] = to_int(sat, "MPI_Alltoallv");
        ws.icounts2[r] = to_int(ws.u64b[r], "MPI_Alltoallv");
        ws.idispls2[r] = to_int(rat, "MPI_Alltoallv");
        recv_bytes[r] = ws.u64b[r];
        if (r != x.rank && send_bytes[r] != 0) {
            x.c.messages += 1;
            x.c.bytes_wire += send_bytes[r];
            x.c.bytes_raw += pl.raw(send + sat, send_bytes[r]);
        }
        sat += send_bytes[r];
        rat += ws.u64b[r];
    }
    recv.resize(rat);
    check_mpi(MPI_Alltoallv(send, ws.icounts.data(), ws.idispls.data(), MPI_BYTE, recv.data(),
                            ws.icounts2.data(), ws.idispls2.data(), MPI_BYTE, x.comm),
              "MPI_Alltoallv");
}

void ring_allgatherv(Ctx& x, const char* send, std::size_t bytes, const Payload& pl,
                     std::vector<char>& recv, std::vector<std::size_t>& recv_bytes) {
    const int p = x.size;
    const int r = x.rank;
    if (p == 1) return copy_self(send, bytes, recv, recv_bytes);
    Workspace& ws = x.ws;
    // stage: arrival a = 0..p-1 is the piece of rank (r - a) mod p.
    ws.stage.assign(send, send + bytes);
    ws.sizes.assign(1, bytes);
    ws.offs.assign(1, 0);
    const int next = (r + 1) % p;
    const int prev = (r + p - 1) % p;
    for (int step = 0; step + 1 < p; ++step) {
        ws.reqs.resize(1);
        const char* block = ws.stage.data() + ws.offs[step];
        post_send(x, block, ws.sizes[step], pl.raw(block, ws.sizes[step]), next, kTagAllgather,
                  ws.reqs.data());
        recv_any(x, prev, kTagAllgather, ws.recv);
        wait_all(ws.reqs);
        ws.offs.push_back(ws.stage.size());
        ws.sizes.push_back(ws.recv.size());
        ws.stage.insert(ws.stage.end(), ws.recv.begin(), ws.recv.end());
    }
    to_rank_order(
        ws.stage, ws.sizes, ws.offs, p, [&](int a) { return (r - a + p) % p; }, recv, recv_bytes);
}

void ring_alltoallv(Ctx& x, const char* send, std::span<const std::size_t> send_bytes,
                    const Payload& pl, std::vector<char>& recv,
                    std::vector<std::size_t>& recv_bytes) {
    const int p = x.size;
    const int r = x.rank;
    if (p == 1) return copy_self(send, send_bytes[0], recv, recv_bytes);
    Workspace& ws = x.ws;
    ws.offs.resize(std::size_t(p));
    std::size_t at = 0;
    for (int d = 0; d < p; ++d) {
        ws.offs[d] = at;
        at += send_bytes[d];
    }
    // stage: arrival s = 0..p-1 is the block from rank (r - s) mod p.
    ws.stage.assign(send + ws.offs[r], send + ws.offs[r] + send_bytes[r]);
    ws.sizes.assign(1, send_bytes[r]);
    for (int s = 1; s < p; ++s) {
        const int dest = (r + s) % p;
        const int src = (r - s + p) % p;
        ws.reqs.resize(1);
        const char* block = send + ws.offs[dest];
        post_send(x, block, send_bytes[dest], pl.raw(block, send_bytes[dest]), dest, kTagAlltoall,
                  ws.reqs.data());
        recv_any(x, src, kTagAlltoall, ws.recv);
        wait_all(ws.reqs);
        ws.sizes.push_back(ws.recv.size());
        ws.stage.insert(ws.stage.end(), ws.recv.begin(), ws.recv.end());
    }
    to_rank_order(
        ws.stage, ws.sizes, ws.offs, p, [&](int a) { return (r - a + p) % p; }, recv, recv_bytes);
}

}  // namespace gridblas::comm::detail
