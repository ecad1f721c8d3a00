// gridblas-vxm-bench: distributed vxm on a Kronecker graph for every grid shape of the rank
// count and both local formats, with input vectors of several densities, push and pull.
// Prints one line per configuration: time per call (median of --reps), edges of A met by
// the input per second, and the messages / bytes one call sends (all ranks).

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "common/cli.hpp"
#include "common/mpi_main.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "gridblas/ops/spmv.hpp"
#include "gridblas/semirings/builtin.hpp"

using namespace gridblas;

namespace {

const char* kHelp = R"(gridblas-vxm-bench: distributed vxm on a Kronecker graph
  --scale S        graph scale (default 16)    --edgefactor E  (default 16)
  --reps R         calls per configuration (default 5)
  --threads T      OpenMP threads per rank
  --comm C         auto | mpi | butterfly | ring (default auto)
  --help
)";

int run(int argc, char** argv, int rank) {
    bench::Cli cli(argc, argv, {"scale", "edgefactor", "reps", "threads", "comm"}, {"help"});
    if (cli.has("help")) {
        if (rank == 0) std::fputs(kHelp, stdout);
        return 0;
    }
    KroneckerParams kp;
    kp.scale = int(cli.integer("scale", 16, 1, 32));
    kp.edgefactor = int(cli.integer("edgefactor", 16, 1, 1024));
    const int reps = int(cli.integer("reps", 5, 1, 1000));
    if (cli.has("threads")) omp_set_num_threads(int(cli.integer("threads", 1, 1, 1024)));
    comm::Options co;
    co.backend = comm::parse_backend(cli.str("comm", "auto"));
    int p = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (rank == 0) {
        std::printf("# scale %d edgefactor %d ranks %d threads %d comm %s\n", kp.scale,
                    kp.edgefactor, p, omp_get_max_threads(), comm::to_string(co.backend).c_str());
        std::printf("%6s %5s %8s %5s %12s %12s %10s %12s\n", "grid", "fmt", "density", "dir",
                    "ms/call", "Medges/s", "messages", "bytes");
    }
    for (int pr = 1; pr <= p; ++pr) {
        if (p % pr) continue;
        auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, p / pr, co);
        for (auto fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            GraphOptions go;
            go.format = fmt;
            auto a = kronecker_graph(grid, kp, go);
            const gindex_t n = a.nrows();
            const double avg_degree = double(a.nvals()) / double(n);
            for (double density : {0.001, 0.01, 0.1, 0.5}) {
                // The same random input on every grid: vertex v is in with probability density.
                std::vector<gindex_t> idx;
                ValueArray<gindex_t> vals;
                std::mt19937_64 rng(42);
                std::bernoulli_distribution in(density);
                for (gindex_t v = 0; v < n; ++v) {
                    if (in(rng) && a.row_dist().owner(v) == grid->rank()) {
                        idx.push_back(v);
                        vals.push_back(v);
                    }
                }
                auto u = DistVector<gindex_t>::from_tuples(grid, n, idx, vals);
                const double nnz_u = double(u.nvals());
                for (Direction dir : {Direction::push, Direction::pull}) {
                    DistVector<gindex_t> w(grid, n);
                    SpmvWorkspace<gindex_t, gindex_t, Pattern> ws;
                    Descriptor d;
                    d.direction = dir;
                    d.replace = true;
                    std::vector<double> t;
                    comm::Counters c0{}, c1{};
                    for (int r = 0; r <= reps; ++r) {
                        if (r == 1) c0 = grid->total_counters();
                        MPI_Barrier(MPI_COMM_WORLD);
                        const double t0 = MPI_Wtime();
                        vxm(w, no_mask, no_accum, select2nd_min<gindex_t>{}, u, a, d, &ws);
                        double dt = MPI_Wtime() - t0;
                        MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                        if (r > 0) t.push_back(dt);  // r = 0 is a warm-up
                    }
                    c1 = grid->total_counters();
                    std::uint64_t cnt[2] = {(c1.messages - c0.messages) / std::uint64_t(reps),
                                            (c1.bytes_wire - c0.bytes_wire) / std::uint64_t(reps)};
                    MPI_Allreduce(MPI_IN_PLACE, cnt, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
                    std::sort(t.begin(), t.end());
                    const double med = t[t.size() / 2];
                    if (rank == 0) {
                        std::printf("%3dx%-2d %5s %8.3f %5s %12.3f %12.1f %10llu %12llu\n", pr,
                                    p / pr, to_string(fmt).c_str(), density,
                                    dir == Direction::push ? "push" : "pull", med * 1e3,
                                    nnz_u * avg_degree / med / 1e6, (unsigned long long)cnt[0],
                                    (unsigned long long)cnt[1]);
                    }
                }
            }
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::mpi_main(argc, argv, "gridblas-vxm-bench", run);
}
