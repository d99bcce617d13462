#!/usr/bin/env bash
# The ParaView plugin's test (make test, release variant; docs/paraview.md,
# "What is tested"): test_paraview_plugin.py in pvbatch, serial, then under
# mpirun -np 2 (pvbatch --symmetric: each rank contours its piece).
#   test_paraview_plugin.sh PLUGIN.so
# PYTHONPATH: where ParaView's Python modules are unless python3-paraview is
# installed (scripts/paraview_python.sh). Exit status: 0 when both runs
# end with every rank's "0 failed".
set -u
plugin=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
fail=0

# run NAME RANKS CMD...: the command, its output in $tmp/NAME.log (under
# mpirun each rank's checks in $tmp/rank_R.log); every rank's last line
# must say "0 failed".
run() {
  local name=$1 ranks=$2 rc logs ok
  shift 2
  rm -f "$tmp"/rank_*.log
  timeout 300 "$@" >"$tmp/$name.log" 2>&1
  rc=$?
  logs=("$tmp/$name.log")
  [ "$ranks" -gt 1 ] && logs=("$tmp"/rank_*.log)
  ok=$(cat "${logs[@]}" | grep -c '^test_paraview_plugin.py (rank [0-9]* of [0-9]*): 0 failed$')
  cat "${logs[@]}" | grep '^FAIL: ' | sed "s/^/$name: /" || true
  if [ "$rc" -ne 0 ] || [ "$ok" -ne "$ranks" ]; then
    echo "test_paraview_plugin: $name: exit status $rc, $ok of $ranks rank(s) without failures; its output:"
    tail -n 40 "$tmp/$name.log"
    fail=$((fail + 1))
  else
    echo "test_paraview_plugin: $name: $(cat "${logs[@]}" | grep -c '^ok: ') checks passed"
  fi
}

run serial 1 pvbatch "$here/test_paraview_plugin.py" "$plugin" "$tmp"
# Unbound ranks (--bind-to none): each rank's workers are its share of the
# machine (rank_share.h), together at most the processing units, where
# each would take them all without the share (libadapt prints its worker
# count at exit with ADAPT_STATS=1).
[ -f "$tmp/serial_counts.txt" ] &&
  run mpirun-np2 2 mpirun "${root[@]}" --oversubscribe --bind-to none --mca btl self,vader \
    -x ADAPT_STATS=1 -np 2 pvbatch --symmetric "$here/test_paraview_plugin.py" "$plugin" "$tmp" --mpi &&
  workers=$(sed -n 's/^libadapt statistics (\([0-9]*\) workers)$/\1/p' "$tmp/mpirun-np2.log" | xargs) &&
  if [ "$(echo "$workers" | wc -w)" -eq 2 ] && [ "$(echo "$workers" | awk '{ s += $1 } END { print s }')" -le "$(nproc)" ]; then
    echo "test_paraview_plugin: mpirun-np2: workers per rank $workers on $(nproc) processing units"
  else
    echo "test_paraview_plugin: mpirun-np2: workers per rank '$workers', want 2 counts summing to at most $(nproc)"
    fail=$((fail + 1))
  fi
[ -f "$tmp/serial_counts.txt" ] || { echo "test_paraview_plugin: the serial run wrote no meshes"; fail=$((fail + 1)); }
exit $fail
