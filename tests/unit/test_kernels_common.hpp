#pragma once
// Shared helpers of the CPU kernel tests (test_kernels_*.cpp): random blocks in all four
// views, masks built from every kind of mask vector together with an independent predicate,
// and the naive SpMV of tests/reference on the (i, j, a) tuples. The semirings the tests run
// are the typed list of tests/reference/kernel_semirings.hpp.

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gridblas/kernels/cpu/kernels.hpp"
#include "gridblas/semirings/builtin.hpp"
#include "gridblas/vector/convert.hpp"
#include "reference/kernel_semirings.hpp"
#include "reference/spmv_reference.hpp"

namespace kt {

using namespace gridblas;
using namespace gridblas::kernels;

/// Raw tuples; values are small integers, converted to each test's matrix type.
struct Tuples {
    lindex_t nrows = 0, ncols = 0;
    std::vector<lindex_t> r, c;
    std::vector<std::int64_t> v;
};

/// `nnz` distinct random positions, plus (with `hub`) a half-full column 0 and row 0 so that
/// one column's work spans thread boundaries. Values in [vmin, 9].
inline Tuples random_tuples(lindex_t nr, lindex_t nc, std::size_t nnz, bool hub, std::uint64_t seed,
                            int vmin = 1) {
    Tuples t;
    t.nrows = nr;
    t.ncols = nc;
    std::mt19937_64 rng(seed);
    std::set<std::pair<lindex_t, lindex_t>> seen;
    auto add = [&](lindex_t i, lindex_t j) {
        if (seen.insert({i, j}).second) {
            t.r.push_back(i);
            t.c.push_back(j);
            t.v.push_back(std::int64_t(rng() % std::uint64_t(10 - vmin)) + vmin);
        }
    };
    if (nr > 0 && nc > 0) {
        if (hub) {
            for (lindex_t i = 0; i < nr; ++i) {
                if (rng() % 2) add(i, 0);
            }
            for (lindex_t j = 0; j < nc; ++j) {
                if (rng() % 2) add(0, j);
            }
        }
        const std::size_t cap = std::min<std::size_t>(nnz, std::size_t(nr) * nc);
        while (seen.size() < cap) add(lindex_t(rng() % nr), lindex_t(rng() % nc));
    }
    return t;
}

template <class A>
ValueArray<A> values_as(const Tuples& t) {
    if constexpr (std::is_same_v<A, Pattern>) {
        return ValueArray<Pattern>(t.v.size());
    } else {
        ValueArray<A> va(t.v.size());
        for (std::size_t k = 0; k < t.v.size(); ++k) va[k] = A(t.v[k]);
        return va;
    }
}

/// A and Aᵀ in both formats, with lookups for the DCSC ones.
template <class A>
struct Blocks {
    Dcsc<A> dcsc_a, dcsc_at;
    Csr<A> csr_a, csr_at;
    OuterLookup lk_a, lk_at;

