#pragma once
/// @file matrix_output_stage.hpp
/// @brief The output stage of the matrix operations, C⟨M⟩ = accum(C, T), with structural or
/// valued and complemented masks and replace, as the GraphBLAS C API 2.1 defines it (§2.5).
///
/// C, the mask M and the result T are distributed alike (same grid, same dimensions), so each
/// rank merges its own block, row by row, in parallel over rows, with no communication. T
/// arrives as the local block in CSR form (local row and column ids of C's block); C's blocks
/// are rebuilt from the merged rows without sorting (DistMatrix::assemble_rows).

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/view.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/descriptor.hpp"

namespace gridblas {

namespace detail {

/// True for DistMatrix<T>.
template <class X>
struct is_dist_matrix : std::false_type {};
template <class T>
struct is_dist_matrix<DistMatrix<T>> : std::true_type {};

/// A matrix mask argument is no_mask or a distributed matrix.
template <class Mask>
inline constexpr bool is_matrix_mask_v =
    std::is_same_v<Mask, NoMask> || is_dist_matrix<Mask>::value;

/// Row access to a block compressed by row (either local format): the columns and the
/// entry positions of local row r.
template <class T>
class RowAccess {
public:
    RowAccess() = default;
    explicit RowAccess(const CompressedBlock<T>& b)
        : view_(b.format() == LocalFormat::dcsc ? kernels::make_view(b.dcsc())
                                                : kernels::make_view(b.csr())) {}
    /// Position range [first, last) of row r's entries (empty when r has none).
    std::pair<std::size_t, std::size_t> range(lindex_t r) const {
        if (view_.num_outer == 0) return {0, 0};
        const auto [first, last] = view_.outer_range(r);
        return {std::size_t(first), std::size_t(last)};
    }
    std::span<const lindex_t> cols(lindex_t r) const {
        const auto [a, b] = range(r);
        return {view_.inner + a, b - a};
    }
    lindex_t col(std::size_t p) const { return view_.inner[p]; }
    const kernels::CompressedView<T>& view() const { return view_; }

private:
    kernels::CompressedView<T> view_;
};

/// The local block of a matrix mask: for each local row, the sorted columns where the mask
/// is "on" (an entry for a structural mask or a Pattern mask, an entry whose value converts
/// to true for a valued one), and whether the mask is complemented. A structural mask is read
/// in place; a valued one is copied once with its false entries dropped.
class MatrixMask {
public:
    /// No mask: every position allowed, or none when complemented.
    explicit MatrixMask(bool complement) : none_(true), complement_(complement) {}

    template <class M>
    MatrixMask(const DistMatrix<M>& m, const Descriptor& d)
        : none_(false), complement_(d.mask_complement) {
        const RowAccess<M> rows(m.by_row());
        const auto& v = rows.view();
        if (d.mask_structural || std::is_same_v<M, Pattern>) {
            ids_ = v.outer_ids;
            num_rows_ = v.num_outer;
            ptr_ = v.ptr;
            cols_ = v.inner;
        } else {
            const kernels::detail::ValueReader<M> val(v.vals);
            own_ptr_.assign(v.num_outer + 1, 0);
            own_cols_.reserve(v.nnz());
            for (std::size_t k = 0; k < v.num_outer; ++k) {
                for (offset_t p = v.ptr[k]; p < v.ptr[k + 1]; ++p) {
                    if constexpr (!std::is_same_v<M, Pattern>) {
                        if (bool(val(p))) own_cols_.push_back(v.inner[p]);
                    }
                }
                own_ptr_[k + 1] = own_cols_.size();
            }
            ids_ = v.outer_ids;
            num_rows_ = v.num_outer;
            ptr_ = own_ptr_.data();
            cols_ = own_cols_.data();
        }
        lookup_rows_ = m.by_row().n_outer();
    }
    MatrixMask(const MatrixMask&) = delete;
    MatrixMask& operator=(const MatrixMask&) = delete;

