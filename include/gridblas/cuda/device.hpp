#pragma once
/// @file device.hpp
/// @brief Device-resident copies of the local formats (DeviceDcsc, DeviceCsr) and vectors
/// (DeviceSparseVector, DeviceBitmapVector, DeviceDenseVector) with host <-> device
/// transfers, plus the device queries of device_base.hpp.
///
/// Each object keeps its device arrays in DeviceBuffers that grow and never shrink: vectors
/// are allocated for their full length up front (a sparse vector of length n has room for n
/// entries), so kernels can write them without allocating and a BFS level loop reuses them.
/// Transfers are synchronous (cudaMemcpy on the default stream). No CUDA header is included:
/// the classes are templates over DeviceBuffer, whose few out-of-line functions are the
/// backend's entry points (NotCompiled in a build without CUDA). Default-constructed and
/// zero-length objects never touch the device.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "gridblas/cuda/device_base.hpp"
#include "gridblas/matrix/csr.hpp"
#include "gridblas/matrix/dcsc.hpp"
#include "gridblas/vector/bitmap_vector.hpp"
#include "gridblas/vector/dense_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

namespace gridblas::cuda {

/// A DCSC block (see Dcsc) in device memory.
template <class T>
class DeviceDcsc {
    static_assert(is_device_value<T>::value, "DeviceDcsc: unsupported value type");

public:
    using value_type = T;
    static constexpr bool has_values = !std::is_same_v<T, Pattern>;

    DeviceDcsc() = default;
    /// Uploads `host`. @throws NotCompiled, CudaError
    explicit DeviceDcsc(const Dcsc<T>& host) { assign(host); }

    /// Replaces the contents by `host`, reusing the device memory when it is large enough.
    /// On an exception the object is left empty.
    void assign(const Dcsc<T>& host) {
        nrows_ = ncols_ = 0;
        nzc_ = nnz_ = 0;
        jc_.upload(host.jc().data(), host.nzc() * sizeof(lindex_t));
        cp_.upload(host.cp().data(), (host.nzc() + 1) * sizeof(offset_t));
        ir_.upload(host.ir().data(), host.nnz() * sizeof(lindex_t));
        if constexpr (has_values) num_.upload(host.num().data(), host.nnz() * sizeof(T));
        nrows_ = host.nrows();
        ncols_ = host.ncols();
        nzc_ = host.nzc();
        nnz_ = host.nnz();
    }

    /// Downloads the block.
    Dcsc<T> to_host() const {
        if (nzc_ == 0) return Dcsc<T>(nrows_, ncols_);
        std::vector<lindex_t> jc(nzc_), ir(nnz_);
        std::vector<offset_t> cp(nzc_ + 1);
        ValueArray<T> num(nnz_);
        jc_.download(jc.data(), nzc_ * sizeof(lindex_t));
        cp_.download(cp.data(), (nzc_ + 1) * sizeof(offset_t));
        ir_.download(ir.data(), nnz_ * sizeof(lindex_t));
        if constexpr (has_values) num_.download(num.data(), nnz_ * sizeof(T));
        return Dcsc<T>::from_arrays(nrows_, ncols_, std::move(jc), std::move(cp), std::move(ir),
                                    std::move(num));
    }

    lindex_t nrows() const { return nrows_; }
    lindex_t ncols() const { return ncols_; }
    std::size_t nnz() const { return nnz_; }
    /// Number of non-empty columns.
    std::size_t nzc() const { return nzc_; }
    std::size_t memory_bytes() const {
        return jc_.capacity() + cp_.capacity() + ir_.capacity() + num_.capacity();
    }

    /// Kernel view with outer = column, inner = row.
    CompressedDeviceView<T> view() const {
        CompressedDeviceView<T> v;
        v.n_outer = ncols_;
        v.n_inner = nrows_;
        v.hyper = true;
        v.outer_ids = jc_.as<lindex_t>();
        v.num_outer = nzc_;
        v.nnz = nnz_;
        v.ptr = cp_.as<offset_t>();
        v.inner = ir_.as<lindex_t>();
        v.vals = has_values ? num_.as<T>() : nullptr;
        return v;
    }

private:
    lindex_t nrows_ = 0, ncols_ = 0;
    std::size_t nzc_ = 0, nnz_ = 0;
    DeviceBuffer jc_, cp_, ir_, num_;
};

/// A CSR block (see Csr) in device memory.
template <class T>
class DeviceCsr {
    static_assert(is_device_value<T>::value, "DeviceCsr: unsupported value type");

public:
    using value_type = T;
    static constexpr bool has_values = !std::is_same_v<T, Pattern>;

    DeviceCsr() = default;
    /// Uploads `host`. @throws NotCompiled, CudaError
    explicit DeviceCsr(const Csr<T>& host) { assign(host); }

    /// Replaces the contents by `host`, reusing device memory; empty after an exception.
    void assign(const Csr<T>& host) {
        nrows_ = ncols_ = 0;
        nnz_ = 0;
        rowptr_.upload(host.rowptr().data(), host.rowptr().size() * sizeof(offset_t));
        colind_.upload(host.colind().data(), host.nnz() * sizeof(lindex_t));
        if constexpr (has_values) vals_.upload(host.vals().data(), host.nnz() * sizeof(T));
        nrows_ = host.nrows();
        ncols_ = host.ncols();
        nnz_ = host.nnz();
    }

