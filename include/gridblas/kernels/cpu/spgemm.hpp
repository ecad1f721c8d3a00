#pragma once
/// @file spgemm.hpp
/// @brief Local sparse matrix–matrix products on CSR blocks, the kernels under mxm:
///
///  - spgemm_saxpy: Gustavson's row-by-row product (Gustavson, "Two fast algorithms for sparse
///    matrices: multiplication and permuted transposition", ACM TOMS 1978): row i of C is the
///    combination of the rows B(k,:) picked by A(i,k). The accumulator is dense (a SPA over
///    C's columns, one per thread, cleared by generation stamps) or a per-row hash table
///    sized to the row's flops, as in Nagasaka, Matsuoka, Azad & Buluç, "High-performance
///    sparse matrix-matrix products on Intel KNL and multicore architectures" (ICPP-W 2018).
///    A mask is applied inside the accumulator: with a plain mask only the allowed columns
///    are ever stored (a row with an empty mask row is skipped whole); with a complemented
///    one the forbidden columns are marked first and never stored.
///  - spgemm_dot: one inner product A(i,:)·B(:,j) per allowed (i, j) of a mask that is not
///    complemented, by merging the two sorted index lists (galloping when one is much
///    shorter), the "dot" method of SuiteSparse:GraphBLAS (Davis, "Algorithm 1000", ACM TOMS
///    2019) used for masked products such as triangle counting.
///
/// Rows are cut into chunks of about equal flops; each chunk writes its own buffers, which are
/// then laid end to end, so the result is a CSR with sorted columns and no second pass over
/// the products.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/semirings/semiring.hpp"

