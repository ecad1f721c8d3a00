#pragma once
/// @file dist_vector.hpp
/// @brief A vector distributed over a process grid.
///
/// The index space is cut into p pieces dealt column by column over the grid (see
/// distribution.hpp): rank P(i, j) owns piece j*pr + i, a contiguous range of about n/p
/// indices. This layout was chosen over the CombBLAS one (piece i*pc + j) because it makes
/// the piece of every rank part of both its row block and its column block, so the expand
/// step of vxm (gather along the grid row) and of mxv (gather along the grid column) needs no
/// vector transpose, on any grid shape.
///
/// The local piece is stored sparse (sorted local indices + values) or as a bitmap (bits +
/// values); `dense` is a bitmap with every bit set. Local indices are relative to the start of
/// the piece.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gridblas/core/collective_check.hpp"
#include "gridblas/core/distribution.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/core/process_grid.hpp"
#include "gridblas/core/route.hpp"
#include "gridblas/matrix/coo.hpp"
#include "gridblas/vector/convert.hpp"

namespace gridblas {

/// A distributed vector of length size() with values of type T.
template <class T>
class DistVector {
public:
    using value_type = T;

    DistVector() = default;
    /// An empty (no entries) vector of length n. Not collective.
    DistVector(std::shared_ptr<ProcessGrid> grid, gindex_t n) : grid_(std::move(grid)) {
        if (!grid_) throw InvalidValue("DistVector: null process grid");
        if (n < 0) throw InvalidValue("DistVector: negative length " + std::to_string(n));
        dist_ = Distribution(n, grid_->pr(), grid_->pc());
        const int k = dist_.piece_at(grid_->my_row(), grid_->my_col());
        begin_ = dist_.piece_begin(k);
        local_n_ = lindex_t(dist_.piece_end(k) - begin_);
        sparse_.reset(local_n_);
    }

    /// A vector of length n with every entry present and equal to `value`. Not collective.
    static DistVector full(std::shared_ptr<ProcessGrid> grid, gindex_t n, const T& value) {
        DistVector v(std::move(grid), n);
        v.fmt_ = VectorFormat::bitmap;
        v.bitmap_ = BitmapVector<T>(v.local_n_);
        for (lindex_t i = 0; i < v.local_n_; ++i) v.bitmap_.set(i, value);
        v.sparse_.clear();
        return v;
    }

    /// Builds from (index, value) pairs held by any rank (routed to their owners).
    /// Collective. Duplicates: InvalidValue under reject, folded with `combine` otherwise.
    /// Out-of-range indices: IndexOutOfBounds. Errors are thrown on every rank.
    template <class Combine = KeepLast>
    static DistVector from_tuples(std::shared_ptr<ProcessGrid> grid, gindex_t n,
                                  std::span<const gindex_t> idx, const ValueArray<T>& vals,
                                  DuplicatePolicy dup = DuplicatePolicy::reject,
                                  Combine combine = {});

    gindex_t size() const { return dist_.length; }
    const std::shared_ptr<ProcessGrid>& grid() const { return grid_; }
    const Distribution& dist() const { return dist_; }
    /// First global index of this rank's piece and the piece's length.
    gindex_t local_begin() const { return begin_; }
    lindex_t local_size() const { return local_n_; }

    VectorFormat format() const { return fmt_; }
    /// Entries on this rank.
    std::size_t local_nvals() const {
        return fmt_ == VectorFormat::sparse ? sparse_.nvals() : bitmap_.nvals();
    }
    /// Entries on all ranks. Collective.
    gindex_t nvals() const {
        return grid_->world().allreduce(gindex_t(local_nvals()), comm::ReduceOp::sum, "nvals");
    }

    /// The local piece as a sparse vector (converted if it is a bitmap).
    SparseVector<T>& sparse() {
        to_format(VectorFormat::sparse);
        return sparse_;
    }
    const SparseVector<T>& sparse() const {
        const_cast<DistVector*>(this)->to_format(VectorFormat::sparse);
        return sparse_;
    }
    /// The local piece as a bitmap (converted if it is sparse).
    BitmapVector<T>& bitmap() {
        to_format(VectorFormat::bitmap);
        return bitmap_;
    }
    const BitmapVector<T>& bitmap() const {
        const_cast<DistVector*>(this)->to_format(VectorFormat::bitmap);
        return bitmap_;
    }
    /// Converts the local piece to `f` (dense is stored as bitmap).
    void to_format(VectorFormat f) {
        if (f == VectorFormat::dense) f = VectorFormat::bitmap;
        if (f == fmt_) return;
        if (f == VectorFormat::bitmap) {
            bitmap_ = to_bitmap(sparse_);
            sparse_.reset(local_n_);
        } else {
            sparse_ = to_sparse(bitmap_);
            bitmap_ = BitmapVector<T>();
        }
        fmt_ = f;
    }
    /// Removes every entry (keeps the format).
    void clear() {
        if (fmt_ == VectorFormat::sparse) {
            sparse_.clear();
        } else {
            bitmap_.clear_all();
        }
    }

