// Collective error agreement: a failure detected on some ranks is rethrown on all of them.

#include "gridblas/core/collective_check.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace gridblas::detail {

CapturedError capture_current_exception() {
    CapturedError e;
    try {
        throw;
    } catch (const DimensionMismatch& x) {
        e = {ErrorKind::dimension_mismatch, x.what()};
    } catch (const IndexOutOfBounds& x) {
        e = {ErrorKind::index_out_of_bounds, x.what()};
    } catch (const InvalidValue& x) {
        e = {ErrorKind::invalid_value, x.what()};
    } catch (const ParseError& x) {
        e = {ErrorKind::parse_error, x.what()};
    } catch (const NotSupported& x) {
        e = {ErrorKind::not_supported, x.what()};
    } catch (const NotCompiled& x) {
        e = {ErrorKind::not_compiled, x.what()};
    } catch (const CommError& x) {
        e = {ErrorKind::comm_error, x.what()};
    } catch (const CudaError& x) {
        e = {ErrorKind::cuda_error, x.what()};
    } catch (const IoError& x) {
        e = {ErrorKind::io_error, x.what()};
    } catch (const std::exception& x) {
        e = {ErrorKind::other, x.what()};
    } catch (...) {
        e = {ErrorKind::other, "unknown exception"};
    }
    return e;
}

namespace {

// Strips the class prefix ("parse error: ") that the exception constructors add, so that
// rethrowing does not repeat it.
std::string strip_prefix(const std::string& msg) {
    const auto pos = msg.find(": ");
    return pos == std::string::npos ? msg : msg.substr(pos + 2);
}

[[noreturn]] void rethrow(ErrorKind kind, const std::string& full) {
    const std::string m = strip_prefix(full);
    switch (kind) {
        case ErrorKind::dimension_mismatch:
            throw DimensionMismatch(m);
        case ErrorKind::index_out_of_bounds:
            throw IndexOutOfBounds(m);
        case ErrorKind::invalid_value:
            throw InvalidValue(m);
        case ErrorKind::parse_error:
            throw ParseError(m);
        case ErrorKind::not_supported:
            throw NotSupported(m);
        case ErrorKind::not_compiled:
            throw NotCompiled(m);
        case ErrorKind::comm_error:
            throw CommError(m);
        case ErrorKind::cuda_error:
            throw CudaError(m);
        case ErrorKind::io_error:
            throw IoError(m);
        default:
            throw Error(full);
    }
}

}  // namespace

void throw_if_any_failed(comm::Communicator& comm, const CapturedError& local) {
    const int me = comm.rank();
    const int first =
        comm.allreduce(local.failed() ? me : comm.size(), comm::ReduceOp::min, "error-agreement");
    if (first == comm.size()) return;
    // The first failing rank tells everyone what went wrong.
    std::int64_t head[2] = {std::int64_t(local.kind), std::int64_t(local.message.size())};
    comm.broadcast(std::span<std::int64_t>(head, 2), first, "error-agreement");
    std::vector<char> text(static_cast<std::size_t>(head[1]));
    if (me == first) text.assign(local.message.begin(), local.message.end());
    comm.broadcast(std::span<char>(text), first, "error-agreement");
    std::string msg(text.begin(), text.end());
    rethrow(ErrorKind(head[0]), msg);
}

}  // namespace gridblas::detail
