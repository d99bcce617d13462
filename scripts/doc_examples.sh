#!/usr/bin/env bash
# Documentation that compiles: every example program of README.md and docs/*.md is extracted,
# compiled against the public headers only, linked with the built static library, and run.
#
# Marker (docs/guide.md, "Examples in these pages"): a fenced block whose info string is
#
#   ```c example=NAME [env=VAR=VALUE]... [args="ARG..."] [expect="TEXT"]
#
# (```cpp for C++). GitHub highlights by the first word and ignores the rest, so the page
# renders as usual. The program runs with ADAPT_WORKERS=2 (env= may override it) under a
# timeout; it passes when it compiles without warnings, exits with 0 and, with expect=, prints
# TEXT (a fixed substring of stdout+stderr). Values with spaces are double-quoted.
# with=vtk-filter (C++): the example uses the VTK filter vtkAdaptiveContourFilter; it is
# compiled with DOC_VTK_CXXFLAGS and linked with DOC_VTK_LIBS (the Makefile's, from
# apps/isosurface/vtk/module.mk), and fails when they are not given.
#
# Also fails when a block that contains `int main(` is not marked (every program in the docs
# is compiled), when a marked block has no `int main(` (a marked block is a whole program),
# when two examples share a NAME, and when an example includes a header by a quoted path (the
# examples see what an installed copy gives: <adapt/*.h> and the system's headers).
#
# Environment: VARIANT (release; asan, tsan) picks build/$VARIANT/libadapt.a and the output
# directory build/$VARIANT/doc-examples (C++ examples also link build/$VARIANT/libadapt-iso.a,
# <adapt/iso.hpp>'s library, when it is built); SAN_FLAGS (the Makefile passes its own; default: the
# Makefile's for the variant), CC, CXX, LIBS_CORE, DOC_TIMEOUT (seconds, per example).
# Usage: bash scripts/doc_examples.sh [FILE.md...]   (default: README.md docs/*.md)
set -euo pipefail
cd "$(dirname "$0")/.."

VARIANT=${VARIANT:-release}
CC=${CC:-cc}
CXX=${CXX:-c++}
LIBS_CORE=${LIBS_CORE:--lhwloc -lpthread -lm}
DOC_TIMEOUT=${DOC_TIMEOUT:-120}
if [ -z "${SAN_FLAGS+set}" ]; then
  # The same instrumentation as the library of that variant (Makefile, SAN_FLAGS): an
  # instrumented libadapt.a needs its runtime at link time.
  case "$VARIANT" in
    release) SAN_FLAGS= ;;
    tsan) SAN_FLAGS="-fsanitize=thread -O1" ;;
    asan) SAN_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined \
-fno-omit-frame-pointer -O1" ;;
    *) echo "doc-examples: VARIANT must be release, tsan or asan" >&2; exit 2 ;;
  esac
fi
# Flag lists given as strings (from make): split into words.
read -r -a san <<< "$SAN_FLAGS"
read -r -a libs <<< "$LIBS_CORE"
LIB_A=build/$VARIANT/libadapt.a
ISO_LIB_A=build/$VARIANT/libadapt-iso.a
OUT=build/$VARIANT/doc-examples
# The flags of the issue: public headers only, every warning an error. -O2 (before the
# sanitizer flags, which may lower it) also enables the warnings that need data-flow analysis.
CFLAGS_DOC=(-std=c11 -O2 -Wall -Wextra -Werror -Ilibadapt/include -Ialgorithms/include)
# C++ examples also see the C++ front end's headers and <adapt/iso.hpp> (installed beside the C
# ones).
CXXFLAGS_DOC=(-std=c++17 -O2 -Wall -Wextra -Werror -Ilibadapt/include -Ialgorithms/include -Istl/include
  -Iapps/isosurface/core/include)

if [ ! -f "$LIB_A" ]; then
  echo "doc-examples: $LIB_A is missing; build it first (make VARIANT=$VARIANT lib)" >&2
  exit 2
