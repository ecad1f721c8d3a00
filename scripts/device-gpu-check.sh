#!/usr/bin/env bash
# One-call GPU check of gridblas ON THE DEVICE (GPU machine without MPI), after
#   source scripts/device-env.sh       (done here if the caller did not)
# Runs nvidia-smi, the cuda_test_* suites, the backend MPI tests on 1 and 2 ranks, and
# gridblas-bfs --backend cuda (scale 22 and 24 single-GPU, scale 22 distributed on 1 and 2
# ranks). Every step has a timeout and the whole run a time budget (GB_CHECK_BUDGET seconds,
# default 540); a failing step is recorded and the next one runs.
# Writes to $OUT (else ./out), at most 6 files: gpu-check.log (all output), summary.txt
# (one line per step), bfs-*.json.
#   GB_ROOTS       search keys of the single-GPU runs (default 64, as Graph500)
#   GB_DIST_ROOTS  search keys of the distributed runs (default 16)
set -u

cd "$(dirname "$0")/.." || exit 1
if [ -z "${OPAL_PREFIX:-}" ]; then source scripts/device-env.sh || exit 1; fi
mkdir -p "${OUT:-out}" && out=$(cd "${OUT:-out}" && pwd) || exit 1
log=$out/gpu-check.log
summary=$out/summary.txt
roots=${GB_ROOTS:-64}
dist_roots=${GB_DIST_ROOTS:-16}
deadline=$((SECONDS + ${GB_CHECK_BUDGET:-540}))
step_out=$(mktemp)
trap 'rm -f "$step_out"' EXIT
: >"$log"
{ echo "gridblas device check, $(date -u '+%F %T') UTC, $(uname -n), $(nproc) cores"
  git log -1 --format='commit %h %s' 2>/dev/null || true; } | tee "$summary"

# step NAME SECONDS COMMAND...: runs COMMAND under timeout (capped by what is left of the
# budget), appends its output to the log and one line to the summary.
step() {
    local name=$1 limit=$2; shift 2
    local left=$((deadline - SECONDS)) rc t0 info
    if ((left < 15)); then
        echo "$name: SKIPPED (time budget spent)" | tee -a "$summary"
        return
    fi
    ((limit > left)) && limit=$left
    printf '\n===== %s (timeout %ss)\n$ %s\n' "$name" "$limit" "$*" >>"$log"
    t0=$SECONDS
    timeout -k 10 "$limit" "$@" >"$step_out" 2>&1
    rc=$?
    cat "$step_out" >>"$log"
    # The lines worth a glance: gtest totals and failed tests, BFS validation and rate, the
    # GPU name, whether a device was missing, and on failure the first error line.
    info=$(grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ tests?|^\[  FAILED  \] [A-Za-z]|^validation:|^harmonic_mean_TEPS:|^GPU [0-9]' "$step_out" |
           sed 's/, listed below://' | tr -s ' ' | head -8 | paste -sd';' -)
    if grep -qE 'no CUDA device|no usable CUDA device' "$step_out"; then info="$info; NO CUDA DEVICE"; fi
    if ((rc != 0)); then
        info="$info; $(grep -m1 -iE 'error|fail|abort|no usable device' "$step_out" | cut -c1-200)"
    fi
    ((rc == 124 || rc == 137)) && info="TIMED OUT; $info"
    printf '%s: rc=%d %ds %s\n' "$name" "$rc" $((SECONDS - t0)) "$info" | tee -a "$summary"
}

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
step bfs-s24-np1 240 env OMP_NUM_THREADS=16 "${bfs[@]}" --scale 24 --json "$out/bfs-s24.json"
step bfs-s22-dist-np1 150 env OMP_NUM_THREADS=16 "${dbfs[@]}" --scale 22 --cuda-dist \
    --json "$out/bfs-s22-dist.json"
step bfs-s22-np2 150 env OMP_NUM_THREADS=8 "${mpi[@]}" 2 "${dbfs[@]}" --scale 22 \
    --json "$out/bfs-s22-np2.json"

echo "total ${SECONDS}s; full output in $log" | tee -a "$summary"
