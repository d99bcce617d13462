#!/usr/bin/env bash
# No function over FUNCTION_LINES lines (default 80) outside the tests:
# clang-tidy's readability-function-size (LineThreshold) on every source of
# libadapt/, algorithms/, apps/ (not the fuzz harnesses), bench/ and
# perfcounters/, and on the headers they include from those folders and
# stl/include (the public headers also through one unit that includes them
# all, as C++20: adapt::ranges too). A function's lines are clang-tidy's:
# the line of its body's closing brace minus that of its opening brace,
# comments and blank lines included.
#
# The compile flags are the build's: `make -Bn VARIANT=release
# function-size-commands` prints the compile lines of every object and
# program built from those sources (the VTK filter's, built by CMake, as
# -fsyntax-only lines), turned here into a compile_commands.json in
# build/release/check-function-size/. Every source must have one (VTK and MPI
# are needed: make deps); a unit clang-tidy cannot parse is an error too.
# Prints "file:line: function: N lines" for each function over the limit,
# the longest first; exit 1 if there is one.
# Usage: check_function_size.sh [SOURCE...]   (default: every source, and the
# public headers' unit; with SOURCEs, those units only).
# Env: MAKE, CLANG_TIDY (default clang-tidy), FUNCTION_LINES, CHECK_JOBS
# (parallel clang-tidy processes, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
make_cmd=${MAKE:-make}
tidy=${CLANG_TIDY:-clang-tidy}
limit=${FUNCTION_LINES:-80}
jobs=${CHECK_JOBS:-2}
work=build/release/check-function-size
if ! command -v "$tidy" >/dev/null; then
  echo "check-function-size: $tidy not found (scripts/deps.sh installs clang-tidy)" >&2
  exit 1
fi
rm -rf "$work"
mkdir -p "$work/stub" "$work/logs"

# The sources checked: every C/C++ source of the folders, the fuzz harnesses aside.
declare -A wanted=()
while IFS= read -r f; do wanted[$f]=1; done < <(git ls-files 'libadapt/*.c' 'algorithms/*.c' 'perfcounters/*.c' \
  'apps/*.cpp' 'apps/*.cxx' 'bench/*.cpp' | grep -v '/fuzz/')

# The unit of the public headers, and the export header CMake generates for
# the VTK filter (used when the filter was never configured).
{
  for h in libadapt/include/adapt/*.h algorithms/include/adapt/*.h; do echo "#include <adapt/${h##*/}>"; done
  echo '#include <adapt/stl.hpp>'
  echo '#include <adapt/stl/algorithms.hpp>'
  echo '#include <adapt/iso.hpp>'
} >"$work/public_headers.cpp"
printf '#define ADAPTVTKCONTOUR_EXPORT\n' >"$work/stub/adaptVtkContourModule.h"

# json_str S: S as a JSON string.
json_str() {
  local s=${1//\\/\\\\}
  printf '"%s"' "${s//\"/\\\"}"
}
# entry SRC ARGS...: one compile_commands.json entry.
entry() {
  local src=$1 a sep=''
  shift
  printf '{"directory": %s, "file": %s, "arguments": [' "$(json_str "$PWD")" "$(json_str "$src")"
  for a in "$@"; do
    printf '%s%s' "$sep" "$(json_str "$a")"
    sep=', '
  done
  printf ']}'
}

# Each compile line (continued lines joined, one command per line): the
# compiler, the flags that change what is parsed (includes, defines,
# language, -f options), the source; no outputs, no linking. A source
# compiled twice (an object and a -fsyntax-only line) keeps its first line.
declare -A seen=()
n=0
{
  echo '['
  while IFS= read -r line; do
    mapfile -t words < <(printf "%s\n" "$line" | xargs printf "%s\n" 2>/dev/null)
    [ "${#words[@]}" -gt 1 ] || continue
    src='' args=("${words[0]}")
    i=1
    while [ "$i" -lt "${#words[@]}" ]; do
      w=${words[$i]}
      case "$w" in
        -o | -MF | -MT | -MQ) i=$((i + 1)) ;;
        -isystem | -include | -x) args+=("$w" "${words[$((i + 1))]}") && i=$((i + 1)) ;;
        -c | -MMD | -MD | -MP | -shared | -l* | -L* | -Wl,* | -W* | -g*) ;;
        -*) args+=("$w") ;;
        "") ;;
        *) if [ -n "${wanted[$w]:-}" ] && [ -z "$src" ]; then src=$w; fi ;;
      esac
      i=$((i + 1))
    done
    if [ -z "$src" ] || [ -n "${seen[$src]:-}" ]; then continue; fi
    seen[$src]=1
    [ "$n" -gt 0 ] && echo ','
    entry "$src" "${args[@]}" -I"$work/stub" -c "$src"
    n=$((n + 1))
  done < <("$make_cmd" -Bn --no-print-directory VARIANT=release ISO_UNITY=0 function-size-commands |
    sed -e ':a' -e '/\\$/N; s/\\\n//; ta' | tr ';' '\n')
  [ "$n" -gt 0 ] && echo ','
  entry "$work/public_headers.cpp" c++ -std=c++20 -Ilibadapt/include -Ialgorithms/include -Istl/include \
    -Iapps/isosurface/core/include -D_GNU_SOURCE -c "$work/public_headers.cpp"
  echo ']'
} >"$work/compile_commands.json"

