#!/usr/bin/env bash
# The SuiteSparse:GraphBLAS PageRank baseline computes what gridblas-graph pagerank computes:
# on the same generated graph, the last iteration's L1 change and the rank of vertex 0 must
# agree to a relative 1e-9 (the two sum in different orders).
set -u
mpiexec=$1
graph=$2
baseline=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ours=$("$mpiexec" -np 2 ${GRIDBLAS_MPIEXEC_OVERSUBSCRIBE-} --bind-to none "$graph" pagerank \
       --scale 10 --iterations 20 --output "$dir/pr.txt" 2>&1) ||
    { printf '%s\n' "$ours"; echo "FAIL: gridblas-graph"; exit 1; }
theirs=$("$baseline" --scale 10 --iterations 20 --trials 1 --threads 2 2>&1) ||
    { printf '%s\n' "$theirs"; echo "FAIL: the baseline"; exit 1; }
close() {  # name, ours, theirs
    echo "$1: gridblas $2, SuiteSparse $3"
    awk -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a)
                                     exit !(a != "" && b != "" && d <= 1e-9 * m) }' ||
        { echo "FAIL: $1 differs"; exit 1; }
}
close residual "$(awk '/^residual:/ {print $2}' <<<"$ours")" \
               "$(awk '/^residual:/ {print $2}' <<<"$theirs")"
close rank_0 "$(awk '$1 == 0 {print $2}' "$dir/pr.txt")" \
             "$(awk '/^rank_0:/ {print $2}' <<<"$theirs")"
echo "PASS"
