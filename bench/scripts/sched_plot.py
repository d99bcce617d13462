#!/usr/bin/python3
"""Plots of bench_sched's tables: one PNG per table CSV.

usage: /usr/bin/python3 bench/scripts/sched_plot.py RESULTS_DIR
       /usr/bin/python3 bench/scripts/sched_plot.py --markdown RESULTS_DIR

Reads RESULTS_DIR/sched_{micro,hybrid,lazy}.csv (written by
build/release/bench/bench_sched) and writes RESULTS_DIR/sched_<table>.png:
  micro, lazy  one panel per benchmark: speedup Ts/Tp of every variant on
               1 and 2 workers (log scale; 1 = the sequential loop);
  hybrid       balanced and unbalanced rows: work efficiency Ts/T1, speedup
               Ts/T2 and loop affinity (% of iterations on the same worker
               as in the previous step, 2 workers).
A variant that failed is drawn as an empty bar labelled FAILED. With
--markdown nothing is drawn: the tables are printed as Markdown (the form
docs/benchmarks-sched.md quotes). A table
whose CSV is missing is skipped with a message. Needs Debian's
python3-matplotlib (installed for /usr/bin/python3 by scripts/deps.sh).
"""
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from bench_csv import load, num  # noqa: E402

FAMILY_COLOURS = {"sequential": "#777777", "adapt": "#d95f02", "openmp": "#1b9e77",
                  "tbb": "#7570b3"}


def ordered(values):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


def stamp(rows):
    r = rows[0]
    return "%s, commit %s, %s" % (r["date"], r["commit"] or "?", r["host"])


