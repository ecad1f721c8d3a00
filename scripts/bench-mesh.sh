#!/usr/bin/env bash
# BFS on a high-diameter graph against GapBS: the W x W grid graph (default 1024 x 1024, about
# 1,000-1,500 levels per search, all top-down), written once by scripts/grid_graph.py under
# bench-results/graphs, searched by gridblas-bfs on one rank and by GapBS's `bfs -s` on the same
# file with the same number of threads, one program after the other in each round. Such a
# search measures the cost of a level rather than of an edge (see "High-diameter graphs" in
# benchmarks/RESULTS.md).
#
# The table: mean time per search of each program and thread count, by round, and gridblas'
# time divided by GapBS's in the same round (< 1: faster than GapBS). Writes
# bench-results/mesh-<date>/results.md (git-ignored).
#
# Usage: scripts/bench-mesh.sh --gapbs DIR [--width W] [--threads "1 2"] [--searches N]
#            [--rounds N] [--build-dir DIR] [--out DIR]
#   --gapbs DIR     a GapBS source tree (GAPBS_DIR=path works too); copied and built with make
#   --threads LIST  thread counts to run, each for both programs (default "1 2")
#   --searches N    keys per run: gridblas' first N from its seed, GapBS's own N (default 16)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bench-common.sh

width=1024
thread_list="1 2"
searches=16
rounds=3
gapbs_src=${GAPBS_DIR:-}
build="build/release"
out=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --width) width="${2:?$1 needs a value}"; shift 2 ;;
        --threads) thread_list="${2:?$1 needs a value}"; shift 2 ;;
        --searches) searches="${2:?$1 needs a value}"; shift 2 ;;
        --rounds) rounds="${2:?$1 needs a value}"; shift 2 ;;
        --gapbs) gapbs_src="${2:?$1 needs a value}"; shift 2 ;;
        --build-dir) build="${2:?$1 needs a value}"; shift 2 ;;
        --out) out="${2:?$1 needs a value}"; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-mesh.sh: unknown option $1 (see --help)" >&2; exit 1 ;;
    esac
done
[[ -n $gapbs_src ]] || { echo "bench-mesh.sh: needs a GapBS tree (--gapbs DIR)" >&2; exit 1; }
bin="$build/benchmarks"
[[ -x $bin/gridblas-bfs ]] || { echo "bench-mesh.sh: $bin/gridblas-bfs missing (build $build)" >&2; exit 1; }
out=${out:-bench-results/mesh-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/logs" bench-results/graphs
bench_allow_root

bench_build_gapbs "$gapbs_src" "$out/gapbs" "$out/logs/gapbs-build.txt" bfs
file="bench-results/graphs/grid$width.mtx"
if [[ ! -s $file ]]; then
    python3 scripts/grid_graph.py "$width" "$file.tmp"
    mv "$file.tmp" "$file"
fi

for round in $(seq 1 "$rounds"); do
    for t in $thread_list; do
        echo "bench-mesh.sh: round $round, $t thread(s)" >&2
        mpirun -np 1 --bind-to none "$bin/gridblas-bfs" --file "$file" --threads "$t" \
            --roots "$searches" --no-validate > "$out/logs/gridblas-t$t.r$round.txt" 2>&1 ||
            { tail -n 5 "$out/logs/gridblas-t$t.r$round.txt" >&2; exit 1; }
        OMP_NUM_THREADS=$t "$out/gapbs/bfs" -f "$file" -s -n "$searches" \
            > "$out/logs/gapbs-t$t.r$round.txt" 2>&1 ||
            { tail -n 5 "$out/logs/gapbs-t$t.r$round.txt" >&2; exit 1; }
    done
done

python3 - "$out" "$rounds" "$thread_list" "$width" "$searches" << 'EOF' > "$out/results.md"
import re, sys, pathlib, platform, datetime
out, rounds, threads, width, searches = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4], sys.argv[5]
logs = pathlib.Path(out) / "logs"

def mean_ms(name, r):
    t = (logs / f"{name}.r{r}.txt").read_text()
    m = re.search(r"^mean_time: ([0-9.eE+-]+)", t, re.M) or re.search(r"^Average Time:\s+([0-9.]+)", t, re.M)
    if not m:
        sys.exit(f"bench-mesh.sh: no mean time in {name}.r{r}.txt")
    return float(m.group(1)) * 1e3

print(f"{width} x {width} grid graph, {searches} keys per run, {rounds} rounds; "
      f"{platform.node()}, {datetime.date.today()}.")
print(f"Command: scripts/bench-mesh.sh --width {width} --threads \"{' '.join(threads)}\" "
      f"--searches {searches} --rounds {rounds}")
print()
print("| threads | gridblas ms per search, by round | GapBS ms per search, by round | gridblas ÷ GapBS, by round |")
print("| --- | --- | --- | --- |")
for t in threads:
    ours = [mean_ms(f"gridblas-t{t}", r) for r in range(1, rounds + 1)]
    theirs = [mean_ms(f"gapbs-t{t}", r) for r in range(1, rounds + 1)]
    fmt = lambda xs: " / ".join(f"{x:.1f}" for x in xs)
    print(f"| {t} | {fmt(ours)} | {fmt(theirs)} | {' / '.join(f'{a / b:.2f}' for a, b in zip(ours, theirs))} |")
EOF
{ echo; bench_thp_note; } >> "$out/results.md"
cat "$out/results.md"
