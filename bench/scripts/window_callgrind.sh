#!/usr/bin/env bash
# Instructions per element of adapt_for_each / adapt_transform (per-element
# and range forms, automatic grain, grain 4096, static and sliding windows)
# against the plain loop, ONE worker, counted by valgrind --tool=callgrind:
# the repeatable overhead figure on a noisy VM.
#
# bench_window --callgrind N runs every implementation on N and 2N elements
# between callgrind client requests. Per implementation:
#   Ir/elem       = (Ir(2N) - Ir(N)) / N     marginal cost of one element
#   extra Ir/elem = Ir/elem - Ir/elem of the plain loop
#   fixed Ir/call = Ir(N) - N * Ir/elem      cost of one call
#
# Usage: bench/scripts/window_callgrind.sh BENCH_WINDOW_BINARY [OUT_DIR] [N]
#   OUT_DIR default build/release/bench-results (writes window_callgrind.csv)
#   N       default 65536
set -eu
set -o pipefail

bin="${1:?usage: window_callgrind.sh BENCH_WINDOW_BINARY [OUT_DIR] [N]}"
out="${2:-build/release/bench-results}"
n="${3:-65536}"

if ! command -v valgrind >/dev/null 2>&1; then
  echo "window_callgrind: valgrind is not installed (Debian package 'valgrind'); skipping" >&2
  exit 0
fi
[ -x "$bin" ] || { echo "window_callgrind: $bin is not an executable" >&2; exit 2; }

mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

ADAPT_WORKERS=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
  --dump-line=no --compress-strings=no --compress-pos=no \
  "$bin" --callgrind "$n" >"$tmp/stdout" 2>"$tmp/valgrind.log" || {
  echo "window_callgrind: valgrind failed; its log:" >&2
  cat "$tmp/valgrind.log" >&2
  exit 1
}

for f in $(ls -v "$tmp"/cg.out.*); do
  label="$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")"
  ir="$(sed -n 's/^totals: \([0-9]*\).*/\1/p; s/^summary: \([0-9]*\).*/\1/p' "$f" | head -1)"
  case "$label" in window:*) printf '%s\t%s\n' "$label" "$ir" ;; esac
done >"$tmp/counts.tsv"

if [ ! -s "$tmp/counts.tsv" ]; then
  echo "window_callgrind: no labelled dump found; valgrind log:" >&2
  cat "$tmp/valgrind.log" >&2
  exit 1
fi

awk -F'\t' -v n="$n" -v csv="$out/window_callgrind.csv" '
  {
    split($1, p, ":");
    impl = p[2]; sz = substr(p[3], 3) + 0;
    if (!(impl in seen)) { seen[impl] = 1; order[++k] = impl }
    if (sz == n) ir1[impl] = $2; else if (sz == 2 * n) ir2[impl] = $2;
  }
  END {
    base = (ir2["plain loop"] - ir1["plain loop"]) / n;
    print "implementation,n,ir_n,ir_2n,ir_per_elem,extra_ir_per_elem,fixed_ir_per_call" > csv;
    printf "\n== callgrind instructions (Ir) per element, ONE worker, calls of N=%d and 2N elements\n", n;
    printf "   %-26s %10s %14s %14s\n", "implementation", "Ir/elem", "extra Ir/elem", "fixed Ir/call";
    for (i = 1; i <= k; i++) {
      m = order[i];
      per = (ir2[m] - ir1[m]) / n;
      fixed = ir1[m] - n * per;
      printf "   %-26s %10.2f %14.2f %14.0f\n", m, per, per - base, fixed;
      printf "\"%s\",%d,%d,%d,%.3f,%.3f,%.0f\n", m, n, ir1[m], ir2[m], per, per - base, fixed >> csv;
    }
    printf "   (explicit grains: the automatic grain is calibrated on time, which valgrind distorts)\n";
    printf "CSV: %s\n", csv;
  }' "$tmp/counts.tsv" | tee "$out/window_callgrind.txt"
