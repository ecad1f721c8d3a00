#!/usr/bin/env bash
# BFS side by side on one graph file: gridblas against GapBS and SuiteSparse:GraphBLAS, for a
# quiet machine. Writes the Kronecker graph of `gridblas-bfs --scale S` (edge factor 16,
# seed 1) once as a Matrix Market file with gridblas-kron, then runs, --rounds times and one
# program after the other within each round (so that slow drifts of the machine hit every
# program alike):
#   gridblas-bfs --file F, 1 rank x 2 threads, 2 ranks x 1 thread, 4 ranks x 1 thread
#                (oversubscribed on a 2-core machine; --ranks changes the list);
#   GapBS bfs -f F -s (undirected), 2 threads, when a GapBS source tree is given (GAPBS_DIR=path or
#                --gapbs path; it is copied and built with make);
#   gridblas-baseline-graphblas --scale S (SuiteSparse:GraphBLAS push/pull BFS with
#                LAGraph's rules on the same generated graph), 2 threads, when it was built
#                (Debian: libgraphblas-dev);
#   CombBLAS's DirOptBFS (`dobfs S`), when a CombBLAS source tree is given (COMBBLAS_DIR=path
#                or --combblas path; built here with mpicxx, Release, target dobfs only): on
#                the rank counts of --ranks that are squares (it runs on square grids only), 1
#                rank x 2 threads or n ranks x 1 thread. It reads no file: it generates its
#                own Graph500 Kronecker graph of the same scale and edge factor (another
#                instance of the same model), drops the isolated vertices, permutes the rest
#                at random, and searches 64 random keys.
# Every program searches --roots keys (default 64) and reports its mean time per search;
# peak memory is the largest process's maximum resident set and the sum over processes (GNU
# time's %M; for gridblas-bfs its own report of construction and search peaks). Writes, under
# bench-results/side-<date>/ (git-ignored): every log and results.md, a table of mean
# times, ratios to GapBS's mean in the same round, and peak memory.
#
# An entry of --ranks may name a grid shape: "4:1x4" runs 4 ranks on a 1 x 4 grid (the default
# is the most square shape, 2 x 2 for 4 ranks), and a parent mode after a slash: "4/any" or
# "4:1x4/any" runs gridblas-bfs --parents any (the default is min: the smallest-id parent,
# the same on every grid; GapBS and Graph500 accept any parent).
#
# --placement os (default) leaves every process unbound (mpirun --bind-to none) and lets the
# kernel place them. --placement rows binds: rank r of p to cores floor(r*c/p) and on (c = the
# machine's cores), so that where ranks outnumber cores the consecutive ranks of a grid row
# (gridblas numbers the grid row-major) share a core and Open MPI yields while they wait
# (mpi_yield_when_idle 1); the 2-thread programs (GapBS, SuiteSparse, gridblas on 1 rank) get
# OMP_PROC_BIND=close OMP_PLACES=cores.
#
# Usage: scripts/bench-side-by-side.sh [--scale S] [--rounds N] [--roots N] [--ranks "1 2 4 4:1x4"]
#            [--placement os|rows] [--gapbs DIR] [--combblas DIR] [--out DIR] [--build-dir DIR]
#            [--no-build]
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
source scripts/bench-common.sh

scale=20
rounds=3
nroots=64
ranks="1 2 4"
gapbs_src=${GAPBS_DIR:-}
combblas_src=${COMBBLAS_DIR:-}
out=""
placement=os
build="build/bench"
do_build=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --scale) scale="${2:?$1 needs a value}"; shift 2 ;;
        --rounds) rounds="${2:?$1 needs a value}"; shift 2 ;;
        --roots) nroots="${2:?$1 needs a value}"; shift 2 ;;
        --ranks) ranks="${2:?$1 needs a value}"; shift 2 ;;
        --placement) placement="${2:?$1 needs a value}"; shift 2 ;;
        --gapbs) gapbs_src="${2:?$1 needs a value}"; shift 2 ;;
        --combblas) combblas_src="${2:?$1 needs a value}"; shift 2 ;;
        --out) out="${2:?$1 needs a value}"; shift 2 ;;
        --build-dir) build="${2:?$1 needs a value}"; shift 2 ;;
        --no-build) do_build=0; shift ;;
        -h|--help) sed -n '2,39p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-side-by-side.sh: unknown option $1 (see --help)" >&2; exit 1 ;;
    esac
done
[[ $placement == os || $placement == rows ]] ||
    { echo "bench-side-by-side.sh: --placement must be os or rows, not $placement" >&2; exit 1; }
