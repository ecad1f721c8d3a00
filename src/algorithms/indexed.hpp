#pragma once
// Indexed vector operations that the algorithms need and the public operations do not have
// yet (GrB_Vector_extract and GrB_Vector_assign with an index list taken from a vector):
//  - gather_at(w, idx, u):        w(i) = u(idx(i)) for every entry i of idx;
//  - scatter_combine(w, idx, u):  w(idx(i)) = combine(w(idx(i)), u(i)) for every entry i
//                                 present in both idx and u (duplicates combined too).
// Both route requests to the owners of the addressed entries with one alltoallv over the
// grid's world communicator (two for gather_at: request, then answer), so they run on any grid
// shape. Collective. A public indexed extract/assign can replace them when it lands.

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/vector/dist_vector.hpp"
#include "gridblas/vector/sparse_vector.hpp"

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

/// w = u(idx): for every entry i of idx, w(i) = u(idx(i)) when u holds that entry (no entry
/// otherwise). idx's values must be indices of u. w, idx and u share one grid and length.
/// Every request travels to the owner of u(idx(i)) and its answer comes back to the same
/// slot, so no sort is needed.
template <class T>
void gather_at(DistVector<T>& w, const DistVector<gindex_t>& idx, const DistVector<T>& u) {
    comm::Communicator& world = u.grid()->world();
    const Distribution& d = u.dist();
    std::vector<gindex_t> mine_i, mine_j;
    idx.for_each_local([&](gindex_t i, gindex_t j) {
        mine_i.push_back(i);
        mine_j.push_back(j);
    });
    std::vector<std::size_t> slot;
    std::vector<int> ask_counts;
    group_slots(
        mine_j.size(), world.size(), [&](std::size_t k) { return d.owner(mine_j[k]); }, slot,
        ask_counts);
    std::vector<gindex_t> ask(mine_j.size());
    for (std::size_t k = 0; k < mine_j.size(); ++k) ask[slot[k]] = mine_j[k];
    std::vector<gindex_t> asked;
    std::vector<int> asked_counts;
    world.alltoallv(std::span<const gindex_t>(ask), std::span<const int>(ask_counts), asked,
                    asked_counts, "gather-at");
    // Answer each request: (present, value) from this rank's piece of u, read densely.
    struct Answer {
        T val;
        char present;
    };
    std::vector<Answer> answers(asked.size());
    {
        const gindex_t begin = u.local_begin();
        std::vector<T> val(u.local_size());
        std::vector<char> has(u.local_size(), 0);
        u.for_each_local([&](gindex_t g, const T& x) {
            val[std::size_t(g - begin)] = x;
            has[std::size_t(g - begin)] = 1;
        });
        for (std::size_t k = 0; k < asked.size(); ++k) {
            const auto li = std::size_t(asked[k] - begin);
            answers[k].present = has[li];
            answers[k].val = has[li] ? val[li] : T{};
        }
    }
    std::vector<Answer> got;
    std::vector<int> got_counts;
    world.alltoallv(std::span<const Answer>(answers), std::span<const int>(asked_counts), got,
                    got_counts, "gather-at");
    SparseVector<T> t(w.local_size());
    const gindex_t wbegin = w.local_begin();
    for (std::size_t k = 0; k < mine_i.size(); ++k) {
        const Answer& a = got[slot[k]];
        if (a.present) t.push_back(lindex_t(mine_i[k] - wbegin), a.val);
    }
    w.to_format(VectorFormat::sparse);
    w.sparse() = std::move(t);
}

/// w(idx(i)) = combine(w(idx(i)), u(i)) for every index i where idx and u both hold an entry;
/// contributions to the same target are combined with each other (combine must be
/// associative and commutative). Targets without an entry in w receive the combined value.
/// Contributions go to their owners grouped by a counting sort and are folded there into a
/// dense accumulator over the piece.
template <class T, class Combine>
void scatter_combine(DistVector<T>& w, const DistVector<gindex_t>& idx, const DistVector<T>& u,
                     Combine combine) {
    comm::Communicator& world = w.grid()->world();
    const Distribution& d = w.dist();
    struct Item {
        gindex_t target;
        T val;
    };
    std::vector<Item> items;
    {
        const SparseVector<gindex_t>& si = idx.sparse();
        const SparseVector<T>& su = u.sparse();
        std::size_t a = 0, b = 0;
        while (a < si.nvals() && b < su.nvals()) {
            if (si.indices()[a] < su.indices()[b]) {
                ++a;
            } else if (su.indices()[b] < si.indices()[a]) {
                ++b;
            } else {
                items.push_back(Item{si.values()[a], su.values()[b]});
                ++a;
                ++b;
            }
        }
    }
    std::vector<std::size_t> slot;
    std::vector<int> counts;
    group_slots(
        items.size(), world.size(), [&](std::size_t k) { return d.owner(items[k].target); }, slot,
        counts);
    std::vector<Item> send(items.size());
    for (std::size_t k = 0; k < items.size(); ++k) send[slot[k]] = items[k];
    std::vector<Item> recv;
    std::vector<int> recv_counts;
    world.alltoallv(std::span<const Item>(send), std::span<const int>(counts), recv, recv_counts,
                    "scatter-combine");
    // Fold w's piece and the arrivals into dense arrays, then write the piece back in order.
    const gindex_t begin = w.local_begin();
    std::vector<T> val(w.local_size());
    std::vector<char> has(w.local_size(), 0);
    w.for_each_local([&](gindex_t g, const T& x) {
        val[std::size_t(g - begin)] = x;
        has[std::size_t(g - begin)] = 1;
    });
    for (const Item& it : recv) {
        const auto li = std::size_t(it.target - begin);
        val[li] = has[li] ? combine(val[li], it.val) : it.val;
        has[li] = 1;
    }
    SparseVector<T> t(w.local_size());
    for (std::size_t li = 0; li < val.size(); ++li) {
        if (has[li]) t.push_back(lindex_t(li), val[li]);
    }
    w.to_format(VectorFormat::sparse);
    w.sparse() = std::move(t);
}

}  // namespace gridblas::detail
