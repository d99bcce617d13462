#!/usr/bin/env bash
# `make help` names every target a user may call: each phony target of the
# Makefile and of the module fragments (*/module.mk, bench/mk/*.mk), but
# the internal ones (FORCE_*, test-variant-*, test-pipeline,
# install-vtk-filter-absent). Run by `make check-docs`.
# Usage: check_help.sh [MAKE]
set -euo pipefail
cd "$(dirname "$0")/.."
make_cmd=${1:-make}
help=$($make_cmd --no-print-directory help)
frags=$(git ls-files Makefile '*module.mk' 'bench/mk/*.mk')
# .PHONY lines, with their continuation lines.
targets=$(awk '/^\.PHONY:/ { p = 1; sub(/^\.PHONY:/, "") }
               p { line = $0; cont = sub(/\\$/, "", line); print line; if (!cont) p = 0 }' $frags |
  tr ' \t' '\n\n' | grep -v '^$' | sort -u)
missing=""
for t in $targets; do
  case "$t" in
    FORCE_* | test-variant-* | test-pipeline | install-vtk-filter-absent) continue ;;
  esac
  grep -qE "(^|[^a-z0-9-])$t([^a-z0-9-]|$)" <<<"$help" || missing="$missing $t"
done
if [ -n "$missing" ]; then
  echo "check-help: make help does not list:$missing" >&2
  exit 1
fi
echo "check-help: make help lists all $(wc -w <<<"$targets") phony targets (internal ones aside)"
