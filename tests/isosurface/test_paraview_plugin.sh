#!/usr/bin/env bash
# The ParaView plugin's test (make test, release variant; docs/paraview.md,
# "What is tested"): test_paraview_plugin.py in pvbatch, serial, then as a
# client of pvserver, then in the GUI (xvfb-run), then under mpirun -np 2
# (pvbatch --symmetric: each rank contours its piece).
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
# Client/server: pvserver on a port of its own (another tried when it
# cannot listen), /usr/bin/python3 its client (the PYTHONPATH of pvbatch);
# pvserver exits when the client disconnects.
client_server() {
  local try port spid ok
  for try in 1 2 3; do
    port=$((20000 + RANDOM % 20000))
    timeout 200 pvserver --server-port="$port" >"$tmp/pvserver.log" 2>&1 &
    spid=$!
    ok=""
    for _ in $(seq 100); do
      grep -q "Accepting connection" "$tmp/pvserver.log" && { ok=1; break; }
      kill -0 "$spid" 2>/dev/null || break
      sleep 0.2
    done
    if [ -n "$ok" ]; then
      run client-server 1 /usr/bin/python3 "$here/test_paraview_plugin.py" "$plugin" "$tmp" --server "$port"
      kill "$spid" 2>/dev/null
      wait "$spid" 2>/dev/null
      return
    fi
    kill "$spid" 2>/dev/null
    wait "$spid" 2>/dev/null
  done
  echo "test_paraview_plugin: pvserver did not listen on 3 ports; its output:"
  tail -n 20 "$tmp/pvserver.log"
  fail=$((fail + 1))
}
# The GUI under xvfb-run: the plugin loaded at its start (PV_PLUGIN_PATH),
# the test script run by --script with --gui (its arguments set by a
# script of two lines), its settings neither read nor written (--dr, a HOME
# of its own); 150 s at most (a modal dialog would wait for a click).
gui() {
  printf 'import runpy, sys\nsys.argv = [%s, %s, %s, "--gui"]\nrunpy.run_path(sys.argv[0], run_name="__main__")\n' \
    "'$here/test_paraview_plugin.py'" "'$plugin'" "'$tmp'" >"$tmp/gui_script.py"
  mkdir -p "$tmp/home"
  RUN_TIMEOUT=150 run gui 1 env HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" PV_PLUGIN_PATH="$(dirname "$plugin")" \
    xvfb-run -a paraview --dr --script="$tmp/gui_script.py" --exit
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
