#!/usr/bin/env bash
# Runs test programs in order through scripts/run_test.sh, whose slots
# pace them across the variants: each program is started once the one
# before it holds a slot (ADAPT_TEST_STARTED), so that one program of the
# list at most waits for a slot, and two of the list run side by side only
# when run_test.sh gives two slots (make test: once every variant's
# compiles and checks are over, when a variant's last programs would
# otherwise run one at a time on a machine with nothing else left to do).
# Each program's log is build/<variant>/test-logs/<path>.log; called by the
# Makefile's test-run and test-pipeline targets.
#   run_programs.sh VARIANT PROGRAM...
# Runs every program even after a failure (each failure prints the end of
# its log); exit status 1 when any failed. Prints one line per program and,
# at the end, how many passed.
set -u
variant=${1:?variant}
shift
mkdir -p build
# The programs that failed, one line each (not `wait PID`: over a long run
# the PIDs wrap, and a reused one confuses the shell's list of children).
failures=build/.test-failures.$$
: >"$failures"
n=0
for bin in "$@"; do
  started=build/.test-started.$$.$n
  n=$((n + 1))
  rm -f "$started"
  {
    ADAPT_TEST_STARTED=$started bash scripts/run_test.sh "$bin" \
      "build/$variant/test-logs/${bin#build/"$variant"/}.log" "$variant" || echo "$bin" >>"$failures"
    : >"$started.end"
  } &
  # Until it holds a slot (or has ended): polled, as run_test.sh polls.
  while [ ! -e "$started" ] && [ ! -e "$started.end" ]; do sleep 0.2; done
done
wait
failed=$(grep -c . "$failures")
rm -f "$failures" build/.test-started.$$.*
if [ "$failed" -ne 0 ]; then
  echo "test-run [$variant]: $failed of $# programs FAILED" >&2
  exit 1
fi
echo "test-run [$variant]: $# programs passed"