namespace gridblas::kernels {

/// Which accumulator the row-by-row product uses.
enum class SpgemmAccumulator { spa, hash };

/// What a product kernel did.
struct SpgemmStats {
    std::uint64_t flops = 0;  ///< multiply-adds performed
    std::size_t nvals = 0;    ///< entries of the result
};

namespace detail {

/// The semiring's multiplicative identity: S::one() when S has it, else 1. It stands for the
/// value of a Pattern (value-less) entry.
template <class S>
constexpr typename S::value_type semiring_one() {
    if constexpr (requires { S::one(); }) {
        return S::one();
    } else {
        return typename S::value_type(1);
    }
}

/// S's product of an A entry and a B entry; a Pattern entry counts as the multiplicative
/// identity.
template <class S, class TA, class TB>
typename S::value_type product(const TA& a, const TB& b) {
    using Z = typename S::value_type;
    if constexpr (std::is_same_v<TB, Pattern>) {
        if constexpr (std::is_same_v<TA, Pattern>) {
            return S::mul(Pattern{}, semiring_one<S>());
        } else {
            return S::mul(a, semiring_one<S>());
        }
    } else {
        return S::mul(a, Z(b));
    }
}

/// The rows of one chunk of the result, in buffers of their own. The buffers are allocated
/// uninitialised, so reserving an upper bound costs address space, not memory: only the pages
/// written are ever touched.
template <class Z>
struct ChunkRows {
    std::unique_ptr<lindex_t[]> cols;
    std::unique_ptr<Z[]> vals;
    std::size_t size = 0;
    std::size_t cap = 0;
    std::uint64_t flops = 0;
    void reserve(std::size_t n) {
        if (n <= cap) return;
        std::unique_ptr<lindex_t[]> c(new lindex_t[n]);
        std::unique_ptr<Z[]> v(new Z[n]);
        std::copy(cols.get(), cols.get() + size, c.get());
        std::copy(vals.get(), vals.get() + size, v.get());
        cols = std::move(c);
        vals = std::move(v);
        cap = n;
    }
    void push_back(lindex_t j, const Z& x) {
        if (size == cap) reserve(std::max<std::size_t>(64, 2 * cap));
        cols[size] = j;
        vals[size] = x;
        ++size;
    }
};

/// Cuts rows 0..n into chunks of about equal `work(r)` (at least one row each).
template <class Work>
std::vector<lindex_t> balanced_chunks(lindex_t n, Work work, int threads) {
    std::vector<std::uint64_t> prefix(std::size_t(n) + 1, 0);
    for (lindex_t r = 0; r < n; ++r) prefix[r + 1] = prefix[r] + work(r) + 1;
    const std::size_t parts = std::max<std::size_t>(1, std::size_t(threads) * 16);
    std::vector<lindex_t> bounds{0};
    for (std::size_t t = 1; t < parts; ++t) {
        const std::uint64_t target = prefix[n] * t / parts;
        const auto it = std::lower_bound(prefix.begin(), prefix.end(), target);
        const lindex_t r = lindex_t(it - prefix.begin());
        if (r > bounds.back() && r < n) bounds.push_back(r);
    }
    bounds.push_back(n);
    return bounds;
}

/// Lays the chunks' rows end to end into one CSR (`counts[r]` entries in row r).
template <class Z>
Csr<Z> join_chunks(lindex_t nrows, lindex_t ncols, std::vector<std::size_t>& counts,
                   std::vector<ChunkRows<Z>>& chunks, const std::vector<lindex_t>& bounds,
                   SpgemmStats& stats) {
    std::vector<offset_t> ptr(std::size_t(nrows) + 1, 0);
    for (lindex_t r = 0; r < nrows; ++r) ptr[r + 1] = ptr[r] + counts[r];
    std::vector<lindex_t> cols(ptr[nrows]);
    ValueArray<Z> vals(ptr[nrows]);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t c = 0; c < std::int64_t(chunks.size()); ++c) {
        auto& ch = chunks[std::size_t(c)];
        const offset_t at = ptr[bounds[std::size_t(c)]];
        std::copy(ch.cols.get(), ch.cols.get() + ch.size, cols.begin() + std::ptrdiff_t(at));
        std::copy(ch.vals.get(), ch.vals.get() + ch.size, vals.data() + at);
        ch.cols.reset();
        ch.vals.reset();
    }
    for (const auto& ch : chunks) stats.flops += ch.flops;
    stats.nvals = cols.size();
    return Csr<Z>::from_arrays(nrows, ncols, std::move(ptr), std::move(cols), std::move(vals));
}

/// Per-thread dense accumulator over C's columns. A column's state is its stamp: below
/// `base` untouched in this row, `base` allowed-but-empty (plain mask) or forbidden
/// (complemented mask), `base + 1` holding a value.
template <class Z>
struct DenseAccumulator {
    std::vector<std::uint32_t> stamp;
    std::vector<Z> value;
    std::uint32_t base = 0;
    void prepare(lindex_t ncols) {
        if (stamp.size() < ncols) {
            stamp.assign(ncols, 0);
            value.resize(ncols);
            base = 0;
        }
    }
    /// Starts a new row: every column becomes untouched.
    void next_row() {
        if (base >= 0xFFFFFFF0u) {
            std::fill(stamp.begin(), stamp.end(), 0);
            base = 0;
        }
        base += 2;
    }
};

/// Per-row open-addressing hash accumulator keyed by column.
template <class Z>
struct HashAccumulator {
    static constexpr lindex_t empty = ~lindex_t(0);
    std::vector<lindex_t> key;
    std::vector<std::uint8_t> state;  // 0 allowed/forbidden marker, 1 holding a value
    std::vector<Z> value;
    std::size_t mask_bits = 0;
    void reset(std::size_t entries) {
        const std::size_t size = std::bit_ceil(std::max<std::size_t>(16, 2 * entries));
        if (key.size() < size) {
            key.resize(size);
            state.resize(size);
            value.resize(size);
        }
        mask_bits = size - 1;
        std::fill(key.begin(), key.begin() + std::ptrdiff_t(size), empty);
    }
    std::size_t slot(lindex_t j) const {
        std::size_t h = (std::size_t(j) * 0x9E3779B1u) & mask_bits;
        while (key[h] != empty && key[h] != j) h = (h + 1) & mask_bits;
        return h;
    }
    std::size_t size() const { return mask_bits + 1; }
};

}  // namespace detail

