// Tests of the shared output stage (include/gridblas/ops/output_stage.hpp) on its own: a
// random result t is written into w through apply_output_stage() under every mask kind ×
// complement × replace × accumulator × (w is the mask) × storage format, and compared with
// the GraphBLAS C API 2.1 steps as written in tests/reference/ops_reference.hpp, on every grid
// shape.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <random>

#include "dist_test_util.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "ops_check.hpp"
#include "reference/ops_reference.hpp"

namespace gridblas::test {
namespace {

using I64 = std::int64_t;

/// This rank's piece of a reference vector, in local indices.
template <class T>
SparseVector<T> local_piece(const DistVector<I64>& w, const ref::Vec<T>& v) {
    SparseVector<T> s(w.local_size());
    const gindex_t b = w.local_begin();
    for (auto it = v.lower_bound(b); it != v.end() && it->first < b + gindex_t(w.local_size());
         ++it) {
        s.push_back(lindex_t(it->first - b), it->second);
    }
    return s;
}

TEST(OpsOutputStage, EveryMaskAccumReplaceCombination) {
    // Without the ops' own precautions: w, and the mask when it is w, stay in the format the
    // driver gives them (a structural bitmap mask is read in place by LocalMask).
    const Alias aliases[] = {Alias::none, Alias::w_is_mask};
    int checked = 0;
    for (const auto& grid : all_grids()) {
        for (gindex_t n : test_lengths()) {
            std::mt19937_64 rng(9000 + std::uint64_t(n));
            const auto w0 = random_vec<I64>(rng, n, 0.5);
            const auto t0 = random_vec<double>(rng, n, 0.5);
            const auto m0 = random_vec<int>(rng, n, 0.6, 0, 1);
            auto dist_op = [&](DistVector<I64>& w, const auto& mask, auto accum,
                               const Descriptor& d, Alias, VectorFormat) {
                const auto t = local_piece(w, t0);
                apply_output_stage(w, detail::make_local_mask(mask, d), accum, t, d);
            };
            auto ref_t = [&](const ref::Vec<I64>&, Alias) { return t0; };
            checked += check_combinations(grid, n, w0, m0, aliases, dist_op, ref_t, "output stage");
        }
    }
    EXPECT_GT(checked, 0);
}

// A copied LocalMask must not point into the original's storage.
TEST(OpsOutputStage, LocalMaskCopiesOwnTheirBits) {
    for (const auto& grid : all_grids()) {
        const ref::Vec<int> m0{{0, 1}, {3, 0}, {4, 2}};
        const auto mask = make_vector(grid, 6, m0);
        Descriptor d;
        auto original = std::make_unique<detail::LocalMask>(mask, d);
        const detail::LocalMask copy(*original);
        original.reset();
        bool ok = true;
        for (lindex_t i = 0; i < mask.local_size(); ++i) {
            const gindex_t g = mask.local_begin() + gindex_t(i);
            ok = ok && copy.allows(i) == (g == 0 || g == 4);
        }
        EXPECT_TRUE(ok);
    }
}

}  // namespace
}  // namespace gridblas::test
