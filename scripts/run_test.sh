#!/usr/bin/env bash
# Runs one test program of the suite with its output in a log; called by
# scripts/run_programs.sh.
#   run_test.sh BIN LOG VARIANT
# At most ADAPT_TEST_PROGRAMS programs (default 1) run at once, whatever
# make's -j, the variants' included (a lock in build/): the programs start
# several workers each and oversubscribe the CPUs on purpose, and two of
# them side by side spend their time in each other's yields (on 2 CPUs the
# suite took 1.5x the CPU time) while the compilers want the other CPU.
# Once every file named in ADAPT_TEST_BUILT exists (make test: each
# variant's compiles and checks over), ADAPT_TEST_PROGRAMS_IDLE programs
# (default: the CPUs) may run at once: nothing else is left to use them.
# Prints one line ("ok", the seconds and the program), or on
# failure the last lines of the log; a program still running after
# ADAPT_TEST_TIMEOUT seconds (default 900) is killed and reported as hung.
# Writes the seconds taken, wall clock and CPU, to LOG.time (read by
# scripts/test_all.sh).
set -u
bin=${1:?test program}
log=${2:?log file}
variant=${3:?variant}
limit=${ADAPT_TEST_TIMEOUT:-900}
mkdir -p "$(dirname "$log")" build
# The number of programs that may run now (see above), in slots.
idle_slots=${ADAPT_TEST_PROGRAMS_IDLE:-$(nproc)}
slots_now() {
  local f
  slots=${ADAPT_TEST_PROGRAMS:-1}
  [ -n "${ADAPT_TEST_BUILT:-}" ] || return 0
  for f in $ADAPT_TEST_BUILT; do [ -e "$f" ] || return 0; done
  slots=$idle_slots
}
# A free slot (lock file build/.test-slot.K): polled (no command started
# per poll), so that a program waiting when the builds end takes the slots
# they free.
got=
while [ -z "$got" ]; do
  slots_now
  for ((k = 1; k <= slots; k++)); do
    exec 9>"build/.test-slot.$k"
    if flock -n 9; then got=$k; break; fi
    exec 9>&-
  done
  [ -n "$got" ] || sleep 0.5
done
# The slot is held: scripts/run_programs.sh may start the next program.
[ -n "${ADAPT_TEST_STARTED:-}" ] && : >"$ADAPT_TEST_STARTED"
# glibc keeps what the programs free (no trim, no mmap per large block):
# the tests allocate and free arrays of up to 8 MB per case, and glibc's
# defaults gave each back to the kernel, to be faulted in again by the next
# case (in release, a third to a half of test_algo_scan's, test_sched's
# and test_stl's CPU time). The sanitizers' allocators ignore it; a test
# that measures memory as users see it unsets it (test_dist.sh).
export GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1073741824:glibc.malloc.trim_threshold=1073741824
start=$(date +%s.%N)
# Back to the priority make test started at (scripts/test_all.sh runs the
# compilers at nice ADAPT_TEST_RENICE when it may undo it here).
renice=${ADAPT_TEST_RENICE:-}
ADAPT_TEST_VARIANT=$variant ${renice:+nice -n "-$renice"} timeout -k 10 "$limit" "$bin" >"$log" 2>&1
rc=$?
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
# The program's CPU time (user + system): the children line of `times`
# (it also counts the few short commands above: milliseconds).
# (in this shell, into a file: `times` in a subshell counts its own).
times >"$log.times"
cpu=$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); n += p[1] * 60 + p[2] } printf "%.1f", n }' "$log.times")
rm -f "$log.times"
echo "$secs $cpu" >"$log.time"
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
