#!/usr/bin/env bash
# One-call correctness and profile run of gridblas ON THE DEVICE (GPU machine without MPI),
# the companion of device-gpu-check.sh, after
#   source scripts/device-env.sh       (done here if the caller did not)
# 1. Nsight Compute (ncu --clock-control none) on gridblas-bfs --backend cuda, single GPU and
#    distributed solver, one search key (the driver runs it twice: warm-up and timed):
#    per-kernel time, DRAM bytes and DRAM throughput as a fraction of peak, summarised by
#    scripts/ncu_summary.py, and a detailed report (.ncu-rep) of the heaviest kernels.
# 2. compute-sanitizer: memcheck (with leak check) and initcheck on the cuda_test_* suites,
#    on the cuda backend MPI tests (2 ranks) and on small gridblas-bfs runs; synccheck on the
#    kernel suite and, last, racecheck on part of it. (Second: the profile takes about 2
#    minutes, the sanitizers longer, and a session's device time is short.)
# Every step has a timeout and the whole run a budget (GB_PROFILE_BUDGET seconds, default
# 360); a failing step is recorded and the next one runs. Writes to $OUT (else ./out), at
# most 8 files: profile.log (all output), profile-summary.txt (one line per step and the
# kernel tables), ncu-*.csv, ncu-detail.ncu-rep.
#   GB_PROFILE_SCALE   Kronecker scale of the profiled searches (default 22)
set -u

cd "$(dirname "$0")/.." || exit 1
if [ -z "${OPAL_PREFIX:-}" ]; then source scripts/device-env.sh || exit 1; fi
source scripts/device-steps.sh
steps_begin "gridblas device profile" profile.log profile-summary.txt "${GB_PROFILE_BUDGET:-360}"
scale=${GB_PROFILE_SCALE:-22}

