#!/usr/bin/env bash
# Graph algorithms side by side on one graph file, for a quiet machine: gridblas-graph against
# GapBS (when a GapBS source tree is given: GAPBS_DIR=path or --gapbs path; it is copied and
# built with make) on the Kronecker graph of `gridblas-bfs --scale S` (edge factor 16, seed
# 1), written once as a Matrix Market file by gridblas-kron. For each algorithm and round,
# one program after the other:
#   gridblas-graph ALGO --file F   1 rank x 2 threads and 2 ranks x 1 thread (1x2);
#   GapBS          tc | cc | pr | bc | sssp -f F -s, 2 threads;
#   SuiteSparse:GraphBLAS (the gridblas-baseline-graphblas-* programs that were built: the
#                  methods written with GraphBLAS calls, as LAGraph has no Debian package):
#                  tc (the whole Sandia LUT count, renumbered by degree as gridblas does),
#                  cc (FastSV), bc (batched Brandes, gridblas' 4 sources) and sssp (delta-
#                  stepping, distances only, in both sssp rows) on F or its weighted copy, as
#                  GapBS; pagerank on the generated graph the file holds; 2 threads.
# Workloads: tc (whole count, gridblas with its degree ordering; GapBS with its own
# relabelling heuristic), cc (gridblas subgraph sampling, GapBS Afforest), pagerank (20 iterations, no
# early stop: gridblas --iterations 20 --tolerance 0, GapBS pr -i 20 -t 0), bc (4 sources:
# gridblas --sources of 4 vertices, GapBS bc -i 4 with its own random sources), sssp (from
# vertex 1 on a copy of F with integer weights uniform in [1, 255] (seeded), which both read;
# each with its default delta; gridblas with --weights float, 4-byte weights and distances as
# GapBS's 32-bit integers (every sum is exact in float), and with parents; sssp-dist: the same
# with gridblas --no-parents, distances only, which is all GapBS's sssp computes; sssp-double:
# gridblas' default 8-byte weights, with parents, not run unless named). Times are each
# program's own mean over --trials runs. Writes bench-results/algo-<date>/results.md
# (git-ignored). The mxm-based products against SuiteSparse:GraphBLAS are in bench-mxm.sh.
#
# Usage: scripts/bench-algorithms.sh [--scale S] [--rounds N] [--trials N]
#            [--algos "tc cc pagerank bc sssp sssp-dist [sssp-double]"] [--gapbs DIR]
#            [--build-dir DIR]
#            [--out DIR]
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bench-common.sh
scale=18
rounds=2
trials=3
algos="tc cc pagerank bc sssp sssp-dist"
gapbs_src=${GAPBS_DIR:-}
build="build/release"
out=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --scale) scale="${2:?$1 needs a value}"; shift 2 ;;
        --rounds) rounds="${2:?$1 needs a value}"; shift 2 ;;
        --trials) trials="${2:?$1 needs a value}"; shift 2 ;;
        --algos) algos="${2:?$1 needs a value}"; shift 2 ;;
        --gapbs) gapbs_src="${2:?$1 needs a value}"; shift 2 ;;
        --build-dir) build="${2:?$1 needs a value}"; shift 2 ;;
        --out) out="${2:?$1 needs a value}"; shift 2 ;;
        -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-algorithms.sh: unknown option $1 (see --help)" >&2; exit 1 ;;
    esac