/// The rows of B as the row-by-row product reads them: row k holds entries
/// [first(k), last(k)) of `idx` (column ids) and of the values.
template <class TB>
struct CsrRows {
    using value_type = TB;
    const offset_t* ptr = nullptr;
    const lindex_t* idx = nullptr;
    const ValueArray<TB>* vals = nullptr;
    lindex_t ncols = 0;
    std::size_t nnz = 0;
    explicit CsrRows(const Csr<TB>& b)
        : ptr(b.rowptr().data()),
          idx(b.colind().data()),
          vals(&b.vals()),
          ncols(b.ncols()),
          nnz(b.nnz()) {}
    std::pair<offset_t, offset_t> row(lindex_t k) const { return {ptr[k], ptr[k + 1]}; }
    lindex_t shift() const { return 0; }  ///< ids are stored as they are compared
};

/// The rows of a compressed block read in place (CSR or DCSC, found through `view`'s
/// lookup), row k of the product being the block's row k + `offset`: B's stage rows when
/// they need no communication.
template <class TB>
struct ViewRows {
    using value_type = TB;
    CompressedView<TB> view;
    const lindex_t* idx = nullptr;
    const ValueArray<TB>* vals = nullptr;
    lindex_t ncols = 0;
    std::size_t nnz = 0;
    lindex_t offset = 0;
    ViewRows(const CompressedView<TB>& v, lindex_t off)
        : view(v), idx(v.inner), vals(v.vals), ncols(v.n_inner), nnz(v.nnz()), offset(off) {}
    std::pair<offset_t, offset_t> row(lindex_t k) const {
        if (view.num_outer == 0) return {0, 0};
        return view.outer_range(k + offset);
    }
    lindex_t shift() const { return 0; }
};

/// The columns of a block compressed by column, read in place as the rows of Bᵀ for
/// spgemm_dot_rows, each cut to its entries with row ids in [lo, hi): B's stage operand of
/// the dot method on a grid with one row, where every rank holds all of B's rows. The ids
/// stay as stored; shift() = lo says what to subtract to get the stage's numbering.
template <class TB>
struct ViewColumnSlice {
    using value_type = TB;
    ViewRows<TB> whole;  ///< the uncut columns, found through the view's lookup
    const lindex_t* idx = nullptr;
    const ValueArray<TB>* vals = nullptr;
    std::size_t nnz = 0;
    lindex_t lo = 0, hi = 0;
    ViewColumnSlice(const CompressedView<TB>& v, lindex_t lo_id, lindex_t hi_id)
        : whole(v, 0), idx(v.inner), vals(v.vals), nnz(v.nnz()), lo(lo_id), hi(hi_id) {}
    std::pair<offset_t, offset_t> row(lindex_t j) const {
        const auto [b, e] = whole.row(j);
        if (b == e || (lo == 0 && hi >= whole.view.n_inner)) return {b, e};  // the whole column
        const lindex_t* q0 = std::lower_bound(idx + b, idx + e, lo);
        const lindex_t* q1 = std::lower_bound(q0, idx + e, hi);
        return {offset_t(q0 - idx), offset_t(q1 - idx)};
    }
    lindex_t shift() const { return lo; }
};

