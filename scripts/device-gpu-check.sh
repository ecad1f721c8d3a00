#!/usr/bin/env bash
# One-call GPU check of gridblas ON THE DEVICE (GPU machine without MPI), after
#   source scripts/device-env.sh       (done here if the caller did not)
# Runs nvidia-smi, the cuda_test_* suites, the backend MPI tests on 1 and 2 ranks, and
# gridblas-bfs --backend cuda (scale 22 and 24 single-GPU, scale 22 distributed on 1 and 2
# ranks). Every step has a timeout and the whole run a time budget (GB_CHECK_BUDGET seconds,
# default 420: with the profile run's 360 it fits a 15-minute device session); a failing
# step is recorded and the next one runs.
# Writes to $OUT (else ./out), at most 6 files: gpu-check.log (all output), summary.txt
# (one line per step), bfs-*.json.
#   GB_ROOTS       search keys of the single-GPU run at scale 22 (default 16)
#   GB_S24_ROOTS   search keys of the single-GPU run at scale 24 (default 4: on an 8-core
#                  host, 2026-11-26, building the graph took 73 s and validating each key
#                  about 11 s; 16 keys ran past the step's time)
#   GB_DIST_ROOTS  search keys of the distributed runs (default 16)
set -u

cd "$(dirname "$0")/.." || exit 1
if [ -z "${OPAL_PREFIX:-}" ]; then source scripts/device-env.sh || exit 1; fi
source scripts/device-steps.sh
steps_begin "gridblas device check" gpu-check.log summary.txt "${GB_CHECK_BUDGET:-420}"
roots=${GB_ROOTS:-16}
s24_roots=${GB_S24_ROOTS:-4}
dist_roots=${GB_DIST_ROOTS:-16}

mpi=(mpirun --oversubscribe --bind-to none -np)
bfs=(gridblas-bfs --backend cuda --roots "$roots" --levels)
dbfs=(gridblas-bfs --backend cuda --roots "$dist_roots" --levels)

step nvidia-smi 30 nvidia-smi
step nvidia-smi-L 30 nvidia-smi -L
for t in .deps/bin/cuda_test_*; do
    step "${t##*/}" 90 env OMP_NUM_THREADS=4 "$t"
done
for n in 1 2; do
    step "mpi_test_exec_backend.np$n" 90 env OMP_NUM_THREADS=2 "${mpi[@]}" "$n" \
        mpi_test_exec_backend
    step "mpi_test_bfs.Backend.np$n" 120 env OMP_NUM_THREADS=2 "${mpi[@]}" "$n" \
        mpi_test_bfs --gtest_filter='*Backend*'
done
step bfs-s22-np1 120 env OMP_NUM_THREADS=16 "${bfs[@]}" --scale 22 --json "$out/bfs-s22.json"
step bfs-s24-np1 240 env OMP_NUM_THREADS=16 gridblas-bfs --backend cuda --roots "$s24_roots" \
    --levels --scale 24 --json "$out/bfs-s24.json"
step bfs-s22-dist-np1 150 env OMP_NUM_THREADS=16 "${dbfs[@]}" --scale 22 --cuda-dist \
    --json "$out/bfs-s22-dist.json"
step bfs-s22-np2 150 env OMP_NUM_THREADS=8 "${mpi[@]}" 2 "${dbfs[@]}" --scale 22 \
    --json "$out/bfs-s22-np2.json"

echo "total ${SECONDS}s; full output in $log" | tee -a "$summary"