done
graph_bin="$build/benchmarks/gridblas-graph"
kron="$build/benchmarks/gridblas-kron"
[[ -x "$graph_bin" && -x "$kron" ]] || { echo "bench-algorithms.sh: build $build first" >&2; exit 1; }
out=${out:-bench-results/algo-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/logs"
bench_allow_root
over=""
mpirun --version 2>/dev/null | grep -q "Open MPI" && over="--oversubscribe"

gapbs=""
if [[ -n "$gapbs_src" ]]; then
    gapbs="$out/gapbs"
    bench_build_gapbs "$gapbs_src" "$gapbs" "$out/logs/gapbs-build.log" tc cc pr bc sssp
fi
file=$(bench_kron_file "$kron" "$scale" "$out/logs/kron.txt")
wfile="bench-results/graphs/kron${scale}w.mtx"
if [[ " $algos " == *" sssp"* && ! -s "$wfile" ]]; then
    python3 - "$file" "$wfile" <<'PY'
import random, sys
random.seed(7)
header = True
with open(sys.argv[1]) as f, open(sys.argv[2], "w") as g:
    for line in f:
        if line.startswith("%%MatrixMarket"):
            g.write("%%MatrixMarket matrix coordinate integer symmetric\n")
        elif line.startswith("%"):
            g.write(line)
        elif header:
            g.write(line)
            header = False
        else:
            a, b = line.split()[:2]
            g.write(f"{a} {b} {random.randint(1, 255)}\n")
PY
fi

rows="$out/rows.tsv"
: > "$rows"
for round in $(seq 1 "$rounds"); do
    for algo in $algos; do
        extra=()
        input="$file"
        run="$algo"
        case "$algo" in
            sssp) extra=(--source 1 --weights float); input="$wfile" ;;
            sssp-dist) run=sssp; extra=(--source 1 --weights float --no-parents); input="$wfile" ;;
            sssp-double) run=sssp; extra=(--source 1 --weights double); input="$wfile" ;;
            pagerank) extra=(--iterations 20 --tolerance 0) ;;
            bc) extra=(--sources 1,100,1000,10000) ;;
        esac
        for np in 1 2; do
            threads=1; [[ $np -eq 1 ]] && threads=2
            log="$out/logs/gridblas-$algo-np$np-r$round.log"
            OMP_NUM_THREADS=$threads mpirun $over -np "$np" --bind-to none -x OMP_NUM_THREADS \
                "$graph_bin" "$run" --file "$input" --trials "$trials" "${extra[@]}" > "$log" 2>&1
            t=$(awk '/^mean_time:/ {print $2}' "$log")
            printf '%s\tgridblas\t%sr x %st\t%s\t%s\n' "$algo" "$np" "$threads" "$round" "$t" >> "$rows"
        done
        ss_pr="$build/benchmarks/gridblas-baseline-graphblas-pagerank"
        if [[ $algo == pagerank && -x $ss_pr ]]; then
            # SuiteSparse on the generated graph the file holds (same generator and seed).
            log="$out/logs/suitesparse-$algo-r$round.log"
            OMP_NUM_THREADS=2 "$ss_pr" --scale "$scale" --iterations 20 --trials "$trials" \
                --threads 2 > "$log" 2>&1
            t=$(awk '/^mean_time:/ {print $2}' "$log")
            printf '%s\tsuitesparse\t2t\t%s\t%s\n' "$algo" "$round" "$t" >> "$rows"
        fi
        # SuiteSparse on the file GapBS reads.
        ss=()
        case "$algo" in
            tc) ss=(tc) ;;
            cc) ss=(cc) ;;
            bc) ss=(bc --sources 1,100,1000,10000) ;;
            sssp | sssp-dist | sssp-double) ss=(sssp --source 1) ;;
        esac
        ss_bin="$build/benchmarks/gridblas-baseline-graphblas-${ss[0]:-none}"
        if [[ ${#ss[@]} -gt 0 && -x $ss_bin ]]; then
            log="$out/logs/suitesparse-$algo-r$round.log"
            OMP_NUM_THREADS=2 "$ss_bin" --file "$input" --trials "$trials" --threads 2 \
                "${ss[@]:1}" > "$log" 2>&1
            t=$(awk '/^mean_time:/ {print $2}' "$log")
            printf '%s\tsuitesparse\t2t\t%s\t%s\n' "$algo" "$round" "$t" >> "$rows"
        fi
        if [[ -n "$gapbs" ]]; then
            case "$algo" in
                tc) g=(tc) ;; cc) g=(cc) ;; pagerank) g=(pr -i 20 -t 0) ;; bc) g=(bc -i 4) ;;
                sssp | sssp-dist | sssp-double) g=(sssp -r 1) ;;
            esac
            log="$out/logs/gapbs-$algo-r$round.log"
            OMP_NUM_THREADS=2 "$gapbs/${g[0]}" -f "$input" -s -n "$trials" "${g[@]:1}" > "$log" 2>&1
            t=$(awk '/^Average Time:/ {print $3}' "$log")
            printf '%s\tgapbs\t2t\t%s\t%s\n' "$algo" "$round" "$t" >> "$rows"
        fi
    done
done
{
    echo "# Graph algorithms side by side"
    echo
    echo "Graph: $file (Kronecker scale $scale, edge factor 16, seed 1)"
    echo "Command: scripts/bench-algorithms.sh --scale $scale --rounds $rounds --trials $trials --algos \"$algos\""
    echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); $(date -u +%Y-%m-%d)"
    bench_thp_note
    echo
    echo "| algorithm | program | config | mean time (s) | ratio to GapBS |"
    echo "| --- | --- | --- | --- | --- |"
    awk -F'\t' '{ k = $1 "\t" $2 "\t" $3; sum[k] += $5; n[k]++
                  if ($2 == "gapbs") { g[$1] += $5; gn[$1]++ } }
         END { for (k in sum) { split(k, f, "\t"); m = sum[k] / n[k]
                 r = (f[1] in g) ? sprintf("%.2f", m / (g[f[1]] / gn[f[1]])) : "-"
                 printf "| %s | %s | %s | %.4f | %s |\n", f[1], f[2], f[3], m, r } }' \
        "$rows" | sort
} > "$out/results.md"
cat "$out/results.md"
