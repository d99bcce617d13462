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
failed=0
mkdir -p build
pids=()
for bin in "$@"; do
  started=build/.test-started.$$.${#pids[@]}
  rm -f "$started"
  ADAPT_TEST_STARTED=$started bash scripts/run_test.sh "$bin" \
    "build/$variant/test-logs/${bin#build/"$variant"/}.log" "$variant" &
  pids+=($!)
  # Until it holds a slot (or has ended): polled, as run_test.sh polls.
  while [ ! -e "$started" ] && kill -0 "$!" 2>/dev/null; do sleep 0.2; done
  rm -f "$started"
done
for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
if [ "$failed" -ne 0 ]; then
  echo "test-run [$variant]: $failed of $# programs FAILED" >&2
  exit 1
fi
echo "test-run [$variant]: $# programs passed"
