#!/usr/bin/env bash
# The SuiteSparse:GraphBLAS triangle count equals gridblas-graph tc's: on karate (45
# triangles), west0067 (a general file: both symmetrise it), jagmesh7 (a mesh), bcsstk13
# (342,300 triangles), a small file with self-loops and repeated entries (2), and a
# 1200-vertex graph of 4 hubs joined to each other and to every other vertex (7180), whose
# skewed degrees make both renumber the vertices by degree.
source "$(dirname "${BASH_SOURCE[0]}")/graphblas_vs_common.sh"
printf '%s\n' '%%MatrixMarket matrix coordinate pattern general' '5 5 9' \
    '2 1' '3 1' '3 2' '1 2' '3 3' '4 3' '4 2' '5 5' '4 2' > "$dir/small.mtx"
awk 'BEGIN { print "%%MatrixMarket matrix coordinate pattern symmetric"
             print "1200 1200 4790"
             for (h = 1; h <= 4; h++) for (g = h + 1; g <= 4; g++) print g, h
             for (v = 5; v <= 1200; v++) for (h = 1; h <= 4; h++) print v, h }' > "$dir/hubs.mtx"
vs karate 0 tc "$data/karate.mtx"
vs west0067 0 tc "$data/west0067.mtx"
vs jagmesh7 0 tc "$data/jagmesh7.mtx"
vs bcsstk13 0 tc "$data/bcsstk13.mtx"
vs small 0 tc "$dir/small.mtx"
vs hubs 0 tc "$dir/hubs.mtx"
echo "PASS"
