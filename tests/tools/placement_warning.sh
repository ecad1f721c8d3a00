#!/usr/bin/env bash
# The MPI programs' start-up check of rank placement (benchmarks/common/placement_check.hpp),
# with gridblas-bfs: two ranks bound to one core by a rankfile while Open MPI polls in its waits
# must bring the warning; the same with mpi_yield_when_idle on, and the ranks unbound, must not.
# Every run must still validate. Open MPI only (rankfiles and the control variable are its
# own): with another launcher, or where binding to a core is refused, the test reports Skipped
# (exit 77) and says why.
#
# usage: placement_warning.sh MPIEXEC GRIDBLAS_BFS WORKDIR
set -u
mpiexec=$1 bfs=$2 work=$3
if ! "$mpiexec" --version 2>&1 | grep -qE "Open MPI|OpenRTE|open-mpi\.org"; then
    echo "SKIP: the launcher is not Open MPI's"
    exit 77
fi
mkdir -p "$work"
host=$(hostname)
rankfile="$work/rankfile"
printf 'rank 0=%s slot=0\nrank 1=%s slot=0\n' "$host" "$host" >"$rankfile"
unset OMPI_MCA_mpi_yield_when_idle  # ctest's environment turns it on for every other test
warning='warning: up to 2 ranks are bound to 1 CPU(s) and Open MPI polls while it waits'

run() {  # run NAME LAUNCHER-OPTIONS...: the output in $out, the exit status in $rc
    local name=$1
    shift
    out=$(timeout 120 "$mpiexec" -np 2 "$@" "$bfs" --scale 8 --roots 2 2>&1)
    rc=$?
    printf '== %s (exit %d)\n%s\n' "$name" "$rc" "$out"
}

run "two ranks on core 0, polling" --rankfile "$rankfile"
if [ "$rc" -ne 0 ] && grep -qi "bind\|rankfile\|slot" <<<"$out"; then
    echo "SKIP: Open MPI would not bind two ranks to one core here"
    exit 77
fi
if [ "$rc" -ne 0 ] || ! grep -q '^validation: passed' <<<"$out"; then
    echo "FAIL: the run did not complete and validate"
    exit 1
fi
if ! grep -qF "$warning" <<<"$out"; then
    echo "FAIL: no placement warning for two polling ranks on one core"
    exit 1
fi
run "two ranks on core 0, yielding" --rankfile "$rankfile" --mca mpi_yield_when_idle 1
if [ "$rc" -ne 0 ] || ! grep -q '^validation: passed' <<<"$out" || grep -q 'warning: up to' <<<"$out"; then
    echo "FAIL: a yielding placement must run without the warning"
    exit 1
fi
run "unbound" ${GRIDBLAS_MPIEXEC_OVERSUBSCRIBE-} --bind-to none
if [ "$rc" -ne 0 ] || ! grep -q '^validation: passed' <<<"$out" || grep -q 'warning: up to' <<<"$out"; then
    echo "FAIL: unbound ranks must run without the warning"
    exit 1
fi
echo "OK: the warning comes exactly where two ranks poll on one core"
