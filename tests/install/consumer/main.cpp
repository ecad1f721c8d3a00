// Uses an installed gridblas: builds a small DCSC matrix, multiplies a vector by it with a
// built-in semiring, runs and validates a distributed BFS, queries the CUDA backend (which
// links its objects when the library has it), and checks the version and build flags.
// Exits non-zero (with a message) on any mismatch.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include <gridblas/cuda/device_base.hpp>
#include <gridblas/gridblas.hpp>

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
    if (!ok) {
        std::fprintf(stderr, "consumer: FAILED: %s\n", what.c_str());
        ++failures;
    }
}

// y = x^T A over semiring S, walking the non-empty columns of the DCSC block.
template <class S, class T>
std::vector<T> vxm(const std::vector<T>& x, const gridblas::Dcsc<T>& a) {
    std::vector<T> y(a.ncols(), S::zero());
    for (std::size_t k = 0; k < a.nzc(); ++k) {
        for (auto p = a.cp()[k]; p < a.cp()[k + 1]; ++p) {
            y[a.jc()[k]] = S::add(y[a.jc()[k]], S::mul(a.num()[p], x[a.ir()[p]]));
        }
    }
    return y;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int nranks = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    using gridblas::lindex_t;
    // A 4 x 5 matrix whose columns 1 and 3 are empty.
    //   [ . . . . 2 ]
    //   [ 1 . 3 . . ]
    //   [ . . . . 4 ]
    //   [ 5 . . . . ]
    const std::vector<lindex_t> rows{1, 3, 1, 0, 2};
    const std::vector<lindex_t> cols{0, 0, 2, 4, 4};
    gridblas::ValueArray<double> vals(5);
    const double v[] = {1, 5, 3, 2, 4};
    for (int i = 0; i < 5; ++i) vals[i] = v[i];
    const auto a = gridblas::Dcsc<double>::from_tuples(4, 5, rows, cols, vals);

    check(a.nnz() == 5, "nnz is 5");
    check(a.nzc() == 3, "DCSC stores only the 3 non-empty columns");

    const std::vector<double> x{1, 10, 100, 1000};
    const auto y = vxm<gridblas::plus_times<double>>(x, a);
    const std::vector<double> expect{5010, 0, 30, 0, 402};
    check(y == expect, "plus_times x^T A = [5010 0 30 0 402]");

    const auto m = vxm<gridblas::min_plus<double>>(x, a);
    check(m[0] == 11 && m[2] == 13 && m[4] == 3 && m[1] == gridblas::min_plus<double>::zero(),
          "min_plus x^T A");

    // Errors are exceptions derived from gridblas::Error.
    bool threw = false;
    try {
        const std::vector<lindex_t> bad{9};
        gridblas::Dcsc<double>::from_tuples(4, 5, bad, bad, gridblas::ValueArray<double>(1));
    } catch (const gridblas::Error&) {
        threw = true;
    }
    check(threw, "an out-of-range tuple throws a gridblas::Error");

    // A distributed BFS over the path 0-1-2-3-4 (vertex 5 isolated) on the world grid.
    {
        auto grid = gridblas::ProcessGrid::create(MPI_COMM_WORLD);
        const auto g = gridblas::graph_from_edges(grid, 6, {0, 1, 2, 3}, {1, 2, 3, 4});
        const auto r = gridblas::bfs(g, 0);
        check(r.reached == 5, "BFS from 0 reaches 5 vertices");
        // One rank holds the whole vectors.
        check(r.parent.size() == 6 && r.parent[4] == 3 && r.level[4] == 4,
              "vertex 4 has parent 3 at level 4");
        check(gridblas::validate_bfs(g, r).ok(), "the BFS tree passes the Graph500 checks");
    }

    // Never throws; 0 without the backend or without a device.
    const int devices = gridblas::cuda_device_count();
    check(gridblas::has_cuda() || (devices == 0 && !gridblas::cuda_unavailable_reason().empty()),
          "a build without CUDA reports no device and says why");

    check(gridblas::version() == GRIDBLAS_VERSION_STRING,
          "version() " + gridblas::version() + " matches config.hpp " + GRIDBLAS_VERSION_STRING);
    check(gridblas::has_cuda() == bool(GRIDBLAS_HAVE_CUDA), "has_cuda() matches config.hpp");
    check(gridblas::has_cuda() == bool(GB_EXPECT_CUDA), "has_cuda() matches the build");
    check(nranks == 1, "runs on one MPI rank");

    if (failures == 0) {
        std::printf("consumer: gridblas %s (cuda backend %d, %d devices) OK\n",
                    gridblas::version().c_str(), int(gridblas::has_cuda()), devices);
    }
    MPI_Finalize();
    return failures == 0 ? 0 : 1;
}
