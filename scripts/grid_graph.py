#!/usr/bin/env python3
"""Writes the W x W grid graph (a 2D mesh) as a symmetric pattern Matrix Market file.

Vertex (r, c) has the 1-based id r * W + c + 1 and an edge to its right and lower
neighbours; each undirected edge is written once, in the lower triangle (row > column), as
the symmetric format asks. W = 1024 gives the graph of the high-diameter measurements in
benchmarks/RESULTS.md: 1,048,576 vertices, 2,095,104 undirected edges, depth 2,046 from a
corner and about 1,000-1,500 from a random key.

Usage: grid_graph.py W OUTPUT
"""
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 1
    try:
        w = int(sys.argv[1])
    except ValueError:
        w = 0
    if w < 2 or w > 46340:  # (W * W must fit in a 32-bit signed id)
        print(f"grid_graph.py: W must be an integer in [2, 46340], got {sys.argv[1]!r}",
              file=sys.stderr)
        return 1
    edges = 2 * w * (w - 1)
    with open(sys.argv[2], "w", encoding="ascii") as f:
        f.write("%%MatrixMarket matrix coordinate pattern symmetric\n")
        f.write(f"% {w} x {w} grid graph, written by gridblas scripts/grid_graph.py\n")
        f.write(f"{w * w} {w * w} {edges}\n")
        for r in range(w):
            base = r * w + 1
            lines = []
            for c in range(w):
                v = base + c
                if c + 1 < w:
                    lines.append(f"{v + 1} {v}\n")
                if r + 1 < w:
                    lines.append(f"{v + w} {v}\n")
            f.write("".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
