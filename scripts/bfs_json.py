#!/usr/bin/env python3
"""Reads gridblas-bfs --json files (standard library only) for the benchmark scripts.

  bfs_json.py levels JSON [--search K]   per-level data of search K as a gnuplot .dat table
  bfs_json.py report MANIFEST            markdown results of a scripts/bench-bfs.sh run

MANIFEST is tab-separated: label, layout, grid, threads, direction, comm, rep, program,
json (or -), log, exit status. The report has one row per run, the median over the
repetitions of each configuration, message counts per search, and the bytes per search of
top-down-only and direction-optimising runs next to the model of Buluç et al. 2017 (References in README.md).
"""

import json
import statistics
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def level_sums(search):
    """(messages, bytes_wire, bytes_raw, bottom-up levels) of one search."""
    lv = search["levels"]
    return (sum(x["messages"] for x in lv), sum(x["bytes_wire"] for x in lv),
            sum(x["bytes_raw"] for x in lv), sum(x["direction"] == "bottomup" for x in lv))


def mean(xs):
    return statistics.fmean(xs) if xs else float("nan")


def cmd_levels(argv):
    path, k = argv[0], 0
    if len(argv) >= 3 and argv[1] == "--search":
        k = int(argv[2])
    d = load(path)
    s = d["searches"][k]
    print(f"# {path}: search {k} of {len(d['searches'])}, root {s['root']}, "
          f"{d['config']['ranks']} ranks, grid {d['config']['grid']}, "
          f"direction {d['config']['direction']}, comm {d['config']['comm']}")
    print("# level bottom_up frontier discovered bytes_wire bytes_raw messages "
          "edges_examined time_ms edges_examined_max_rank")
    for x in s["levels"]:
        # The busiest rank's count is absent from files written before it was recorded.
        print(x["level"], int(x["direction"] == "bottomup"), x["frontier"], x["discovered"],
              x["bytes_wire"], x["bytes_raw"], x["messages"], x["edges_examined"],
              f"{1e3 * x['seconds']:.4f}", x.get("edges_examined_max_rank", "-"))


