#!/usr/bin/env bash
# gridblas-bfs on a Matrix Market file, checked against the serial BFS of tests/reference
# (check_bfs_output): one search from ROOT written with --output, levels and parents compared
# vertex by vertex along the graph the program should have read (MODE: directed or
# undirected), the `graph:` header line checked, and the run validated; where
# GRIDBLAS_EXPECT_LINE is set, the report must hold that line.
#
# usage: bfs_file_cli.sh MPIEXEC NP GRIDBLAS_BFS CHECKER FILE ROOT MODE WORKDIR [ARGS...]
# GRIDBLAS_MPIEXEC_OVERSUBSCRIBE (set by ctest): the launcher's oversubscription option.
set -u
mpiexec=$1 np=$2 bfs=$3 checker=$4 file=$5 root=$6 mode=$7 work=$8
shift 8
mkdir -p "$work"
levels="$work/levels.txt"
log="$work/stdout.txt"
rm -f "$levels" "$log"
timeout 120 "$mpiexec" -np "$np" ${GRIDBLAS_MPIEXEC_OVERSUBSCRIBE-} --bind-to none "$bfs" --file "$file" \
    --root "$root" --output "$levels" "$@" >"$log"
rc=$?
cat "$log"
if [ "$rc" -ne 0 ]; then
    echo "FAIL: gridblas-bfs exited with status $rc"
    exit 1
fi
if ! grep -q '^validation: passed' "$log"; then
    echo "FAIL: the search did not validate"
    exit 1
fi
if [ -n "${GRIDBLAS_EXPECT_LINE-}" ] && ! grep -qxF "$GRIDBLAS_EXPECT_LINE" "$log"; then
    echo "FAIL: the report has no line '$GRIDBLAS_EXPECT_LINE'"
    exit 1
fi
"$checker" "$file" "$root" "$levels" "$mode" "$log"
