#pragma once
/// @file matrix_market.hpp
/// @brief Matrix Market (`.mtx`) reading and writing.
///
/// Supported: the `coordinate` and `array` formats; the `real`, `integer` and `pattern`
/// fields; the `general`, `symmetric` and `skew-symmetric` symmetries; and the optional
/// `%%GraphBLAS type T` header line that declares the value type of the entries (as written by
/// SuiteSparse:GraphBLAS and LAGraph). Complex values and `hermitian` matrices raise
/// NotSupported.
///
/// Symmetric and skew-symmetric files store one triangle; the reader expands them so that the
/// result holds both triangles. (An entry found in the upper triangle is mirrored the same
/// way, as LAGraph does; a file holding both (i, j) and (j, i) thus has a duplicate entry.)
/// The diagonal of a skew-symmetric file may only hold explicit zeros. Every malformed input raises
/// an exception naming the file and the line: ParseError for bad text, IndexOutOfBounds for an
/// index outside the declared dimensions, InvalidValue for duplicate entries, NotSupported for
/// valid but unsupported features, IoError when the file cannot be opened or read.
///
/// The reader is a stream: MatrixMarketReader::read_chunk() reads a bounded number of entries
/// at a time, so a distributed loader can hand a large file out in pieces without holding it.

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <type_traits>

#include "gridblas/core/types.hpp"
#include "gridblas/matrix/coo.hpp"

namespace gridblas {

/// How a Matrix Market file lays out its entries.
enum class MatrixMarketFormat {
    coordinate,  ///< one "row col [value]" line per stored entry
    array,       ///< every value of the dense matrix in column-major order
};

/// What the entries of a Matrix Market file hold.
enum class MatrixMarketField {
    real,     ///< floating-point values
    integer,  ///< integer values
    pattern,  ///< no values: every stored entry is a one
};

/// Which part of the matrix a Matrix Market file stores.
enum class MatrixMarketSymmetry {
    general,         ///< every entry
    symmetric,       ///< the lower triangle (and diagonal) of A == A^T
    skew_symmetric,  ///< the strictly lower triangle of A == -A^T
};

/// Value type of the entries, as named by the `%%GraphBLAS type` line.
enum class ValueType {
    boolean,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    fp32,
    fp64
};

/// The C name of the type: "bool", "int8", ..., "uint64", "float", "double".
std::string to_string(ValueType t);
/// "coordinate" or "array".
std::string to_string(MatrixMarketFormat f);
/// "real", "integer" or "pattern".
std::string to_string(MatrixMarketField f);
/// "general", "symmetric" or "skew-symmetric".
std::string to_string(MatrixMarketSymmetry s);

/// The ValueType that stores values of the C++ type T (T = uint8_t gives uint8; "bool" data
/// is kept in uint8_t).
template <class T>
constexpr ValueType value_type_of() {
    if constexpr (std::is_same_v<T, std::int8_t>)
        return ValueType::int8;
    else if constexpr (std::is_same_v<T, std::int16_t>)
        return ValueType::int16;
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return ValueType::int32;
    else if constexpr (std::is_same_v<T, std::int64_t>)
        return ValueType::int64;
    else if constexpr (std::is_same_v<T, std::uint8_t>)
        return ValueType::uint8;
    else if constexpr (std::is_same_v<T, std::uint16_t>)
        return ValueType::uint16;
    else if constexpr (std::is_same_v<T, std::uint32_t>)
        return ValueType::uint32;
    else if constexpr (std::is_same_v<T, std::uint64_t>)
        return ValueType::uint64;
    else if constexpr (std::is_same_v<T, float>)
        return ValueType::fp32;
    else if constexpr (std::is_same_v<T, double>)
        return ValueType::fp64;
    else
        static_assert(std::is_same_v<T, double>, "no Matrix Market value type for T");
}

/// What the header of a Matrix Market file declares.
struct MatrixMarketHeader {
    MatrixMarketFormat format = MatrixMarketFormat::coordinate;
    MatrixMarketField field = MatrixMarketField::real;
    MatrixMarketSymmetry symmetry = MatrixMarketSymmetry::general;
    /// The `%%GraphBLAS type` of the entries; without that line: bool for pattern, int64 for
    /// integer, double for real files.
    ValueType value_type = ValueType::fp64;
    /// True when the file has a `%%GraphBLAS type` line.
    bool value_type_declared = false;
    gindex_t nrows = 0;
    gindex_t ncols = 0;
    /// Number of entries stored in the file: the declared count of a coordinate file, the
    /// number of values of an array file (nrows*ncols, or one triangle when symmetric).
    gindex_t entries = 0;

