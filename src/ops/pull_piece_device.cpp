// Host side of the rotating pull's piece scan on the GPU (see pull_piece_device.hpp): staging
// through pinned memory around the device kernel cuda::detail::bfs_bottom_up_piece.

#include "gridblas/ops/pull_piece_device.hpp"

#include "gridblas/cuda/kernels.hpp"

#include <algorithm>
#include <cstring>

namespace gridblas::detail {

DevicePieceScanner::DevicePieceScanner(int device, const CompressedBlock<Pattern>& pull_block,
                                       lindex_t piece_len, lindex_t n_in)
    : device_(device),
      dcsc_(pull_block.format() == LocalFormat::dcsc),
      stamp_(pull_block.stamp()),
      n_in_(n_in) {
    cuda_set_device(device_);
    if (dcsc_) {
        dcsc_block_.assign(pull_block.dcsc());
    } else {
        csr_block_.assign(pull_block.csr());
    }
    const std::size_t in_bytes = std::max<std::size_t>(bitmap_words(n_in), 1) * 8;
    const std::size_t piece_bytes = std::max<std::size_t>(bitmap_words(piece_len), 1) * 8;
    input_.reserve(in_bytes);
    done_.reserve(piece_bytes);
    fresh_.reset(piece_len);
    found_.reset(piece_len);
    stage_input_.reserve(in_bytes);
    stage_words_.reserve(piece_bytes);
    stage_ind_.reserve(std::max<std::size_t>(piece_len, 1) * sizeof(lindex_t));
    stage_val_.reserve(std::max<std::size_t>(piece_len, 1) * sizeof(std::int64_t));
}

void DevicePieceScanner::set_input(const std::uint64_t* bits) {
    std::memcpy(stage_input_.as<std::uint64_t>(), bits, bitmap_words(n_in_) * 8);
    input_staged_ = true;
}

std::uint64_t DevicePieceScanner::scan(const cuda::detail::BottomUpPiece& piece, lindex_t len,
                                       const std::uint64_t* done, std::vector<lindex_t>& ids,
                                       std::vector<std::int64_t>& vals) {
    cuda_set_device(device_);  // the binding belongs to the calling host thread
    if (input_staged_) {
        input_.upload(stage_input_.as<std::uint64_t>(), bitmap_words(n_in_) * 8);
        input_staged_ = false;
    }
    const std::size_t words = bitmap_words(len);
    std::uint64_t* pw = stage_words_.as<std::uint64_t>();
    lindex_t* pind = stage_ind_.as<lindex_t>();
    std::int64_t* pval = stage_val_.as<std::int64_t>();
    // The done bits and the earlier ranks' candidates go to the device.
    std::memcpy(pw, done, words * sizeof(std::uint64_t));
    done_.upload(pw, words * sizeof(std::uint64_t));
    std::copy(ids.begin(), ids.end(), pind);
    std::copy(vals.begin(), vals.end(), pval);
    found_.assign(len, ids.size(), pind, pval);
    cuda::sparse_to_bitmap(found_, fresh_);

    const cuda::CompressedDeviceView<Pattern> view = dcsc_ ? dcsc_block_.view() : csr_block_.view();
    const cuda::DeviceOutput<std::int64_t> out = fresh_.output();
    const std::uint64_t examined =
        cuda::detail::bfs_bottom_up_piece(view, piece, input_.as<std::uint64_t>(),
                                          done_.as<std::uint64_t>(), out.words, out.val, ws_);

    // Every candidate of the piece, in output order, back through pinned memory.
    cuda::bitmap_to_sparse(fresh_, found_, ws_);
    found_.download(pind, pval);
    ids.assign(pind, pind + found_.nvals());
    vals.assign(pval, pval + found_.nvals());
    return examined;
}

std::size_t DevicePieceScanner::memory_bytes() const {
    return dcsc_block_.memory_bytes() + csr_block_.memory_bytes() + input_.capacity() +
           done_.capacity() + ws_.memory_bytes();
}

}  // namespace gridblas::detail
