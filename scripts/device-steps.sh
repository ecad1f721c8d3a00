# Shared by the device run scripts (device-gpu-check.sh, device-gpu-profile.sh); sourced, not
# run. SOURCED ON THE DEVICE from the repo root, with the carried environment loaded.
#
#   steps_begin TITLE LOG_NAME SUMMARY_NAME BUDGET_SECONDS
#       creates $OUT (else ./out) and sets `out`, `log`, `summary`; starts the time budget;
#       writes the header (TITLE, date, host, cores, commit) to the summary.
#   step NAME SECONDS COMMAND...
#       runs COMMAND under timeout (capped by what is left of the budget), appends its
#       output to the log and one line to the summary; a failing step does not stop the run.

steps_begin() {
    mkdir -p "${OUT:-out}" && out=$(cd "${OUT:-out}" && pwd) || exit 1
    log=$out/$2
    summary=$out/$3
    deadline=$((SECONDS + $4))
    step_out=$(mktemp)
    trap 'rm -f "$step_out"' EXIT
    : >"$log"
    { echo "$1, $(date -u '+%F %T') UTC, $(uname -n), $(nproc) cores"
      git log -1 --format='commit %h %s' 2>/dev/null || true; } | tee "$summary"
}

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
    # The lines worth a glance: gtest totals and failed tests, sanitizer summaries, BFS
    # validation and rate, the GPU name (repeated lines, e.g. one per rank, counted once
    # with "(xN)"), whether a device was missing, and on failure the first error line.
    info=$(grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ tests?|^\[  FAILED  \] [A-Za-z]|^========= (ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY)|^validation:|^harmonic_mean_TEPS:|^GPU [0-9]' "$step_out" |
           sed 's/, listed below://; s/^========= //' | tr -s ' ' | sort | uniq -c |
           sed 's/^ *1 //; s/^ *\([0-9]*\) \(.*\)/\2 (x\1)/' | head -10 | paste -sd';' -)
    if grep -qE 'no CUDA device|no usable CUDA device' "$step_out"; then info="$info; NO CUDA DEVICE"; fi
    if ((rc != 0)); then
        info="$info; $(grep -m1 -iE 'invalid|error|fail|abort|out of bounds|no usable device' "$step_out" | cut -c1-200)"
    fi
    ((rc == 124 || rc == 137)) && info="TIMED OUT; $info"
    printf '%s: rc=%d %ds %s\n' "$name" "$rc" $((SECONDS - t0)) "$info" | tee -a "$summary"
}
