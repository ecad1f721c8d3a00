#pragma once
// A start-up check of the MPI benchmark programs: ranks that share a core while the MPI
// library polls in its waits instead of yielding. A waiting rank then holds the core through
// its time slice while the rank it waits for, placed on the same core, cannot run: on a 2-core
// machine a search of 24 ms took 658 ms that way (four ranks bound two to a core by a
// rankfile, where Open MPI leaves its mpi_yield_when_idle off; it turns it on by itself only
// when it places more ranks than slots). The programs print a warning and carry on.

#include <mpi.h>

#if defined(__linux__)
#include <sched.h>
#endif

#include <cstddef>
#include <cstdio>
#include <optional>
#include <vector>

namespace gridblas::bench {

/// Open MPI's control variable mpi_yield_when_idle (through the MPI tool interface):
/// whether a waiting rank yields its core. std::nullopt where the library has no such
/// variable or it cannot be read.
inline std::optional<bool> mpi_yields_when_idle() {
    int provided = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return std::nullopt;
    std::optional<bool> yields;
    int index = 0;
    if (MPI_T_cvar_get_index("mpi_yield_when_idle", &index) == MPI_SUCCESS) {
        MPI_T_cvar_handle handle;
        int count = 0;
        if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) == MPI_SUCCESS) {
            // A boolean or an integer, depending on the library: read into zeroed bytes
            // wide enough for either and take any non-zero byte as true.
            unsigned char value[16] = {};
            if (count == 1 && MPI_T_cvar_read(handle, value) == MPI_SUCCESS) {
                bool any = false;
                for (unsigned char b : value) any = any || b != 0;
                yields = any;
            }
            MPI_T_cvar_handle_free(&handle);
        }
    }
    MPI_T_finalize();
    return yields;
}

/// Collective over MPI_COMM_WORLD: warns on rank 0 (stderr, prefixed with `name`) when
/// ranks of one node are bound so that more of them share a set of CPUs than it has, while
/// Open MPI does not yield in its waits. Does nothing on other MPI libraries or systems
/// without CPU affinity masks.
inline void warn_if_ranks_share_cores_polling(const char* name, int rank) {
#if defined(__linux__)
    const std::optional<bool> yields = mpi_yields_when_idle();
    cpu_set_t mine;
    CPU_ZERO(&mine);
    const bool have_mask = sched_getaffinity(0, sizeof mine, &mine) == 0;
    // The collectives run on every rank whatever it found, so that none is left waiting.
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int ranks = 1;
    MPI_Comm_size(node, &ranks);
    std::vector<cpu_set_t> all(static_cast<std::size_t>(ranks));
    MPI_Allgather(&mine, int(sizeof mine), MPI_BYTE, all.data(), int(sizeof mine), MPI_BYTE, node);
    MPI_Comm_free(&node);
    int poll_here = 0, crowded_ranks = 0, crowded_cpus = 0;
    if (yields.has_value() && !*yields && have_mask) {
        // The ranks bound inside this rank's CPUs, against how many CPUs those are.
        int inside = 0;
        for (const cpu_set_t& other : all) {
            cpu_set_t both;
            CPU_AND(&both, &other, &mine);
            inside += CPU_COUNT(&other) > 0 && CPU_EQUAL(&both, &other) ? 1 : 0;
        }
        if (inside > CPU_COUNT(&mine)) {
            poll_here = 1;
            crowded_ranks = inside;
            crowded_cpus = CPU_COUNT(&mine);
        }
    }
    int local[3] = {poll_here, crowded_ranks, crowded_cpus};
    int worst[3] = {0, 0, 0};
    MPI_Allreduce(local, worst, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && worst[0] != 0) {
        std::fprintf(stderr,
                     "%s: warning: up to %d ranks are bound to %d CPU(s) and Open MPI polls "
                     "while it waits (mpi_yield_when_idle is off), so a waiting rank keeps "
                     "its core from the rank it waits for: expect times many times too long. "
                     "Add `--mca mpi_yield_when_idle 1` to mpirun.\n",
                     name, worst[1], worst[2]);
    }
#else
    (void)name;
    (void)rank;
#endif
}

}  // namespace gridblas::bench
