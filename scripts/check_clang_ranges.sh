#!/usr/bin/env bash
# adapt::ranges (C++20) under clang++ with the system's libstdc++
# (tests/stl/clang_ranges_probe.cpp, -fsyntax-only): the forms returning
# iterators, bool, counts or *_result structures must compile; a form
# returning a std::ranges::subrange must compile exactly when the same
# std::ranges call does. clang++ before 16 rejects libstdc++'s
# std::ranges::subrange itself (llvm-project issue 44178: the constraints
# of view_interface's members checked while the derived class is
# incomplete): then both fail, the limit is the compiler's and the check
# says so. Usage: check_clang_ranges.sh [CLANGXX] (default clang++).
set -euo pipefail
cxx=${1:-clang++}
if ! command -v "$cxx" >/dev/null; then
  echo "check-clang-ranges: $cxx not found (scripts/deps.sh installs clang)" >&2
  exit 1
fi
probe() {
  "$cxx" -std=c++20 -fsyntax-only -Wall -Wextra -Ilibadapt/include -Ialgorithms/include \
    -Istl/include -DPROBE="$1" tests/stl/clang_ranges_probe.cpp 2>/tmp/check_clang_ranges.$$.log
}
trap 'rm -f /tmp/check_clang_ranges.$$.log' EXIT
version=$("$cxx" --version | head -n 1)
if ! probe 1; then
  cat /tmp/check_clang_ranges.$$.log >&2
  echo "check-clang-ranges: FAILED: $version rejects the forms without a subrange" >&2
  exit 1
fi
adapt_ok=0 std_ok=0
probe 2 && adapt_ok=1
probe 3 && std_ok=1
if [ "$adapt_ok" != "$std_ok" ]; then
  [ "$adapt_ok" = 1 ] || cat /tmp/check_clang_ranges.$$.log >&2
  echo "check-clang-ranges: FAILED: $version: adapt::ranges::remove $([ $adapt_ok = 1 ] && echo compiles || echo fails), std::ranges::remove $([ $std_ok = 1 ] && echo compiles || echo fails)" >&2
  exit 1
fi
if [ "$adapt_ok" = 1 ]; then
  echo "check-clang-ranges: $version compiles every form"
else
  echo "check-clang-ranges: $version compiles the forms without a subrange; it rejects std::ranges::subrange itself (std::ranges::remove fails too: llvm-project issue 44178)"
fi
