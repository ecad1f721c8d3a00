#pragma once
/// @file spmv_stages.hpp
/// @brief The stages of distributed vxm / mxv (spmv.hpp), one function each, and spmv_dist(),
/// which runs them in order:
///  1. check_spmv_args — argument checks, identical on every rank, before any communication;
///  2. choose_direction — push for a sparse input, pull for a dense one (one allreduce);
///  3. expand_input — the input's pieces gathered along the expand dimension;
///  4. the local multiply on this rank's block — push_multiply (SpMSpV) or pull_multiply
///     (masked SpMV); for semirings with an early exit the pull is the rotating pull of
///     spmv_rotate.hpp, which also combines the partial results;
///  5. fold_partials — partial results combined by the semiring's add at their owners;
///  6. the shared output stage: mask, accumulate, replace (output_stage.hpp).
/// See spmv_layout.hpp for which dimension does what and why the gathered ids and values
/// line up.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/collective_check.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/kernels/cpu/bitmap_ops.hpp"
#include "gridblas/kernels/cpu/spmspv.hpp"
#include "gridblas/kernels/cpu/spmv_pull.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/arg_checks.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "gridblas/ops/spmv_device.hpp"
#include "gridblas/ops/spmv_layout.hpp"
#include "gridblas/ops/spmv_rotate.hpp"
#include "gridblas/ops/spmv_workspace.hpp"
#include "gridblas/semirings/semiring.hpp"
#include "gridblas/vector/dist_vector.hpp"

