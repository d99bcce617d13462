#!/usr/bin/env python3
"""make bench-locality's report: OUTDIR/locality.md (Markdown tables) and
OUTDIR/locality.png (three panels: measured/simulated/modelled misses over
seq against P; the model's regime map; the window-size sweep) from the CSVs
of bench/scripts/locality.sh.

usage: /usr/bin/python3 locality_report.py OUTDIR
"""
import csv
import glob
import os
import re
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODES = ["seq", "nowin", "static", "sliding"]
# Shared-cache miss events, in order of preference (Intel/generic, Zen native).
LLC = ("PAPI_L3_TCM", "PAPI_L3_DCM", "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL")


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def read_optional(out, name):
    """The rows of OUT/name, none when the file is absent."""
    path = os.path.join(out, name)
    return read(path) if os.path.exists(path) else []


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def fmt(v, f="{:.3f}"):
    return f.format(v) if v is not None else "-"


def pct(v):
    return f"{(v - 1) * 100:+.0f}%" if v is not None else "-"


def measured(out, md, ax):
    series = defaultdict(list)
    files = glob.glob(os.path.join(out, "measured-*-P*.csv"))
    key = lambda q: (re.sub(r"-P\d+\.csv$", "", q), int(re.search(r"-P(\d+)\.csv$", q).group(1)))
    for path in sorted(files, key=key):
        m = re.match(r"measured-(.+)-P(\d+)\.csv", os.path.basename(path))
        mesh, p = m.group(1), int(m.group(2))
        r = {x["name"]: x for x in read(path)}
        sim = {x["name"]: x for x in read_optional(out, f"sim-{mesh}-P{p}.csv")}
        md += [f"### {mesh}, P = {p}", "",
               "| mode | time ms (median) | speedup | model | PMU | sim |",
               "|---|---|---|---|---|---|"]
        for mode in MODES:
            x = r.get(mode)
            if not x:
                continue
            pmu = None
            for e in LLC:
                if num(x.get(e + "_rel")) is not None:
                    pmu = num(x[e + "_rel"])
                    break
            s = num(sim.get(mode, {}).get("LL_rel")) if sim else None
            model = num(x.get("predicted_ll_rel"))
            t = num(x.get("time_s"))
            md.append(f"| {mode} | {fmt(t * 1e3 if t else None, '{:.1f}')} | "
                      f"{fmt(num(x.get('speedup')), '{:.2f}')} | {fmt(model)} | {fmt(pmu)} | {fmt(s)} |")
            for kind, v in (("model", model), ("PMU", pmu), ("sim", s)):
                if v is not None and mode != "seq":
                    series[(mesh, mode, kind)].append((p, v))
        md.append("")
    for (mesh, mode, kind), pts in sorted(series.items()):
        pts.sort()
        style = {"model": "-", "PMU": "--", "sim": ":"}[kind]
        ax.plot([p for p, _ in pts], [v for _, v in pts], style, marker="o", markersize=3,
                label=f"{mesh} {mode} ({kind})")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("workers P (measured run)")
    ax.set_ylabel("shared-cache misses / seq")
    ax.set_title("measured mesh: model, PMU, simulator", fontsize=9)
    ax.grid(alpha=0.3)
    if series:
        ax.legend(fontsize=6)


