#!/usr/bin/env bash
# The SuiteSparse:GraphBLAS batched Brandes baseline computes gridblas-graph bc's centralities
# (unnormalised, halved on undirected graphs): every vertex's value must agree to a relative
# 1e-9 (the two sum in different orders), on karate, west0067 symmetrised and directed, the
# LDBC directed example (some vertices unreachable) and jagmesh7, with repeated sources.
source "$(dirname "${BASH_SOURCE[0]}")/graphblas_vs_common.sh"
vs karate 1e-9 bc "$data/karate.mtx" --sources 0,5,33
vs west0067 1e-9 bc "$data/west0067.mtx" --sources 0,1,17,40,66
vs west0067-directed 1e-9 bc "$data/west0067.mtx" --sources 0,1,17,40,66 --directed
vs ldbc-directed 1e-9 bc "$data/ldbc-directed-example.mtx" --sources 1,3,3 --directed
vs jagmesh7 1e-9 bc "$data/jagmesh7.mtx" --sources 0,100,1000,1137
echo "PASS"