namespace detail {

/// The row-by-row product for a handful of long rows (batched BFS: k sources, k small): each
/// row's A entries are split among the threads, each thread accumulates its share in its own
/// dense SPA, and after a barrier each thread combines the SPAs over its own range of columns
/// (or of the mask row's columns), so the row comes out sorted by concatenation.
template <class S, class TA, class BRows, class Mask>
Csr<typename S::value_type> spgemm_saxpy_split_rows(const Csr<TA>& a, const BRows& b,
                                                    const Mask& mask, SpgemmStats& stats,
                                                    int threads) {
    using Z = typename S::value_type;
    using TB = std::decay_t<decltype((*b.vals)[0])>;
    const lindex_t m = a.nrows();
    const lindex_t n = b.ncols;
    const auto& ap = a.rowptr();
    const auto& ai = a.colind();
    const lindex_t* bi = b.idx;
    const ValueReader<TB> bv(b.vals);
    const ValueReader<TA> av(&a.vals());
    const bool plain_mask = !mask.none() && !mask.complement();
    std::vector<DenseAccumulator<Z>> spa(static_cast<std::size_t>(threads));
    std::vector<std::uint32_t> held(static_cast<std::size_t>(threads));
    std::vector<std::vector<lindex_t>> part_cols(static_cast<std::size_t>(threads));
    std::vector<std::vector<Z>> part_vals(static_cast<std::size_t>(threads));
    std::vector<std::uint64_t> flops(std::size_t(threads), 0);
    std::vector<std::size_t> counts(m, 0);
    std::vector<lindex_t> cols;
    std::vector<Z> vals;
    for (lindex_t i = 0; i < m; ++i) {
        if (ap[i] == ap[i + 1]) continue;
        const std::span<const lindex_t> mrow =
            mask.none() ? std::span<const lindex_t>() : mask.row(i);
        if (plain_mask && mrow.empty()) continue;
        int used = 1;  // the team the runtime gave (at most `threads`)
#pragma omp parallel num_threads(threads)
        {
            const int t = thread_id();
            const int team = team_size();
            if (t == 0) used = team;
            DenseAccumulator<Z>& acc = spa[std::size_t(t)];
            acc.prepare(n);
            acc.next_row();
            const std::uint32_t mark = acc.base, h = acc.base + 1;
            held[std::size_t(t)] = h;
            for (lindex_t j : mrow) acc.stamp[j] = mark;
            const std::size_t len = ap[i + 1] - ap[i];
            const offset_t p0 = ap[i] + part_begin(len, t, team);
            const offset_t p1 = ap[i] + part_begin(len, t + 1, team);
            for (offset_t p = p0; p < p1; ++p) {
                const auto x = av(p);
                const auto [q0, q1] = b.row(ai[p]);
                flops[std::size_t(t)] += q1 - q0;
                for (offset_t q = q0; q < q1; ++q) {
                    const lindex_t j = bi[q];
                    const std::uint32_t st = acc.stamp[j];
                    if (st == h) {
                        acc.value[j] = S::add(acc.value[j], product<S>(x, bv(q)));
                    } else if (plain_mask ? st == mark : st < mark) {
                        acc.stamp[j] = h;
                        acc.value[j] = product<S>(x, bv(q));
                    }
                }
            }
#pragma omp barrier
            // Combine the team's SPAs over this thread's share of the columns.
            auto& oc = part_cols[std::size_t(t)];
            auto& ov = part_vals[std::size_t(t)];
            oc.clear();
            ov.clear();
            auto combine = [&](lindex_t j) {
                bool found = false;
                Z sum{};
                for (int u = 0; u < team; ++u) {
                    const DenseAccumulator<Z>& o = spa[std::size_t(u)];
                    if (o.stamp[j] == held[std::size_t(u)]) {
                        sum = found ? S::add(sum, o.value[j]) : o.value[j];
                        found = true;
                    }
                }
                if (found) {
                    oc.push_back(j);
                    ov.push_back(sum);
                }
            };
            if (plain_mask) {
                const std::size_t k0 = part_begin(mrow.size(), t, team);
                const std::size_t k1 = part_begin(mrow.size(), t + 1, team);
                for (std::size_t k = k0; k < k1; ++k) combine(mrow[k]);
            } else {
                const lindex_t c0 = lindex_t(part_begin(n, t, team));
                const lindex_t c1 = lindex_t(part_begin(n, t + 1, team));
                for (lindex_t j = c0; j < c1; ++j) combine(j);
            }
        }
        for (int t = 0; t < used; ++t) {
            cols.insert(cols.end(), part_cols[std::size_t(t)].begin(),
                        part_cols[std::size_t(t)].end());
            vals.insert(vals.end(), part_vals[std::size_t(t)].begin(),
                        part_vals[std::size_t(t)].end());
            counts[i] += part_cols[std::size_t(t)].size();
        }
    }
    std::vector<offset_t> ptr(std::size_t(m) + 1, 0);
    for (lindex_t r = 0; r < m; ++r) ptr[r + 1] = ptr[r] + counts[r];
    ValueArray<Z> v(vals.size());
    std::copy(vals.begin(), vals.end(), v.data());
    for (std::uint64_t f : flops) stats.flops += f;
    stats.nvals = cols.size();
    return Csr<Z>::from_arrays(m, n, std::move(ptr), std::move(cols), std::move(v));
}

}  // namespace detail

