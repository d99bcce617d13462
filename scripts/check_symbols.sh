#!/usr/bin/env bash
# The shared library exports its public API and nothing else but what the
# inline functions of the public headers use (at most 9 internal adapt__
# symbols: the slow paths of the inline steal and preempt points, the wake
# of the inline adapt_spawn, the cancelled result of the inline adapt_for,
# the hand-over of its nested lazy loop to the library once the deque looks
# hungry, and the open and close of its owner loop at a set grain,
# the thread-local block adapt__tls of the inline adapt_scope_begin,
# adapt_spawn, adapt_sync, adapt_fork, adapt_join and adapt_for), with a
# thread-local block small enough to dlopen. Usage: check_symbols.sh
# LIBADAPT_SO PUBLIC_HEADER_DIR...
# (the runtime's and the algorithms' public header folders)
set -euo pipefail
so=${1:?shared library}
shift
hdr_files=()
for d in "${@:?public header directory}"; do hdr_files+=("$d"/*.h); done
max_internal=9

exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort -u)
internal=$(grep -E '^adapt__' <<<"$exported" || true)
n_internal=$(grep -c . <<<"$internal" || true)
foreign=$(grep -vE '^(adapt_|_init$|_fini$)' <<<"$exported" || true)
# Declarations may be wrapped after the return type: read the headers as one line.
declared=$(grep -hv '^#' "${hdr_files[@]}" | tr '\n' ' ' | grep -oE 'ADAPT_API[^(;]*\(' |
  sed -E 's/.*[ *](adapt_[a-z0-9_]+)[[:space:]]*\($/\1/' | sort -u)
# and the thread-locals the inline functions use (extern ... ADAPT__TLS_PUBLIC).
declared=$( (echo "$declared"; grep -h 'ADAPT__TLS_PUBLIC;' "${hdr_files[@]}" |
  sed -nE 's/.*[ *](adapt_[a-z0-9_]+)[[:space:]]+ADAPT__TLS_PUBLIC;.*/\1/p') | sort -u)
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
undeclared=$(comm -13 <(echo "$declared") <(grep -E '^adapt_' <<<"$exported" | sort -u))

# Its thread-local block: the library has initial-exec thread-locals
# (ADAPT__TLS_FAST), so a dlopen (a Python module using it) must find the
# whole block in glibc's small static TLS surplus (about 1.6 KB, shared with
# the other libraries loaded so).
max_tls=1024
tls=$(readelf -lW "$so" | awk '$1 == "TLS" { print $6 }')
tls=$((${tls:-0}))

bad=0
if [ "$tls" -gt $max_tls ]; then
  echo "check-symbols: thread-local block of $tls bytes (at most $max_tls: dlopen must fit it in static TLS)" >&2
  bad=1
fi
if [ "$n_internal" -gt $max_internal ]; then
  echo "check-symbols: $n_internal internal symbols exported (at most $max_internal):" $internal >&2
  bad=1
fi
[ -z "$foreign" ] || { echo "check-symbols: exported non-adapt symbols:" $foreign >&2; bad=1; }
[ -z "$missing" ] || { echo "check-symbols: declared ADAPT_API but not exported:" $missing >&2; bad=1; }
[ -z "$undeclared" ] || { echo "check-symbols: exported but not in the public headers:" $undeclared >&2; bad=1; }
[ $bad -eq 0 ] && echo "check-symbols: $(grep -c . <<<"$declared") public functions exported," \
  "$n_internal internal ($(echo $internal))"
exit $bad
