// The backend objects: `Engine` implements the byte-level back of Communicator by running
// the algorithm of one backend (mpi, ring or butterfly: algo_*.cpp) per call; the fixed
// backends always run the one of their options, the automatic one agrees with the other
// ranks on the largest contribution (one MPI_Allreduce of a word) and runs the backend with
// the smallest alpha-beta prediction (model.cpp).

#include <mpi.h>

#include "detail.hpp"

namespace gridblas::comm::detail {
namespace {

class Engine : public Communicator {
public:
    Engine(MPI_Comm comm, const Options& opts) : Communicator(comm, opts) {}

protected:
    /// Backend for the next exchange of kind `op`, this rank contributing `bytes`.
    virtual Backend choose(Collective op, std::size_t bytes, lindex_t universe) {
        return opts_.backend;
    }

    Ctx ctx(Counters& c) { return Ctx{comm_, rank_, size_, *ws_, c}; }

    void allgatherv_bytes(const void* send, std::size_t bytes, std::vector<char>& recv,
                          std::vector<std::size_t>& recv_bytes, const Payload& pl,
                          Counters& c) override {
        Ctx x = ctx(c);
        const char* s = static_cast<const char*>(send);
        switch (last_backend_ = choose(Collective::allgather, bytes, 0)) {
            case Backend::mpi:
                mpi_allgatherv(x, s, bytes, pl, recv, recv_bytes);
                break;
            case Backend::ring:
                ring_allgatherv(x, s, bytes, pl, recv, recv_bytes);
                break;
            default:
                bfly_allgatherv(x, opts_.fanout, s, bytes, pl, recv, recv_bytes);
                break;
        }
    }

    void alltoallv_bytes(const void* send, std::span<const std::size_t> send_bytes,
                         std::vector<char>& recv, std::vector<std::size_t>& recv_bytes,
                         const Payload& pl, Counters& c) override {
        Ctx x = ctx(c);
        const char* s = static_cast<const char*>(send);
        std::size_t total = 0;
        for (const std::size_t b : send_bytes) total += b;
        switch (last_backend_ = choose(Collective::alltoall, total, 0)) {
            case Backend::mpi:
                mpi_alltoallv(x, s, send_bytes, pl, recv, recv_bytes);
                break;
            case Backend::ring:
                ring_alltoallv(x, s, send_bytes, pl, recv, recv_bytes);
                break;
            default:
                bfly_alltoallv(x, opts_.fanout, s, send_bytes, pl, recv, recv_bytes);
                break;
        }
    }

    void union_ids(std::span<const lindex_t> mine, lindex_t universe, WireFormat wire,
                   std::vector<lindex_t>& result, std::uint64_t* bits, Counters& c) override {
        Ctx x = ctx(c);
        const std::size_t bytes =
            opts_.backend == Backend::automatic ? wire::frame_sizes(mine).of(wire) : 0;
        switch (last_backend_ = choose(Collective::allgather_ids, bytes, universe)) {
            case Backend::mpi:
                gather_union_ids(x, mpi_allgatherv, mine, universe, wire, result, bits);
                break;
            case Backend::ring:
                gather_union_ids(x, ring_allgatherv, mine, universe, wire, result, bits);
                break;
            default:
                bfly_union_ids(x, opts_.fanout, mine, universe, wire, result, bits);
                break;
        }
    }

    void reduce_scatter_bytes(std::span<const lindex_t> ids, const char* values,
                              std::span<const std::size_t> counts, lindex_t universe,
                              WireFormat wire, const PairCombiner& comb,
                              std::vector<lindex_t>& out_ids, std::vector<char>& out_values,
                              Counters& c) override {
        Ctx x = ctx(c);
        const std::size_t bytes = ids.size() * (sizeof(lindex_t) + comb.value_size);
        switch (last_backend_ = choose(Collective::reduce_scatter, bytes, universe)) {
            case Backend::mpi:
                exchange_reduce_scatter(x, mpi_alltoallv, ids, values, counts, universe, wire, comb,
                                        out_ids, out_values);
                break;
            case Backend::ring:
                exchange_reduce_scatter(x, ring_alltoallv, ids, values, counts, universe, wire,
                                        comb, out_ids, out_values);
                break;
            default:
                bfly_reduce_scatter(x, opts_.fanout, ids, values, counts, universe, wire, comb,
                                    out_ids, out_values);
                break;
        }
    }
};

class AutoEngine final : public Engine {
public:
    using Engine::Engine;

protected:
    Backend choose(Collective op, std::size_t bytes, lindex_t universe) override {
        if (size_ == 1) return Backend::mpi;
        std::uint64_t m = bytes;
        check_mpi(MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPI_UINT64_T, MPI_MAX, comm_),
                  "MPI_Allreduce");
        return pick_backend(op, std::size_t(m), universe);
    }
};

}  // namespace

std::unique_ptr<Communicator> make_backend(MPI_Comm comm, const Options& opts) {
    if (opts.backend == Backend::automatic) return std::make_unique<AutoEngine>(comm, opts);
    return std::make_unique<Engine>(comm, opts);
}

}  // namespace gridblas::comm::detail
