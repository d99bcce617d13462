#!/usr/bin/env bash
# `make test` (and `make check`): the phases of the suite, each timed, and a
# summary of the times at the end.
#   test_all.sh [all|release]
#   all      deps; build (release, tsan and asan at once); release (the checks
#            and the release tests); tsan; asan
#   release  deps; build (release); release
# Within a phase make runs TEST_JOBS programs at once (default: the number of
# CPUs this process may use); each test's output goes to
# build/<variant>/test-logs/, a failing test prints the end of its log.
set -u
cd "$(dirname "$0")/.."
what=${1:-all}
make=${MAKE:-make}
jobs=${TEST_JOBS:-$(nproc)}
variants="release tsan asan"
[ "$what" = release ] && variants="release"

names=() times=()
phase() { # phase NAME COMMAND...: runs the command, records its time, stops on failure
  local name=$1 start rc
  shift
  echo "== make test: $name"
  start=$(date +%s.%N)
  "$@"
  rc=$?
  names+=("$name")
  times+=("$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')")
  if [ $rc -ne 0 ]; then
    summary
    echo "make test: FAILED in phase '$name'" >&2
    exit $rc
  fi
}
summary() {
  local total=0 i
  echo "== make test: time of each phase ($jobs at once)"
  for i in "${!names[@]}"; do
    printf '  %-28s %5ss\n' "${names[$i]}" "${times[$i]}"
    total=$((total + times[i]))
  done
  printf '  %-28s %5ss\n' "total" "$total"
  local logs
  logs=$(for v in $variants; do ls build/"$v"/test-logs 2>/dev/null >/dev/null && find build/"$v"/test-logs -name '*.time'; done)
  [ -n "$logs" ] || return 0
  echo "== make test: the slowest programs"
  for f in $logs; do printf '%s %s\n' "$(cat "$f")" "${f%.log.time}"; done |
    sort -rn | head -n 8 | awk '{ printf "  %6ss  %s\n", $1, $2 }' | sed 's#build/\([a-z]*\)/test-logs/#[\1] #'
}

mk() { "$make" --no-print-directory ISO_REQUIRE_VTK=1 "$@"; }

phase "deps" bash scripts/deps.sh all
phase "build ($(echo $variants | tr ' ' ','))" mk -j"$jobs" $(for v in $variants; do echo "test-build-$v"; done)
phase "release: checks and tests" mk -j"$jobs" VARIANT=release checks test-run
for v in $variants; do
  [ "$v" = release ] && continue
  phase "$v: tests" mk -j"$jobs" VARIANT="$v" test-run
done
summary
if [ "$what" = release ]; then
  echo "make check: the release variant passed (checks and tests; make test adds tsan and asan+ubsan)"
else
  echo "make test: all variants passed (checks, release, tsan, asan+ubsan)"
fi