# The tools: on PATH, or under the CUDA toolkit / Nsight Compute install folders.
find_tool() {
    command -v "$1" 2>/dev/null && return
    local c
    for c in /usr/local/cuda/bin/"$1" /usr/local/cuda/compute-sanitizer/"$1" \
        /opt/nvidia/nsight-compute/*/"$1"; do
        if [ -x "$c" ]; then echo "$c"; return; fi
    done
}
sanitizer=$(find_tool compute-sanitizer)
ncu=$(find_tool ncu)
echo "compute-sanitizer: ${sanitizer:-not found}; ncu: ${ncu:-not found}" | tee -a "$summary"

mpi=(mpirun --oversubscribe --bind-to none -np)
bfs=(gridblas-bfs --backend cuda)

# --- 1. Nsight Compute ------------------------------------------------------------------------
# Metrics per kernel launch: duration, DRAM bytes, DRAM throughput in % of peak, SM
# throughput, and the peak itself (bytes per DRAM cycle x DRAM cycles per second).
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,dram__bytes.sum.peak_sustained,dram__cycles_elapsed.avg.per_second
metrics+=,launch__grid_size,launch__registers_per_thread
basic=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
if [ -n "$ncu" ]; then
    nc=("$ncu" --clock-control none --print-units base --csv --page raw --metrics "$metrics")
    for mode in single dist; do
        extra=()
        [ "$mode" = dist ] && extra=(--cuda-dist)
        # The same key unprofiled first (its time is the wall-clock denominator), then profiled.
        step "bfs-s$scale-$mode (unprofiled)" 120 env OMP_NUM_THREADS=16 "${bfs[@]}" \
            --scale "$scale" --roots 1 --levels --no-validate "${extra[@]}" \
            --json "$out/bfs-profile-$mode.json"
        # ncu's own output (the CSV table) goes to the file, the program's to the log.
        step "ncu bfs-s$scale-$mode" 200 env OMP_NUM_THREADS=16 "${nc[@]}" \
            --log-file "$out/ncu-$mode.csv" "${bfs[@]}" --scale "$scale" --roots 1 \
            --no-validate "${extra[@]}"
        if ! grep -q '^"ID"' "$out/ncu-$mode.csv" 2>/dev/null; then
            # A metric this ncu does not know fails the whole run: retry with the basic ones.
            step "ncu bfs-s$scale-$mode (basic metrics)" 200 env OMP_NUM_THREADS=16 \
                "${nc[@]/$metrics/$basic}" --log-file "$out/ncu-$mode.csv" "${bfs[@]}" \
                --scale "$scale" --roots 1 --no-validate "${extra[@]}"
        fi
        if [ -s "$out/ncu-$mode.csv" ]; then
            python3 scripts/ncu_summary.py "$out/ncu-$mode.csv" --searches 2 \
                --json "$out/bfs-profile-$mode.json" 2>&1 | tee -a "$summary" >>"$log"
        fi
    done
    # A detailed report (all sections of the "detailed" set) of a few launches of the
    # kernels that dominate a search, for `ncu --import` later.
    step "ncu detailed" 150 env OMP_NUM_THREADS=16 "$ncu" --clock-control none --set detailed \
        --kernel-name 'regex:pull_light|pull_heavy|expand_edges|bottom_up_|parents_kernel|emit_bits' \
        --launch-count 8 -f -o "$out/ncu-detail" "${bfs[@]}" --scale "$scale" --roots 1 \
        --no-validate
    if [ -s "$out/ncu-detail.ncu-rep" ]; then
        step "ncu detailed (print)" 60 "$ncu" --import "$out/ncu-detail.ncu-rep" --page details \
            --print-units base
    fi
else
    echo "ncu: SKIPPED (not found on this machine)" | tee -a "$summary"
fi

# --- 2. compute-sanitizer -------------------------------------------------------------------
if [ -n "$sanitizer" ]; then
    cs=("$sanitizer" --error-exitcode 9 --print-limit 20)
    for t in .deps/bin/cuda_test_*; do
        step "memcheck ${t##*/}" 150 env OMP_NUM_THREADS=4 "${cs[@]}" --tool memcheck \
            --leak-check full "$t"
    done
    step "memcheck gridblas-bfs s14" 120 env OMP_NUM_THREADS=4 "${cs[@]}" --tool memcheck \
        --leak-check full "${bfs[@]}" --scale 14 --roots 4
    step "memcheck gridblas-bfs s14 dist np2" 150 env OMP_NUM_THREADS=2 "${mpi[@]}" 2 \
        "${cs[@]}" --tool memcheck "${bfs[@]}" --scale 14 --roots 4
    for t in .deps/bin/cuda_test_*; do
        step "initcheck ${t##*/}" 120 env OMP_NUM_THREADS=4 "${cs[@]}" --tool initcheck "$t"
    done
    step "initcheck gridblas-bfs s14" 120 env OMP_NUM_THREADS=4 "${cs[@]}" --tool initcheck \
        "${bfs[@]}" --scale 14 --roots 4
    step "initcheck gridblas-bfs s14 dist" 120 env OMP_NUM_THREADS=4 "${cs[@]}" --tool initcheck \
        "${bfs[@]}" --scale 14 --roots 4 --cuda-dist
    step "synccheck cuda_test_cuda_kernels" 150 env OMP_NUM_THREADS=4 "${cs[@]}" \
        --tool synccheck .deps/bin/cuda_test_cuda_kernels
    # The MPI tests last: under memcheck the whole cuda BFS suite on 2 ranks ran past 150 s
    # (2026-11-26) and used the budget the steps above needed, so only its small-graph case
    # runs here.
    step "memcheck mpi_test_exec_backend np2" 150 env OMP_NUM_THREADS=2 "${mpi[@]}" 2 \
        "${cs[@]}" --tool memcheck mpi_test_exec_backend --gtest_filter='*cuda*'
    step "memcheck mpi_test_bfs.Backend np2" 150 env OMP_NUM_THREADS=2 "${mpi[@]}" 2 \
        "${cs[@]}" --tool memcheck mpi_test_bfs \
        --gtest_filter='*BfsOnBackend.TinyGraphsWithEmptyPieces*cuda*'
    # racecheck last and on part of the kernel suite: the whole suite ran past 150 s under it
    # (2026-11-26, H100).
    step "racecheck cuda_test_cuda_kernels (part)" 150 env OMP_NUM_THREADS=4 "${cs[@]}" \
        --tool racecheck .deps/bin/cuda_test_cuda_kernels \
        --gtest_filter='CudaKernels/2.*:CudaKernels/3.*:CudaConversions.*'
else
    echo "compute-sanitizer: SKIPPED (not found on this machine)" | tee -a "$summary"
fi

echo "total ${SECONDS}s; full output in $log" | tee -a "$summary"
