#pragma once
/// @file spmv_device.hpp
/// @brief The local step of vxm / mxv on the CUDA backend, used by spmv.hpp when the grid's
/// exec_backend() is ExecBackend::cuda (one rank per GPU, exchanges staged
/// through pinned host memory).
///
/// Expand and fold stay on the communication backend; between them the rank's block works
/// on its GPU: the gathered input (ids and values) is written to pinned host memory and
/// copied to the device, the push SpMSpV (sparse input) or the masked pull SpMV (input
/// turned into a device bitmap, output mask uploaded as bits) runs there, and the partial
/// result comes back through pinned memory to be folded. The block's device copy is made
/// on first use and kept in the workspace, so a loop of calls (a BFS) uploads the matrix
/// once and then allocates nothing.
///
/// Only the built-in (semiring, type) pairs of GRIDBLAS_CUDA_FOR_EACH_BUILTIN run on the
/// device; check_device_spmv() refuses the others with NotSupported before any
/// communication, on every rank alike (it depends on types only).

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/cuda/kernels.hpp"
#include "gridblas/matrix/compressed_block.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas::detail {

/// True when vxm/mxv with semiring S, input values U and matrix values A can run on the
/// CUDA backend.
template <class S, class U, class A>
inline constexpr bool device_spmv_supported_v =
    cuda::cuda_supports_v<S, A>&& std::is_convertible_v<U, typename S::value_type>;

/// Throws NotSupported (before any communication) when the pair has no device kernels.
template <class S, class U, class A>
void check_device_spmv(const char* name) {
    if constexpr (!device_spmv_supported_v<S, U, A>) {
        if constexpr (!cuda::has_cuda_kernels<S>::value) {
            throw NotSupported(std::string(name) +
                               ": the grid runs on the cuda backend, which has kernels for the "
                               "built-in semirings only; this semiring runs on the CPU backend");
        } else {
            throw NotSupported(std::string(name) +
                               ": the cuda backend has no kernel for this semiring with these "
                               "matrix/vector value types (see GRIDBLAS_CUDA_FOR_EACH_BUILTIN)");
        }
    }
}

/// Device buffers of one SpmvWorkspace: copies of the push and pull blocks, the input,
/// output and mask, the kernel workspace and the pinned staging areas.
template <class Y, class A>
struct DeviceSpmvState {
    cuda::DeviceDcsc<A> dcsc[2];    ///< [0] push block, [1] pull block (when DCSC)
    cuda::DeviceCsr<A> csr[2];      ///< the same when CSR
    std::uint64_t key[2] = {0, 0};  ///< stamp() of the block held in each slot (0: none)
    cuda::DeviceSparseVector<Y> x;
    cuda::DeviceBitmapVector<Y> xb;
    cuda::DeviceSparseVector<Y> y;
    cuda::DeviceBuffer mask;
    cuda::Workspace ws;
    cuda::PinnedBuffer stage_ind;
    cuda::PinnedBuffer stage_val;

    /// The device view of block b in `slot`, uploading it when it is not the one held.
    cuda::CompressedDeviceView<A> block(int slot, const CompressedBlock<A>& b) {
        const bool dcsc_fmt = b.format() == LocalFormat::dcsc;
        if (key[slot] != b.stamp()) {
            key[slot] = 0;
            if (dcsc_fmt) {
                dcsc[slot].assign(b.dcsc());
            } else {
                csr[slot].assign(b.csr());
            }
            key[slot] = b.stamp();
        }
        return dcsc_fmt ? dcsc[slot].view() : csr[slot].view();
    }
};

/// The local kernel on the device `device`: y = block ⊕.⊗ x, x given by (in_ids, in_vals) over n_in
/// (in_vals empty when U is Pattern), push over `blk` (outer = input) or masked pull
/// (outer = output; mask_bits over n_out or nullptr, with `complement`). y is overwritten
/// with the block's partial result (ascending ids). Returns the matrix entries read.
template <class S, class U, class A>
std::uint64_t device_local_multiply(DeviceSpmvState<typename S::value_type, A>& st, int device,
                                    bool push, const CompressedBlock<A>& blk, lindex_t n_in,
                                    lindex_t n_out, const std::vector<lindex_t>& in_ids,
                                    const std::vector<U>& in_vals, const std::uint64_t* mask_bits,
                                    bool complement, SparseVector<typename S::value_type>& y) {
    using Y = typename S::value_type;
    // The device is a property of the calling host thread: bind it on every call, so that a
    // call from another thread of this rank still reaches the rank's GPU.
    cuda_set_device(device);
    const std::size_t nx = in_ids.size();
    // Stage the input in pinned memory and send it to the device.
    st.stage_ind.reserve(std::max<std::size_t>(nx, n_out) * sizeof(lindex_t));
    st.stage_val.reserve(std::max<std::size_t>(nx, n_out) * sizeof(Y));
    lindex_t* pind = st.stage_ind.template as<lindex_t>();
    Y* pval = st.stage_val.template as<Y>();
    std::copy(in_ids.begin(), in_ids.end(), pind);
    for (std::size_t k = 0; k < nx; ++k) pval[k] = static_cast<Y>(in_vals[k]);
    st.x.assign(n_in, nx, pind, pval);

    const cuda::CompressedDeviceView<A> view = st.block(push ? 0 : 1, blk);
    st.y.reset(n_out);
    cuda::KernelStats ks;
    if (push) {
        ks = cuda::detail::push<S, A>(view, st.x.view(), cuda::no_mask(), st.y.output(), st.ws);
    } else {
        cuda::sparse_to_bitmap(st.x, st.xb);
        cuda::DeviceMask m;
        m.complement = complement;
        m.size = n_out;
        if (mask_bits != nullptr) {
            st.mask.upload(mask_bits, bitmap_words(n_out) * sizeof(std::uint64_t));
            m.bits = st.mask.template as<std::uint64_t>();
        }
        ks = cuda::detail::pull<S, A>(view, st.xb.view(), m, st.y.output(), st.ws);
    }
    st.y.set_nvals(ks.nvals);
    // Bring the partial result back through pinned memory.
    st.y.download(pind, pval);
    y.reset(n_out);
    y.indices().assign(pind, pind + ks.nvals);
    y.values().resize_for_overwrite(ks.nvals);
    std::copy(pval, pval + ks.nvals, y.values().data());
    return ks.entries;
}

}  // namespace gridblas::detail
