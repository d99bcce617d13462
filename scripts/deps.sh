#!/usr/bin/env bash
# Install the Debian packages libadapt needs, only those that are missing.
# Usage: scripts/deps.sh [core|all|fuzz|data]   (core: build + tests; all: + apps and
# peers, OpenMPI included, and clang-tidy for `make check-function-size`; fuzz: core + the
# fuzzing toolchain, for `make fuzz`)
# Called by `make test`, `make demo` and `make bench`; safe to run again.
# data: what apps/isosurface/data/make_meshes.sh needs (the data of
# libcgal-demo, tetgen, Debian's VTK for python3); `all` includes it.
# `all` also installs ParaView for its plugin (docs/paraview.md, "Installing
# ParaView"): paraview-dev without its Recommends, whose python3-paraview
# conflicts with python3-vtk9 and would remove VTK's packages; its files are
# unpacked beside them instead (scripts/paraview_python.sh --unpack).
# No package is ever removed: an install that apt would make remove one is
# refused.
set -eu
set -o pipefail

want="${1:-all}"
core_pkgs="gcc g++ make pkg-config libhwloc-dev libcmocka-dev libpapi-dev libtbb-dev libomp-dev clang-format spin"
app_pkgs="libvtk9-dev zlib1g-dev libx11-dev cmake ninja-build xvfb xauth python3-vtk9 python3-numpy python3-matplotlib papi-tools hwloc valgrind openmpi-bin libopenmpi-dev"
pkgs="$core_pkgs"
# make check-function-size (scripts/check_function_size.sh).
check_pkgs="clang-tidy"
fuzz_pkgs="clang libclang-rt-14-dev"
# Installed without their Recommends (libcgal-demo's: Qt 5's development files;
# paraview-dev's: python3-paraview, see above).
data_pkgs="libcgal-demo tetgen"
pv_pkgs="paraview-dev"
[ "$want" = all ] && pkgs="$pkgs $app_pkgs $check_pkgs $data_pkgs $pv_pkgs"
[ "$want" = data ] && pkgs="python3-vtk9 python3-numpy $data_pkgs"
[ "$want" = fuzz ] && pkgs="$pkgs $app_pkgs $fuzz_pkgs"

missing=""
for p in $pkgs; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing="$missing $p"
  fi
done
# python3-paraview's files beside VTK's, once paraview is there.
paraview_python() {
  if [ "$want" = all ] && dpkg-query -W -f='${Status}' paraview 2>/dev/null | grep -q 'install ok installed'; then
    bash "$(dirname "$0")/paraview_python.sh" --unpack >/dev/null
  fi
}
if [ -z "$missing" ]; then
  paraview_python
  exit 0
fi

echo "deps: installing missing Debian packages:$missing" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "deps: not root and no sudo; install these packages by hand:$missing" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
plain="" norec=""
for p in $missing; do
  case " $data_pkgs $pv_pkgs " in
    *" $p "*) norec="$norec $p" ;;
    *) plain="$plain $p" ;;
  esac
done
# install ARGS...: apt-get install, after a simulation that removes nothing.
install() {
  local removed
  removed=$(apt-get install -s "$@" 2>/dev/null | sed -n 's/^Remv \([^ ]*\).*/\1/p' | tr '\n' ' ')
  if [ -n "$removed" ]; then
    echo "deps: refusing 'apt-get install $*': it would remove $removed" >&2
    exit 1
  fi
  $SUDO apt-get install -y -qq "$@" >/dev/null
}
# shellcheck disable=SC2086
[ -z "$plain" ] || install $plain
# shellcheck disable=SC2086
[ -z "$norec" ] || install --no-install-recommends $norec
paraview_python
echo "deps: done" >&2
