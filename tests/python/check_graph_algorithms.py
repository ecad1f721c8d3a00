#!/usr/bin/env python3
"""Checks gridblas-graph against independent implementations.

Runs `gridblas-graph cc|pagerank|sssp` under mpirun on Matrix Market graphs of the test data
at several rank counts and grid shapes, and compares its --output with
scipy.sparse.csgraph.connected_components (component = smallest vertex id),
networkx.pagerank (L1 difference <= 1e-6) and scipy.sparse.csgraph.dijkstra (distances to a
relative 1e-12; every parent edge gives its vertex's distance; the same to 1e-5 with
--weights float, summed in float), networkx.triangles (the total
over vertices / 3), networkx.clustering (each coefficient to 1e-12) and, for multi-source BFS,
networkx.single_source_shortest_path_length from each source (every reached vertex, exactly),
and for betweenness centrality networkx.betweenness_centrality_subset from the same sources to
every vertex, unnormalised (relative 1e-9).

networkx and scipy are imported from the environment, or installed with pip into a folder
of the build tree; when neither works the check exits with status 77 (skipped) saying why.
"""

import argparse
import math
import os
import subprocess
import sys
import tempfile

SKIP = 77


def import_deps(deps_dir):
    try:
        import networkx  # noqa: F401
        import scipy  # noqa: F401
        return None
    except ImportError:
        pass
    sys.path.insert(0, deps_dir)
    try:
        import networkx  # noqa: F401,F811
        import scipy  # noqa: F401,F811
        return None
    except ImportError:
        pass
    os.makedirs(deps_dir, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
           "--target", deps_dir, "networkx", "scipy"]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except Exception as e:  # pip missing, timeout
        return f"cannot install networkx and scipy with pip: {e}"
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return f"pip install networkx scipy failed: {tail[0]}"
    try:
        import importlib
        importlib.invalidate_caches()
        import networkx  # noqa: F401,F811
        import scipy  # noqa: F401,F811
    except ImportError as e:
        return f"networkx/scipy installed but not importable: {e}"
    return None


def load_graph(path, directed):
    """Edges as gridblas builds them: self-loops dropped, reversed unless directed,
    duplicates keeping the smallest weight. Returns (n, {(u, v): w})."""
    import scipy.io
    m = scipy.io.mmread(path).tocoo()
    n = m.shape[0]
    edges = {}
    for u, v, w in zip(m.row.tolist(), m.col.tolist(), m.data.tolist()):
        if u == v:
            continue
        w = float(w)
        for key in ([(u, v)] if directed else [(u, v), (v, u)]):
            edges[key] = min(w, edges.get(key, math.inf))
    return n, edges


def csr(n, edges):
    import scipy.sparse
    rows = [u for u, _ in edges]
    cols = [v for _, v in edges]
    vals = [edges[k] for k in edges]
    return scipy.sparse.csr_matrix((vals, (rows, cols)), shape=(n, n))


def run_driver(args, np_, grid, algo, path, directed, extra):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.txt")
        cmd = [args.mpiexec, "-np", str(np_), "--oversubscribe", "--bind-to", "none",
               args.driver, algo, "--file", path, "--grid", grid, "--output", out] + extra
        if directed:
            cmd.append("--directed")
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr}")
        with open(out) as f:
            return [line.split() for line in f if line.strip()]


def check_cc(rows, n, edges, directed):
    import scipy.sparse.csgraph as cg
    _, labels = cg.connected_components(csr(n, edges), directed=directed, connection="weak")
    smallest = {}
    for v, lab in enumerate(labels.tolist()):
        smallest.setdefault(lab, v)
    want = [smallest[lab] for lab in labels.tolist()]
    got = [int(r[1]) for r in rows]
    if got != want:
        bad = [v for v in range(n) if got[v] != want[v]][:5]
        return f"components differ at vertices {bad}"
    return None


def check_pagerank(rows, n, edges, directed):
    import networkx as nx
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges.keys())  # both directions already present when undirected
    want = nx.pagerank(g, alpha=0.85, tol=1e-14, max_iter=10000, weight=None)
    got = [float(r[1]) for r in rows]
    l1 = sum(abs(got[v] - want[v]) for v in range(n))
    if l1 > 1e-6:
        return f"L1 difference from networkx.pagerank is {l1:.3g} > 1e-6"
    return None


def check_sssp(rows, n, edges, directed, source, tol=1e-12):
    """tol: relative tolerance on distances (1e-12 for double weights; float weights are
    summed in float, so their distances differ from scipy's double ones in the 7th digit)."""
    import scipy.sparse.csgraph as cg
    want = cg.dijkstra(csr(n, edges), directed=True, indices=source).tolist()
    for r in rows:
        v, d, p = int(r[0]), float(r[1]), int(r[2])
        w = want[v]
        if math.isinf(w) or math.isinf(d):
            if not (math.isinf(w) and math.isinf(d) and p == -1):
                return f"vertex {v}: distance {d} parent {p}, dijkstra says {w}"
            continue
        if abs(d - w) > tol * max(1.0, abs(w)):
            return f"vertex {v}: distance {d}, dijkstra says {w}"
        if v == source:
            if p != source:
                return f"source {v} has parent {p}"
            continue
        if (p, v) not in edges or abs(want[p] + edges[(p, v)] - w) > tol * max(1.0, w):
            return f"vertex {v}: parent {p} does not give its distance {w}"
    return None


def undirected_nx(n, edges):
    import networkx as nx
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges.keys())
    return g