/// C = A·B over semiring S, row by row (Gustavson), with C's rows limited by a mask.
///
/// `a` is m x k, `b` is k x n (CSR, sorted columns). `mask` gives, per row of C, the sorted
/// columns where the mask is on (`mask.row(i)`), with `mask.none()` (no mask) and
/// `mask.complement()`; nothing outside the mask is ever stored. Returns C in CSR with sorted
/// columns; `stats` gets the flops and the result's size.
template <class S, class TA, class BRows, class Mask>
Csr<typename S::value_type> spgemm_saxpy(const Csr<TA>& a, const BRows& b, const Mask& mask,
                                         SpgemmAccumulator accumulator, SpgemmStats& stats,
                                         const ParallelPolicy& policy = {}) {
    using Z = typename S::value_type;
    const lindex_t m = a.nrows();
    using TB = std::decay_t<decltype((*b.vals)[0])>;
    const lindex_t n = b.ncols;
    const auto& ap = a.rowptr();
    const auto& ai = a.colind();
    const lindex_t* bi = b.idx;
    const detail::ValueReader<TB> bv(b.vals);
    const detail::ValueReader<TA> av(&a.vals());
    const bool plain_mask = !mask.none() && !mask.complement();
    if (mask.none() && mask.complement()) {  // ¬(no mask) allows nothing
        std::vector<std::size_t> zero(m, 0);
        std::vector<detail::ChunkRows<Z>> none(1);
        return detail::join_chunks<Z>(m, n, zero, none, {0, m}, stats);
    }
    auto row_flops = [&](lindex_t r) {
        std::uint64_t f = 0;
        for (offset_t p = ap[r]; p < ap[r + 1]; ++p) {
            const auto [q0, q1] = b.row(ai[p]);
            f += q1 - q0;
        }
        return f;
    };
    const int threads = detail::threads_for(policy, a.nnz() + b.nnz);
    if (threads > 1 && accumulator == SpgemmAccumulator::spa) {
        // A handful of long rows (the frontiers of a few searches) would leave threads idle:
        // split each row's work among the threads instead.
        std::size_t active = 0;
        std::uint64_t total = 0;
        for (lindex_t r = 0; r < m && active < 2 * std::size_t(threads); ++r) {
            if (ap[r] != ap[r + 1]) ++active;
        }
        if (active < 2 * std::size_t(threads)) {
            for (lindex_t r = 0; r < m; ++r) total += row_flops(r);
            if (total >= std::uint64_t(n) || policy.min_parallel_work == 0) {
                return detail::spgemm_saxpy_split_rows<S>(a, b, mask, stats, threads);
            }
        }
    }
    const std::vector<lindex_t> bounds = detail::balanced_chunks(m, row_flops, threads);
    const std::size_t nchunks = bounds.size() - 1;
    std::vector<detail::ChunkRows<Z>> chunks(nchunks);
    std::vector<std::size_t> counts(m, 0);

#pragma omp parallel num_threads(threads)
    {
        detail::DenseAccumulator<Z> spa;
        detail::HashAccumulator<Z> hash;
        std::vector<lindex_t> touched;
#pragma omp for schedule(dynamic, 1)
        for (std::int64_t c = 0; c < std::int64_t(nchunks); ++c) {
            auto& out = chunks[std::size_t(c)];
            {
                // At most the chunk's flops (or its mask) land here: reserve that much address
                // space so the buffers never move; untouched pages cost nothing.
                std::uint64_t bound = 0;
                for (lindex_t i = bounds[std::size_t(c)]; i < bounds[std::size_t(c) + 1]; ++i) {
                    const std::uint64_t f = row_flops(i);
                    bound += plain_mask ? std::min<std::uint64_t>(f, mask.row(i).size())
                                        : std::min<std::uint64_t>(f, n);
                }
                out.reserve(bound + 1);
            }
            for (lindex_t i = bounds[std::size_t(c)]; i < bounds[std::size_t(c) + 1]; ++i) {
                if (ap[i] == ap[i + 1]) continue;
                const std::span<const lindex_t> mrow =
                    mask.none() ? std::span<const lindex_t>() : mask.row(i);
                if (plain_mask && mrow.empty()) continue;
                const std::size_t before = out.size;
                if (accumulator == SpgemmAccumulator::spa) {
                    spa.prepare(n);
                    spa.next_row();
                    const std::uint32_t mark = spa.base, held = spa.base + 1;
                    for (lindex_t j : mrow) spa.stamp[j] = mark;
                    touched.clear();
                    for (offset_t p = ap[i]; p < ap[i + 1]; ++p) {
                        const lindex_t k = ai[p];
                        const auto x = av(p);
                        const auto [q0, q1] = b.row(k);
                        out.flops += q1 - q0;
                        for (offset_t q = q0; q < q1; ++q) {
                            const lindex_t j = bi[q];
                            const std::uint32_t s = spa.stamp[j];
                            if (s == held) {
                                spa.value[j] = S::add(spa.value[j], detail::product<S>(x, bv(q)));
                            } else if (plain_mask ? s == mark : s < mark) {
                                spa.stamp[j] = held;
                                spa.value[j] = detail::product<S>(x, bv(q));
                                if (!plain_mask) touched.push_back(j);
                            }
                        }
                    }
                    if (plain_mask) {
                        for (lindex_t j : mrow) {
                            if (spa.stamp[j] == held) {
                                out.push_back(j, spa.value[j]);
                            }
                        }
                    } else if (double(touched.size()) * std::log2(double(touched.size()) + 2.0) >
                               double(n)) {
                        // A dense row: reading the stamps in column order beats sorting.
                        // Branch-free: every column is written, only hits advance.
                        out.reserve(out.size + touched.size() + 1);
                        lindex_t* oc = out.cols.get();
                        Z* ov = out.vals.get();
                        std::size_t at = out.size;
                        const std::uint32_t* st = spa.stamp.data();
                        for (lindex_t j = 0; j < n; ++j) {
                            oc[at] = j;
                            ov[at] = spa.value[j];
                            at += st[j] == held;
                        }
                        out.size = at;
                    } else {
                        std::sort(touched.begin(), touched.end());
                        for (lindex_t j : touched) {
                            out.push_back(j, spa.value[j]);
                        }
                    }
                } else {
                    const std::uint64_t f = row_flops(i);
                    hash.reset(plain_mask ? mrow.size() : std::size_t(f) + mrow.size());
                    for (lindex_t j : mrow) {
                        const std::size_t h = hash.slot(j);
                        hash.key[h] = j;
                        hash.state[h] = 0;
                    }
                    touched.clear();
                    for (offset_t p = ap[i]; p < ap[i + 1]; ++p) {
                        const lindex_t k = ai[p];
                        const auto x = av(p);
                        const auto [q0, q1] = b.row(k);
                        out.flops += q1 - q0;
                        for (offset_t q = q0; q < q1; ++q) {
                            const lindex_t j = bi[q];
                            const std::size_t h = hash.slot(j);
                            if (hash.key[h] == j) {
                                if (hash.state[h] == 1) {
                                    hash.value[h] =
                                        S::add(hash.value[h], detail::product<S>(x, bv(q)));
                                } else if (plain_mask) {
                                    hash.state[h] = 1;
                                    hash.value[h] = detail::product<S>(x, bv(q));
                                }
                            } else if (!plain_mask) {
                                hash.key[h] = j;
                                hash.state[h] = 1;
                                hash.value[h] = detail::product<S>(x, bv(q));
                                touched.push_back(j);
                            }
                        }
                    }
                    if (plain_mask) {
                        for (lindex_t j : mrow) {
                            const std::size_t h = hash.slot(j);
                            if (hash.state[h] == 1) {
                                out.push_back(j, hash.value[h]);
                            }
                        }
                    } else {
                        std::sort(touched.begin(), touched.end());
                        for (lindex_t j : touched) {
                            out.push_back(j, hash.value[hash.slot(j)]);
                        }
                    }
                }
                counts[i] = out.size - before;
            }
        }
    }
    return detail::join_chunks<Z>(m, n, counts, chunks, bounds, stats);
}

