#!/usr/bin/env bash
# gridblas-kron writes the graph gridblas-bfs generates: the file, read back by gridblas-bfs
# --file, must have exactly the stored entries of the --scale run (symmetrised, no self-loops,
# no duplicates), and searches on it must validate.
set -u
mpiexec=$1
kron=$2
bfs=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$kron" --scale 9 --edgefactor 8 --seed 3 --output "$dir/k.mtx" || { echo "FAIL: gridblas-kron"; exit 1; }
head -n 1 "$dir/k.mtx" | grep -q '^%%MatrixMarket matrix coordinate pattern symmetric$' ||
    { echo "FAIL: unexpected header: $(head -n 1 "$dir/k.mtx")"; exit 1; }
gen=$("$mpiexec" -np 2 ${GRIDBLAS_MPIEXEC_OVERSUBSCRIBE-} --bind-to none "$bfs" --scale 9 --edgefactor 8 --seed 3 \
      --roots 2 2>&1) || { printf '%s\n' "$gen"; echo "FAIL: gridblas-bfs --scale"; exit 1; }
file=$("$mpiexec" -np 2 ${GRIDBLAS_MPIEXEC_OVERSUBSCRIBE-} --bind-to none "$bfs" --file "$dir/k.mtx" --roots 4 2>&1) ||
    { printf '%s\n' "$file"; echo "FAIL: gridblas-bfs --file"; exit 1; }
a=$(grep '^stored_entries:' <<<"$gen")
b=$(grep '^stored_entries:' <<<"$file")
echo "generated: $a; from the file: $b"
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: stored entries differ"; exit 1; }
lines=$(grep -vc '^%' "$dir/k.mtx")
[ "$(( (lines - 1) * 2 ))" = "${a#stored_entries: }" ] ||
    { echo "FAIL: $((lines - 1)) edges in the file, $a stored entries"; exit 1; }
grep -q '^validation: passed' <<<"$file" || { printf '%s\n' "$file"; echo "FAIL: no validation"; exit 1; }
# The memory report: both peaks and the matrix's bytes per stored entry, all positive.
for key in construction_peak_rss_gib search_peak_rss_gib matrix_bytes_per_stored_entry; do
    v=$(grep "^$key:" <<<"$file" | awk '{print $2}')
    awk -v v="$v" 'BEGIN { exit !(v > 0) }' || { echo "FAIL: $key is '$v'"; exit 1; }
done
echo "OK"