namespace gridblas::detail {

/// Stage 1: every operand initialised and on the matrix's grid, lengths that fit, and a
/// semiring the grid's backend can run. Uses only facts every rank shares, so every rank
/// throws alike, before any communication and with nothing changed.
template <class S, class W, class M, class U, class T>
void check_spmv_args(const DistVector<W>& w, const M& mask, const DistVector<U>& u,
                     const DistMatrix<T>& a, const SpmvLayout<T>& L, const char* name) {
    check_initialised(name, "w", w);
    check_initialised(name, "u", u);
    if (u.grid() != a.grid() || w.grid() != a.grid()) {
        throw InvalidValue(std::string(name) + ": vector and matrix are on different grids");
    }
    if (u.size() != L.in->length) {
        throw DimensionMismatch(std::string(name) + ": input vector has length " +
                                std::to_string(u.size()) + " but the matrix needs " +
                                std::to_string(L.in->length));
    }
    if (w.size() != L.out->length) {
        throw DimensionMismatch(std::string(name) + ": output vector has length " +
                                std::to_string(w.size()) + " but the product has length " +
                                std::to_string(L.out->length));
    }
    check_mask(name, w, mask);
    if (a.grid()->exec_backend() == ExecBackend::cuda) {
        if constexpr (semiring_is_positional<S>()) {
            if (!device_rotation_v<S, T> || !L.input_is_rows) {
                throw NotSupported(std::string(name) +
                                   ": on the cuda backend a positional semiring runs only as "
                                   "the pull of vxm over a pattern matrix (the BFS bottom-up "
                                   "step); this call runs on the CPU backend");
            }
        } else {
            check_device_spmv<S, U, T>(name);
        }
    }
}

/// Stage 2: the descriptor's direction, or (automatic) push when fewer than 1/16 of the
/// input's entries are present. A positional semiring on the cuda backend always pulls.
template <class S, class U>
Direction choose_direction(const DistVector<U>& u, const Distribution& in, const Descriptor& d,
                           ProcessGrid& grid, const char* name) {
    if constexpr (semiring_is_positional<S>()) {
        if (grid.exec_backend() == ExecBackend::cuda) return Direction::pull;
    }
    if (d.direction != Direction::automatic) return d.direction;
    const gindex_t nv =
        grid.world().allreduce(gindex_t(u.local_nvals()), comm::ReduceOp::sum, name);
    return (nv * 16 > in.length) ? Direction::pull : Direction::push;
}

/// Stage 3: this rank's input entries in block numbering, gathered along the expand
/// dimension into ws.in_ids (sorted) and ws.in_vals (aligned with them; left empty for
/// Pattern inputs and positional semirings, which never read values).
template <class S, class U, class T>
void expand_input(const DistVector<U>& u, const SpmvLayout<T>& L,
                  SpmvWorkspace<U, typename S::value_type, T>& ws, const char* name) {
    constexpr bool values = !std::is_same_v<U, Pattern> && !semiring_is_positional<S>();
    ws.my_ids.clear();
    ws.my_vals.clear();
    ws.in_vals.clear();
    if (u.format() == VectorFormat::sparse && !values) {
        // Ids only (a BFS frontier): one pass, or none when the expand dimension is one rank.
        const auto& ids = u.sparse().indices();
        if (L.expand->size() == 1 && L.in_offset == 0) {
            ws.in_ids.assign(ids.begin(), ids.end());
            return;
        }
        ws.my_ids.resize(ids.size());
        for (std::size_t k = 0; k < ids.size(); ++k) ws.my_ids[k] = L.in_offset + ids[k];
    } else {
        u.for_each_local([&](gindex_t g, const U& v) {
            ws.my_ids.push_back(L.in_offset + lindex_t(g - u.local_begin()));
            if constexpr (values) ws.my_vals.push_back(v);
        });
    }
    L.expand->allgather_ids(ws.my_ids, L.n_in, ws.in_ids, name);
    if constexpr (values) {
        L.expand->allgatherv(std::span<const U>(ws.my_vals), ws.in_vals, ws.counts, name);
    }
}

/// Stages 2 and 3 straight into the pull's bitmap input ws.xb, for inputs whose values are
/// not read (sparse, and a pattern or a positional semiring): the ids are gathered along the
/// expand dimension as a bitmap (allgather_bits), not as a list to be turned into one.
/// Returns false, doing nothing, for other inputs.
template <class S, class U, class T>
bool expand_input_bits(const DistVector<U>& u, const SpmvLayout<T>& L,
                       SpmvWorkspace<U, typename S::value_type, T>& ws, const char* name) {
    constexpr bool values = !std::is_same_v<U, Pattern> && !semiring_is_positional<S>();
    if (values || u.format() != VectorFormat::sparse) return false;
    if (ws.xb.size() != L.n_in) ws.xb = BitmapVector<U>(L.n_in);
    ws.xb.clear_all();
    const auto& ids = u.sparse().indices();
    if (L.expand->size() == 1 && L.in_offset == 0) {
        kernels::set_bits_sorted(ws.xb.words().data(), ids.data(), ids.size(), ws.pull.policy);
        return true;
    }
    ws.my_ids.resize(ids.size());
    for (std::size_t k = 0; k < ids.size(); ++k) ws.my_ids[k] = L.in_offset + ids[k];
    L.expand->allgather_bits(ws.my_ids, L.n_in, ws.xb.words(), name);
    return true;
}

/// The gathered input as a bitmap over the block's input range (values too when read).
template <class S, class U, class Y, class T>
void input_bitmap(SpmvWorkspace<U, Y, T>& ws, lindex_t n_in) {
    if (ws.xb.size() != n_in) ws.xb = BitmapVector<U>(n_in);
    ws.xb.clear_all();
    kernels::set_bits_sorted(ws.xb.words().data(), ws.in_ids.data(), ws.in_ids.size(),
                             ws.pull.policy);
    if constexpr (!std::is_same_v<U, Pattern>) {
        for (std::size_t k = 0; k < ws.in_vals.size(); ++k)
            ws.xb.value(ws.in_ids[k]) = ws.in_vals[k];
    }
}

/// Stage 4, push: ws.y = the block's partial product over the gathered sparse input. When
/// the fold dimension has one rank this rank owns the whole output range, so the mask is
/// applied inside the kernel (products into masked-out outputs are dropped at once).
/// `result_final`: the kernel's result will be the operation's as it is (see
/// SpmvWorkspace::result_epilogue), so the kernel may hand it to the workspace's epilogue.
template <class S, class U, class T>
void push_multiply(const SpmvLayout<T>& L, const LocalMask& mask,
                   SpmvWorkspace<U, typename S::value_type, T>& ws, bool result_final) {
    auto view = view_of(*L.push_block, &ws.lookup, ws.lookup_for);
    kernels::MaskView mv = kernels::no_mask();
    if (L.fold->size() == 1 && !mask.none()) mv = kernels::MaskView{mask.bits(), mask.complement()};
    kernels::KernelStats st;
    if constexpr (semiring_is_positional<S>()) {
        // The product is the input's global index: one claiming pass, no values gathered.
        ws.claim.policy = ws.spmspv.policy;
        ws.claim.epilogue = result_final && ws.result_epilogue ? &ws.result_epilogue : nullptr;
        ws.claim.epilogue_lines =
            result_final ? ws.result_epilogue_lines : kernels::EpilogueLines{};
        st = kernels::spmspv_claim<S>(
            view, std::span<const lindex_t>(ws.in_ids),
            [&](lindex_t j) { return L.input_global(j); }, mv, ws.y, ws.claim);
        ws.result_epilogue_ran = ws.claim.epilogue_ran;
        ws.claim.epilogue = nullptr;
    } else {
        ws.x.reset(L.n_in);
        ws.x.indices().assign(ws.in_ids.begin(), ws.in_ids.end());
        ws.x.values().resize(ws.in_ids.size());
        if constexpr (!std::is_same_v<U, Pattern>) {
            for (std::size_t k = 0; k < ws.in_vals.size(); ++k) ws.x.values()[k] = ws.in_vals[k];
        }
        st = kernels::spmspv<S>(view, ws.x, mv, ws.y, ws.spmspv);
    }
    ws.last_entries = st.entries;
}

/// The output mask over the block's whole output range, for a pull without rotation: each
/// rank's piece of the mask is gathered along the fold dimension.
template <class M, class U, class Y, class T>
kernels::MaskView gather_output_mask(const SpmvLayout<T>& L, lindex_t out_len, const M& mask,
                                     const LocalMask& lm, SpmvWorkspace<U, Y, T>& ws,
                                     const char* name) {
    if constexpr (!std::is_same_v<M, NoMask>) {
        ws.mask_ids.clear();
        for (lindex_t i = 0; i < out_len; ++i) {
            if (lm.allows(i) != lm.complement()) ws.mask_ids.push_back(L.out_offset + i);
        }
        L.fold->allgather_ids(ws.mask_ids, L.n_out, ws.mask_all, name);
        ws.mask_bits.assign(bitmap_words(L.n_out), 0);
        for (lindex_t i : ws.mask_all) ws.mask_bits[i >> 6] |= std::uint64_t(1) << (i & 63);
        return kernels::MaskView{ws.mask_bits.data(), lm.complement()};
    } else {
        (void)mask;
        (void)name;
        return kernels::MaskView{nullptr, lm.complement()};
    }
}

/// Stage 4, pull without rotation (semirings with no early exit): ws.y = the block's
/// partial product over the gathered input as a bitmap. The output mask is gathered along
/// the fold dimension first, so masked-out outputs are not computed.
template <class S, class M, class U, class T>
void pull_multiply(const SpmvLayout<T>& L, lindex_t out_len, const M& mask, const LocalMask& lm,
                   SpmvWorkspace<U, typename S::value_type, T>& ws, const char* name) {
    const kernels::MaskView mv = gather_output_mask(L, out_len, mask, lm, ws, name);
    input_bitmap<S>(ws, L.n_in);
    auto view = view_of(*L.pull_block, nullptr, ws.lookup_for);
    ws.last_entries = kernels::spmv_pull<S>(view, ws.xb, mv, ws.y, ws.pull).entries;
}

/// Whether the output stage would write a result t of type Y, every entry allowed by the
/// mask, into w as it is: no accumulator, and replace or an empty w.
template <class Y, class W, class Accum>
bool output_takes_whole(const DistVector<W>& w, Accum, const Descriptor& d) {
    if constexpr (std::is_same_v<Accum, NoAccum> && std::is_same_v<W, Y>) {
        return d.replace || w.local_nvals() == 0;
    }
    (void)w;
    (void)d;
    return false;
}

/// Stage 6's shortcut: when every entry of t is allowed by the mask (the rotating pull skips
/// masked-out outputs) and the output stage would write t as it is (output_takes_whole()),
/// t's buffers become w's piece. Returns whether it did so.
template <class W, class Accum, class Y>
bool move_into_output(DistVector<W>& w, Accum accum, SparseVector<Y>& t, const Descriptor& d) {
    if constexpr (std::is_same_v<W, Y>) {
        if (output_takes_whole<Y>(w, accum, d)) {
            SparseVector<W>& out = w.sparse();
            std::swap(out, t);
            return true;
        }
    }
    (void)w;
    (void)accum;
    (void)t;
    return false;
}

/// Stage 5: the partial results in ws.y (block numbering, ascending) are combined at their
/// owners by the semiring's add (Communicator::reduce_scatter_pairs: a sparse reduce-scatter
/// along the fold dimension); ws.t gets this rank's piece. With one rank in the fold
/// dimension the partial result is already the piece.
template <class S, class U, class T>
void fold_partials(const SpmvLayout<T>& L, lindex_t out_len,
                   SpmvWorkspace<U, typename S::value_type, T>& ws, const char* name) {
    using Y = typename S::value_type;
    comm::Communicator& fold = *L.fold;
    if (fold.size() == 1) {
        std::swap(ws.t, ws.y);
        ws.t.set_size(out_len);
        return;
    }
    const gindex_t nb = L.out->nb;
    ws.send_counts.assign(std::size_t(fold.size()), 0);
    // y is sorted, so its entries are already grouped by owner: find each owner's run by
    // binary search and make its ids piece-local.
    auto& yi = ws.y.indices();
    auto run_begin = yi.begin();
    for (int dest = 0; dest < fold.size(); ++dest) {
        const gindex_t piece_end = gindex_t(dest + 1) * nb;
        const auto run_end =
            dest + 1 == fold.size()
                ? yi.end()
                : std::lower_bound(run_begin, yi.end(), piece_end,
                                   [](lindex_t i, gindex_t e) { return gindex_t(i) < e; });
        ws.send_counts[std::size_t(dest)] = int(run_end - run_begin);
        const lindex_t shift = lindex_t(gindex_t(dest) * nb);
        if (shift != 0) {
            for (auto it = run_begin; it != run_end; ++it) *it -= shift;
        }
        run_begin = run_end;
    }
    ws.t.reset(out_len);
    fold.reduce_scatter_pairs(
        std::span<const lindex_t>(yi), std::span<const Y>(ws.y.values().data(), ws.y.nvals()),
        std::span<const int>(ws.send_counts), lindex_t(nb), [](Y a, Y b) { return S::add(a, b); },
        ws.t.indices(), ws.fold_vals, name);
    ws.t.values().resize_for_overwrite(ws.fold_vals.size());
    std::copy(ws.fold_vals.begin(), ws.fold_vals.end(), ws.t.values().data());
}

/// The whole operation: w⟨mask⟩ = accum(w, product). `input_is_rows` is true when the input
/// runs along the matrix rows (vxm without transpose, mxv with transpose). Vectors are taken
/// in the matrix's stored ids (the relabelled ones when A is relabelled: BFS works that way).
template <class S, class W, class M, class Accum, class U, class T>
void spmv_dist(DistVector<W>& w, const M& mask, Accum accum, const DistVector<U>& u,
               const DistMatrix<T>& a, const Descriptor& d, bool input_is_rows,
               SpmvWorkspace<U, typename S::value_type, T>& ws, const char* name) {
    if (!a.grid()) throw InvalidValue(std::string(name) + ": the matrix is uninitialised");
    const SpmvLayout<T> L(a, input_is_rows);
    check_spmv_args<S>(w, mask, u, a, L, name);
    ProcessGrid& grid = *a.grid();
    const bool on_device = grid.exec_backend() == ExecBackend::cuda;
    const Direction dir = choose_direction<S>(u, *L.in, d, grid, name);
    ws.last_direction = dir;
    ws.result_epilogue_ran = false;
    // The mask of this rank's piece; taken before w changes (w may be the mask or u).
    const LocalMask lm = make_local_mask(mask, d);

    // The rotation serves every semiring with an early exit on the CPU; on the cuda backend
    // it serves the positional ones (BFS), the others pull with the device's own kernel.
    // (Compiled only for the semirings that can take it.)
    if constexpr (rotating_pull_v<S>) {
        if (dir == Direction::pull && (!on_device || semiring_is_positional<S>())) {
            if (!expand_input_bits<S>(u, L, ws, name)) {
                expand_input<S>(u, L, ws, name);
                input_bitmap<S>(ws, L.n_in);
            }
            rotate_pull<S>(L, lm, w.local_size(), ws, on_device, grid.cuda_device(), name);
            // The rotation never computes a masked-out output.
            if (!move_into_output(w, accum, ws.t, d)) apply_output_stage(w, lm, accum, ws.t, d);
            return;
        }
    }
    expand_input<S>(u, L, ws, name);
    // A CPU push on a one-rank fold applies the mask inside the kernel; when the output stage
    // also takes the result whole, the kernel's result is the operation's: the kernel may hand
    // it to the workspace's epilogue, and its buffers become w's piece (the shortcut below).
    const bool push_result_final = !on_device && dir == Direction::push && L.fold->size() == 1 &&
                                   (lm.all() || !lm.none()) &&
                                   output_takes_whole<typename S::value_type>(w, accum, d);
    {
        ws.y.reset(L.n_out);
        if (on_device) {
            if constexpr (device_spmv_supported_v<S, U, T>) {
                using State = DeviceSpmvState<typename S::value_type, T>;
                if (!ws.device) ws.device = std::make_shared<State>();
                State& st = *static_cast<State*>(ws.device.get());
                const bool push = dir == Direction::push;
                kernels::MaskView mv = kernels::no_mask();
                if (!push) mv = gather_output_mask(L, w.local_size(), mask, lm, ws, name);
                // A device failure on one rank must not leave the others in the fold.
                run_collectively(grid.world(), [&] {
                    ws.last_entries = device_local_multiply<S, U, T>(
                        st, grid.cuda_device(), push, push ? *L.push_block : *L.pull_block, L.n_in,
                        L.n_out, ws.in_ids, ws.in_vals, mv.bits, mv.complement, ws.y);
                });
            }
        } else if (dir == Direction::push) {
            push_multiply<S>(L, lm, ws, push_result_final);
        } else if constexpr (!semiring_is_positional<S>()) {
            // Positional semirings always pull by rotation (above).
            pull_multiply<S>(L, w.local_size(), mask, lm, ws, name);
        }
        fold_partials<S>(L, w.local_size(), ws, name);
        if (push_result_final && move_into_output(w, accum, ws.t, d)) return;
    }
    apply_output_stage(w, lm, accum, ws.t, d);
}

}  // namespace gridblas::detail