    bool none() const { return none_; }
    bool complement() const { return complement_; }
    /// True when every position is allowed (no mask, not complemented).
    bool all() const { return none_ && !complement_; }
    /// The sorted columns where the mask is on in local row r (before complementing).
    std::span<const lindex_t> row(lindex_t r) const {
        if (none_ || num_rows_ == 0) return {};
        std::size_t k = r;
        if (ids_) {
            const lindex_t* end = ids_ + num_rows_;
            const lindex_t* p = std::lower_bound(ids_, end, r);
            if (p == end || *p != r) return {};
            k = std::size_t(p - ids_);
        } else if (r >= lookup_rows_) {
            return {};
        }
        return {cols_ + ptr_[k], std::size_t(ptr_[k + 1] - ptr_[k])};
    }
    /// Entries of the mask on this rank (before complementing).
    std::size_t nnz() const { return none_ || num_rows_ == 0 ? 0 : std::size_t(ptr_[num_rows_]); }

private:
    bool none_;
    bool complement_;
    const lindex_t* ids_ = nullptr;  // stored row ids (DCSC), or null: row k is position k
    std::size_t num_rows_ = 0;
    lindex_t lookup_rows_ = 0;
    const offset_t* ptr_ = nullptr;
    const lindex_t* cols_ = nullptr;
    std::vector<offset_t> own_ptr_;
    std::vector<lindex_t> own_cols_;
};

template <class M>
MatrixMask make_matrix_mask(const M& mask, const Descriptor& d) {
    if constexpr (std::is_same_v<M, NoMask>) {
        return MatrixMask(d.mask_complement);
    } else {
        return MatrixMask(mask, d);
    }
}

/// This rank's block of `a` as a CSR over all its local rows, keeping the entries for which
/// f(local row, local column, value) returns a value (a std::optional<R>). The by-row block
/// is read in order, so rows and columns come out sorted: no sort.
template <class R, class T, class F>
Csr<R> block_rows(const DistMatrix<T>& a, F f) {
    const lindex_t nrows = a.row_dist().block_rows();
    std::vector<offset_t> ptr(std::size_t(nrows) + 1, 0);
    std::vector<lindex_t> cols;
    ValueArray<R> vals;
    cols.reserve(a.local_nvals());
    vals.reserve(a.local_nvals());
    a.by_row().for_each([&](lindex_t r, lindex_t k, const T& x) {
        auto y = f(r, k, x);
        if (y) {
            ++ptr[std::size_t(r) + 1];
            cols.push_back(k);
            vals.push_back(*y);
        }
    });
    for (std::size_t r = 1; r < ptr.size(); ++r) ptr[r] += ptr[r - 1];
    return Csr<R>::from_arrays(nrows, a.col_dist().block_cols(), std::move(ptr), std::move(cols),
                               std::move(vals));
}

/// Throws InvalidValue when a matrix was default-constructed (it has no grid). The matrix
/// twin of check_initialised() for vectors (arg_checks.hpp).
template <class T>
void check_initialised(const char* op, const char* name, const DistMatrix<T>& a) {
    if (!a.grid()) {
        throw InvalidValue(std::string(op) + ": " + name +
                           " is an uninitialised matrix (it has no process grid)");
    }
}

/// Checks that matrix `x` (called `name`) lives on C's grid and has the given shape.
template <class C, class T>
void check_matrix_operand(const char* op, const DistMatrix<C>& c, const char* name,
                          const DistMatrix<T>& x, gindex_t nrows, gindex_t ncols,
                          const char* shape_note = "") {
    check_initialised(op, name, x);
    if (x.grid() != c.grid()) {
        throw InvalidValue(std::string(op) + ": C and " + name +
                           " live on different process grids");
    }
    if (x.nrows() != nrows || x.ncols() != ncols) {
        throw DimensionMismatch(std::string(op) + ": " + name + " is " + std::to_string(x.nrows()) +
                                " x " + std::to_string(x.ncols()) + " but " +
                                std::to_string(nrows) + " x " + std::to_string(ncols) +
                                " is needed" + shape_note);
    }
}

/// Checks a matrix mask against C (nothing to check for no_mask).
template <class C, class Mask>
void check_matrix_mask(const char* op, const DistMatrix<C>& c, const Mask& mask) {
    static_assert(is_matrix_mask_v<Mask>, "a matrix mask is gridblas::no_mask or a DistMatrix");
    if constexpr (!std::is_same_v<Mask, NoMask>) {
        check_matrix_operand(op, c, "mask", mask, c.nrows(), c.ncols(), " (C's shape)");
    }
}

/// Matrix operations work on the stored ids; a relabelled operand would need every other
/// operand stored under the same relabelling, which the C API's semantics cannot promise.
template <class T>
void check_not_relabelled(const char* op, const char* name, const DistMatrix<T>& x) {
    if (x.relabel() != nullptr) {
        throw NotSupported(std::string(op) + ": " + name +
                           " is stored relabelled (BuildOptions::relabel); matrix operations "
                           "combine blocks position by position, so build it without relabel");
    }
}

/// The CPU-only rule of the newer operations: they throw on a cuda grid, on every rank.
inline void check_cpu_grid(const char* op, const ProcessGrid& g) {
    if (g.exec_backend() == ExecBackend::cuda) {
        throw NotSupported(std::string(op) +
                           " runs on the cpu backend only; this grid's exec_backend() is cuda");
    }
}

/// x converted to W; every value becomes the one Pattern value.
template <class W, class X>
W cast_value(const X& x) {
    if constexpr (std::is_same_v<W, Pattern>) {
        return Pattern{};
    } else {
        return W(x);
    }
}

/// Merges one row of the output stage: old entries of C (cols `oc`, values read by `ov`),
/// the result row (`tc`, `tv`) and the mask row; calls emit(col, value) in column order.
template <class W, class TV, class Accum, class OldVal, class NewVal, class Emit>
void merge_output_row(std::span<const lindex_t> oc, OldVal ov, std::span<const lindex_t> tc,
                      NewVal tv, std::span<const lindex_t> mc, const MatrixMask& mask, Accum& accum,
                      bool replace, Emit&& emit) {
    std::size_t a = 0, b = 0, m = 0;
    const bool no_mask = mask.none();
    while (a < oc.size() || b < tc.size()) {
        const lindex_t ia = a < oc.size() ? oc[a] : lindex_t(-1);
        const lindex_t ib = b < tc.size() ? tc[b] : lindex_t(-1);
        const lindex_t j = ia < ib ? ia : ib;
        const bool has_c = ia == j;
        const bool has_t = ib == j;
        bool allowed;
        if (no_mask) {
            allowed = !mask.complement();
        } else {
            while (m < mc.size() && mc[m] < j) ++m;
            allowed = (m < mc.size() && mc[m] == j) != mask.complement();
        }
        if (allowed) {
            if constexpr (std::is_same_v<Accum, NoAccum>) {
                if (has_t) emit(j, cast_value<W>(tv(b)));
            } else {
                if (has_c && has_t) {
                    emit(j, cast_value<W>(accum(ov(a), cast_value<W>(tv(b)))));
                } else if (has_t) {
                    emit(j, cast_value<W>(tv(b)));
                } else {
                    emit(j, ov(a));
                }
            }
        } else if (has_c && !replace) {
            emit(j, ov(a));
        }
        if (has_c) ++a;
        if (has_t) ++b;
    }
}

}  // namespace detail

/// Applies C⟨mask⟩ = accum(C, T) on this rank's block, where `t` (consumed) is the operation's
/// result for the block (local ids of C's block, rows of C's row block, columns of its column
/// block) and rebuilds C's blocks from the merged rows. `accum` is NoAccum or a callable
/// accum(C(i,j), T(i,j)). `mask` must have been built before C is changed; it may read C's
/// own storage. Not collective: every rank rewrites its own block.
template <class W, class Accum, class TV>
void apply_matrix_output_stage(DistMatrix<W>& c, const detail::MatrixMask& mask, Accum accum,
                               Csr<TV>&& t, const Descriptor& d) {
    if constexpr (std::is_same_v<W, TV> && std::is_same_v<Accum, NoAccum>) {
        // C = T where nothing is masked and nothing of C survives: T's rows become C's.
        if (mask.all() && (d.replace || c.local_nvals() == 0)) {
            c.assemble_rows(std::move(t));
            return;
        }
    }
    const detail::RowAccess<W> old(c.by_row());
    const auto& ov = old.view();
    const kernels::detail::ValueReader<W> old_val(ov.vals);
    const kernels::detail::ValueReader<TV> t_val(&t.vals());
    const lindex_t nrows = c.row_dist().block_rows();
    // Rows that may hold output: those of C and those of T (all rows when the mask is
    // complemented or absent does not matter: a row with neither C nor T entries is empty).
    std::vector<std::size_t> count(std::size_t(nrows) + 1, 0);
    auto row_merge = [&](lindex_t r, auto&& emit) {
        const auto [oa, ob] = old.range(r);
        const std::span<const lindex_t> oc(ov.inner + oa, ob - oa);
        const offset_t ta = t.rowptr()[r], tb = t.rowptr()[r + 1];
        const std::span<const lindex_t> tc(t.colind().data() + ta, tb - ta);
        if (oc.empty() && tc.empty()) return;
        detail::merge_output_row<W, TV>(
            oc, [&](std::size_t k) { return W(old_val(oa + k)); }, tc,
            [&](std::size_t k) { return t_val(ta + k); }, mask.row(r), mask, accum, d.replace,
            emit);
    };
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::int64_t r = 0; r < std::int64_t(nrows); ++r) {
        std::size_t n = 0;
        row_merge(lindex_t(r), [&](lindex_t, const W&) { ++n; });
        count[std::size_t(r) + 1] = n;
    }
    for (std::size_t r = 0; r < nrows; ++r) count[r + 1] += count[r];
    std::vector<lindex_t> cols(count[nrows]);
    ValueArray<W> vals(count[nrows]);
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::int64_t r = 0; r < std::int64_t(nrows); ++r) {
        std::size_t p = count[std::size_t(r)];
        row_merge(lindex_t(r), [&](lindex_t j, const W& v) {
            cols[p] = j;
            if constexpr (!std::is_same_v<W, Pattern>) vals[p] = v;
            ++p;
        });
    }
    std::vector<offset_t> ptr(count.begin(), count.end());
    c.assemble_rows(std::move(ptr), std::move(cols), std::move(vals));
}

/// As above, from a result the caller keeps (it is copied first).
template <class W, class Accum, class TV>
void apply_matrix_output_stage(DistMatrix<W>& c, const detail::MatrixMask& mask, Accum accum,
                               const Csr<TV>& t, const Descriptor& d) {
    Csr<TV> copy = t;
    apply_matrix_output_stage(c, mask, accum, std::move(copy), d);
}

}  // namespace gridblas
