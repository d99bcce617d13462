#!/usr/bin/env bash
# Runs test programs one after the other through scripts/run_test.sh (its
# lock paces them across the variants), each with its log in
# build/<variant>/test-logs/<path>.log; called by the Makefile's test-run
# and test-pipeline targets.
#   run_programs.sh VARIANT PROGRAM...
# Runs every program even after a failure (each failure prints the end of
# its log); exit status 1 when any failed. Prints one line per program and,
# at the end, how many passed.
set -u
variant=${1:?variant}
shift
failed=0
for bin in "$@"; do
  bash scripts/run_test.sh "$bin" "build/$variant/test-logs/${bin#build/"$variant"/}.log" "$variant" ||
    failed=$((failed + 1))
done
if [ "$failed" -ne 0 ]; then
  echo "test-run [$variant]: $failed of $# programs FAILED" >&2
  exit 1
fi
echo "test-run [$variant]: $# programs passed"
