// One BFS level as GraphBLAS linear algebra, in the matrix's stored ids (so relabelled
// graphs work too):
//   next⟨¬visited, structural, replace⟩ = frontierᵀ ⊕.⊗ A
// over (min, secondi) — next(v) is the smallest-id frontier vertex with an edge to v — or
// (any, secondi) when any parent will do. Top-down levels are the push of vxm (SpMSpV over
// the frontier's rows: Buluç & Madduri, SC 2011); bottom-up levels are its pull, which for
// these positional semirings is the rotating masked pull of Buluç, Beamer, Madduri, Asanović
// & Patterson (2017, Algorithm 4): each unvisited vertex reads its in-edges until it meets
// the frontier (spmv_rotate.hpp). The frontier carries no values: the semiring's product is
// the frontier vertex's own index, so only its ids are gathered.
// For a matrix declared symmetric on a grid of several rows the level is the mxv
//   next⟨¬visited, structural, replace⟩ = A ⊕.⊗ frontier
// instead: the same product (A = Aᵀ), whose fold runs along the grid row over contiguous
// column blocks, so that a bottom-up level reads exactly the entries one rank would. A
// matrix holding the graph by column (BfsOptions::edges: A(v, u) is the edge u -> v) takes
// that mxv on every grid, as the product that follows its edges.

#include "bfs/bfs_impl.hpp"
#include "gridblas/kernels/cpu/bitmap_ops.hpp"
#include "gridblas/matrix/detail/huge_pages.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas {

std::uint64_t BfsSolver::Impl::step(bool bottom_up, gindex_t depth, BfsResult& r) {
    Descriptor d;
    d.mask_complement = true;
    d.mask_structural = true;
    d.replace = true;
    d.direction = bottom_up ? Direction::pull : Direction::push;
    const char* site = bottom_up ? "bfs-bottomup" : "bfs-topdown";
    // Where the level's kernel records its finds (KernelRecord), it records them here.
    kernel_record.depth = depth;
    kernel_record.result = &r;
    kernel_record.degree_sum.store(0, std::memory_order_relaxed);
    ws.result_epilogue_ran = false;
    // The record's entry of each vertex found, which the claim kernel's sorted paths prefetch
    // (lent to it only where the level's result is the kernel's as it is).
    ws.result_epilogue_lines = {};
    if (compact) {
        ws.result_epilogue_lines = {reinterpret_cast<const std::byte*>(reached.data()),
                                    sizeof(Reached)};
    }
    if (grid.exec_backend() == ExecBackend::cuda && !bottom_up) {
        // The device push has kernels for the built-in semirings: (min, second) over a
        // frontier valued with its own ids gives the same (smallest) parents.
        SparseVector<gindex_t>& f = frontier_ids.sparse();
        f.clear();
        for (lindex_t i : frontier.sparse().indices()) f.push_back(i, begin + gindex_t(i));
        detail::spmv_dist<select2nd_min<gindex_t>>(next, visited, no_accum, frontier_ids, a, d,
                                                   true, ws_ids, site);
        return ws_ids.last_entries;
    }
    // "after" takes min parents on top-down levels and leaves the bottom-up ones to
    // parents_from_levels(), so that its bottom-up levels stop at any parent.
    if (opt.parents == ParentMode::min ||
        (opt.parents == ParentMode::after && (!recovers_parents_after() || !bottom_up))) {
        detail::spmv_dist<min_secondi<gindex_t>>(next, visited, no_accum, frontier, a, d,
                                                 input_is_rows, ws, site);
    } else {
        detail::spmv_dist<any_secondi<gindex_t>>(next, visited, no_accum, frontier, a, d,
                                                 input_is_rows, ws, site);
    }
    return ws.last_entries;
}

namespace {
/// A level is recorded on one thread per this many vertices it found (at least one thread, at
/// most all of them), so two threads from 256 vertices. On the levels of a 1024 x 1024 mesh (a
/// few hundred to two thousand vertices) two threads recording, together with the claim
/// kernel's threads planning and sorting those levels (the kernel's
/// ClaimWorkspace::sort_inputs_per_thread), took a search from 45-88 ms to 36-46 (five rounds);
/// with the visited bits set on one thread first, as before, or the claims sorted on one, two
/// threads were slower than one, since the lines a level writes then move between the cores.
/// From 128 to 1,024 vertices for two threads the threshold made no difference there (31-42
/// ms). Per thread rather than in all, so that a many-core rank does not start every thread for
/// a level of a few hundred vertices.
constexpr std::size_t kRecordPerThread = 128;
}  // namespace

gindex_t BfsSolver::Impl::record_found(const lindex_t* ids, const gindex_t* parent_of,
                                       std::size_t lo, std::size_t hi, gindex_t depth, BfsResult& r,
                                       bool keep_parent, bool shared_edges) {
    kernels::detail::set_bits_sorted_part(visited.bitmap().words().data(), ids, lo, hi,
                                          shared_edges);
    gindex_t* level = r.level.data();
    gindex_t* parent = r.parent.data();
    Reached* reached = this->reached.data();
    const gindex_t* deg = degree.data();
    // The found vertices are scattered over the per-vertex arrays, so the entry kRecordAhead
    // vertices on is prefetched for writing: on a mesh's levels (a few hundred vertices each)
    // each entry is otherwise a cache miss that the loop waits for.
    constexpr std::size_t kRecordAhead = 16;
    const std::size_t ahead_end = hi > kRecordAhead ? hi - kRecordAhead : 0;
    gindex_t sum = 0;
    if (compact) {
        const std::uint32_t level_plus1 = std::uint32_t(depth + 2);
        for (std::size_t k = lo; k < hi; ++k) {
            const lindex_t i = ids[k];
            if (k < ahead_end) __builtin_prefetch(reached + ids[k + kRecordAhead], 1);
            sum += reached[i].parent_or_degree;
            reached[i] = {level_plus1, keep_parent ? std::uint32_t(parent_of[k]) : kNoParent};
        }
    } else {
        for (std::size_t k = lo; k < hi; ++k) {
            const lindex_t i = ids[k];
            if (k < ahead_end) {
                const lindex_t ahead = ids[k + kRecordAhead];
                __builtin_prefetch(level + ahead, 1);
                if (keep_parent) __builtin_prefetch(parent + ahead, 1);
            }
            level[i] = depth + 1;
            if (keep_parent) parent[i] = parent_of[k];
            sum += deg[i];
        }
    }
    return sum;
}

