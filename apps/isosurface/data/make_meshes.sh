#!/usr/bin/env bash
# The benchmark meshes of docs/benchmarks-isosurface.md ("Benchmark meshes
# with large surfaces"), built from Debian packages only: the data of
# libcgal-demo (/usr/share/doc/libcgal-dev/data.tar.gz), tetrahedralized by
# tetgen where it is a surface, converted by convert.py (Debian's VTK, for
# /usr/bin/python3). Installs nothing: `bash scripts/deps.sh data` does.
#
# usage: make_meshes.sh OUTDIR [NAME...]    (default: every mesh)
#   skull      skull_2.9.inr as it is: 64^3 voxels, 1.25 M tetrahedra
#   skull2x    the same resampled to 127^3 points (cubic): 10.0 M tetrahedra
#   liver      liver.inr.gz's labels smoothed (Gaussian, 1 voxel), at half
#              resolution: 219x177x83 points, 15.6 M tetrahedra
#   armadillo  armadillo.off tetrahedralized by tetgen -pq1.4a0.5: 2.38 M tetrahedra
#   bunny      bunny00.off tetrahedralized by tetgen -pq1.4a1e-7: 5.58 M tetrahedra
# (tetgen's numbering kept: the points are not in the order the cells use them;
# point arrays distance, to the surface, and gyroid, an infill of the solid).
# A mesh already in OUTDIR is kept (delete it to rebuild). OUTDIR/README
# lists each file, its arrays and isovalue; with ISO_BIN=path/to/adapt-isosurface
# in the environment it also gives the points, tetrahedra and the surface's
# triangles (one sequential extraction each).
set -euo pipefail

usage="usage: $0 OUTDIR [skull|skull2x|liver|armadillo|bunny ...]"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 1; }
out=$1
shift
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(skull skull2x liver armadillo bunny)
here=$(cd "$(dirname "$0")" && pwd)
tarball=/usr/share/doc/libcgal-dev/data.tar.gz
py=/usr/bin/python3

die() { echo "make_meshes: $*" >&2; exit 1; }
[ -r "$tarball" ] || die "$tarball missing: install the Debian package libcgal-demo" \
  "(bash scripts/deps.sh data)"
"$py" -c 'import vtk, numpy' 2>/dev/null ||
  die "$py cannot import vtk and numpy: install python3-vtk9 (bash scripts/deps.sh data)"
for n in "${names[@]}"; do
  case $n in
    skull | skull2x | liver) ;;
    armadillo | bunny)
      command -v tetgen >/dev/null || die "tetgen missing: install the Debian package tetgen" \
        "(bash scripts/deps.sh data)" ;;
    *) die "unknown mesh '$n' ($usage)" ;;
  esac
done
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Members of the package's data tarball, extracted once into $work.
extract() {
  [ -e "$work/$1" ] || tar -xzf "$tarball" -C "$work" "$1" ||
    die "cannot extract $1 from $tarball"
}

# name, file, source, how, "ARRAY ISO[;ARRAY ISO...]" (tab-separated), for the README.
table=()
note() { table+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"$4"$'\t'"$5"); }

image() { # name, member, output, array, isovalue, description, convert.py options...
  local name=$1 member=$2 file=$3 array=$4 iso=$5 how=$6
  shift 6
  if [ -e "$out/$file" ]; then
    echo "make_meshes: $name: $out/$file exists, kept"
  else
    local t0=$SECONDS
    echo "make_meshes: $name: converting $member ($how)"
    extract "data/images/$member"
    "$py" "$here/convert.py" inr "$work/data/images/$member" "$out/$file" "$array" "$@"
    echo "make_meshes: $name: done in $((SECONDS - t0)) s"
  fi
  note "$name" "$file" "libcgal-demo: data/images/$member" "$how" "$array $iso"
}

tetmesh() { # name, member, output, tetgen switches, gyroid period, isovalues
  local name=$1 member=$2 file=$3 switches=$4 period=$5 iso=$6
  if [ -e "$out/$file" ]; then
    echo "make_meshes: $name: $out/$file exists, kept"
  else
    local t0=$SECONDS base=${member%.off}
    extract "data/meshes/$member"
    echo "make_meshes: $name: tetgen -$switches $member (minutes: 10 to 15 on a busy 2-core VM)"
    (cd "$work/data/meshes" && tetgen "-$switches" -Q "$member") ||
      die "$name: tetgen -$switches $member failed"
    echo "make_meshes: $name: tetgen done in $((SECONDS - t0)) s; distance and gyroid fields"
    "$py" "$here/convert.py" tetgen "$work/data/meshes/$base.1" "$work/data/meshes/$member" \
      "$out/$file" "$period"
    rm -f "$work/data/meshes/$base".1.*
    echo "make_meshes: $name: done in $((SECONDS - t0)) s"
  fi
  note "$name" "$file" "libcgal-demo: data/meshes/$member" \
    "tetgen -$switches; distance: signed distance to the surface (negative inside); gyroid: period $period" \
    "distance $iso;gyroid 0"
}

for n in "${names[@]}"; do
  case $n in
    skull) image skull skull_2.9.inr skull.vti density 2.9 "as it is" ;;
    skull2x)
      image skull2x skull_2.9.inr skull2x.vti density 2.9 "resampled x2 (cubic)" \
        --scale 2,2,2 ;;
    liver)
      image liver liver.inr.gz liver.vti labels 100 \
        "labels smoothed (Gaussian, sigma 1 voxel), resampled x0.5 (linear)" \
        --smooth 1 --scale 0.5,0.5,0.5 ;;
    armadillo) tetmesh armadillo armadillo.off armadillo.vtu pq1.4a0.5 8 -1 ;;
    bunny) tetmesh bunny bunny00.off bunny.vtu pq1.4a1e-7 0.06 -0.005 ;;
  esac
done

# The README: what each file is; with ISO_BIN, its counts and surface.
readme=$out/README
{
  echo "Benchmark meshes for adapt-isosurface, built by apps/isosurface/data/make_meshes.sh"
  echo "from the Debian packages libcgal-demo and tetgen (see docs/isosurface.md)."
  echo "Run: adapt-isosurface --input FILE --array ARRAY --iso ISO [--mode all --peers ...]"
  echo
} >"$readme"
for row in "${table[@]}"; do
  IFS=$'\t' read -r name file src how spec <<<"$row"
  {
    echo "$file ($name): $src"
    echo "  $how"
  } >>"$readme"
  IFS=';' read -r -a pairs <<<"$spec"
  for pair in "${pairs[@]}"; do
    read -r a v <<<"$pair"
    line="  --array $a --iso $v"
    if [ -n "${ISO_BIN:-}" ]; then
      echo "make_meshes: $name: measuring the surface of $a at $v"
      res=$("$ISO_BIN" --input "$out/$file" --array "$a" --iso "$v" --mode seq --reps 1 \
        --events none) || die "$name: $ISO_BIN failed on $out/$file"
      mesh=$(sed -n 's/^mesh: .*: \([0-9]*\) points, \([0-9]*\) tetrahedra.*/\1 points, \2 tetrahedra/p' \
        <<<"$res")
      tris=$(awk '$1 == "seq" { print $(NF - 1) }' <<<"$res")
      line="$line: $mesh, $tris triangles"
    fi
    echo "$line" >>"$readme"
  done
done
echo "Generated: adapt-isosurface --generate N --field gyroid (period 12 cells, iso 0)." >>"$readme"
echo "make_meshes: meshes and README in $out/"
