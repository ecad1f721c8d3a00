#!/usr/bin/env python3
"""Checks gridblas-bfs --levels and scripts/levels_table.py (scripts/bench-levels.sh's table).

    check_levels_table.py --driver GRIDBLAS_BFS --mpiexec MPIEXEC --script LEVELS_TABLE --work DIR

1. gridblas-bfs searches one root several times on two ranks with --levels and --json; each
   level's time_ms and median_ms in the table must be the mean and the median of that level's
   seconds over the searches in the JSON record.
2. levels_table.py is given that log and a GapBS `bfs -l` log written here, whose levels have
   the same directions and counts and chosen times (one trial a "stall", so that means and
   medians differ, and a queue-to-bitmap conversion before the first bottom-up level, which
   must count in that level); its ratios of means and of medians must be those worked out
   here, and the levels GapBS took in under five steps of its log's times must be marked:
   under 0.05 ms in a log of five decimals (GapBS's own), none in one of seven (the copy
   bench-levels.sh builds).
Exit status 0 when every check passes, 1 with the failures listed otherwise.
"""

import argparse
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys

# level, dir, frontier, discovered, edges, edges_max_rank, (messages, bytes), times
ROW = re.compile(r"\s*(\d+)\s+(TD|BU)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s+\d+"
                 r"\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$")
RANKS = 2

# GapBS trial times (seconds) of every level but the first: a fast trial, a middling one and
# a stall. Mean 4.333 ms, median 2 ms (plus the conversion where there is one).
TRIALS = [0.00100, 0.00200, 0.01000]
# The first level: coarse times, as GapBS prints a level of a few microseconds.
FIRST_TRIALS = [0.00001, 0.00002, 0.00001]
CONVERSION = 0.00050  # "e" before the first bottom-up level


def close(a, b, ms_tol=0.0006, rel=0.01):
    return abs(a - b) <= ms_tol + rel * abs(b)


def printed_as(cell, value, decimals):
    """Whether `cell` is `value` printed with `decimals` decimals ("-" for None), allowing for
    the last digit of a value that falls on a rounding boundary."""
    if value is None:
        return cell == "-"
    try:
        return abs(float(cell) - value) <= 0.5 * 10.0 ** -decimals + 1e-9
    except ValueError:
        return False


