// ProcessGrid, DistMatrix and DistVector: construction from distributed tuples, from Matrix
// Market files streamed in chunks and from the generators; transpose, gather, nvals; the
// vertex distribution; and argument errors raised identically on every rank.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "dist_test_util.hpp"
#include "gridblas/matrix/graph_builders.hpp"
#include "gridblas/matrix/matrix_market.hpp"
#include "gridblas/matrix/weighted_graphs.hpp"
#include "gridblas/ops/spmv.hpp"
#include "reference/matrix_ops_reference.hpp"

using namespace gridblas;
using test::all_grids;

namespace {
const std::string kData = GRIDBLAS_TEST_DATA_DIR;

template <class T>
ref::Mat<T> coo_to_map(const CooMatrix<T, gindex_t>& c) {
    ref::Mat<T> m;
    for (std::size_t k = 0; k < c.nnz(); ++k) m[{c.rows[k], c.cols[k]}] = c.vals[k];
    return m;
}
}  // namespace

TEST(ProcessGrid, ShapesAndErrors) {
    const int p = test::world_size();
    auto [pr, pc] = ProcessGrid::default_shape(p);
    EXPECT_EQ(pr * pc, p);
    EXPECT_LE(pr, pc);
    for (auto [r, c] : test::grid_shapes(p)) {
        ProcessGrid g(MPI_COMM_WORLD, r, c);
        EXPECT_EQ(g.pr(), r);
        EXPECT_EQ(g.pc(), c);
        EXPECT_EQ(g.row().size(), c);
        EXPECT_EQ(g.col().size(), r);
        EXPECT_EQ(g.rank_of(g.my_row(), g.my_col()), g.rank());
    }
    EXPECT_THROW(ProcessGrid(MPI_COMM_WORLD, p + 1, 1), InvalidValue);
    EXPECT_THROW(ProcessGrid(MPI_COMM_WORLD, 0, 3), InvalidValue);
}

TEST(Distribution, PiecesCoverTheSpaceOnce) {
    for (gindex_t len : {0, 1, 5, 97, 1000}) {
        for (auto [pr, pc] : {std::pair{1, 1}, {2, 3}, {3, 2}, {1, 4}, {4, 1}}) {
            Distribution d(len, pr, pc);
            gindex_t covered = 0;
            for (int k = 0; k < d.pieces(); ++k) covered += d.piece_size(k);
            EXPECT_EQ(covered, len);
            for (gindex_t g = 0; g < len; ++g) {
                const int i = d.row_block_of(g), j = d.col_block_of(g);
                EXPECT_EQ(d.global_row(i, d.local_row(g)), g);
                EXPECT_EQ(d.global_col(j, d.local_col(g)), g);
                EXPECT_LT(d.local_row(g), d.block_rows());
                EXPECT_LT(d.local_col(g), d.block_cols());
                // The owner of g's piece sits in g's row block and column block.
                const int k = d.piece_of(g);
                EXPECT_EQ(d.row_of_piece(k), i);
                EXPECT_EQ(d.col_of_piece(k), j);
            }
        }
    }
}

TEST(DistMatrix, FromTuplesGatherTransposeAllGrids) {
    std::mt19937_64 rng(17);
    for (auto& grid : all_grids()) {
        for (auto [n, m] :
             {std::pair<gindex_t, gindex_t>{30, 20}, {1, 7}, {7, 1}, {2, 2}, {0, 0}}) {
            for (auto fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
                const auto am = test::random_mat<double>(rng, n, m, 0.3);
                auto a = test::make_matrix(grid, n, m, am, fmt);
                EXPECT_EQ(a.nvals(), gindex_t(am.size()));
                EXPECT_EQ(test::to_map(a), am);
                const auto g = a.gather(0);
                if (grid->rank() == 0) {
                    EXPECT_EQ(coo_to_map(g), am);
                }
                ref::Mat<double> tm;
                for (const auto& [ij, x] : am) tm[{ij.second, ij.first}] = x;
                EXPECT_EQ(test::to_map(a.transpose()), tm);
                // Both compressions hold the same entries.
                std::size_t by_col = 0;
                a.by_col().for_each([&](lindex_t, lindex_t, double) { ++by_col; });
                EXPECT_EQ(by_col, a.local_nvals());
            }
        }
    }
}

