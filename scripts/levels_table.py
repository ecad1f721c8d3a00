#!/usr/bin/env python3
"""The per-level table of scripts/bench-levels.sh from its logs.

    levels_table.py LOG_DIR ROUNDS COMMAND

LOG_DIR holds gridblas.rK.txt (gridblas-bfs --levels: one row per level, with its mean and
median time over the searches) and gapbs.rK.txt (GapBS bfs -l: per trial, one line per step:
"td N t" / "bu N t" with N the vertices found and t seconds, "e t" / "c t" for its queue <->
bitmap conversions, "i t" for its set-up) for K = 1..ROUNDS. A conversion is added to the
level after it. Levels are matched by position; a level whose found count differs between
the programs is flagged, since then they did not search alike.

Both programs' means and medians over their searches are compared: a stall of the machine
in one search moves the mean of a level, not the median. GapBS prints its times with five
decimals, in steps of 10 us (bench-levels.sh widens its copy to seven); a level GapBS took
in under five of its log's steps is marked, as its figures there are coarse.
"""

import pathlib
import re
import statistics
import sys


def gridblas_levels(text):
    """[(dir, found, edges, mean ms, median ms)] from the --levels table."""
    rows = []
    for line in text.splitlines():
        # (edges_max_rank, the fourth count after edges, is absent from older logs)
        m = re.match(r"\s*(\d+)\s+(TD|BU)\s+(\d+)\s+(\d+)\s+(\d+)(?:\s+\d+){3,4}"
                     r"\s+([\d.]+)\s+[\d.]+\s+([\d.]+)\s*$", line)
        if m:
            rows.append((m.group(2).lower(), int(m.group(4)), int(m.group(5)), float(m.group(6)),
                         float(m.group(7))))
    if not rows:
        raise SystemExit("levels_table.py: no --levels table in a gridblas log")
    return rows


def gapbs_levels(text):
    """Over trials: [(dir, found, mean ms, median ms)], conversions folded into the next
    level; and the step of its printed times in ms (from the decimals of the first)."""
    trials, cur, pending, step = [], None, 0.0, None
    for line in text.splitlines():
        if line.startswith("Source:"):
            cur, pending = [], 0.0
            trials.append(cur)
            continue
        if cur is None:
            continue
        m = re.match(r"\s*(td|bu)\s+(\d+)\s+([\d.eE+-]+)\s*$", line)
        if m:
            if step is None and "." in m.group(3) and "e" not in m.group(3).lower():
                step = 10.0 ** -len(m.group(3).split(".")[1]) * 1e3
            cur.append((m.group(1), int(m.group(2)), float(m.group(3)) * 1e3 + pending))
            pending = 0.0
            continue
        m = re.match(r"\s*([ec])\s+([\d.eE+-]+)\s*$", line)
        if m:
            pending += float(m.group(2)) * 1e3
    trials = [t for t in trials if t]
    if not trials:
        raise SystemExit("levels_table.py: no per-level lines in a GapBS log (bfs -l)")
    depth = min(len(t) for t in trials)
    return [(trials[0][k][0], trials[0][k][1], sum(t[k][2] for t in trials) / len(trials),
             statistics.median(t[k][2] for t in trials)) for k in range(depth)], step or 0.0


def ratios(ours, theirs):
    """"a / b / c": our value over theirs, round by round."""
    return " / ".join(f"{a / b:.2f}" if b > 0 else "-" for a, b in zip(ours, theirs))


def main():
    logs, rounds, command = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    ours = [gridblas_levels((logs / f"gridblas.r{r}.txt").read_text()) for r in range(1, rounds + 1)]
    parsed = [gapbs_levels((logs / f"gapbs.r{r}.txt").read_text()) for r in range(1, rounds + 1)]
    theirs = [p[0] for p in parsed]
    step = max(p[1] for p in parsed)  # ms
    depth = min(min(len(o) for o in ours), min(len(t) for t in theirs))
    print("# BFS level by level against GapBS\n")
    print(f"Command: `{command}`\n")
    print("Times are means per level (ms) over each program's searches, one value per round; "
          "ratio = gridblas ÷ GapBS (below 1: gridblas faster), of the means and of the medians "
          "(the median is not moved by a stall in one search). Edges: those gridblas examined "
          "on the level; edges per second from the means. GapBS's log gives times in steps of "
          f"{step * 1e3:g} us; a level marked * took it under five such steps.\n")
    print("| level | dir (gridblas / GapBS) | found | edges | gridblas ms | GapBS ms | ratio |"
          " ratio of medians | gridblas Medges/s | GapBS Medges/s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for k in range(depth):
        d, found, edges = ours[0][k][:3]
        td, tfound = theirs[0][k][:2]
        mine = [o[k][3] for o in ours]
        gap = [t[k][2] for t in theirs]
        coarse = " *" if min(t[k][3] for t in theirs) < 5 * step else ""
        flag = "" if found == tfound else f" (GapBS: {tfound})"
        rate = " / ".join(f"{edges / a / 1e3:.0f}" if a > 0 else "-" for a in mine)
        grate = " / ".join(f"{edges / b / 1e3:.0f}" if b > 0 else "-" for b in gap)
        print(f"| {k}{coarse} | {d.upper()} / {td.upper()} | {found}{flag} | {edges} | "
              f"{' / '.join(f'{a:.3f}' for a in mine)} | {' / '.join(f'{b:.3f}' for b in gap)} | "
              f"{ratios(mine, gap)} | {ratios([o[k][4] for o in ours], [t[k][3] for t in theirs])}"
              f" | {rate} | {grate} |")
    total_ours = [sum(r[3] for r in o[:depth]) for o in ours]
    total_gap = [sum(r[2] for r in t[:depth]) for t in theirs]
    print(f"\nSum over levels: gridblas {' / '.join(f'{a:.2f}' for a in total_ours)} ms, GapBS "
          f"{' / '.join(f'{b:.2f}' for b in total_gap)} ms (GapBS's set-up step \"i\" excluded).")


if __name__ == "__main__":
    main()
