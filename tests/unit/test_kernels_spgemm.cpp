// Unit tests of the local SpGEMM kernels (include/gridblas/kernels/cpu/spgemm.hpp) against a
// naive triple loop over maps: the row-by-row product with the dense (SPA) and the hash
// accumulator, with no mask, a mask and a complemented mask; the masked dot-product kernel;
// CSR and in-place DCSC rows of B; the stage sum; dense and sparse result rows; with the
// parallel thresholds lowered so that the threaded code paths run on small inputs.

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "gridblas/kernels/cpu/spgemm.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dcsc.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace {

using namespace gridblas;
using namespace gridblas::kernels;
using I64 = std::int64_t;
using Map = std::map<std::pair<lindex_t, lindex_t>, I64>;

Map random_map(lindex_t nr, lindex_t nc, double density, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution keep(density);
    std::uniform_int_distribution<int> val(-4, 9);
    Map m;
    for (lindex_t i = 0; i < nr; ++i) {
        for (lindex_t j = 0; j < nc; ++j) {
            if (keep(rng)) m[{i, j}] = val(rng);
        }
    }
    return m;
}

Csr<I64> to_csr(lindex_t nr, lindex_t nc, const Map& m) {
    std::vector<lindex_t> r, c;
    ValueArray<I64> v;
    for (const auto& [ij, x] : m) {
        r.push_back(ij.first);
        c.push_back(ij.second);
        v.push_back(x);
    }
    return Csr<I64>::from_tuples(nr, nc, r, c, v);
}

/// A mask over an m x n result: the sorted on-columns of each row, plus complement / none.
struct TestMask {
    std::vector<std::vector<lindex_t>> rows;
    bool is_none = false;
    bool is_complement = false;
    bool none() const { return is_none; }
    bool complement() const { return is_complement; }
    std::span<const lindex_t> row(lindex_t i) const { return rows[i]; }
    bool allows(lindex_t i, lindex_t j) const {
        if (is_none) return !is_complement;
        const bool on = std::binary_search(rows[i].begin(), rows[i].end(), j);
        return on != is_complement;
    }
};

TestMask random_mask(lindex_t m, lindex_t n, double density, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution keep(density);
    TestMask t;
    t.rows.resize(m);
    for (lindex_t i = 0; i < m; ++i) {
        for (lindex_t j = 0; j < n; ++j) {
            if (keep(rng)) t.rows[i].push_back(j);
        }
    }
    return t;
}

Map naive(const Map& a, const Map& b, const TestMask& mask) {
    std::map<lindex_t, std::vector<std::pair<lindex_t, I64>>> brow;
    for (const auto& [kj, x] : b) brow[kj.first].push_back({kj.second, x});
    Map t;
    for (const auto& [ik, x] : a) {
        for (const auto& [j, y] : brow[ik.second]) {
            if (!mask.allows(ik.first, j)) continue;
            t[{ik.first, j}] += x * y;
        }
    }
    return t;
}

Map from_csr(const Csr<I64>& c) {
    Map m;
    for (lindex_t i = 0; i < c.nrows(); ++i) {
        for (offset_t p = c.rowptr()[i]; p < c.rowptr()[i + 1]; ++p) {
            EXPECT_TRUE(p == c.rowptr()[i] || c.colind()[p - 1] < c.colind()[p])
                << "row " << i << " is not sorted";
            m[{i, c.colind()[p]}] = c.vals()[p];
        }
    }
    return m;
}

ParallelPolicy threaded() {
    ParallelPolicy p;
    p.min_parallel_work = 0;
    return p;
}

struct Case {
    lindex_t m, k, n;
    double da, db;
};

// Dense rows (many columns touched per row) take the SPA's scan; sparse rows its sort; a
// few long rows (fewer than twice the threads) the split-row product.
const Case kCases[] = {{1, 1, 1, 1.0, 1.0},        {40, 30, 50, 0.1, 0.1}, {64, 20, 200, 0.3, 0.4},
                       {200, 150, 90, 0.02, 0.05}, {7, 300, 11, 0.5, 0.5}, {3, 200, 300, 0.5, 0.3}};

