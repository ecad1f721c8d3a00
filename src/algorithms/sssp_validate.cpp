// validate_sssp: the shortest-path rules of Graph500 kernel 3, distributed over the grid.
// Each rank gathers the distances of its block's rows (along the grid row) and the distances
// and parents of its block's columns (along the grid column), then checks its own edges:
//  - no edge u -> v relaxes further: d(u) + w <= d(v) (an unreached v with a reached u fails);
//  - the edge parent(v) -> v, if stored here, is a witness when d(parent) + w = d(v) (for a
//    result without parents, any edge u -> v with d(u) + w = d(v) is).
// Witnesses are combined along the grid column; the owner of v then checks that every
// reached v other than the source has one.

#include <cmath>
#include <limits>
#include <sstream>

#include "algorithms/algo_checks.hpp"
#include "gridblas/algorithms/sssp.hpp"
#include "gridblas/core/collective_check.hpp"

namespace gridblas {

std::string SsspValidation::summary() const {
    if (ok()) return "valid";
    std::ostringstream s;
    s << "invalid SSSP:";
    if (bad_source) s << " source not at distance 0 as its own parent (" << bad_source << ");";
    if (inconsistent) s << " distance and parent disagree on reached (" << inconsistent << ");";
    if (bad_parent) s << " no parent edge gives the distance (" << bad_parent << ");";
    if (edge_relaxes) s << " an edge relaxes a distance further (" << edge_relaxes << ");";
    return s.str();
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool close(double x, double y) {
    if (!std::isfinite(y)) return x == y;
    return std::abs(x - y) <= 1e-12 * std::max(1.0, std::abs(y));
}

/// Gathers one value per vertex of this rank's piece along `c` into a block-indexed array:
/// the piece of the communicator's rank q lands at q * nb.
template <class T>
std::vector<T> gather_block(comm::Communicator& c, const std::vector<T>& piece, gindex_t nb,
                            const T& fill, const char* site) {
    std::vector<T> all;
    std::vector<int> counts;
    c.allgatherv(std::span<const T>(piece), all, counts, site);
    std::vector<T> out(std::size_t(nb) * std::size_t(c.size()), fill);
    std::size_t at = 0;
    for (int q = 0; q < c.size(); ++q) {
        for (int k = 0; k < counts[std::size_t(q)]; ++k) {
            out[std::size_t(q) * std::size_t(nb) + std::size_t(k)] = all[at++];
        }
    }
    return out;
}

/// The checks for weights of type W: d(u) + w is formed in W's arithmetic, as the search
/// formed it (the distances of a float search are floats held in doubles).
template <class W>
SsspValidation validate_impl(const DistMatrix<W>& a, const SsspResult& r) {
    detail::check_graph_algorithm(a, "validate_sssp");
    ProcessGrid& grid = *a.grid();
    DistVector<Pattern> shape(a.grid(), a.nrows());
    const bool parents = r.has_parents;
    // Every rank must hold the same kind of result (the parents are gathered below).
    int kinds[2] = {parents ? 1 : 0, parents ? 0 : 1};
    grid.world().allreduce(std::span<int>(kinds, 2), comm::ReduceOp::max, "sssp-check");
    if (kinds[0] == 1 && kinds[1] == 1) {
        throw InvalidValue("validate_sssp: the result has parents on some ranks only");
    }
    if (r.distance.size() != shape.local_size() ||
        r.parent.size() != (parents ? shape.local_size() : 0) ||
        r.local_begin != shape.local_begin() || r.dist.length != a.nrows()) {
        // Sizes may differ on some ranks only: agree before throwing.
        detail::run_collectively(grid.world(), [] {
            throw DimensionMismatch(
                "validate_sssp: the result does not match the graph's vertex distribution");
        });
    } else {
        detail::run_collectively(grid.world(), [] {});
    }
    const Distribution& d = a.row_dist();
    const gindex_t nb = d.nb;
    const std::vector<double> drow = gather_block(grid.row(), r.distance, nb, kInf, "sssp-check");
    const std::vector<double> dcol = gather_block(grid.col(), r.distance, nb, kInf, "sssp-check");
    const std::vector<gindex_t> pcol =
        parents ? gather_block(grid.col(), r.parent, nb, gindex_t(-1), "sssp-check")
                : std::vector<gindex_t>(dcol.size(), -1);

    std::uint64_t local[4] = {0, 0, 0, 0};  // bad_source, inconsistent, bad_parent, relaxes
    std::vector<int> witness(dcol.size(), 0);
    const int gi = grid.my_row();
    a.by_row().for_each([&](lindex_t row, lindex_t col, const W& w) {
        const double du = drow[row];
        const double dv = dcol[col];
        if (du == kInf) return;
        const double via = double(W(W(du) + w));
        if (via < dv && !close(via, dv)) ++local[3];
        if ((!parents || pcol[col] == d.global_row(gi, row)) && close(via, dv)) witness[col] = 1;
    });
    grid.col().allreduce(std::span<int>(witness), comm::ReduceOp::max, "sssp-check");

    // Own piece: local index k is block column my_row * nb + k.
    const std::size_t off = std::size_t(gi) * std::size_t(nb);
    for (std::size_t k = 0; k < r.distance.size(); ++k) {
        const gindex_t v = r.local_begin + gindex_t(k);
        const bool reached = r.distance[k] != kInf;
        if (parents && reached != (r.parent[k] >= 0)) {
            ++local[1];
            continue;
        }
        if (v == r.source) {
            if (r.distance[k] != 0.0 || (parents && r.parent[k] != v)) ++local[0];
            continue;
        }
        if (reached && !witness[off + k]) ++local[2];
    }
    grid.world().allreduce(std::span<std::uint64_t>(local, 4), comm::ReduceOp::sum, "sssp-check");
    SsspValidation out;
    out.bad_source = local[0];
    out.inconsistent = local[1];
    out.bad_parent = local[2];
    out.edge_relaxes = local[3];
    return out;
}

}  // namespace

SsspValidation validate_sssp(const DistMatrix<double>& a, const SsspResult& r) {
    return validate_impl(a, r);
}

SsspValidation validate_sssp(const DistMatrix<float>& a, const SsspResult& r) {
    return validate_impl(a, r);
}

}  // namespace gridblas
