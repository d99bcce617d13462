#!/usr/bin/env bash
# `make test` (and `make check`): the suite's phases, timed, with a summary
# of the times at the end.
#   test_all.sh [all|release]
#   all      deps, then the release variant (build, the checks, the tests),
#            the tsan one and the asan+ubsan one (build, the tests), the
#            three at once
#   release  deps, then the release variant alone
# One make runs the variants' jobs TEST_JOBS at a time (default: one more
# than the CPUs this process may use, and at least one per variant), the
# compilers and the checks; the test programs run beside them, one at a
# time (scripts/run_test.sh), each variant's C programs as soon as its
# library and C programs are built, its C++ programs once its build is
# over (the Makefile's test-pipeline); once every variant's compiles and
# checks are over, as many programs at once as there are CPUs. Each
# test's output goes to build/<variant>/test-logs/; a failing test prints
# the end of its log.
set -u
cd "$(dirname "$0")/.."
what=${1:-all}
make=${MAKE:-make}
variants="release tsan asan"
[ "$what" = release ] && variants="release"
nvar=$(echo $variants | wc -w)
jobs=${TEST_JOBS:-$(($(nproc) + 1))}
[ "$jobs" -ge "$nvar" ] || jobs=$nvar

secs_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }'; }

summary() {
  local v f n sum
  echo "== make test: time of each phase ($jobs jobs at once)"
  printf '  %-44s %5ss\n' "deps" "$deps_s"
  for v in $variants; do
    f=build/$v/test-logs
    [ -f "$f/span" ] || continue
    read -r n sum cpu < <(find "$f" -name '*.log.time' -exec cat {} + |
      awk '{ n++; w += $1; c += $2 } END { printf "%d %.0f %.0f", n, w, c }')
    printf '  %-44s %5ss  (its %d test programs: %ss, %ss of CPU)\n' \
      "$v: build,$([ "$v" = release ] && echo ' checks,') tests (wall clock)" "$(cat "$f/span")" \
      "$n" "$sum" "$cpu"
  done
  printf '  %-44s %5ss\n' "total (wall clock; the variants overlap)" "$(secs_since "$t0")"
  # The CPU time of everything make test ran: the children line of `times`
  # (run in this shell: a subshell would count its own children only).
  times >build/.make-test-times
  printf '  %-44s %5ss\n' "total CPU (every job, deps included)" \
    "$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); n += p[1] * 60 + p[2] } printf "%.0f", n }' build/.make-test-times)"
  echo "== make test: the slowest programs"
  for v in $variants; do find build/"$v"/test-logs -name '*.log.time' 2>/dev/null; done |
    while read -r f; do printf '%s %s\n' "$(cat "$f")" "${f%.log.time}"; done |
    sort -rn | head -n 8 | awk '{ printf "  %6ss  (CPU %6ss)  %s\n", $1, $2, $3 }' |
    sed 's#build/\([a-z]*\)/test-logs/#[\1] #'
}

t0=$(date +%s.%N)
echo "== make test: deps"
bash scripts/deps.sh all || exit $?
deps_s=$(secs_since "$t0")
for v in $variants; do rm -rf build/"$v"/test-logs; done
echo "== make test: $(echo $variants | sed 's/ /, /g'): build, checks and tests"
# The test programs before the compilers: when this process may raise a
# priority again (root, or RLIMIT_NICE), make and its compilers run at nice
# 10 and scripts/run_test.sh starts each program back at this nice value
# (ADAPT_TEST_RENICE). A program's threads wait for each other in short
# spins; with the compilers at the same priority, a thread descheduled in
# the middle of a race kept its partners spinning (TSan's test_loopframe:
# 24 s of CPU during make test against 2 s alone), and the programs, which
# run one at a time, are the longest chain of the run.
renice=
if nice -n -1 true 2>/dev/null; then renice=10; fi
ADAPT_TEST_BUILT=$(for v in $variants; do printf 'build/%s/test-logs/built ' "$v"; done) \
ADAPT_TEST_RENICE=$renice ${renice:+nice -n "$renice"} \
  "$make" --no-print-directory ISO_REQUIRE_VTK=1 -j"$jobs" $(for v in $variants; do echo "test-variant-$v"; done)
rc=$?
summary
if [ $rc -ne 0 ]; then
  echo "make test: FAILED (see the FAIL lines above, and build/<variant>/test-logs/)" >&2
  exit $rc
fi
if [ "$what" = release ]; then
  echo "make check: the release variant passed (checks and tests; make test adds tsan and asan+ubsan)"
else
  echo "make test: all variants passed (checks, release, tsan, asan+ubsan)"
fi
