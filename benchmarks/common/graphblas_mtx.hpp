#pragma once
// The file side of the SuiteSparse:GraphBLAS baselines that read a graph: a Matrix Market
// reader that prepares the graph as gridblas-graph's --file does (and GapBS's -s), and the
// writer of per-vertex results in gridblas-graph's --output format. Include after
// <GraphBLAS.h> and common/graphblas_graph.hpp.
//
// Accepted: `%%MatrixMarket matrix coordinate pattern|integer|real general|symmetric|
// skew-symmetric`, square. Ids are 1-based in the file, 0-based in the matrix. A symmetric
// file's entry stands for both directions (a skew-symmetric one's mirror is negated); with
// `symmetrize` every entry of a general file gets its reverse too; self-loops are dropped;
// repeated entries keep the smallest weight. Pattern files have weight 1.

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace gridblas::bench {

/// The graph read from a file: A(u, v) is the edge u -> v, of type BOOL or FP64 (weights).
struct FileGraph {
    GrB_Matrix a = nullptr;
    GrB_Index n = 0;
    GrB_Index entries = 0;  ///< stored entries (2 per undirected edge)
    bool weighted = false;  ///< the file has values (integer or real)
};

namespace mtx_detail {

/// A FILE* that closes itself.
struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

/// The lines of a file, without their ends (POSIX getline, its buffer kept between lines).
class Lines {
public:
    explicit Lines(std::FILE* f) : f_(f) {}
    Lines(const Lines&) = delete;
    Lines& operator=(const Lines&) = delete;
    ~Lines() { std::free(buf_); }
    /// The next line into `s`; false at the end of the file.
    bool next(std::string& s) {
        const ssize_t len = ::getline(&buf_, &cap_, f_);
        if (len < 0) return false;
        s.assign(buf_, std::size_t(len));
        while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
        return true;
    }

private:
    std::FILE* f_;
    char* buf_ = nullptr;
    std::size_t cap_ = 0;
};

inline std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

inline bool blank(const std::string& s) {
    for (char c : s) {
        if (!std::isspace(static_cast<unsigned char>(c))) return false;
    }
    return true;
}

}  // namespace mtx_detail

/// Reads `path` into an n x n GraphBLAS matrix of `type` (GrB_BOOL: the pattern; GrB_FP64:
/// the weights). Throws std::runtime_error naming the file and line on bad input.
inline FileGraph read_graph_mtx(const std::string& path, GrB_Type type, bool symmetrize) {
    using namespace mtx_detail;
    std::unique_ptr<std::FILE, Closer> file(std::fopen(path.c_str(), "r"));
    if (!file) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    std::FILE* f = file.get();
    Lines lines(f);
    std::size_t lineno = 0;
    std::string line;
    auto fail = [&](const std::string& what) {
        throw std::runtime_error(path + ":" + std::to_string(lineno) + ": " + what);
    };

    ++lineno;
    if (!lines.next(line)) fail("empty file (no %%MatrixMarket header)");
    char w[5][64] = {};
    if (std::sscanf(line.c_str(), "%63s %63s %63s %63s %63s", w[0], w[1], w[2], w[3], w[4]) != 5 ||
        lower(w[0]) != "%%matrixmarket" || lower(w[1]) != "matrix") {
        fail("not a '%%MatrixMarket matrix FORMAT FIELD SYMMETRY' header: '" + line + "'");
    }
    const std::string format = lower(w[2]), field = lower(w[3]), symmetry = lower(w[4]);
    if (format != "coordinate") fail("format '" + format + "' is not supported (coordinate only)");
    if (field != "pattern" && field != "integer" && field != "real") {
        fail("field '" + field + "' is not supported (pattern, integer or real)");
    }
    if (symmetry != "general" && symmetry != "symmetric" && symmetry != "skew-symmetric") {
        fail("symmetry '" + symmetry + "' is not supported (general, symmetric, skew-symmetric)");
    }
    const bool pattern = field == "pattern";
    const bool mirror = symmetry != "general" || symmetrize;
    const double mirror_sign = symmetry == "skew-symmetric" ? -1.0 : 1.0;

    // The size line, after comments and blank lines.
    unsigned long long rows = 0, cols = 0, declared = 0;
    for (;;) {
        ++lineno;
        if (!lines.next(line)) fail("end of file before the size line");
        if (line[0] == '%' || blank(line)) continue;
        char extra = 0;
        if (std::sscanf(line.c_str(), "%llu %llu %llu %c", &rows, &cols, &declared, &extra) != 3) {
            fail("expected the size line 'ROWS COLUMNS ENTRIES', got '" + line + "'");
        }
        break;
    }
    if (rows != cols) {
        fail("the matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
             ", not square: not a graph");
    }
    const GrB_Index n = rows;
    if (n == 0) fail("the matrix is 0 x 0: a graph without vertices");
    if (declared / n > n) {
        fail(std::to_string(declared) + " entries declared: more than the matrix's " +
             std::to_string(n) + " x " + std::to_string(n) + " positions");
    }

    std::vector<GrB_Index> src, dst;
    std::vector<double> wt;
    const std::size_t expect = std::min<std::size_t>(declared, std::size_t(1) << 28);
    src.reserve(std::size_t(mirror ? 2 : 1) * expect);
    dst.reserve(src.capacity());
    if (!pattern) wt.reserve(src.capacity());
    unsigned long long seen = 0;
    while (lines.next(line)) {
        ++lineno;
        if (blank(line) || line[0] == '%') continue;
        if (seen == declared)
            fail("more entries than the " + std::to_string(declared) + " declared");
        ++seen;
        const char* p = line.c_str();
        char* end = nullptr;
        GrB_Index ij[2];
        for (GrB_Index& x : ij) {
            errno = 0;
            const unsigned long long v = std::strtoull(p, &end, 10);
            if (end == p || errno != 0 || v < 1 || v > n) {
                fail("bad vertex id in '" + line + "' (ids are 1.." + std::to_string(n) + ")");
            }
            x = GrB_Index(v - 1);
            p = end;
        }
        double value = 1.0;
        if (!pattern) {
            value = std::strtod(p, &end);
            if (end == p) fail("missing or bad value in '" + line + "'");
            p = end;
        }
        while (std::isspace(static_cast<unsigned char>(*p))) ++p;
        if (*p != '\0') fail("unexpected text after the entry: '" + line + "'");
        if (ij[0] == ij[1]) continue;  // self-loop
        src.push_back(ij[0]);
        dst.push_back(ij[1]);
        if (!pattern) wt.push_back(value);
        if (mirror) {
            src.push_back(ij[1]);
            dst.push_back(ij[0]);
            if (!pattern) wt.push_back(mirror_sign * value);
        }
    }
    if (std::ferror(f)) throw std::runtime_error("error reading " + path);
    if (seen != declared) {
        fail("the file ends after " + std::to_string(seen) + " of the " + std::to_string(declared) +
             " declared entries");
    }
    file.reset();

    FileGraph g;
    g.n = n;
    g.weighted = !pattern;
    CHECK_GRB(GrB_Matrix_new(&g.a, type, n, n));
    if (src.empty()) {
        // no edges: nothing to build
    } else if (type == GrB_BOOL) {
        std::unique_ptr<bool[]> ones(new bool[src.size()]);
        std::fill(ones.get(), ones.get() + src.size(), true);
        CHECK_GRB(
            GrB_Matrix_build_BOOL(g.a, src.data(), dst.data(), ones.get(), src.size(), GrB_LOR));
    } else {
        if (pattern) wt.assign(src.size(), 1.0);
        CHECK_GRB(GrB_Matrix_build_FP64(g.a, src.data(), dst.data(), wt.data(), src.size(),
                                        GrB_MIN_FP64));
    }
    CHECK_GRB(GrB_Matrix_wait(g.a, GrB_MATERIALIZE));
    CHECK_GRB(GrB_Matrix_nvals(&g.entries, g.a));
    return g;
}

/// The undirected graph of the command line's --file (required), read as `type` and
/// reported: a "graph:" line and the SuiteSparse version, thread and trial line. For the
/// baselines with no options of their own around the read (cc, tc).
inline FileGraph read_reported_graph(const Cli& cli, GrB_Type type, int trials) {
    if (!cli.has("file")) throw std::invalid_argument("--file is required (see --help)");
    const std::string path = cli.str("file", "");
    const double t0 = now();
    FileGraph g = read_graph_mtx(path, type, true);
    std::printf("graph: %s, %llu vertices, %llu stored entries (read in %.2f s)\n", path.c_str(),
                (unsigned long long)g.n, (unsigned long long)g.entries, now() - t0);
    std::printf("SuiteSparse:GraphBLAS %d.%d.%d threads: %d trials: %d\n", GxB_IMPLEMENTATION_MAJOR,
                GxB_IMPLEMENTATION_MINOR, GxB_IMPLEMENTATION_SUB, omp_get_max_threads(), trials);
    return g;
}

/// Runs `once(seconds)` one untimed warm-up and `trials` timed times; `times` gets the timed
/// runs' seconds and the last run's result is returned.
template <class Run>
auto warm_then_time(int trials, std::vector<double>& times, Run once) {
    times.clear();
    double s = 0.0;
    auto last = once(s);  // the warm-up
    for (int k = 0; k < trials; ++k) {
        last = once(s);
        times.push_back(s);
    }
    return last;
}

/// A double as gridblas-graph writes it: %.17g, or inf.
inline std::string real_text(double x) {
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

/// Writes `vertex value` lines, vertex 0 .. values.size()-1, to `path`.
template <class T>
void write_vertex_values(const std::string& path, const std::vector<T>& values) {
    std::unique_ptr<std::FILE, mtx_detail::Closer> file(std::fopen(path.c_str(), "w"));
    if (!file) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    for (std::size_t v = 0; v < values.size(); ++v) {
        if constexpr (std::is_floating_point_v<T>) {
            std::fprintf(file.get(), "%zu %s\n", v, real_text(double(values[v])).c_str());
        } else {
            std::fprintf(file.get(), "%zu %lld\n", v, (long long)values[v]);
        }
    }
    if (std::ferror(file.get()) || std::fclose(file.release()) != 0) {
        throw std::runtime_error("error writing " + path);
    }
}

}  // namespace gridblas::bench