TEST(DistMatrix, SymmetricBlocksAreStoredOnce) {
    std::mt19937_64 rng(23);
    for (auto& grid : all_grids()) {
        for (bool symmetric : {true, false}) {
            for (auto fmt : {LocalFormat::dcsc, LocalFormat::csr}) {
                auto am = test::random_mat<double>(rng, 40, 40, 0.2);
                if (symmetric) {  // mirror each entry; a pair keeps its upper value
                    const ref::Mat<double> given = am;
                    for (const auto& [ij, x] : given) {
                        const auto [r, c] = ij;
                        if (r <= c || !given.count({c, r})) am[{c, r}] = am[{r, c}] = x;
                    }
                }
                const auto a = test::make_matrix(grid, 40, 40, am, fmt);
                EXPECT_EQ(test::to_map(a), am);
                // by_col() holds the block's transpose whether or not it is shared.
                std::vector<std::tuple<lindex_t, lindex_t, double>> rows, cols;
                a.by_row().for_each(
                    [&](lindex_t r, lindex_t c, double x) { rows.emplace_back(c, r, x); });
                a.by_col().for_each(
                    [&](lindex_t c, lindex_t r, double x) { cols.emplace_back(c, r, x); });
                std::sort(rows.begin(), rows.end());
                EXPECT_EQ(rows, cols);
                // Shared exactly when the local block equals its transpose.
                const bool square = a.row_dist().block_rows() == a.col_dist().block_cols();
                std::sort(cols.begin(), cols.end(), [](const auto& x, const auto& y) {
                    return std::tie(std::get<1>(x), std::get<0>(x)) <
                           std::tie(std::get<1>(y), std::get<0>(y));
                });
                bool equal = square && rows.size() == cols.size();
                for (std::size_t k = 0; equal && k < rows.size(); ++k) {
                    equal = std::get<0>(rows[k]) == std::get<1>(cols[k]) &&
                            std::get<1>(rows[k]) == std::get<0>(cols[k]) &&
                            std::get<2>(rows[k]) == std::get<2>(cols[k]);
                }
                EXPECT_EQ(a.shares_orientations(), equal);
                if (symmetric && grid->size() == 1) {
                    EXPECT_TRUE(a.shares_orientations());
                    EXPECT_EQ(a.memory_bytes(), a.by_row().memory_bytes());
                }
                // A block given by rows (as products are) derives its by-column copy alike.
                auto b = DistMatrix<double>::shell(grid, 40, 40, {DuplicatePolicy::reject, fmt});
                std::vector<offset_t> ptr(std::size_t(a.row_dist().block_rows()) + 1, 0);
                std::vector<lindex_t> inner;
                ValueArray<double> vals;
                a.by_row().for_each([&](lindex_t r, lindex_t c, double x) {
                    ++ptr[r + 1];
                    inner.push_back(c);
                    vals.push_back(x);
                });
                for (std::size_t r = 1; r < ptr.size(); ++r) ptr[r] += ptr[r - 1];
                b.assemble_rows(std::move(ptr), std::move(inner), std::move(vals));
                EXPECT_EQ(b.shares_orientations(), equal);
                EXPECT_EQ(test::to_map(b), am);
            }
        }
    }
}