def check_table(script, logs, rows, first_bu, decimals):
    """Runs levels_table.py on the gridblas log in `logs` and a GapBS log written here with
    times of `decimals` decimals; returns the failures."""
    failures = []
    step_ms = 10.0 ** -decimals * 1e3
    gap = ["Graph has 2048 nodes and 1 undirected edges for degree: 1"]
    for t in range(len(TRIALS)):
        gap += ["Source:                    3", f"    i                {0.001:.{decimals}f}"]
        for k, r in enumerate(rows):
            if k == first_bu:
                gap.append(f"    e                {CONVERSION:.{decimals}f}")
            secs = FIRST_TRIALS[t] if k == 0 else TRIALS[t]
            gap.append(f"   {r[1].lower()} {int(r[3]):>10d}     {secs:.{decimals}f}")
        gap.append("Trial Time:          0.01500")
    (logs / "gapbs.r1.txt").write_text("\n".join(gap) + "\n")
    table = subprocess.run([sys.executable, script, str(logs), "1", "the command"],
                           capture_output=True, text=True)
    if table.returncode != 0:
        return [f"levels_table.py failed ({decimals} decimals):\n{table.stdout}{table.stderr}"]
    lines = {}
    for line in table.stdout.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        m = re.match(r"(\d+)( \*)?$", cells[0]) if len(cells) == 10 else None
        if m:
            lines[int(m.group(1))] = (m.group(2) is not None, cells)
    what = f"({decimals} decimals)"
    if len(lines) != len(rows):
        failures.append(f"levels_table.py printed {len(lines)} levels, expected {len(rows)} {what}")
    for k, r in enumerate(rows):
        if k not in lines:
            continue
        marked, cells = lines[k]
        trials = [(FIRST_TRIALS if k == 0 else TRIALS)[t] * 1e3 for t in range(len(TRIALS))]
        if k == first_bu:
            trials = [x + CONVERSION * 1e3 for x in trials]
        gap_mean, gap_median = statistics.mean(trials), statistics.median(trials)
        want_ratio = float(r[5]) / gap_mean
        want_median = float(r[7]) / gap_median if gap_median > 0 else None
        if not printed_as(cells[6], want_ratio, 2):
            failures.append(f"level {k}: ratio {cells[6]}, expected {want_ratio:.4f} {what}")
        if not printed_as(cells[7], want_median, 2):
            failures.append(f"level {k}: ratio of medians {cells[7]}, expected {want_median} {what}")
        if not printed_as(cells[5], gap_mean, 3):
            failures.append(f"level {k}: GapBS mean {cells[5]}, expected {gap_mean:.4f} {what}")
        if marked != (gap_median < 5 * step_ms):
            failures.append(f"level {k}: marked {marked}, GapBS median {gap_median:.4f} ms {what}")
        if cells[2] != r[3]:
            failures.append(f"level {k}: found {cells[2]}, gridblas found {r[3]} {what}")
    if not failures:
        print(table.stdout)
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--script", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    work = pathlib.Path(args.work)
    logs = work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    failures = []

    run_json = work / "run.json"
    cmd = [args.mpiexec, "-n", str(RANKS), "--oversubscribe", "--bind-to", "none", args.driver,
           "--scale", "11", "--root", "3", "--roots", "7", "--threads", "1", "--levels", "--no-validate",
           "--json", str(run_json)]
    out = subprocess.run(cmd, capture_output=True, text=True, env=os.environ)
    if out.returncode != 0:
        print(out.stdout + out.stderr)
        print(f"check_levels_table: {' '.join(cmd)} exited with {out.returncode}")
        return 1
    (logs / "gridblas.r1.txt").write_text(out.stdout)
    full = [m.groups() for m in map(ROW.match, out.stdout.splitlines()) if m]
    if len(full) < 3:
        print(out.stdout)
        print("check_levels_table: no --levels table of three or more levels")
        return 1
    # edges_max_rank apart; the rest as (level, dir, frontier, found, edges, times...)
    rows = [g[:5] + g[6:] for g in full]

    # 0. The largest rank's reading lies between the mean over the ranks and the total.
    for g in full:
        edges, most = int(g[4]), int(g[5])
        if not (most <= edges and most * RANKS >= edges):
            failures.append(f"level {g[0]}: edges_max_rank {most} outside [{edges} / {RANKS}, "
                            f"{edges}]")

    # 1. The table's mean and median against the JSON record of every search.
    searches = json.loads(run_json.read_text())["searches"]
    if len(searches) != 7:
        failures.append(f"{len(searches)} searches in the JSON record, expected 7")
    for level, d, _, _, _, mean_ms, _, median_ms in rows:
        k = int(level)
        times = [s["levels"][k]["seconds"] * 1e3 for s in searches]
        if not close(float(mean_ms), statistics.mean(times)):
            failures.append(f"level {k}: time_ms {mean_ms}, mean of the searches "
                            f"{statistics.mean(times):.4f}")
        if not close(float(median_ms), statistics.median(times)):
            failures.append(f"level {k}: median_ms {median_ms}, median of the searches "
                            f"{statistics.median(times):.4f}")

    # 2. levels_table.py against a GapBS log with the same levels and chosen times.
    first_bu = next((k for k, r in enumerate(rows) if r[1] == "BU"), None)
    for decimals in (5, 7):
        failures += check_table(args.script, logs, rows, first_bu, decimals)
    if failures:
        print(out.stdout)
        print("check_levels_table: FAILED\n  " + "\n  ".join(failures))
        return 1
    print(f"check_levels_table: {len(rows)} levels, means and medians agree "
          f"(first bottom-up level: {first_bu})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
