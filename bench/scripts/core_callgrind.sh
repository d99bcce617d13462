#!/usr/bin/env bash
# Instructions per iteration of the 1-worker loop implementations of
# bench_core (plain loop, adapt_for at grain 1 and at the default grain,
# OpenMP dynamic,1 and static, TBB simple grain 1 and auto), counted by
# valgrind --tool=callgrind: the repeatable overhead figure on a noisy VM.
#
# bench_core --callgrind N runs every implementation on N and on 2N
# iterations, each between callgrind client requests (zero the counters,
# dump them with a label). Per implementation:
#   Ir/iter      = (Ir(2N) - Ir(N)) / N        marginal cost of one iteration
#   extra Ir/iter = Ir/iter - Ir/iter of the plain loop
#   fixed Ir/call = Ir(N) - N * Ir/iter         cost of one call (region start/end)
#
# Usage: bench/scripts/core_callgrind.sh BENCH_CORE_BINARY [OUT_DIR] [N]
#   OUT_DIR default build/release/bench-results (writes core_callgrind.csv)
#   N       default 65536
# Note: under valgrind the program runs ~50x slower, so the automatic grain
# (chosen from measured time per chunk) may come out smaller than natively.
set -eu
set -o pipefail

bin="${1:?usage: core_callgrind.sh BENCH_CORE_BINARY [OUT_DIR] [N]}"
out="${2:-build/release/bench-results}"
n="${3:-65536}"

if ! command -v valgrind >/dev/null 2>&1; then
  echo "core_callgrind: valgrind is not installed (Debian package 'valgrind'); skipping the instruction counts" >&2
  exit 0
fi
[ -x "$bin" ] || { echo "core_callgrind: $bin is not an executable" >&2; exit 2; }

mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# One worker for adapt, whatever the environment says (the binary also asks
# for workers=1 explicitly).
ADAPT_WORKERS=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
  --dump-line=no --compress-strings=no --compress-pos=no \
  "$bin" --callgrind "$n" >"$tmp/stdout" 2>"$tmp/valgrind.log" || {
  echo "core_callgrind: valgrind failed; its log:" >&2
  cat "$tmp/valgrind.log" >&2
  exit 1
}

# Each dump file has "desc: Trigger: Client Request: core:<impl>:n=<N>" and
# a "totals: <Ir>" (or "summary: <Ir>") line.
for f in $(ls -v "$tmp"/cg.out.*); do
  label="$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")"
  ir="$(sed -n 's/^totals: \([0-9]*\).*/\1/p; s/^summary: \([0-9]*\).*/\1/p' "$f" | head -1)"
  case "$label" in core:*) printf '%s\t%s\n' "$label" "$ir" ;; esac
done >"$tmp/counts.tsv"

if [ ! -s "$tmp/counts.tsv" ]; then
  echo "core_callgrind: no labelled dump found; valgrind log:" >&2
  cat "$tmp/valgrind.log" >&2
  exit 1
fi

date_utc="$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
host="$(uname -n)"
awk -F'\t' -v n="$n" -v csv="$out/core_callgrind.csv" -v when="$date_utc" -v host="$host" '
  {
    split($1, p, ":");            # core, <impl>, n=<N>
    impl = p[2]; sz = substr(p[3], 3) + 0;
    if (!(impl in seen)) { seen[impl] = 1; order[++k] = impl }
    if (sz == n) ir1[impl] = $2; else if (sz == 2 * n) ir2[impl] = $2;
  }
  END {
    if (!("plain loop" in ir2)) { print "core_callgrind: no plain-loop count" > "/dev/stderr"; exit 1 }
    base = (ir2["plain loop"] - ir1["plain loop"]) / n;
    base_all = ir2["plain loop"] / (2 * n);
    print "date,host,implementation,n,ir_n,ir_2n,ir_per_iteration,extra_ir_per_iteration,fixed_ir_per_call,ir_per_iteration_all_in_2n,extra_ir_per_iteration_all_in_2n" > csv;
    printf "\n== callgrind instructions (Ir) per iteration, ONE worker, calls of N=%d and 2N iterations\n", n;
    printf "   marginal: (Ir(2N)-Ir(N))/N; fixed: Ir(N) - N*marginal; all-in: Ir(2N)/2N (fixed cost included)\n";
    printf "   %-22s %10s %14s %14s %12s %14s\n", "implementation", "Ir/iter", "extra Ir/iter", "fixed Ir/call", "all-in", "extra all-in";
    for (i = 1; i <= k; i++) {
      m = order[i];
      per = (ir2[m] - ir1[m]) / n;
      fixed = ir1[m] - n * per;
      all = ir2[m] / (2 * n);
      printf "   %-22s %10.2f %14.2f %14.0f %12.2f %14.2f\n", m, per, per - base, fixed, all, all - base_all;
      printf "\"%s\",\"%s\",\"%s\",%d,%d,%d,%.3f,%.3f,%.0f,%.3f,%.3f\n", when, host, m, n, ir1[m], ir2[m], per, per - base, fixed, all, all - base_all >> csv;
    }
    printf "   (automatic grain under valgrind: calibrated on ~50x slower chunks, so smaller than natively;\n";
    printf "    \"adapt grain 4096\" stands for the native automatic grain)\n";
    printf "CSV: %s\n", csv;
  }' "$tmp/counts.tsv"