TEST(KernelsSpgemm, SaxpyEveryAccumulatorAndMaskKind) {
    omp_set_num_threads(3);  // several threads even where OMP_NUM_THREADS=1
    int checked = 0;
    for (const Case& c : kCases) {
        const Map a = random_map(c.m, c.k, c.da, 1 + c.m);
        const Map b = random_map(c.k, c.n, c.db, 2 + c.n);
        const Csr<I64> ac = to_csr(c.m, c.k, a);
        const Csr<I64> bc = to_csr(c.k, c.n, b);
        for (int kind = 0; kind < 4; ++kind) {
            TestMask mask = random_mask(c.m, c.n, 0.3, 3 + c.k);
            mask.is_none = kind == 0 || kind == 3;
            mask.is_complement = kind == 2 || kind == 3;  // 3: ¬(no mask) allows nothing
            for (SpgemmAccumulator acc : {SpgemmAccumulator::spa, SpgemmAccumulator::hash}) {
                SpgemmStats st;
                const auto got =
                    spgemm_saxpy<plus_times<I64>>(ac, CsrRows<I64>(bc), mask, acc, st, threaded());
                const Map want = naive(a, b, mask);
                ASSERT_EQ(from_csr(got), want) << c.m << "x" << c.k << "x" << c.n << " mask kind "
                                               << kind << " acc " << int(acc);
                EXPECT_EQ(st.nvals, want.size());
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 48);
}

// B's rows read in place from a DCSC block through its lookup, shifted by an offset, as
// mxm does when B needs no communication.
TEST(KernelsSpgemm, SaxpyReadsDcscRowsInPlace) {
    const lindex_t m = 30, k = 25, n = 40, offset = 10;
    const Map a = random_map(m, k, 0.15, 11);
    const Map b = random_map(k, n, 0.2, 12);
    // The block holds B's rows at offset..offset+k-1 (rows below are empty), compressed by
    // row: a DCSC of the transpose (outer = row).
    std::vector<lindex_t> r, cc;
    ValueArray<I64> v;
    for (const auto& [kj, x] : b) {
        r.push_back(kj.first + offset);
        cc.push_back(kj.second);
        v.push_back(x);
    }
    const auto block = Dcsc<I64>::from_tuples(n, k + offset, cc, r, v);
    const OuterLookup lookup = make_lookup(block);
    const ViewRows<I64> rows(make_view(block, &lookup), offset);
    TestMask none;
    none.is_none = true;
    none.rows.resize(m);
    SpgemmStats st;
    const auto got = spgemm_saxpy<plus_times<I64>>(to_csr(m, k, a), rows, none,
                                                   SpgemmAccumulator::spa, st, threaded());
    EXPECT_EQ(from_csr(got), naive(a, b, none));
}

TEST(KernelsSpgemm, DotMatchesTheMaskedProduct) {
    for (const Case& c : kCases) {
        const Map a = random_map(c.m, c.k, c.da, 21 + c.m);
        const Map b = random_map(c.k, c.n, c.db, 22 + c.n);
        Map bt;
        for (const auto& [kj, x] : b) bt[{kj.second, kj.first}] = x;
        TestMask mask = random_mask(c.m, c.n, 0.4, 23);
        SpgemmStats st;
        const auto got = spgemm_dot<plus_times<I64>>(to_csr(c.m, c.k, a), to_csr(c.n, c.k, bt),
                                                     mask, st, threaded());
        ASSERT_EQ(from_csr(got), naive(a, b, mask)) << c.m << "x" << c.k << "x" << c.n;
    }
}

TEST(KernelsSpgemm, StageSumAddsOverTheUnion) {
    const Map x = random_map(50, 60, 0.2, 31), y = random_map(50, 60, 0.2, 32);
    Csr<I64> acc = to_csr(50, 60, x);
    spgemm_add_into<plus_times<I64>>(acc, to_csr(50, 60, y));
    Map want = x;
    for (const auto& [ij, v] : y) want[ij] += v;
    EXPECT_EQ(from_csr(acc), want);
    Csr<I64> empty(50, 60);
    spgemm_add_into<plus_times<I64>>(empty, to_csr(50, 60, y));
    EXPECT_EQ(from_csr(empty), y);
}

}  // namespace
