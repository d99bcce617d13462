#!/usr/bin/env python3
"""Picture of the workers in the sequence: one panel per adaptive mode, x the
time since the start of the cell phase, y the cell index, one colour per
worker, the window (static, sliding) in the panel's title. Input: the CSV of
`adapt-isosurface --positions FILE` (mode, worker, begin, end, t_ns, window:
worker ran cells [begin, end) from t_ns on, the mode's window in cells, 0
without one).

usage: /usr/bin/python3 trace_plot.py POSITIONS.csv OUT.png [TITLE]
(Debian's python3-matplotlib belongs to /usr/bin/python3.)
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODES = ["nowin", "static", "sliding"]


def load(path):
    """The events of each mode, and each mode's window (0: none)."""
    runs = defaultdict(list)
    windows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            runs[r["mode"]].append(
                (int(r["worker"]), int(r["begin"]), int(r["end"]), int(r["t_ns"]) / 1e6)
            )
            windows[r["mode"]] = int(r.get("window") or 0)
    return runs, windows


def spread(events):
    """Median, over time, of the distance between the lowest and the highest
    worker position (cells): how far apart the workers run."""
    last = {}
    gaps = []
    for w, b, _e, _t in sorted(events, key=lambda x: x[3]):
        last[w] = b
        if len(last) > 1:
            gaps.append(max(last.values()) - min(last.values()))
    gaps.sort()
    return gaps[len(gaps) // 2] if gaps else 0


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    runs, windows = load(sys.argv[1])
    modes = [m for m in MODES if m in runs]
    if not modes:
        sys.exit("trace_plot: no nowin, static or sliding events in " + sys.argv[1])
    ncells = max(e for ev in runs.values() for _w, _b, e, _t in ev)
    fig, axes = plt.subplots(1, len(modes), figsize=(5 * len(modes), 4.6), sharey=True, squeeze=False)
    colours = plt.get_cmap("tab10")
    for ax, mode in zip(axes[0], modes):
        ev = runs[mode]
        workers = sorted({w for w, _b, _e, _t in ev})
        for w in workers:
            mine = sorted((x for x in ev if x[0] == w), key=lambda x: x[3])
            # A segment per event: from its start time to the next one's.
            # A dot per event at its start, its span as a vertical tick
            # (a worker descheduled by the system leaves a gap in time).
            ax.vlines([t for _w, _b, _e, t in mine], [b for _w, b, _e, _t in mine],
                      [e for _w, _b, e, _t in mine], color=colours(w % 10), linewidth=1.5)
            ax.plot([t for _w, _b, _e, t in mine], [b for _w, b, _e, _t in mine], ".",
                    markersize=2.5, color=colours(w % 10), label=f"worker {w}")
        window = f", window {windows[mode]:,} cells" if windows.get(mode) else ""
        ax.set_title(f"{mode}{window}: {len(workers)} workers {spread(ev):,} cells apart (median)",
                     fontsize=9)
        ax.set_xlabel("time in the cell phase (ms)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    axes[0][0].set_ylabel("cell index")
    axes[0][0].set_ylim(0, ncells)
    title = sys.argv[3] if len(sys.argv) == 4 else "Each worker's position in the cell sequence"
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    print(f"trace_plot: {sys.argv[2]} ("
          + ", ".join(f"{m}: {len(runs[m])} events"
                      + (f", window {windows[m]:,} cells" if windows.get(m) else "")
                      for m in modes) + ")")


if __name__ == "__main__":
    main()