    explicit Blocks(const Tuples& t) {
        // The builders open OpenMP regions; one thread keeps these tiny builds cheap.
        const int old = omp_get_max_threads();
        omp_set_num_threads(1);
        const auto va = values_as<A>(t);
        dcsc_a = Dcsc<A>::from_tuples(t.nrows, t.ncols, t.r, t.c, va);
        csr_a = Csr<A>::from_tuples(t.nrows, t.ncols, t.r, t.c, va);
        dcsc_at = Dcsc<A>::from_tuples(t.ncols, t.nrows, t.c, t.r, va);
        csr_at = Csr<A>::from_tuples(t.ncols, t.nrows, t.c, t.r, va);
        lk_a = make_lookup(dcsc_a);
        lk_at = make_lookup(dcsc_at);
        omp_set_num_threads(old);
    }
    /// Views with outer = j (push): DCSC of A with and without lookup, CSR of Aᵀ.
    std::vector<std::pair<std::string, CompressedView<A>>> push_views() const {
        return {{"dcsc(A)+lookup", make_view(dcsc_a, &lk_a)},
                {"dcsc(A)", make_view(dcsc_a)},
                {"csr(At)", make_view(csr_at)}};
    }
    /// Views with outer = i (pull): CSR of A, DCSC of Aᵀ with and without lookup.
    std::vector<std::pair<std::string, CompressedView<A>>> pull_views() const {
        return {{"csr(A)", make_view(csr_a)},
                {"dcsc(At)+lookup", make_view(dcsc_at, &lk_at)},
                {"dcsc(At)", make_view(dcsc_at)}};
    }
};

/// The mask kinds the tests cover.
enum class MaskKind {
    none,
    none_complement,
    sparse_structural,
    sparse_valued,
    sparse_structural_complement,
    sparse_valued_complement,
    bitmap_structural,
    bitmap_valued_complement,
    dense_valued,
    dense_structural_complement,
};
inline const std::vector<MaskKind>& all_masks() {
    static const std::vector<MaskKind> m = {MaskKind::none,
                                            MaskKind::none_complement,
                                            MaskKind::sparse_structural,
                                            MaskKind::sparse_valued,
                                            MaskKind::sparse_structural_complement,
                                            MaskKind::sparse_valued_complement,
                                            MaskKind::bitmap_structural,
                                            MaskKind::bitmap_valued_complement,
                                            MaskKind::dense_valued,
                                            MaskKind::dense_structural_complement};
    return m;
}

/// The problem sizes the kernel tests sweep.
struct Shape {
    const char* name;
    lindex_t nrows, ncols;
    std::size_t nnz;
    bool hub;
};
inline const std::vector<Shape>& shapes() {
    static const std::vector<Shape> s = {
        {"small", 40, 50, 500, false},
        {"rect_hub", 300, 700, 4000, true},
        {"hypersparse", 30000, 40000, 200, false},
        {"n1", 1, 1, 1, false},
        {"empty_matrix", 30, 20, 0, false},
        {"row", 1, 200, 60, false},
        {"column", 200, 1, 60, false},
    };
    return s;
}

/// Whether a test case also runs on 2 threads: the two larger shapes (one with a hub
/// column whose work spans threads, one hypersparse), and one mask per kind of mask test
/// (none, bits, complemented bits); the other masks differ only in how the bits were built,
/// which involves no threads. Callers also keep to the dense input vector, one view per
/// format and the semirings marked `threaded_check`. (libgomp's idle worker spins for a few
/// milliseconds after each parallel region, which on a loaded machine slows the serial
/// rest of the test, so the 2-thread runs are kept to what they can catch.)
inline bool threaded(const Shape& sh, MaskKind k) {
    const std::string name = sh.name;
    return (name == "rect_hub" || name == "hypersparse") &&
           (k == MaskKind::none || k == MaskKind::sparse_structural_complement ||
            k == MaskKind::bitmap_structural);
}

/// A mask over n outputs built through make_mask(), plus the predicate it must equal,
/// computed directly from the mask vector's entries.
struct TestMask {
    MaskStorage storage;
    SparseVector<int> sparse;
    BitmapVector<int> bitmap;
    DenseVector<int> dense;
    MaskView view;
    std::vector<char> allowed;

