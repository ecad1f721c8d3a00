// read_matrix_market(): a whole Matrix Market file through the chunk reader, then the
// duplicate check (reject with the lines of both copies, or combine in file order).
#include <algorithm>
#include <numeric>
#include <vector>

#include "matrix_market_impl.hpp"

namespace gridblas {

namespace {

constexpr std::size_t load_chunk = std::size_t(1) << 16;
// Declared counts are only a hint for the first allocation: a short file that declares a
// huge count must fail on truncation without a large allocation.
constexpr std::uint64_t max_initial_reserve = std::uint64_t(1) << 16;

/// Lines of the first two entries of the file that produce the tuple (row, col) (0-based);
/// called on the error path only, it reads the file again.
std::pair<std::size_t, std::size_t> duplicate_lines(const std::string& path, gindex_t row,
                                                    gindex_t col) {
    std::size_t found[2] = {0, 0};
    int count = 0;
    try {
        MatrixMarketReader reader(path);
        CooMatrix<Pattern, gindex_t> one;
        bool more = true;
        while (more && count < 2) {
            one.clear();
            more = reader.read_chunk(1, one);
            for (std::size_t k = 0; k < one.nnz(); ++k)
                if (one.rows[k] == row && one.cols[k] == col && count < 2)
                    found[count++] = reader.line_number();
        }
    } catch (const Error&) {
        // The file was read once already; if it changed since, give the message without lines.
    }
    return {found[0], found[1]};
}

/// a + b for duplicate entries; bool files combine with logical or.
template <class T>
bool combine_values(T& a, const T& b, bool boolean) {
    if (boolean) {
        a = (a != T(0) || b != T(0)) ? T(1) : T(0);
        return true;
    }
    if constexpr (std::is_integral_v<T>) {
        return !__builtin_add_overflow(a, b, &a);
    } else {
        a = a + b;
        return true;
    }
}

std::string tuple_text(gindex_t r, gindex_t c) {
    std::string text = "(";
    return text.append(std::to_string(r + 1)).append(", ").append(std::to_string(c + 1)) + ")";
}

/// Tuple indices ordered by (row, col, index): a counting sort by row then small sorts per
/// row, or one sort of (row, col, index) keys when rows far outnumber tuples.
std::vector<std::size_t> position_order(const std::vector<gindex_t>& rows,
                                        const std::vector<gindex_t>& cols, gindex_t nrows) {
    const std::size_t n = rows.size();
    std::vector<std::size_t> perm(n);
    if (std::uint64_t(nrows) <= 2 * std::uint64_t(n) + 1024) {
        std::vector<std::size_t> start(static_cast<std::size_t>(nrows) + 1, 0);
        for (gindex_t r : rows) ++start[static_cast<std::size_t>(r) + 1];
        std::partial_sum(start.begin(), start.end(), start.begin());
        std::vector<std::pair<gindex_t, std::size_t>> keyed(n);  // (col, index) grouped by row
        std::vector<std::size_t> next(start.begin(), start.end() - 1);
        for (std::size_t k = 0; k < n; ++k)
            keyed[next[static_cast<std::size_t>(rows[k])]++] = {cols[k], k};
        for (std::size_t r = 0; r + 1 < start.size(); ++r) {
            if (start[r + 1] - start[r] > 1)
                std::sort(keyed.begin() + std::ptrdiff_t(start[r]),
                          keyed.begin() + std::ptrdiff_t(start[r + 1]));
        }
        for (std::size_t k = 0; k < n; ++k) perm[k] = keyed[k].second;
        return perm;
    }
    struct Key {
        gindex_t row, col;
        std::size_t index;
        bool operator<(const Key& o) const {
            return row != o.row ? row < o.row : col != o.col ? col < o.col : index < o.index;
        }
    };
    std::vector<Key> keys(n);
    for (std::size_t k = 0; k < n; ++k) keys[k] = {rows[k], cols[k], k};
    std::sort(keys.begin(), keys.end());
    for (std::size_t k = 0; k < n; ++k) perm[k] = keys[k].index;
    return perm;
}

/// Rejects or combines tuples that share (row, col), keeping the file order of first copies.
template <class T>
void resolve_duplicates(CooMatrix<T, gindex_t>& m, const ReadOptions& opts,
                        const MatrixMarketHeader& h, const std::string& path, bool can_reread) {
    const std::size_t n = m.nnz();
    if (n < 2) return;
    const std::vector<std::size_t> perm = position_order(m.rows, m.cols, m.nrows);
    // In each run of equal (row, col), perm[first] is the copy that appears first.
    std::vector<bool> drop(n, false);
    bool any = false;
    std::size_t first_dup = n;  // earliest second copy, for the error message
    for (std::size_t k = 1, head = perm[0]; k < n; ++k) {
        const std::size_t p = perm[k];
        if (m.rows[p] != m.rows[head] || m.cols[p] != m.cols[head]) {
            head = p;
            continue;
        }
        any = true;
        drop[p] = true;
        first_dup = std::min(first_dup, p);
        if (opts.duplicates == DuplicatePolicy::combine) {
            if constexpr (!std::is_same_v<T, Pattern>) {
                if (!combine_values(m.vals[head], m.vals[p], h.value_type == ValueType::boolean)) {
                    throw InvalidValue(path + ": the sum of the duplicate entries " +
                                       tuple_text(m.rows[p], m.cols[p]) + " overflows " +
                                       to_string(value_type_of<T>()));
                }
            }
        }
    }
    if (!any) return;
    if (opts.duplicates == DuplicatePolicy::reject) {
        const gindex_t r = m.rows[first_dup], c = m.cols[first_dup];
        const auto [l1, l2] =
            can_reread ? duplicate_lines(path, r, c) : std::pair<std::size_t, std::size_t>{0, 0};
        std::string msg = path + ": duplicate entry " + tuple_text(r, c);
        if (l1 != 0 && l2 != 0)
            msg += " on lines " + std::to_string(l1) + " and " + std::to_string(l2);
        throw InvalidValue(msg + " (read with DuplicatePolicy::combine to sum duplicates)");
    }
    std::size_t out = 0;
    for (std::size_t k = 0; k < n; ++k) {
        if (drop[k]) continue;
        m.rows[out] = m.rows[k];
        m.cols[out] = m.cols[k];
        if constexpr (!std::is_same_v<T, Pattern>) m.vals[out] = m.vals[k];
        ++out;
    }
    m.rows.resize(out);
    m.cols.resize(out);
    m.vals.resize(out);
}

/// Every entry of the reader, then the duplicate check.
template <class T>
CooMatrix<T, gindex_t> read_all(MatrixMarketReader& reader, const ReadOptions& opts,
                                bool can_reread) {
    CooMatrix<T, gindex_t> m(reader.header().nrows, reader.header().ncols);
    m.reserve(
        static_cast<std::size_t>(std::min(reader.header().max_tuples(), max_initial_reserve)));
    while (reader.read_chunk(load_chunk, m)) {
    }
    resolve_duplicates(m, opts, reader.header(), reader.name(), can_reread);
    return m;
}

}  // namespace

template <class T>
CooMatrix<T, gindex_t> read_matrix_market(const std::string& path, const ReadOptions& opts) {
    MatrixMarketReader reader(path);
    return read_all<T>(reader, opts, true);
}

template <class T>
CooMatrix<T, gindex_t> read_matrix_market(std::istream& in, const std::string& name,
                                          const ReadOptions& opts) {
    MatrixMarketReader reader(in, name);
    return read_all<T>(reader, opts, false);
}

#define GRIDBLAS_INSTANTIATE_READ_MM(T)                                                            \
    template CooMatrix<T, gindex_t> read_matrix_market<T>(const std::string&, const ReadOptions&); \
    template CooMatrix<T, gindex_t> read_matrix_market<T>(std::istream&, const std::string&,       \
                                                          const ReadOptions&);
GRIDBLAS_INSTANTIATE_READ_MM(std::int8_t)
GRIDBLAS_INSTANTIATE_READ_MM(std::int16_t)
GRIDBLAS_INSTANTIATE_READ_MM(std::int32_t)
GRIDBLAS_INSTANTIATE_READ_MM(std::int64_t)
GRIDBLAS_INSTANTIATE_READ_MM(std::uint8_t)
GRIDBLAS_INSTANTIATE_READ_MM(std::uint16_t)
GRIDBLAS_INSTANTIATE_READ_MM(std::uint32_t)
GRIDBLAS_INSTANTIATE_READ_MM(std::uint64_t)
GRIDBLAS_INSTANTIATE_READ_MM(float)
GRIDBLAS_INSTANTIATE_READ_MM(double)
GRIDBLAS_INSTANTIATE_READ_MM(Pattern)
#undef GRIDBLAS_INSTANTIATE_READ_MM

}  // namespace gridblas