/// C⟨M⟩ = A·B over semiring S by inner products, one per entry of a mask that is not
/// complemented. `a` is m x k by rows; `bt` is Bᵀ (n x k) by rows, i.e. B by columns, given
/// as a rows accessor with n rows (CsrRows, ViewRows over a block by columns read in place,
/// or ViewColumnSlice, which also cuts each column to a range of rows and whose ids are
/// compared less its shift()). An allowed (i, j) with no common index stays empty.
template <class S, class TA, class BRows, class Mask>
Csr<typename S::value_type> spgemm_dot_rows(const Csr<TA>& a, const BRows& bt, lindex_t n,
                                            const Mask& mask, SpgemmStats& stats,
                                            const ParallelPolicy& policy = {}) {
    using Z = typename S::value_type;
    using TB = typename BRows::value_type;
    const lindex_t m = a.nrows();
    const auto& ap = a.rowptr();
    const auto& ai = a.colind();
    const lindex_t* const bi = bt.idx;
    const lindex_t shift = bt.shift();
    const detail::ValueReader<TA> av(&a.vals());
    const detail::ValueReader<TB> bv(bt.vals);
    auto row_work = [&](lindex_t r) -> std::uint64_t {
        if (ap[r] == ap[r + 1]) return 0;
        return mask.row(r).size() * (1 + (ap[r + 1] - ap[r]));
    };
    const int threads = detail::threads_for(policy, a.nnz() + bt.nnz);
    const std::vector<lindex_t> bounds = detail::balanced_chunks(m, row_work, threads);
    const std::size_t nchunks = bounds.size() - 1;
    std::vector<detail::ChunkRows<Z>> chunks(nchunks);
    std::vector<std::size_t> counts(m, 0);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (std::int64_t c = 0; c < std::int64_t(nchunks); ++c) {
        auto& out = chunks[std::size_t(c)];
        for (lindex_t i = bounds[std::size_t(c)]; i < bounds[std::size_t(c) + 1]; ++i) {
            const offset_t a0 = ap[i], a1 = ap[i + 1];
            if (a0 == a1) continue;
            const std::size_t before = out.size;
            for (lindex_t j : mask.row(i)) {
                offset_t p = a0;
                auto [q, q1] = bt.row(j);
                if (q == q1) continue;
                bool found = false;
                Z sum{};
                const offset_t la = a1 - a0, lb = q1 - q;
                if (la > 32 * lb || lb > 32 * la) {
                    // Very different lengths: binary-search the short list's ids in the long.
                    const bool a_short = la < lb;
                    offset_t s = a_short ? p : q, s1 = a_short ? a1 : q1;
                    offset_t l = a_short ? q : p;
                    const offset_t l1 = a_short ? q1 : a1;
                    const lindex_t* sid = a_short ? ai.data() : bi;
                    const lindex_t* lid = a_short ? bi : ai.data();
                    for (; s < s1 && l < l1; ++s) {
                        // B's stored ids are its ids in A's numbering plus `shift`.
                        const lindex_t key = a_short ? sid[s] + shift : sid[s] - shift;
                        l = offset_t(std::lower_bound(lid + l, lid + l1, key) - lid);
                        out.flops += 1;
                        if (l < l1 && lid[l] == key) {
                            const Z v = a_short ? detail::product<S>(av(s), bv(l))
                                                : detail::product<S>(av(l), bv(s));
                            sum = found ? S::add(sum, v) : v;
                            found = true;
                        }
                    }
                } else {
                    while (p < a1 && q < q1) {
                        const lindex_t x = ai[p], y = bi[q] - shift;
                        if (x < y) {
                            ++p;
                        } else if (y < x) {
                            ++q;
                        } else {
                            const Z v = detail::product<S>(av(p), bv(q));
                            sum = found ? S::add(sum, v) : v;
                            found = true;
                            ++out.flops;
                            ++p;
                            ++q;
                        }
                    }
                }
                if (found) {
                    out.push_back(j, sum);
                }
            }
            counts[i] = out.size - before;
        }
    }
    return detail::join_chunks<Z>(m, n, counts, chunks, bounds, stats);
}