    TestMask(MaskKind kind, lindex_t n, std::uint64_t seed) : allowed(n, 0) {
        std::mt19937_64 rng(seed);
        sparse.reset(n);
        for (lindex_t i = 0; i < n; ++i) {
            if (rng() % 3 == 0) sparse.push_back(i, int(rng() % 2));  // some stored zeros
        }
        bitmap = to_bitmap(sparse);
        dense = DenseVector<int>(n);
        for (lindex_t i = 0; i < n; ++i) dense[i] = int(rng() % 2);
        std::vector<char> present(n, 0), truth(n, 0);
        for (std::size_t k = 0; k < sparse.nvals(); ++k) {
            present[sparse.indices()[k]] = 1;
            truth[sparse.indices()[k]] = sparse.values()[k] != 0;
        }
        auto fill = [&](const std::vector<char>& s, bool comp) {
            for (lindex_t i = 0; i < n; ++i) allowed[i] = char(bool(s[i]) != comp);
        };
        std::vector<char> dense_truth(n);
        for (lindex_t i = 0; i < n; ++i) dense_truth[i] = dense[i] != 0;
        switch (kind) {
            case MaskKind::none:
                view = no_mask();
                fill(std::vector<char>(n, 1), false);
                break;
            case MaskKind::none_complement:
                view = MaskView{nullptr, true};
                fill(std::vector<char>(n, 1), true);
                break;
            case MaskKind::sparse_structural:
                view = make_mask(sparse, n, true, false, storage);
                fill(present, false);
                break;
            case MaskKind::sparse_valued:
                view = make_mask(sparse, n, false, false, storage);
                fill(truth, false);
                break;
            case MaskKind::sparse_structural_complement:
                view = make_mask(sparse, n, true, true, storage);
                fill(present, true);
                break;
            case MaskKind::sparse_valued_complement:
                view = make_mask(sparse, n, false, true, storage);
                fill(truth, true);
                break;
            case MaskKind::bitmap_structural:
                view = make_mask(bitmap, n, true, false, storage);
                fill(present, false);
                break;
            case MaskKind::bitmap_valued_complement:
                view = make_mask(bitmap, n, false, true, storage);
                fill(truth, true);
                break;
            case MaskKind::dense_valued:
                view = make_mask(dense, n, false, false, storage);
                fill(dense_truth, false);
                break;
            case MaskKind::dense_structural_complement:
                view = make_mask(dense, n, true, true, storage);
                fill(std::vector<char>(n, 1), true);
                break;
        }
    }
    TestMask(const TestMask&) = delete;
};

/// The naive SpMV of tests/reference on the tuples: y(i) = ⊕ over tuples (i, j, a) with x(j)
/// present and i allowed of S::mul(a, x(j)), folded in tuple order.
template <class S, class A>
std::map<lindex_t, typename S::value_type> naive(
    const Tuples& t, const std::function<bool(lindex_t)>& has_x,
    const std::function<typename S::value_type(lindex_t)>& x_of, const std::vector<char>& allowed) {
    using Y = typename S::value_type;
    const auto va = values_as<A>(t);
    std::vector<ref::Entry<lindex_t, A>> entries;
    entries.reserve(t.r.size());
    for (std::size_t k = 0; k < t.r.size(); ++k) entries.push_back({t.r[k], t.c[k], va[k]});
    return ref::naive_spmv<S>(
        entries, [&](lindex_t j) { return has_x(j) ? std::optional<Y>(x_of(j)) : std::nullopt; },
        [&](lindex_t i) { return allowed[i] != 0; });
}

/// Expects a sparse result to equal the reference (pattern only when `pattern_only`).
template <class Y>
void expect_matches(const SparseVector<Y>& y, const std::map<lindex_t, Y>& ref, bool pattern_only) {
    ASSERT_EQ(y.nvals(), ref.size());
    std::size_t k = 0;
    for (const auto& [i, v] : ref) {
        ASSERT_EQ(y.indices()[k], i) << "entry " << k;
        if (!pattern_only) {
            EXPECT_EQ(y.values()[k], v) << "at index " << i;
        }
        ++k;
    }
}

/// Runs f with OpenMP limited to `threads` threads, restoring the old setting.
template <class F>
void with_threads(int threads, F&& f) {
    const int old = omp_get_max_threads();
    omp_set_num_threads(threads);
    f();
    omp_set_num_threads(old);
}

/// A policy that takes the parallel paths even for tiny inputs, with small chunks.
inline ParallelPolicy eager_policy() {
    ParallelPolicy p;
    p.min_parallel_work = 0;
    p.chunk_rows = 64;
    return p;
}

}  // namespace kt
