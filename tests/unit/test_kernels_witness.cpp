// Tests of spmv_witness (spmv_witness.hpp): for each output row, the smallest column whose
// (min, +) product reaches the row's target, on every pull view (CSR of A, DCSC of Aᵀ with
// and without lookup), against a naive search over the tuples; targets that some product
// reaches, that none reaches, and the skip value (never searched), with unreachable inputs
// (+infinity) among the columns; 1 and 2 threads give identical results.

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <span>
#include <vector>

#include "gridblas/kernels/cpu/spmv_witness.hpp"
#include "test_kernels_common.hpp"

namespace {

using namespace kt;

constexpr double kInf = std::numeric_limits<double>::infinity();

void check(const Tuples& t, std::uint64_t seed) {
    using S = min_plus<double>;
    SCOPED_TRACE(std::to_string(t.nrows) + "x" + std::to_string(t.ncols) + " with " +
                 std::to_string(t.v.size()) + " entries");
    const Blocks<double> blocks(t);
    std::mt19937_64 g(seed);
    std::vector<double> x(t.ncols);
    for (double& v : x) v = (g() % 5 == 0) ? kInf : double(g() % 10);
    // Targets: a product of the row (a witness exists; often several), a value no product
    // takes (-1), or the skip value.
    std::vector<double> target(t.nrows, -1.0);
    for (std::size_t k = 0; k < t.r.size(); ++k) {
        if (g() % 3 == 0) target[t.r[k]] = S::mul(double(t.v[k]), x[t.c[k]]);
    }
    for (double& v : target) {
        if (g() % 7 == 0) v = kInf;
    }
    std::vector<lindex_t> want(t.nrows, no_witness);
    std::uint64_t any = 0;
    for (std::size_t k = 0; k < t.r.size(); ++k) {
        const lindex_t i = t.r[k];
        if (target[i] == kInf || S::mul(double(t.v[k]), x[t.c[k]]) != target[i]) continue;
        if (want[i] == no_witness || t.c[k] < want[i]) want[i] = t.c[k];
    }
    for (lindex_t w : want) any += w != no_witness;
    if (t.r.size() >= 100) {
        EXPECT_GT(any, 0u) << "the test finds no witness at all";
    }
    for (const auto& named : blocks.pull_views()) {
        SCOPED_TRACE(named.first);
        for (int threads : {1, 2}) {
            std::vector<lindex_t> out(t.nrows, 12345);
            std::uint64_t read = 0;
            with_threads(threads, [&] {
                read = spmv_witness<S>(named.second, std::span<const double>(x),
                                       std::span<const double>(target), kInf,
                                       std::span<lindex_t>(out), eager_policy());
            });
            EXPECT_EQ(out, want) << threads << " threads";
            EXPECT_LE(read, t.v.size()) << "reads at most every entry once";
        }
    }
}

TEST(WitnessKernel, MatchesNaiveSearch) {
    std::uint64_t seed = 11;
    for (const auto& [nr, nc, nnz] :
         {std::tuple{200u, 150u, 2000u}, std::tuple{1000u, 700u, 30000u}, std::tuple{70u, 70u, 0u},
          std::tuple{1u, 1u, 1u}, std::tuple{300u, 20u, 3000u}}) {
        const Tuples t = random_tuples(nr, nc, nnz, nnz > 100, ++seed);
        check(t, ++seed);
    }
}

TEST(WitnessKernel, RejectsWrongLengths) {
    const Blocks<double> b(random_tuples(10, 12, 20, false, 1));
    std::vector<double> x(12, 0.0), t(10, 0.0), short_x(11, 0.0);
    std::vector<lindex_t> out(10);
    EXPECT_THROW(
        spmv_witness<min_plus<double>>(make_view(b.csr_a), std::span<const double>(short_x),
                                       std::span<const double>(t), kInf, std::span<lindex_t>(out)),
        DimensionMismatch);
    std::vector<lindex_t> short_out(9);
    EXPECT_THROW(spmv_witness<min_plus<double>>(make_view(b.csr_a), std::span<const double>(x),
                                                std::span<const double>(t), kInf,
                                                std::span<lindex_t>(short_out)),
                 DimensionMismatch);
}

}  // namespace
