#!/usr/bin/env bash
# The layers (docs/design.md, "Layers"), checked on the sources; the build's
# per-layer include paths (Makefile) make most leaks compile errors, this
# catches the rest: includes by relative path, and upward includes.
#   runtime      libadapt/src, libadapt/include, libadapt/ext
#   algorithms   algorithms/, algorithms/include (public headers + libadapt/ext/adapt_ext.h)
#   perfcounters perfcounters/          (PAPI only)
#   C++ front end stl/include           (public headers)
#   above        apps/, bench/, tests/, packaging/ (public headers, stl, perfcounters)
# apps/isosurface by its parts, each seeing itself and the parts listed (apps/isosurface/module.mk
# gives each only their include paths): core (nothing else), io (core), vtk (core, io), cli
# (core, io), tools (core), fuzz (core, io); an include of another part's header, by path or by
# name, is reported.
# Allowed relative includes across directories: libadapt/src -> libadapt/ext
# (the extension header) and tests/*/test_*.c -> libadapt/src, libadapt/ext or algorithms/
# (white-box tests, marked so).
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
report() { echo "check-layers: $1" >&2; bad=1; }

while IFS= read -r f; do
  dir=$(dirname "$f")
  # "..." includes that leave the file's directory.
  while IFS= read -r inc; do
    target=$(realpath -m --relative-to=. "$dir/$inc")
    tdir=$(dirname "$target")
    [ "$tdir" = "$dir" ] && continue
    case "$f:$target" in
      libadapt/src/*:libadapt/ext/adapt_ext.h) ;;
      tests/*/test_*.c:libadapt/src/*.h | tests/*/test_*.c:libadapt/ext/*.h | tests/*/test_*.c:algorithms/*.h) ;;
      *) report "$f includes $inc ($target): crosses a layer by path" ;;
    esac
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\/[^"]*\)".*/\1/p' "$f")
  # Public headers a layer may not use: the runtime is below the algorithms.
  case "$f" in
    libadapt/*)
      if grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<adapt/(algorithms\.h|seq\.h|stl\.hpp)>' "$f"; then
        report "$f (runtime) includes a header of a layer above it"
      fi ;;
    perfcounters/*)
      if grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<adapt/' "$f"; then
        report "$f (perfcounters) includes libadapt"
      fi ;;
  esac
  # Public headers include only public headers.
  case "$f" in
    libadapt/include/* | algorithms/include/* | stl/include/*)
      if grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f"; then
        report "$f: a public header includes a private one"
      fi ;;
  esac
done < <(git ls-files '*.c' '*.h' '*.cpp' '*.hpp')

# The parts of apps/isosurface: which parts each may include (itself aside).
declare -A iso_sees=([core]="" [io]="core" [vtk]="core io" [cli]="core io" [tools]="core"
  [fuzz]="core io")
declare -A iso_part_of=() # header name -> its part
while IFS= read -r h; do
  p=${h#apps/isosurface/}
  iso_part_of[$(basename "$h")]=${p%%/*}
done < <(git ls-files 'apps/isosurface/*.h' 'apps/isosurface/*.hpp')
iso_allowed() { [ "$2" = "$1" ] || [[ " ${iso_sees[$1]} " == *" $2 "* ]]; }
while IFS= read -r f; do
  part=${f#apps/isosurface/}
  part=${part%%/*}
  [ -n "${iso_sees[$part]+x}" ] || continue
  while IFS= read -r inc; do
    if [[ $inc == */* ]]; then
      target=$(realpath -m --relative-to=. "$(dirname "$f")/$inc")
      [[ $target == apps/isosurface/*/* ]] || continue
      tpart=${target#apps/isosurface/}
      tpart=${tpart%%/*}
      how="by path"
    else
      tpart=${iso_part_of[$inc]:-}
      [ -n "$tpart" ] || continue
      how="by name"
    fi
    iso_allowed "$part" "$tpart" ||
      report "$f ($part) includes $inc of apps/isosurface/$tpart $how: not a part below it"
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(git ls-files 'apps/isosurface/*.c' 'apps/isosurface/*.h' 'apps/isosurface/*.cpp' \
  'apps/isosurface/*.hpp')

# White-box includes are marked where they are made.
while IFS= read -r line; do
  case "$line" in *white-box*) ;; *) report "unmarked white-box include: $line" ;; esac
done < <(grep -nE '^#include "\.\./\.\./(libadapt/src|libadapt/ext|algorithms)/' tests/*/*.c || true)

[ $bad -eq 0 ] && echo "check-layers: every include respects the layers"
exit $bad
