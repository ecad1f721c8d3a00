#pragma once
// The main() of the MPI benchmark programs: MPI set-up and tear-down around `run`, and one
// error policy for all of them.

#include <mpi.h>

#include <cstdio>
#include <exception>

#include "placement_check.hpp"

namespace gridblas::bench {

/// Initialises MPI (MPI_THREAD_FUNNELED: only the main thread calls MPI, OpenMP threads
/// compute), returns run(argc, argv, rank) and finalises. An exception is printed by rank 0
/// as "<name>: error: <what>" and gives exit status 1 on every rank: argument checks are
/// local and deterministic and library errors are raised on all ranks alike, so no rank
/// is left waiting for another. Before `run`, warns when ranks share cores while the MPI
/// library polls in its waits (warn_if_ranks_share_cores_polling).
template <class Run>
int mpi_main(int argc, char** argv, const char* name, Run run) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    warn_if_ranks_share_cores_polling(name, rank);
    int code = 0;
    try {
        code = run(argc, argv, rank);
    } catch (const std::exception& e) {
        if (rank == 0) std::fprintf(stderr, "%s: error: %s\n", name, e.what());
        code = 1;
    }
    MPI_Finalize();
    return code;
}

}  // namespace gridblas::bench
