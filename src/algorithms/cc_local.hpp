#pragma once
// Pieces of the sampling connected components (connected_components_sampled.cpp) that stay on
// one rank:
//  - BlockIds: one id space for the rows and the columns of this rank's block, numbered in
//    the order of their global ids (so comparing ids compares vertices) with the rank's own
//    piece, which is both a row piece and a column piece, numbered once. On a 1 x 1, 1 x pc
//    or pr x 1 grid the ids are the global vertex ids themselves.
//  - LocalForest: a union-find forest over such ids, safe to grow from several threads at
//    once (a root is hooked under a smaller root by compare-and-swap, so every tree's root
//    is its smallest id), with a pass that points every id straight at its root.
//  - for_each_outer: the entries of a CompressedBlock outer by outer, whatever its format.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "gridblas/core/distribution.hpp"
#include "gridblas/core/types.hpp"
#include "gridblas/matrix/compressed_block.hpp"

namespace gridblas::detail {

/// The id space of one block: ids below j*nb are the row pieces left of the rank's column
/// block, then come the column block's pr pieces (the own piece among them), then the
/// remaining row pieces. `size()` = (pr + pc - 1) * nb.
struct BlockIds {
    gindex_t nb = 0;
    int pr = 1, pc = 1, i = 0, j = 0;
    gindex_t lo = 0, hi = 0;  // local rows [lo, hi) are the own piece

    BlockIds(const Distribution& d, int my_row, int my_col)
        : nb(d.nb), pr(d.pr), pc(d.pc), i(my_row), j(my_col) {
        lo = gindex_t(j) * nb;
        hi = lo + nb;
    }
    gindex_t size() const { return gindex_t(pr + pc - 1) * nb; }
    /// Id of local row r, and of local column c.
    gindex_t row(gindex_t r) const {
        return r + (r >= lo ? gindex_t(i) * nb : 0) + (r >= hi ? gindex_t(pr - 1 - i) * nb : 0);
    }
    gindex_t col(gindex_t c) const { return c + lo; }
    /// Global vertex id of id x.
    gindex_t global(gindex_t x) const {
        if (x < lo) return (x / nb * pr + i) * nb + x % nb;
        if (x < lo + gindex_t(pr) * nb) return gindex_t(j) * pr * nb + (x - lo);
        const gindex_t r = x - gindex_t(pr - 1) * nb;
        return (r / nb * pr + i) * nb + r % nb;
    }
    /// Whether the ids are the global ids (1 x 1, 1 x pc and pr x 1 grids).
    bool identity() const { return pr == 1 || pc == 1; }
    /// Whether this rank samples local row r: on a 1 x pc grid every rank holds a part of
    /// every row, so each samples only the rows r with r mod pc = j; elsewhere all rows.
    bool samples_row(gindex_t r) const { return pr > 1 || pc == 1 || r % pc == j; }
};

/// A union-find forest over ids 0..n-1 whose roots are the smallest ids of their trees.
template <class Id>
class LocalForest {
public:
    explicit LocalForest(std::size_t n) : parent_(n) {
#pragma omp parallel for schedule(static)
        for (std::size_t x = 0; x < n; ++x) parent_[x] = Id(x);
    }
    std::size_t size() const { return parent_.size(); }
    Id parent(std::size_t x) const { return load(Id(x)); }
    /// The root of x's tree (safe during unite() calls: a root of that moment).
    Id find(Id x) const { return root(x); }
    /// No id: what unite() returns when it hooked nothing.
    static constexpr Id none = Id(-1);
    /// Joins the trees of a and b; may run concurrently with other unite() calls. Returns
    /// the root it hooked under the other (the larger of the two), or `none`.
    Id unite(Id a, Id b) {
        for (;;) {
            a = root(a);
            b = root(b);
            if (a == b) return none;
            if (a < b) std::swap(a, b);
            Id expected = a;  // hook the larger root under the smaller, if still a root
            if (std::atomic_ref<Id>(parent_[a])
                    .compare_exchange_weak(expected, b, std::memory_order_relaxed))
                return a;
        }
    }
    /// The parent array itself (to send or receive whole; no unite() in flight).
    std::vector<Id>& parents() { return parent_; }
    /// Points every id at its root (run with no unite() in flight).
    void flatten() {
        const std::size_t n = parent_.size();
#pragma omp parallel for schedule(static, 16384)
        for (std::size_t x = 0; x < n; ++x) {
            const Id r = root(Id(x));
            if (load(Id(x)) != r)
                std::atomic_ref<Id>(parent_[x]).store(r, std::memory_order_relaxed);
        }
    }

private:
    Id load(Id x) const {
        return std::atomic_ref<Id>(const_cast<Id&>(parent_[x])).load(std::memory_order_relaxed);
    }
    Id root(Id x) const {
        for (Id p = load(x); p != x; p = load(x)) x = p;
        return x;
    }
    std::vector<Id> parent_;
};

/// Calls f(outer, inner_begin, inner_end) for every non-empty outer index of `b` (inner ids
/// ascending), from `threads` threads when threads > 1 (dynamically scheduled). With
/// `prefetch`, the first inner ids of the outer indices a few steps ahead are prefetched (for
/// callers that read every outer index's entries).
template <class T, class F>
void for_each_outer(const CompressedBlock<T>& b, int threads, F&& f, bool prefetch = false) {
    const bool dcsc = b.format() == LocalFormat::dcsc;
    const std::size_t num = dcsc ? b.dcsc().nzc() : std::size_t(b.csr().nrows());
    const offset_t* op = dcsc ? b.dcsc().cp().data() : b.csr().rowptr().data();
    const lindex_t* ids = dcsc ? b.dcsc().jc().data() : nullptr;
    const lindex_t* in = dcsc ? b.dcsc().ir().data() : b.csr().colind().data();
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads) if (threads > 1)
    for (std::size_t k = 0; k < num; ++k) {
        if (prefetch && k + 16 < num) __builtin_prefetch(in + op[k + 16]);
        if (op[k] == op[k + 1]) continue;
        f(ids ? ids[k] : lindex_t(k), in + op[k], in + op[k + 1]);
    }
}

}  // namespace gridblas::detail