    /// Downloads the block.
    Csr<T> to_host() const {
        if (nrows_ == 0) return Csr<T>(0, ncols_);
        std::vector<offset_t> rowptr(std::size_t(nrows_) + 1);
        std::vector<lindex_t> colind(nnz_);
        ValueArray<T> vals(nnz_);
        rowptr_.download(rowptr.data(), rowptr.size() * sizeof(offset_t));
        colind_.download(colind.data(), nnz_ * sizeof(lindex_t));
        if constexpr (has_values) vals_.download(vals.data(), nnz_ * sizeof(T));
        return Csr<T>::from_arrays(nrows_, ncols_, std::move(rowptr), std::move(colind),
                                   std::move(vals));
    }

    lindex_t nrows() const { return nrows_; }
    lindex_t ncols() const { return ncols_; }
    std::size_t nnz() const { return nnz_; }
    std::size_t memory_bytes() const {
        return rowptr_.capacity() + colind_.capacity() + vals_.capacity();
    }

    /// Kernel view with outer = row, inner = column.
    CompressedDeviceView<T> view() const {
        CompressedDeviceView<T> v;
        v.n_outer = nrows_;
        v.n_inner = ncols_;
        v.hyper = false;
        v.num_outer = nrows_;
        v.nnz = nnz_;
        v.ptr = rowptr_.as<offset_t>();
        v.inner = colind_.as<lindex_t>();
        v.vals = has_values ? vals_.as<T>() : nullptr;
        return v;
    }

private:
    lindex_t nrows_ = 0, ncols_ = 0;
    std::size_t nnz_ = 0;
    DeviceBuffer rowptr_, colind_, vals_;
};

/// A sparse vector in device memory, with room for size() entries.
template <class T>
class DeviceSparseVector {
    static_assert(is_device_value<T>::value, "DeviceSparseVector: unsupported value type");

public:
    using value_type = T;
    static constexpr bool has_values = !std::is_same_v<T, Pattern>;

    DeviceSparseVector() = default;
    /// An empty vector of length n (device room for n entries is allocated here).
    explicit DeviceSparseVector(lindex_t n) { reset(n); }
    /// Uploads `host`.
    explicit DeviceSparseVector(const SparseVector<T>& host) { assign(host); }

    /// Length n, no entries; allocates only when n exceeds the capacity.
    void reset(lindex_t n) {
        n_ = 0;
        nvals_ = 0;
        ind_.reserve(std::size_t(n) * sizeof(lindex_t));
        if constexpr (has_values) val_.reserve(std::size_t(n) * sizeof(T));
        n_ = n;
    }
    /// Drops every entry (no device work).
    void clear() { nvals_ = 0; }
    /// Replaces the contents by `host`.
    void assign(const SparseVector<T>& host) {
        reset(host.size());
        ind_.upload(host.indices().data(), host.nvals() * sizeof(lindex_t));
        if constexpr (has_values) val_.upload(host.values().data(), host.nvals() * sizeof(T));
        nvals_ = host.nvals();
    }
    /// Downloads into `out` (reusing its memory).
    void to_host(SparseVector<T>& out) const {
        out.reset(n_);
        out.indices().resize(nvals_);
        out.values().resize(nvals_);
        ind_.download(out.indices().data(), nvals_ * sizeof(lindex_t));
        if constexpr (has_values) val_.download(out.values().data(), nvals_ * sizeof(T));
    }
    SparseVector<T> to_host() const {
        SparseVector<T> v;
        to_host(v);
        return v;
    }
    /// Replaces the contents by `nvals` entries of length-n vector from host arrays (any host
    /// memory; pinned memory transfers fastest). `val` is ignored for Pattern.
    void assign(lindex_t n, std::size_t nvals, const lindex_t* ind, const T* val) {
        reset(n);
        ind_.upload(ind, nvals * sizeof(lindex_t));
        if constexpr (has_values) val_.upload(val, nvals * sizeof(T));
        nvals_ = nvals;
    }
    /// Downloads the nvals() entries into host arrays with room for them.
    void download(lindex_t* ind, T* val) const {
        ind_.download(ind, nvals_ * sizeof(lindex_t));
        if constexpr (has_values) val_.download(val, nvals_ * sizeof(T));
    }

    lindex_t size() const { return n_; }
    std::size_t nvals() const { return nvals_; }
    bool empty() const { return nvals_ == 0; }

