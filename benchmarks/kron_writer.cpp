// gridblas-kron: writes the Kronecker graph that `gridblas-bfs --scale S --edgefactor E --seed X`
// searches as a Matrix Market file, so that other programs (GapBS, CombBLAS, networkx) can
// search the very same graph. The graph is the one gridblas-bfs builds: the Graph500
// generator's edge tuples, symmetrised, self-loops dropped, duplicates combined. The file is
// `coordinate pattern symmetric` with each undirected edge once, as (larger id, smaller id),
// 1-based, sorted — the form GapBS's and scipy's readers take as an undirected graph.
//
// Usage: gridblas-kron --scale S [--edgefactor E] [--seed X] --output FILE.mtx

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/matrix/generators.hpp"

namespace {

constexpr const char* kHelp =
    "gridblas-kron: write gridblas-bfs's Kronecker graph as a Matrix Market file\n\n"
    "  --scale S        2^S vertices (1..31)\n"
    "  --edgefactor E   edge tuples per vertex (default 16)\n"
    "  --seed X         generator seed, as gridblas-bfs (default 1)\n"
    "  --output FILE    the .mtx file to write (pattern symmetric, each edge once)\n"
    "  --help\n";

int run(int argc, char** argv) {
    using namespace gridblas;
    const bench::Cli cli(argc, argv, {"scale", "edgefactor", "seed", "output"}, {"help"});
    if (cli.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    KroneckerParams kp;
    kp.scale = int(cli.integer("scale", 0, 1, 31));
    kp.edgefactor = int(cli.integer("edgefactor", 16, 1, 1024));
    kp.seed = std::uint64_t(cli.integer("seed", 1, 0, std::int64_t(1) << 62));
    const std::string path = cli.str("output", "");
    if (path.empty()) throw InvalidValue("gridblas-kron: --output FILE is required");
    if (kp.scale == 0) throw InvalidValue("gridblas-kron: --scale S is required");

    // Each undirected edge as one key (larger id << 32 | smaller id); ids fit 32 bits.
    const std::uint64_t n = std::uint64_t(1) << kp.scale;
    const std::uint64_t tuples = n * std::uint64_t(kp.edgefactor);
    std::vector<std::uint64_t> keys;
    keys.reserve(tuples);
    std::vector<gindex_t> src, dst;
    const std::uint64_t batch = std::uint64_t(1) << 22;
    for (std::uint64_t first = 0; first < tuples; first += batch) {
        kronecker_edges(kp, first, std::min(batch, tuples - first), src, dst);
        for (std::size_t k = 0; k < src.size(); ++k) {
            const std::uint64_t u = std::uint64_t(src[k]), v = std::uint64_t(dst[k]);
            if (u == v) continue;
            keys.push_back(std::max(u, v) << 32 | std::min(u, v));
        }
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());

    std::FILE* f = std::fopen(path.c_str(), "w");
    if (f == nullptr) throw IoError("gridblas-kron: cannot open " + path + " for writing");
    std::fprintf(f, "%%%%MatrixMarket matrix coordinate pattern symmetric\n");
    std::fprintf(f, "%% gridblas-kron --scale %d --edgefactor %d --seed %llu\n", kp.scale,
                 kp.edgefactor, static_cast<unsigned long long>(kp.seed));
    std::fprintf(f, "%llu %llu %zu\n", static_cast<unsigned long long>(n),
                 static_cast<unsigned long long>(n), keys.size());
    for (std::uint64_t key : keys) {
        std::fprintf(f, "%llu %llu\n", static_cast<unsigned long long>((key >> 32) + 1),
                     static_cast<unsigned long long>((key & 0xffffffffu) + 1));
    }
    const bool ok = std::fflush(f) == 0 && std::ferror(f) == 0;
    std::fclose(f);
    if (!ok) throw IoError("gridblas-kron: writing " + path + " failed");
    std::printf("gridblas-kron: %llu vertices, %zu undirected edges -> %s\n",
                static_cast<unsigned long long>(n), keys.size(), path.c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
