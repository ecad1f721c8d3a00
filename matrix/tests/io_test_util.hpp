#pragma once
// Helpers shared by the Matrix Market and edge-list tests: temporary files, error-class
// checks, and tuple comparison.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <typeinfo>

#include "gridblas/core/error.hpp"
#include "gridblas/matrix/coo.hpp"

namespace gridblas::test {

/// A file under the temporary directory, removed when the object goes out of scope.
class TempFile {
public:
    explicit TempFile(const std::string& content, const std::string& ext = ".mtx") {
        static std::atomic<int> counter{0};
        path_ =
            (std::filesystem::temp_directory_path() /
             ("gridblas_io_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ext))
                .string();
        std::ofstream out(path_, std::ios::binary);
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
    }
    ~TempFile() {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

/// Which gridblas exception @p fn throws: "ParseError", "IndexOutOfBounds", ..., "none", or
/// "other" for anything not derived from gridblas::Error. The message goes to @p what.
inline std::string error_class(const std::function<void()>& fn, std::string* what = nullptr) {
    try {
        fn();
    } catch (const ParseError& e) {
        if (what) *what = e.what();
        return "ParseError";
    } catch (const IndexOutOfBounds& e) {
        if (what) *what = e.what();
        return "IndexOutOfBounds";
    } catch (const InvalidValue& e) {
        if (what) *what = e.what();
        return "InvalidValue";
    } catch (const NotSupported& e) {
        if (what) *what = e.what();
        return "NotSupported";
    } catch (const IoError& e) {
        if (what) *what = e.what();
        return "IoError";
    } catch (const Error& e) {
        if (what) *what = e.what();
        return "Error";
    } catch (const std::exception& e) {
        if (what) *what = e.what();
        return "other";
    }
    return "none";
}

/// True when both hold the same dimensions and the same tuples in the same order (values
/// compared bit for bit through ==, NaN equal to NaN).
template <class T>
::testing::AssertionResult same_tuples(const CooMatrix<T, gindex_t>& a,
                                       const CooMatrix<T, gindex_t>& b) {
    if (a.nrows != b.nrows || a.ncols != b.ncols)
        return ::testing::AssertionFailure()
               << "dimensions " << a.nrows << "x" << a.ncols << " vs " << b.nrows << "x" << b.ncols;
    if (a.nnz() != b.nnz())
        return ::testing::AssertionFailure() << "nnz " << a.nnz() << " vs " << b.nnz();
    for (std::size_t k = 0; k < a.nnz(); ++k) {
        if (a.rows[k] != b.rows[k] || a.cols[k] != b.cols[k])
            return ::testing::AssertionFailure()
                   << "tuple " << k << ": (" << a.rows[k] << "," << a.cols[k] << ") vs ("
                   << b.rows[k] << "," << b.cols[k] << ")";
        if constexpr (!std::is_same_v<T, Pattern>) {
            const T x = a.vals[k], y = b.vals[k];
            const bool both_nan = x != x && y != y;
            if (!(x == y) && !both_nan)
                return ::testing::AssertionFailure() << "value " << k << ": " << +x << " vs " << +y;
        }
    }
    return ::testing::AssertionSuccess();
}

}  // namespace gridblas::test
