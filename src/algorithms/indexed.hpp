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

/// w = u(idx): for every entry i of idx, w(i) = u(idx(i)) when u holds that entry (no entry
/// otherwise). idx's values must be indices of u. w, idx and u share one grid and length.
template <class T>
void gather_at(DistVector<T>& w, const DistVector<gindex_t>& idx, const DistVector<T>& u) {
    comm::Communicator& world = u.grid()->world();
    const Distribution& d = u.dist();
    const int p = world.size();
    // Requests grouped by owner, each group sorted and without repeats.
    std::vector<std::pair<int, gindex_t>> want;  // (owner, global index)
    std::vector<gindex_t> mine_i, mine_j;
    idx.for_each_local([&](gindex_t i, gindex_t j) {
        mine_i.push_back(i);
        mine_j.push_back(j);
        want.emplace_back(d.owner(j), j);
    });
    std::sort(want.begin(), want.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
    std::vector<gindex_t> ask(want.size());
    std::vector<int> ask_counts(std::size_t(p), 0);
    for (std::size_t k = 0; k < want.size(); ++k) {
        ask[k] = want[k].second;
        ++ask_counts[std::size_t(want[k].first)];
    }
    std::vector<gindex_t> asked;
    std::vector<int> asked_counts;
    world.alltoallv(std::span<const gindex_t>(ask), std::span<const int>(ask_counts), asked,
                    asked_counts, "gather-at");
    // Answer each request: (present, value) from this rank's piece of u.
    struct Answer {
        T val;
        char present;
    };
    std::vector<Answer> answers(asked.size());
    {
        const SparseVector<T>& s = u.sparse();
        const gindex_t begin = u.local_begin();
        for (std::size_t k = 0; k < asked.size(); ++k) {
            const auto li = lindex_t(asked[k] - begin);
            const auto it = std::lower_bound(s.indices().begin(), s.indices().end(), li);
            const bool hit = it != s.indices().end() && *it == li;
            answers[k].present = hit ? 1 : 0;
            answers[k].val = hit ? s.values()[std::size_t(it - s.indices().begin())] : T{};
        }
    }
    std::vector<Answer> got;
    std::vector<int> got_counts;
    world.alltoallv(std::span<const Answer>(answers), std::span<const int>(asked_counts), got,
                    got_counts, "gather-at");
    // got[k] answers ask[k]; look each wanted index up in the sorted request list.
    SparseVector<T> t(w.local_size());
    const gindex_t wbegin = w.local_begin();
    for (std::size_t k = 0; k < mine_i.size(); ++k) {
        const std::pair<int, gindex_t> key{d.owner(mine_j[k]), mine_j[k]};
        const auto pos =
            std::size_t(std::lower_bound(want.begin(), want.end(), key) - want.begin());
        if (got[pos].present) t.push_back(lindex_t(mine_i[k] - wbegin), got[pos].val);
    }
    w.to_format(VectorFormat::sparse);
    w.sparse() = std::move(t);
}

/// w(idx(i)) = combine(w(idx(i)), u(i)) for every index i where idx and u both hold an entry;
/// contributions to the same target are combined with each other first (combine must be
/// associative and commutative). Targets without an entry in w receive the combined value.
template <class T, class Combine>
void scatter_combine(DistVector<T>& w, const DistVector<gindex_t>& idx, const DistVector<T>& u,
                     Combine combine) {
    comm::Communicator& world = w.grid()->world();
    const Distribution& d = w.dist();
    struct Item {
        gindex_t target;
        T val;
    };
    std::vector<std::pair<int, Item>> items;
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
                const gindex_t j = si.values()[a];
                items.push_back({d.owner(j), Item{j, su.values()[b]}});
                ++a;
                ++b;
            }
        }
    }
    std::sort(items.begin(), items.end(), [](const auto& x, const auto& y) {
        return x.first != y.first ? x.first < y.first : x.second.target < y.second.target;
    });
    std::vector<Item> send;
    std::vector<int> counts(std::size_t(world.size()), 0);
    for (const auto& [owner, it] : items) {
        if (!send.empty() && counts[std::size_t(owner)] > 0 && send.back().target == it.target) {
            send.back().val = combine(send.back().val, it.val);
            continue;
        }
        send.push_back(it);
        ++counts[std::size_t(owner)];
    }
    std::vector<Item> recv;
    std::vector<int> recv_counts;
    world.alltoallv(std::span<const Item>(send), std::span<const int>(counts), recv, recv_counts,
                    "scatter-combine");
    std::sort(recv.begin(), recv.end(),
              [](const Item& x, const Item& y) { return x.target < y.target; });
    // Merge the sorted arrivals into w's sorted piece.
    const SparseVector<T>& old = w.sparse();
    SparseVector<T> t(w.local_size());
    const gindex_t begin = w.local_begin();
    std::size_t a = 0, b = 0;
    while (a < old.nvals() || b < recv.size()) {
        const lindex_t ia = a < old.nvals() ? old.indices()[a] : lindex_t(-1);
        const lindex_t ib = b < recv.size() ? lindex_t(recv[b].target - begin) : lindex_t(-1);
        if (b >= recv.size() || (a < old.nvals() && ia < ib)) {
            t.push_back(ia, old.values()[a++]);
            continue;
        }
        T v = recv[b++].val;
        while (b < recv.size() && lindex_t(recv[b].target - begin) == ib) {
            v = combine(v, recv[b++].val);
        }
        if (a < old.nvals() && ia == ib) v = combine(old.values()[a++], v);
        t.push_back(ib, v);
    }
    w.sparse() = std::move(t);
}

}  // namespace gridblas::detail
