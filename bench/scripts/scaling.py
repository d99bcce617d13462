#!/usr/bin/python3
"""make bench-scaling: the headline benchmarks at P = 1, 2, 4, ... workers.

usage: /usr/bin/python3 bench/scripts/scaling.py --bin BUILD_DIR --out DIR
           [--workers LIST] [--size short|full] [--reps N]
           [--suites core,sched,stl,iso] [--stl-args ARGS] [--iso-mesh DIMS]

Runs the existing benchmark binaries of BUILD_DIR (bench/bench_core,
bench/bench_sched, bench/bench_stl, apps/isosurface/adapt-isosurface) at
every worker count of --workers (default: 1, 2, 4, ... and the number of
CPUs this process may run on) and gathers their CSV files:
  core   bench_core --sections speedup,steal --workers P, one process per P:
         the compute-bound loops (balanced, triangular) and the steal
         statistics of the runtime (adapt_stats_*: steal round trip median
         and p90, requests posted, successful steals, steals per splitter
         call: how many thieves one split answered, the aggregation);
  sched  bench_sched --workers LIST: the micro, hybrid and lazy tables;
  stl    bench_stl --workers LIST: the STL algorithms (adapt and its peers);
  iso    adapt-isosurface --generate DIMS --field gyroid --workers P, modes
         seq, nowin, static, sliding, one process per P.
--size short (the default) passes each binary its --quick sizes (seconds to
a few minutes per P), full its defaults (tens of minutes per P); --reps N
the timed rounds of bench_sched and bench_stl and the isosurface
repetitions. A worker count above the CPU count is marked oversubscribed
everywhere: its figures test that the harness runs, not the runtime.

Writes in --out: scaling.csv (suite, case, implementation, family,
workers, oversubscribed, time_ms, speedup_vs_seq = Ts/Tp, status: one row
per figure), scaling_steals.csv (the core suite's steal statistics per P),
scaling.md (speedup tables, one column per P, and the steal table),
scaling.png (speedup curves: per case, adapt's best variant solid and the
best peer dashed, the ideal line dotted) and raw/ (each binary's own
output). Exit status 1 when a binary failed or a variant gave a wrong
result (marked FAILED in scaling.md). Needs python3-matplotlib for
/usr/bin/python3 (scripts/deps.sh).
"""
import argparse
import csv
import math
import os
import re
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from bench_csv import num  # noqa: E402

SUITES = ["core", "sched", "stl", "iso"]
SUITE_TITLES = {"core": "core loops (bench_core)", "sched": "schedulers (bench_sched)",
                "stl": "STL algorithms (bench_stl)", "iso": "isosurface (adapt-isosurface)"}


def cpus():
    return len(os.sched_getaffinity(0))


def default_workers():
    w, p = [], 1
    while p < cpus():
        w.append(p)
        p *= 2
    w.append(cpus())
    return w


