// gridblas-comm-bench: the communication backends on frontier-like payloads.
//
// Every rank draws a random sorted id set of `density * universe` ids (a BFS frontier piece)
// and the program times, for every backend x fanout x wire format, three exchanges of a BFS
// level: `union` (allgather_ids, the expand of a frontier), `alltoall` (alltoall_ids of the
// set split among owner ranks) and `fold` (reduce_scatter_pairs of (id, parent) pairs with
// min: partial results combined on their way to the owner; vxm / mxv fold with an alltoallv
// of (index, value) pairs combined at the owner instead, see include/gridblas/ops/spmv.hpp).
// It reports messages per rank, bytes on the wire and raw bytes (summed over ranks) and the
// time per call (slowest rank, mean over repetitions after a warm-up), after Green 2021
// (butterfly vs all-to-all message counts) and Bisson et al. 2016 / Young et al. 2016
// (compressed frontiers); see References in README.md.

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/mpi_main.hpp"
#include "gridblas/comm/communicator.hpp"
#include "gridblas/core/error.hpp"

namespace gc = gridblas::comm;
using gridblas::lindex_t;

namespace {

struct Args {
    lindex_t universe = 1u << 22;
    std::vector<double> densities;  // empty: sizes 1e2 .. 1e6 ids per rank
    int reps = 5;
    std::vector<gc::Backend> backends = {gc::Backend::mpi, gc::Backend::ring,
                                         gc::Backend::butterfly, gc::Backend::automatic};
    std::vector<int> fanouts = {2, 3, 4};
    std::vector<gc::WireFormat> wires = {gc::WireFormat::raw, gc::WireFormat::delta,
                                         gc::WireFormat::bitmap, gc::WireFormat::automatic};
    std::vector<std::string> ops = {"union", "alltoall", "fold"};
    std::string json;
    bool calibrate = false;
};

const char* kHelp =
    "usage: gridblas-comm-bench [options]   (run under mpirun)\n"
    "  --universe N        ids are drawn below N (default 4194304)\n"
    "  --density a,b,...   fraction of the universe each rank holds (default: 1e2..1e6 ids)\n"
    "  --reps R            timed repetitions per case, after one warm-up (default 5)\n"
    "  --backends list     mpi,ring,butterfly,auto (default all)\n"
    "  --fanouts list      butterfly / auto radices (default 2,3,4)\n"
    "  --wires list        raw,delta,bitmap,auto (default all)\n"
    "  --ops list          union,alltoall,fold (default all); fold is reduce_scatter_pairs,\n"
    "                      which combines on the way (vxm folds with an alltoallv)\n"
    "  --calibrate         measure alpha/beta for the automatic backend first\n"
    "  --json FILE         also write the results as JSON\n"
    "  --help              this text\n";

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');) {
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

// Returns false (after printing on rank 0) if the program should stop.
bool parse(int argc, char** argv, int rank, Args& a, int& status) {
    auto fail = [&](const std::string& msg) {
        if (rank == 0) std::fprintf(stderr, "gridblas-comm-bench: %s\n%s", msg.c_str(), kHelp);
        status = 2;
        return false;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        if (k == "--help" || k == "-h") {
            if (rank == 0) std::printf("%s", kHelp);
            return false;
        }
        if (k == "--calibrate") {
            a.calibrate = true;
            continue;
        }
        if (i + 1 >= argc) return fail("missing value after " + k);
        const std::string v = argv[++i];
        try {
            if (k == "--universe") {
                const unsigned long long u = std::stoull(v);
                if (u == 0 || u > 0xffffffffull) return fail("--universe must be in [1, 2^32)");
                a.universe = lindex_t(u);
            } else if (k == "--density") {
                a.densities.clear();
                for (const auto& d : split(v)) a.densities.push_back(std::stod(d));
            } else if (k == "--reps") {
                a.reps = std::max(1, std::stoi(v));
            } else if (k == "--backends") {
                a.backends.clear();
                for (const auto& b : split(v)) a.backends.push_back(gc::parse_backend(b));
            } else if (k == "--fanouts") {
                a.fanouts.clear();
                for (const auto& f : split(v)) a.fanouts.push_back(std::stoi(f));
            } else if (k == "--wires") {
                a.wires.clear();
                for (const auto& w : split(v)) a.wires.push_back(gc::parse_wire_format(w));
            } else if (k == "--ops") {
                a.ops = split(v);
            } else if (k == "--json") {
                a.json = v;
            } else {
                return fail("unknown option " + k);
            }
        } catch (const std::exception& e) {
            return fail("bad value '" + v + "' for " + k + ": " + e.what());
        }
    }
    for (const auto& op : a.ops) {
        if (op != "union" && op != "alltoall" && op != "fold") return fail("unknown op " + op);
    }
    for (const int k : a.fanouts) {
        if (k < 2) return fail("fanouts must be >= 2");
    }
    if (a.densities.empty()) {
        for (const double n : {1e2, 1e3, 1e4, 1e5, 1e6}) a.densities.push_back(n / a.universe);
    }
    for (const double d : a.densities) {
        if (!(d > 0.0 && d <= 1.0)) return fail("densities must be in (0, 1]");
    }
    return true;
}

// A random sorted set of about density * universe ids.
std::vector<lindex_t> frontier(std::uint64_t seed, lindex_t universe, double density) {
    std::mt19937_64 rng(seed);
    std::vector<lindex_t> ids;
    const double want = density * universe;
    if (density > 0.05) {
        const std::uint64_t cut = std::uint64_t(density * 18446744073709551615.0);
        for (lindex_t i = 0; i < universe; ++i) {
            if (rng() <= cut) ids.push_back(i);
        }
    } else {
        ids.resize(std::size_t(want));
        for (auto& v : ids) v = lindex_t(rng() % universe);
        std::sort(ids.begin(), ids.end());
        ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    }
    return ids;
}

struct Row {
    std::string op, backend, wire, chosen;
    int fanout = 0;
    double density = 0;
    double ids_per_rank = 0;
    double msgs_per_rank = 0;  // per call, max over ranks
    double bytes_wire = 0;     // per call, sum over ranks
    double bytes_raw = 0;
    double seconds = 0;  // per call: slowest rank, mean over repetitions
    double best = 0;     // per call: slowest rank, best repetition
};

/// What every rank sends: its frontier piece `mine` (for union) and the same ids split among
/// their owners' pieces of `piece` ids, local to the owner, with a parent each (alltoall,
/// fold).
struct Payload {
    std::vector<lindex_t> mine;
    lindex_t piece = 0;
    std::vector<lindex_t> local;
    std::vector<std::uint64_t> parents;
    std::vector<int> counts;
};

Payload make_payload(int rank, int p, lindex_t universe, double density) {
    Payload pl;
    pl.mine = frontier(std::uint64_t(rank) * 1000003 + 11, universe, density);
    pl.piece = (universe + lindex_t(p) - 1) / lindex_t(p);  // owner blocks
    pl.counts.assign(static_cast<std::size_t>(p), 0);
    for (const lindex_t id : pl.mine) {
        pl.counts[std::size_t(id / pl.piece)]++;
        pl.local.push_back(id % pl.piece);
        pl.parents.push_back(std::uint64_t(rank) * universe + id);
    }
    return pl;
}

/// Received data of one exchange, kept between calls so that buffers are reused.
struct Received {
    std::vector<lindex_t> ids;
    std::vector<int> counts;
    std::vector<std::uint64_t> values;
};

/// One call of the exchange `op` on `c`.
void exchange(gc::Communicator& c, const std::string& op, const Payload& pl, lindex_t universe,
              Received& r) {
    if (op == "union") {
        c.allgather_ids(pl.mine, universe, r.ids, "bench");
    } else if (op == "alltoall") {
        c.alltoall_ids(pl.local, pl.counts, pl.piece, r.ids, r.counts, "bench");
    } else if (op == "fold") {
        c.reduce_scatter_pairs(
            std::span<const lindex_t>(pl.local), std::span<const std::uint64_t>(pl.parents),
            std::span<const int>(pl.counts), pl.piece,
            [](std::uint64_t x, std::uint64_t y) { return x < y ? x : y; }, r.ids, r.values,
            "bench");
    } else {
        throw gridblas::InvalidValue("unknown op " + op);
    }
}

/// Whether the backend has a radix (the other backends ignore Options::fanout).
bool uses_fanout(gc::Backend b) {
    return b == gc::Backend::butterfly || b == gc::Backend::automatic;
}

/// Times `reps` calls of `op` with the options `o` after one warm-up call, and gathers the
/// row's statistics over all ranks (collective).
Row measure(const std::string& op, const gc::Options& o, const Payload& pl, const Args& a,
            double density) {
    auto c = gc::Communicator::create(MPI_COMM_WORLD, o);
    Received received;
    exchange(*c, op, pl, a.universe, received);  // warm-up: buffers grow here
    c->reset_counters();
    std::vector<double> times(static_cast<std::size_t>(a.reps));
    MPI_Barrier(MPI_COMM_WORLD);
    for (double& t : times) {
        const double t0 = MPI_Wtime();
        exchange(*c, op, pl, a.universe, received);
        t = MPI_Wtime() - t0;
    }
    // Time of a call = its slowest rank.
    MPI_Allreduce(MPI_IN_PLACE, times.data(), a.reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    const gc::Counters t = c->total();
    double sums[2] = {double(t.bytes_wire), double(t.bytes_raw)};
    double maxs[2] = {double(t.messages), double(pl.mine.size())};
    MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, maxs, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    Row r;
    r.op = op;
    r.backend = gc::to_string(o.backend);
    r.fanout = uses_fanout(o.backend) ? o.fanout : 0;
    r.wire = gc::to_string(o.wire);
    r.chosen = gc::to_string(c->last_backend());
    r.density = density;
    r.ids_per_rank = maxs[1];
    r.msgs_per_rank = maxs[0] / a.reps;
    r.bytes_wire = sums[0] / a.reps;
    r.bytes_raw = sums[1] / a.reps;
    for (const double x : times) r.seconds += x / a.reps;
    r.best = *std::min_element(times.begin(), times.end());
    return r;
}

/// Every backend x fanout x wire format the arguments ask for (the fanout only varies for
/// the backends that use it).
std::vector<gc::Options> configurations(const Args& a, double alpha, double beta) {
    std::vector<gc::Options> out;
    for (const gc::Backend b : a.backends) {
        for (const int k : uses_fanout(b) ? a.fanouts : std::vector<int>{2}) {
            for (const gc::WireFormat w : a.wires) {
                gc::Options o;
                o.backend = b;
                o.fanout = k;
                o.wire = w;
                o.alpha_s = alpha;
                o.beta_s = beta;
                out.push_back(o);
            }
        }
    }
    return out;
}

void print_header(int p, const Args& a, double alpha, double beta) {
    std::printf(
        "# gridblas-comm-bench: %d ranks, universe %u, %d reps, alpha %.3g s, beta %.3g s/B\n", p,
        a.universe, a.reps, alpha, beta);
    std::printf(
        "# per call: msgs/rank max over ranks; bytes summed over ranks; time of the slowest"
        " rank, mean and best of the repetitions\n");
    std::printf("%-8s %-9s %2s %-6s %10s %10s %6s %12s %12s %6s %9s %9s %s\n", "op", "backend", "k",
                "wire", "density", "ids/rank", "msgs", "bytes_wire", "bytes_raw", "ratio",
                "ms_mean", "ms_best", "chosen");
}

void print_row(const Row& r, gc::Backend b) {
    const std::string k = uses_fanout(b) ? std::to_string(r.fanout) : "-";
    std::printf("%-8s %-9s %2s %-6s %10.3g %10.0f %6.1f %12.0f %12.0f %6.3f %9.3f %9.3f %s\n",
                r.op.c_str(), r.backend.c_str(), k.c_str(), r.wire.c_str(), r.density,
                r.ids_per_rank, r.msgs_per_rank, r.bytes_wire, r.bytes_raw,
                r.bytes_raw > 0 ? r.bytes_wire / r.bytes_raw : 1.0, 1e3 * r.seconds, 1e3 * r.best,
                b == gc::Backend::automatic ? r.chosen.c_str() : "");
    std::fflush(stdout);
}

void write_json(const std::string& path, int p, const Args& a, const std::vector<Row>& rows) {
    FILE* f = std::fopen(path.c_str(), "w");
    if (f == nullptr) throw gridblas::IoError("cannot write " + path);
    std::fprintf(f, "{\"ranks\": %d, \"universe\": %u, \"reps\": %d, \"results\": [\n", p,
                 a.universe, a.reps);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        std::fprintf(f,
                     "  {\"op\": \"%s\", \"backend\": \"%s\", \"fanout\": %d, \"wire\": "
                     "\"%s\", \"chosen\": \"%s\", \"density\": %.6g, \"ids_per_rank\": "
                     "%.0f, \"messages_per_rank\": %.2f, \"bytes_wire\": %.0f, "
                     "\"bytes_raw\": %.0f, \"seconds_per_call\": %.6g, \"best_seconds\": "
                     "%.6g}%s\n",
                     r.op.c_str(), r.backend.c_str(), r.fanout, r.wire.c_str(), r.chosen.c_str(),
                     r.density, r.ids_per_rank, r.msgs_per_rank, r.bytes_wire, r.bytes_raw,
                     r.seconds, r.best, i + 1 < rows.size() ? "," : "");
    }
    std::fprintf(f, "]}\n");
    if (std::fclose(f) != 0) throw gridblas::IoError("error writing " + path);
}

int run(int argc, char** argv, int rank) {
    Args a;
    int status = 0;
    if (!parse(argc, argv, rank, a, status)) return status;
    int p = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    double alpha = gc::Options{}.alpha_s, beta = gc::Options{}.beta_s;
    if (a.calibrate) {
        auto c = gc::Communicator::create(MPI_COMM_WORLD, {});
        c->calibrate();
        alpha = c->options().alpha_s;
        beta = c->options().beta_s;
    }
    if (rank == 0) print_header(p, a, alpha, beta);
    const std::vector<gc::Options> configs = configurations(a, alpha, beta);
    std::vector<Row> rows;
    for (const double density : a.densities) {
        const Payload pl = make_payload(rank, p, a.universe, density);
        for (const std::string& op : a.ops) {
            for (const gc::Options& o : configs) {
                rows.push_back(measure(op, o, pl, a, density));
                if (rank == 0) print_row(rows.back(), o.backend);
            }
        }
    }
    if (rank == 0 && !a.json.empty()) write_json(a.json, p, a, rows);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return gridblas::bench::mpi_main(argc, argv, "gridblas-comm-bench", run);
}
