#pragma once
// One distributed vxm / mxv case checked against the serial reference
// (tests/reference/spmv_reference.hpp) on every rank: shared by test_spmv.cpp and
// test_exec_backend.cpp.

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "dist_test_util.hpp"
#include "gridblas/ops/spmv.hpp"
#include "reference/spmv_reference.hpp"

namespace gridblas::test {

struct Plus {
    template <class T>
    T operator()(T a, T b) const {
        return a + b;
    }
};

inline std::string describe(const Descriptor& d, int mask_kind, bool accum) {
    return "mask " + std::to_string(mask_kind) + (d.mask_complement ? " comp" : "") +
           (d.mask_structural ? " struct" : "") + (d.replace ? " replace" : "") +
           (accum ? " accum" : "") + (d.transpose_a ? " transpose" : "") +
           (d.direction == Direction::push   ? " push"
            : d.direction == Direction::pull ? " pull"
                                             : " auto");
}

/// One vxm or mxv case checked against the reference on every rank.
template <class S, class T>
inline void check_case(const std::shared_ptr<ProcessGrid>& grid, const ref::Mat<T>& am, gindex_t n,
                       gindex_t m, const DistMatrix<T>& a, bool is_vxm, const Descriptor& d,
                       int mask_kind, bool accum, std::mt19937_64& rng, double density) {
    using V = typename S::value_type;
    // Input runs along rows for vxm (columns with transpose), output the other way.
    const bool in_rows = is_vxm != d.transpose_a;
    const gindex_t nin = in_rows ? n : m, nout = in_rows ? m : n;
    const auto um = test::random_vec<V>(rng, nin, density);
    const auto wm = test::random_vec<V>(rng, nout, 0.3);
    const auto mm = test::random_vec<V>(rng, nout, 0.5, 0, 1);
    auto u = test::make_vector(grid, nin, um);
    auto w = test::make_vector(grid, nout, wm);
    auto mask = test::make_vector(grid, nout, mm);
    const ref::Vec<V>* maskp = mask_kind ? &mm : nullptr;
    Descriptor dd = d;
    dd.mask_structural = mask_kind == 2;
    const auto t = is_vxm ? ref::vxm<S>(um, am, d.transpose_a) : ref::mxv<S>(am, um, d.transpose_a);
    ref::Vec<V> expect;
    if (accum) {
        expect = ref::detail::output_stage(wm, t, maskp, Plus{}, dd);
    } else {
        expect = ref::detail::output_stage(wm, t, maskp, no_accum, dd);
    }
    auto run = [&](auto acc) {
        if (mask_kind) {
            if (is_vxm)
                vxm(w, mask, acc, S{}, u, a, dd);
            else
                mxv(w, mask, acc, S{}, a, u, dd);
        } else {
            if (is_vxm)
                vxm(w, no_mask, acc, S{}, u, a, dd);
            else
                mxv(w, no_mask, acc, S{}, a, u, dd);
        }
    };
    if (accum)
        run(Plus{});
    else
        run(no_accum);
    const auto got = test::to_map(w);
    ASSERT_EQ(got, expect) << (is_vxm ? "vxm " : "mxv ") << describe(dd, mask_kind, accum)
                           << " grid " << grid->pr() << "x" << grid->pc() << " n " << n << " m "
                           << m;
}

}  // namespace gridblas::test
