#!/usr/bin/env bash
# Sourced by the *_vs_graphblas.sh scripts, which compare a SuiteSparse:GraphBLAS baseline
# with gridblas-graph vertex by vertex. Their arguments: MPIEXEC GRIDBLAS-GRAPH BASELINE
# [DATA-DIR] (default: tests/data/lagraph of this checkout).
set -u
mpiexec=$1
graph=$2
baseline=$3
data=${4:-$(dirname "${BASH_SOURCE[0]}")/../data/lagraph}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
graph_extra=()  # arguments for gridblas-graph only

# vs NAME TOL ALGO FILE [ARGS...]: gridblas-graph ALGO on 2 ranks and the baseline (2 threads)
# on FILE with ARGS, each writing --output; every vertex's value must be equal (TOL 0: the
# same number) or within TOL relative; inf only equals inf. Exits with FAIL otherwise.
vs() {
    local name=$1 tol=$2 algo=$3 file=$4 ours theirs
    shift 4
    ours=$("$mpiexec" -np 2 ${GRIDBLAS_MPIEXEC_OVERSUBSCRIBE-} --bind-to none "$graph" "$algo" \
           --file "$file" "$@" "${graph_extra[@]}" --output "$dir/ours.txt" 2>&1) ||
        { printf '%s\n' "$ours"; echo "FAIL: gridblas-graph on $name"; exit 1; }
    theirs=$("$baseline" --file "$file" "$@" --trials 1 --threads 2 \
             --output "$dir/theirs.txt" 2>&1) ||
        { printf '%s\n' "$theirs"; echo "FAIL: the baseline on $name"; exit 1; }
    awk -v name="$name" -v tol="$tol" '
        function abs(x) { return x < 0 ? -x : x }
        function differ(v, x, y) {
            bad++
            if (bad <= 5) print name ": vertex " v ": gridblas " x ", SuiteSparse " y
        }
        NR == FNR { a[$1] = $2; n++; next }
        {
            m++
            x = ($1 in a) ? a[$1] : "(none)"; y = $2
            if (x == "(none)" || x ~ /inf/ || y ~ /inf/) {  # as text; mawk reads "inf" as a number
                if (x "" != y "") differ($1, x, y)
                next
            }
            if (x + 0 == y + 0) next
            e = abs(x - y) / (abs(x) > abs(y) ? abs(x) : abs(y))
            if (e > worst) worst = e
            if (e > tol) differ($1, x, y)
        }
        END {
            if (m != n) { print name ": " n " vertices from gridblas, " m " from SuiteSparse"; bad++ }
            printf "%s: %d vertices, largest relative difference %g\n", name, m, worst
            exit bad > 0
        }' "$dir/ours.txt" "$dir/theirs.txt" || { echo "FAIL: $name differs"; exit 1; }
}