out=${out:-bench-results/side-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/logs"
command -v /usr/bin/time > /dev/null ||
    { echo "bench-side-by-side.sh: needs GNU time (apt-get install time)" >&2; exit 1; }

bench_allow_root
export OMPI_MCA_rmaps_base_oversubscribe=1

if [[ $do_build -eq 1 ]]; then
    generator=()
    if command -v ninja > /dev/null; then generator=(-G Ninja); fi
    cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DGRIDBLAS_WITH_CUDA=OFF -DGRIDBLAS_BUILD_TESTS=OFF -DGRIDBLAS_BUILD_EXAMPLES=OFF \
        > "$out/logs/cmake.txt"
    echo "bench-side-by-side.sh: building $build (log: $out/logs/build.txt)" >&2
    for t in gridblas-bfs gridblas-kron gridblas-baseline-graphblas; do
        cmake --build "$build" -j "$(nproc)" --target "$t" >> "$out/logs/build.txt" 2>&1 ||
            [[ $t == gridblas-baseline-graphblas ]] ||
            { tail -n 30 "$out/logs/build.txt" >&2; exit 1; }
    done
fi
bin="$build/benchmarks"
[[ -x $bin/gridblas-bfs && -x $bin/gridblas-kron ]] ||
    { echo "bench-side-by-side.sh: $bin/gridblas-bfs or gridblas-kron missing" >&2; exit 1; }

gapbs=""
if [[ -n $gapbs_src ]]; then
    echo "bench-side-by-side.sh: building GapBS from $gapbs_src" >&2
    bench_build_gapbs "$gapbs_src" "$out/gapbs" "$out/logs/gapbs-build.txt" bfs
    gapbs="$out/gapbs/bfs"
else
    echo "bench-side-by-side.sh: no GapBS tree (GAPBS_DIR / --gapbs): its rows are skipped" >&2
fi
baseline=""
if [[ -x $bin/gridblas-baseline-graphblas ]]; then baseline="$bin/gridblas-baseline-graphblas"; fi
combblas=""
if [[ -n $combblas_src ]]; then
    echo "bench-side-by-side.sh: building CombBLAS's dobfs from $combblas_src" >&2
    cb_build="$out/combblas-build"
    if cmake -S "$combblas_src" -B "$cb_build" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_COMPILER=mpicxx -DCMAKE_C_COMPILER=mpicc > "$out/logs/combblas-build.txt" 2>&1 &&
        cmake --build "$cb_build" -j "$(nproc)" --target dobfs >> "$out/logs/combblas-build.txt" 2>&1
    then
        combblas="$cb_build/Applications/dobfs"
    else
        tail -n 20 "$out/logs/combblas-build.txt" >&2
        echo "bench-side-by-side.sh: CombBLAS did not build: its rows are skipped" >&2
    fi
fi

file=$(bench_kron_file "$bin/gridblas-kron" "$scale" "$out/logs/kron.txt")

if [[ $placement == rows ]]; then
    export OMP_PROC_BIND=close OMP_PLACES=cores
fi

# run NAME CMD... : one timed run; its log is $out/logs/NAME.rROUND.txt, with GNU time's
# peak RSS (KB) as the last line.
run() {
    local name=$1
    shift
    local log="$out/logs/$name.r$round.txt"
    echo "bench-side-by-side.sh: round $round: $name" >&2
    /usr/bin/time -f "peak_rss_kb: %M" "$@" > "$log" 2>&1 ||
        { echo "bench-side-by-side.sh: $name failed (see $log)" >&2; tail -n 5 "$log" >&2; }
}

for round in $(seq 1 "$rounds"); do
    for entry in $ranks; do
        mode=""
        if [[ $entry == */* ]]; then
            mode=${entry#*/}
            entry=${entry%%/*}
        fi
        p=${entry%%:*}
        grid_args=()
        name="gridblas-np$p"
        if [[ $entry == *:* ]]; then
            grid_args=(--grid "${entry#*:}")
            name="gridblas-np$p-${entry#*:}"
        fi
        if [[ -n $mode ]]; then
            grid_args+=(--parents "$mode")
            name="$name-$mode"
        fi
        threads=1
        [[ $p -eq 1 ]] && threads=2
        # shellcheck disable=SC2046 # (one option or value per word)
        run "$name" mpirun -np "$p" $(bench_placement_args "$placement" "$p" "$out/logs") \
            "$bin/gridblas-bfs" --file "$file" --threads "$threads" --roots "$nroots" \
            --no-validate "${grid_args[@]}"
    done
    if [[ -n $gapbs ]]; then
        OMP_NUM_THREADS=2 run gapbs "$gapbs" -f "$file" -s -n "$nroots"
    fi
    if [[ -n $baseline ]]; then
        run suitesparse "$baseline" --scale "$scale" --threads 2 --roots "$nroots" --verify 0
    fi
    if [[ -n $combblas ]]; then
        declare -A combblas_done=()
        for entry in $ranks; do
            p=${entry%%[:/]*}
            q=1
            while ((q * q < p)); do q=$((q + 1)); done
            ((q * q == p)) || continue
            # Once per rank count and round (not the logs of an earlier run in the same --out);
            # GNU time inside mpirun: one peak per process.
            [[ -n ${combblas_done[$p]:-} ]] && continue
            combblas_done[$p]=1
            threads=1
            [[ $p -eq 1 ]] && threads=2
            # (Placed like gridblas: with OMP_PROC_BIND set, an unbound process would bind its
            # one thread to the first core, every rank alike.)
            # shellcheck disable=SC2046 # (one option or value per word)
            OMP_NUM_THREADS=$threads run "combblas-np$p" mpirun -np "$p" \
                $(bench_placement_args "$placement" "$p" "$out/logs") -x OMP_NUM_THREADS \
                /usr/bin/time -f "peak_rss_kb: %M" "$combblas" "$scale"
        done
    fi
done

python3 - "$out" "$rounds" "$scale" "$nroots" "$ranks" "$(bench_thp_note)" "$placement" << 'EOF'
import re, sys, pathlib, platform, datetime
out, rounds, scale, nroots, ranks, thp = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5].split(), sys.argv[6]
placement = sys.argv[7]
logs = pathlib.Path(out) / "logs"

def grab(name, r):
    f = logs / f"{name}.r{r}.txt"
    if not f.exists():
        return None, None
    t = f.read_text()
    m = (re.search(r"^mean_time: ([0-9.eE+-]+)", t, re.M) or re.search(r"^Average Time:\s+([0-9.]+)", t, re.M)
         or re.search(r"^Mean time: ([0-9.eE+-]+) seconds", t, re.M))
    # gridblas-bfs reports its own peaks (largest rank and summed over ranks) for
    # construction and search: under mpirun, GNU time would measure the launcher instead.
    own = re.findall(r"^(?:construction|search)_peak_rss_gib: ([0-9.]+) \(largest rank\), ([0-9.]+) \(sum", t, re.M)
    if own:
        return (float(m.group(1)) * 1e3 if m else None), (max(float(a) for a, _ in own), max(float(b) for _, b in own))
    # One line per process under mpirun (CombBLAS), else the program's own.
    rss = [int(k) / 2**20 for k in re.findall(r"^peak_rss_kb: (\d+)", t, re.M)]
    if name.startswith("combblas") and len(rss) > 1:
        rss = rss[:-1]  # the last line is GNU time around mpirun (the launcher)
    mem = (max(rss), sum(rss)) if rss else (None, None)
    return (float(m.group(1)) * 1e3 if m else None), mem

def row(entry):
    entry, _, mode = entry.partition("/")
    p, _, shape = entry.partition(":")
    label = f"gridblas, {p} rank{'s' if p != '1' else ''} x {2 if p == '1' else 1} thread{'s' if p == '1' else ''}"
    name = f"gridblas-np{p}-{shape}" if shape else f"gridblas-np{p}"
    if shape:
        label += f", {shape} grid"
    if mode:
        name += f"-{mode}"
        label += f", {mode} parents"
    return name, label
rows = [row(e) for e in ranks]
rows += [("gapbs", "GapBS bfs, 2 threads"), ("suitesparse", "SuiteSparse:GraphBLAS push/pull, 2 threads")]
for p in dict.fromkeys(int(re.split("[:/]", e)[0]) for e in ranks):
    q = round(p ** 0.5)
    if q * q == p:
        t = "2 threads" if p == 1 else "1 thread"
        rows.append((f"combblas-np{p}", f"CombBLAS DirOptBFS (own instance), {p} rank{'s' if p != 1 else ''} x {t}, {q}x{q} grid"))
gap = [grab("gapbs", r)[0] for r in range(1, rounds + 1)]
lines = [f"Kronecker scale {scale}, edge factor 16 (file written by gridblas-kron), {nroots} keys, "
         f"{rounds} rounds; {platform.node()}, {datetime.date.today()}.", thp + ".",
         ("Placement: unbound (mpirun --bind-to none), the kernel places every process." if placement == "os" else
          "Placement: rows (gridblas ranks bound by a rankfile, consecutive ranks of a grid row on one core where "
          "ranks outnumber cores, Open MPI's mpi_yield_when_idle; 2-thread programs OMP_PROC_BIND=close OMP_PLACES=cores)."),
         "",
         "| program | mean time per search (ms), by round | ratio to GapBS, by round | peak RSS (GiB): largest process / summed |",
         "| --- | --- | --- | --- |"]
for name, label in rows:
    got = [grab(name, r) for r in range(1, rounds + 1)]
    if all(t is None for t, _ in got):
        continue
    times = " / ".join("-" if t is None else f"{t:.1f}" for t, _ in got)
    ratios = " / ".join("-" if (t is None or g is None) else f"{g / t:.2f}" for (t, _), g in zip(got, gap))
    big = max((m[0] for _, m in got if m[0] is not None), default=None)
    tot = max((m[1] for _, m in got if m[1] is not None), default=None)
    mem = "-" if big is None else f"{big:.2f} / {tot:.2f}"
    lines.append(f"| {label} | {times} | {ratios} | {mem} |")
lines.append("")
lines.append("Ratio = GapBS's mean time / the program's mean time in the same round (> 1: faster than GapBS).")
if any((logs / f"{n}.r1.txt").exists() for n, _ in rows if n.startswith("combblas")):
    lines.append("CombBLAS searches its own Graph500 instance of this scale (isolated vertices dropped, "
                 "vertices permuted), not the file; its peak memory includes generating the graph.")
(pathlib.Path(out) / "results.md").write_text("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