def parse_log(path):
    """key: value lines of a program's output (the Graph500 block)."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                key, sep, value = line.partition(":")
                if sep and " " not in key.strip():
                    out[key.strip()] = value.strip()
    except OSError:
        pass
    return out


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return float("nan")


def read_run(row):
    label, layout, grid, threads, direction, comm, rep, program, jpath, log, rc = row
    run = dict(label=label, layout=layout, grid=grid, threads=threads, direction=direction,
               comm=comm, rep=int(rep), program=program, rc=int(rc), log=log)
    kv = parse_log(log)
    run["gteps"] = number(kv.get("harmonic_mean_TEPS")) / 1e9
    run["median_ms"] = number(kv.get("median_time")) * 1e3
    run["validation"] = kv.get("validation", "missing").split(" ")[0]
    run["searches"] = []
    if jpath != "-":
        try:
            d = load(jpath)
        except (OSError, ValueError):
            d = None
        if d:
            run["gteps"] = d["teps"]["harmonic_mean"] / 1e9
            run["median_ms"] = d["time"]["median"] * 1e3
            run["vertices"] = d["graph"]["vertices"]
            run["searches"] = d["searches"]
            pr, pc = (int(x) for x in d["config"]["grid"].split("x"))
            run["pr"], run["pc"] = pr, pc
    sums = [level_sums(s) for s in run["searches"]]
    run["messages"] = mean([x[0] for x in sums])
    run["bytes"] = mean([x[1] for x in sums])
    run["bytes_raw"] = mean([x[2] for x in sums])
    run["bu_levels"] = mean([x[3] for x in sums])
    return run


def fmt(x, spec):
    return "n/a" if x != x else format(x, spec)


def report(manifest):
    with open(manifest) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    runs = [read_run(r) for r in rows]
    print("## Runs\n")
    print("| configuration | layout | grid | dir | comm | rep | GTEPS (harmonic mean) | "
          "median time (ms) | messages / search | bytes / search | BU levels | validation |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        status = r["validation"] if r["rc"] == 0 else f"{r['validation']} (exit {r['rc']})"
        print(f"| {r['label']} | {r['layout']} | {r['grid']} | {r['direction']} | {r['comm']} "
              f"| {r['rep']} | {fmt(r['gteps'], '.4f')} | {fmt(r['median_ms'], '.2f')} "
              f"| {fmt(r['messages'], '.1f')} | {fmt(r['bytes'], '.4g')} "
              f"| {fmt(r['bu_levels'], '.2f')} | {status} |")

    print("\n## Per configuration (over the repetitions)\n")
    print("| configuration | runs | GTEPS median | GTEPS min .. max | median time (ms), median of "
          "the runs | messages / search |")
    print("|---|---|---|---|---|---|")
    labels = list(dict.fromkeys(r["label"] for r in runs))
    for label in labels:
        rs = [r for r in runs if r["label"] == label and r["gteps"] == r["gteps"]]
        if not rs:
            print(f"| {label} | 0 | n/a | n/a | n/a | n/a |")
            continue
        g = [r["gteps"] for r in rs]
        print(f"| {label} | {len(rs)} | {statistics.median(g):.4f} | {min(g):.4f} .. "
              f"{max(g):.4f} | {statistics.median(r['median_ms'] for r in rs):.2f} "
              f"| {fmt(mean([r['messages'] for r in rs]), '.1f')} |")
    model_section(runs)


def model_section(runs):
    print("\n## Bytes per search: measured vs the model of Buluç et al. 2017\n")
    print("Measured: the sum of `bytes_wire` over the levels of a search (all ranks; the "
          "per-search setup and the validation are not counted), averaged over the searches "
          "of all repetitions. Model (Buluç, Beamer, Madduri et al. 2017, §6): top-down "
          "w_t ≈ 4m + n·pr words, bottom-up w_b ≈ n·(s_b·(pr+pc+1)/64 + 2) words, 1 word = "
          "8 bytes, where m = undirected edges in the traversed component (mean over the "
          "searches), n = vertices (w_t: vertices reached; w_b: all 2^scale vertices, as the "
          "bitmaps cover them all), s_b = bottom-up levels per search (mean), pr × pc = "
          "the grid. The model assumes a square grid and the paper's layout (frontier "
          "gathered along the column); gridblas gathers along the grid row, so for a 1×2 vs "
          "2×1 grid compare n·pr with n·pc. Runs on 1 rank send nothing between ranks.\n")
    print("| layout | grid | comm | direction | m | n (reached / all) | s_b | measured bytes "
          "| model bytes | measured / model | raw bytes (before compression) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    keys = list(dict.fromkeys((r["layout"], r["grid"], r["comm"]) for r in runs
                              if r["program"] == "gridblas-bfs" and r["searches"]))
    for layout, grid, comm in keys:
        for direction in ("topdown", "auto", "bottomup"):
            rs = [r for r in runs if (r["layout"], r["grid"], r["comm"], r["direction"]) ==
                  (layout, grid, comm, direction) and r["searches"]]
            if not rs:
                continue
            searches = [s for r in rs for s in r["searches"]]
            m = mean([s["edges"] for s in searches])
            reached = mean([s["reached"] for s in searches])
            n_all = rs[0]["vertices"]
            pr, pc = rs[0]["pr"], rs[0]["pc"]
            sb = mean([level_sums(s)[3] for s in searches])
            measured = mean([level_sums(s)[1] for s in searches])
            raw = mean([level_sums(s)[2] for s in searches])
            if direction == "topdown":
                words = 4 * m + reached * pr
                what = "w_t"
            else:
                words = n_all * (sb * (pr + pc + 1) / 64 + 2)
                what = "w_b"
            model = 8 * words
            ratio = measured / model if model else float("nan")
            print(f"| {layout} | {grid} | {comm} | {direction} | {m:.4g} | {reached:.4g} / "
                  f"{n_all} | {sb:.2f} | {measured:.4g} | {what} = {model:.4g} "
                  f"| {ratio:.3f} | {raw:.4g} |")


def main(argv):
    if len(argv) >= 2 and argv[0] == "levels":
        cmd_levels(argv[1:])
    elif len(argv) == 2 and argv[0] == "report":
        report(argv[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
