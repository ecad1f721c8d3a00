#pragma once
// Indexed operations on full vectors that the algorithms need and the public operations do
// not have yet (GrB_Vector_extract and GrB_Vector_assign with an index list taken from a
// vector), on vectors held as plain arrays over each rank's piece:
//  - gather_dense(w, idx, u):                 w[k] = u(idx[k]);
//  - scatter_combine_dense(u, idx, vals, c):  u(idx[k]) = c(u(idx[k]), vals[k]).
// Both route requests to the owners of the addressed entries with alltoallv over the grid's
// world communicator (two for gather_dense: request, then answer), so they run on any grid
// shape; with one rank they are local loops. Collective.

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "gridblas/comm/communicator.hpp"
#include "gridblas/core/distribution.hpp"
#include "gridblas/core/types.hpp"

namespace gridblas::detail {

/// Places the items k = 0..n-1 in groups by destination rank: `order[k]` is item k's slot in
/// the send buffer and `counts[r]` the size of group r (a counting sort: O(n + p), stable).
template <class OwnerOf>
void group_slots(std::size_t n, int p, OwnerOf owner_of, std::vector<std::size_t>& order,
                 std::vector<int>& counts) {
    counts.assign(std::size_t(p), 0);
    std::vector<int> owner(n);
    for (std::size_t k = 0; k < n; ++k) {
        owner[k] = owner_of(k);
        ++counts[std::size_t(owner[k])];
    }
    std::vector<std::size_t> at(std::size_t(p), 0);
    for (int r = 1; r < p; ++r)
        at[std::size_t(r)] = at[std::size_t(r - 1)] + counts[std::size_t(r - 1)];
    order.resize(n);
    for (std::size_t k = 0; k < n; ++k) order[k] = at[std::size_t(owner[k])]++;
}

/// w[k] = u(idx[k]) for every k: `idx` holds global indices into the vector whose pieces are
/// `u` (this rank's piece starts at `begin`; distribution `d`). Collective over `world`.
template <class T>
void gather_dense(std::vector<T>& w, const std::vector<gindex_t>& idx, const std::vector<T>& u,
                  const Distribution& d, gindex_t begin, comm::Communicator& world) {
    w.resize(idx.size());
    if (world.size() == 1) {
        for (std::size_t k = 0; k < idx.size(); ++k) w[k] = u[std::size_t(idx[k] - begin)];
        return;
    }
    std::vector<std::size_t> slot;
    std::vector<int> counts;
    group_slots(
        idx.size(), world.size(), [&](std::size_t k) { return d.owner(idx[k]); }, slot, counts);
    std::vector<gindex_t> ask(idx.size());
    for (std::size_t k = 0; k < idx.size(); ++k) ask[slot[k]] = idx[k];
    std::vector<gindex_t> asked;
    std::vector<int> asked_counts;
    world.alltoallv(std::span<const gindex_t>(ask), std::span<const int>(counts), asked,
                    asked_counts, "gather-dense");
    std::vector<T> answers(asked.size());
    for (std::size_t k = 0; k < asked.size(); ++k) answers[k] = u[std::size_t(asked[k] - begin)];
    std::vector<T> got;
    std::vector<int> got_counts;
    world.alltoallv(std::span<const T>(answers), std::span<const int>(asked_counts), got,
                    got_counts, "gather-dense");
    for (std::size_t k = 0; k < idx.size(); ++k) w[k] = got[slot[k]];
}

/// u(idx[k]) = combine(u(idx[k]), vals[k]) for every k (in any order: combine must be
/// associative and commutative), `u` this rank's piece of a full vector (as gather_dense).
/// Collective over `world`.
template <class T, class Combine>
void scatter_combine_dense(std::vector<T>& u, const std::vector<gindex_t>& idx,
                           const std::vector<T>& vals, Combine combine, const Distribution& d,
                           gindex_t begin, comm::Communicator& world) {
    if (world.size() == 1) {
        for (std::size_t k = 0; k < idx.size(); ++k) {
            T& x = u[std::size_t(idx[k] - begin)];
            x = combine(x, vals[k]);
        }
        return;
    }
    struct Item {
        gindex_t target;
        T val;
    };
    std::vector<std::size_t> slot;
    std::vector<int> counts;
    group_slots(
        idx.size(), world.size(), [&](std::size_t k) { return d.owner(idx[k]); }, slot, counts);
    std::vector<Item> send(idx.size());
    for (std::size_t k = 0; k < idx.size(); ++k) send[slot[k]] = Item{idx[k], vals[k]};
    std::vector<Item> recv;
    std::vector<int> recv_counts;
    world.alltoallv(std::span<const Item>(send), std::span<const int>(counts), recv, recv_counts,
                    "scatter-combine-dense");
    for (const Item& it : recv) {
        T& x = u[std::size_t(it.target - begin)];
        x = combine(x, it.val);
    }
}

}  // namespace gridblas::detail
