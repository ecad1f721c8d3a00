#!/usr/bin/env python3
"""Summarises an Nsight Compute table of a gridblas-bfs run (standard library only).

  ncu_summary.py NCU_CSV [--searches K] [--json BFS_JSON]

NCU_CSV is what `ncu --csv --page raw --print-units base --metrics ...` wrote (with
--log-file): one row per kernel launch, a units row, and possibly ==PROF== lines. The
metrics read are those scripts/device-gpu-profile.sh asks for: gpu__time_duration.sum (ns),
dram__bytes_read.sum and dram__bytes_write.sum (bytes),
gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed and
sm__throughput.avg.pct_of_peak_sustained_elapsed (%), dram__bytes.sum.peak_sustained (bytes
per DRAM cycle) and dram__cycles_elapsed.avg.per_second (DRAM cycles per second).

Prints per kernel: launches, time and DRAM bytes per search (the totals divided by K, the
number of identical searches profiled), the DRAM throughput as a fraction of peak (time-
weighted over the launches) and the SM throughput. Then the search as a whole: the summed
kernel time, the DRAM bytes, the bandwidth over the kernel time and, given the unprofiled
run's JSON (gridblas-bfs --json, one search key), over the search's wall-clock time, each as
a fraction of the peak that ncu reports for the device.
"""

import csv
import json
import sys
from collections import OrderedDict

TIME = "gpu__time_duration.sum"
READ = "dram__bytes_read.sum"
WRITE = "dram__bytes_write.sum"
DRAM_PCT = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"
SM_PCT = "sm__throughput.avg.pct_of_peak_sustained_elapsed"
PEAK_PER_CYCLE = "dram__bytes.sum.peak_sustained"
CYCLES_PER_S = "dram__cycles_elapsed.avg.per_second"


def number(text):
    """A metric value as float (ncu may group digits with commas); None when empty."""
    t = (text or "").strip().replace(",", "")
    if t in ("", "n/a", "N/A"):
        return None
    try:
        return float(t)
    except ValueError:
        return None


def read_rows(path):
    """The launch rows of the table as dicts (header from the line starting with "ID")."""
    with open(path, newline="") as f:
        lines = [ln for ln in f if not ln.startswith("==")]
    start = next((k for k, ln in enumerate(lines) if ln.startswith('"ID"')), None)
    if start is None:
        raise SystemExit(f"ncu_summary: {path} has no table (no line starting with \"ID\")")
    rows = []
    for rec in csv.DictReader(lines[start:]):
        if (rec.get("ID") or "").strip().isdigit():
            rows.append(rec)
    return rows


def kernel_name(rec):
    name = rec.get("Kernel Name") or rec.get("Function Name") or rec.get("Demangled Name") or "?"
    # Keep the function's own name: drop the return type, template arguments, parameters
    # and namespaces ("(anonymous namespace)" and "<unnamed>" first: they hold a parenthesis or
    # an angle bracket; ncu spells the anonymous namespace either way, by version).
    for anonymous in ("(anonymous namespace)", "<unnamed>"):
        name = name.replace(anonymous, "anon")
    name = name.split("(")[0].split("<")[0]
    return name.split("::")[-1].split(" ")[-1].strip() or "?"


def summarise(rows, searches):
    kernels = OrderedDict()
    peak = None
    for rec in rows:
        name = kernel_name(rec)
        k = kernels.setdefault(name, {"n": 0, "ns": 0.0, "bytes": 0.0, "pct_ns": 0.0, "sm_ns": 0.0})
        ns = number(rec.get(TIME)) or 0.0
        k["n"] += 1
        k["ns"] += ns
        k["bytes"] += (number(rec.get(READ)) or 0.0) + (number(rec.get(WRITE)) or 0.0)
        k["pct_ns"] += (number(rec.get(DRAM_PCT)) or 0.0) * ns
        k["sm_ns"] += (number(rec.get(SM_PCT)) or 0.0) * ns
        per_cycle, per_s = number(rec.get(PEAK_PER_CYCLE)), number(rec.get(CYCLES_PER_S))
        if per_cycle and per_s and peak is None:
            peak = per_cycle * per_s  # bytes per second
    return kernels, peak


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    path, searches, bfs_json = argv[0], 1, None
    k = 1
    while k < len(argv):
        if argv[k] == "--searches":
            searches = max(1, int(argv[k + 1]))
            k += 2
        elif argv[k] == "--json":
            bfs_json = argv[k + 1]
            k += 2
        else:
            raise SystemExit(f"ncu_summary: unknown argument {argv[k]}")
    rows = read_rows(path)
    if not rows:
        raise SystemExit(f"ncu_summary: {path} lists no kernel launch")
    kernels, peak = summarise(rows, searches)
    total_ns = sum(v["ns"] for v in kernels.values())
    total_bytes = sum(v["bytes"] for v in kernels.values())

    print(f"ncu: {path}: {len(rows)} launches over {searches} search(es); per search:")
    print(f"  {'kernel':<26}{'launches':>9}{'time us':>11}{'share':>8}{'DRAM MB':>10}"
          f"{'DRAM %pk':>10}{'SM %pk':>8}")
    for name, v in sorted(kernels.items(), key=lambda kv: -kv[1]["ns"]):
        share = v["ns"] / total_ns if total_ns else 0.0
        dram = v["pct_ns"] / v["ns"] if v["ns"] else 0.0
        sm = v["sm_ns"] / v["ns"] if v["ns"] else 0.0
        print(f"  {name[:25]:<26}{v['n'] / searches:>9.1f}{v['ns'] / searches / 1e3:>11.1f}"
              f"{share:>8.1%}{v['bytes'] / searches / 1e6:>10.2f}{dram:>9.1f}%{sm:>7.1f}%")
    kt = total_ns / searches * 1e-9
    kb = total_bytes / searches
    line = f"  search: kernel time {kt * 1e3:.3f} ms, DRAM {kb / 1e6:.1f} MB"
    if kt > 0:
        line += f", {kb / kt / 1e9:.0f} GB/s over kernel time"
        if peak:
            line += f" = {kb / kt / peak:.1%} of peak {peak / 1e9:.0f} GB/s"
    print(line)
    if bfs_json:
        try:
            with open(bfs_json) as f:
                d = json.load(f)
            wall = d["searches"][0]["seconds"]
            line = f"  unprofiled search {wall * 1e3:.3f} ms wall: kernels busy {kt / wall:.0%}"
            line += f", DRAM {kb / wall / 1e9:.0f} GB/s over wall time"
            if peak:
                line += f" = {kb / wall / peak:.1%} of peak"
            print(line)
        except (OSError, KeyError, IndexError, ValueError) as e:
            print(f"  (no wall-clock comparison: {bfs_json}: {e})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
