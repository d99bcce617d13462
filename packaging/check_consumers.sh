#!/usr/bin/env bash
# Installs libadapt into staged trees (DESTDIR) and checks it as its users
# will use it (called by `make check-consumers`, part of `make test`):
#  1. install with PREFIX=/opt/libadapt and a multiarch LIBDIR
#     (lib/x86_64-linux-gnu, where CMake looks on Debian): a pkg-config
#     consumer linked with `adapt` (shared) and one with `adapt-static`, and
#     a CMake consumer with adapt::adapt and adapt::adapt_static, all built
#     and run without LD_LIBRARY_PATH; the static ones need no libadapt.so;
#     <adapt/iso.hpp>'s consumer likewise, with `adapt-iso` and with
#     adapt::iso and adapt::iso_static;
#  2. find_package refuses another major/minor version;
#  3. uninstall leaves no file behind;
#  4. the VTK filter installed in the default layout, imported by Debian's python3;
#  5. without VTK, install installs the library and says the app is not built.
# Usage: check_consumers.sh MAKE WORKDIR
set -euo pipefail
MAKE_CMD=${1:-make}
work=${2:?work directory}
cd "$(dirname "$0")/.."
rm -rf "$work"
mkdir -p "$work"
stage="$work/stage"
prefix=/opt/libadapt
multiarch=$(cc -print-multiarch 2>/dev/null || true)
libsub=lib${multiarch:+/$multiarch}
libdir=$prefix/$libsub
fail() { echo "check-consumers: FAIL: $*" >&2; exit 1; }
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

unset LD_LIBRARY_PATH
export ADAPT_WORKERS=2

$MAKE_CMD --no-print-directory VARIANT=release install DESTDIR="$stage" PREFIX=$prefix \
  LIBDIR=$libdir VTKF_INSTALL=0 >"$work/install.log"
root="$stage$prefix"
for f in include/adapt/adapt.h include/adapt/loop.h $libsub/libadapt.a $libsub/libadapt.so \
  $libsub/pkgconfig/adapt.pc $libsub/pkgconfig/adapt-static.pc $libsub/cmake/adapt/adaptConfig.cmake \
  $libsub/cmake/adapt/adaptConfigVersion.cmake include/adapt/iso.hpp $libsub/libadapt-iso.a \
  $libsub/libadapt-iso.so $libsub/pkgconfig/adapt-iso.pc; do
  [ -e "$root/$f" ] || fail "install did not write $f"
done
soname=$(readelf -d "$root/$libsub/libadapt.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
real=$(readlink -f "$root/$libsub/libadapt.so")
case "$soname:$(basename "$real")" in
  libadapt.so.0:libadapt.so.0.*.*) ;;
  *) fail "soname $soname, real name $(basename "$real")" ;;
esac

# pkg-config, shared and static.
export PKG_CONFIG_PATH="$root/$libsub/pkgconfig"
cc -O2 packaging/consumer/consumer.c -o "$work/pc_shared" $(pkg-config --cflags --libs adapt)
cc -O2 packaging/consumer/consumer.c -o "$work/pc_static" $(pkg-config --cflags --libs adapt-static)
needed "$work/pc_shared" | grep -qx 'libadapt.so.0' || fail "pc_shared does not load libadapt.so.0"
! needed "$work/pc_static" | grep -q '^libadapt' || fail "pc_static depends on libadapt.so"
pkg-config --static --libs adapt | grep -q -- '-lhwloc' || fail "adapt.pc: no hwloc in --static"
"$work/pc_shared"
"$work/pc_static"
c++ -std=c++17 -O2 packaging/consumer/iso_consumer.cpp -o "$work/pc_iso" \
  $(pkg-config --cflags --libs adapt-iso)
needed "$work/pc_iso" | grep -qx 'libadapt-iso.so.0' || fail "pc_iso does not load libadapt-iso.so.0"
"$work/pc_iso"

# CMake, shared and static imported targets.
version=$(pkg-config --modversion adapt)
cmake -S packaging/consumer -B "$work/cmake" -DCMAKE_PREFIX_PATH="$root" \
  -DADAPT_WANT_VERSION="$version" >"$work/cmake.log"
