// Host side of the bottom-up sub-step on the GPU (see bottom_up_device.hpp): staging through
// pinned memory around the device kernel cuda::detail::bfs_bottom_up_piece.

#include "bfs/bottom_up_device.hpp"

#include <algorithm>
#include <cstring>

#include "bfs/bfs_impl.hpp"

namespace gridblas {

BfsDeviceBottomUp::BfsDeviceBottomUp(int device, const CompressedBlock<Pattern>& by_col,
                                     lindex_t piece_len, lindex_t row_block)
    : device_(device), dcsc_(by_col.format() == LocalFormat::dcsc), row_block_(row_block) {
    cuda_set_device(device_);
    if (dcsc_) {
        dcsc_block_.assign(by_col.dcsc());
    } else {
        csr_block_.assign(by_col.csr());
    }
    front_.reserve(std::max<std::size_t>(bitmap_words(row_block), 1) * sizeof(std::uint64_t));
    completed_.reserve(std::max<std::size_t>(bitmap_words(piece_len), 1) * sizeof(std::uint64_t));
    fresh_.reset(piece_len);
    found_.reset(piece_len);
    stage_front_.reserve(std::max<std::size_t>(bitmap_words(row_block), 1) * sizeof(std::uint64_t));
    stage_words_.reserve(std::max<std::size_t>(bitmap_words(piece_len), 1) * sizeof(std::uint64_t));
    stage_ind_.reserve(std::max<std::size_t>(piece_len, 1) * sizeof(lindex_t));
    stage_val_.reserve(std::max<std::size_t>(piece_len, 1) * sizeof(std::int64_t));
}

void BfsDeviceBottomUp::set_frontier(const std::vector<std::uint64_t>& bits) {
    std::memcpy(stage_front_.as<std::uint64_t>(), bits.data(),
                bitmap_words(row_block_) * sizeof(std::uint64_t));
    front_staged_ = true;
}

std::uint64_t BfsDeviceBottomUp::scan(const cuda::detail::BottomUpPiece& piece, lindex_t len,
                                      const std::uint64_t* completed,
                                      std::vector<BfsFound>& found) {
    cuda_set_device(device_);  // the binding belongs to the calling host thread
    if (front_staged_) {
        front_.upload(stage_front_.as<std::uint64_t>(),
                      bitmap_words(row_block_) * sizeof(std::uint64_t));
        front_staged_ = false;
    }
    const std::size_t words = bitmap_words(len);
    std::uint64_t* pw = stage_words_.as<std::uint64_t>();
    lindex_t* pind = stage_ind_.as<lindex_t>();
    std::int64_t* pval = stage_val_.as<std::int64_t>();
    // Earlier ranks' candidates and the completed bits go to the device.
    std::memcpy(pw, completed, words * sizeof(std::uint64_t));
    completed_.upload(pw, words * sizeof(std::uint64_t));
    for (std::size_t k = 0; k < found.size(); ++k) {
        pind[k] = found[k].v;
        pval[k] = found[k].parent;
    }
    found_.assign(len, found.size(), pind, pval);
    cuda::sparse_to_bitmap(found_, fresh_);

    const cuda::CompressedDeviceView<Pattern> view = dcsc_ ? dcsc_block_.view() : csr_block_.view();
    const cuda::DeviceOutput<std::int64_t> out = fresh_.output();
    const std::uint64_t examined =
        cuda::detail::bfs_bottom_up_piece(view, piece, front_.as<std::uint64_t>(),
                                          completed_.as<std::uint64_t>(), out.words, out.val, ws_);

    // Every candidate of the piece, in vertex order, back through pinned memory.
    cuda::bitmap_to_sparse(fresh_, found_, ws_);
    found_.download(pind, pval);
    found.resize(found_.nvals());
    for (std::size_t k = 0; k < found.size(); ++k) found[k] = {pind[k], pval[k]};
    return examined;
}

std::size_t BfsDeviceBottomUp::memory_bytes() const {
    return dcsc_block_.memory_bytes() + csr_block_.memory_bytes() + front_.capacity() +
           completed_.capacity() + ws_.memory_bytes();
}

}  // namespace gridblas
