#!/usr/bin/env bash
# Pieces shared by the benchmark scripts (bench-side-by-side.sh, bench-algorithms.sh,
# bench-levels.sh). SOURCED from the repo root, after `set -euo pipefail`.

# mpirun as root: Open MPI refuses unless told twice.
bench_allow_root() {
    if [[ $(id -u) -eq 0 ]]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
}

# bench_build_gapbs SRC DEST LOG TARGET... : a fresh copy of the GapBS tree SRC at DEST, its
# TARGETs built with make (output in LOG; its tail on stderr when the build fails).
bench_build_gapbs() {
    local src=$1 dest=$2 log=$3
    shift 3
    rm -rf "$dest"
    cp -r "$src" "$dest"
    make -C "$dest" -j2 "$@" > "$log" 2>&1 || { tail -n 20 "$log" >&2; return 1; }
}

# bench_kron_file KRON SCALE LOG : prints bench-results/graphs/kronSCALE.mtx, first writing it
# with the gridblas-kron binary KRON (its report in LOG) when it is missing (the Kronecker graph of
# `gridblas-bfs --scale SCALE`: edge factor 16, seed 1). Written under a temporary name and
# moved, so an interrupted run leaves no partial file to be reused.
bench_kron_file() {
    local kron=$1 scale=$2 log=$3
    local file="bench-results/graphs/kron$scale.mtx"
    mkdir -p bench-results/graphs
    if [[ ! -s $file ]]; then
        "$kron" --scale "$scale" --output "$file.tmp" > "$log"
        mv "$file.tmp" "$file"
    fi
    echo "$file"
}

# bench_thp_note : one line on the machine's transparent-huge-page mode, for the result tables.
# gridblas asks for huge pages itself (madvise) unless GRIDBLAS_HUGE_PAGES=0; the peers get
# them only where the mode is "always".
bench_thp_note() {
    local f=/sys/kernel/mm/transparent_hugepage/enabled mode="unknown"
    [[ -r $f ]] && mode=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$f")
    local ours="gridblas asks for them with madvise"
    [[ ${GRIDBLAS_HUGE_PAGES:-1} == 0 ]] && ours="gridblas was told not to ask (GRIDBLAS_HUGE_PAGES=0)"
    echo "Transparent huge pages: mode $mode; $ours, the peers get them only in mode always"
}

# bench_placement_args PLACEMENT P DIR : mpirun options placing P ranks. PLACEMENT `os`: none
# (--bind-to none, the kernel places them); `rows`: a rankfile (written in DIR) binding rank r
# to cores floor(r*c/P) .. floor((r+1)*c/P)-1 (at least one; c = the machine's cores), so that
# where ranks outnumber cores the consecutive ranks of a grid row share a core, OMP_PROC_BIND
# and OMP_PLACES passed on, and Open MPI's yielding waits where ranks outnumber cores.
bench_placement_args() {
    local placement=$1 p=$2 dir=$3
    if [[ $placement == os ]]; then
        echo --bind-to none
        return
    fi
    local c rf r lo hi
    c=$(nproc)
    rf="$dir/rankfile-np$p"
    : > "$rf"
    for ((r = 0; r < p; r++)); do
        lo=$((r * c / p))
        hi=$(((r + 1) * c / p - 1))
        ((hi < lo)) && hi=$lo
        echo "rank $r=$(hostname) slot=$lo-$hi" >> "$rf"
    done
    echo --rankfile "$rf" -x OMP_PROC_BIND -x OMP_PLACES
    ((p > c)) && echo --mca mpi_yield_when_idle 1
    return 0
}
