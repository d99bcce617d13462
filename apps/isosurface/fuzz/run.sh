#!/usr/bin/env bash
# Run the mesh reader fuzzers of `make fuzz`, one format after the other,
# at the lowest priority (the machine is shared), and summarize.
# Usage: run.sh BUILD_DIR SEEDS_DIR SECONDS FORMAT...
# Per format: BUILD_DIR/fuzz_<format> runs SECONDS on the corpus
# BUILD_DIR/corpus/<format> (kept between runs) seeded by SEEDS_DIR/<format>;
# crashes (crash-*, oom-*, timeout-*) go to BUILD_DIR/artifacts/<format>/,
# the log to BUILD_DIR/log/<format>.log. Exit status 1 if any format had a
# finding or the fuzzer failed.
set -u
b="$1" seeds="$2" secs="$3"
shift 3
status=0
summary=""
for fmt in "$@"; do
  corpus="$b/corpus/$fmt" art="$b/artifacts/$fmt" log="$b/log/$fmt.log"
  mkdir -p "$corpus" "$art" "$b/log"
  findings() { find "$art" -type f \( -name 'crash-*' -o -name 'oom-*' -o -name 'timeout-*' \
    -o -name 'leak-*' \) | wc -l; }
  before=$(findings)
  slow_before=$(find "$art" -type f -name 'slow-unit-*' | wc -l)
  echo "fuzz: $fmt for ${secs}s (log $log)"
  # -rss_limit_mb / -malloc_limit_mb: a huge allocation is a finding. Leaks
  # are not (-detect_leaks=0, and none at exit): VTK's readers leak on some
  # of their error paths. Slow units (a run over 10 s) are listed, not findings: on a
  # shared machine at nice 19 a stall is not the input's doing.
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" nice -n 19 "$b/fuzz_$fmt" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -max_len=8192 -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$art/" \
    "$corpus" "$seeds/$fmt" >"$log" 2>&1
  rc=$?
  took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  crashes=$(($(findings) - before))
  slow=$(($(find "$art" -type f -name 'slow-unit-*' | wc -l) - slow_before))
  line="$fmt: ${took:-?}s of ${secs}s, ${execs:-?} executions, coverage ${cov:-?} edges (${ft:-?} features), corpus $(find "$corpus" -type f | wc -l) files, $crashes new crash(es), $slow slow unit(s)"
  [ "$rc" -ne 0 ] && { line="$line, fuzzer exit $rc (see $log)"; status=1; }
  [ "$crashes" -ne 0 ] && status=1
  summary="$summary$line"$'\n'
done
printf 'fuzz summary:\n%s' "$summary"
exit $status
