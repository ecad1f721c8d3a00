// gridblas-mxm-bench: times mxm on a Kronecker graph (Graph500 generator, symmetrised,
// self-loops dropped): C = A·A and C = A·Aᵀ over plus_pair (counts of 2-paths), and the
// masked product of triangle counting, C⟨L⟩ = L·U (see triangle_count.hpp). For each it
// prints the mean and smallest time over --trials runs after a warm-up, the multiply-adds, the
// result's entries, the SUMMA stages and the bytes and messages each stage moves (summed over
// ranks, from the communicators' counters). The same products on SuiteSparse:GraphBLAS come
// from gridblas-baseline-graphblas-mxm; scripts/bench-mxm.sh runs both on one graph.

#include <mpi.h>
#include <omp.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/graph500_stats.hpp"
#include "common/mpi_main.hpp"
#include "common/mxm_options.hpp"
#include "gridblas/algorithms/triangle_count.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "gridblas/ops/mxm.hpp"
#include "gridblas/ops/reduce.hpp"
#include "gridblas/semirings/builtin.hpp"

using namespace gridblas;

namespace {

const char* kHelp = R"(gridblas-mxm-bench: time mxm on a Kronecker graph

  --scale S          2^S vertices (default 16)
  --edgefactor E     edges per vertex (default 16)
  --seed X           generator seed (default 1)
  --products LIST    comma-separated: aa (A*A), aat (A*A'), tc (C<L> = L*U) (default all)
  --method M         local kernel: auto | gustavson | hash | dot (default auto)
  --presort P        tc: auto | always | never (default auto)
  --trials N         timed runs after one warm-up (default 3)
  --grid RxC         process grid (default: most square)
  --threads T        OpenMP threads per rank
  --json FILE        the results as JSON
  --help
)";

struct Row {
    std::string product;
    double mean = 0, min = 0;
    double flops = 0, nvals = 0;
    int stages = 0;
    double bytes_per_stage = 0, messages_per_stage = 0;
    std::string method;
    double local = 0, output = 0;  // seconds of the last run on rank 0: products, output stage
};

int run(int argc, char** argv, int world_rank) {
    bench::Cli cli(argc, argv,
                   {"scale", "edgefactor", "seed", "products", "method", "presort", "trials",
                    "grid", "threads", "json"},
                   {"help"});
    if (cli.has("help")) {
        if (world_rank == 0) std::fputs(kHelp, stdout);
        return 0;
    }
    KroneckerParams kp;
    kp.scale = int(cli.integer("scale", 16, 1, 40));
    kp.edgefactor = int(cli.integer("edgefactor", 16, 1, 1024));
    kp.seed = std::uint64_t(cli.integer("seed", 1, 0, std::int64_t(1) << 62));
    const int trials = int(cli.integer("trials", 3, 1, 1 << 20));
    const MxmMethod method = bench::parse_mxm_method(cli.str("method", "auto"));
    TriangleOptions to;
    to.method = method;
    to.presort = bench::parse_degree_sort(cli.str("presort", "auto"));
    std::vector<std::string> products;
    {
        std::stringstream ss(cli.str("products", "aa,aat,tc"));
        for (std::string p; std::getline(ss, p, ',');) {
            if (p != "aa" && p != "aat" && p != "tc") {
                throw std::invalid_argument("option --products: '" + p +
                                            "' (expected aa, aat or tc)");
            }
            products.push_back(p);
        }
    }
    if (cli.has("threads")) omp_set_num_threads(int(cli.integer("threads", 1, 1, 4096)));
    int pr = 0, pc = 0;
    if (cli.has("grid")) {
        const std::string g = cli.str("grid", "");
        if (std::sscanf(g.c_str(), "%dx%d", &pr, &pc) != 2 || pr <= 0 || pc <= 0) {
            throw std::invalid_argument("option --grid: '" + g + "' is not RxC");
        }
    }
    auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc);
    comm::Communicator& world = grid->world();
    const bool root0 = grid->rank() == 0;
    const auto a = kronecker_graph(grid, kp);
    const gindex_t nnz = a.nvals();

