#!/usr/bin/env bash
# BFS level by level against GapBS, for a quiet machine: both programs search the same graph
# file from the same root, gridblas-bfs with --levels (it repeats the search --searches times
# and averages each level) and GapBS's `bfs -l` (per-level times of each trial, averaged here
# over its trials). The graph is the Kronecker graph of `gridblas-bfs --scale S` (edge factor
# 16, seed 1), written once by gridblas-kron under bench-results/graphs (as
# bench-side-by-side.sh does). --rounds repeats the pair, one program after the other.
#
# The table, per level: direction and vertices found by each program, the edges gridblas
# examined, both mean times, the ratio (gridblas ÷ GapBS) and each program's edges per
# second on that level. GapBS's conversions between its queue and its bitmap ("e" before a
# bottom-up phase, "c" after it) are added to the level that follows them, as gridblas
# converts inside its levels. Writes bench-results/levels-<date>/results.md (git-ignored).
#
# Usage: scripts/bench-levels.sh --gapbs DIR [--scale S] [--root R] [--searches N]
#            [--rounds N] [--ranks P] [--grid RxC] [--threads T] [--placement os|rows]
#            [--build-dir DIR] [--out DIR]
#   --gapbs DIR     a GapBS source tree (GAPBS_DIR=path works too); copied and built with make
#   --root R        the search key (default 327007, a vertex of the scale-20 giant component)
#   --ranks P       gridblas ranks (default 1; threads per rank default 2 / P, at least 1)
#   --placement os|rows  os (default): gridblas's ranks and both programs' threads unbound;
#                   rows: as in bench-side-by-side.sh (ranks bound by a rankfile, consecutive
#                   ranks on one core where they outnumber the cores; the threads of a
#                   2-thread run bound one to a core, OMP_PROC_BIND=close OMP_PLACES=cores,
#                   GapBS's too), so that the kernel cannot put two threads on one core
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bench-common.sh

scale=20
root=327007
searches=10
rounds=2
ranks=1
placement=os
grid=""
threads=""
gapbs_src=${GAPBS_DIR:-}
build="build/release"
out=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --scale) scale="${2:?$1 needs a value}"; shift 2 ;;
        --root) root="${2:?$1 needs a value}"; shift 2 ;;
        --searches) searches="${2:?$1 needs a value}"; shift 2 ;;
        --rounds) rounds="${2:?$1 needs a value}"; shift 2 ;;
        --ranks) ranks="${2:?$1 needs a value}"; shift 2 ;;
        --placement) placement="${2:?$1 needs a value}"; shift 2 ;;
        --grid) grid="${2:?$1 needs a value}"; shift 2 ;;
        --threads) threads="${2:?$1 needs a value}"; shift 2 ;;
        --gapbs) gapbs_src="${2:?$1 needs a value}"; shift 2 ;;
        --build-dir) build="${2:?$1 needs a value}"; shift 2 ;;
        --out) out="${2:?$1 needs a value}"; shift 2 ;;
        -h|--help) sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-levels.sh: unknown option $1 (see --help)" >&2; exit 1 ;;
    esac
done
[[ -n $gapbs_src ]] || { echo "bench-levels.sh: needs a GapBS tree (--gapbs DIR)" >&2; exit 1; }
[[ $placement == os || $placement == rows ]] ||
    { echo "bench-levels.sh: --placement must be os or rows, not $placement" >&2; exit 1; }
bin="$build/benchmarks"
[[ -x $bin/gridblas-bfs && -x $bin/gridblas-kron ]] ||
    { echo "bench-levels.sh: $bin/gridblas-bfs or gridblas-kron missing (build $build)" >&2; exit 1; }
threads=${threads:-$(( ranks >= 2 ? 1 : 2 ))}
out=${out:-bench-results/levels-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/logs"
bench_allow_root
export OMPI_MCA_rmaps_base_oversubscribe=1

bench_build_gapbs "$gapbs_src" "$out/gapbs" "$out/logs/gapbs-build.txt" bfs
# GapBS prints each step's time with five decimals, in steps of 10 us: coarser than the small
# levels themselves. This copy prints seven (0.1 us); its timers and its search are unchanged.
sed -i 's/%10\.5lf/%12.7lf/; s/%23\.5lf/%23.7lf/' "$out/gapbs/src/util.h"
grep -q '%12.7lf' "$out/gapbs/src/util.h" ||
    { echo "bench-levels.sh: GapBS's src/util.h has no step format to widen" >&2; exit 1; }
make -C "$out/gapbs" bfs >> "$out/logs/gapbs-build.txt" 2>&1 ||
    { tail -n 20 "$out/logs/gapbs-build.txt" >&2; exit 1; }
file=$(bench_kron_file "$bin/gridblas-kron" "$scale" "$out/logs/kron.txt")

grid_args=()
[[ -n $grid ]] && grid_args=(--grid "$grid")
[[ $placement == rows ]] && export OMP_PROC_BIND=close OMP_PLACES=cores
for round in $(seq 1 "$rounds"); do
    echo "bench-levels.sh: round $round" >&2
    # shellcheck disable=SC2046 # (one option or value per word)
    mpirun -np "$ranks" $(bench_placement_args "$placement" "$ranks" "$out/logs") \
        "$bin/gridblas-bfs" --file "$file" --root "$root" \
        --roots "$searches" --threads "$threads" --levels --no-validate "${grid_args[@]}" \
        > "$out/logs/gridblas.r$round.txt" 2>&1 ||
        { tail -n 5 "$out/logs/gridblas.r$round.txt" >&2; exit 1; }
    OMP_NUM_THREADS=$(( ranks * threads )) "$out/gapbs/bfs" -f "$file" -s -r "$root" \
        -n "$searches" -l > "$out/logs/gapbs.r$round.txt" 2>&1 ||
        { tail -n 5 "$out/logs/gapbs.r$round.txt" >&2; exit 1; }
done

python3 scripts/levels_table.py "$out/logs" "$rounds" \
    "scripts/bench-levels.sh --scale $scale --root $root --searches $searches --rounds $rounds --ranks $ranks${grid:+ --grid $grid} --threads $threads --placement $placement" \
    > "$out/results.md"
{ echo; bench_thp_note; } >> "$out/results.md"
cat "$out/results.md"
