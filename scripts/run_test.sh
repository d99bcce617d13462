#!/usr/bin/env bash
# Runs one test program of the suite with its output in a log; called by the
# test-run target of the Makefile, several at a time under make -j.
#   run_test.sh BIN LOG VARIANT
# Prints one line ("ok", the seconds and the program), or on failure the
# last lines of the log; a program still running after ADAPT_TEST_TIMEOUT
# seconds (default 900) is killed and reported as hung. Writes the seconds
# taken to LOG.time (read by scripts/test_all.sh for its summary).
set -u
bin=${1:?test program}
log=${2:?log file}
variant=${3:?variant}
limit=${ADAPT_TEST_TIMEOUT:-900}
mkdir -p "$(dirname "$log")"
start=$(date +%s.%N)
ADAPT_TEST_VARIANT=$variant timeout -k 10 "$limit" "$bin" >"$log" 2>&1
rc=$?
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "$secs" >"$log.time"
if [ $rc -eq 0 ]; then
  printf '  ok  %6ss  [%s] %s\n' "$secs" "$variant" "$bin"
  exit 0
fi
what="failed (exit $rc)"
[ $rc -eq 124 ] && what="hung: killed after ${limit}s (ADAPT_TEST_TIMEOUT)"
{
  printf 'FAIL  %6ss  [%s] %s: %s; the last lines of %s:\n' "$secs" "$variant" "$bin" "$what" "$log"
  tail -n 60 "$log" | sed 's/^/    | /'
} >&2
exit 1
