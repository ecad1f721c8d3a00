#!/usr/bin/env bash
# mxm side by side: gridblas-mxm-bench against SuiteSparse:GraphBLAS
# (gridblas-baseline-graphblas-mxm) on the same generated Kronecker graphs (edge factor 16,
# seed 1), for a quiet machine. For each scale and product it runs, --rounds times and one
# program after the other within a round:
#   gridblas-mxm-bench  1 rank x 2 threads (grid 1x1), 2 ranks x 1 thread (1x2) and
#                       4 ranks x 1 thread (2x2, oversubscribed on 2 cores);
#   gridblas-baseline-graphblas-mxm  2 threads (when built; Debian: libgraphblas-dev).
# Products: aa (C = A*A), aat (C = A*A'), both over plus_pair, and tc (C<L> = L*U, the
# triangle-counting product, with the degree renumbering). Times are means over --trials runs
# after a warm-up. Writes bench-results/mxm-<date>/results.md (git-ignored) with the mean of
# each configuration over the rounds and its ratio to SuiteSparse.
#
# Usage: scripts/bench-mxm.sh [--scales "14 16"] [--products aa,aat,tc] [--rounds N]
#            [--trials N] [--ranks "1 2 4"] [--build-dir DIR] [--out DIR]
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
scales="14"
products="aa,aat,tc"
rounds=2
trials=3
ranks="1 2 4"
build="build/release"
out=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --scales) scales="${2:?$1 needs a value}"; shift 2 ;;
        --products) products="${2:?$1 needs a value}"; shift 2 ;;
        --rounds) rounds="${2:?$1 needs a value}"; shift 2 ;;
        --trials) trials="${2:?$1 needs a value}"; shift 2 ;;
        --ranks) ranks="${2:?$1 needs a value}"; shift 2 ;;
        --build-dir) build="${2:?$1 needs a value}"; shift 2 ;;
        --out) out="${2:?$1 needs a value}"; shift 2 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-mxm.sh: unknown option $1 (see --help)" >&2; exit 1 ;;
    esac
done
bench="$build/benchmarks/gridblas-mxm-bench"
ss="$build/benchmarks/gridblas-baseline-graphblas-mxm"
[[ -x "$bench" ]] || { echo "bench-mxm.sh: $bench not built" >&2; exit 1; }
out=${out:-bench-results/mxm-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/logs"
if [[ $(id -u) -eq 0 ]]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
over=""
mpirun --version 2>/dev/null | grep -q "Open MPI" && over="--oversubscribe"

rows="$out/rows.tsv"  # scale product program config round mean
: > "$rows"
# Appends "scale product program config round mean" for every product line of a log.
collect() {
    local scale=$1 program=$2 config=$3 round=$4 log=$5
    awk -v s="$scale" -v p="$program" -v c="$config" -v r="$round" \
        '$1 ~ /^(aa|aat|tc)$/ && $0 !~ /prod/ {
             t = (p == "suitesparse") ? $2 : $3; print s "\t" $1 "\t" p "\t" c "\t" r "\t" t }' \
        "$log" >> "$rows"
}
for scale in $scales; do
    for round in $(seq 1 "$rounds"); do
        for np in $ranks; do
            threads=1; [[ $np -eq 1 ]] && threads=2
            log="$out/logs/gridblas-s$scale-np$np-r$round.log"
            OMP_NUM_THREADS=$threads mpirun $over -np "$np" --bind-to none \
                -x OMP_NUM_THREADS "$bench" --scale "$scale" --products "$products" \
                --trials "$trials" > "$log" 2>&1
            collect "$scale" gridblas "${np}r x ${threads}t" "$round" "$log"
        done
        if [[ -x "$ss" ]]; then
            log="$out/logs/suitesparse-s$scale-r$round.log"
            "$ss" --scale "$scale" --products "$products" --trials "$trials" --threads 2 \
                > "$log" 2>&1
            collect "$scale" suitesparse "2t" "$round" "$log"
        fi
    done
done
{
    echo "# mxm side by side"
    echo
    echo "Command: scripts/bench-mxm.sh --scales \"$scales\" --products $products --rounds $rounds --trials $trials"
    echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); $(date -u +%Y-%m-%d)"
    echo
    echo "| scale | product | program | config | mean time (s) | ratio to SuiteSparse |"
    echo "| --- | --- | --- | --- | --- | --- |"
    awk -F'\t' '{ k = $1 "\t" $2 "\t" $3 "\t" $4; sum[k] += $6; n[k]++
                  if ($3 == "suitesparse") { ss[$1 "\t" $2] += $6; ssn[$1 "\t" $2]++ } }
         END { for (k in sum) { split(k, f, "\t"); m = sum[k] / n[k]; b = f[1] "\t" f[2]
                 r = (b in ss) ? sprintf("%.2f", m / (ss[b] / ssn[b])) : "-"
                 printf "| %s | %s | %s | %s | %.4f | %s |\n", f[1], f[2], f[3], f[4], m, r } }' \
        "$rows" | sort -t'|' -k2,2n -k3,3 -k4,4r -k5,5
} > "$out/results.md"
cat "$out/results.md"
