// Checks what `gridblas-bfs --file F --root R --output OUT` wrote against the serial BFS of
// tests/reference: reads F with the library's serial reader, searches it along out-edges
// (`directed`) or along both directions of every entry (`undirected`), and compares every
// vertex's level and parent (the smallest in-neighbour one level up, the driver's default
// `--parents min`). With the program's standard output as a fourth argument it also checks
// the `graph: F, directed|undirected, N vertices, M edges` line (self-loops and duplicates
// not counted) and that no `SCALE:` line was printed for a file.
//
// usage: check_bfs_output FILE.mtx ROOT OUTPUT directed|undirected [STDOUT]

#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gridblas/matrix/matrix_market.hpp"
#include "reference/bfs_reference.hpp"

using namespace gridblas;

namespace {

struct Graph {
    gindex_t n = 0;
    std::vector<gindex_t> src, dst;
    gindex_t edges = 0;  // distinct edges without self-loops (undirected: each pair once)
};

Graph load(const std::string& path, bool undirected) {
    ReadOptions ro;
    ro.duplicates = DuplicatePolicy::combine;
    const auto coo = read_matrix_market<Pattern>(path, ro);
    std::set<std::pair<gindex_t, gindex_t>> arcs;
    for (std::size_t k = 0; k < coo.nnz(); ++k) {
        const gindex_t i = coo.rows[k], j = coo.cols[k];
        if (i == j) continue;
        arcs.insert({i, j});
        if (undirected) arcs.insert({j, i});
    }
    Graph g;
    g.n = coo.nrows;
    for (const auto& [i, j] : arcs) {
        g.src.push_back(i);
        g.dst.push_back(j);
    }
    g.edges = gindex_t(undirected ? arcs.size() / 2 : arcs.size());
    return g;
}

int compare(const ref::SerialBfs& expect, const std::string& output) {
    std::ifstream f(output);
    if (!f) {
        std::cerr << "cannot read " << output << '\n';
        return 1;
    }
    const std::size_t n = expect.level.size();
    std::vector<char> seen(n, 0);
    int errors = 0;
    gindex_t v = 0, parent = 0, level = 0;
    while (f >> v >> parent >> level) {
        if (v < 0 || std::size_t(v) >= n || seen[std::size_t(v)]) {
            std::cerr << "vertex " << v << ": out of range or listed twice\n";
            return 1;
        }
        seen[std::size_t(v)] = 1;
        const gindex_t el = expect.level[std::size_t(v)], ep = expect.parent[std::size_t(v)];
        if (level != el || parent != ep) {
            if (++errors <= 10) {
                std::cerr << "vertex " << v << ": level " << level << " parent " << parent
                          << ", the serial BFS says level " << el << " parent " << ep << '\n';
            }
        }
    }
    for (std::size_t k = 0; k < n; ++k) {
        if (!seen[k]) {
            std::cerr << "vertex " << k << " missing from " << output << '\n';
            return 1;
        }
    }
    if (errors) std::cerr << errors << " of " << n << " vertices differ\n";
    return errors ? 1 : 0;
}

int check_header(const Graph& g, const std::string& file, bool undirected,
                 const std::string& stdout_path) {
    std::ifstream f(stdout_path);
    std::ostringstream want;
    want << "graph: " << file << ", " << (undirected ? "undirected" : "directed") << ", " << g.n
         << " vertices, " << g.edges << " edges";
    bool found = false;
    for (std::string line; std::getline(f, line);) {
        if (line == want.str()) found = true;
        if (line.rfind("SCALE:", 0) == 0 || line.rfind("edgefactor:", 0) == 0) {
            std::cerr << "a file run printed '" << line << "'\n";
            return 1;
        }
    }
    if (!found) std::cerr << "no line '" << want.str() << "' in " << stdout_path << '\n';
    return found ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 5 || (std::string(argv[4]) != "directed" && std::string(argv[4]) != "undirected")) {
        std::cerr << "usage: check_bfs_output FILE.mtx ROOT OUTPUT directed|undirected [STDOUT]\n";
        return 2;
    }
    try {
        const std::string file = argv[1];
        const bool undirected = std::string(argv[4]) == "undirected";
        const Graph g = load(file, undirected);
        const gindex_t root = std::stoll(argv[2]);
        const auto expect = ref::serial_bfs(g.n, g.src, g.dst, root);
        int rc = compare(expect, argv[3]);
        if (argc > 5) rc |= check_header(g, file, undirected, argv[5]);
        gindex_t reached = 0;
        for (gindex_t l : expect.level) reached += l >= 0;
        std::cout << (rc ? "FAIL" : "OK") << ": " << (undirected ? "undirected" : "directed")
                  << " BFS from " << root << " on " << file << ", " << reached << " of " << g.n
                  << " vertices reached\n";
        return rc;
    } catch (const std::exception& e) {
        std::cerr << "check_bfs_output: " << e.what() << '\n';
        return 2;
    }
}
