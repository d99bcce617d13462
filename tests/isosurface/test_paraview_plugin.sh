#!/usr/bin/env bash
# The ParaView plugin's test (make test, release variant; docs/paraview.md,
# "What is tested"): test_paraview_plugin.py in pvbatch, serial, then as a
# client of pvserver under mpirun -np 2, then in the GUI as a client of
# pvserver (xvfb-run), then under mpirun -np 2 (pvbatch --symmetric: each
# rank contours its piece).
#   test_paraview_plugin.sh PLUGIN.so
# PYTHONPATH: where ParaView's Python modules are unless python3-paraview is
# installed (scripts/paraview_python.sh). Exit status: 0 when all four runs
# end with every rank's "0 failed" (and the client's).
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
  timeout "${RUN_TIMEOUT:-300}" "$@" >"$tmp/$name.log" 2>&1
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
# start_server NAME [LAUNCHER...]: pvserver (under LAUNCHER, e.g. mpirun)
# on a port of its own (another tried when it cannot listen), its output
# in $tmp/NAME.log; sets port and spid (the launcher's pid; pvserver exits
# when its client disconnects). Status 1 when it did not listen on 3 ports.
start_server() {
  local name=$1 try
  shift
  for try in 1 2 3; do
    port=$((20000 + RANDOM % 20000))
    timeout 250 "$@" pvserver --server-port="$port" >"$tmp/$name.log" 2>&1 &
    spid=$!
    for _ in $(seq 150); do
      grep -q "Accepting connection" "$tmp/$name.log" && return 0
      kill -0 "$spid" 2>/dev/null || break
      sleep 0.2
    done
    kill "$spid" 2>/dev/null
    wait "$spid" 2>/dev/null
  done
  echo "test_paraview_plugin: pvserver did not listen on 3 ports; its output:"
  tail -n 20 "$tmp/$name.log"
  fail=$((fail + 1))
  return 1
}
# Client/server: pvserver under mpirun -np 2 (2 ranks, each contouring its
# piece), /usr/bin/python3 its client (the PYTHONPATH of pvbatch), which
# loads the plugin on both sides. The satellite rank waits for rank 0 in
# MPI, polling (mpi_yield_when_idle: it yields to the other processes).
client_server() {
  start_server pvserver-np2 mpirun "${root[@]}" --oversubscribe --bind-to none \
    --mca btl self,vader --mca mpi_yield_when_idle 1 -np 2 || return
  run client-server-np2 1 /usr/bin/python3 "$here/test_paraview_plugin.py" "$plugin" "$tmp" \
    --server "$port" --server-ranks 2
  kill "$spid" 2>/dev/null
  wait "$spid" 2>/dev/null
}
# The GUI, under one xvfb-run with a pvserver: each loads the plugin at its
# start (PV_PLUGIN_PATH, as the GUI's Auto Load), the test script run by
# --script with --gui --server PORT (its arguments set by a script of
# three lines, the port from the environment: the built-in session's
# checks, then Connect to the pvserver and the same checks), the GUI's
# settings neither read nor written (--dr, a HOME of its own). pvserver
# needs the X display too: without one the GUI, connecting, shows the
# modal warning "Display is not accessible on the server side" and waits
# for a click. 150 s at most.
gui() {
  printf 'import os, runpy, sys\nsys.argv = [%s, %s, %s, "--gui", "--server", os.environ["PV_TEST_PORT"]]\nrunpy.run_path(sys.argv[0], run_name="__main__")\n' \
    "'$here/test_paraview_plugin.py'" "'$plugin'" "'$tmp'" >"$tmp/gui_script.py"
  mkdir -p "$tmp/home"
  {
    declare -p tmp fail root
    declare -f start_server
    echo 'start_server pvserver-gui || exit 1'
    echo 'PV_TEST_PORT=$port paraview --dr --script="$tmp/gui_script.py" --exit'
    echo 'rc=$?; kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; exit $rc'
  } >"$tmp/gui_session.sh"
  RUN_TIMEOUT=150 run gui 1 env HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" \
    PV_PLUGIN_PATH="$(dirname "$plugin")" xvfb-run -a bash "$tmp/gui_session.sh"
}
[ -f "$tmp/serial_counts.txt" ] && { client_server; gui; }

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
