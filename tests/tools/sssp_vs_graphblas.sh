#!/usr/bin/env bash
# The SuiteSparse:GraphBLAS delta-stepping baseline computes gridblas-graph sssp's distances
# (--no-parents: "vertex distance", inf where unreached): exactly equal on integer weights,
# within a relative 1e-9 on real ones; on the LDBC examples (real weights; directed: some
# vertices unreached), karate (pattern: weight 1), a small integer file with self-loops,
# repeated entries (the smallest weight counts) and an isolated vertex, at several deltas.
source "$(dirname "${BASH_SOURCE[0]}")/graphblas_vs_common.sh"
graph_extra=(--no-parents)
printf '%s\n' '%%MatrixMarket matrix coordinate integer general' '7 7 9' \
    '1 2 5' '2 1 3' '2 3 4' '3 3 9' '1 3 10' '1 2 7' '3 4 250' '4 5 1' '5 4 2' > "$dir/small.mtx"
vs ldbc-undirected 1e-9 sssp "$data/ldbc-undirected-example.mtx" --source 0
vs ldbc-directed 1e-9 sssp "$data/ldbc-directed-example.mtx" --source 1 --directed
vs ldbc-directed-delta 1e-9 sssp "$data/ldbc-directed-example.mtx" --source 1 --delta 0.05
vs karate 0 sssp "$data/karate.mtx" --source 5
vs small 0 sssp "$dir/small.mtx" --source 0
vs small-delta-2 0 sssp "$dir/small.mtx" --source 1 --delta 2
vs small-delta-inf 0 sssp "$dir/small.mtx" --source 3 --delta inf
echo "PASS"
