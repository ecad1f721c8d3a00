#pragma once
// The combination driver of the operation tests: runs one distributed vector operation under
// every mask kind (none, valued, structural) × complement × replace × accumulator (none,
// plus) × aliasing of the output with an input × local storage format (sparse, bitmap), and
// compares each result with the serial reference of tests/reference/ops_reference.hpp.
//
// Results are compared piece by piece on the rank that owns them, and the verdict is agreed
// with one allreduce; only a failure gathers the whole vector to print it.

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "dist_test_util.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/vector/dist_vector.hpp"
#include "reference/ops_reference.hpp"

namespace gridblas::test {

/// Which input the output w also is.
enum class Alias { none, w_is_u, w_is_v, w_is_mask };
enum class MaskKind { none, valued, structural };

inline const char* name(Alias a) {
    switch (a) {
        case Alias::none:
            return "no alias";
        case Alias::w_is_u:
            return "w is u";
        case Alias::w_is_v:
            return "w is v";
        default:
            return "w is mask";
    }
}

inline const char* name(MaskKind m) {
    return m == MaskKind::none ? "no mask" : m == MaskKind::valued ? "valued" : "structural";
}

/// A copy of u with its local piece stored as `fmt`.
template <class T>
DistVector<T> in_format(const DistVector<T>& u, VectorFormat fmt) {
    DistVector<T> c = u;
    c.to_format(fmt);
    return c;
}

template <class T>
std::string to_string(const ref::Vec<T>& v) {
    std::ostringstream s;
    s << "{";
    for (const auto& [i, x] : v) s << " " << i << ":" << x;
    s << " }";
    return s.str();
}

/// Does this rank's piece of w hold exactly the entries of `expected` in its range?
template <class T>
bool piece_matches(const DistVector<T>& w, const ref::Vec<T>& expected) {
    const gindex_t b = w.local_begin();
    auto it = expected.lower_bound(b);
    bool ok = true;
    w.for_each_local([&](gindex_t i, const T& x) {
        if (!ok) return;
        if (it == expected.end() || it->first != i || !(it->second == x)) {
            ok = false;
            return;
        }
        ++it;
    });
    return ok && (it == expected.end() || it->first >= b + gindex_t(w.local_size()));
}

/// Checks w == expected on every rank (collective); on a mismatch every rank records a
/// failure with both vectors.
template <class T>
bool expect_vector(const DistVector<T>& w, const ref::Vec<T>& expected, const std::string& what) {
    if (all_ranks(piece_matches(w, expected))) return true;
    const auto got = to_map(w);
    ADD_FAILURE() << what << "\n  got      " << to_string(got) << "\n  expected "
                  << to_string(expected);
    return false;
}

/// Runs every combination for one grid and length. `w0` and `m0` are the initial output and
/// the mask (values 0/1 so that valued and structural masks differ).
///
/// `dist_op(w, mask, accum, desc, alias, fmt)` runs the distributed operation into w; for
/// Alias::w_is_u (w_is_v) it must pass w as u (v); the mask it gets is already w for
/// Alias::w_is_mask. Its inputs should be stored as `fmt` (see in_format()).
/// `ref_t(w_old, alias)` returns the reference result t, given the old w (which u or v is
/// when aliased). Returns the number of combinations checked.
template <class W, class M, class DistOp, class RefT>
int check_combinations(const std::shared_ptr<ProcessGrid>& grid, gindex_t n, const ref::Vec<W>& w0,
                       const ref::Vec<M>& m0, std::span<const Alias> aliases, DistOp dist_op,
                       RefT ref_t, const std::string& what) {
    const DistVector<W> w_dist = make_vector(grid, n, w0);
    const DistVector<M> m_dist = make_vector(grid, n, m0);
    int checked = 0;
    for (VectorFormat fmt : {VectorFormat::sparse, VectorFormat::bitmap}) {
        for (MaskKind mk : {MaskKind::none, MaskKind::valued, MaskKind::structural}) {
            for (int bits = 0; bits < 8; ++bits) {
                Descriptor d;
                d.mask_complement = bits & 1;
                d.replace = bits & 2;
                d.mask_structural = mk == MaskKind::structural;
                const bool accum = bits & 4;
                for (Alias alias : aliases) {
                    if (alias == Alias::w_is_mask && mk == MaskKind::none) continue;
                    DistVector<W> w = in_format(w_dist, fmt);
                    const DistVector<M> mask = in_format(m_dist, fmt);
                    auto run = [&](const auto& msk) {
                        if (accum) {
                            dist_op(w, msk, std::plus<>{}, d, alias, fmt);
                        } else {
                            dist_op(w, msk, no_accum, d, alias, fmt);
                        }
                    };
                    if (mk == MaskKind::none) {
                        run(no_mask);
                    } else if (alias == Alias::w_is_mask) {
                        run(w);
                    } else {
                        run(mask);
                    }
                    const auto t = ref_t(w0, alias);
                    ref::Vec<W> expected;
                    auto ref_run = [&](const auto& msk) {
                        expected = accum ? ref::output_stage(w0, t, msk, std::plus<>{}, d)
                                         : ref::output_stage(w0, t, msk, no_accum, d);
                    };
                    if (mk == MaskKind::none) {
                        ref_run(no_mask);
                    } else if (alias == Alias::w_is_mask) {
                        ref_run(w0);
                    } else {
                        ref_run(m0);
                    }
                    std::ostringstream label;
                    label << what << ": grid " << grid->pr() << "x" << grid->pc() << ", n " << n
                          << ", " << (fmt == VectorFormat::sparse ? "sparse" : "bitmap") << ", "
                          << name(mk) << (d.mask_complement ? " complemented" : "")
                          << (d.replace ? ", replace" : "") << (accum ? ", accum plus" : "") << ", "
                          << name(alias);
                    expect_vector(w, expected, label.str());
                    ++checked;
                }
            }
        }
    }
    return checked;
}

/// Lengths the tests use: empty, a single index, shorter than 6 ranks, and longer ones.
inline std::vector<gindex_t> test_lengths() { return {0, 1, 5, 37, 130}; }

}  // namespace gridblas::test
