#!/usr/bin/env bash
# The main job of gridblas (the README's run command): a Graph500-style BFS benchmark.
#
# Installs the Debian packages, builds the `release` preset's gridblas-bfs, and runs it on
# 4 MPI ranks over a Kronecker graph of scale 16 with 16 search keys. Extra arguments are
# passed to gridblas-bfs after the defaults (see `gridblas-bfs --help`), e.g.
#
#   bash scripts/run-main.sh --scale 18
#
# Environment:
#   GRIDBLAS_NP       MPI ranks (default 4; more than the cores is fine: Open MPI's mpirun
#                     gets --oversubscribe, other launchers oversubscribe by themselves)
#   OMP_NUM_THREADS   OpenMP threads per rank (default 1)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

NP="${GRIDBLAS_NP:-4}"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"

# GRIDBLAS_WITH_CUDA=AUTO builds the CUDA backend when it finds nvcc.
if [[ -d /usr/local/cuda/bin ]]; then
    export PATH="/usr/local/cuda/bin:$PATH"
fi
# mpirun refuses to start as root unless told it may.
if [[ $(id -u) -eq 0 ]]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

bash scripts/setup-deps.sh

cmake --preset release
# (The target list goes through a variable: `grep -q` in a pipe would end ninja with SIGPIPE.)
targets="$(ninja -C build/release -t targets all)"
if ! grep -q '^gridblas-bfs:' <<< "$targets"; then
    echo "run-main: this tree has no gridblas-bfs target (benchmarks/bfs_driver.cpp)" >&2
    exit 1
fi
cmake --build --preset release --parallel "$(nproc)" --target gridblas-bfs

# --oversubscribe only for Open MPI's launcher (MPICH's does not know it); --bind-to none:
# Open MPI would otherwise pin each rank to one core.
oversubscribe=()
if mpirun --version 2>&1 | grep -qE 'Open MPI|OpenRTE'; then
    oversubscribe=(--oversubscribe)
fi
set -x
exec mpirun -np "$NP" "${oversubscribe[@]}" --bind-to none \
    build/release/benchmarks/gridblas-bfs --scale 16 --roots 16 "$@"
