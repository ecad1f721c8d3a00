#pragma once
/// @file spmv.hpp
/// @brief Distributed vxm and mxv (GraphBLAS C API 2.1 GrB_vxm / GrB_mxv) over a 2D grid.
///
/// One call runs the pipeline of DESIGN §2 (after Buluç & Madduri's 2D SpMSpV):
///  1. checks on every rank, before any communication;
///  2. expand: the input vector's pieces are gathered along the grid row (vxm) or column
///     (mxv) — as compressed id sets plus values — giving the block's whole input range;
///  3. local kernel on this rank's block: SpMSpV push with a sparse accumulator or sort
///     (sparse input), or masked pull SpMV with early exit (dense input, mask gathered along
///     the other grid dimension so masked-out outputs are skipped);
///  4. fold: partial results go to the owners of the output pieces along the other grid
///     dimension and are combined with the semiring's add;
///  5. the shared output stage: mask, accumulate, replace.
/// When the grid's exec_backend() is cuda, step 3 runs on the rank's GPU (spmv_device.hpp).
/// The product is always S::mul(A(i,j), u(·)) (matrix entry first; see builtin.hpp).

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/collective_check.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/spmspv.hpp"
#include "gridblas/kernels/cpu/spmv_pull.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "gridblas/ops/spmv_device.hpp"
#include "gridblas/vector/dist_vector.hpp"

