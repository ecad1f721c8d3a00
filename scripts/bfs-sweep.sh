#!/usr/bin/env bash
# The wide BFS correctness sweep: every direction mode x parent mode on every test graph,
# every source of karate, every grid shape, at np 1..6 (CI runs a covering subset).
# Usage: scripts/bfs-sweep.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build/release}
export GRIDBLAS_TEST_WIDE=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1 OMP_NUM_THREADS=1
# Open MPI's launcher needs --oversubscribe for more ranks than cores; MPICH's does not know it.
oversubscribe=()
if mpirun --version 2>&1 | grep -qE 'Open MPI|OpenRTE'; then
    oversubscribe=(--oversubscribe)
fi
for np in 1 2 3 4 5 6; do
    echo "== np $np"
    mpirun -np "$np" "${oversubscribe[@]}" --bind-to none "$build/tests/mpi/mpi_test_bfs"
done
