// Single-GPU direction-optimizing BFS (Beamer, Asanović & Patterson, SC'12) composed from
// the backend's kernels, with parents recovered from levels after the search (Fu et
// al. 2014). The host only orchestrates: per level it launches one kernel call (push or
// pull), one bookkeeping kernel and one frontier-degree reduction, and reads back a few
// counters to decide the next direction — the same rule and the same alpha/beta as the
// distributed BfsSolver (src/bfs/bfs_solver.cpp).
//
//  top-down:  next⟨¬visited⟩ = Aᵀ any.pair frontier  — cuda::spmspv over the CSR of A (row u
//             lists u's out-neighbours, i.e. the CSR of Mᵀ for M = Aᵀ), sparse frontier;
//  bottom-up: next⟨¬visited⟩ = Aᵀ any.pair frontier  — cuda::spmv_pull over the CSR of Aᵀ
//             (row v lists v's in-neighbours; A itself when symmetric), bitmap frontier,
//             each unvisited row stopping at its first frontier neighbour.
// any_pair has the terminal value 1, so the pull stops at the first hit. Parents cannot come
// from that first hit in general (a warp-wide pull finds some hit, not the first), so they
// are computed at the end: the smallest in-neighbour one level up, a deterministic tree.

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "cuda/backend.hpp"
#include "cuda/frontier.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/cuda/bfs.hpp"
#include "gridblas/cuda/kernels.hpp"

namespace gridblas::cuda {

namespace {

using Flag = std::uint8_t;  // frontier value type: any_pair ignores the values
using Sr = any_pair<Flag>;

Csr<Pattern> transpose(const Csr<Pattern>& a) {
    const auto coo = a.to_coo();
    return Csr<Pattern>::from_tuples(a.ncols(), a.nrows(), coo.cols, coo.rows,
                                     ValueArray<Pattern>(coo.cols.size()));
}

/// Copies `bytes` bytes of device memory to pageable host memory through `stage`, pinned
/// memory of two chunks: while the host threads copy chunk c out of one half, the DMA engine
/// fills the other with chunk c + 1. A plain cudaMemcpy to pageable memory runs at the
/// driver's bounce-buffer speed: on an H100 it moved the 64 MiB of a scale-22 search's level
/// and parent arrays in 6.8 ms, two thirds of the search (2026-11-26).
void download_staged(const void* device, void* host, std::size_t bytes, PinnedBuffer& stage) {
    constexpr std::size_t chunk = std::size_t(8) << 20;
    if (bytes == 0) return;
    stage.reserve(2 * chunk);
    auto* const staging = static_cast<char*>(stage.data());
    const auto* const from = static_cast<const char*>(device);
    auto* const to = static_cast<char*>(host);
    const std::size_t chunks = (bytes + chunk - 1) / chunk;
    cudaEvent_t filled[2] = {nullptr, nullptr};
    cudaError_t err = cudaEventCreateWithFlags(&filled[0], cudaEventDisableTiming);
    if (err == cudaSuccess) err = cudaEventCreateWithFlags(&filled[1], cudaEventDisableTiming);
    const auto length = [&](std::size_t c) { return std::min(chunk, bytes - c * chunk); };
    // Chunk c goes to half c % 2; the default stream orders it after the search's kernels.
    const auto fill = [&](std::size_t c) {
        cudaError_t e = cudaMemcpyAsync(staging + (c % 2) * chunk, from + c * chunk, length(c),
                                        cudaMemcpyDeviceToHost, cudaStream_t{});
        if (e == cudaSuccess) e = cudaEventRecord(filled[c % 2], cudaStream_t{});
        return e;
    };
    if (err == cudaSuccess) err = fill(0);
    for (std::size_t c = 0; c < chunks && err == cudaSuccess; ++c) {
        // Half (c + 1) % 2 was emptied by the host copy of chunk c - 1, which has returned.
        if (c + 1 < chunks) err = fill(c + 1);
        if (err == cudaSuccess) err = cudaEventSynchronize(filled[c % 2]);
        if (err != cudaSuccess) break;
        const char* src = staging + (c % 2) * chunk;
        char* dst = to + c * chunk;
        const std::size_t len = length(c);
        constexpr std::size_t piece = std::size_t(1) << 20;
        const std::size_t pieces = (len + piece - 1) / piece;
#pragma omp parallel for schedule(static)
        for (std::size_t k = 0; k < pieces; ++k) {
            std::memcpy(dst + k * piece, src + k * piece, std::min(piece, len - k * piece));
        }
    }
    if (err != cudaSuccess) (void)cudaDeviceSynchronize();  // no copy may outlive `stage`
    for (cudaEvent_t e : filled) {
        if (e != nullptr) (void)cudaEventDestroy(e);
    }
    GRIDBLAS_CUDA_CHECK(err);
}

void check_options(const BfsGpuOptions& o) {
    if (!(o.alpha > 0) || !(o.beta > 0)) {
        throw InvalidValue("cuda::bfs: alpha and beta must be positive");
    }
}

}  // namespace

struct BfsGpuSolver::Impl {
    BfsGpuOptions opt;
    lindex_t n = 0;
    std::uint64_t nnz = 0;
    DeviceCsr<Pattern> out_edges;  // CSR of A
    DeviceCsr<Pattern> in_edges;   // CSR of Aᵀ (empty when symmetric: out_edges serves)
    DeviceSparseVector<Flag> front_s, next_s;
    DeviceBitmapVector<Flag> front_b, next_b;
    DeviceBitmapVector<Pattern> visited;
    DeviceDenseVector<std::int64_t> level, parent;
    Workspace ws;
    PinnedBuffer stage;       // host: staging of the result download (download_staged)
    SparseVector<Flag> seed;  // host: the one-entry start frontier

