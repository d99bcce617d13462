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
#     an installed CMake consumer (cmake --install) runs too (the package's
#     rpath); `pkg-config --static --libs adapt` names no library that
#     hwloc's Libs.private pulls in (libudev-dev may be missing) and links;
#  2. find_package refuses another major/minor version, and a binary linked
#     against another 0.x version (soname libadapt.so.0.MINOR) is refused by
#     the loader;
#  3. uninstall leaves no file and no directory it created behind;
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
refused=""
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
version=$(basename "$real" | sed 's/^libadapt\.so\.//')
minor=$(echo "$version" | cut -d. -f2)
case "$version" in
  0.*) want_so=libadapt.so.0.$minor ;; # 0.x: a minor version may break the ABI
  *) want_so=libadapt.so.${version%%.*} ;;
esac
[ "$soname" = "$want_so" ] || fail "soname $soname for $(basename "$real") (want $want_so)"

# pkg-config, shared and static.
export PKG_CONFIG_PATH="$root/$libsub/pkgconfig"
cc -O2 packaging/consumer/consumer.c -o "$work/pc_shared" $(pkg-config --cflags --libs adapt)
cc -O2 packaging/consumer/consumer.c -o "$work/pc_static" $(pkg-config --cflags --libs adapt-static)
needed "$work/pc_shared" | grep -qx "$want_so" || fail "pc_shared does not load $want_so"
! needed "$work/pc_static" | grep -q '^libadapt' || fail "pc_static depends on libadapt.so"
static_libs=$(pkg-config --static --libs adapt)
echo "$static_libs" | grep -q -- '-lhwloc' || fail "adapt.pc: no hwloc in --static"
for l in $static_libs; do
  case "$l" in
    -L* | -Wl,* | -pthread | -ladapt | -lhwloc | -lm | -lpthread) ;;
    *) fail "pkg-config --static --libs adapt: $l (hwloc's Libs.private, e.g. -ludev, need not be installed)" ;;
  esac
done
cc -O2 packaging/consumer/consumer.c -o "$work/pc_static_flag" $(pkg-config --cflags adapt) $static_libs
"$work/pc_static_flag"
"$work/pc_shared"
"$work/pc_static"
c++ -std=c++17 -O2 packaging/consumer/iso_consumer.cpp -o "$work/pc_iso" \
  $(pkg-config --cflags --libs adapt-iso)
needed "$work/pc_iso" | grep -qx "libadapt-iso.so.${want_so#libadapt.so.}" ||
  fail "pc_iso does not load libadapt-iso.so.${want_so#libadapt.so.}"
"$work/pc_iso"

# CMake, shared and static imported targets.
version=$(pkg-config --modversion adapt)
cmake -S packaging/consumer -B "$work/cmake" -DCMAKE_PREFIX_PATH="$root" \
  -DADAPT_WANT_VERSION="$version" >"$work/cmake.log"
cmake --build "$work/cmake" >>"$work/cmake.log"
needed "$work/cmake/consumer_shared" | grep -qx "$want_so" || fail "cmake shared: no $want_so"
! needed "$work/cmake/consumer_static" | grep -q '^libadapt' || fail "cmake static needs libadapt.so"
"$work/cmake/consumer_shared"
"$work/cmake/consumer_static"
needed "$work/cmake/iso_consumer_shared" | grep -qx "libadapt-iso.so.${want_so#libadapt.so.}" ||
  fail "cmake adapt::iso: no libadapt-iso.so.${want_so#libadapt.so.}"
! needed "$work/cmake/iso_consumer_static" | grep -q '^libadapt' ||
  fail "cmake adapt::iso_static needs a shared libadapt"
"$work/cmake/iso_consumer_shared"
"$work/cmake/iso_consumer_static"
# Installed (cmake --install drops the build tree's rpath): the package's
# own rpath finds libadapt.
cmake --install "$work/cmake" --prefix "$work/cmake_installed" >>"$work/cmake.log"
"$work/cmake_installed/bin/consumer_shared" || fail "installed CMake consumer does not run"
"$work/cmake_installed/bin/iso_consumer_shared" || fail "installed CMake iso consumer does not run"

# A binary of another 0.x minor version is refused: a stand-in for a
# program linked against libadapt 0.(minor-1), run with the install's
# directory first in the loader's path, does not load this libadapt.
if [ "${version%%.*}" = 0 ] && [ "$minor" -gt 0 ]; then
  old_so=libadapt.so.0.$((minor - 1))
  mkdir -p "$work/old"
  printf 'unsigned adapt_version(void) { return 0; }\n' >"$work/old/old.c"
  cc -shared -fPIC -Wl,-soname,$old_so "$work/old/old.c" -o "$work/old/libadapt.so"
  printf 'unsigned adapt_version(void);\nint main(void) { return (int)adapt_version(); }\n' \
    >"$work/old/main.c"
  cc "$work/old/main.c" -o "$work/old/old_binary" -L"$work/old" -ladapt
  rm "$work/old/libadapt.so"
  if LD_LIBRARY_PATH="$root/$libsub" "$work/old/old_binary" 2>"$work/old/refused.log"; then
    fail "a binary linked against $old_so loaded $(basename "$real")"
  fi
  grep -q "$old_so: cannot open shared object file" "$work/old/refused.log" ||
    fail "old binary: $(cat "$work/old/refused.log")"
  refused=" a binary linked against $old_so refused (${old_so}: cannot open shared object file);"
fi

# Another version is refused.
major=${version%%.*}
if cmake -S packaging/consumer -B "$work/cmake_bad" -DCMAKE_PREFIX_PATH="$root" \
  -DADAPT_WANT_VERSION="$((major + 1)).0" >"$work/cmake_bad.log" 2>&1; then
  fail "find_package accepted version $((major + 1)).0"
fi

# Uninstall leaves no file, and no directory that install created.
$MAKE_CMD --no-print-directory VARIANT=release uninstall DESTDIR="$stage" PREFIX=$prefix \
  LIBDIR=$libdir VTKF_INSTALL=0 >"$work/uninstall.log"
left=$(find "$stage" -type f -o -type l)
[ -z "$left" ] || fail "uninstall left: $left"
left=$(find "$stage" -mindepth 1 -type d)
[ -z "$left" ] || fail "uninstall left directories: $left"

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
  "adapt::adapt_static, adapt::iso, adapt::iso_static) consumers built and ran from a staged install" \
  "(CMake's also installed);$refused uninstall clean;$vtk_filter" \
  "install without VTK installs the library"
