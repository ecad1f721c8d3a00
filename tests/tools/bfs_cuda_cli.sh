#!/usr/bin/env bash
# gridblas-bfs --backend cuda on 2 ranks (the distributed BFS with each rank's local work on a
# GPU). With a GPU the run must validate. Without one it must stop on every rank with the
# reason (NotCompiled in a build without CUDA, CudaError naming the missing device otherwise)
# and never hang; the test then reports Skipped (exit 77) when CUDA is compiled in, since
# the device path itself did not run. GRIDBLAS_MPIEXEC_OVERSUBSCRIBE (set by ctest) is the
# launcher's oversubscription option.
set -u
mpiexec=$1
bfs=$2
out=$(timeout 300 "$mpiexec" -np 2 ${GRIDBLAS_MPIEXEC_OVERSUBSCRIBE-} --bind-to none "$bfs" --scale 10 \
      --roots 4 --backend cuda 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -eq 124 ]; then
    echo "FAIL: gridblas-bfs --backend cuda hung (killed after 300 s)"
    exit 1
fi
if [ "$rc" -eq 0 ] && grep -q '^validation: passed' <<<"$out"; then
    exit 0
fi
if [ "$rc" -ne 0 ] && grep -q 'error: not compiled: this gridblas was built without CUDA' <<<"$out"; then
    echo "OK: a build without CUDA refuses --backend cuda cleanly"
    exit 0
fi
if [ "$rc" -ne 0 ] && grep -q 'has no usable device' <<<"$out" &&
   ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    echo "SKIP: no GPU on this machine; the refusal was clean, the device path did not run"
    exit 77
fi
echo "FAIL: unexpected result (exit status $rc)"
exit 1