/// spgemm_dot_rows over Bᵀ stored as a CSR (n x k by rows: B by columns).
template <class S, class TA, class TB, class Mask>
Csr<typename S::value_type> spgemm_dot(const Csr<TA>& a, const Csr<TB>& bt, const Mask& mask,
                                       SpgemmStats& stats, const ParallelPolicy& policy = {}) {
    return spgemm_dot_rows<S>(a, CsrRows<TB>(bt), bt.nrows(), mask, stats, policy);
}

/// acc = acc ⊕ part, entry by entry over the union (both m x n CSR with sorted columns).
template <class S>
void spgemm_add_into(Csr<typename S::value_type>& acc, const Csr<typename S::value_type>& part) {
    using Z = typename S::value_type;
    if (part.nnz() == 0) return;
    if (acc.nnz() == 0) {
        acc = part;
        return;
    }
    const lindex_t m = acc.nrows();
    const auto& xp = acc.rowptr();
    const auto& xi = acc.colind();
    const auto& yp = part.rowptr();
    const auto& yi = part.colind();
    auto merge_row = [&](lindex_t r, auto&& emit) {
        offset_t p = xp[r], q = yp[r];
        while (p < xp[r + 1] || q < yp[r + 1]) {
            const lindex_t x = p < xp[r + 1] ? xi[p] : ~lindex_t(0);
            const lindex_t y = q < yp[r + 1] ? yi[q] : ~lindex_t(0);
            if (x < y) {
                emit(x, acc.vals()[p++]);
            } else if (y < x) {
                emit(y, part.vals()[q++]);
            } else {
                emit(x, S::add(acc.vals()[p++], part.vals()[q++]));
            }
        }
    };
    std::vector<offset_t> ptr(std::size_t(m) + 1, 0);
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::int64_t r = 0; r < std::int64_t(m); ++r) {
        offset_t k = 0;
        merge_row(lindex_t(r), [&](lindex_t, const Z&) { ++k; });
        ptr[std::size_t(r) + 1] = k;
    }
    for (lindex_t r = 0; r < m; ++r) ptr[r + 1] += ptr[r];
    std::vector<lindex_t> cols(ptr[m]);
    ValueArray<Z> vals(ptr[m]);
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::int64_t r = 0; r < std::int64_t(m); ++r) {
        offset_t k = ptr[std::size_t(r)];
        merge_row(lindex_t(r), [&](lindex_t j, const Z& v) {
            cols[k] = j;
            vals[k] = v;
            ++k;
        });
    }
    acc = Csr<Z>::from_arrays(m, acc.ncols(), std::move(ptr), std::move(cols), std::move(vals));
}

}  // namespace gridblas::kernels
