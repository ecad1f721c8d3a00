#pragma once
// Argument checks shared by the algorithms in this folder. Each uses only facts every rank
// shares (sizes, the grid's backend, the matrix's relabelling), so every rank throws alike,
// before any communication.

#include <string>
#include <vector>

#include "gridblas/core/error.hpp"
#include "gridblas/matrix/dist_matrix.hpp"
#include "gridblas/vector/dist_vector.hpp"

namespace gridblas::detail {

/// The common checks of a graph algorithm: square matrix, CPU backend, stored unrelabelled.
template <class T>
void check_graph_algorithm(const DistMatrix<T>& a, const char* name) {
    if (!a.grid()) throw InvalidValue(std::string(name) + ": the matrix is uninitialised");
    if (a.grid()->exec_backend() == ExecBackend::cuda) {
        throw NotSupported(std::string(name) +
                           " runs on the cpu backend only; this grid's exec_backend() is cuda");
    }
    if (a.nrows() != a.ncols()) {
        throw DimensionMismatch(std::string(name) + ": the adjacency matrix must be square, not " +
                                std::to_string(a.nrows()) + " x " + std::to_string(a.ncols()));
    }
    if (a.relabel() != nullptr) {
        throw NotSupported(std::string(name) +
                           ": the matrix is stored relabelled; build it without relabel");
    }
}

/// This rank's piece of u as a dense array, `missing` where u has no entry.
template <class T>
std::vector<T> dense_piece(const DistVector<T>& u, const T& missing) {
    std::vector<T> out(u.local_size(), missing);
    u.for_each_local([&](gindex_t g, const T& x) { out[std::size_t(g - u.local_begin())] = x; });
    return out;
}

}  // namespace gridblas::detail