bad=0
units=("${!seen[@]}" "$work/public_headers.cpp")
if [ "$#" -gt 0 ]; then
  units=()
  for f in "$@"; do
    if [ -z "${seen[$f]:-}" ]; then
      echo "check-function-size: $f: not a source checked here" >&2
      exit 1
    fi
    units+=("$f")
  done
  wanted=()
fi
for f in "${!wanted[@]}"; do
  if [ -z "${seen[$f]:-}" ]; then
    echo "check-function-size: $f: no compile line (make -Bn function-size-commands; VTK and MPI: make deps)" >&2
    bad=1
  fi
done

# clang-tidy on each unit, CHECK_JOBS at once; a unit's log in $work/logs
# (a failed run leaves an error line there).
config="{CheckOptions: [{key: readability-function-size.LineThreshold, value: $limit}]}"
export tidy work config
# shellcheck disable=SC2016 # expanded by the inner bash
printf '%s\0' "${units[@]}" | xargs -0 -P "$jobs" -n 1 bash -c '
  log="$work/logs/$(printf %s "$1" | tr / _).log"
  "$tidy" -p "$work" --quiet -checks="-*,readability-function-size" -config="$config" \
    -header-filter="(^|/)(libadapt|algorithms|stl/include|apps|bench|perfcounters)/" "$1" \
    >"$log" 2>&1 || echo "$1: error: $tidy exited with $?" >>"$log"' _

# Each warning names the function, its note the lines; the headers come back
# once per unit that includes them.
for log in "$work"/logs/*.log; do
  if grep -q ': error: ' "$log"; then
    echo "check-function-size: clang-tidy could not parse a unit (${log##*/}):" >&2
    grep ': error: ' "$log" | head -n 5 >&2
    bad=1
  fi
done
cat "$work"/logs/*.log | awk -v root="$PWD/" '
  /: warning: function .* exceeds recommended size\/complexity thresholds/ {
    loc = $1; sub(/:[0-9]+:$/, "", loc); if (index(loc, root) == 1) loc = substr(loc, length(root) + 1)
    name = $0; sub(/^[^\x27]*\x27/, "", name); sub(/\x27.*$/, "", name)
  }
  /: note: [0-9]+ lines including whitespace and comments/ && name != "" {
    n = $0; sub(/.*note: /, "", n); sub(/ .*/, "", n)
    print n "\t" loc ": " name ": " n " lines"; name = ""
  }' | sort -t "$(printf '\t')" -k1,1nr -k2 -u | cut -f 2 >"$work/over.txt"
if [ -s "$work/over.txt" ]; then
  cat "$work/over.txt"
  echo "check-function-size: $(wc -l <"$work/over.txt") function(s) over $limit lines" >&2
  bad=1
fi
[ "$bad" = 0 ] && echo "check-function-size: no function over $limit lines (${#units[@]} units)"
exit "$bad"