    /// Upper bound on the number of tuples after symmetric expansion (2 * entries at most).
    std::uint64_t max_tuples() const;
};

/// A Matrix Market file opened for reading; the header is parsed on construction and the
/// entries are read on demand, in chunks, with memory bounded by the chunk size.
///
/// @code
/// MatrixMarketReader reader("graph.mtx");
/// CooMatrix<double> chunk;
/// bool more = true;
/// while (more) {
///     chunk.clear();
///     more = reader.read_chunk(1 << 20, chunk);
///     consume(chunk);
/// }
/// @endcode
class MatrixMarketReader {
public:
    /// Opens @p path and parses its header.
    /// @throws IoError if the file cannot be opened; ParseError / NotSupported for a bad header.
    explicit MatrixMarketReader(const std::string& path);
    /// Reads from @p in, which must outlive the reader; @p name is used in error messages.
    explicit MatrixMarketReader(std::istream& in, const std::string& name = "<stream>");
    ~MatrixMarketReader();
    MatrixMarketReader(MatrixMarketReader&&) noexcept;
    MatrixMarketReader& operator=(MatrixMarketReader&&) noexcept;
    MatrixMarketReader(const MatrixMarketReader&) = delete;
    MatrixMarketReader& operator=(const MatrixMarketReader&) = delete;

    /// The parsed header.
    const MatrixMarketHeader& header() const;
    /// The file name (or stream name) used in messages.
    const std::string& name() const;
    /// The number of the last line read (1-based); after read_chunk(1, ...) it is the line of
    /// the entry just returned.
    std::size_t line_number() const;
    /// File entries read so far.
    std::uint64_t entries_read() const;

    /// Appends up to @p max_entries entries of the file to @p out (0-based indices), each
    /// off-diagonal entry of a symmetric or skew-symmetric file as two tuples, and sets
    /// out.nrows / out.ncols to the matrix dimensions. Values are converted to T, checking
    /// that they fit (T = Pattern skips them after checking they are well formed).
    ///
    /// Duplicate entries are not detected here (read_matrix_market() does that).
    ///
    /// @return true if entries remain, false once this call reached the end of the file (the
    /// entries it appended are valid). At the end, the file must hold exactly the declared
    /// number of entries and nothing else but comments and blank lines.
    /// @throws ParseError, IndexOutOfBounds, NotSupported, IoError as described in the file
    /// comment, InvalidValue if max_entries is 0. On an exception @p out is left as it was
    /// on entry and the reader is unusable (further calls throw).
    template <class T>
    bool read_chunk(std::size_t max_entries, CooMatrix<T, gindex_t>& out);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Options of read_matrix_market().
struct ReadOptions {
    /// reject: two entries at the same (row, col) raise InvalidValue. combine: their values
    /// are summed (logical or for a bool file; pattern entries are kept once).
    DuplicatePolicy duplicates = DuplicatePolicy::reject;
};

/// Reads a whole Matrix Market file into coordinate tuples (0-based, in file order, both
/// triangles of a symmetric file).
/// @tparam T one of uint8_t (also used for bool), int8_t..int64_t, uint16_t..uint64_t, float,
/// double, Pattern.
template <class T>
CooMatrix<T, gindex_t> read_matrix_market(const std::string& path, const ReadOptions& opts = {});

/// Reads a whole Matrix Market text from @p in (see the overload above); @p name is used in
/// messages. A duplicate entry is reported without the line numbers of its copies.
template <class T>
CooMatrix<T, gindex_t> read_matrix_market(std::istream& in, const std::string& name,
                                          const ReadOptions& opts = {});

/// Options of write_matrix_market().
struct WriteOptions {
    /// coordinate (general) or array (dense, column-major; missing entries are written as 0).
    MatrixMarketFormat format = MatrixMarketFormat::coordinate;
    /// Write the `%%GraphBLAS type T` line after the banner.
    bool type_line = true;
    /// Text written as `%` comment lines after the banner (may contain newlines).
    std::string comment;
};

/// Writes @p m as a general Matrix Market file: the pattern field for Pattern, integer for
/// integral T, real for floating-point T (printed with enough digits to read back exactly).
/// @throws IndexOutOfBounds for a tuple outside the dimensions, InvalidValue for mismatched
/// array lengths or (array format) duplicate tuples, NotSupported for a Pattern matrix in
/// array format, IoError if the file cannot be written.
template <class T>
void write_matrix_market(const std::string& path, const CooMatrix<T, gindex_t>& m,
                         const WriteOptions& opts = {});

}  // namespace gridblas
