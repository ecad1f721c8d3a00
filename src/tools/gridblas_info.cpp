// gridblas-info: prints the header and structure statistics (non-empty rows and columns, row
// and column degrees) of a Matrix Market file. The file is streamed through the chunk reader,
// so memory is one chunk plus one degree counter per row and per column.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <unordered_map>
#include <vector>

#include "gridblas/matrix/matrix_market.hpp"

namespace {

using gridblas::gindex_t;

/// Entry counts per index: a dense array, or a hash map (growing with the entries actually
/// read) when the dimension is much larger than the declared entries or too large to
/// allocate up front.
class DegreeCounter {
public:
    DegreeCounter(gindex_t n, std::uint64_t max_entries) {
        const auto dim = std::uint64_t(n);
        dense_ = dim <= (std::uint64_t(1) << 27) && dim <= 2 * max_entries + (1u << 20);
        if (dense_) counts_.assign(static_cast<std::size_t>(n), 0);
    }
    void add(gindex_t i) {
        if (dense_)
            ++counts_[static_cast<std::size_t>(i)];
        else
            ++sparse_[i];
    }
    std::uint64_t nonempty() const {
        if (!dense_) return sparse_.size();
        return static_cast<std::uint64_t>(
            std::count_if(counts_.begin(), counts_.end(), [](std::uint64_t c) { return c != 0; }));
    }
    std::uint64_t max() const {
        std::uint64_t m = 0;
        if (dense_)
            for (auto c : counts_) m = std::max(m, c);
        else
            for (const auto& kv : sparse_) m = std::max(m, kv.second);
        return m;
    }

private:
    bool dense_ = true;
    std::vector<std::uint64_t> counts_;
    std::unordered_map<gindex_t, std::uint64_t> sparse_;
};

void print_usage(std::FILE* out) {
    std::fputs(
        "usage: gridblas-info [--help] FILE.mtx\n"
        "\n"
        "Prints the dimensions, stored entries, value type and symmetry of a Matrix Market\n"
        "file, and its structure: non-empty rows and columns, maximum and mean row degree\n"
        "(out-degree) and maximum column degree (in-degree). Symmetric files are counted with\n"
        "both triangles. Duplicate entries, if any, are counted as stored.\n"
        "Exit status: 0 on success, 1 if the file cannot be read or is malformed, 2 on a\n"
        "usage error.\n",
        out);
}

int info(const std::string& path) {
    gridblas::MatrixMarketReader reader(path);
    const gridblas::MatrixMarketHeader h = reader.header();
    DegreeCounter rows(h.nrows, h.max_tuples()), cols(h.ncols, h.max_tuples());
    gridblas::CooMatrix<gridblas::Pattern, gindex_t> chunk;
    std::uint64_t stored = 0;
    bool more = true;
    while (more) {
        chunk.clear();
        more = reader.read_chunk(std::size_t(1) << 16, chunk);
        for (std::size_t k = 0; k < chunk.nnz(); ++k) {
            rows.add(chunk.rows[k]);
            cols.add(chunk.cols[k]);
        }
        stored += chunk.nnz();
    }
    const double mean = h.nrows > 0 ? double(stored) / double(h.nrows) : 0.0;
    std::printf("file:              %s\n", path.c_str());
    std::printf("rows:              %lld\n", static_cast<long long>(h.nrows));
    std::printf("columns:           %lld\n", static_cast<long long>(h.ncols));
    std::printf("stored entries:    %llu\n", static_cast<unsigned long long>(stored));
    std::printf("file entries:      %lld\n", static_cast<long long>(h.entries));
    std::printf("value type:        %s%s\n", gridblas::to_string(h.value_type).c_str(),
                h.value_type_declared ? "" : " (from the field; no %%GraphBLAS type line)");
    std::printf("symmetry:          %s\n", gridblas::to_string(h.symmetry).c_str());
    std::printf("format:            %s %s\n", gridblas::to_string(h.format).c_str(),
                gridblas::to_string(h.field).c_str());
    std::printf("non-empty rows:    %llu\n", static_cast<unsigned long long>(rows.nonempty()));
    std::printf("non-empty columns: %llu\n", static_cast<unsigned long long>(cols.nonempty()));
    std::printf("max row degree:    %llu\n", static_cast<unsigned long long>(rows.max()));
    std::printf("mean row degree:   %.4f\n", mean);
    std::printf("max column degree: %llu\n", static_cast<unsigned long long>(cols.max()));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string path;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            print_usage(stdout);
            return 0;
        }
        if (arg.size() > 1 && arg[0] == '-') {
            std::fprintf(stderr, "gridblas-info: unknown option '%s'\n", arg.c_str());
            print_usage(stderr);
            return 2;
        }
        if (!path.empty()) {
            std::fprintf(stderr, "gridblas-info: only one FILE may be given\n");
            return 2;
        }
        path = arg;
    }
    if (path.empty()) {
        print_usage(stderr);
        return 2;
    }
    try {
        return info(path);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gridblas-info: %s\n", e.what());
        return 1;
    }
}
