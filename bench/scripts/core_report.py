#!/usr/bin/python3
"""Markdown tables of one bench_core run (core_summary.csv), its callgrind
counts (core_callgrind.csv) and, if present, the spread of several runs
(core_spread.csv), for docs/benchmarks-core.md.

Usage: /usr/bin/python3 bench/scripts/core_report.py RUN_DIR [CALLGRIND_CSV] [SPREAD_CSV]
  RUN_DIR holds the core_summary.csv of the run to quote.
"""
import sys
from bench_csv import load


def fig(rows, section, metric, impl):
    for r in rows:
        if r["section"] == section and r["metric"] == metric and r["implementation"] == impl:
            return r
    return None


def ordered(values):
    """values without repeats, in first-seen order."""
    return list(dict.fromkeys(values))


def suffixes(run, section, prefix):
    """The metrics of `section` that start with `prefix`, without it, in run order."""
    return ordered(r["metric"][len(prefix):] for r in run
                   if r["section"] == section and r["metric"].startswith(prefix))


def fmt(r, digits=3):
    if r is None:
        return "n/a"
    return f"{float(r['median']):.{digits}f} [{float(r['p25']):.{digits}f}, {float(r['p75']):.{digits}f}]"


def main():
    run = load(sys.argv[1] + "/core_summary.csv")
    first = run[0]
    print(f"Run of {first['date']} on host `{first['host']}`.\n")

    noise = [r for r in run if r["implementation"] == "machine"]
    if noise:
        print("Machine noise during this run (share of the 2 CPUs; from /proc/stat):\n")
        print("| section | other processes | hypervisor steal |")
        print("|---|---|---|")
        for sec in dict.fromkeys(r["section"] for r in noise):
            o = fig(run, sec, "CPU share used by other processes", "machine")
            st = fig(run, sec, "CPU share stolen by the hypervisor", "machine")
            print(f"| {sec} | {float(o['median']):.0f}% | {float(st['median']):.0f}% |")
        print()

    has = {r["section"] for r in run}

    if "overhead" in has:
        overhead(run)
    if "daxpy" in has:
        daxpy(run)
    if "steal" in has:
        steal(run)
    if "speedup" in has:
        speedup(run)
    if "idle" in has:
        idle(run)
    rest(sys.argv)


def overhead(run):
    print("### 1. Overhead per iteration, one worker\n")
    print("Median [p25, p75] over 151 rounds of per-round differences with the plain loop.\n")
    print("| implementation | ns/iter | extra ns/iter | ratio to plain loop | target |")
    print("|---|---|---|---|---|")
    for m in ordered(r["implementation"] for r in run
                     if r["section"] == "overhead" and r["metric"] == "time per iteration"):
        per = fig(run, "overhead", "time per iteration", m)
        ex = fig(run, "overhead", "extra time per iteration", m)
        ra = fig(run, "overhead", "time ratio to plain loop", m)
        tgt = ""
        for r in (ex, ra):
            if r is not None and r["target"]:
                tgt = f"{r['target']}: **{r['status']}**"
        print(f"| {m} | {float(per['median']):.3f} | {fmt(ex) if ex else '-'} | "
              f"{fmt(ra, 4) if ra else '-'} | {tgt} |")
    print()



def daxpy(run):
    print("### 2. daxpy, one worker: T1/Ts\n")
    print("| case | adapt default grain | omp static | tbb auto | sequential ms/sample |")
    print("|---|---|---|---|---|")
    for c in suffixes(run, "daxpy", "T1/Ts, "):
        cells = [fmt(fig(run, "daxpy", "T1/Ts, " + c, m), 4)
                 for m in ("adapt default grain", "omp static", "tbb auto")]
        seq = fig(run, "daxpy", "ms per sample, " + c, "sequential loop")
        print(f"| {c} | " + " | ".join(cells) + f" | {float(seq['median']):.3f} |")
    print()



def steal(run):
    print("### 3. Steal round trip, two workers\n")
    print("| run | median ns | p90 ns | requests | steals | timeouts |")
    print("|---|---|---|---|---|---|")
    for l in suffixes(run, "steal", "requests posted, "):
        med = fig(run, "steal", "round trip median, " + l, "adapt")
        p90 = fig(run, "steal", "round trip p90, " + l, "adapt")
        req = fig(run, "steal", "requests posted, " + l, "adapt")
        st = fig(run, "steal", "successful steals, " + l, "adapt")
        to = fig(run, "steal", "request timeouts, " + l, "adapt")
        print(f"| {l} | {float(med['median']):.0f} | {float(p90['median']) if p90 else 0:.0f} | "
              f"{float(req['median']):.0f} | {float(st['median']):.0f} | {float(to['median']):.0f} |")
    print()



def speedup(run):
    print("### 4. Two-worker speedup Ts/Tp\n")
    print("Median [p25, p75] over 21 rounds of per-round ratios to the sequential loop.\n")
    loops = ["balanced", "triangular"]
    print("| implementation | " + " | ".join(loops) + " |")
    print("|---|---|---|")
    seq = [fig(run, "speedup", "ms, " + l, "sequential loop") for l in loops]
    print("| sequential loop (ms) | " + " | ".join(f"{float(s['median']):.2f} ms" for s in seq) + " |")
    for m in ordered(r["implementation"] for r in run
                     if r["section"] == "speedup" and r["metric"].startswith("speedup")):
        cells = []
        for l in loops:
            r = fig(run, "speedup", "speedup Ts/Tp, 2 workers, " + l, m)
            c = fmt(r)
            if r is not None and r["target"]:
                c += f" (target {r['target']}: **{r['status']}**)"
            cells.append(c)
        print(f"| {m} | " + " | ".join(cells) + " |")
    print()



def idle(run):
    print("### 5. CPU time while sleeping 1 s between two 2-worker regions\n")
    print("| runtime | CPU ms during the 1 s sleep | target |")
    print("|---|---|---|")
    for r in run:
        if r["section"] == "idle":
            t = f"{r['target']}: **{r['status']}**" if r["target"] else ""
            print(f"| {r['implementation']} | {fmt(r)} | {t} |")
    print("\nMedian [p25, p75] of the child runs: 3 for adapt, 1 for each peer.\n")



def rest(argv):
    if len(argv) > 2:
        print("### callgrind: instructions per iteration, one worker\n")
        print("| implementation | Ir/iter | extra Ir/iter | fixed Ir per call |")
        print("|---|---|---|---|")
        for r in load(argv[2]):
            print(f"| {r['implementation']} | {float(r['ir_per_iteration']):.2f} | "
                  f"{float(r['extra_ir_per_iteration']):.2f} | {float(r['fixed_ir_per_call']):.0f} |")
        print()

    if len(argv) > 3:
        rows = load(argv[3])
        print(f"### Spread over {rows[0]['runs']} runs in a row (min / median / max of the per-run medians)\n")
        print("| section | figure | implementation | min | median | max | target |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['section']} | {r['metric']} | {r['implementation']} | {float(r['min']):.4g} | "
                  f"{float(r['median']):.4g} | {float(r['max']):.4g} {r['unit']} | {r['target']} |")
        print()


if __name__ == "__main__":
    main()
