#!/bin/bash
# Model checking (docs/design.md, "Model checking"): runs spin on every
# Promela model of model/*.pml, the correct model and its seeded bug, in a
# scratch directory under build/model/.
#
#   model/run.sh            every check
#   model/run.sh deque idle only these models
#
# Each line of CHECKS: model, pan mode, seeded bugs, extra spin -D flags
# (bounds; the defaults are in each model).
#   safety: gcc -DSAFETY, ./pan (assertions + invalid end states)
#   np:     gcc -DNP, ./pan -l -f (non-progress cycles under weak fairness)
# The correct model must verify (errors: 0, no truncation); each seeded bug
# n (spin -DSEEDED_BUG=n, same mode and bounds) must give a counterexample.
# Exit status 1 if either fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${MODEL_OUT:-$root/build/model}
memlim=${MODEL_MEMLIM:-2048}   # MB, per pan run
# The DFS stack (-m): the models reach depths of at most about 12,000
# (finalize's cycles), but regions' liveness run about 150,000 (its nested
# search for cycles); a deeper search is reported as truncated, never cut
# silently.
depth_of() {
  case $1 in
    regions) echo "${MODEL_DEPTH:-200000}" ;;
    *) echo "${MODEL_DEPTH:-100000}" ;;
  esac
}
# The hash table of a correct model's run (-w: 2^bits slots, 8 bytes each),
# sized to its states (a table larger than needed only costs the time to
# clear it: 0.9 s of CPU at -w24). A seeded bug's run stops at its first
# counterexample after few states: a small table, and pan.c compiled at -O0
# (half the compile, the longest of such a run).
hash_bits() {
  case $1 in
    regions) echo "${MODEL_HASH:-21}" ;;
    loopframe | deque | request | theft | announce) echo "${MODEL_HASH:-22}" ;;
    *) echo "${MODEL_HASH:-20}" ;;
  esac
}
# pan.c's optimization for a correct model's run: -O1, but -O0 for the
# models of at most about 150,000 states, whose search takes less CPU than
# the -O1 compile costs over -O0 (about 0.5 s).
pan_opt() {
  case $1 in
    idle | nested | cancel | finalize | hybrid | static) echo -O0 ;;
    *) echo -O1 ;;
  esac
}
command -v spin >/dev/null || { echo "model-check: spin not found (scripts/deps.sh installs it)" >&2; exit 1; }
CC=${CC:-cc}

CHECKS="
request   safety 1
theft     safety 1
theft     safety 1,2  -DISSUE5
deque     safety 1,3,4
deque     safety 2    -DLIMIT
announce  safety 1,2,3
loopframe safety 1,2
loopframe safety 1    -DG=2 -DNATT=2
idle      safety 1
idle      np     2
team_idle safety 1,2
refusal   safety 2
refusal   safety 1    -DSILENT
regions   safety 1,2,3 -DNFIN=1
regions   safety -     -DNR=1
regions   np     4     -DLIVE
nested    safety 1,2
cancel    safety 1,2
finalize  np     1,2
hybrid    safety 1,2
static    safety 1,2,3
"

want=" $* "
fail=0
mkdir -p "$out"

# run_pan NAME MODE VARIANT(ok|bugN) DEFS -> sets dir res_errors res_states res_time res_msg
run_pan() {
  local name=$1 mode=$2 variant=$3 defs=$4
  dir="$out/$name-$mode-$variant$(echo "$defs" | tr -d ' =-')"
  rm -rf "$dir" && mkdir -p "$dir" && cp "$here/$name.pml" "$dir/" || return 2
  local sdef="$defs" cdef panargs opt bits
  opt=$(pan_opt "$name")
  bits=$(hash_bits "$name")
  [ "$variant" = ok ] || { sdef="$defs -DSEEDED_BUG=${variant#bug}"; opt=-O0; bits=18; }
  case $mode in
    safety) cdef="-DSAFETY"; panargs="" ;;
    np) cdef="-DNP"; panargs="-l -f" ;;
  esac
  (cd "$dir" && spin $sdef -a "$name.pml" >spin.log 2>&1) || { res_msg="spin -a failed (see $dir/spin.log)"; return 2; }
  (cd "$dir" && $CC $opt -w $cdef -DMEMLIM=$memlim -o pan pan.c >cc.log 2>&1) ||
    { res_msg="cc pan.c failed (see $dir/cc.log)"; return 2; }
  (cd "$dir" && ./pan -m"$(depth_of "$name")" -w$bits $panargs >pan.log 2>&1)
  local log="$dir/pan.log"
  res_errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$log" | tail -1)
  res_states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$log" | tail -1)
  res_time=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' "$log" | tail -1)
  res_msg=$(grep -m1 '^pan:1:' "$log" | sed 's/^pan:1: //')
  [ -n "$res_errors" ] || { res_msg="pan gave no result (see $log)"; return 2; }
  if grep -q 'max search depth too small\|out of memory\|memory limit' "$log"; then
    res_msg="search truncated (see $log)"; return 2
  fi
  return 0
}

while read -r name mode bugs defs; do
  [ -n "$name" ] || continue
  [ "$want" = "  " ] || [[ "$want" == *" $name "* ]] || continue
  label="model $name"
  [ "$mode" = np ] && label="$label (non-progress)"
  [ -n "$defs" ] && label="$label [$(echo $defs | sed 's/-D//g')]"
  res_errors= res_states= res_time= res_msg=
  if run_pan "$name" "$mode" ok "$defs" && [ "$res_errors" = 0 ]; then
    echo "$label: verified (${res_states} states, ${res_time:-0} s)"
  else
    echo "$label: FAILED: ${res_msg:-errors: $res_errors (see $dir/pan.log)}"
    fail=1
  fi
  for n in ${bugs//,/ }; do
    [ "$n" = - ] && continue
    tag="seeded bug"
    [ "$bugs" = 1 ] || tag="seeded bug $n"
    res_errors= res_states= res_time= res_msg=
    if run_pan "$name" "$mode" "bug$n" "$defs" && [ "${res_errors:-0}" != 0 ]; then
      echo "$label ($tag): counterexample (${res_msg:-error found})"
    else
      echo "$label ($tag): NOT CAUGHT: ${res_msg:-no error found (see $dir/pan.log)}"
      fail=1
    fi
  done
done <<<"$CHECKS"
exit $fail