fi
if [ $# -gt 0 ]; then docs=("$@"); else docs=(README.md docs/*.md); fi

rm -rf "$OUT"
mkdir -p "$OUT/blocks"

# Split every fenced block into $OUT/blocks/D-K.txt (page D, block K) and list them as
# "D-K <TAB> file <TAB> line of the opening fence <TAB> info string" ("unclosed" as D-K for a
# block that never ends). A fence is 3+ backticks or tildes indented by at most 3 spaces
# (CommonMark); it closes with the same character, at least as many of them, and nothing else
# on the line.
d=0
for f in "${docs[@]}"; do
  d=$((d + 1))
  awk -v file="$f" -v dir="$OUT/blocks" -v page="$d" '
    BEGIN { k = 0; open = 0 }
    {
      line = $0
      sub(/^ ? ? ?/, "", line)
      if (!open && match(line, /^(```+|~~~+)/)) {
        fence = substr(line, 1, RLENGTH); info = substr(line, RLENGTH + 1)
        gsub(/^[ \t]+|[ \t]+$/, "", info)
        k++; open = 1; id = page "-" k; out = dir "/" id ".txt"
        printf "" > out
        printf "%s\t%s\t%d\t%s\n", id, file, NR, info
        next
      }
      if (open) {
        c = substr(fence, 1, 1); probe = line; sub(/[ \t]+$/, "", probe)
        if (substr(probe, 1, length(fence)) == fence && probe ~ ("^[" c "]+$")) {
          open = 0; close(out); next
        }
        print $0 >> out
      }
    }
    END { if (open) { close(out); printf "unclosed\t%s\t%d\t%s\n", file, NR, id } }
  ' "$f"
done > "$OUT/blocks.tsv"

fail=0
n_ok=0
n_fail=0
declare -A seen=()
problem() { echo "doc-examples: $*" >&2; fail=1; }

while IFS=$'\t' read -r k file line info; do
  if [ "$k" = unclosed ]; then problem "$file: a fenced block is not closed"; continue; fi
  block=$OUT/blocks/$k.txt
  lang=${info%%[[:space:]]*}
  attrs=${info#"$lang"}
  # Parse key=value / key="value with spaces" attributes of the info string.
  name='' expect='' args='' with='' envs=() nattrs=0
  while [[ $attrs =~ ^[[:space:]]*([a-z]+)=(\"([^\"]*)\"|([^[:space:]\"]*))(.*)$ ]]; do
    key=${BASH_REMATCH[1]}
    val=${BASH_REMATCH[3]}${BASH_REMATCH[4]}
    attrs=${BASH_REMATCH[5]}
    nattrs=$((nattrs + 1))
    case $key in
      example) name=$val ;;
      expect) expect=$val ;;
      args) args=$val ;;
      env) envs+=("$val") ;;
      with) with=$val ;;
      *) problem "$file:$line: unknown marker attribute '$key' in '$info'" ;;
    esac
  done
  is_program=0
  grep -q 'int main(' "$block" && is_program=1
  if [ -z "$name" ]; then
    if [ $nattrs -gt 0 ] || [[ $info == *=* ]]; then
      problem "$file:$line: marker attributes without example=NAME (or unparsable): '$info'"
    elif [ $is_program -eq 1 ]; then
      problem "$file:$line: a program (int main) that is not marked as an example:" \
        "write \`\`\`${lang:-c} example=NAME"
    fi
    continue
  fi
  # From here on: a marked block.
  [[ $attrs =~ [^[:space:]] ]] && problem "$file:$line: cannot parse '$attrs' in '$info'"
  if ! [[ $name =~ ^[A-Za-z0-9_-]+$ ]]; then
    problem "$file:$line: example name '$name' (letters, digits, _ and - only)"
    continue
  fi
  if [ -n "${seen[$name]:-}" ]; then
    problem "$file:$line: example name '$name' already used at ${seen[$name]}"
    continue
  fi
  seen[$name]="$file:$line"
  libs_lang=("$LIB_A")
  case $lang in
    c) src=$OUT/$name.c compile=("$CC" "${CFLAGS_DOC[@]}") ;;
    cpp | c++)
      src=$OUT/$name.cpp compile=("$CXX" "${CXXFLAGS_DOC[@]}")
      [ -f "$ISO_LIB_A" ] && libs_lang=("$ISO_LIB_A" "$LIB_A") ;;
    *)
      problem "$file:$line: example '$name' is a '$lang' block; only c and cpp are compiled"
      continue ;;
  esac
  cp "$block" "$src"
  why=
  extra=()
  if [ "$with" = vtk-filter ] && [ -n "${DOC_VTK_LIBS:-}" ]; then
    read -r -a vtk_cxx <<< "${DOC_VTK_CXXFLAGS:-}"
    read -r -a vtk_libs <<< "$DOC_VTK_LIBS"
    compile+=("${vtk_cxx[@]}")
    extra=("${vtk_libs[@]}")
  elif [ -n "$with" ]; then
    why="with=$with: $([ "$with" = vtk-filter ] && echo "the VTK filter's flags are not given \
(DOC_VTK_LIBS; make check-docs passes them when VTK is there)" || echo "unknown")"
  fi
  if [ -n "$why" ]; then
    :
  elif [ $is_program -eq 0 ]; then
    why="not a complete program (no int main)"
  elif grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src"; then
    why="includes a header by a quoted path (public <adapt/...> headers only)"
  fi
  bin=$OUT/$name
  # Every variable of env= for the run, after the default worker count.
  run_env=(ADAPT_WORKERS=2 "${envs[@]}")
  t0=$(date +%s.%N)
  if [ -z "$why" ] && ! "${compile[@]}" "${san[@]}" -o "$bin" "$src" "${extra[@]}" "${libs_lang[@]}" "${libs[@]}" \
    > "$bin.build.log" 2>&1; then
    why="does not compile (see $bin.build.log)"
    sed 's/^/    /' "$bin.build.log" >&2
  fi
  if [ -z "$why" ]; then
    set +e
    # args: split on blanks on purpose (documented as a word list).
    # shellcheck disable=SC2086
    env "${run_env[@]}" timeout "$DOC_TIMEOUT" "$bin" $args > "$bin.out" 2>&1
    rc=$?
    set -e
    if [ $rc -eq 124 ]; then
      why="timed out after ${DOC_TIMEOUT} s"
    elif [ $rc -ne 0 ]; then
      why="exit status $rc"
    elif [ -n "$expect" ] && ! grep -qF -- "$expect" "$bin.out"; then
      why="output lacks \"$expect\""
    fi
    [ -n "$why" ] && sed 's/^/    /' "$bin.out" | head -20 >&2
  fi
  secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  if [ -z "$why" ]; then
    printf 'doc-example %-22s %s:%s  ok (%s s, %s)\n' "$name" "$file" "$line" "$secs" \
      "${run_env[*]}"
    n_ok=$((n_ok + 1))
  else
    printf 'doc-example %-22s %s:%s  FAIL: %s\n' "$name" "$file" "$line" "$why"
    n_fail=$((n_fail + 1))
    fail=1
  fi
done < "$OUT/blocks.tsv"

total=$((n_ok + n_fail))
if [ $total -eq 0 ]; then problem "no marked example found in ${docs[*]}"; fi
echo "doc-examples [$VARIANT]: $n_ok of $total examples compiled and ran" \
  "($(wc -l < "$OUT/blocks.tsv") fenced blocks read)$([ $fail -eq 0 ] || echo '; FAILED')"
exit $fail
