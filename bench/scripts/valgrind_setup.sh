# shellcheck shell=bash
# Sourced by the scripts of bench/scripts that run a benchmark under
# valgrind (callgrind.sh, kernels_callgrind.sh, stl_cachesim.sh).
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

# callgrind_run ME [VALGRIND OPTION...] -- CMD...: runs CMD under callgrind
# (dumps $tmp/cg.out.*, stdout to $tmp/stdout, valgrind's log to
# $tmp/valgrind.log); when it fails, prints the log and exits 1. Call after
# valgrind_setup.
callgrind_run() {
  local me=$1
  shift
  local opts=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --dump-line=no "${opts[@]}" \
    "$@" >"$tmp/stdout" 2>"$tmp/valgrind.log" || {
    echo "$me: valgrind failed; its log:" >&2
    cat "$tmp/valgrind.log" >&2
    exit 1
  }
}

# callgrind_counts: one "LABEL<TAB>IR" line per dump of callgrind_run, in
# dump order. Each dump file has "desc: Trigger: Client Request: LABEL" and
# a "totals: IR" (or "summary: IR") line.
callgrind_counts() {
  local f label ir
  for f in $(ls -v "$tmp"/cg.out.*); do
    label="$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")"
    ir="$(sed -n 's/^totals: \([0-9]*\).*/\1/p; s/^summary: \([0-9]*\).*/\1/p' "$f" | head -1)"
    printf '%s\t%s\n' "$label" "$ir"
  done
}

# one_worker_counts ME PREFIX CMD...: runs CMD under callgrind on one
# worker (ADAPT_WORKERS=1, OMP_NUM_THREADS=1) and writes $tmp/counts.tsv, a
# "LABEL<TAB>IR" line for each dump labelled PREFIX...:n=2 (":n=2" cut off:
# the second of a kernel's two counted runs, lazy initialisation and first
# touch out of it); with no such dump, prints valgrind's log and exits 1.
one_worker_counts() {
  local me=$1 prefix=$2 label ir
  shift 2
  ADAPT_WORKERS=1 OMP_NUM_THREADS=1 callgrind_run "$me" -- "$@"
  callgrind_counts | while IFS="$(printf '\t')" read -r label ir; do
    case "$label" in "$prefix"*:n=2) printf '%s\t%s\n' "${label%:n=2}" "$ir" ;; esac
  done >"$tmp/counts.tsv"
  [ -s "$tmp/counts.tsv" ] || {
    echo "$me: no labelled dump; valgrind log:" >&2
    cat "$tmp/valgrind.log" >&2
    exit 1
  }
}
