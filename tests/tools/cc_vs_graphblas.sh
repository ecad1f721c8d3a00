#!/usr/bin/env bash
# The SuiteSparse:GraphBLAS FastSV baseline finds the components gridblas-graph cc finds:
# every vertex's component id (the smallest vertex id of its component) must be the same, on
# karate (one component), west0067 (a general file: both symmetrise it), zenios (1391
# components, many isolated vertices), LFAT5_two (6) and a small file with self-loops and
# repeated entries.
source "$(dirname "${BASH_SOURCE[0]}")/graphblas_vs_common.sh"
printf '%s\n' '%%MatrixMarket matrix coordinate pattern general' '9 9 8' \
    '2 1' '3 3' '3 2' '1 2' '5 7' '7 5' '9 8' '9 9' > "$dir/small.mtx"
vs karate 0 cc "$data/karate.mtx"
vs west0067 0 cc "$data/west0067.mtx"
vs zenios 0 cc "$data/zenios.mtx"
vs LFAT5_two 0 cc "$data/LFAT5_two.mtx"
vs small 0 cc "$dir/small.mtx"
echo "PASS"
