#!/usr/bin/env bash
# The BFS performance experiment, for a quiet 2-core machine. Builds a release with
# -DGRIDBLAS_NATIVE=ON into build/bench, then for each scale (20; also 22 with --big), edge
# factor 16, runs gridblas-bfs as
#   1 rank  x 2 threads (grid 1x1; comm mpi only: one rank sends nothing),
#   2 ranks x 1 thread on grids 1x2 and 2x1, comm mpi and butterfly,
# each with --direction auto and topdown, and the SuiteSparse:GraphBLAS baseline with
# 2 threads on the same graph, every configuration --reps times (default 3). Writes, under
# bench-results/<date>/ (git-ignored): the JSON and log of every run, manifest.tsv and
# results.md (harmonic-mean GTEPS and median time per run and per configuration, message
# counts, and bytes per search next to the communication model of Buluç et al. 2017).
#
# Usage: scripts/bench-bfs.sh [--scale S] [--big] [--reps N] [--roots N] [--out DIR]
#                             [--build-dir DIR] [--no-build] [--validate-all]
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)

scales=(20)
reps=3
nroots=64
out=""
build="build/bench"
do_build=1
validate_all=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --scale) scales=("${2:?$1 needs a value}"); shift 2 ;;
        --big) scales+=(22); shift ;;
        --reps) reps="${2:?$1 needs a value}"; shift 2 ;;
        --roots) nroots="${2:?$1 needs a value}"; shift 2 ;;
        --out) out="${2:?$1 needs a value}"; shift 2 ;;
        --build-dir) build="${2:?$1 needs a value}"; shift 2 ;;
        --no-build) do_build=0; shift ;;
        --validate-all) validate_all=1; shift ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-bfs.sh: unknown option $1 (see --help)" >&2; exit 1 ;;
    esac
done
out=${out:-bench-results/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/json" "$out/logs"

# mpirun refuses to start as root unless told it may.
if [[ $(id -u) -eq 0 ]]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_rmaps_base_oversubscribe=1

if [[ $do_build -eq 1 ]]; then
    generator=()
    if command -v ninja > /dev/null; then generator=(-G Ninja); fi
    cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DGRIDBLAS_NATIVE=ON -DGRIDBLAS_WITH_CUDA=OFF -DGRIDBLAS_BUILD_TESTS=OFF \
        -DGRIDBLAS_BUILD_EXAMPLES=OFF > "$out/logs/cmake.txt"
    echo "bench-bfs.sh: building $build (log: $out/logs/build.txt)" >&2
    cmake --build "$build" -j "$(nproc)" --target gridblas-bfs > "$out/logs/build.txt" 2>&1 ||
        { tail -n 30 "$out/logs/build.txt" >&2; exit 1; }
    cmake --build "$build" -j "$(nproc)" --target gridblas-baseline-graphblas \
        >> "$out/logs/build.txt" 2>&1 ||
        echo "bench-bfs.sh: no GraphBLAS baseline (SuiteSparse:GraphBLAS not found?)" >&2
fi
bfs="$build/benchmarks/gridblas-bfs"
baseline="$build/benchmarks/gridblas-baseline-graphblas"
[[ -x $bfs ]] || { echo "bench-bfs.sh: $bfs not built" >&2; exit 1; }

manifest="$out/manifest.tsv"
: > "$manifest"

# run_bfs SCALE LAYOUT NP THREADS GRID DIRECTION COMM REP
run_bfs() {
    local scale=$1 layout=$2 np=$3 threads=$4 grid=$5 dir=$6 comm=$7 rep=$8
    local label="s${scale} ${layout} ${grid} ${dir} ${comm}"
    local name="s${scale}-${layout}-${grid}-${dir}-${comm}-r${rep}"
    local extra=()
    if [[ $rep -gt 1 && $validate_all -eq 0 ]]; then extra=(--no-validate); fi
    echo "== $label (rep $rep)" >&2
    local rc=0
    mpirun -np "$np" --bind-to none "$bfs" --scale "$scale" --edgefactor 16 \
        --roots "$nroots" --grid "$grid" --threads "$threads" --direction "$dir" \
        --comm "$comm" --json "$out/json/$name.json" "${extra[@]}" \
        > "$out/logs/$name.txt" 2> "$out/logs/$name.err" || rc=$?
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$layout" "$grid" \
        "$threads" "$dir" "$comm" "$rep" gridblas-bfs "$out/json/$name.json" \
        "$out/logs/$name.txt" "$rc" >> "$manifest"
}

# run_baseline SCALE REP
run_baseline() {
    local scale=$1 rep=$2
    local label="s${scale} graphblas 1x2t push/pull"
    local name="s${scale}-graphblas-r${rep}"
    local verify=4
    if [[ $rep -gt 1 && $validate_all -eq 0 ]]; then verify=0; fi
    echo "== $label (rep $rep)" >&2
    local rc=0
    "$baseline" --scale "$scale" --edgefactor 16 --roots "$nroots" --threads 2 \
        --verify "$verify" > "$out/logs/$name.txt" 2> "$out/logs/$name.err" || rc=$?
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" 1x2t - 2 auto - "$rep" \
        gridblas-baseline-graphblas - "$out/logs/$name.txt" "$rc" >> "$manifest"
}

for scale in "${scales[@]}"; do
    for rep in $(seq 1 "$reps"); do
        for dir in auto topdown; do
            run_bfs "$scale" 1x2t 1 2 1x1 "$dir" mpi "$rep"
            for grid in 1x2 2x1; do
                for comm in mpi butterfly; do
                    run_bfs "$scale" 2x1t 2 1 "$grid" "$dir" "$comm" "$rep"
                done
            done
        done
        if [[ -x $baseline ]]; then run_baseline "$scale" "$rep"; fi
    done
done

{
    echo "# BFS benchmark: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
    echo "- gridblas: $(git -C "$root" rev-parse --short HEAD 2> /dev/null || echo unknown)" \
        "(uncommitted changes: $(git -C "$root" status --porcelain 2> /dev/null | wc -l) files)"
    echo "- graphs: Kronecker scale ${scales[*]}, edge factor 16, seed 1; $nroots searches" \
        "per run; $reps repetitions"
    echo "- layout: 1x2t = 1 rank x 2 threads; 2x1t = 2 ranks x 1 thread (mpirun --bind-to none)"
    echo "- GTEPS = undirected edges of the traversed component / time, harmonic mean over" \
        "the searches; validation runs in repetition 1 (baseline: 4 searches vs a serial BFS)"
    echo
    python3 scripts/bfs_json.py report "$manifest"
} > "$out/results.md"
cat "$out/results.md"
echo "bench-bfs.sh: results in $out/results.md" >&2