cmake --build "$work/cmake" >>"$work/cmake.log"
needed "$work/cmake/consumer_shared" | grep -qx 'libadapt.so.0' || fail "cmake shared: no libadapt.so.0"
! needed "$work/cmake/consumer_static" | grep -q '^libadapt' || fail "cmake static needs libadapt.so"
"$work/cmake/consumer_shared"
"$work/cmake/consumer_static"
needed "$work/cmake/iso_consumer_shared" | grep -qx 'libadapt-iso.so.0' ||
  fail "cmake adapt::iso: no libadapt-iso.so.0"
! needed "$work/cmake/iso_consumer_static" | grep -q '^libadapt' ||
  fail "cmake adapt::iso_static needs a shared libadapt"
"$work/cmake/iso_consumer_shared"
"$work/cmake/iso_consumer_static"

# Another version is refused.
major=${version%%.*}
if cmake -S packaging/consumer -B "$work/cmake_bad" -DCMAKE_PREFIX_PATH="$root" \
  -DADAPT_WANT_VERSION="$((major + 1)).0" >"$work/cmake_bad.log" 2>&1; then
  fail "find_package accepted version $((major + 1)).0"
fi

# Uninstall leaves no file.
$MAKE_CMD --no-print-directory VARIANT=release uninstall DESTDIR="$stage" PREFIX=$prefix \
  LIBDIR=$libdir VTKF_INSTALL=0 >"$work/uninstall.log"
left=$(find "$stage" -type f -o -type l)
[ -z "$left" ] || fail "uninstall left: $left"

# The VTK filter, in the default layout (the build of `make vtk-filter`,
# installed as it is): Debian's python3 imports adapt_vtk from the staged
# tree and contours with it; uninstall removes it.
vtk_filter=""
if [ -e build/release/apps/isosurface/vtk/built ]; then
  vstage="$work/stage_vtk"
  $MAKE_CMD --no-print-directory VARIANT=release install DESTDIR="$vstage" PREFIX=$prefix \
    >"$work/install_vtk.log"
  vroot="$vstage$prefix"
  for f in lib/libadaptVtkContour.so lib/python3/dist-packages/adapt_vtk/__init__.py \
    lib/cmake/adapt-vtk; do
    [ -e "$vroot/$f" ] || fail "install did not write $f"
  done
  PYTHONPATH="$vroot/lib/python3/dist-packages" /usr/bin/python3 - <<'PY' || fail "adapt_vtk from the staged install"
from vtkmodules.vtkImagingCore import vtkRTAnalyticSource
from vtkmodules.vtkFiltersGeneral import vtkDataSetTriangleFilter
from adapt_vtk import vtkAdaptiveContourFilter
src = vtkRTAnalyticSource()
tets = vtkDataSetTriangleFilter()
tets.SetInputConnection(src.GetOutputPort())
f = vtkAdaptiveContourFilter()
f.SetInputConnection(tets.GetOutputPort())
f.SetValue(0, 150.0)
f.Update()
assert f.GetOutput().GetNumberOfCells() > 1000, f.GetOutput().GetNumberOfCells()
PY
  $MAKE_CMD --no-print-directory VARIANT=release uninstall DESTDIR="$vstage" PREFIX=$prefix \
    >"$work/uninstall_vtk.log"
  left=$(find "$vstage" -type f -o -type l)
  [ -z "$left" ] || fail "uninstall left: $left"
  vtk_filter=" the VTK filter imported from Debian's python3;"
fi

# Without VTK: the library is installed, the app is not, and install says so.
$MAKE_CMD --no-print-directory VARIANT=release install DESTDIR="$work/stage_novtk" \
  PREFIX=$prefix VTK_INC=/nonexistent ISO_REQUIRE_VTK= >"$work/install_novtk.log"
[ -e "$work/stage_novtk$prefix/lib/libadapt.a" ] || fail "no-VTK install: no library"
[ -e "$work/stage_novtk$prefix/lib/libadapt-iso.a" ] || fail "no-VTK install: no libadapt-iso"
[ ! -e "$work/stage_novtk$prefix/bin/adapt-isosurface" ] || fail "no-VTK install: app installed"
grep -q 'adapt-isosurface not built' "$work/install_novtk.log" || fail "no-VTK install: no message"

echo "check-consumers: pkg-config (adapt, adapt-static, adapt-iso) and CMake (adapt::adapt," \
  "adapt::adapt_static, adapt::iso, adapt::iso_static) consumers built and ran from a staged install; uninstall clean;$vtk_filter" \
  "install without VTK installs the library"
