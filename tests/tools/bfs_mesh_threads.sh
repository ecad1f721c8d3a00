#!/usr/bin/env bash
# gridblas-bfs on a 300 x 300 grid graph with THREADS OpenMP threads per rank, checked against
# the serial BFS like every file case (bfs_file_cli.sh). Its levels find a few hundred vertices
# each, which the threads plan, claim and record together (the small-level parallel paths of
# the claim kernel and of the level record, whose thread count grows with the level's size:
# with three threads, levels of 256 to 383 vertices are recorded on two and larger ones on
# three); the parents must still be the smallest ones.
#
# usage: bfs_mesh_threads.sh MPIEXEC NP GRIDBLAS_BFS CHECKER WORKDIR THREADS [ARGS...]
set -u
mpiexec=$1 np=$2 bfs=$3 checker=$4 work=$5 threads=$6
shift 6
mkdir -p "$work"
mesh="$work/grid300.mtx"
# The grid graph of scripts/grid_graph.py, which bench-mesh.sh searches at 1024 x 1024.
python3 "$(dirname "$0")/../../scripts/grid_graph.py" 300 "$mesh" || exit 1
# Vertex 45150 (0-based: row 150, column 150) is the centre: levels of up to 600 vertices.
exec bash "$(dirname "$0")/bfs_file_cli.sh" "$mpiexec" "$np" "$bfs" "$checker" "$mesh" 45150 \
    undirected "$work" --threads "$threads" "$@"
