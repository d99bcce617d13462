#!/usr/bin/env bash
# Debian's python3-paraview without installing it (docs/paraview.md,
# "Installing ParaView"): it conflicts with python3-vtk9, which libvtk9-dev
# depends on, so installing it would remove VTK's headers. Its files are
# unpacked instead (apt-get download + dpkg -x) into a directory of their
# own, for pvbatch's PYTHONPATH (ROOT/usr/lib/python3/dist-packages) and
# for the ParaView plugin's build (VTK's wrapping hierarchy files,
# ROOT/usr/lib/<multiarch>/vtk/hierarchy/ParaView).
#   paraview_python.sh [--unpack]
# Prints ROOT: "/" when python3-paraview is installed; else
# $ADAPT_PARAVIEW_PYTHON (default /usr/local/lib/adapt/python3-paraview)
# when it holds the python3-paraview of the installed paraview's version.
# --unpack: unpacks it there first when it does not (needs the paraview
# package, the network, and root or sudo unless ADAPT_PARAVIEW_PYTHON is
# writable). Exit status 1, nothing printed: not there (without --unpack)
# or the unpacking failed (the reason on stderr). Never installs or removes
# a package.
set -eu
set -o pipefail

root=${ADAPT_PARAVIEW_PYTHON:-/usr/local/lib/adapt/python3-paraview}
status() { dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null || true; }

if [[ $(status python3-paraview) == "install ok installed"* ]]; then
  echo /
  exit 0
fi
pv=$(status paraview)
if [[ $pv != "install ok installed "* ]]; then
  echo "paraview_python.sh: the paraview package is not installed" >&2
  exit 1
fi
version=${pv#install ok installed }
if [ "$(cat "$root/version" 2>/dev/null)" = "$version" ]; then
  echo "$root"
  exit 0
fi
if [ "${1:-}" != --unpack ]; then
  echo "paraview_python.sh: python3-paraview $version not unpacked in $root" >&2
  exit 1
fi

sudo=""
parent=$(dirname "$root")
while [ ! -d "$parent" ]; do parent=$(dirname "$parent"); done
if [ ! -w "$parent" ] && [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "paraview_python.sh: $root: not writable, no sudo" >&2; exit 1; }
  sudo=sudo
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
download() { (cd "$tmp" && apt-get download "python3-paraview=$version" >/dev/null 2>download.log); }
# Stale package lists: updated once (as root or through sudo), then again.
root_cmd=""
[ "$(id -u)" -ne 0 ] && root_cmd=sudo
download || { $root_cmd apt-get update -qq >/dev/null 2>&1 && download; } || {
  cat "$tmp/download.log" >&2
  echo "paraview_python.sh: apt-get download python3-paraview=$version failed" >&2
  exit 1
}
$sudo rm -rf "$root"
$sudo mkdir -p "$root"
$sudo dpkg -x "$tmp"/python3-paraview_*.deb "$root"
echo "$version" | $sudo tee "$root/version" >/dev/null
echo "paraview_python.sh: python3-paraview $version unpacked in $root" >&2
echo "$root"
