// gridblas-info: prints the header and structure statistics (non-empty rows and columns, row
// and column degrees) of a Matrix Market file. The file is read with the library's reader
// (read_matrix_market), so a file with repeated entries is rejected with the reader's error
// unless --combine OP asks for each position to be counted once. Memory: the file's tuples
// (two 64-bit ids each) plus one degree counter per row and per column.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "gridblas/core/error.hpp"
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
        "usage: gridblas-info [--help] [--combine OP] FILE.mtx\n"
        "\n"
        "Prints the dimensions, stored entries, value type and symmetry of a Matrix Market\n"
        "file, and its structure: non-empty rows and columns, maximum and mean row degree\n"
        "(out-degree) and maximum column degree (in-degree). Symmetric files are counted with\n"
        "both triangles.\n"
        "\n"
        "A file that stores the same position twice is malformed and rejected, with the error\n"
        "of the library's reader. --combine OP accepts it and counts each position once, as\n"
        "if the repeated values were combined with OP (plus, times, min, max, first, last,\n"
        "lor, land or any; the counts do not depend on OP, which names the intent).\n"
        "Exit status: 0 on success, 1 if the file cannot be read or is malformed, 2 on a\n"
        "usage error.\n",
        out);
}

/// The operators --combine accepts.
const std::set<std::string>& combine_ops() {
    static const std::set<std::string> ops{"plus", "times", "min",  "max", "first",
                                           "last", "lor",   "land", "any"};
    return ops;
}

/// `combine` is the --combine operator, empty to reject repeated entries.
int info(const std::string& path, const std::string& combine) {
    const gridblas::MatrixMarketHeader h = gridblas::MatrixMarketReader(path).header();
    gridblas::ReadOptions ro;
    ro.duplicates =
        combine.empty() ? gridblas::DuplicatePolicy::reject : gridblas::DuplicatePolicy::combine;
    const auto m = gridblas::read_matrix_market<gridblas::Pattern>(path, ro);
    DegreeCounter rows(h.nrows, h.max_tuples()), cols(h.ncols, h.max_tuples());
    for (std::size_t k = 0; k < m.nnz(); ++k) {
        rows.add(m.rows[k]);
        cols.add(m.cols[k]);
    }
    const std::uint64_t stored = m.nnz();
    const double mean = h.nrows > 0 ? double(stored) / double(h.nrows) : 0.0;
    std::printf("file:              %s\n", path.c_str());
    std::printf("rows:              %lld\n", static_cast<long long>(h.nrows));
    std::printf("columns:           %lld\n", static_cast<long long>(h.ncols));
    std::printf("stored entries:    %llu\n", static_cast<unsigned long long>(stored));
    std::printf("file entries:      %lld\n", static_cast<long long>(h.entries));
    if (!combine.empty()) {
        std::printf("repeated entries:  combined with %s (each position counted once)\n",
                    combine.c_str());
    }
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
    std::string path, combine;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            print_usage(stdout);
            return 0;
        }
        if (arg == "--combine") {
            if (i + 1 >= argc || !combine_ops().count(argv[i + 1])) {
                std::fprintf(stderr, "gridblas-info: --combine needs an operator, got %s\n",
                             i + 1 < argc ? argv[i + 1] : "nothing");
                print_usage(stderr);
                return 2;
            }
            combine = argv[++i];
            continue;
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
        return info(path, combine);
    } catch (const gridblas::InvalidValue& e) {
        // The reader's own message (a duplicate entry names its position and lines).
        std::fprintf(stderr, "gridblas-info: %s\n", e.what());
        if (combine.empty() && std::strstr(e.what(), "duplicate entry") != nullptr) {
            std::fprintf(stderr, "gridblas-info: --combine OP counts each position once\n");
        }
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gridblas-info: %s\n", e.what());
        return 1;
    }
}