namespace gridblas {

/// Buffers of vxm / mxv, kept between calls so that a loop of calls (a BFS) allocates
/// nothing once the buffers have grown. One workspace per (input, output, matrix) type.
template <class X, class Y, class A>
struct SpmvWorkspace {
    // device copies and buffers, made on the first call on a cuda-backend grid
    std::shared_ptr<void> device;
    // expand
    std::vector<lindex_t> my_ids;
    std::vector<X> my_vals;
    std::vector<lindex_t> in_ids;
    std::vector<X> in_vals;
    std::vector<int> counts;
    SparseVector<X> x;
    BitmapVector<X> xb;
    // output mask over the block (pull)
    std::vector<lindex_t> mask_ids;
    std::vector<lindex_t> mask_all;
    kernels::MaskStorage mask_bits;
    // local kernel
    kernels::SpmspvWorkspace<Y> spmspv;
    SparseVector<Y> y;
    kernels::OuterLookup lookup;
    std::uint64_t lookup_for = 0;  ///< stamp() of the block `lookup` was made for
    // fold
    std::vector<detail::RoutedEntry<Y>> send;
    std::vector<detail::RoutedEntry<Y>> recv;
    std::vector<int> send_counts;
    std::vector<int> recv_counts;
    std::vector<Y> acc;
    std::vector<std::uint64_t> acc_bits;
    SparseVector<Y> t;
    /// Direction the last call used (for statistics).
    Direction last_direction = Direction::push;
};

namespace detail {

template <class T>
kernels::CompressedView<T> view_of(const CompressedBlock<T>& b, kernels::OuterLookup* lookup,
                                   std::uint64_t& lookup_for) {
    if (b.format() == LocalFormat::csr) return kernels::make_view(b.csr());
    if (lookup != nullptr) {
        if (lookup_for != b.stamp()) {
            *lookup = kernels::make_lookup(b.dcsc());
            lookup_for = b.stamp();
        }
        return kernels::make_view(b.dcsc(), lookup);
    }
    return kernels::make_view(b.dcsc());
}

/// The common core of vxm and mxv. `input_is_rows` is true when the input vector runs
/// along the matrix rows (vxm without transpose, mxv with transpose). Vectors are taken in
/// the matrix's stored ids (the relabelled ones when A is relabelled: BFS works that way).
template <class S, class W, class M, class Accum, class U, class T>
void spmv_dist(DistVector<W>& w, const M& mask, Accum accum, const DistVector<U>& u,
               const DistMatrix<T>& a, const Descriptor& d, bool input_is_rows,
               SpmvWorkspace<U, typename S::value_type, T>& ws, const char* name) {
    using Y = typename S::value_type;
    ProcessGrid& grid = *a.grid();
    const Distribution& in = input_is_rows ? a.row_dist() : a.col_dist();
    const Distribution& out = input_is_rows ? a.col_dist() : a.row_dist();
    // 1. checks (identical on every rank: sizes and grids are global facts).
    if (u.grid() != a.grid() || w.grid() != a.grid()) {
        throw InvalidValue(std::string(name) + ": vector and matrix are on different grids");
    }
    if (u.size() != in.length) {
        throw DimensionMismatch(std::string(name) + ": input vector has length " +
                                std::to_string(u.size()) + " but the matrix needs " +
                                std::to_string(in.length));
    }
    if (w.size() != out.length) {
        throw DimensionMismatch(std::string(name) + ": output vector has length " +
                                std::to_string(w.size()) + " but the product has length " +
                                std::to_string(out.length));
    }
    if constexpr (!std::is_same_v<M, NoMask>) {
        if (mask.grid() != a.grid()) {
            throw InvalidValue(std::string(name) + ": mask and matrix are on different grids");
        }
        if (mask.size() != w.size()) {
            throw DimensionMismatch(std::string(name) + ": mask has length " +
                                    std::to_string(mask.size()) + " but the output has length " +
                                    std::to_string(w.size()));
        }
    }
    comm::Communicator& expand = input_is_rows ? grid.row() : grid.col();
    comm::Communicator& fold = input_is_rows ? grid.col() : grid.row();
    const lindex_t n_in = input_is_rows ? in.block_rows() : in.block_cols();
    const lindex_t n_out = input_is_rows ? out.block_cols() : out.block_rows();
    const lindex_t in_offset = lindex_t(gindex_t(expand.rank()) * in.nb);
    const CompressedBlock<T>& push_block = input_is_rows ? a.by_row() : a.by_col();
    const CompressedBlock<T>& pull_block = input_is_rows ? a.by_col() : a.by_row();

    const bool on_device = grid.exec_backend() == ExecBackend::cuda;
    if (on_device) check_device_spmv<S, U, T>(name);

    // Direction: push for a sparse input, pull for a dense one (one allreduce).
    Direction dir = d.direction;
    if (dir == Direction::automatic) {
        const gindex_t nv =
            grid.world().allreduce(gindex_t(u.local_nvals()), comm::ReduceOp::sum, name);
        dir = (nv * 16 > in.length) ? Direction::pull : Direction::push;
    }
    ws.last_direction = dir;

    // 2. expand: this rank's entries in block numbering, gathered along the expand dimension.
    ws.my_ids.clear();
    ws.my_vals.clear();
    u.for_each_local([&](gindex_t g, const U& v) {
        ws.my_ids.push_back(in_offset + lindex_t(g - u.local_begin()));
        if constexpr (!std::is_same_v<U, Pattern>) ws.my_vals.push_back(v);
    });
    expand.allgather_ids(ws.my_ids, n_in, ws.in_ids, name);
    if constexpr (!std::is_same_v<U, Pattern>) {
        expand.allgatherv(std::span<const U>(ws.my_vals), ws.in_vals, ws.counts, name);
    }

    // 3. local kernel.
    ws.y.reset(n_out);
    kernels::MaskView mv = kernels::no_mask();
    if (dir == Direction::pull) {
        // Gather the output mask along the fold dimension so masked outputs are skipped.
        if constexpr (!std::is_same_v<M, NoMask>) {
            const LocalMask lm(mask, d);
            const lindex_t out_offset = lindex_t(gindex_t(fold.rank()) * out.nb);
            ws.mask_ids.clear();
            for (lindex_t i = 0; i < w.local_size(); ++i) {
                if (lm.allows(i) != d.mask_complement) ws.mask_ids.push_back(out_offset + i);
            }
            fold.allgather_ids(ws.mask_ids, n_out, ws.mask_all, name);
            ws.mask_bits.assign(bitmap_words(n_out), 0);
            for (lindex_t i : ws.mask_all) ws.mask_bits[i >> 6] |= std::uint64_t(1) << (i & 63);
            mv = kernels::MaskView{ws.mask_bits.data(), d.mask_complement};
        } else if (d.mask_complement) {
            mv = kernels::MaskView{nullptr, true};
        }
    }
    if (on_device) {
        if constexpr (device_spmv_supported_v<S, U, T>) {
            using State = DeviceSpmvState<Y, T>;
            if (!ws.device) ws.device = std::make_shared<State>();
            State& st = *static_cast<State*>(ws.device.get());
            const bool push = dir == Direction::push;
            // A device failure (out of memory, a fault) on one rank must not leave the others
            // waiting in the fold: agree on it first.
            run_collectively(grid.world(), [&] {
                device_local_multiply<S, U, T>(st, grid.cuda_device(), push,
                                               push ? push_block : pull_block, n_in, n_out,
                                               ws.in_ids, ws.in_vals, mv.bits, mv.complement, ws.y);
            });
        }
    } else if (dir == Direction::push) {
        ws.x.reset(n_in);
        ws.x.indices().assign(ws.in_ids.begin(), ws.in_ids.end());
        if constexpr (std::is_same_v<U, Pattern>) {
            ws.x.values().resize(ws.in_ids.size());
        } else {
            ws.x.values().resize(ws.in_ids.size());
            for (std::size_t k = 0; k < ws.in_vals.size(); ++k) ws.x.values()[k] = ws.in_vals[k];
        }
        auto view = view_of(push_block, &ws.lookup, ws.lookup_for);
        kernels::spmspv<S>(view, ws.x, kernels::no_mask(), ws.y, ws.spmspv);
    } else {
        if (ws.xb.size() != n_in) ws.xb = BitmapVector<U>(n_in);
        ws.xb.clear_all();
        for (std::size_t k = 0; k < ws.in_ids.size(); ++k) {
            if constexpr (std::is_same_v<U, Pattern>) {
                ws.xb.set(ws.in_ids[k]);
            } else {
                ws.xb.set(ws.in_ids[k], ws.in_vals[k]);
            }
        }
        auto view = view_of(pull_block, nullptr, ws.lookup_for);
        kernels::spmv_pull<S>(view, ws.xb, mv, ws.y);
    }

    // 4. fold: send each partial result to the owner of its output piece.
    const int q = fold.size();
    ws.send_counts.assign(std::size_t(q), 0);
    ws.send.resize(ws.y.nvals());
    const auto& yi = ws.y.indices();
    for (std::size_t k = 0; k < yi.size(); ++k) {
        const int dest = int(gindex_t(yi[k]) / out.nb);
        ++ws.send_counts[std::size_t(dest)];
        ws.send[k] = {lindex_t(gindex_t(yi[k]) - gindex_t(dest) * out.nb), ws.y.values()[k]};
    }
    fold.alltoallv(std::span<const RoutedEntry<Y>>(ws.send), std::span<const int>(ws.send_counts),
                   ws.recv, ws.recv_counts, name);
    // Combine with the semiring's add in a sparse accumulator over this rank's piece.
    const lindex_t n_local = w.local_size();
    ws.acc.resize(n_local);
    ws.acc_bits.assign(bitmap_words(n_local), 0);
    ws.t.reset(n_local);
    std::vector<lindex_t>& ti = ws.t.indices();
    for (const auto& e : ws.recv) {
        std::uint64_t& word = ws.acc_bits[e.index >> 6];
        const std::uint64_t bit = std::uint64_t(1) << (e.index & 63);
        if (word & bit) {
            ws.acc[e.index] = S::add(ws.acc[e.index], e.val);
        } else {
            word |= bit;
            ws.acc[e.index] = e.val;
            ti.push_back(e.index);
        }
    }
    std::sort(ti.begin(), ti.end());
    ws.t.values().resize(ti.size());
    for (std::size_t k = 0; k < ti.size(); ++k) ws.t.values()[k] = ws.acc[ti[k]];

    // 5. output stage.
    apply_output_stage(w, make_local_mask(mask, d), accum, ws.t, d);
}

template <class T>
void reject_relabelled(const DistMatrix<T>& a, const char* name) {
    if (a.relabel() != nullptr) {
        throw NotSupported(std::string(name) +
                           ": the matrix is stored relabelled; build it without relabel to "
                           "multiply vectors in its ids");
    }
}

}  // namespace detail

/// w⟨mask⟩ = accum(w, uᵀ ⊕.⊗ A): w(j) = ⊕_i S::mul(A(i,j), u(i)) (Aᵀ with
/// desc.transpose_a). Collective over A's grid. `mask` is `no_mask` or a DistVector;
/// `accum` is `no_accum` or a binary callable. The output may alias u or the mask. Pass a
/// workspace to reuse buffers between calls.
template <class S, class W, class M, class Accum, class U, class T>
void vxm(DistVector<W>& w, const M& mask, Accum accum, S, const DistVector<U>& u,
         const DistMatrix<T>& a, const Descriptor& desc = {},
         SpmvWorkspace<U, typename S::value_type, T>* ws = nullptr) {
    detail::reject_relabelled(a, "vxm");
    SpmvWorkspace<U, typename S::value_type, T> local;
    detail::spmv_dist<S>(w, mask, accum, u, a, desc, !desc.transpose_a, ws ? *ws : local, "vxm");
}

/// w⟨mask⟩ = accum(w, A ⊕.⊗ u): w(i) = ⊕_j S::mul(A(i,j), u(j)) (Aᵀ with
/// desc.transpose_a). Collective; same conventions as vxm.
template <class S, class W, class M, class Accum, class U, class T>
void mxv(DistVector<W>& w, const M& mask, Accum accum, S, const DistMatrix<T>& a,
         const DistVector<U>& u, const Descriptor& desc = {},
         SpmvWorkspace<U, typename S::value_type, T>* ws = nullptr) {
    detail::reject_relabelled(a, "mxv");
    SpmvWorkspace<U, typename S::value_type, T> local;
    detail::spmv_dist<S>(w, mask, accum, u, a, desc, desc.transpose_a, ws ? *ws : local, "mxv");
}

}  // namespace gridblas
