# shellcheck shell=bash
# Sourced by the scripts of bench/scripts that run a benchmark under
# valgrind (callgrind.sh, stl_cachesim.sh).
#
# valgrind_setup ME BIN OUT [WHAT]: without valgrind, says so ("ME:
# valgrind is not installed ...; skipping [WHAT]") and exits 0; exits 2 when
# BIN is not an executable; otherwise makes the directory OUT and a
# temporary directory $tmp, removed when the script exits.
valgrind_setup() {
  local me=$1 bin=$2 out=$3 what=${4:-}
  if ! command -v valgrind >/dev/null 2>&1; then
    echo "$me: valgrind is not installed (Debian package 'valgrind'); skipping${what:+ $what}" >&2
    exit 0
  fi
  [ -x "$bin" ] || { echo "$me: $bin is not an executable" >&2; exit 2; }
  mkdir -p "$out"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
}
