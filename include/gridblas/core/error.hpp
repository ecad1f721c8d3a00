#pragma once
/// @file error.hpp
/// @brief The exception hierarchy of gridblas. The library reports every failure by throwing
/// one of these; it never calls exit() or abort().

#include <stdexcept>
#include <string>

namespace gridblas {

/// Base class of every gridblas exception.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& what) : std::runtime_error(what) {}
};

/// Operand sizes do not agree (e.g. vxm with u.size() != A.nrows()).
class DimensionMismatch : public Error {
public:
    explicit DimensionMismatch(const std::string& what) : Error("dimension mismatch: " + what) {}
};

/// An index lies outside the object's dimensions.
class IndexOutOfBounds : public Error {
public:
    explicit IndexOutOfBounds(const std::string& what) : Error("index out of bounds: " + what) {}
};

/// An argument has a value the operation cannot accept (duplicate entry, bad option, ...).
class InvalidValue : public Error {
public:
    explicit InvalidValue(const std::string& what) : Error("invalid value: " + what) {}
};

/// Input text (Matrix Market, edge list, command line) could not be parsed.
class ParseError : public Error {
public:
    explicit ParseError(const std::string& what) : Error("parse error: " + what) {}
};

/// The request is well formed but this feature is not supported (complex values, a
/// user-defined semiring on CUDA, ...).
class NotSupported : public Error {
public:
    explicit NotSupported(const std::string& what) : Error("not supported: " + what) {}
};

/// The feature was not compiled into this build (e.g. the CUDA backend).
class NotCompiled : public Error {
public:
    explicit NotCompiled(const std::string& what) : Error("not compiled: " + what) {}
};

/// An MPI call or a communication backend failed.
class CommError : public Error {
public:
    explicit CommError(const std::string& what) : Error("communication error: " + what) {}
};

/// A CUDA runtime, cuSPARSE or device-side failure.
class CudaError : public Error {
public:
    explicit CudaError(const std::string& what) : Error("CUDA error: " + what) {}
};

/// A file could not be opened, read or written.
class IoError : public Error {
public:
    explicit IoError(const std::string& what) : Error("I/O error: " + what) {}
};

}  // namespace gridblas
