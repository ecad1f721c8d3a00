#pragma once
/// @file spmspv_claim_workspace.hpp
/// @brief The state spmspv_claim() keeps between calls (ClaimWorkspace) and the defaults of
/// its tuning knobs.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/kernels/cpu/parallel.hpp"
#include "gridblas/matrix/detail/default_init.hpp"

namespace gridblas::kernels {

namespace detail {
/// The default of ClaimWorkspace::sort_products_max: up to this many products
/// spmspv_claim() merges its claims as sorted keys instead of marking them in bitmaps and slots. A
/// few hundred products (the second level of a BFS from a low-degree root) then touch one line of
/// the mask per product and no per-output state, where the bitmap, the slot, the drain and the
/// clean-up would each add a cache miss per output: on a scale-20 Kronecker graph that level
/// (479 products) took 0.010-0.012 ms instead of 0.031.
inline constexpr offset_t kClaimSortProducts = 4096;

/// The default of ClaimWorkspace::sort_short_runs_max: calls of more products than
/// sort_products_max, up to this many, also sort their claims while their runs are short and
/// interleave only locally (a mesh's levels, up to a few thousand vertices each). On a
/// 1024 x 1024 grid graph sorting every call of up to 16,384 products took a search on one
/// thread from about 68 to 56 ms; on a random graph, whose short runs the insertion sort gives
/// up on, the bitmaps were two to three times faster at these sizes, hence the condition
/// (ClaimWorkspace::short_runs_sorted).
inline constexpr offset_t kClaimSortShortRuns = 16384;

/// The default of ClaimWorkspace::test_first_min: from this many products of one column in a
/// slice, spmspv_claim() tests them all before setting their bits (see the claim loop).
inline constexpr offset_t kClaimTestFirst = 32;

/// The default of ClaimWorkspace::split_outputs_min_run: a call on 2 to 4 threads whose inputs
/// have at least this many products each on average gives each thread a range of the outputs
/// instead of a run of the products (see claim_split_outputs()).
inline constexpr offset_t kClaimSplitOutputsRun = 64;

/// The default of ClaimWorkspace::sort_products_per_thread: a call of too few inputs to plan
/// on several threads (ClaimWorkspace::sort_inputs_per_thread) that sorts its claims takes one
/// thread per this many products (one thread below twice as many): a level of a few hubs.
inline constexpr offset_t kClaimSortPerThread = 1024;

/// The default of ClaimWorkspace::sort_inputs_per_thread: from this many inputs per thread a
/// call plans, and sorts its claims if they are few, in one parallel region (a region's fork
/// and join cost about 0.7 us on the development VM, a barrier 0.25). On a 1024 x 1024 mesh
/// on two threads (levels of a few hundred to two thousand vertices) 64, 128 and 256 took a
/// search 34-41 ms alike.
inline constexpr std::size_t kClaimTeamInputs = 128;

/// The slot of an output no input has claimed: all bits set, in either width.
template <class Slot>
inline constexpr Slot kNoSlot = Slot(~Slot(0));
}  // namespace detail

/// Where an epilogue writes for each output: output i's entry is at `base + i * stride` bytes
/// (ClaimWorkspace::epilogue_lines). Empty (null base): no entry to prefetch.
struct EpilogueLines {
    const std::byte* base = nullptr;
    std::size_t stride = 0;
};

/// The slots of spmspv_claim(): for each output, the position in the call's input list of the
/// input kept for it (the smallest for "min"), all bits set when it has none. A call of fewer
/// than 2^16 inputs (a top-down BFS level from a few hundred hubs) keeps them in 2 bytes per
/// output, so that a thread's slots for a block of 2^20 outputs fit in a core's L2 cache of
/// 2 MB or more, where 4-byte slots would not; a call of more inputs in 4 bytes. Both widths
/// use the same storage, grown to the widest call so far, so a workspace holds at most 4
/// bytes per output per claiming thread whichever widths its calls need.
struct ClaimSlotStore {
    /// The slots of claiming thread 0, or of all threads when they share slots; every byte
    /// 0xff between calls, which is "no slot" in either width.
    std::vector<std::uint32_t> best;
    /// Private slots of claiming threads 1, 2, ... when a few threads claim: read only where
    /// the thread's bitmap says it claimed the output in this call.
    std::vector<std::vector<std::uint32_t>> priv;
    unsigned width = 0;  ///< bytes per slot of the last call (0: none yet)
};

/// Claims as keys (output << 32 | input position), written whole after each resize.
using ClaimKeys = ::gridblas::detail::OverwriteVector<std::uint64_t>;
/// Where runs of claim keys end.
using ClaimRuns = ::gridblas::detail::OverwriteVector<std::size_t>;

/// One thread's share of a call that sorts its claims on several threads: the keys of its
/// inputs (sorted, one per output), then the merged keys of its range of outputs. Each part
/// starts a cache line of its own: the parts are neighbours in one array, and a thread
/// writing its vectors' ends while its neighbour reads or writes theirs on the same line
/// made a mesh's levels about a quarter slower on two threads, in runs whose heap happened
/// to place them so.
struct alignas(64) ClaimSortPart {
    /// The keys of its inputs, sorted, one per output (read by every thread once sorted).
    ClaimKeys keys;
    /// The keys of its range of outputs from every part, merged; `merged_count` of them are
    /// left, one per output.
    ClaimKeys merged;
    ClaimKeys scratch;  ///< of the sorts and merges
    ClaimRuns runs;     ///< run bounds of the sorts and merges
    std::size_t merged_count = 0;
};

/// Scratch of spmspv_claim(), kept between calls: `claimed` and `summary` are all zero and
/// every byte of `slots.best` 0xff whenever no call is running. (Y, the semiring's value
/// type, is kept for the callers' types; the state is input positions whatever Y is.)
template <class Y>
struct ClaimWorkspace {
    ClaimSlotStore slots;                      ///< for each output, the input it keeps
    std::vector<std::vector<lindex_t>> lists;  ///< outputs claimed, one list per thread
    std::vector<Y> input_values;               ///< each input's value, for the drain
    /// The outputs each thread reached, one bitmap per thread: the claim test of its products,
    /// and what the drain reads to find the outputs.
    std::vector<std::vector<std::uint64_t>> claimed;
    /// Per thread, one bit per word of its `claimed` bitmap: the word may hold a claim.
    std::vector<std::vector<std::uint64_t>> summary;
    std::vector<offset_t> first;                  ///< first entry of each input's column
    std::vector<offset_t> start;                  ///< products before each input
    std::vector<offset_t> part_sums;              ///< products of each thread's inputs (plan)
    std::vector<std::size_t> counts;              ///< outputs per part of the drain
    std::vector<std::uint64_t> occupied;          ///< the drain's merged bitmap words
    std::vector<std::uint64_t> occupied_summary;  ///< and their summary
    /// Calls with at most this many products sort their claims as keys instead of marking them
    /// in the bitmaps and slots (see detail::kClaimSortProducts, the default; 0: none this way,
    /// and with sort_short_runs_max 0 too no call sorts).
    offset_t sort_products_max = detail::kClaimSortProducts;
    /// Calls of more products, up to this many, sort their claims too while
    /// `short_runs_sorted` holds; a call whose claims are not many short runs, or whose
    /// insertion sort gives up, goes on through the bitmaps and clears it (see
    /// detail::kClaimSortShortRuns, the default; 0: never).
    offset_t sort_short_runs_max = detail::kClaimSortShortRuns;
    /// Whether the last call that sorted many short runs of claims by insertion finished
    /// within its budget (true until one has not): the next calls are then likely shaped the
    /// same way, as the levels of one search are.
    bool short_runs_sorted = true;
    /// From this many products of one column in a slice, the claim loop tests them all before
    /// setting their bits (see detail::kClaimTestFirst, the default); shorter runs take the
    /// one-pass test-and-set loop. Any value gives the same result.
    offset_t test_first_min = detail::kClaimTestFirst;
    /// A call on 2 to 4 threads whose inputs average at least this many products each splits
    /// the outputs between its threads rather than the products (see
    /// detail::kClaimSplitOutputsRun, the default; 0: every such call, ~0: none). Any value
    /// gives the same result.
    offset_t split_outputs_min_run = detail::kClaimSplitOutputsRun;
    /// Outputs sampled from a call's products, to place the bounds of those ranges.
    std::vector<lindex_t> split_samples;
    /// A call that sorts its claims takes one thread per this many products, when the policy
    /// allows several (see detail::kClaimSortPerThread, the default; 0: one thread).
    offset_t sort_products_per_thread = detail::kClaimSortPerThread;
    /// A call of this many inputs per thread, or more, makes its plan and (when its products
    /// are few enough) sorts its claims on several threads in one parallel region (see
    /// detail::kClaimTeamInputs, the default; 0: never).
    std::size_t sort_inputs_per_thread = detail::kClaimTeamInputs;
    /// Claims of a call that sorts them, as (output << 32 | input position); scratch of their
    /// merge, and where each input's run of them ends.
    ClaimKeys sorted_claims, sorted_scratch;
    ClaimRuns sorted_runs;
    /// One per thread of a call that sorts its claims on several threads (see ClaimSortPart).
    std::vector<ClaimSortPart> sort_parts;
    /// The signature of `epilogue`: a range of the result's outputs and their values.
    using Epilogue = std::function<void(std::span<const lindex_t>, std::span<const Y>)>;
    /// An optional epilogue of the next calls' results (not owned; null: none). Where a call
    /// writes its result on several threads (the sorted claims of a team) or drains it from the
    /// claim bitmaps (on one thread or several), each thread hands it the outputs it wrote (one
    /// ascending range, with their values) right after writing them, inside the parallel
    /// region, and the call sets `epilogue_ran`; so does one thread merging the columns of a
    /// few inputs (detail::claim_few_inputs(), the whole result at once); elsewhere (one
    /// thread sorting the claims of more inputs, a few outputs taken from the claim lists) the
    /// call leaves it alone and the caller finishes the result its own way. It runs after the
    /// call's last read of the mask, so it may change the mask's bits of the outputs it is
    /// given (a BFS marks them visited); it runs on several threads at once, each with its
    /// own outputs, and must not throw.
    const Epilogue* epilogue = nullptr;
    bool epilogue_ran = false;  ///< whether the last call handed its result to `epilogue`
    /// Optional: where the caller writes for each output of the result (in the epilogue, or
    /// after the call where the epilogue does not run), so that a call that sorts its claims
    /// can prefetch those lines as it meets each output (detail::claim_few_inputs()'s merge,
    /// detail::collect_claim_keys()) and the writes' cache misses overlap the call. Not owned;
    /// leave it empty where the caller has no per-output entry.
    EpilogueLines epilogue_lines;
    ParallelPolicy policy;
};

}  // namespace gridblas::kernels
