#pragma once
// Internals of connected_components(): the sampling variant (connected_components_sampled.cpp)
// and FastSV over an explicit edge list (cc_edge_fastsv.cpp), which the sampling variant uses
// to join the forests that the ranks grow on their own blocks.

#include <cstdint>
#include <vector>

#include "gridblas/algorithms/connected_components.hpp"
#include "gridblas/comm/communicator.hpp"
#include "gridblas/core/distribution.hpp"
#include "gridblas/core/types.hpp"

namespace gridblas::detail {

/// FastSV (the hooking, shortcutting and grandparent steps of connected_components.hpp) over
/// the edges {ends[ea[k]], ends[eb[k]]} that this rank holds, instead of a matrix. `f` is this
/// rank's piece of the parent array (vertex begin + k at index k); every end must be a root
/// (f(v) == v) on entry. Only the ends (on any rank) are read or written: at return each of
/// them points at the smallest vertex of its component in the graph of all ranks' edges;
/// other entries keep their values. `ends` holds distinct global ids. Returns the
/// iterations (1: nothing changed). Collective over `world`.
int edge_list_fastsv(std::vector<gindex_t>& f, const std::vector<gindex_t>& ends,
                     const std::vector<std::uint32_t>& ea, const std::vector<std::uint32_t>& eb,
                     const Distribution& d, gindex_t begin, comm::Communicator& world);

/// The result from this rank's labels `f` (vertex begin + k at index k): components counted
/// as the labels that are their own vertex, the time since `t0`. Collective over `world`.
CcResult finish_cc_result(const DistMatrix<Pattern>& a, gindex_t begin, std::vector<gindex_t>&& f,
                          int iterations, double t0, comm::Communicator& world);

/// connected_components() with subgraph sampling (options.sample_neighbors > 0); the
/// argument checks are done. `t0` is the start time.
CcResult connected_components_sampled(const DistMatrix<Pattern>& a, const CcOptions& options,
                                      double t0);

}  // namespace gridblas::detail