    const DeviceCsr<Pattern>& pull_matrix() const { return opt.symmetric ? out_edges : in_edges; }

    /// Out-degree sum of the current frontier (sparse or bitmap form); synchronises.
    std::uint64_t frontier_edges(bool bitmap) {
        Workspace::Impl& w = ws.impl();
        w.zero_counters();
        std::uint64_t* sum = w.counter_ptr() + detail::kScratch;
        const offset_t* rowptr = out_edges.view().ptr;
        if (bitmap) {
            detail::degree_sum_bitmap(rowptr, front_b.view().words, n, sum);
        } else {
            detail::degree_sum_list(rowptr, front_s.view().ind, front_s.nvals(), sum);
        }
        std::uint64_t host[detail::kNumCounters];
        w.read_counters(host);
        return host[detail::kScratch];
    }
};

BfsGpuSolver::BfsGpuSolver(const Csr<Pattern>& graph, const BfsGpuOptions& options)
    : impl_(std::make_unique<Impl>()) {
    if (graph.nrows() != graph.ncols()) {
        throw DimensionMismatch("cuda::bfs: the graph must be square, not " +
                                std::to_string(graph.nrows()) + " x " +
                                std::to_string(graph.ncols()));
    }
    check_options(options);
    Impl& s = *impl_;
    s.opt = options;
    s.n = graph.nrows();
    s.nnz = graph.nnz();
    s.out_edges.assign(graph);
    if (!options.symmetric) s.in_edges.assign(transpose(graph));
    s.front_s.reset(s.n);
    s.next_s.reset(s.n);
    s.front_b.reset(s.n);
    s.next_b.reset(s.n);
    s.visited.reset(s.n);
    s.level.reset(s.n);
    s.parent.reset(s.n);
}

BfsGpuSolver::~BfsGpuSolver() = default;

const BfsGpuOptions& BfsGpuSolver::options() const { return impl_->opt; }

BfsGpuResult BfsGpuSolver::run(gindex_t source) {
    BfsGpuResult r;
    run(source, r);
    return r;
}

void BfsGpuSolver::run(gindex_t source, BfsGpuResult& r) {
    Impl& s = *impl_;
    if (source < 0 || source >= gindex_t(s.n)) {
        throw IndexOutOfBounds("cuda::bfs: source " + std::to_string(source) +
                               " is not a vertex of a graph with " + std::to_string(s.n) +
                               " vertices");
    }
    const auto t0 = std::chrono::steady_clock::now();
    const lindex_t src = lindex_t(source);
    const std::size_t nwords = detail::words_for(s.n);
    r.source = source;
    r.levels.clear();

    // Start: level 0 = {source}, visited = {source}, frontier (sparse) = {source}.
    detail::fill<std::int64_t>(s.level.data(), s.n, -1);
    s.visited.clear();
    s.seed.reset(s.n);
    s.seed.push_back(src, Flag(1));
    s.front_s.assign(s.seed);
    detail::bfs_mark_list(s.front_s.view().ind, 1, s.level.data(), s.visited.output().words, 0);

    const DeviceMask unvisited = make_mask(s.visited, /*complement=*/true);
    const BfsDirection mode = s.opt.direction;
    bool bottom_up = mode == BfsDirection::bottom_up;
    bool frontier_is_bitmap = false;
    gindex_t nf = 1;
    std::uint64_t mf = s.frontier_edges(false);
    std::uint64_t unexplored = s.nnz - mf;
    gindex_t reached = 1;
    std::int64_t depth = 0;

    while (nf > 0) {
        if (mode == BfsDirection::automatic && !bottom_up) {
            bottom_up = bfs_go_bottom_up(mf, unexplored, s.opt.alpha);
        }
        const auto l0 = std::chrono::steady_clock::now();
        KernelStats st;
        if (bottom_up) {
            if (!frontier_is_bitmap) sparse_to_bitmap(s.front_s, s.front_b);
            st = spmv_pull<Sr>(s.pull_matrix(), s.front_b, unvisited, s.next_b, s.ws);
            detail::bfs_mark_bitmap(s.next_b.view().words, nwords, s.level.data(),
                                    s.visited.output().words, depth + 1);
            std::swap(s.front_b, s.next_b);
            frontier_is_bitmap = true;
        } else {
            if (frontier_is_bitmap) bitmap_to_sparse(s.front_b, s.front_s, s.ws);
            st = spmspv<Sr>(s.out_edges, s.front_s, unvisited, s.next_s, s.ws);
            detail::bfs_mark_list(s.next_s.view().ind, s.next_s.nvals(), s.level.data(),
                                  s.visited.output().words, depth + 1);
            std::swap(s.front_s, s.next_s);
            frontier_is_bitmap = false;
        }
        const gindex_t nf_prev = nf;
        nf = gindex_t(st.nvals);
        mf = nf > 0 ? s.frontier_edges(frontier_is_bitmap) : 0;  // synchronises the level
        const auto l1 = std::chrono::steady_clock::now();

        BfsLevelStats ls;
        ls.level = int(depth);
        ls.bottom_up = bottom_up;
        ls.frontier = nf_prev;
        ls.discovered = nf;
        ls.edges_examined = st.entries;
        ls.edges_examined_max_rank = st.entries;  // one device
        ls.seconds = std::chrono::duration<double>(l1 - l0).count();
        r.levels.push_back(ls);

        unexplored -= std::min(unexplored, mf);
        reached += nf;
        ++depth;
        if (mode == BfsDirection::automatic && bottom_up) {
            // Stay bottom-up while the frontier grows or is still large (GapBS's rule).
            bottom_up = bfs_stay_bottom_up(nf, nf_prev, gindex_t(s.n), s.opt.beta);
        }
    }

    // Parents from levels over the in-edges, then one download of each array.
    const CompressedDeviceView<Pattern> in = s.pull_matrix().view();
    detail::bfs_parents_from_levels(in.ptr, in.inner, s.n, s.level.data(), s.parent.data(), src);
    r.level.resize(s.n);
    r.parent.resize(s.n);
    static_assert(std::is_same_v<gindex_t, std::int64_t>);
    GRIDBLAS_CUDA_CHECK(cudaDeviceSynchronize());  // the parents kernel is not download time
    const auto d0 = std::chrono::steady_clock::now();
    download_staged(s.level.data(), r.level.data(), std::size_t(s.n) * sizeof(gindex_t), s.stage);
    download_staged(s.parent.data(), r.parent.data(), std::size_t(s.n) * sizeof(gindex_t), s.stage);
    const auto t1 = std::chrono::steady_clock::now();
    r.reached = reached;
    r.depth = int(depth);
    r.seconds = std::chrono::duration<double>(t1 - t0).count();
    r.download_seconds = std::chrono::duration<double>(t1 - d0).count();
}

BfsGpuResult bfs_single_gpu(const Csr<Pattern>& graph, gindex_t source,
                            const BfsGpuOptions& options) {
    BfsGpuSolver solver(graph, options);
    return solver.run(source);
}

}  // namespace gridblas::cuda