    std::vector<Row> rows;
    for (const std::string& p : products) {
        Row row;
        row.product = p;
        std::vector<double> times;
        MxmStats st;
        TriangleResult tr;
        for (int k = 0; k <= trials; ++k) {  // run 0 is the warm-up
            grid->reset_counters();
            world.allreduce(0, comm::ReduceOp::sum, "bench-sync");
            const double t0 = comm::wtime();
            double seconds = 0;
            if (p == "tc") {
                tr = triangle_count(a, to);
                seconds = tr.seconds_product;
                st = tr.product;
            } else {
                auto c = DistMatrix<std::int64_t>::shell(grid, a.nrows(), a.ncols());
                Descriptor d;
                d.transpose_b = p == "aat";
                d.mxm_method = method;
                mxm(c, no_mask, no_accum, plus_pair<std::int64_t>{}, a, a, d, &st);
                seconds = world.allreduce(comm::wtime() - t0, comm::ReduceOp::max, "bench");
            }
            if (k > 0) times.push_back(seconds);
        }
        const comm::Counters mine = grid->total_counters();
        double sums[4] = {double(st.flops), double(st.nvals), double(mine.bytes_wire),
                          double(mine.messages)};
        world.allreduce(std::span<double>(sums, 4), comm::ReduceOp::sum, "bench");
        const bench::Summary s = bench::summarize(times);
        row.mean = s.mean;
        row.min = s.min;
        row.flops = sums[0];
        row.nvals = sums[1];
        row.stages = st.stages;
        row.bytes_per_stage = sums[2] / std::max(1, st.stages);
        row.messages_per_stage = sums[3] / std::max(1, st.stages);
        row.method = bench::mxm_method_name(st.method);
        row.local = st.seconds_local;
        row.output = st.seconds_output;
        if (p == "tc" && root0) {
            std::printf("triangles: %lld (presorted: %d)\n", (long long)tr.triangles,
                        tr.presorted ? 1 : 0);
        }
        rows.push_back(row);
    }
    if (root0) {
        std::printf("graph: kronecker scale %d edgefactor %d, %lld vertices, %lld stored entries\n",
                    kp.scale, kp.edgefactor, (long long)a.nrows(), (long long)nnz);
        std::printf("ranks: %d grid: %dx%d threads: %d trials: %d\n", grid->size(), grid->pr(),
                    grid->pc(), omp_get_max_threads(), trials);
        std::printf("%-5s %-10s %12s %12s %14s %14s %7s %14s %10s %8s %9s %9s\n", "prod", "method",
                    "mean_s", "min_s", "flops", "nvals", "stages", "bytes/stage", "msgs/stage",
                    "Gflop/s", "local_s", "output_s");
        for (const Row& r : rows) {
            std::printf(
                "%-5s %-10s %12.6f %12.6f %14.0f %14.0f %7d %14.0f %10.0f %8.3f %9.4f %9.4f\n",
                r.product.c_str(), r.method.c_str(), r.mean, r.min, r.flops, r.nvals, r.stages,
                r.bytes_per_stage, r.messages_per_stage, r.mean > 0 ? r.flops / r.mean * 1e-9 : 0.0,
                r.local, r.output);
        }
    }
    if (cli.has("json") && root0) {
        std::ofstream j(cli.str("json", ""));
        if (!j) throw std::runtime_error("cannot write " + cli.str("json", ""));
        j << "{\"program\":\"gridblas-mxm-bench\",\"scale\":" << kp.scale
          << ",\"edgefactor\":" << kp.edgefactor << ",\"ranks\":" << grid->size() << ",\"grid\":\""
          << grid->pr() << 'x' << grid->pc() << "\",\"threads\":" << omp_get_max_threads()
          << ",\"products\":[";
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const Row& r = rows[k];
            j << (k ? "," : "") << "{\"product\":\"" << r.product << "\",\"method\":\"" << r.method
              << "\",\"mean\":" << r.mean << ",\"min\":" << r.min << ",\"flops\":" << r.flops
              << ",\"nvals\":" << r.nvals << ",\"stages\":" << r.stages
              << ",\"bytes_per_stage\":" << r.bytes_per_stage
              << ",\"messages_per_stage\":" << r.messages_per_stage << "}";
        }
        j << "]}\n";
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::mpi_main(argc, argv, "gridblas-mxm-bench", run);
}
