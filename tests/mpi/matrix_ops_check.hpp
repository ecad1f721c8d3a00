#pragma once
// The combination driver of the matrix operation tests: runs one distributed matrix
// operation C⟨M⟩ = accum(C, T) under every mask kind (none, valued, structural) × complement
// × replace × accumulator (none, plus) × aliasing of C with an input or the mask × local
// format of every matrix (dcsc, csr), and compares each result with the serial reference of
// tests/reference/matrix_ops_reference.hpp.
//
// Each rank compares the entries of its own block with the reference entries it owns, and
// the verdict is agreed with one allreduce; only a failure gathers the whole matrix to print.

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <span>
#include <sstream>
#include <string>

#include "dist_test_util.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "ops_check.hpp"
#include "reference/matrix_ops_reference.hpp"

namespace gridblas::test {

/// Which input the output C also is.
enum class MAlias { none, c_is_a, c_is_b, c_is_mask };

inline const char* name(MAlias a) {
    switch (a) {
        case MAlias::none:
            return "no alias";
        case MAlias::c_is_a:
            return "C is A";
        case MAlias::c_is_b:
            return "C is B";
        default:
            return "C is mask";
    }
}

inline const char* name(LocalFormat f) { return f == LocalFormat::dcsc ? "dcsc" : "csr"; }

template <class T>
std::string to_string(const ref::Mat<T>& a) {
    std::ostringstream s;
    s << "{";
    for (const auto& [ij, x] : a) {
        s << " (" << ij.first << "," << ij.second << ")";
        if constexpr (!std::is_same_v<T, Pattern>) s << ":" << x;
    }
    s << " }";
    return s.str();
}

/// Does this rank's block of c hold exactly the entries of `expected` that it owns?
template <class T>
bool block_matches(const DistMatrix<T>& c, const ref::Mat<T>& expected) {
    const ProcessGrid& g = *c.grid();
    std::size_t owned = 0;
    for (const auto& [ij, x] : expected) {
        const int r =
            g.rank_of(c.row_dist().row_block_of(ij.first), c.col_dist().col_block_of(ij.second));
        if (r == g.rank()) ++owned;
    }
    bool ok = owned == c.local_nvals();
    c.for_each_local([&](gindex_t i, gindex_t j, const T& x) {
        const auto it = expected.find({i, j});
        if (it == expected.end() || !(it->second == x)) ok = false;
    });
    return ok;
}

/// Checks C == expected (collective); on a mismatch every rank records a failure.
template <class T>
bool expect_matrix(const DistMatrix<T>& c, const ref::Mat<T>& expected, const std::string& what) {
    if (all_ranks(block_matches(c, expected))) return true;
    const auto got = to_map(c);
    ADD_FAILURE() << what << "\n  got      " << to_string(got) << "\n  expected "
                  << to_string(expected);
    return false;
}

/// Runs every combination for one grid and shape of C (n x m). `c0` is the initial C and `m0`
/// the mask, mn x mm (C's shape except for subassign; values 0/1 so that valued and
/// structural masks differ).
///
/// `dist_op(C, mask, accum, desc, alias, fmt)` runs the distributed operation into C with its
/// inputs stored as `fmt`; for MAlias::c_is_a (c_is_b) it must pass C as A (B); the mask it
/// gets is already C for MAlias::c_is_mask. `ref_c(c_old, mask, accum, desc, alias)` returns
/// the expected C (mask is no_mask or the reference mask); via_output_stage() makes one from
/// the reference T. Returns the number of combinations checked.
template <class W, class M, class DistOp, class RefC>
int check_matrix_combinations(const std::shared_ptr<ProcessGrid>& grid, gindex_t n, gindex_t m,
                              const ref::Mat<W>& c0, gindex_t mn, gindex_t mm,
                              const ref::Mat<M>& m0, std::span<const MAlias> aliases,
                              DistOp dist_op, RefC ref_c, const std::string& what) {
    int checked = 0;
    for (LocalFormat fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
        const DistMatrix<W> c_dist = make_matrix(grid, n, m, c0, fmt);
        const DistMatrix<M> m_dist = make_matrix(grid, mn, mm, m0, fmt);
        for (MaskKind mk : {MaskKind::none, MaskKind::valued, MaskKind::structural}) {
            for (int bits = 0; bits < 8; ++bits) {
                Descriptor d;
                d.mask_complement = bits & 1;
                d.replace = bits & 2;
                d.mask_structural = mk == MaskKind::structural;
                const bool accum = bits & 4;
                for (MAlias alias : aliases) {
                    if (alias == MAlias::c_is_mask && mk == MaskKind::none) continue;
                    DistMatrix<W> c = c_dist;
                    auto run = [&](const auto& msk) {
                        if (accum) {
                            dist_op(c, msk, std::plus<>{}, d, alias, fmt);
                        } else {
                            dist_op(c, msk, no_accum, d, alias, fmt);
                        }
                    };
                    if (mk == MaskKind::none) {
                        run(no_mask);
                    } else if (alias == MAlias::c_is_mask) {
                        run(c);
                    } else {
                        run(m_dist);
                    }
                    ref::Mat<W> expected;
                    auto ref_run = [&](const auto& msk) {
                        expected = accum ? ref_c(c0, msk, std::plus<>{}, d, alias)
                                         : ref_c(c0, msk, no_accum, d, alias);
                    };
                    if (mk == MaskKind::none) {
                        ref_run(no_mask);
                    } else if (alias == MAlias::c_is_mask) {
                        ref_run(c0);
                    } else {
                        ref_run(m0);
                    }
                    std::ostringstream label;
                    label << what << ": grid " << grid->pr() << "x" << grid->pc() << ", " << n
                          << "x" << m << ", " << name(fmt) << ", " << name(mk)
                          << (d.mask_complement ? " complemented" : "")
                          << (d.replace ? ", replace" : "") << (accum ? ", accum plus" : "") << ", "
                          << name(alias);
                    expect_matrix(c, expected, label.str());
                    ++checked;
                }
            }
        }
    }
    return checked;
}

/// The expected C of an operation whose result T the reference gives, `ref_t(c_old, alias)`:
/// the plain output stage C⟨M⟩ = accum(C, T).
template <class RefT>
auto via_output_stage(RefT ref_t) {
    return [ref_t](const auto& c_old, const auto& mask, auto accum, const Descriptor& d,
                   MAlias alias) {
        return ref::output_stage(c_old, ref_t(c_old, alias), mask, accum, d);
    };
}

/// A shape of the matrix tests and the density of its random matrices.
struct MatrixCase {
    gindex_t n, m;
    double density;
};

/// The shapes of the combination tests: empty, 1 x 1, non-square ones smaller and larger
/// than the rank count, and a hypersparse 50 x 40 (a handful of entries, most blocks empty).
inline std::vector<MatrixCase> matrix_cases() {
    return {{0, 0, 0.35}, {1, 1, 0.35}, {3, 7, 0.35}, {13, 9, 0.35}, {50, 40, 0.0015}};
}

}  // namespace gridblas::test