def speed_panels(rows, title, out):
    benches = ordered(r["bench"] for r in rows)
    fig, axes = plt.subplots(1, len(benches), figsize=(5.2 * len(benches), 6.5), squeeze=False)
    for ax, bench in zip(axes[0], benches):
        br = [r for r in rows if r["bench"] == bench]
        impls = ordered(r["impl"] for r in br)
        fams = {r["impl"]: r["family"] for r in br}
        h = 0.38
        vals = [num(r["speedup_vs_seq"]) for r in br]
        top = max([v for v in vals if not math.isnan(v)] + [2.0]) * 1.6
        low = min([v for v in vals if not math.isnan(v) and v > 0] + [0.1]) / 1.6
        for k, workers in enumerate(("1", "2")):
            for j, impl in enumerate(impls):
                rr = [r for r in br if r["impl"] == impl and r["workers"] == workers]
                y = j + (k - 0.5) * h
                if not rr:
                    continue
                r = rr[0]
                sp = num(r["speedup_vs_seq"])
                if r["status"] != "ok" or math.isnan(sp):
                    ax.text(low * 1.1, y, "FAILED (P=%s)" % workers, va="center", fontsize=7,
                            color="red")
                    continue
                ax.barh(y, sp, height=h, color=FAMILY_COLOURS.get(fams[impl], "#999999"),
                        alpha=0.55 if workers == "1" else 1.0,
                        hatch="//" if workers == "1" else None, edgecolor="white")
                ax.text(sp * 1.05, y, "%.3g" % sp, va="center", fontsize=6)
        ax.set_yticks(range(len(impls)))
        ax.set_yticklabels(impls, fontsize=8)
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.set_xlim(low, top)
        ax.axvline(1.0, color="black", lw=0.8)
        ax.axvline(2.0, color="black", lw=0.5, ls=":")
        ax.set_xlabel("speedup Ts/Tp (hatched: 1 worker, solid: 2 workers)")
        ax.set_title(bench, fontsize=10)
    fig.suptitle("%s\n%s" % (title, stamp(rows)), fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def hybrid_panels(rows, out):
    benches = ordered(r["bench"] for r in rows)
    def top(workers, field, floor):
        vals = [num(r[field]) for r in rows if r["workers"] == workers]
        return max([v for v in vals if not math.isnan(v)] + [floor]) * 1.15

    cols = [("1", "speedup_vs_seq", "work efficiency Ts/T1 (1 worker)",
             (0, top("1", "speedup_vs_seq", 1.0))),
            ("2", "speedup_vs_seq", "speedup Ts/T2 (2 workers)",
             (0, top("2", "speedup_vs_seq", 2.0))),
            ("2", "affinity_pct", "loop affinity, % (2 workers)", (0, 115))]
    fig, axes = plt.subplots(len(benches), 3, figsize=(16, 4.4 * len(benches)), squeeze=False)
    for bi, bench in enumerate(benches):
        br = [r for r in rows if r["bench"] == bench and r["family"] != "sequential"]
        impls = ordered(r["impl"] for r in br)
        fams = {r["impl"]: r["family"] for r in br}
        for ci, (workers, field, label, lim) in enumerate(cols):
            ax = axes[bi][ci]
            for j, impl in enumerate(impls):
                rr = [r for r in br if r["impl"] == impl and r["workers"] == workers]
                if not rr:
                    continue
                v = num(rr[0][field])
                if rr[0]["status"] != "ok" or math.isnan(v):
                    ax.text(lim[1] * 0.02, j, "FAILED", va="center", fontsize=7, color="red")
                    continue
                ax.barh(j, v, color=FAMILY_COLOURS.get(fams[impl], "#999999"))
                ax.text(v + lim[1] * 0.01, j, "%.3g" % v, va="center", fontsize=7)
            ax.set_yticks(range(len(impls)))
            ax.set_yticklabels(impls if ci == 0 else [""] * len(impls), fontsize=8)
            ax.invert_yaxis()
            ax.set_xlim(*lim)
            if field == "speedup_vs_seq":
                ax.axvline(1.0, color="black", lw=0.8)
            ax.set_title("%s: %s" % (bench, label), fontsize=9)
    fig.suptitle("Table 2 (hybrid): iterative microbenchmarks, stride-13 access\n%s"
                 % stamp(rows), fontsize=10)
    fig.subplots_adjust(left=0.09, right=0.98, top=0.9, bottom=0.06, wspace=0.12, hspace=0.25)
    fig.savefig(out, dpi=110)
    plt.close(fig)


def cell(r, field, f):
    if r is None:
        return "-"
    if r["status"] != "ok":
        return "FAILED"
    v = num(r[field])
    return "-" if math.isnan(v) else f % v


def markdown(rows, table):
    out = []
    for bench in ordered(r["bench"] for r in rows):
        br = [r for r in rows if r["bench"] == bench]
        by = {(r["impl"], r["workers"]): r for r in br}
        out.append("**%s**\n" % bench)
        if table == "hybrid":
            out.append("| variant | T1 ms | T2 ms | Ts/T1 | Ts/T2 | T1/T2 | affinity (P=2) "
                       "| T2 / best peer |")
            out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
            for impl in ordered(r["impl"] for r in br):
                r1, r2 = by.get((impl, "1")), by.get((impl, "2"))
                sc = "-"
                if r1 and r2 and r1["status"] == "ok" and r2["status"] == "ok":
                    sc = "%.2f" % (num(r1["median_ms"]) / num(r2["median_ms"]))
                aff = cell(r2, "affinity_pct", "%.1f%%")
                out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    impl, cell(r1, "median_ms", "%.2f"), cell(r2, "median_ms", "%.2f"),
                    cell(r1, "speedup_vs_seq", "%.3f"), cell(r2, "speedup_vs_seq", "%.3f"), sc,
                    aff, cell(r2, "ratio_to_best_peer", "%.2f")))
        else:
            out.append("| variant | T1 ms | Ts/T1 | T1 / best peer | T2 ms | Ts/T2 "
                       "| T2 / best peer |")
            out.append("|---|---:|---:|---:|---:|---:|---:|")
            for impl in ordered(r["impl"] for r in br):
                r1, r2 = by.get((impl, "1")), by.get((impl, "2"))
                out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                    impl, cell(r1, "median_ms", "%.2f"), cell(r1, "speedup_vs_seq", "%.3f"),
                    cell(r1, "ratio_to_best_peer", "%.2f"), cell(r2, "median_ms", "%.2f"),
                    cell(r2, "speedup_vs_seq", "%.3f"), cell(r2, "ratio_to_best_peer", "%.2f")))
        peers = []
        for w in ("1", "2"):
            rw = [r for r in br if r["workers"] == w]
            if rw:
                peers.append("P=%s: best peer %s, noise %.0f%%" % (
                    w, rw[0]["best_peer"] or "none", num(rw[0]["noise_pct"])))
        out.append("\n" + "; ".join(peers) + "\n")
    return "\n".join(out)


def main(argv):
    md = len(argv) == 3 and argv[1] == "--markdown"
    if len(argv) != 2 and not md:
        sys.stderr.write(__doc__)
        return 2
    d = argv[-1]
    if md:
        for table in ("micro", "hybrid", "lazy"):
            path = os.path.join(d, "sched_%s.csv" % table)
            if os.path.exists(path):
                rows = load(path)
                if rows:
                    print("### %s (%s)\n" % (table, stamp(rows)))
                    print(markdown(rows, table))
        return 0
    made = 0
    for table, title in (("micro", "Table 1 (micro): loop-frame thesis microbenchmarks, grain 1"),
                         ("hybrid", None),
                         ("lazy", "Table 3 (lazy): declarative nqueens / fib, no cut-off")):
        path = os.path.join(d, "sched_%s.csv" % table)
        if not os.path.exists(path):
            print("sched_plot: %s missing, skipped" % path)
            continue
        rows = load(path)
        if not rows:
            print("sched_plot: %s is empty, skipped" % path)
            continue
        out = os.path.join(d, "sched_%s.png" % table)
        if table == "hybrid":
            hybrid_panels(rows, out)
        else:
            speed_panels(rows, title, out)
        print("sched_plot: wrote %s" % out)
        made += 1
    return 0 if made else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