gindex_t BfsSolver::Impl::record_level(gindex_t depth, BfsResult& r, bool top_down) {
    SparseVector<gindex_t>& nx = next.sparse();
    const auto& ni = nx.indices();
    const std::size_t found = ni.size();
    gindex_t degree_sum = 0;
    if (top_down && ws.result_epilogue_ran) {
        // The level's kernel recorded them (KernelRecord).
        degree_sum = kernel_record.degree_sum.load(std::memory_order_relaxed);
    } else {
        const gindex_t* parent_of = nx.values().data();
        const bool keep_parent = top_down || !recovers_parents_after();
        // The found vertices' out-degree sum drives the next direction choice (after a
        // bottom-up level the rule asks for the frontier's size only) and adds up to the
        // result's reached_degree_sum. Compact searches read each degree from the vertex's
        // own `reached` entry, which is written here anyway.
        // Parallel over the found vertices, one thread per kRecordPerThread of them; ids
        // ascend, so threads touch disjoint ranges of the per-vertex arrays, and each sets
        // the visited bits of its own range too, so that the same thread writes the lines of
        // one region of the graph level after level (see kRecordPerThread).
        const int threads =
            kernels::detail::threads_per_share(kernels::ParallelPolicy{}, found, kRecordPerThread);
        if (threads == 1) {
            // No parallel region: see kernels::detail::run_parts.
            degree_sum = record_found(ni.data(), parent_of, 0, found, depth, r, keep_parent, false);
        } else {
#pragma omp parallel for num_threads(threads) schedule(static, 1) reduction(+ : degree_sum)
            for (int t = 0; t < threads; ++t) {
                degree_sum += record_found(ni.data(), parent_of,
                                           kernels::detail::part_begin(found, t, threads),
                                           kernels::detail::part_begin(found, t + 1, threads),
                                           depth, r, keep_parent, true);
            }
        }
    }
    // The new frontier is next's ids: its index buffer is handed over rather than copied
    // (next is written afresh by the following level).
    SparseVector<Pattern>& front = frontier.sparse();
    std::swap(front.indices(), nx.indices());
    front.values().resize(found);
    front.set_size(local_n);
    nx.clear();
    return degree_sum;
}

namespace {
/// Passes over every vertex of the piece go parallel from 2^16 vertices.
constexpr kernels::ParallelPolicy kVertexPass{.min_parallel_work = std::size_t(1) << 16};
}  // namespace

void BfsSolver::Impl::start_search(BfsResult& r) {
    detail::reserve_huge(r.parent, local_n);
    detail::reserve_huge(r.level, local_n);
    r.parent.resize(local_n);
    r.level.resize(local_n);
    const int threads = kernels::detail::threads_for(kVertexPass, local_n);
    if (!compact) {
        // Every vertex unreached (-1), written by all threads: at scale 20 and beyond the
        // two arrays are tens of MB, too much for one core inside the timed search.
        gindex_t* parent = r.parent.data();
        gindex_t* level = r.level.data();
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
        for (lindex_t i = 0; i < local_n; ++i) {
            parent[i] = -1;
            level[i] = -1;
        }
        return;
    }
    // The result's arrays are written whole by write_out_reached().
    if (!reached_clean || reached.size() != local_n) {
        // First search, or one that ended early (an exception) and left entries behind.
        detail::reserve_huge(reached, local_n);
        reached.resize(local_n);
        Reached* p = reached.data();
        const gindex_t* deg = degree.data();
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
        for (lindex_t i = 0; i < local_n; ++i) p[i] = {0, std::uint32_t(deg[i])};
    }
    reached_clean = false;  // until write_out_reached() has cleared it again
}

void BfsSolver::Impl::write_out_reached(BfsResult& r) {
    Reached* p = reached.data();
    const gindex_t* deg = degree.data();
    gindex_t* level = r.level.data();
    gindex_t* parent = r.parent.data();
    const int threads = kernels::detail::threads_for(kVertexPass, local_n);
    // (Streaming stores for the result measured no faster than these on the development VM.)
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (lindex_t i = 0; i < local_n; ++i) {
        // Branch-free: about a third of a Kronecker graph's vertices are unreached, at random,
        // which a branch on "found" mispredicts.
        const Reached x = p[i];
        level[i] = gindex_t(x.level_plus1) - 1;  // unreached (0): -1
        const gindex_t has_parent =
            -gindex_t((x.level_plus1 != 0) & (x.parent_or_degree != kNoParent));  // 0 or -1
        parent[i] = (gindex_t(x.parent_or_degree) & has_parent) | ~has_parent;
        p[i] = {0, std::uint32_t(deg[i])};
    }
    reached_clean = true;
}

}  // namespace gridblas