TEST(DistMatrix, HypersparseBlocksStayCompact) {
    for (auto& grid : all_grids()) {
        const gindex_t n = 2'000'000;
        std::vector<gindex_t> r, c;
        if (grid->rank() == 0) {
            for (gindex_t k = 0; k < 50; ++k)
                r.push_back(k * 39'989 % n), c.push_back(k * 7919 % n);
        }
        auto a = DistMatrix<Pattern>::from_tuples(grid, n, n, r, c, ValueArray<Pattern>(r.size()));
        EXPECT_EQ(a.nvals(), 50);
        // DCSC blocks are O(nnz): far below one word per row of the block.
        EXPECT_LT(a.memory_bytes(), std::size_t(64 * 1024));
    }
}

TEST(DistMatrix, ErrorsOnEveryRank) {
    for (auto& grid : all_grids()) {
        // Only the last rank holds the bad tuple; every rank must throw.
        std::vector<gindex_t> r, c;
        ValueArray<double> v;
        if (grid->rank() == grid->size() - 1) {
            r = {0, 9};
            c = {0, 1};
            v = ValueArray<double>(2, 1.0);
        }
        EXPECT_THROW(DistMatrix<double>::from_tuples(grid, 5, 5, r, c, v), IndexOutOfBounds);
    }
}

TEST(DistMatrix, DuplicatesAcrossRanks) {
    for (auto& grid : all_grids()) {
        // Every rank contributes (3, 4): a duplicate as soon as there are two ranks.
        std::vector<gindex_t> r{3}, c{4};
        ValueArray<double> v(1, 2.0);
        if (grid->size() > 1) {
            EXPECT_THROW(DistMatrix<double>::from_tuples(grid, 5, 5, r, c, v), InvalidValue);
        }
        auto sum = DistMatrix<double>::from_tuples(
            grid, 5, 5, r, c, v, BuildOptions{DuplicatePolicy::combine, LocalFormat::dcsc},
            [](double a, double b) { return a + b; });
        const auto m = test::to_map(sum);
        ASSERT_EQ(m.size(), 1u);
        EXPECT_EQ(m.begin()->second, 2.0 * grid->size());
    }
}

TEST(DistMatrix, MatrixMarketStreamedInChunks) {
    for (auto& grid : all_grids()) {
        for (const char* f : {"west0067.mtx", "lp_afiro.mtx", "karate.mtx", "empty.mtx"}) {
            const auto serial = read_matrix_market<double>(kData + "/" + f);
            DistReadOptions o;
            o.chunk_entries = 7;  // many chunks
            auto a = read_matrix_market_dist<double>(grid, kData + "/" + f, o);
            EXPECT_EQ(a.nrows(), serial.nrows);
            EXPECT_EQ(a.ncols(), serial.ncols);
            EXPECT_EQ(test::to_map(a), coo_to_map(serial)) << f;
        }
        EXPECT_THROW(read_matrix_market_dist<double>(grid, kData + "/mangled10.mtx"), ParseError);
        EXPECT_THROW(read_matrix_market_dist<double>(grid, kData + "/mangled14.mtx"), InvalidValue);
        EXPECT_THROW(read_matrix_market_dist<double>(grid, kData + "/no-such-file.mtx"), IoError);
        EXPECT_THROW(read_graph_matrix_market(grid, kData + "/lp_afiro.mtx"), DimensionMismatch);
    }
}

TEST(DistMatrix, GraphFilePreparedAsOptionsSayOnEveryGrid) {
    // On one rank a symmetrised graph holds each edge once while it is built and the block's
    // assembly adds the mirrors; on several ranks both directions are routed. Either way the
    // graph is the file's edges, mirrored when asked, with self-loops dropped when asked:
    // general files with edges both ways and on the diagonal, symmetric and skew files.
    for (auto& grid : all_grids()) {
        for (const char* f : {"west0067.mtx", "karate.mtx", "jagmesh7.mtx", "full_symmetric.mtx",
                              "skew_fp64.mtx"}) {
            const auto serial = read_matrix_market<double>(kData + "/" + f);
            for (const bool symmetrize : {true, false}) {
                for (const bool drop_self_loops : {true, false}) {
                    ref::Mat<Pattern> want;
                    for (std::size_t k = 0; k < serial.nnz(); ++k) {
                        const gindex_t r = serial.rows[k], c = serial.cols[k];
                        if (r == c && drop_self_loops) continue;
                        want[{r, c}] = Pattern{};
                        if (symmetrize) want[{c, r}] = Pattern{};
                    }
                    GraphOptions g;
                    g.symmetrize = symmetrize;
                    g.drop_self_loops = drop_self_loops;
                    const auto a = read_graph_matrix_market(grid, kData + "/" + f, g);
                    EXPECT_EQ(test::to_map(a), want)
                        << f << " symmetrize " << symmetrize << " drop_self_loops "
                        << drop_self_loops << " on " << grid->pr() << "x" << grid->pc();
                }
            }
        }
    }
}

TEST(DistMatrix, KroneckerSameGraphOnEveryGrid) {
    KroneckerParams p;
    p.scale = 9;
    p.edgefactor = 8;
    ref::Mat<Pattern> first;
    bool have = false;
    for (auto& grid : all_grids()) {
        auto a = kronecker_graph(grid, p);
        std::vector<gindex_t> r, c;
        std::vector<Pattern> v;
        extract_tuples(a, r, c, v);
        ref::Mat<Pattern> m;
        for (std::size_t k = 0; k < r.size(); ++k) m[{r[k], c[k]}] = Pattern{};
        for (const auto& [ij, x] : m) ASSERT_TRUE(m.count({ij.second, ij.first}));  // symmetric
        for (const auto& [ij, x] : m) ASSERT_NE(ij.first, ij.second);               // no self-loops
        if (have) {
            EXPECT_EQ(m.size(), first.size());
            EXPECT_TRUE(m == first);
        }
        first = std::move(m);
        have = true;
    }
}

TEST(DistMatrix, GraphOptionsTransposeStoresEachEdgeReversed) {
    // GraphOptions::transpose keeps u -> v at (v, u) in every builder, weights included, and
    // changes nothing where symmetrize already stores both directions.
    KroneckerParams p;
    p.scale = 8;
    p.edgefactor = 8;
    for (auto& grid : all_grids()) {
        const std::string on =
            " on " + std::to_string(grid->pr()) + "x" + std::to_string(grid->pc());
        for (const bool symmetrize : {false, true}) {
            GraphOptions plain, transposed;
            plain.symmetrize = transposed.symmetrize = symmetrize;
            transposed.transpose = true;
            const auto want = [&](const auto& m) { return symmetrize ? m : ref::transpose(m); };
            const auto k = test::to_map(kronecker_graph(grid, p, plain));
            EXPECT_EQ(test::to_map(kronecker_graph(grid, p, transposed)), want(k))
                << "kronecker_graph symmetrize " << symmetrize << on;
            const auto w = test::to_map(weighted_kronecker_graph(grid, p, plain));
            EXPECT_EQ(test::to_map(weighted_kronecker_graph(grid, p, transposed)), want(w))
                << "weighted_kronecker_graph symmetrize " << symmetrize << on;
            const std::string f = kData + "/west0067.mtx";
            const auto r = test::to_map(read_graph_matrix_market(grid, f, plain));
            EXPECT_EQ(test::to_map(read_graph_matrix_market(grid, f, transposed)), want(r))
                << "read_graph_matrix_market symmetrize " << symmetrize << on;
            const auto rw = test::to_map(read_weighted_graph_matrix_market(grid, f, plain));
            EXPECT_EQ(test::to_map(read_weighted_graph_matrix_market(grid, f, transposed)),
                      want(rw))
                << "read_weighted_graph_matrix_market symmetrize " << symmetrize << on;
            std::vector<gindex_t> s, d;
            if (grid->rank() == 0) s = {0, 1, 2, 5}, d = {1, 2, 0, 3};
            const auto e = test::to_map(graph_from_edges(grid, 6, s, d, plain));
            EXPECT_EQ(test::to_map(graph_from_edges(grid, 6, s, d, transposed)), want(e))
                << "graph_from_edges symmetrize " << symmetrize << on;
            if (!symmetrize) {
                EXPECT_NE(ref::transpose(k), k) << "the Kronecker graph is not symmetric";
            }
        }
    }
}

TEST(DistVector, BuildExtractAndShortVectors) {
    std::mt19937_64 rng(23);
    for (auto& grid : all_grids()) {
        for (gindex_t n : {0, 1, 3, 50}) {
            const auto vm = test::random_vec<std::int64_t>(rng, n, 0.5);
            auto v = test::make_vector(grid, n, vm);
            EXPECT_EQ(v.nvals(), gindex_t(vm.size()));
            EXPECT_EQ(test::to_map(v), vm);
            v.to_format(VectorFormat::bitmap);
            EXPECT_EQ(test::to_map(v), vm);
            v.to_format(VectorFormat::sparse);
            EXPECT_EQ(test::to_map(v), vm);
        }
        std::vector<gindex_t> bad;
        if (grid->rank() == 0) bad.push_back(99);
        EXPECT_THROW(DistVector<double>::from_tuples(grid, 10, bad, ValueArray<double>(bad.size())),
                     IndexOutOfBounds);
    }
}

TEST(DistMatrix, RelabelledKeepsCallerIds) {
    std::mt19937_64 rng(31);
    for (auto& grid : all_grids()) {
        const gindex_t n = 41;
        const auto am = test::random_mat<double>(rng, n, n, 0.2);
        std::vector<gindex_t> r, c;
        ValueArray<double> v;
        if (grid->rank() == 0) {
            for (const auto& [ij, x] : am)
                r.push_back(ij.first), c.push_back(ij.second), v.push_back(x);
        }
        BuildOptions o;
        o.relabel = true;
        o.relabel_seed = 5;
        auto a = DistMatrix<double>::from_tuples(grid, n, n, r, c, v, o);
        EXPECT_EQ(test::to_map(a), am);
        ref::Mat<double> tm;
        for (const auto& [ij, x] : am) tm[{ij.second, ij.first}] = x;
        EXPECT_EQ(test::to_map(a.transpose()), tm);
        DistVector<double> u(grid, n), w(grid, n);
        EXPECT_THROW(vxm(w, no_mask, no_accum, plus_times<double>{}, u, a), NotSupported);
        BuildOptions rect;
        rect.relabel = true;
        EXPECT_THROW(
            DistMatrix<double>::from_tuples(grid, n, n + 1, {}, {}, ValueArray<double>(), rect),
            InvalidValue);
    }
}

TEST(DistMatrix, SymmetricPatternDeclaredAndChecked) {
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<gindex_t> pick(0, 29);
    for (auto& grid : all_grids()) {
        const int p = grid->size();
        // Random pairs, each given with its mirror by some rank (the mirror by another one).
        std::vector<gindex_t> r, c;
        for (int k = 0; k < 60; ++k) {
            const gindex_t u = pick(rng), v = pick(rng);
            if (k % p == grid->rank()) r.push_back(u), c.push_back(v);
            if ((k + 1) % p == grid->rank()) r.push_back(v), c.push_back(u);
        }
        BuildOptions sym{DuplicatePolicy::combine, LocalFormat::dcsc};
        sym.symmetric = true;
        const auto a = DistMatrix<Pattern>::from_tuples(grid, 30, 30, r, c,
                                                        ValueArray<Pattern>(r.size()), sym);
        EXPECT_TRUE(a.symmetric_pattern());
        EXPECT_TRUE(a.transpose().symmetric_pattern());
        BuildOptions plain{DuplicatePolicy::combine, LocalFormat::dcsc};
        EXPECT_FALSE(DistMatrix<Pattern>::from_tuples(grid, 30, 30, r, c,
                                                      ValueArray<Pattern>(r.size()), plain)
                         .symmetric_pattern());
        // One entry without its mirror, held by the last rank only: every rank throws.
        std::vector<gindex_t> r1 = r, c1 = c;
        if (grid->rank() == p - 1) r1.push_back(3), c1.push_back(17);
        if (grid->rank() == 0) r1.push_back(17), c1.push_back(3);
        if (grid->rank() == 0) r1.push_back(0), c1.push_back(29);  // (29, 0) given by nobody
        EXPECT_THROW(DistMatrix<Pattern>::from_tuples(grid, 30, 30, r1, c1,
                                                      ValueArray<Pattern>(r1.size()), sym),
                     InvalidValue);
        EXPECT_THROW(DistMatrix<Pattern>::from_tuples(grid, 30, 31, r, c,
                                                      ValueArray<Pattern>(r.size()), sym),
                     InvalidValue);
        // The graph builders declare what they symmetrise, relabelled or not.
        GraphOptions g;
        EXPECT_TRUE(graph_from_edges(grid, 30, r, c, g).symmetric_pattern());
        g.relabel = true;
        EXPECT_TRUE(graph_from_edges(grid, 30, r, c, g).symmetric_pattern());
        g.symmetrize = false;
        EXPECT_FALSE(graph_from_edges(grid, 30, r, c, g).symmetric_pattern());
        // Replacing the blocks forgets the declaration.
        auto b = a;
        std::vector<offset_t> ptr(std::size_t(b.row_dist().block_rows()) + 1, 0);
        b.assemble_rows(std::move(ptr), {}, ValueArray<Pattern>(0));
        EXPECT_FALSE(b.symmetric_pattern());
    }
}
