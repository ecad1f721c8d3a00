// write_matrix_market(): coordinate (general) or dense array output with the
// `%%GraphBLAS type` line; values are printed so that they read back exactly.
#include <algorithm>
#include <charconv>
#include <fstream>
#include <numeric>
#include <type_traits>
#include <vector>

#include "gridblas/matrix/matrix_market.hpp"

namespace gridblas {

namespace {

/// The name on the `%%GraphBLAS type` line (LAGraph spells the integer types with "_t").
template <class T>
std::string graphblas_type_name() {
    if constexpr (std::is_same_v<T, Pattern>) {
        return "bool";
    } else {
        const ValueType t = value_type_of<T>();
        if (t == ValueType::fp32 || t == ValueType::fp64) return to_string(t);
        return to_string(t) + "_t";
    }
}

template <class T>
const char* field_name() {
    if constexpr (std::is_same_v<T, Pattern>)
        return "pattern";
    else if constexpr (std::is_integral_v<T>)
        return "integer";
    else
        return "real";
}

/// Buffered text output that reports failures as IoError.
class TextOut {
public:
    explicit TextOut(const std::string& path)
        : path_(path), out_(path, std::ios::out | std::ios::binary | std::ios::trunc) {
        if (!out_.is_open()) throw IoError(path + ": cannot open for writing");
        buf_.reserve(flush_at + 128);
    }
    void put(std::string_view s) {
        buf_.append(s);
        if (buf_.size() >= flush_at) flush();
    }
    template <class V>
    void number(V v) {
        char tmp[64];
        const char* end = tmp;
        if constexpr (std::is_same_v<V, float>) {
            // The shortest float text, unless reading it as a double and rounding to float
            // would not give v back; then the exact double text.
            auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
            double back = 0.0;
            std::from_chars(tmp, r.ptr, back);
            if (static_cast<float>(back) != v && v == v)
                r = std::to_chars(tmp, tmp + sizeof tmp, double(v));
            end = r.ptr;
        } else {
            end = std::to_chars(tmp, tmp + sizeof tmp, v).ptr;
        }
        put(std::string_view(tmp, std::size_t(end - tmp)));
    }
    void close() {
        flush();
        out_.close();
        if (out_.fail()) throw IoError(path_ + ": write failed");
    }

private:
    static constexpr std::size_t flush_at = std::size_t(1) << 20;
    void flush() {
        out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
        if (out_.fail()) throw IoError(path_ + ": write failed");
        buf_.clear();
    }
    std::string path_;
    std::ofstream out_;
    std::string buf_;
};

template <class T>
void check_tuples(const std::string& path, const CooMatrix<T, gindex_t>& m) {
    if (m.cols.size() != m.rows.size() || m.vals.size() != m.rows.size()) {
        throw InvalidValue(path + ": tuple arrays differ in length (rows " +
                           std::to_string(m.rows.size()) + ", cols " +
                           std::to_string(m.cols.size()) + ", values " +
                           std::to_string(m.vals.size()) + ")");
    }
    if (m.nrows < 0 || m.ncols < 0) {
        throw InvalidValue(path + ": negative dimensions " + std::to_string(m.nrows) + " x " +
                           std::to_string(m.ncols));
    }
    for (std::size_t k = 0; k < m.rows.size(); ++k) {
        if (m.rows[k] < 0 || m.rows[k] >= m.nrows || m.cols[k] < 0 || m.cols[k] >= m.ncols) {
            throw IndexOutOfBounds(path + ": tuple " + std::to_string(k) + " (" +
                                   std::to_string(m.rows[k]) + ", " + std::to_string(m.cols[k]) +
                                   ") outside a " + std::to_string(m.nrows) + " x " +
                                   std::to_string(m.ncols) + " matrix (0-based)");
        }
    }
}

void write_comment(TextOut& out, const std::string& comment) {
    if (comment.empty()) return;
    std::size_t start = 0;
    while (start <= comment.size()) {
        std::size_t end = comment.find('\n', start);
        if (end == std::string::npos) end = comment.size();
        out.put("% ");
        out.put(std::string_view(comment).substr(start, end - start));
        out.put("\n");
        start = end + 1;
    }
}

template <class T>
void write_array(const std::string& path, TextOut& out, const CooMatrix<T, gindex_t>& m) {
    const auto total = static_cast<unsigned __int128>(m.nrows) * std::uint64_t(m.ncols);
    if (total > static_cast<unsigned __int128>(std::numeric_limits<gindex_t>::max()))
        throw InvalidValue(path + ": too many values for the array format");
    std::vector<std::size_t> perm(m.nnz());
    std::iota(perm.begin(), perm.end(), std::size_t(0));
    std::sort(perm.begin(), perm.end(), [&](std::size_t a, std::size_t b) {
        return m.cols[a] != m.cols[b] ? m.cols[a] < m.cols[b] : m.rows[a] < m.rows[b];
    });
    std::size_t k = 0;
    for (gindex_t j = 0; j < m.ncols; ++j) {
        for (gindex_t i = 0; i < m.nrows; ++i) {
            if (k < perm.size() && m.rows[perm[k]] == i && m.cols[perm[k]] == j) {
                out.number(m.vals[perm[k]]);
                ++k;
                if (k < perm.size() && m.rows[perm[k]] == i && m.cols[perm[k]] == j) {
                    throw InvalidValue(path + ": duplicate tuple (" + std::to_string(i) + ", " +
                                       std::to_string(j) + ") cannot be written as an array");
                }
            } else {
                out.put("0");
            }
            out.put("\n");
        }
    }
}

}  // namespace

template <class T>
void write_matrix_market(const std::string& path, const CooMatrix<T, gindex_t>& m,
                         const WriteOptions& opts) {
    check_tuples(path, m);
    const bool array = opts.format == MatrixMarketFormat::array;
    if constexpr (std::is_same_v<T, Pattern>) {
        if (array) throw NotSupported(path + ": a pattern matrix cannot be written as an array");
    }
    TextOut out(path);
    out.put("%%MatrixMarket matrix ");
    out.put(array ? "array " : "coordinate ");
    out.put(field_name<T>());
    out.put(" general\n");
    if (opts.type_line) out.put("%%GraphBLAS type " + graphblas_type_name<T>() + "\n");
    write_comment(out, opts.comment);
    out.number(m.nrows);
    out.put(" ");
    out.number(m.ncols);
    if constexpr (!std::is_same_v<T, Pattern>) {
        if (array) {
            out.put("\n");
            write_array(path, out, m);
            out.close();
            return;
        }
    }
    out.put(" ");
    out.number(static_cast<std::uint64_t>(m.nnz()));
    out.put("\n");
    for (std::size_t k = 0; k < m.nnz(); ++k) {
        out.number(m.rows[k] + 1);
        out.put(" ");
        out.number(m.cols[k] + 1);
        if constexpr (!std::is_same_v<T, Pattern>) {
            out.put(" ");
            out.number(m.vals[k]);
        }
        out.put("\n");
    }
    out.close();
}

#define GRIDBLAS_INSTANTIATE_WRITE_MM(T)                                                    \
    template void write_matrix_market<T>(const std::string&, const CooMatrix<T, gindex_t>&, \
                                         const WriteOptions&);
GRIDBLAS_INSTANTIATE_WRITE_MM(std::int8_t)
GRIDBLAS_INSTANTIATE_WRITE_MM(std::int16_t)
GRIDBLAS_INSTANTIATE_WRITE_MM(std::int32_t)
GRIDBLAS_INSTANTIATE_WRITE_MM(std::int64_t)
GRIDBLAS_INSTANTIATE_WRITE_MM(std::uint8_t)
GRIDBLAS_INSTANTIATE_WRITE_MM(std::uint16_t)
GRIDBLAS_INSTANTIATE_WRITE_MM(std::uint32_t)
GRIDBLAS_INSTANTIATE_WRITE_MM(std::uint64_t)
GRIDBLAS_INSTANTIATE_WRITE_MM(float)
GRIDBLAS_INSTANTIATE_WRITE_MM(double)
GRIDBLAS_INSTANTIATE_WRITE_MM(Pattern)
#undef GRIDBLAS_INSTANTIATE_WRITE_MM

}  // namespace gridblas
