#!/usr/bin/python3
"""Chart of an adapt-isosurface CSV: time per mode/peer, and cache misses
relative to the sequential run (PAPI counters from the same CSV, or the
cache simulation CSV of cachesim.sh when given).

usage: /usr/bin/python3 chart.py TABLE.csv OUT.png [CACHESIM.csv] [--title TEXT]
(--title: a line above both panels, e.g. the dataset.)
Debian's matplotlib belongs to /usr/bin/python3 (not the python3 first on
PATH on the team machines)."""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    args = sys.argv[1:]
    title = None
    if "--title" in args:
        i = args.index("--title")
        if i + 1 >= len(args):
            sys.exit("chart.py: --title needs a value\n" + __doc__)
        title = args[i + 1]
        del args[i:i + 2]
    if len(args) not in (2, 3):
        sys.exit(__doc__)
    rows = load(args[0])
    if not rows:
        sys.exit("chart.py: empty table " + args[0])
    sim = load(args[2]) if len(args) == 3 else []
    names = [r["name"] for r in rows]
    times = [1e3 * float(r["time_s"]) for r in rows]
    colors = ["#4c72b0" if r["kind"] == "libadapt" else "#c44e52" for r in rows]
    workers = rows[0]["workers"]
    tets = int(rows[0]["tets"])

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5))
    bars = ax1.bar(range(len(rows)), times, color=colors)
    for b, t in zip(bars, times):
        ax1.text(b.get_x() + b.get_width() / 2, b.get_height(), "%.0f" % t,
                 ha="center", va="bottom", fontsize=8)
    ax1.set_xticks(range(len(rows)))
    ax1.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
    ax1.set_ylabel("extraction time, ms (median)")
    # The window of the windowed modes (static, sliding): one value a run.
    wins = sorted({int(r["window"]) for r in rows if r.get("window") not in (None, "", "0")})
    window = (", window %s cells" % "/".join("{:,}".format(w) for w in wins)) if wins else ""
    ax1.set_title("%d tetrahedra, %s workers/threads%s (blue: libadapt, red: VTK)"
                  % (tets, workers, window), fontsize=9)

    # Cache misses relative to seq: PAPI columns ending in _rel, else the simulation.
    # Columns with no value (no PMU; the locality model without its inputs) are left out.
    def column(c):
        return [float(r[c]) if r.get(c) not in (None, "", "nan") else math.nan for r in rows]

    rel_cols = [c for c in rows[0].keys()
                if c.endswith("_rel") and c != "PAPI_TOT_CYC_rel"
                and not all(math.isnan(v) for v in column(c))]
    series = []
    if rel_cols and not sim:
        for c in rel_cols:
            label = ("predicted LL misses (locality model)" if c == "predicted_ll_rel"
                     else c[:-4])
            series.append((label, names, column(c)))
        papi = any(c != "predicted_ll_rel" for c in rel_cols)
        ax2.set_title("PAPI counters relative to seq" if papi
                      else "predicted misses relative to seq", fontsize=9)
    elif sim:
        snames = [r["name"] for r in sim]
        ll_label = "LL misses (simulated LL size/ways/line %s)" % sim[0].get("LL", "")
        for c, label in (("LL_rel", ll_label), ("D1_rel", "D1 misses (simulated)")):
            if c in sim[0]:
                series.append((label, snames, [float(r[c]) for r in sim]))
        ax2.set_title("cachegrind-simulated misses relative to seq (callgrind --cache-sim)",
                      fontsize=9)
    if series:
        width = 0.8 / len(series)
        for i, (label, xs, vals) in enumerate(series):
            pos = [j + (i - (len(series) - 1) / 2) * width for j in range(len(xs))]
            ax2.bar(pos, vals, width=width, label=label)
            for p, v in zip(pos, vals):
                if not math.isnan(v):
                    ax2.text(p, v, "%.2f" % v, ha="center", va="bottom", fontsize=7)
        ax2.set_xticks(range(len(series[0][1])))
        ax2.set_xticklabels(series[0][1], rotation=30, ha="right", fontsize=8)
        ax2.axhline(1.0, color="gray", lw=0.8, ls="--")
        ax2.set_ylabel("misses / misses of seq")
        ax2.legend(fontsize=8)
    else:
        ax2.axis("off")
        ax2.text(0.5, 0.5,
                 "no cache counters on this machine\n"
                 "(PAPI found no PMU; see the run's message)\n"
                 "run apps/isosurface/tools/cachesim.sh for simulated misses",
                 ha="center", va="center", fontsize=10)
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(args[1], dpi=110)
    print("chart written to " + args[1])


if __name__ == "__main__":
    main()