def run(cmd, log):
    """Runs cmd with its output appended to log; returns its exit status."""
    print("+ " + " ".join(cmd), flush=True)
    with open(log, "a") as f:
        f.write("+ " + " ".join(cmd) + "\n")
        f.flush()
        return subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT)


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Runner:
    def __init__(self, a):
        self.a = a
        self.raw = os.path.join(a.out, "raw")
        self.log = os.path.join(self.raw, "log.txt")
        self.rows = []    # dicts of scaling.csv
        self.steals = []  # dicts of scaling_steals.csv
        self.errors = []

    def add(self, suite, case, impl, family, workers, ms, speedup, status="ok"):
        self.rows.append({"suite": suite, "case": case, "impl": impl, "family": family,
                          "workers": workers, "oversubscribed": int(workers > cpus()),
                          "time_ms": ms, "speedup_vs_seq": speedup, "status": status})

    def call(self, what, cmd):
        rc = run(cmd, self.log)
        if rc != 0:
            self.errors.append(f"{what}: exit status {rc} (see {self.log})")
        return rc

    def core(self):
        for p in self.a.workers:
            out = os.path.join(self.raw, f"core-{p}")
            cmd = [os.path.join(self.a.bin, "bench/bench_core"), "--sections", "speedup,steal",
                   "--workers", str(p), "--out", out]
            if self.a.size == "short":
                cmd.append("--quick")
            self.call(f"bench_core --workers {p}", cmd)
            path = os.path.join(out, "core_summary.csv")
            if not os.path.exists(path):
                continue
            ms = {}
            for r in load(path):
                m = r["metric"]
                if r["section"] == "speedup" and m.startswith("ms, "):
                    ms[(m[4:], r["implementation"])] = num(r["median"])
                elif r["section"] == "speedup" and m.startswith("speedup Ts/Tp"):
                    loop = m.rsplit(", ", 1)[1]
                    impl = r["implementation"]
                    family = impl.split()[0].replace("omp", "openmp")
                    self.add("core", loop + " loop", impl, family, p, ms.get((loop, impl)),
                             num(r["median"]))
                elif r["implementation"] == "machine":  # the noise of a section
                    self.steals.append({"workers": p, "oversubscribed": int(p > cpus()),
                                        "run": r["section"] + " section", "metric": m,
                                        "value": num(r["median"]), "unit": r["unit"]})
                elif r["section"] == "steal":
                    metric, label = m.split(", ", 1)
                    self.steals.append({"workers": p, "oversubscribed": int(p > cpus()),
                                        "run": label, "metric": metric,
                                        "value": num(r["median"]), "unit": r["unit"]})

    def sched(self):
        out = os.path.join(self.raw, "sched")
        cmd = [os.path.join(self.a.bin, "bench/bench_sched"), "--out", out, "--workers",
               ",".join(map(str, self.a.workers))]
        if self.a.size == "short":
            cmd.append("--quick")
        if self.a.reps:
            cmd += ["--reps", str(self.a.reps), "--slow-reps", str(self.a.reps)]
        self.call("bench_sched", cmd)
        for table in ("micro", "hybrid", "lazy"):
            path = os.path.join(out, f"sched_{table}.csv")
            if not os.path.exists(path):
                continue
            for r in load(path):
                if r["family"] == "sequential":
                    continue
                status = "ok" if r["status"] == "ok" else "FAILED"
                self.add("sched", f"{table}: {r['bench']}", r["impl"], r["family"],
                         int(r["workers"]), num(r["median_ms"]), num(r["speedup_vs_seq"]), status)

    def stl(self):
        out = os.path.join(self.raw, "stl")
        cmd = [os.path.join(self.a.bin, "bench/bench_stl"), "--out", out, "--workers",
               ",".join(map(str, self.a.workers)), "--no-window-table"]
        if self.a.size == "short":
            cmd.append("--quick")
        if self.a.reps:
            cmd += ["--reps", str(self.a.reps)]
        cmd += self.a.stl_args.split()
        self.call("bench_stl", cmd)
        path = os.path.join(out, "stl_summary.csv")
        if not os.path.exists(path):
            return
        for r in load(path):
            case = f"{r['algorithm']} {r['op']} n={int(num(r['n'])):.0e}".replace("+0", "")
            seq = num(r["seq_ms"])
            for impl, family in (("adapt", "adapt"), ("gnu", "openmp"), ("tbb", "tbb"),
                                 ("pstl", "tbb")):
                ratio = num(r[impl])  # T / Ts
                if math.isnan(ratio) or ratio <= 0:
                    continue
                self.add("stl", case, impl, family, int(r["workers"]), seq * ratio, 1 / ratio)

    def iso(self):
        binary = os.path.join(self.a.bin, "apps/isosurface/adapt-isosurface")
        reps = str(self.a.reps or 3)
        for p in self.a.workers:
            path = os.path.join(self.raw, f"iso-{p}.csv")
            cmd = [binary, "--generate", self.a.iso_mesh, "--field", "gyroid", "--mode",
                   "seq,nowin,static,sliding", "--workers", str(p), "--reps", reps,
                   "--events", "none", "--csv", path]
            if self.call(f"adapt-isosurface --workers {p}", cmd) != 0 or not os.path.exists(path):
                continue
            for r in load(path):
                if r["name"] == "seq":
                    continue
                self.add("iso", f"gyroid {self.a.iso_mesh}", r["name"], "adapt", p,
                         1e3 * num(r["time_s"]), num(r["speedup"]))


def write_csv(path, rows, fields):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if isinstance(v, float) and math.isnan(v) else v)
                        for k, v in r.items()})


def cell(r):
    if r is None:
        return "-"
    if r["status"] != "ok":
        return "FAILED"
    s = r["speedup_vs_seq"]
    return "-" if s is None or math.isnan(s) else f"{s:.2f}"


def p_label(p):
    return f"P={p}" + (" (over)" if p > cpus() else "")


def markdown(rn, workers):
    md = ["# bench-scaling", "",
          f"Speedup Ts/Tp over the sequential code, on {cpus()} CPUs; (over): more workers than "
          "CPUs (oversubscribed: the figures show that the run works, not how the runtime "
          f"scales). Sizes: {rn.a.size}.", ""]
    for suite in rn.a.suites:
        rows = [r for r in rn.rows if r["suite"] == suite]
        if not rows:
            continue
        md += [f"## {SUITE_TITLES[suite]}", "",
               "| case | implementation | " + " | ".join(p_label(p) for p in workers) + " |",
               "|---|---|" + "---:|" * len(workers)]
        keys = []
        for r in rows:
            if (r["case"], r["impl"]) not in keys:
                keys.append((r["case"], r["impl"]))
        by = {(r["case"], r["impl"], r["workers"]): r for r in rows}
        for case, impl in keys:
            md.append(f"| {case} | {impl} | " +
                      " | ".join(cell(by.get((case, impl, p))) for p in workers) + " |")
        md.append("")
    if rn.steals:
        md += ["## Steal statistics and noise (bench_core, adapt_stats_*)", "",
               "| run | metric | " + " | ".join(p_label(p) for p in workers) + " |",
               "|---|---|" + "---:|" * len(workers)]
        keys, by = [], {}
        for s in rn.steals:
            k = (s["run"], f"{s['metric']} ({s['unit']})")
            if k not in keys:
                keys.append(k)
            by[k + (s["workers"],)] = s["value"]
        for k in keys:
            vals = [by.get(k + (p,)) for p in workers]
            md.append(f"| {k[0]} | {k[1]} | " +
                      " | ".join("-" if v is None or math.isnan(v) else f"{v:.4g}"
                                 for v in vals) + " |")
        md.append("")
    if rn.errors:
        md += ["## Errors", ""] + [f"- {e}" for e in rn.errors] + [""]
    return "\n".join(md)


