#!/usr/bin/env bash
# Plots one search of a gridblas-bfs --json file with gnuplot: the frontier size and the
# vertices discovered per level (log scale, coloured by direction: top-down / bottom-up), and
# the bytes sent per level (as encoded on the wire, and before compression).
#
# Usage: scripts/plot-levels.sh JSON OUT.png|OUT.svg [SEARCH]   (SEARCH: index, default 0)
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
    sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 1
fi
json=$1
png=$2
search=${3:-0}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

case "$png" in
    *.png) terminal="pngcairo size 1150,760 font 'Sans,11'" ;;
    *.svg) terminal="svg size 1150,760 dynamic font 'Sans,11'" ;;
    *) echo "plot-levels.sh: the output must end in .png or .svg" >&2; exit 1 ;;
esac
command -v gnuplot > /dev/null || { echo "plot-levels.sh: gnuplot not found" >&2; exit 1; }

dat=$(mktemp --suffix=.dat)
trap 'rm -f "$dat"' EXIT
python3 "$here/bfs_json.py" levels "$json" --search "$search" > "$dat"
# The first header line names the run: "# FILE: search K of N, root R, ...".
title=$(head -n 1 "$dat" | sed 's/^# [^:]*: //')

gnuplot <<EOF
set terminal $terminal
set output "$png"
set datafile commentschars "#"
set multiplot layout 2,1 title "gridblas-bfs: $title" font ",12"
set grid ytics mytics lc rgb "#dddddd"
set logscale y
set format y "10^{%L}"
set xtics 1
stats "$dat" using 1 nooutput
set xrange [STATS_min - 0.6 : STATS_max + 0.6]
set key outside right top box
set lmargin at screen 0.08
set rmargin at screen 0.75
td = "#1f77b4"; bu = "#d62728"

set ylabel "vertices"
set yrange [0.5:*]
set title "frontier (expanded) and discovered vertices per level"
plot "$dat" using 1:3 with lines lc rgb "#999999" lw 1.5 notitle, \
     "" using 1:(\$2 == 0 ? \$3 : 1/0) with points pt 7 ps 1.6 lc rgb td title "frontier, top-down", \
     "" using 1:(\$2 == 1 ? \$3 : 1/0) with points pt 5 ps 1.6 lc rgb bu title "frontier, bottom-up", \
     "" using 1:(\$4 > 0 ? \$4 : 1/0) with linespoints dt 2 pt 6 ps 1.2 lc rgb "#555555" title "discovered"

set ylabel "bytes (all ranks)"
set yrange [*:*]
set xlabel "level"
set title "bytes sent per level"
set style fill solid 0.8 border -1
set boxwidth 0.6
plot "$dat" using 1:(\$2 == 0 && \$5 > 0 ? \$5 : 1/0) with boxes lc rgb td title "on the wire, top-down", \
     "" using 1:(\$2 == 1 && \$5 > 0 ? \$5 : 1/0) with boxes lc rgb bu title "on the wire, bottom-up", \
     "" using 1:(\$6 > 0 ? \$6 : 1/0) with points pt 2 ps 1.6 lw 2 lc rgb "black" title "before compression"
unset multiplot
EOF
echo "plot-levels.sh: wrote $png" >&2
