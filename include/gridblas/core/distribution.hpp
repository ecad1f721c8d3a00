#pragma once
/// @file distribution.hpp
/// @brief How an index space of length L is spread over a pr x pc grid.
///
/// The space is cut into p = pr*pc pieces of `nb = ceil(L/p)` consecutive indices (the last
/// pieces may be short or empty). Piece k belongs to grid position (k % pr, k / pr): pieces
/// are dealt column by column (the layout of Checconi & Petrini 2014 and of Bisson et al. 2016).
/// With this choice
///  - the column block j of a matrix (its columns for grid column j) is the contiguous range
///    of pieces j*pr .. j*pr+pr-1, owned by exactly the ranks of grid column j, and
///  - the row block i (its rows for grid row i) is the set of pieces {j*pr + i}, owned by
///    exactly the ranks of grid row i,
/// so the vector piece a rank owns lies in both its row block and its column block. Gathering
/// a vector along a grid row (or column) therefore yields the block's whole input range with
/// no "transpose" step, for vxm and mxv alike.
///
/// Local numbering inside a block: row block i numbers piece j*pr + i from j*nb; column block
/// j numbers piece j*pr + i from i*nb. Both are padded to pc*nb rows and pr*nb columns.

#include <algorithm>
#include <cstdint>

#include "gridblas/core/types.hpp"

namespace gridblas {

/// The distribution of one index space (rows or columns, or a vector) over a grid.
struct Distribution {
    gindex_t length = 0;  ///< L
    int pr = 1;
    int pc = 1;
    gindex_t nb = 0;  ///< piece size, ceil(L / p)

    Distribution() = default;
    Distribution(gindex_t len, int pr_, int pc_) : length(len), pr(pr_), pc(pc_) {
        const gindex_t p = gindex_t(pr) * pc;
        nb = (len + p - 1) / p;
    }

    int pieces() const { return pr * pc; }
    /// First index of piece k and its length.
    gindex_t piece_begin(int k) const { return std::min<gindex_t>(gindex_t(k) * nb, length); }
    gindex_t piece_end(int k) const { return std::min<gindex_t>(gindex_t(k + 1) * nb, length); }
    gindex_t piece_size(int k) const { return piece_end(k) - piece_begin(k); }
    /// Piece holding global index g.
    int piece_of(gindex_t g) const { return nb == 0 ? 0 : int(g / nb); }
    /// Piece owned by grid position (i, j).
    int piece_at(int i, int j) const { return j * pr + i; }
    /// Grid position owning piece k.
    int row_of_piece(int k) const { return k % pr; }
    int col_of_piece(int k) const { return k / pr; }
    /// World rank (row-major grid numbering) owning global index g.
    int owner(gindex_t g) const {
        const int k = piece_of(g);
        return row_of_piece(k) * pc + col_of_piece(k);
    }

    // ---- as the row space of a matrix (row block i = pieces {j*pr + i}) ----------------
    /// Rows of one local block (padded).
    lindex_t block_rows() const { return lindex_t(gindex_t(pc) * nb); }
    /// Grid row holding global row g.
    int row_block_of(gindex_t g) const { return row_of_piece(piece_of(g)); }
    /// Local row index of global row g inside its row block.
    lindex_t local_row(gindex_t g) const {
        const int k = piece_of(g);
        return lindex_t(gindex_t(col_of_piece(k)) * nb + (g - gindex_t(k) * nb));
    }
    /// Global row of local row r in row block i. A grid of one column (one piece per row
    /// block) or of one row (the row space in order) needs no division: kernels call this for
    /// every output they write.
    gindex_t global_row(int i, lindex_t r) const {
        if (pc == 1) return gindex_t(i) * nb + gindex_t(r);
        if (pr == 1) return gindex_t(r);
        const gindex_t j = gindex_t(r) / nb;
        return (j * pr + i) * nb + gindex_t(r) % nb;
    }

    /// Local rows r of row block i whose global row is below g. global_row(i, r) increases
    /// with r, so a read of a block's rows in ascending local order passes g here.
    lindex_t row_block_bound(int i, gindex_t g) const {
        if (g <= 0 || nb == 0) return 0;
        const gindex_t k = g / nb;  // piece of g
        // Pieces j*pr + i below k come wholly before g.
        const gindex_t full = k > i ? (k - i + pr - 1) / pr : 0;
        if (full >= pc) return lindex_t(gindex_t(pc) * nb);
        gindex_t r = full * nb;
        if (k % pr == i) r += g % nb;  // g lies inside piece full*pr + i
        return lindex_t(r);
    }

    // ---- as the column space of a matrix (column block j = pieces j*pr .. j*pr+pr-1) -----
    /// Columns of one local block (padded).
    lindex_t block_cols() const { return lindex_t(gindex_t(pr) * nb); }
    /// Grid column holding global column g.
    int col_block_of(gindex_t g) const { return col_of_piece(piece_of(g)); }
    /// Local column index of global column g inside its column block.
    lindex_t local_col(gindex_t g) const {
        return lindex_t(g - gindex_t(col_block_of(g)) * pr * nb);
    }
    /// Global column of local column c in column block j.
    gindex_t global_col(int j, lindex_t c) const { return gindex_t(j) * pr * nb + gindex_t(c); }
    /// Local columns c of column block j whose global column is below g.
    lindex_t col_block_bound(int j, gindex_t g) const {
        const gindex_t c = g - gindex_t(j) * pr * nb;
        return lindex_t(std::clamp<gindex_t>(c, 0, gindex_t(pr) * nb));
    }
};

}  // namespace gridblas