def best_of(rows, family_pred, case, last):
    """The implementation of `case` passing family_pred with the highest
    speedup at `last` workers."""
    cands = [r for r in rows if r["case"] == case and family_pred(r["family"]) and
             r["workers"] == last and r["status"] == "ok" and not math.isnan(r["speedup_vs_seq"])]
    return max(cands, key=lambda r: r["speedup_vs_seq"])["impl"] if cands else None


def plot(rn, workers, path):
    suites = [s for s in rn.a.suites if any(r["suite"] == s for r in rn.rows)]
    if not suites:
        return
    fig, axes = plt.subplots(1, len(suites), figsize=(5.5 * len(suites), 5), squeeze=False)
    last = max(workers)
    for ax, suite in zip(axes[0], suites):
        rows = [r for r in rn.rows if r["suite"] == suite]
        cases = []
        for r in rows:
            if r["case"] not in cases:
                cases.append(r["case"])
        colours = plt.cm.tab10.colors
        for k, case in enumerate(cases):
            col = colours[k % len(colours)]
            for pred, style, tag in ((lambda f: f == "adapt", "-", ""),
                                     (lambda f: f in ("openmp", "tbb"), "--", " (peer)")):
                impl = best_of(rows, pred, case, last)
                if impl is None:
                    continue
                pts = sorted((r["workers"], r["speedup_vs_seq"]) for r in rows
                             if r["case"] == case and r["impl"] == impl and r["status"] == "ok")
                ax.plot([p for p, _ in pts], [s for _, s in pts], style, marker="o", color=col,
                        label=(f"{case}: {impl}{tag}" if len(cases) <= 8 else None))
        ax.plot(workers, workers, ":", color="#777777", label="ideal")
        if last > cpus():
            ax.axvspan(cpus(), last, color="#dddddd", alpha=0.5, label="oversubscribed")
        ax.set_xscale("log", base=2)
        ax.set_xticks(workers)
        ax.set_xticklabels([str(p) for p in workers])
        ax.set_xlabel("workers P")
        ax.set_ylabel("speedup Ts/Tp")
        ax.set_title(SUITE_TITLES[suite], fontsize=10)
        ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--workers", default="")
    ap.add_argument("--size", choices=["short", "full"], default="short")
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--suites", default=",".join(SUITES))
    ap.add_argument("--stl-args", default="")
    ap.add_argument("--iso-mesh", default="")
    a = ap.parse_args()
    a.workers = (sorted({int(x) for x in a.workers.split(",")}) if a.workers
                 else default_workers())
    if not a.workers or min(a.workers) < 1:
        ap.error("--workers: positive counts")
    a.suites = [s for s in a.suites.split(",") if s]
    for s in a.suites:
        if s not in SUITES:
            ap.error(f"--suites: unknown suite '{s}' ({', '.join(SUITES)})")
    if not a.iso_mesh:
        a.iso_mesh = "40" if a.size == "short" else "160"
    if not re.fullmatch(r"[0-9]+(x[0-9]+x[0-9]+)?", a.iso_mesh):
        ap.error("--iso-mesh: N or NXxNYxNZ")
    rn = Runner(a)
    os.makedirs(rn.raw, exist_ok=True)
    open(rn.log, "w").close()
    over = [p for p in a.workers if p > cpus()]
    print(f"bench-scaling: P = {','.join(map(str, a.workers))} on {cpus()} CPUs"
          + (f"; oversubscribed: {','.join(map(str, over))}" if over else ""), flush=True)
    for s in a.suites:
        getattr(rn, s)()
    write_csv(os.path.join(a.out, "scaling.csv"), rn.rows,
              ["suite", "case", "impl", "family", "workers", "oversubscribed", "time_ms",
               "speedup_vs_seq", "status"])
    write_csv(os.path.join(a.out, "scaling_steals.csv"), rn.steals,
              ["workers", "oversubscribed", "run", "metric", "value", "unit"])
    with open(os.path.join(a.out, "scaling.md"), "w") as f:
        f.write(markdown(rn, a.workers))
    plot(rn, a.workers, os.path.join(a.out, "scaling.png"))
    print(f"bench-scaling: {a.out}/scaling.csv, scaling_steals.csv, scaling.md, scaling.png")
    failed = any(r["status"] != "ok" for r in rn.rows)
    for e in rn.errors:
        print("bench-scaling: " + e, file=sys.stderr)
    return 1 if rn.errors or failed else 0


if __name__ == "__main__":
    sys.exit(main())