    DeviceSparseView<T> view() const {
        return {n_, nvals_, ind_.as<lindex_t>(), has_values ? val_.as<T>() : nullptr};
    }
    /// For kernels writing this vector: room for size() entries. Follow with set_nvals().
    DeviceOutput<T> output() {
        DeviceOutput<T> o;
        o.n = n_;
        o.bitmap = false;
        o.ind = ind_.as<lindex_t>();
        o.val = has_values ? val_.as<T>() : nullptr;
        return o;
    }
    /// Records how many entries a kernel wrote through output().
    void set_nvals(std::size_t nvals) { nvals_ = nvals; }

private:
    lindex_t n_ = 0;
    std::size_t nvals_ = 0;
    DeviceBuffer ind_, val_;
};

/// A bitmap vector in device memory (bits, and n values unless T is Pattern).
template <class T>
class DeviceBitmapVector {
    static_assert(is_device_value<T>::value, "DeviceBitmapVector: unsupported value type");

public:
    using value_type = T;
    static constexpr bool has_values = !std::is_same_v<T, Pattern>;

    DeviceBitmapVector() = default;
    /// A vector of length n with no entries (values unspecified).
    explicit DeviceBitmapVector(lindex_t n) { reset(n); }
    explicit DeviceBitmapVector(const BitmapVector<T>& host) { assign(host); }

    /// Length n, no entries; allocates only when n exceeds the capacity. Values of absent
    /// entries are unspecified, but never uninitialised memory: a new allocation is zeroed
    /// once, so to_host() copies only initialised bytes.
    void reset(lindex_t n) {
        n_ = 0;
        words_.reserve(bitmap_words(n) * sizeof(std::uint64_t));
        if constexpr (has_values) {
            const std::size_t bytes = std::size_t(n) * sizeof(T);
            const bool grows = bytes > vals_.capacity();
            vals_.reserve(bytes);
            if (grows) vals_.zero(bytes);
        }
        n_ = n;
        clear();
    }
    /// Clears every bit (values are left as they are).
    void clear() { words_.zero(bitmap_words(n_) * sizeof(std::uint64_t)); }
    void assign(const BitmapVector<T>& host) {
        reset(host.size());
        words_.upload(host.words().data(), bitmap_words(n_) * sizeof(std::uint64_t));
        if constexpr (has_values) vals_.upload(host.values().data(), std::size_t(n_) * sizeof(T));
    }
    BitmapVector<T> to_host() const {
        BitmapVector<T> b(n_);
        words_.download(b.words().data(), bitmap_words(n_) * sizeof(std::uint64_t));
        if constexpr (has_values) vals_.download(b.values().data(), std::size_t(n_) * sizeof(T));
        return b;
    }
    /// Entries present. Downloads the bits (O(n/8) bytes); kernels report their output
    /// counts in KernelStats, which is cheaper inside loops.
    std::size_t nvals() const { return to_host_bits_count(); }

    lindex_t size() const { return n_; }

    DeviceBitmapView<T> view() const {
        return {n_, words_.as<std::uint64_t>(), has_values ? vals_.as<T>() : nullptr};
    }
    DeviceOutput<T> output() {
        DeviceOutput<T> o;
        o.n = n_;
        o.bitmap = true;
        o.words = words_.as<std::uint64_t>();
        o.val = has_values ? vals_.as<T>() : nullptr;
        return o;
    }

private:
    std::size_t to_host_bits_count() const {
        std::vector<std::uint64_t> w(bitmap_words(n_));
        words_.download(w.data(), w.size() * sizeof(std::uint64_t));
        std::size_t c = 0;
        for (std::uint64_t x : w) c += std::size_t(std::popcount(x));
        return c;
    }

    lindex_t n_ = 0;
    DeviceBuffer words_, vals_;
};

/// A dense vector in device memory.
template <class T>
class DeviceDenseVector {
    static_assert(is_device_value<T>::value && !std::is_same_v<T, Pattern>,
                  "DeviceDenseVector: unsupported value type");

public:
    using value_type = T;

    DeviceDenseVector() = default;
    /// Length n, contents unspecified.
    explicit DeviceDenseVector(lindex_t n) { reset(n); }
    explicit DeviceDenseVector(const DenseVector<T>& host) { assign(host); }

    /// Length n, contents unspecified; allocates only when n exceeds the capacity.
    void reset(lindex_t n) {
        n_ = 0;
        vals_.reserve(std::size_t(n) * sizeof(T));
        n_ = n;
    }
    void assign(const DenseVector<T>& host) {
        reset(host.size());
        vals_.upload(host.data(), std::size_t(n_) * sizeof(T));
    }
    void to_host(DenseVector<T>& out) const {
        out.values().resize(n_);
        vals_.download(out.data(), std::size_t(n_) * sizeof(T));
    }
    DenseVector<T> to_host() const {
        DenseVector<T> d;
        to_host(d);
        return d;
    }
    /// Downloads into a plain host array of size() elements.
    void download(T* host) const { vals_.download(host, std::size_t(n_) * sizeof(T)); }

    lindex_t size() const { return n_; }
    const T* data() const { return vals_.as<T>(); }
    T* data() { return vals_.as<T>(); }

private:
    lindex_t n_ = 0;
    DeviceBuffer vals_;
};

/// A structural mask over the entries of a device bitmap vector (complemented on request).
template <class M>
DeviceMask make_mask(const DeviceBitmapVector<M>& m, bool complement = false) {
    return DeviceMask{m.view().words, complement, m.size()};
}

}  // namespace gridblas::cuda
