#pragma once
/// @file spmv.hpp
/// @brief Distributed vxm and mxv (GraphBLAS C API 2.1 GrB_vxm / GrB_mxv) over a 2D grid.
///
/// One call runs the pipeline of Buluç & Madduri's 2D SpMSpV ("Parallel breadth-first
/// search on distributed memory systems", SC 2011), staged in spmv_stages.hpp:
///  1. checks on every rank, before any communication;
///  2. direction: push for a sparse input, pull for a dense one (or the descriptor's hint);
///  3. expand: the input vector's pieces are gathered along the grid row (vxm) or column
///     (mxv) — as a compressed id set plus values — giving the block's whole input range;
///  4. local kernel on this rank's block: SpMSpV push with a sparse accumulator or sort
///     (sparse input), or masked pull SpMV over a bitmap of the input;
///  5. fold: partial results are combined at the owners of the output pieces along the other
///     grid dimension with the semiring's add. A pull with a semiring that has an early exit
///     (a terminal value, or a positional product such as min_secondi) does steps 4 and 5 as
///     the rotating pull of Buluç, Beamer, Madduri et al. (spmv_rotate.hpp): the pieces of the
///     output travel along the fold dimension with their "done" bits and candidates, so no
///     rank reads the entries of an output another rank has already settled, and the mask
///     never travels on its own — a bottom-up BFS level is such a call;
///  6. the shared output stage: mask, accumulate, replace.
/// When the grid's exec_backend() is cuda, step 4 runs on the rank's GPU (spmv_device.hpp;
/// the rotating pull's piece scan for positional semirings in pull_piece_device.hpp).
/// The product is always S::mul(A(i,j), u(·)) (matrix entry first; see builtin.hpp); a
/// positional semiring is given the global index of u's entry instead of its value.

#include <string>

#include "gridblas/core/error.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/spmv_stages.hpp"
#include "gridblas/ops/spmv_workspace.hpp"
#include "gridblas/vector/dist_vector.hpp"

namespace gridblas {

namespace detail {

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