def regime(out, md, ax):
    rows = read_optional(out, "map.csv")
    if not rows:
        return
    ps = sorted({int(r["workers"]) for r in rows})
    cells = rows[0]["cells"]
    md += ["## The regime map (model only)", "",
           f"Misses over seq of nowin / static (sliding = static in the model), {cells} cells,",
           "cell phase only. `classified`: the current extraction (pre-pass over the points);",
           "`scalars`: the paper's kernel (each cell reads its four 32-byte points). Point",
           "numbering `keep` is the generator's (first use by the cells), `random` shuffled.", "",
           "| kernel | cells | points | cache KiB | " + " | ".join(f"P={p}" for p in ps) + " |",
           "|---|---|---|---|" + "---|" * len(ps)]
    table = defaultdict(dict)
    for r in rows:
        if r["mode"] == "seq":
            continue
        k = (r["kernel"], r["order"], r["point_order"], int(r["cache_bytes"]))
        table[k].setdefault(int(r["workers"]), {})[r["mode"]] = num(r["rel_seq"])
    kord = {"classified": 0, "scalars": 1}
    oord = {"lex": 0, "morton": 1, "hilbert": 2, "random": 3}
    for k in sorted(table, key=lambda k: (kord.get(k[0], 9), oord.get(k[1], 9), k[2], k[3])):
        cols = []
        for p in ps:
            d = table[k].get(p, {})
            cols.append(f"{pct(d.get('nowin'))} / {pct(d.get('static'))}")
        md.append(f"| {k[0]} | {k[1]} | {k[2]} | {k[3] // 1024} | " + " | ".join(cols) + " |")
    md.append("")
    # Panel: scalars kernel, nowin and static against P at the smallest
    # cache (where the cross-section reuses of the map's small mesh fall).
    caches = sorted({k[3] for k in table})
    mid = caches[0]
    for k in sorted(table):
        if k[0] != "scalars" or k[3] != mid:
            continue
        for mode, style in (("nowin", "-"), ("static", ":")):
            pts = sorted((p, d[mode]) for p, d in table[k].items() if mode in d)
            ax.plot([p for p, _ in pts], [v for _, v in pts], style, marker="o", markersize=3,
                    label=f"{k[1]}/{k[2]} {mode}")
    ax.axhline(1.3, color="grey", lw=0.8, ls="--")
    ax.axhline(1.05, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("workers P (model)")
    ax.set_ylabel("misses / seq")
    ax.set_title(f"regime map, scalars kernel, cache {mid // 1024} KiB", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6)


def sweep(out, md, ax):
    rows = read_optional(out, "sweep-model.csv")
    if not rows:
        return
    sim = read_optional(out, "sweep-sim.csv")
    simd = {}
    simseq = {}
    for r in sim:
        if r["mode"] == "seq":
            simseq[r["point_order"]] = num(r["LL_misses"])
    for r in sim:
        base = simseq.get(r["point_order"])
        v = num(r["LL_misses"])
        if base and v is not None and r["mode"] != "seq":
            simd[(r["point_order"], r["mode"], int(r["window"]))] = v / base
    cache = int(rows[0]["cache_bytes"])
    md += ["## Window size (static, P = 2)", "",
           f"Cache {cache // 1024} KiB, {rows[0]['cells']} cells; m in cells (the default m is the",
           "cache / footprint / 4). model: misses over seq; sim: valgrind (LL 16-way, D1 in",
           "front, counting the merge and the outputs too).", "",
           "| kernel | points | m | m x footprint / cache | model | sim |", "|---|---|---|---|---|---|"]
    cells = int(rows[0]["cells"])
    foot = 32 + 32 * int(rows[0]["points"]) // cells
    curves = defaultdict(list)
    for r in rows:
        if r["mode"] == "seq":
            continue
        w = int(r["window"]) if r["mode"] == "static" else 0
        s = simd.get((r["point_order"], r["mode"], w)) if r["kernel"] == "scalars" else None
        frac = w * foot / cache if w else None
        md.append(f"| {r['kernel']} | {r['point_order']} | {w if w else 'nowin'} | "
                  f"{fmt(frac, '{:.3f}')} | {fmt(num(r['rel_seq']))} | {fmt(s)} |")
        if w:
            curves[(r["kernel"], r["point_order"], "model")].append((frac, num(r["rel_seq"])))
            if s is not None:
                curves[(r["kernel"], r["point_order"], "sim")].append((frac, s))
    md.append("")
    for (k, po, kind), pts in sorted(curves.items()):
        pts.sort()
        best = min(pts, key=lambda t: (round(t[1], 3), -t[0]))
        md.append(f"- {k}, points {po}, {kind}: lowest misses at m x footprint / cache = "
                  f"{best[0]:.3f} ({fmt(best[1])} x seq)")
        ax.plot([f for f, _ in pts], [v for _, v in pts], "-" if kind == "model" else ":",
                marker="o", markersize=3, label=f"{k}/{po} ({kind})")
    md.append("")
    ax.axvline(0.25, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("window m x footprint / cache (default 1/4)")
    ax.set_ylabel("static misses / seq")
    ax.set_title("window size, P = 2", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6)


def main():
    out = sys.argv[1]
    md = ["# make bench-locality", ""]
    mt = os.path.join(out, "machine.txt")
    if os.path.exists(mt):
        md += [open(mt).read().strip(), ""]
    md += ["Misses relative to seq (1.000 = as many as the sequential run). `model`: the",
           "reuse-distance prediction of the cell phase (docs/locality.md); `PMU`: the",
           "shared-cache counter; `sim`: valgrind's simulated LL (cachesim.sh, whole",
           "extraction); time: median of alternating runs.", "",
           "## Measured", ""]
    fig, axes = plt.subplots(1, 3, figsize=(16, 5))
    measured(out, md, axes[0])
    regime(out, md, axes[1])
    sweep(out, md, axes[2])
    with open(os.path.join(out, "locality.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "locality.png"), dpi=100)
    print(f"locality_report: {out}/locality.md, {out}/locality.png")


if __name__ == "__main__":
    main()
