#pragma once
/// @file arg_checks.hpp
/// @brief Argument checks shared by the element-wise operations (ewise, assign, apply,
/// select): every operand must be an initialised vector on the output's process grid with
/// the output's length. The checks use only what every rank knows alike (grids and lengths),
/// so each rank throws the same exception without communicating, before any collective and
/// before anything is changed — the "API error" rule of the GraphBLAS C API 2.1 (§2.6).
///
/// Objects on different grids are rejected even when the grids have the same shape: two
/// grids may number their ranks differently, so their pieces need not coincide.

#include <string>
#include <type_traits>

#include "gridblas/core/error.hpp"
#include "gridblas/ops/descriptor.hpp"
#include "gridblas/ops/output_stage.hpp"
#include "gridblas/vector/dist_vector.hpp"

namespace gridblas::detail {

/// True for DistVector<T>.
template <class X>
struct is_dist_vector : std::false_type {};
template <class T>
struct is_dist_vector<DistVector<T>> : std::true_type {};

/// A mask argument is no_mask or a distributed vector.
template <class Mask>
inline constexpr bool is_mask_v = std::is_same_v<Mask, NoMask> || is_dist_vector<Mask>::value;

/// Throws InvalidValue when `x` was default-constructed (it has no grid).
template <class T>
void check_initialised(const char* op, const char* name, const DistVector<T>& x) {
    if (!x.grid()) {
        throw InvalidValue(std::string(op) + ": " + name +
                           " is an uninitialised vector (it has no process grid)");
    }
}

/// Checks that `x` (called `name`) may be combined with the output `w`: same grid
/// (InvalidValue otherwise) and same length (DimensionMismatch otherwise).
template <class W, class T>
void check_conformant(const char* op, const DistVector<W>& w, const char* name,
                      const DistVector<T>& x) {
    check_initialised(op, name, x);
    if (x.grid() != w.grid()) {
        throw InvalidValue(std::string(op) + ": w and " + name +
                           " live on different process grids");
    }
    if (x.size() != w.size()) {
        throw DimensionMismatch(std::string(op) + ": w has size " + std::to_string(w.size()) +
                                " but " + name + " has size " + std::to_string(x.size()));
    }
}

/// Checks the mask (nothing to check for no_mask).
template <class W, class Mask>
void check_mask(const char* op, const DistVector<W>& w, const Mask& mask) {
    static_assert(is_mask_v<Mask>, "a mask is gridblas::no_mask or a DistVector");
    if constexpr (!std::is_same_v<Mask, NoMask>) check_conformant(op, w, "mask", mask);
}

/// Puts the output and the inputs in sparse form; call it before building the LocalMask.
/// LocalMask uses a structural bitmap mask in place, so if the mask is also w or an input
/// (legal aliasing), converting that object afterwards would free the bits the mask points
/// to. Converted first, such a mask is sparse and LocalMask takes a copy of its bits.
template <class W, class... In>
void to_sparse_first(DistVector<W>& w, const In&... inputs) {
    w.sparse();
    (inputs.sparse(), ...);
}

}  // namespace gridblas::detail
