#!/usr/bin/env bash
# Run bench_core K times in a row and show, for every headline figure, the
# lowest, median and highest of the K per-run medians: the run-to-run spread
# on this shared machine (docs/benchmarks-core.md quotes it).
#
# Usage: bench/scripts/core_spread.sh BENCH_CORE_BINARY [K] [OUT_DIR]
#   K       default 3
#   OUT_DIR default build/release/bench-results; run i writes its CSV in
#           $OUT_DIR/core-run<i>/ (table in $OUT_DIR/core-run<i>.txt), the
#           spread goes to $OUT_DIR/core_spread.csv
#   env BENCH_CORE_ARGS: extra options for bench_core (e.g. --quick to try it)
#   env CORE_SPREAD_SUMMARY_ONLY=1: do not run, only summarise the K runs
#       already in OUT_DIR
set -eu
set -o pipefail

bin="${1:?usage: core_spread.sh BENCH_CORE_BINARY [K] [OUT_DIR]}"
k="${2:-3}"
out="${3:-build/release/bench-results}"
[ -x "$bin" ] || { echo "core_spread: $bin is not an executable" >&2; exit 2; }
mkdir -p "$out"

for i in $(seq 1 "$k"); do
  [ -n "${CORE_SPREAD_SUMMARY_ONLY:-}" ] && break
  echo "== core_spread: run $i of $k, $(date -u '+%H:%M:%S UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
  # shellcheck disable=SC2086
  "$bin" --out "$out/core-run$i" ${BENCH_CORE_ARGS:-} >"$out/core-run$i.txt"
  sed -n '/^Summary of targets/,/^CSV/p' "$out/core-run$i.txt"
done

/usr/bin/python3 - "$out" "$k" <<'PY'
import csv, statistics, sys
out, k = sys.argv[1], int(sys.argv[2])
# The figures quoted in docs/benchmarks-core.md.
keys = [
    ("overhead", "time per iteration", "plain loop"),
    ("overhead", "extra time per iteration", "adapt grain 1"),
    ("overhead", "time ratio to plain loop", "adapt grain 1"),
    ("overhead", "time ratio to plain loop", "adapt default grain"),
    ("overhead", "time ratio to plain loop", "adapt default, 2^14/call"),
    ("overhead", "extra time per iteration", "omp dynamic,1"),
    ("overhead", "extra time per iteration", "tbb simple grain 1"),
    ("overhead", "time ratio to plain loop", "omp static, 2^14/call"),
    ("overhead", "time ratio to plain loop", "tbb auto, 2^14/call"),
    ("daxpy", "T1/Ts, n=2^15 (512 KiB, L2), 32 calls/sample", "adapt default grain"),
    ("daxpy", "T1/Ts, n=2^23 (128 MiB, DRAM), 1 call/sample", "adapt default grain"),
] + [("speedup", f"speedup Ts/Tp, 2 workers, {loop}", impl)
      for loop in ("balanced", "triangular")
      for impl in ("adapt default grain", "omp static", "omp dynamic", "omp guided", "tbb auto",
                   "tbb simple grain 1")] + [
    ("steal", "round trip median, 2000 regions x 4096 iterations (~20 ns), grain 1", "adapt"),
    ("idle", "CPU time during 1 s sleep between regions, 2 workers", "adapt"),
    ("idle", "CPU time during 1 s sleep between regions, 2 workers", "omp static"),
    ("idle", "CPU time during 1 s sleep between regions, 2 workers", "tbb auto"),
] + [(sec, "CPU share used by other processes", "machine")
     for sec in ("overhead", "daxpy", "speedup", "steal")]
runs = []
for i in range(1, k + 1):
    rows = {}
    with open(f"{out}/core-run{i}/core_summary.csv") as f:
        for r in csv.DictReader(f):
            rows[(r["section"], r["metric"], r["implementation"])] = r
    runs.append(rows)
print(f"\n== spread over {k} runs of bench_core (min / median / max of the per-run medians)")
with open(f"{out}/core_spread.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["section", "metric", "implementation", "unit", "target", "runs", "min", "median", "max", "per_run"])
    for key in keys:
        vals = [float(r[key]["median"]) for r in runs if key in r]
        if not vals:
            continue
        any_row = next(r[key] for r in runs if key in r)
        print(f"   {key[0]:8} {key[2]:26} {key[1][:58]:58} {min(vals):9.4g} {statistics.median(vals):9.4g}"
              f" {max(vals):9.4g} {any_row['unit']:6} {any_row['target']}")
        w.writerow([key[0], key[1], key[2], any_row["unit"], any_row["target"], len(vals), min(vals),
                    statistics.median(vals), max(vals), " ".join(f"{v:.4g}" for v in vals)])
print(f"CSV: {out}/core_spread.csv")
PY
