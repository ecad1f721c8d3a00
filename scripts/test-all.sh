#!/usr/bin/env bash
# The full test of gridblas (the README's test command; CI runs exactly this).
#
# Stages, in order; a failing stage does not stop the later ones that do not depend on it,
# and the script exits non-zero when any stage failed or was skipped because of a failure:
#   1. deps           install the Debian packages (scripts/setup-deps.sh)
#   2. release-build  configure + build the `release` preset (CUDA backend when nvcc exists)
#   3. release-tests  ctest: unit and MPI suites (all labels except install)
#   4. asan-build     configure + build the `debug-asan` preset (ASan + UBSan, CPU only)
#   5. asan-tests     ctest: the serial unit suites under the sanitizers
#   6. fuzz           scripts/run-fuzz.sh with a time budget (60 s by default)
#   7. install        ctest: install the release build and build a consumer against it
#
# Environment:
#   GRIDBLAS_JOBS          parallel build/test jobs (default: number of cores)
#   GRIDBLAS_FUZZ_SECONDS  fuzzing budget passed to run-fuzz.sh (default: 60)
#   GRIDBLAS_WARNINGS_AS_ERRORS  ON: compiler warnings in gridblas' own targets fail the
#                          builds (CI, .ci/run, sets it); default OFF
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

JOBS="${GRIDBLAS_JOBS:-$(nproc)}"
FUZZ_SECONDS="${GRIDBLAS_FUZZ_SECONDS:-60}"
WARNINGS_AS_ERRORS="${GRIDBLAS_WARNINGS_AS_ERRORS:-OFF}"

# The CUDA toolkit is not always on PATH; GRIDBLAS_WITH_CUDA=AUTO needs to find nvcc.
if [[ -d /usr/local/cuda/bin ]]; then
    export PATH="/usr/local/cuda/bin:$PATH"
fi
# mpirun refuses to start as root unless told it may.
if [[ $(id -u) -eq 0 ]]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

STAGE_NAMES=()
STAGE_RESULTS=()
STAGE_SECONDS=()
STAGE_CPU=()
TIMES_FILE="$(mktemp)"
trap 'rm -f "$TIMES_FILE"' EXIT

# record <name> <result> <seconds> <cpu seconds>
record() {
    STAGE_NAMES+=("$1")
    STAGE_RESULTS+=("$2")
    STAGE_SECONDS+=("$3")
    STAGE_CPU+=("$4")
}

# Sets CPU_NOW to the CPU seconds (user + system) used so far by the finished child
# processes of this shell. `times` must run in this shell, not in a $(...) subshell.
read_cpu() {
    times > "$TIMES_FILE"
    CPU_NOW=$(awk 'NR == 2 {
        split($1, u, /[ms]/); split($2, s, /[ms]/);
        printf "%d\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$TIMES_FILE")
}

# stage <name> <command...>: runs the command, times it and records PASS or FAIL.
# Returns the command's status so that callers can skip the stages that depend on it.
stage() {
    local name="$1"
    shift
    echo
    echo "=================== test-all: ${name} ==================="
    local start=$SECONDS cpu_start rc=0
    read_cpu
    cpu_start=$CPU_NOW
    "$@" || rc=$?
    read_cpu
    local took=$((SECONDS - start)) cpu=$((CPU_NOW - cpu_start))
    if [[ $rc -eq 0 ]]; then
        record "$name" PASS "$took" "$cpu"
    else
        record "$name" "FAIL (exit $rc)" "$took" "$cpu"
        echo "test-all: stage ${name} FAILED (exit ${rc}) after ${took} s"
    fi
    return "$rc"
}

# skip <name> <why>: records a stage that could not run because an earlier one failed.
skip() {
    echo
    echo "=================== test-all: $1 skipped ($2) ==================="
    record "$1" "SKIPPED ($2)" 0 0
}

# The stages' commands. Each is one && chain so that it stops at its first failure
# (set -e does not apply inside a function called as a condition).
build_preset() {
    cmake --preset "$1" -DGRIDBLAS_WARNINGS_AS_ERRORS="$WARNINGS_AS_ERRORS" &&
        cmake --build --preset "$1" --parallel "$JOBS"
}
release_tests() {
    ctest --preset release --parallel "$JOBS" --label-exclude '^install$'
}
asan_tests() {
    ctest --preset debug-asan --parallel "$JOBS"
}
install_test() {
    ctest --preset release --label-regex '^install$'
}
fuzz() {
    if [[ ! -f scripts/run-fuzz.sh ]]; then
        echo "test-all: scripts/run-fuzz.sh is missing: cannot run the fuzzers"
        return 1
    fi
    bash scripts/run-fuzz.sh "$FUZZ_SECONDS"
}

echo "test-all: $(nproc) cores, ${JOBS} jobs; $(cmake --version | head -n1);" \
    "nvcc: $(command -v nvcc || echo 'not found'); warnings as errors: ${WARNINGS_AS_ERRORS}"
TOTAL_START=$SECONDS

if stage deps bash scripts/setup-deps.sh; then
    if stage release-build build_preset release; then
        stage release-tests release_tests || true
        release_ok=1
    else
        skip release-tests "release build failed"
        release_ok=0
    fi
    if stage asan-build build_preset debug-asan; then
        stage asan-tests asan_tests || true
    else
        skip asan-tests "asan build failed"
    fi
    stage fuzz fuzz || true
    if [[ $release_ok -eq 1 ]]; then
        stage install install_test || true
    else
        skip install "release build failed"
    fi
else
    for s in release-build release-tests asan-build asan-tests fuzz install; do
        skip "$s" "dependencies missing"
    done
fi

# Summary: one line per stage, then the totals.
echo
echo "=================== test-all: summary ==================="
echo "  stage          wall s  cpu s   result"
passed=0
failed=0
for i in "${!STAGE_NAMES[@]}"; do
    printf '  %-14s %6s %6s   %s\n' "${STAGE_NAMES[$i]}" "${STAGE_SECONDS[$i]}" \
        "${STAGE_CPU[$i]}" "${STAGE_RESULTS[$i]}"
    if [[ "${STAGE_RESULTS[$i]}" == PASS ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
done
read_cpu
printf '  %-14s %6s %6s\n' total "$((SECONDS - TOTAL_START))" "$CPU_NOW"
echo "stages: ${passed} passed, ${failed} failed"
[[ $failed -eq 0 ]]
