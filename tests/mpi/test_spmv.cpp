// Distributed vxm / mxv against the naive serial reference (tests/reference/spmv_reference.hpp)
// and, for plus_times, against Eigen: every grid shape, push and pull, transpose, every mask kind
// with complement and replace, accumulate, output aliasing the input, rectangular matrices
// and vectors shorter than the rank count, the error cases, and the result epilogue a push
// lends to its kernel.

#include <gtest/gtest.h>
#if defined(_OPENMP)
#include <omp.h>
#endif

#include <Eigen/SparseCore>
#include <algorithm>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dist_test_util.hpp"
#include "gridblas/ops/spmv.hpp"
#include "gridblas/semirings/builtin.hpp"
#include "reference/spmv_reference.hpp"
#include "spmv_check.hpp"

using namespace gridblas;
using test::all_grids;

using test::check_case;
using test::Plus;

TEST(Spmv, MaskAccumReplaceMatrixAllGrids) {
    std::mt19937_64 rng(7);
    for (auto& grid : all_grids()) {
        for (auto [n, m] : {std::pair<gindex_t, gindex_t>{23, 17}, {5, 9}, {2, 3}}) {
            const auto am = test::random_mat<std::int64_t>(rng, n, m, 0.25);
            auto a = test::make_matrix(grid, n, m, am);
            for (bool is_vxm : {true, false}) {
                for (Direction dir : {Direction::push, Direction::pull}) {
                    for (int mask_kind : {0, 1, 2}) {
                        for (bool comp : {false, true}) {
                            for (bool replace : {false, true}) {
                                for (bool accum : {false, true}) {
                                    Descriptor d;
                                    d.direction = dir;
                                    d.mask_complement = comp;
                                    d.replace = replace;
                                    check_case<plus_times<std::int64_t>>(
                                        grid, am, n, m, a, is_vxm, d, mask_kind, accum, rng, 0.4);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

TEST(Spmv, SemiringsTransposeFormatsBackends) {
    std::mt19937_64 rng(11);
    for (auto backend : {comm::Backend::mpi, comm::Backend::butterfly, comm::Backend::ring}) {
        comm::Options co;
        co.backend = backend;
        for (auto [pr, pc] : test::grid_shapes(test::world_size())) {
            auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc, co);
            const gindex_t n = 31, m = 26;
            const auto am = test::random_mat<std::int64_t>(rng, n, m, 0.2, 1, 9);
            for (auto fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
                auto a = test::make_matrix(grid, n, m, am, fmt);
                for (bool tr : {false, true}) {
                    for (Direction dir : {Direction::automatic, Direction::push, Direction::pull}) {
                        for (double density : {0.0, 0.1, 0.9}) {
                            Descriptor d;
                            d.transpose_a = tr;
                            d.direction = dir;
                            for (bool is_vxm : {true, false}) {
                                check_case<min_plus<std::int64_t>>(grid, am, n, m, a, is_vxm, d, 0,
                                                                   false, rng, density);
                                check_case<select2nd_min<std::int64_t>>(grid, am, n, m, a, is_vxm,
                                                                        d, 1, false, rng, density);
                                check_case<lor_land<std::int64_t>>(grid, am, n, m, a, is_vxm, d, 2,
                                                                   false, rng, density);
                                check_case<max_times<std::int64_t>>(grid, am, n, m, a, is_vxm, d, 0,
                                                                    true, rng, density);
                                check_case<plus_pair<std::int64_t>>(grid, am, n, m, a, is_vxm, d, 0,
                                                                    false, rng, density);
                            }
                        }
                    }
                }
            }
        }
    }
}

TEST(Spmv, AnyPairPatternMatches) {
    std::mt19937_64 rng(3);
    for (auto& grid : all_grids()) {
        const gindex_t n = 40;
        const auto am = test::random_mat<std::int64_t>(rng, n, n, 0.1, 1, 1);
        auto a = test::make_matrix(grid, n, n, am);
        const auto um = test::random_vec<std::int64_t>(rng, n, 0.2, 1, 1);
        auto u = test::make_vector(grid, n, um);
        DistVector<std::int64_t> w(grid, n);
        vxm(w, no_mask, no_accum, any_pair<std::int64_t>{}, u, a);
        const auto t = ref::vxm<plus_pair<std::int64_t>>(um, am);
        const auto got = test::to_map(w);
        ASSERT_EQ(got.size(), t.size());
        for (const auto& [i, x] : got) {
            EXPECT_TRUE(t.count(i));
            EXPECT_EQ(x, 1);
        }
    }
}

TEST(Spmv, PlusTimesMatchesEigen) {
    std::mt19937_64 rng(5);
    for (auto& grid : all_grids()) {
        const gindex_t n = 37, m = 29;
        const auto am = test::random_mat<double>(rng, n, m, 0.15);
        auto a = test::make_matrix(grid, n, m, am);
        Eigen::SparseMatrix<double> e(n, m);
        for (const auto& [ij, x] : am) e.insert(ij.first, ij.second) = x;
        const auto um = test::random_vec<double>(rng, m, 0.5);
        Eigen::VectorXd ue = Eigen::VectorXd::Zero(m);
        for (const auto& [i, x] : um) ue[i] = x;
        auto u = test::make_vector(grid, m, um);
        DistVector<double> w(grid, n);
        mxv(w, no_mask, no_accum, plus_times<double>{}, a, u);
        const Eigen::VectorXd ye = e * ue;
        const auto got = test::to_map(w);
        for (gindex_t i = 0; i < n; ++i) {
            const auto it = got.find(i);
            EXPECT_DOUBLE_EQ(it == got.end() ? 0.0 : it->second, ye[i]) << i;
        }
    }
}

TEST(Spmv, OutputAliasesInput) {
    std::mt19937_64 rng(9);
    for (auto& grid : all_grids()) {
        const gindex_t n = 25;
        const auto am = test::random_mat<std::int64_t>(rng, n, n, 0.2);
        auto a = test::make_matrix(grid, n, n, am);
        const auto um = test::random_vec<std::int64_t>(rng, n, 0.4);
        for (bool accum : {false, true}) {
            auto u = test::make_vector(grid, n, um);
            const auto t = ref::vxm<plus_times<std::int64_t>>(um, am);
            Descriptor d;
            ref::Vec<std::int64_t> expect;
            if (accum) {
                vxm(u, u, Plus{}, plus_times<std::int64_t>{}, u, a, d);
                expect = ref::detail::output_stage(um, t, &um, Plus{}, d);
            } else {
                vxm(u, u, no_accum, plus_times<std::int64_t>{}, u, a, d);
                expect = ref::detail::output_stage(um, t, &um, no_accum, d);
            }
            EXPECT_EQ(test::to_map(u), expect);
        }
    }
}

TEST(Spmv, ErrorsThrowOnEveryRankAndChangeNothing) {
    std::mt19937_64 rng(1);
    for (auto& grid : all_grids()) {
        const auto am = test::random_mat<std::int64_t>(rng, 6, 4, 0.5);
        auto a = test::make_matrix(grid, 6, 4, am);
        const auto wm = test::random_vec<std::int64_t>(rng, 4, 0.5);
        auto w = test::make_vector(grid, 4, wm);
        auto u_bad = test::make_vector(grid, 5, ref::Vec<std::int64_t>{});
        EXPECT_THROW(vxm(w, no_mask, no_accum, plus_times<std::int64_t>{}, u_bad, a),
                     DimensionMismatch);
        auto u = test::make_vector(grid, 6, ref::Vec<std::int64_t>{});
        auto w_bad = test::make_vector(grid, 6, ref::Vec<std::int64_t>{});
        EXPECT_THROW(vxm(w_bad, no_mask, no_accum, plus_times<std::int64_t>{}, u, a),
                     DimensionMismatch);
        auto mask_bad = test::make_vector(grid, 3, ref::Vec<std::int64_t>{});
        EXPECT_THROW(vxm(w, mask_bad, no_accum, plus_times<std::int64_t>{}, u, a),
                     DimensionMismatch);
        auto other = ProcessGrid::create(MPI_COMM_WORLD, grid->pr(), grid->pc());
        auto u_other = test::make_vector(other, 6, ref::Vec<std::int64_t>{});
        EXPECT_THROW(vxm(w, no_mask, no_accum, plus_times<std::int64_t>{}, u_other, a),
                     InvalidValue);
        EXPECT_EQ(test::to_map(w), wm);
    }
}

TEST(Spmv, EveryBackendAndWireFormat) {
    std::mt19937_64 rng(13);
    for (auto backend : {comm::Backend::mpi, comm::Backend::butterfly, comm::Backend::ring,
                         comm::Backend::automatic}) {
        for (auto wire : {comm::WireFormat::raw, comm::WireFormat::delta, comm::WireFormat::bitmap,
                          comm::WireFormat::automatic}) {
            comm::Options co;
            co.backend = backend;
            co.wire = wire;
            co.fanout = 3;
            for (auto [pr, pc] : test::grid_shapes(test::world_size())) {
                auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc, co);
                const gindex_t n = 29, m = 23;
                const auto am = test::random_mat<std::int64_t>(rng, n, m, 0.2, 1, 9);
                auto a = test::make_matrix(grid, n, m, am);
                for (Direction dir : {Direction::push, Direction::pull}) {
                    Descriptor d;
                    d.direction = dir;
                    d.mask_complement = true;
                    for (bool is_vxm : {true, false}) {
                        check_case<select2nd_min<std::int64_t>>(grid, am, n, m, a, is_vxm, d, 2,
                                                                false, rng, 0.3);
                    }
                }
            }
        }
    }
}

// The positional semirings of BFS: the product is the input entry's global index. Pulls of
// these run as the rotating pull (every rank's piece visits every rank of the fold
// dimension); min_secondi's bounded scan and the bit-packed hand-over of the positional
// values are only exercised with several ranks per fold and inputs dense enough to pull.
TEST(Spmv, MinSecondiMatchesReference) {
    std::mt19937_64 rng(17);
    for (auto wire : {comm::WireFormat::raw, comm::WireFormat::delta, comm::WireFormat::bitmap}) {
        comm::Options co;
        co.wire = wire;
        for (auto [pr, pc] : test::grid_shapes(test::world_size())) {
            auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc, co);
            for (auto [n, m] : {std::pair<gindex_t, gindex_t>{71, 67}, {3, 5}}) {
                const auto am = test::random_mat<std::int64_t>(rng, n, m, 0.12, 1, 9);
                for (auto fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
                    auto a = test::make_matrix(grid, n, m, am, fmt);
                    for (Direction dir : {Direction::push, Direction::pull, Direction::automatic}) {
                        for (int mask_kind : {0, 1, 2}) {
                            for (bool tr : {false, true}) {
                                Descriptor d;
                                d.direction = dir;
                                d.transpose_a = tr;
                                d.mask_complement = mask_kind == 2;
                                d.replace = mask_kind == 1;
                                for (bool is_vxm : {true, false}) {
                                    check_case<min_secondi<std::int64_t>>(
                                        grid, am, n, m, a, is_vxm, d, mask_kind, mask_kind == 1,
                                        rng, mask_kind == 0 ? 0.05 : 0.7);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

// The order in which the pull with min_secondi (the ascending schedule) takes the input
// blocks: every piece meets them in ascending order from block 0. With a dense matrix and a
// dense input every visit of an output reads exactly one entry (its first input is present),
// and the candidate from block 0 lets every higher block skip the output, so each output is
// read once over all ranks, as on one rank. (The rotation, which starts each piece at its
// owner's block, read every output but those of fold rank 0's piece twice.) The results must
// be the smallest input, row 0.
TEST(Spmv, MinSecondiPullReadsBlocksInAscendingOrder) {
    const int p = test::world_size();
    auto grid = ProcessGrid::create(MPI_COMM_WORLD, p, 1);  // the fold (grid column) is all ranks
    const gindex_t n = 5 * gindex_t(p) + 3;
    ref::Mat<std::int64_t> am;
    for (gindex_t i = 0; i < n; ++i) {
        for (gindex_t j = 0; j < n; ++j) am[{i, j}] = 1;
    }
    ref::Vec<std::int64_t> um;
    for (gindex_t i = 0; i < n; ++i) um[i] = 1;
    auto a = test::make_matrix(grid, n, n, am);
    auto u = test::make_vector(grid, n, um);
    DistVector<std::int64_t> w(grid, n);
    Descriptor d;
    d.direction = Direction::pull;
    SpmvWorkspace<std::int64_t, std::int64_t, std::int64_t> ws;
    vxm(w, no_mask, no_accum, min_secondi<std::int64_t>{}, u, a, d, &ws);
    ASSERT_EQ(ws.last_direction, Direction::pull);
    const auto got = test::to_map(w);
    ASSERT_EQ(got.size(), std::size_t(n));
    for (const auto& [j, k] : got) EXPECT_EQ(k, 0) << "output " << j;
    std::uint64_t read = ws.last_entries;
    MPI_Allreduce(MPI_IN_PLACE, &read, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(read, std::uint64_t(n));
}

namespace {
/// The inputs of each of the `nout` outputs of vxm (is_vxm) or mxv with matrix `am`, in
/// ascending order.
std::vector<std::vector<gindex_t>> inputs_of(const ref::Mat<std::int64_t>& am, gindex_t nout,
                                             bool is_vxm) {
    std::vector<std::vector<gindex_t>> inputs(static_cast<std::size_t>(nout));
    for (const auto& [ij, v] : am) {
        if (is_vxm) {
            inputs[std::size_t(ij.second)].push_back(ij.first);
        } else {
            inputs[std::size_t(ij.first)].push_back(ij.second);
        }
    }
    for (auto& in : inputs) std::sort(in.begin(), in.end());
    return inputs;
}

/// u ⊕.⊗ A (is_vxm) or A ⊕.⊗ u by semiring s for the vectors `um` (nin entries) and, with
/// `masked`, the complement of `mm`'s structure as the mask (nout entries; no mask otherwise:
/// complemented, it would allow nothing), pulled in chunks of 64 outputs for the pipelined
/// schedules. Returns the result.
template <class S, class Grid>
DistVector<std::int64_t> pull_in_chunks_of_64(
    const S& s, const Grid& grid, gindex_t nin, gindex_t nout, const ref::Vec<std::int64_t>& um,
    const ref::Vec<std::int64_t>& mm, bool masked, const DistMatrix<std::int64_t>& a, bool is_vxm,
    SpmvWorkspace<std::int64_t, std::int64_t, std::int64_t>& ws) {
    auto u = test::make_vector(grid, nin, um);
    auto mask = test::make_vector(grid, nout, mm);
    DistVector<std::int64_t> w(grid, nout);
    Descriptor d;
    d.direction = Direction::pull;
    d.mask_complement = masked;
    d.mask_structural = true;
    ws.ascending_chunk_outputs = 64;
    if (is_vxm && masked) vxm(w, mask, no_accum, s, u, a, d, &ws);
    if (is_vxm && !masked) vxm(w, no_mask, no_accum, s, u, a, d, &ws);
    if (!is_vxm && masked) mxv(w, mask, no_accum, s, a, u, d, &ws);
    if (!is_vxm && !masked) mxv(w, no_mask, no_accum, s, a, u, d, &ws);
    return w;
}

/// The case's name in failure messages.
std::string pull_case(bool is_vxm, bool masked, int pr, int pc) {
    return std::string(is_vxm ? "vxm" : "mxv") + (masked ? " masked" : "") + " grid " +
           std::to_string(pr) + "x" + std::to_string(pc);
}
}  // namespace

// The ascending schedule in chunks of 64 outputs, so that a piece passes through the fold in
// several chunks (and a fold rank may get a chunk home while it passes another on): the
// results equal the reference on every grid shape, with and without a complemented
// structural mask, and where the fold's input blocks are contiguous (mxv; vxm on a grid with
// one row or one column) the entries read over all ranks are exactly those of one rank that
// reads each open output's inputs in ascending order up to the first present one.
TEST(Spmv, MinSecondiAscendingChunksReadAsOneRank) {
    std::mt19937_64 rng(23);
    const gindex_t n = 301, m = 389;
    const auto am = test::random_mat<std::int64_t>(rng, n, m, 0.04, 1, 9);
    for (auto [pr, pc] : test::grid_shapes(test::world_size())) {
        auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc);
        auto a = test::make_matrix(grid, n, m, am);
        for (bool is_vxm : {true, false}) {
            const gindex_t nin = is_vxm ? n : m, nout = is_vxm ? m : n;
            const auto inputs = inputs_of(am, nout, is_vxm);
            const auto um = test::random_vec<std::int64_t>(rng, nin, 0.3);
            const auto mm = test::random_vec<std::int64_t>(rng, nout, 0.4, 0, 1);
            for (bool masked : {false, true}) {
                ref::Vec<std::int64_t> expect;
                std::uint64_t one_rank_reads = 0;
                for (gindex_t o = 0; o < nout; ++o) {
                    if (masked && mm.count(o)) continue;
                    for (gindex_t i : inputs[std::size_t(o)]) {
                        ++one_rank_reads;
                        if (um.count(i)) {
                            expect[o] = std::int64_t(i);
                            break;
                        }
                    }
                }
                SpmvWorkspace<std::int64_t, std::int64_t, std::int64_t> ws;
                const auto w = pull_in_chunks_of_64(min_secondi<std::int64_t>{}, grid, nin, nout,
                                                    um, mm, masked, a, is_vxm, ws);
                const std::string what = pull_case(is_vxm, masked, pr, pc);
                ASSERT_EQ(ws.last_direction, Direction::pull) << what;
                EXPECT_EQ(test::to_map(w), expect) << what;
                std::uint64_t read = ws.last_entries;
                MPI_Allreduce(MPI_IN_PLACE, &read, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
                if (!is_vxm || pr == 1 || pc == 1) {
                    EXPECT_EQ(read, one_rank_reads) << what;
                } else {
                    // Striped row blocks: a block may read past a lower stripe's candidate
                    // that a later rank holds, never fewer than one rank.
                    EXPECT_GE(read, one_rank_reads) << what;
                }
            }
        }
    }
}

// The rotating pipeline of positional "any", in chunks of 64 outputs so that a piece passes
// through the fold in several steps: on every grid shape, with and without a complemented
// structural mask, each output with a present input gets one of them, and the entries read
// over all ranks are exactly those of the rotation's order: each output's inputs block by
// block, starting at the block of the rank that owns the output and going round the fold,
// ascending within a block up to the first present one. (A chunk whose finds were not
// marked done on its way would be read again by the ranks after.)
TEST(Spmv, AnySecondiRotatingPipelineReadsInRotationOrder) {
    std::mt19937_64 rng(29);
    const gindex_t n = 301, m = 389;
    const auto am = test::random_mat<std::int64_t>(rng, n, m, 0.04, 1, 9);
    for (auto [pr, pc] : test::grid_shapes(test::world_size())) {
        auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc);
        auto a = test::make_matrix(grid, n, m, am);
        for (bool is_vxm : {true, false}) {
            const gindex_t nin = is_vxm ? n : m, nout = is_vxm ? m : n;
            const Distribution din(nin, pr, pc), dout(nout, pr, pc);
            // vxm folds along a grid column over row blocks, mxv along a grid row over
            // column blocks; the owner of an output is its piece's place in that fold.
            const int q = is_vxm ? pr : pc;
            const auto block_of = [&](gindex_t i) {
                return is_vxm ? din.row_block_of(i) : din.col_block_of(i);
            };
            const auto owner_of = [&](gindex_t o) {
                const int k = dout.piece_of(o);
                return is_vxm ? dout.row_of_piece(k) : dout.col_of_piece(k);
            };
            const auto inputs = inputs_of(am, nout, is_vxm);
            const auto um = test::random_vec<std::int64_t>(rng, nin, 0.3);
            const auto mm = test::random_vec<std::int64_t>(rng, nout, 0.4, 0, 1);
            for (bool masked : {false, true}) {
                std::vector<gindex_t> found;
                std::uint64_t rotation_reads = 0;
                for (gindex_t o = 0; o < nout; ++o) {
                    if (masked && mm.count(o)) continue;
                    bool hit = false;
                    for (int d = 0; d < q && !hit; ++d) {
                        const int blk = (owner_of(o) + d) % q;
                        for (gindex_t i : inputs[std::size_t(o)]) {
                            if (block_of(i) != blk) continue;
                            ++rotation_reads;
                            if (um.count(i)) {
                                hit = true;
                                break;
                            }
                        }
                    }
                    if (hit) found.push_back(o);
                }
                SpmvWorkspace<std::int64_t, std::int64_t, std::int64_t> ws;
                const auto w = pull_in_chunks_of_64(any_secondi<std::int64_t>{}, grid, nin, nout,
                                                    um, mm, masked, a, is_vxm, ws);
                const std::string what = pull_case(is_vxm, masked, pr, pc);
                ASSERT_EQ(ws.last_direction, Direction::pull) << what;
                const auto got = test::to_map(w);
                std::vector<gindex_t> got_ids;
                for (const auto& [o, k] : got) {
                    got_ids.push_back(o);
                    EXPECT_TRUE(um.count(k)) << what << ": output " << o << " names input " << k;
                    const auto edge = is_vxm ? std::pair{k, o} : std::pair{o, k};
                    EXPECT_TRUE(am.count(edge)) << what << ": no entry for output " << o;
                }
                EXPECT_EQ(got_ids, found) << what;
                std::uint64_t read = ws.last_entries;
                MPI_Allreduce(MPI_IN_PLACE, &read, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
                EXPECT_EQ(read, rotation_reads) << what;
            }
        }
    }
}

// Chunk sizes of the ascending schedule: multiples of 64, about 16 K outputs with at most
// max(8, 64 / q) chunks a piece by default, a requested size rounded up, and never more than
// 4096 chunks a piece (nor a size past the index type), however small the request.
TEST(Spmv, AscendingChunkSizes) {
    using detail::ascending_chunk;
    EXPECT_EQ(ascending_chunk(262144, 2, 0), 16384u);      // 16 chunks
    EXPECT_EQ(ascending_chunk(1u << 20, 2, 0), 32768u);    // capped at 32 chunks
    EXPECT_EQ(ascending_chunk(1u << 20, 16, 0), 131072u);  // 8 chunks from q = 8 up
    EXPECT_EQ(ascending_chunk(1000, 4, 0), 1024u);         // one chunk
    EXPECT_EQ(ascending_chunk(0, 3, 0), 64u);
    EXPECT_EQ(ascending_chunk(1000, 2, 100), 128u);                  // rounded up to 64
    EXPECT_EQ(ascending_chunk(1u << 30, 2, 64), (1u << 30) / 4096);  // at most 4096 chunks
    const lindex_t big = ascending_chunk(~lindex_t(0), 2, 1);
    EXPECT_EQ(big % 64, 0u);
    EXPECT_LE((std::uint64_t(~lindex_t(0)) + big - 1) / big, 4096u);
}

// any_secondi may return any input index with an edge: check each result is one, and that
// exactly the outputs with some product are present.
TEST(Spmv, AnySecondiGivesAValidIndex) {
    std::mt19937_64 rng(19);
    for (auto& grid : all_grids()) {
        const gindex_t n = 64, m = 59;
        const auto am = test::random_mat<std::int64_t>(rng, n, m, 0.1, 1, 9);
        for (auto fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
            auto a = test::make_matrix(grid, n, m, am, fmt);
            for (Direction dir : {Direction::push, Direction::pull}) {
                for (bool is_vxm : {true, false}) {
                    const gindex_t nin = is_vxm ? n : m, nout = is_vxm ? m : n;
                    const auto um = test::random_vec<std::int64_t>(rng, nin, 0.5);
                    auto u = test::make_vector(grid, nin, um);
                    DistVector<std::int64_t> w(grid, nout);
                    Descriptor d;
                    d.direction = dir;
                    if (is_vxm) {
                        vxm(w, no_mask, no_accum, any_secondi<std::int64_t>{}, u, a, d);
                    } else {
                        mxv(w, no_mask, no_accum, any_secondi<std::int64_t>{}, a, u, d);
                    }
                    const auto t = ref::vxm<min_secondi<std::int64_t>>(um, am, !is_vxm);
                    const auto got = test::to_map(w);
                    ASSERT_EQ(got.size(), t.size()) << (is_vxm ? "vxm" : "mxv");
                    for (const auto& [j, k] : got) {
                        ASSERT_TRUE(t.count(j)) << j;
                        EXPECT_TRUE(um.count(k)) << "output " << j << " names input " << k;
                        const auto edge = is_vxm ? std::pair{k, j} : std::pair{j, k};
                        EXPECT_TRUE(am.count(edge))
                            << "no entry (" << edge.first << ", " << edge.second << ")";
                    }
                }
            }
        }
    }
}

// SpmvWorkspace::result_epilogue: with the claim kernel's team forced on (two threads from
// two inputs, every call sorted), a masked push of min_secondi with replace hands the
// epilogue exactly w's entries on this rank, in ascending ranges, where the fold has one rank
// (vxm on a grid of one row, mxv on a grid of one column), and nothing elsewhere; an output
// stage that does not take the kernel's result whole (no replace into a non-empty w) never
// calls it. The results equal those of a workspace without an epilogue.
TEST(Spmv, ResultEpilogueSeesTheResultWhereTheKernelWritesIt) {
#if defined(_OPENMP)
    const int saved_threads = omp_get_max_threads();
    omp_set_num_threads(2);
    const bool team = omp_get_max_threads() >= 2;
#else
    const bool team = false;
#endif
    std::mt19937_64 rng(31);
    const gindex_t n = 157, m = 149;
    const auto am = test::random_mat<std::int64_t>(rng, n, m, 0.05, 1, 9);
    for (auto [pr, pc] : test::grid_shapes(test::world_size())) {
        auto grid = ProcessGrid::create(MPI_COMM_WORLD, pr, pc);
        const auto a = test::make_matrix(grid, n, m, am);
        for (bool is_vxm : {true, false}) {
            const gindex_t nin = is_vxm ? n : m, nout = is_vxm ? m : n;
            const auto u =
                test::make_vector(grid, nin, test::random_vec<std::int64_t>(rng, nin, 0.6));
            const auto mask =
                test::make_vector(grid, nout, test::random_vec<std::int64_t>(rng, nout, 0.3));
            const auto before = test::random_vec<std::int64_t>(rng, nout, 0.2);
            const int fold = is_vxm ? pr : pc;
            for (bool replace : {true, false}) {
                const std::string what = pull_case(is_vxm, false, pr, pc) +
                                         (replace ? " replace" : " into a non-empty w");
                Descriptor d;
                d.direction = Direction::push;
                d.mask_complement = true;
                d.mask_structural = true;
                d.replace = replace;
                auto run = [&](bool with_epilogue,
                               std::vector<std::pair<lindex_t, std::int64_t>>& seen, bool& ran) {
                    SpmvWorkspace<std::int64_t, std::int64_t, std::int64_t> ws;
                    ws.spmspv.policy.max_threads = 2;
                    ws.spmspv.policy.min_parallel_work = 1;
                    ws.claim.sort_inputs_per_thread = 1;
                    ws.claim.sort_products_max = ~offset_t(0);
                    if (with_epilogue) {
                        ws.result_epilogue = [&](std::span<const lindex_t> ids,
                                                 std::span<const std::int64_t> vals) {
                            const bool ascending = std::is_sorted(ids.begin(), ids.end());
#pragma omp critical(test_spmv_epilogue)
                            {
                                EXPECT_TRUE(ascending) << what;
                                for (std::size_t q = 0; q < ids.size(); ++q)
                                    seen.emplace_back(ids[q], vals[q]);
                            }
                        };
                    }
                    DistVector<std::int64_t> w = test::make_vector(grid, nout, before);
                    if (is_vxm) {
                        vxm(w, mask, no_accum, min_secondi<std::int64_t>{}, u, a, d, &ws);
                    } else {
                        mxv(w, mask, no_accum, min_secondi<std::int64_t>{}, a, u, d, &ws);
                    }
                    ran = ws.result_epilogue_ran;
                    return w;
                };
                std::vector<std::pair<lindex_t, std::int64_t>> seen, unused;
                bool ran = false, plain_ran = false;
                const DistVector<std::int64_t> w = run(true, seen, ran);
                const DistVector<std::int64_t> plain = run(false, unused, plain_ran);
                EXPECT_EQ(test::to_map(w), test::to_map(plain)) << what;
                EXPECT_FALSE(plain_ran) << what << ": no epilogue, yet it ran";
                EXPECT_EQ(ran, team && replace && fold == 1) << what;
                if (!ran) {
                    EXPECT_TRUE(seen.empty()) << what << ": the epilogue ran where it must not";
                    continue;
                }
                std::sort(seen.begin(), seen.end());
                std::vector<std::pair<lindex_t, std::int64_t>> mine;
                const SparseVector<std::int64_t>& piece = w.sparse();
                for (std::size_t q = 0; q < piece.nvals(); ++q)
                    mine.emplace_back(piece.indices()[q], piece.values()[q]);
                EXPECT_EQ(seen, mine) << what << ": the epilogue did not see w's entries once";
            }
        }
    }
#if defined(_OPENMP)
    omp_set_num_threads(saved_threads);
#endif
}