def check_tc(rows, n, edges):
    import networkx as nx
    want = sum(nx.triangles(undirected_nx(n, edges)).values()) // 3
    if len(rows) != 1 or rows[0][0] != "triangles":
        return f"expected the single line 'triangles N', got {rows[:2]}"
    got = int(rows[0][1])
    if got != want:
        return f"{got} triangles, networkx.triangles says {want}"
    return None


def check_lcc(rows, n, edges):
    import networkx as nx
    want = nx.clustering(undirected_nx(n, edges))
    for r in rows:
        v, x = int(r[0]), float(r[1])
        if abs(x - want[v]) > 1e-12:
            return f"vertex {v}: coefficient {x}, networkx.clustering says {want[v]}"
    return None


def check_msbfs(rows, n, edges, sources):
    import networkx as nx
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges.keys())
    want = set()
    for s in sources:
        for v, d in nx.single_source_shortest_path_length(g, s).items():
            want.add((s, v, d))
    got = set((int(r[0]), int(r[1]), int(r[2])) for r in rows)
    if got != want:
        extra = sorted(got - want)[:3]
        missing = sorted(want - got)[:3]
        return f"levels differ from networkx: extra {extra}, missing {missing}"
    return None


def check_bc(rows, n, edges, directed, sources):
    import networkx as nx
    g = nx.DiGraph() if directed else nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges.keys())
    want = nx.betweenness_centrality_subset(g, sources, list(range(n)), normalized=False)
    for r in rows:
        v, x = int(r[0]), float(r[1])
        if abs(x - want[v]) > 1e-9 * max(1.0, abs(want[v])):
            return f"vertex {v}: centrality {x}, networkx says {want[v]}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--deps", required=True, help="folder for pip-installed packages")
    ap.add_argument("--max-np", type=int, default=6)
    args = ap.parse_args()
    why = import_deps(args.deps)
    if why:
        print(f"SKIPPED: {why}")
        return SKIP

    graphs = [  # file, directed, algorithms
        ("karate.mtx", False, ["cc", "pagerank", "sssp", "tc", "lcc", "msbfs", "bc"]),
        ("ldbc-undirected-example.mtx", False, ["cc", "pagerank", "sssp", "tc", "lcc"]),
        ("ldbc-directed-example.mtx", True, ["cc", "pagerank", "sssp", "msbfs", "bc"]),
        ("ldbc-wcc-example.mtx", False, ["cc", "pagerank", "sssp", "tc", "lcc"]),
        ("jagmesh7.mtx", False, ["tc", "lcc", "bc"]),
        ("ldbc-cdlp-directed-example.mtx", True, ["cc", "pagerank"]),
        ("west0067.mtx", True, ["cc", "pagerank", "msbfs", "bc"]),
    ]
    runs = [(np_, grid) for np_, grid in [(1, "1x1"), (2, "2x1"), (3, "1x3"), (4, "2x2"),
                                         (6, "2x3")] if np_ <= args.max_np]
    failures = 0
    checks = 0
    for name, directed, algos in graphs:
        path = os.path.join(args.data, name)
        n, edges = load_graph(path, directed)
        for algo in algos:
            sources = [0, n - 1] if algo == "sssp" else [None]
            for s in sources:
                # Two rank counts / grid shapes per case, rotating so every shape is used.
                for np_, grid in (runs[checks % len(runs)], runs[(checks + 2) % len(runs)]):
                    extra = []
                    if algo == "pagerank":
                        extra = ["--iterations", "10000", "--tolerance", "1e-13"]
                    if algo == "sssp":
                        extra = ["--source", str(s)]
                    msbfs_sources = [0, n // 2, n - 1, n // 2]
                    if algo == "msbfs":
                        extra = ["--sources", ",".join(str(x) for x in msbfs_sources)]
                    bc_sources = sorted(set([0, 1, n // 3, n // 2, n - 1]))
                    if algo == "bc":
                        extra = ["--sources", ",".join(str(x) for x in bc_sources)]
                    rows = run_driver(args, np_, grid, algo, path, directed, extra)
                    if algo == "msbfs":
                        err = check_msbfs(rows, n, edges, msbfs_sources)
                    elif algo == "tc":
                        err = check_tc(rows, n, edges)
                    elif len(rows) != n:
                        err = f"{len(rows)} output lines for {n} vertices"
                    elif algo == "cc":
                        err = check_cc(rows, n, edges, directed)
                    elif algo == "pagerank":
                        err = check_pagerank(rows, n, edges, directed)
                    elif algo == "lcc":
                        err = check_lcc(rows, n, edges)
                    elif algo == "bc":
                        err = check_bc(rows, n, edges, directed, bc_sources)
                    else:
                        err = check_sssp(rows, n, edges, directed, s)
                        if not err:
                            # Float weights: the parents come from packed labels during the
                            # search instead of a pass of their own.
                            rows = run_driver(args, np_, grid, algo, path, directed,
                                              extra + ["--weights", "float"])
                            err = check_sssp(rows, n, edges, directed, s, tol=1e-5)
                            if err:
                                err = "with --weights float: " + err
                    checks += 1
                    what = f"{algo} {name} np {np_} grid {grid}" + (
                        f" source {s}" if s is not None else "")
                    if err:
                        failures += 1
                        print(f"FAIL {what}: {err}")
                    else:
                        print(f"ok   {what}")
    print(f"{checks - failures} of {checks} checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