    /// Calls f(global_index, value) for each local entry, ascending.
    template <class F>
    void for_each_local(F&& f) const {
        if (fmt_ == VectorFormat::sparse) {
            for (std::size_t k = 0; k < sparse_.nvals(); ++k) {
                f(begin_ + gindex_t(sparse_.indices()[k]), sparse_.values()[k]);
            }
            return;
        }
        const auto& words = bitmap_.words();
        for (std::size_t w = 0; w < words.size(); ++w) {
            std::uint64_t bits = words[w];
            while (bits) {
                const lindex_t i = lindex_t(w * 64 + std::size_t(std::countr_zero(bits)));
                bits &= bits - 1;
                if constexpr (BitmapVector<T>::has_values) {
                    f(begin_ + gindex_t(i), bitmap_.value(i));
                } else {
                    f(begin_ + gindex_t(i), T{});
                }
            }
        }
    }

    /// Every entry, on every rank, sorted by index. Collective; for tests and small outputs.
    void extract_tuples(std::vector<gindex_t>& idx, std::vector<T>& vals) const;

    /// Same geometry (grid and length) as `o`?
    bool same_shape(const DistVector& o) const {
        return grid_ == o.grid_ && dist_.length == o.dist_.length;
    }

private:
    std::shared_ptr<ProcessGrid> grid_;
    Distribution dist_;
    gindex_t begin_ = 0;
    lindex_t local_n_ = 0;
    VectorFormat fmt_ = VectorFormat::sparse;
    mutable SparseVector<T> sparse_;
    mutable BitmapVector<T> bitmap_;
};

namespace detail {
template <class T>
struct RoutedEntry {
    lindex_t index;
    T val;
};
}  // namespace detail

template <class T>
template <class Combine>
DistVector<T> DistVector<T>::from_tuples(std::shared_ptr<ProcessGrid> grid, gindex_t n,
                                         std::span<const gindex_t> idx, const ValueArray<T>& vals,
                                         DuplicatePolicy dup, Combine combine) {
    DistVector v(grid, n);
    comm::Communicator& world = grid->world();
    detail::run_collectively(world, [&] {
        if (idx.size() != vals.size()) {
            throw DimensionMismatch("DistVector: " + std::to_string(idx.size()) + " indices but " +
                                    std::to_string(vals.size()) + " values");
        }
        for (gindex_t g : idx) {
            if (g < 0 || g >= n) {
                throw IndexOutOfBounds("DistVector: index " + std::to_string(g) +
                                       " in a vector of length " + std::to_string(n));
            }
        }
    });
    std::vector<int> counts;
    std::vector<detail::RoutedEntry<T>> send;
    detail::group_by_destination(
        idx.size(), world.size(), [&](std::size_t k) { return v.dist_.owner(idx[k]); },
        [&](std::size_t k) {
            const int piece = v.dist_.piece_of(idx[k]);
            return detail::RoutedEntry<T>{lindex_t(idx[k] - v.dist_.piece_begin(piece)), vals[k]};
        },
        counts, send);
    std::vector<detail::RoutedEntry<T>> recv;
    std::vector<int> recv_counts;
    world.alltoallv(std::span<const detail::RoutedEntry<T>>(send), std::span<const int>(counts),
                    recv, recv_counts, "vector-build");
    detail::run_collectively(world, [&] {
        std::stable_sort(recv.begin(), recv.end(),
                         [](const auto& a, const auto& b) { return a.index < b.index; });
        SparseVector<T> s(v.local_n_);
        for (std::size_t k = 0; k < recv.size(); ++k) {
            if (k > 0 && recv[k].index == recv[k - 1].index) {
                if (dup == DuplicatePolicy::reject) {
                    throw InvalidValue("DistVector: duplicate index " +
                                       std::to_string(v.begin_ + gindex_t(recv[k].index)));
                }
                if constexpr (!std::is_same_v<T, Pattern>) {
                    auto& last = s.values()[s.nvals() - 1];
                    last = combine(last, recv[k].val);
                }
                continue;
            }
            s.push_back(recv[k].index, recv[k].val);
        }
        v.sparse_ = std::move(s);
    });
    return v;
}

template <class T>
void DistVector<T>::extract_tuples(std::vector<gindex_t>& idx, std::vector<T>& vals) const {
    std::vector<gindex_t> li;
    std::vector<T> lv;
    for_each_local([&](gindex_t g, const T& x) {
        li.push_back(g);
        lv.push_back(x);
    });
    std::vector<int> counts;
    std::vector<gindex_t> all_i;
    std::vector<T> all_v;
    grid_->world().allgatherv(std::span<const gindex_t>(li), all_i, counts, "extract");
    if constexpr (std::is_same_v<T, Pattern>) {
        all_v.assign(all_i.size(), Pattern{});
    } else {
        grid_->world().allgatherv(std::span<const T>(lv), all_v, counts, "extract");
    }
    // Pieces arrive in world-rank order, which is not index order (pieces are dealt column
    // by column over the grid): sort.
    std::vector<std::size_t> order(all_i.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return all_i[a] < all_i[b]; });
    idx.resize(order.size());
    vals.resize(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        idx[k] = all_i[order[k]];
        vals[k] = all_v[order[k]];
    }
}

}  // namespace gridblas
