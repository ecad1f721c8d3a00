#pragma once
/// @file collective_check.hpp
/// @brief Makes a local check collective: if it fails on any rank, every rank throws the same
/// exception (the one of the lowest failing rank), so no rank is left waiting in a later
/// collective and every rank reports the same error.

#include <exception>
#include <string>
#include <utility>

#include "gridblas/comm/communicator.hpp"
#include "gridblas/core/error.hpp"

namespace gridblas::detail {

/// Which exception class a failure was; used to rethrow it on the other ranks.
enum class ErrorKind : int {
    none = 0,
    dimension_mismatch,
    index_out_of_bounds,
    invalid_value,
    parse_error,
    not_supported,
    not_compiled,
    comm_error,
    cuda_error,
    io_error,
    other
};

/// A failure captured on one rank: its kind and full message.
struct CapturedError {
    ErrorKind kind = ErrorKind::none;
    std::string message;
    bool failed() const { return kind != ErrorKind::none; }
};

/// Captures the gridblas exception in flight (call inside a catch block).
CapturedError capture_current_exception();

/// Collective over `comm`: if `local` failed on any rank, every rank throws the lowest
/// failing rank's error (message prefixed with that rank when it came from another one).
void throw_if_any_failed(comm::Communicator& comm, const CapturedError& local);

/// Runs `fn` on every rank and makes its failure collective (see throw_if_any_failed).
template <class F>
void run_collectively(comm::Communicator& comm, F&& fn) {
    CapturedError err;
    try {
        std::forward<F>(fn)();
    } catch (...) {
        err = capture_current_exception();
    }
    throw_if_any_failed(comm, err);
}

}  // namespace gridblas::detail
