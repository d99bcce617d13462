#!/usr/bin/env bash
# The distributed run's test (docs/distributed.md), run by `make test` as
# $(B)/tests/isosurface/test_dist:
#   test_dist.sh BIN WORKDIR HAVE_MPI
# BIN the variant's adapt-isosurface, WORKDIR emptied and used for the
# files, HAVE_MPI "1" when BIN was built with MPI (else only the serial
# parts run, and the distributed run must explain that MPI is missing).
#
# The release build runs the whole matrix: pieces written and read back
# whole; mpirun -np 2 and -np 3 on a generated mesh (one run with each
# rank's mesh renumbered: --point-order random --reorder hilbert) and on
# an image-derived one, the union of the output pieces (coincident points
# merged) against vtkContourGrid on the whole mesh, its GlobalPointIds
# (one id per merged vertex) and rank 0's global figures; more ranks than
# pieces (the pieces written named); a mesh of hexahedra and voxels split
# by --tetrahedralize, serial and under mpirun, and again in pieces with
# DUPLICATECELL ghost cells (left out with the points only they use, serial
# and mpirun -np 2); bad pieces (missing,
# corrupt, other arrays): every rank names the file, the job ends, no
# hang; the ranks bound to distinct cores; pieces in other encodings
# (ASCII, inline binary, appended raw zlib, appended base64) against the
# same mesh read by VTK's own reader; the memory bound (peak RSS growth
# per rank at most 1.3x its mesh share and output, 2 ranks).
# A sanitizer build checks what the sanitizer adds, on the smallest meshes
# and with the fewest mpirun launches (each costs the start of MPI and VTK
# in every rank): ThreadSanitizer the ranks' threads (one mpirun run that
# renumbers and extracts on each rank's runtime, one that stops on a bad
# piece); AddressSanitizer the readers (the pieces, the encodings, the
# split, the bad pieces: serial, the same code a rank runs), one mpirun run
# through every phase (merged pieces, renumbering, the global numbering,
# the write) checked against vtkContourGrid, and one that stops.
set -u
set -o pipefail
# The memory bound below is checked with glibc's defaults, as users run
# (scripts/run_test.sh sets GLIBC_TUNABLES for the other programs).
unset GLIBC_TUNABLES

bin=$1
dir=$2
have_mpi=${3:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir" || exit 1

fails=0
# fail, pass, verdict, mpi, serial, field, csvcol, write_image, write_hex,
# write_enc, tet_serial.
. "$here/test_dist_lib.sh"

# The variant: "" release, else tsan or asan.
san=""
grep -qa '__tsan_init' "$bin" && san=tsan
grep -qa '__asan_init' "$bin" && san=asan
# full: the release build's whole matrix.
full=""
[ -z "$san" ] && full=1

# Sanitizers under mpirun. OpenMPI keeps what MPI_Init allocates until exit:
# LeakSanitizer would report it as leaks of every rank (the serial runs keep
# leak checking). ThreadSanitizer sees OpenMPI's own locking (uninstrumented,
# its pthread calls intercepted): a lock-order inversion in the TCP
# transport (not used: one machine, shared memory only) and an unlock of a
# destroyed mutex in libmpi's MPI_Finalize. The suppressions name OpenMPI's
# libraries only; the app's code stays checked.
cat >tsan.supp <<'SUPP'
deadlock:libopen-pal.so
deadlock:libmpi.so
mutex:libmpi.so
SUPP
mpi_env=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
  "TSAN_OPTIONS=${TSAN_OPTIONS:+$TSAN_OPTIONS:}suppressions=$PWD/tsan.supp")
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)


# ---- Pieces: written, listed, read back as the whole mesh -----------------

gen=(--generate 18x14x11 --field waves --order hilbert --reorder none)
if serial "${gen[@]}" --iso 0.1 --reps 1 --csv gen.csv --save-mesh gen.pvtu --pieces 4; then
  npieces=$(grep -c '<Piece Source=' gen.pvtu)
  if [ "$npieces" = 4 ] && [ -f gen_0.vtu ] && [ -f gen_3.vtu ] &&
    grep -q 'GlobalIds="GlobalPointIds"' gen.pvtu; then
    pass "--pieces 4: gen.pvtu lists 4 pieces with global point ids"
  else
    fail "--pieces 4: gen.pvtu lists $npieces pieces, or no GlobalPointIds: $(cat gen.pvtu)"
  fi
  gen_line=$(grep '^mesh:' serial.out)
  gen_tris=$(csvcol gen.csv seq triangles)
else
  fail "--save-mesh gen.pvtu --pieces 4: exit $?: $(tail -3 serial.out)"
fi
if [ "$san" = tsan ]; then
  echo "skip: the serial readers (single-threaded: release and ASan variants)"
elif serial --input gen.pvtu --iso 0.1 --reps 1 --reorder none --csv whole.csv; then
  whole=$(grep '^mesh:' serial.out)
  # "N points, M tetrahedra" of the whole .pvtu equals the generated mesh's.
  want=$(echo "$gen_line" | grep -o '[0-9]* points, [0-9]* tetrahedra')
  got=$(echo "$whole" | grep -o '[0-9]* points, [0-9]* tetrahedra')
  if [ -n "$want" ] && [ "$want" = "$got" ] &&
    [ -n "$gen_tris" ] && [ "$(csvcol whole.csv seq triangles)" = "$gen_tris" ]; then
    pass "gen.pvtu read whole: $got, $gen_tris triangles, as generated"
  else
    fail "gen.pvtu read whole: '$got' vs '$want', triangles $(csvcol whole.csv seq triangles) vs $gen_tris"
  fi
else
  fail "--input gen.pvtu (serial): exit $?: $(tail -3 serial.out)"
fi

if [ -n "$full" ]; then
  write_image 30 img.vti
  if ! serial --input img.vti --array density --iso 40 --order hilbert --reorder none --reps 1 \
    --save-mesh img.pvtu --pieces 3; then
    fail "image volume to img.pvtu: exit $?: $(tail -3 serial.out)"
  fi

  # Usage: --pieces without a .pvtu.
  serial "${gen[@]}" --pieces 3 --save-mesh x.vtu
  rc=$?
  if [ $rc -eq 1 ] && grep -q -- '--pieces N needs --save-mesh FILE.pvtu' serial.out; then
    pass "--pieces with a .vtu refused"
  else
    fail "--pieces with a .vtu: exit $rc: $(cat serial.out)"
  fi
fi


# ---- Pieces in other encodings, against VTK's own reader -------------------

enc_n=40
[ "$san" = asan ] && enc_n=28
if [ "$san" != tsan ]; then
  write_enc "$enc_n"
  if serial --input ref.vtu --array f --iso 0.1 --reps 1 --reorder none --csv ref.csv; then
    ref_mesh=$(grep -o '[0-9]* points, [0-9]* tetrahedra' serial.out | head -1)
    ref_tv="$(csvcol ref.csv seq triangles) $(csvcol ref.csv seq vertices)"
    if serial --input enc.pvtu --array f --iso 0.1 --reps 1 --reorder none --csv enc.csv; then
      got=$(grep -o '[0-9]* points, [0-9]* tetrahedra' serial.out | head -1)
      got_tv="$(csvcol enc.csv seq triangles) $(csvcol enc.csv seq vertices)"
      [ -n "$ref_mesh" ] && [ "$got" = "$ref_mesh" ] && [ "$got_tv" = "$ref_tv" ]
      verdict $? "enc.pvtu (4 encodings) read whole: $got, $got_tv triangles and vertices, as ref.vtu" \
        "enc.pvtu read whole: '$got', $got_tv; ref.vtu '$ref_mesh', $ref_tv"
    else
      fail "--input enc.pvtu: exit $?: $(tail -3 serial.out)"
    fi
  else
    fail "--input ref.vtu: exit $?: $(tail -3 serial.out)"
  fi
fi

# ---- --tetrahedralize on a .pvtu (serial) ----------------------------------

# Hexahedra and voxels in 3 pieces: refused without --tetrahedralize (the
# option named), split with it, the surface against vtkContourGrid on the
# split mesh.
if [ "$san" != tsan ]; then
  write_hex 10 3
  serial --input hex.pvtu --iso 0.1 --reps 1 --reorder none
  rc=$?
  [ $rc -eq 2 ] && grep -q "hex_0.vtu': cell 0 (VTK cell type 11) is not a tetrahedron; rerun with --tetrahedralize" serial.out
  verdict $? "hex.pvtu without --tetrahedralize: refused, the option named" \
    "hex.pvtu without --tetrahedralize: exit $rc: $(tail -2 serial.out)"
  tet_serial hex.pvtu "hex.pvtu --tetrahedralize (1000 cells in 6)"
  # The same mesh in pieces with a layer of DUPLICATECELL ghost cells on each
  # side: the ghosts left out, the mesh is hex.pvtu's.
  write_hex 10 3 1
  tet_serial ghost.pvtu "ghost.pvtu (1 layer of DUPLICATECELL ghosts a side, left out)"
  # A ghost array of another type than integers: refused, named.
  mkdir -p badghost
  cp ghost.pvtu ghost_0.vtu ghost_1.vtu ghost_2.vtu badghost/
  sed -i 's/type="UInt8" Name="vtkGhostType"/type="Float32" Name="vtkGhostType"/' badghost/ghost_1.vtu
  serial --input badghost/ghost.pvtu --iso 0.1 --reps 1 --tetrahedralize
  rc=$?
  [ $rc -eq 2 ] &&
    grep -q "piece 'badghost/ghost_1.vtu': its cell array 'vtkGhostType' is not one integer per cell" serial.out
  verdict $? "ghost.pvtu with Float32 ghosts: refused, the piece named" \
    "ghost.pvtu with Float32 ghosts: exit $rc: $(tail -2 serial.out)"
fi

# ---- Without MPI: the distributed run says so -------------------------------

if [ "$have_mpi" != 1 ]; then
  serial --input gen.pvtu --iso 0.1 --output out.pvtp
  rc=$?
  if [ $rc -eq 5 ] && grep -q 'built without' serial.out; then
    pass "no MPI: --output out.pvtp explains that MPI is missing"
  else
    fail "no MPI: --output out.pvtp: exit $rc: $(cat serial.out)"
  fi
  echo "test_dist: MPI not built in: the mpirun checks are skipped"
  [ $fails -eq 0 ] && echo "test_dist: all passed" && exit 0
  echo "test_dist: $fails check(s) failed"
  exit 1
fi

# ---- Distributed runs against vtkContourGrid --------------------------------

# check_run NAME NP INPUT ARRAY ISO MODE PIECES [ARGS...]: mpirun (ARGS
# added), then the union. ARGS that the mesh needs (--tetrahedralize) go to
# the serial reference too (set in both=).
check_run() {
  local name=$1 np=$2 input=$3 array=$4 iso=$5 mode=$6 pieces=$7
  shift 7
  local out="$name-np$np.pvtp"
  if ! mpi "$np" --input "$input" --array "$array" --iso "$iso" --mode "$mode" --workers 2 \
    --reps 1 --output "$out" --csv "$name-np$np.csv" "$@"; then
    fail "$name -np $np: exit $?: $(tail -5 mpi.out)"
    return
  fi
  cp mpi.out "$name-np$np.out"
  local gt gv ranks listed nonempty said
  gt=$(field mpi.out '^global:' 2)
  gv=$(field mpi.out '^global:' 4)
  ranks=$(awk '$1 ~ /^[0-9]+$/ && NF >= 17' mpi.out | wc -l)
  # VTK's parallel writer leaves out the pieces of ranks with no triangle,
  # and the message names the pieces written.
  nonempty=$(awk '$1 ~ /^[0-9]+$/ && NF >= 17 && $4 > 0' mpi.out | wc -l)
  listed=$(grep -c '<Piece Source=' "$out")
  said=$(sed -n "s/^surface written to $out (\([0-9]*\) piece(s): .*/\1/p" mpi.out)
  if [ "$ranks" = "$np" ] && [ "$listed" = "$nonempty" ] && [ "$nonempty" -ge 1 ] &&
    [ "$said" = "$listed" ] && [ "$(($(wc -l <"$name-np$np.csv") - 1))" = "$np" ]; then
    pass "$name -np $np: $ranks rank rows, $listed non-empty pieces in $out (said), CSV rows"
  else
    fail "$name -np $np: $ranks rank rows, $listed pieces listed (want $nonempty of $np), $said said"
  fi
  if [ "$pieces" -lt "$np" ]; then
    local empty
    empty=$(awk '$1 ~ /^[0-9]+$/ && $2 == "none" && $4 == 0' mpi.out | wc -l)
    if [ "$empty" = $((np - pieces)) ]; then
      pass "$name -np $np: $empty rank(s) with no piece, empty"
    else
      fail "$name -np $np: $empty empty rank(s), want $((np - pieces))"
    fi
  fi
  if serial --input "$input" --array "$array" --iso "$iso" --reps 1 --reorder none "${both[@]}" \
    --verify-union "$out"; then
    local vt vv
    vt=$(field serial.out '^verify-union: triangles' 3)
    vv=$(field serial.out '^verify-union: vertices' 3)
    # Each rank holds only its pieces: the ranks' cells add up to the mesh's,
    # none holds them all (with more than one non-empty rank).
    local total sum most
    total=$(grep -o '[0-9]* tetrahedra' serial.out | head -1 | cut -d' ' -f1)
    sum=$(awk -F, 'NR > 1 { s += $4 } END { print s }' "$name-np$np.csv")
    most=$(awk -F, 'NR > 1 && $4 > m { m = $4 } END { print m }' "$name-np$np.csv")
    [ -n "$total" ] && [ "$sum" = "$total" ] && { [ "$nonempty" -lt 2 ] || [ "$most" -lt "$total" ]; }
    verdict $? "$name -np $np: the ranks hold $sum cells in all, at most $most each, of $total" \
      "$name -np $np: the ranks hold $sum cells (at most $most each), the mesh $total"
    [ "$(grep -c '^verify-union: .*: ok$' serial.out)" = 5 ]
    verdict $? "$name -np $np: union == vtkContourGrid (triangles, vertices, area), manifold, one GlobalPointId per merged vertex" \
      "$name -np $np: union: $(grep verify-union serial.out)"
    [ -n "$gt" ] && [ "$gt" = "$vt" ] && [ "$gv" = "$vv" ]
    verdict $? "$name -np $np: rank 0's global figures $gt triangles, $gv vertices" \
      "$name -np $np: rank 0 says $gt triangles, $gv vertices; the union $vt, $vv"
  else
    fail "$name -np $np: --verify-union: exit $?: $(grep -E 'verify|adapt-iso' serial.out)"
  fi
}
both=()

# The ranks renumber their meshes: --point-order random scrambles each
# rank's points, --reorder hilbert renumbers its cells and points on its
# runtime (the global ids moving with the points).
# reordered NAME NP: every rank of NAME-npNP.csv reports hilbert.
reordered() {
  local csv="$1-np$2.csv" n
  n=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["reorder"] == "hilbert"' "$csv" | wc -l)
  [ "$n" = "$2" ] && grep -q "^reorder: hilbert on $2 of $2 rank(s)" "$1-np$2.out"
  verdict $? "$1 -np $2: --point-order random --reorder hilbert applied on every rank" \
    "$1 -np $2: $n of $2 ranks reordered: $(grep '^reorder' "$1-np$2.out")"
}
renum=(--point-order random --reorder hilbert)

if [ "$san" = tsan ]; then
  # The ranks' threads: the runtime started and stopped by the MPI driver
  # (dist.cpp), the renumbering and the extraction on it. ThreadSanitizer
  # fails the run (exit 66) on a report.
  mpi 2 --input gen.pvtu --array waves --iso 0.1 --mode sliding --workers 2 --reps 2 \
    --output gen-np2.pvtp "${renum[@]}"
  rc=$?
  [ $rc -eq 0 ] && [ "$(awk '$1 ~ /^[0-9]+$/ && NF >= 17' mpi.out | wc -l)" = 2 ]
  verdict $? "gen -np 2 (renumbered, 2 workers a rank, 2 runs): no race reported" \
    "gen -np 2 under ThreadSanitizer: exit $rc: $(grep -m3 -E 'WARNING|adapt-iso|rank' mpi.out)"
elif [ "$san" = asan ]; then
  check_run gen 3 gen.pvtu waves 0.1 sliding 4 "${renum[@]}"
  reordered gen 3
else
  check_run gen 2 gen.pvtu waves 0.1 sliding 4
  check_run gen 3 gen.pvtu waves 0.1 static 4 "${renum[@]}"
  reordered gen 3
  check_run img 2 img.pvtu density 40 nowin 3
  check_run img 3 img.pvtu density 40 sliding 3

  # More ranks than pieces: empty pieces, not an error; the pieces written
  # named (ranks 1 and 3 of 4 hold the 2 pieces).
  if serial "${gen[@]}" --iso 0.1 --reps 1 --save-mesh two.pvtu --pieces 2; then
    check_run two 4 two.pvtu waves 0.1 sliding 2
    grep -q '^surface written to two-np4.pvtp (2 piece(s): two-np4_1.vtp, two-np4_3.vtp)$' two-np4.out
    verdict $? "two -np 4: the message names the pieces written, two-np4_1.vtp and two-np4_3.vtp" \
      "two -np 4: $(grep '^surface written' two-np4.out), files: $(ls two-np4_*)"
  else
    fail "two.pvtu: exit $?"
  fi

  # Two ranks on a machine with at least two cores: distinct cores.
  if [ "$(nproc)" -ge 2 ] && [ -f gen-np2.out ]; then
    c0=$(awk '$1 == "0" && NF >= 17 { print $6 }' gen-np2.out)
    c1=$(awk '$1 == "1" && NF >= 17 { print $6 }' gen-np2.out)
    if [ -n "$c0" ] && [ -n "$c1" ] && [ "$c0" != "$c1" ]; then
      pass "-np 2: rank 0 on cpus $c0, rank 1 on cpus $c1"
    else
      fail "-np 2: ranks on cpus '$c0' and '$c1'"
    fi
  fi

  # The split under mpirun: the faces between the ranks' pieces cut alike
  # (by global ids), or the union would differ from the whole mesh's.
  both=(--tetrahedralize)
  check_run hex 2 hex.pvtu f 0.1 sliding 3 --tetrahedralize
  # Pieces with ghost cells: each rank leaves its DUPLICATECELL ghosts out
  # (else their triangles would be twice in the union). The ranks' cells add
  # up to the mesh's (check_run), the union is hex.pvtu's surface.
  check_run ghost 2 ghost.pvtu f 0.1 sliding 3 --tetrahedralize
  gt=$(field ghost-np2.out '^global:' 2)
  [ -n "$gt" ] && [ "$gt" = "$(field hex-np2.out '^global:' 2)" ]
  verdict $? "ghost -np 2: $gt triangles, as hex -np 2 (no ghost contoured twice)" \
    "ghost -np 2: $gt triangles, hex -np 2 $(field hex-np2.out '^global:' 2)"
  # The points only ghost cells use are left out too: each rank holds the
  # points of hex -np 2's rank (the CSV's points column), no more.
  gp=$(awk -F, 'NR > 1 { printf "%s%s", (NR > 2 ? " " : ""), $5 }' ghost-np2.csv)
  hp=$(awk -F, 'NR > 1 { printf "%s%s", (NR > 2 ? " " : ""), $5 }' hex-np2.csv)
  [ -n "$gp" ] && [ "$gp" = "$hp" ] && [ "$(head -1 ghost-np2.csv | cut -d, -f5)" = points ]
  verdict $? "ghost -np 2: the ranks hold $gp points, as hex -np 2 (ghost-only points left out)" \
    "ghost -np 2: the ranks hold $gp points, hex -np 2 $hp"
  both=()

  # The encodings under mpirun -np 3 (rank 0 reads pieces 0 and 1, merged by
  # global id), the union against vtkContourGrid on ref.vtu as VTK reads it.
  if mpi 3 --input enc.pvtu --array f --iso 0.1 --mode sliding --workers 1 --reps 1 \
    --output enc-np3.pvtp; then
    gt=$(field mpi.out '^global:' 2)
    if serial --input ref.vtu --array f --iso 0.1 --reps 1 --reorder none \
      --verify-union enc-np3.pvtp && [ "$(grep -c '^verify-union: .*: ok$' serial.out)" = 5 ] &&
      [ "$gt" = "$(field serial.out '^verify-union: triangles' 3)" ]; then
      pass "enc -np 3: union == vtkContourGrid on ref.vtu, $gt triangles, GlobalPointIds"
    else
      fail "enc -np 3: $gt triangles; union: $(grep -E 'verify|adapt-iso' serial.out)"
    fi
  else
    fail "enc -np 3: exit $?: $(tail -5 mpi.out)"
  fi
fi

# ---- Memory: each rank holds its pieces, at most 1.3x -----------------------

# Peak RSS minus the RSS before reading, over the rank's mesh share and
# output in the app's layout (the CSV's rss_peak_b, rss_base_b, data_b):
# at most 1.3 on every rank, 2 pieces each (merged by global id), with a
# mesh large enough (2.05 M tetrahedra, about 30 MiB a rank: measured
# 1.21) that the libraries' and buffers' 5 MiB do not dominate
# (docs/distributed.md, "Memory").
# Release builds only: the sanitizers' shadow memory is not the app's.
if [ -z "$full" ]; then
  echo "skip: memory bound (a sanitizer build)"
elif serial --generate 80x80x64 --field waves --order hilbert --reorder none --reps 1 \
  --save-mesh big.pvtu --pieces 4 &&
  mpi 2 --input big.pvtu --iso 0 --mode sliding --workers 1 --reps 1 --output big.pvtp \
    --csv big.csv; then
  ratios=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { printf "%s%.3f", (NR > 2 ? " " : ""), ($c["rss_peak_b"] - $c["rss_base_b"]) / $c["data_b"] }' big.csv)
  worst=$(echo "$ratios" | tr ' ' '\n' | sort -g | tail -1)
  said=$(sed -n 's/^memory: .* at most \([0-9.]*\) .*/\1/p' mpi.out)
  if [ "$(echo "$ratios" | wc -w)" = 2 ] && [ -n "$said" ] &&
    awk -v w="$worst" -v s="$said" 'BEGIN { exit !(w <= 1.3 && w - s < 0.006 && s - w < 0.006) }'; then
    pass "memory: peak RSS growth / (mesh share + output) per rank $ratios <= 1.3, reported"
  else
    fail "memory: ratios per rank '$ratios' (target <= 1.3): $(grep '^memory:' mpi.out)"
  fi
else
  fail "memory: big.pvtu: exit $?: $(tail -3 serial.out mpi.out)"
fi

# ---- Bad input: every rank names the file, the job ends ---------------------

# bad_case NAME NP REGEX: bad/gen.pvtu must fail with exit 2 within the
# timeout. Release: under mpirun, each of the NP ranks printing a line
# matching REGEX. Sanitizers: the first case under mpirun -np 2 (the ranks'
# stop, with MPI's threads), the others serially under AddressSanitizer
# (the same reader a rank runs), not under ThreadSanitizer (single-threaded).
bad_case() {
  local name=$1 np=$2 re=$3
  if [ -n "$san" ] && [ -n "${bad_once:-}" ]; then
    if [ "$san" = tsan ]; then
      echo "skip: $name (single-threaded reader: release and ASan variants)"
      return
    fi
    serial --input bad/gen.pvtu --iso 0.1 --reps 1
    local rc=$?
    [ $rc -eq 2 ] && grep -qE "^adapt-isosurface: .*$re" serial.out
    verdict $? "$name (serial): exit 2: $(grep -m1 -o "adapt-isosurface: .*" serial.out)" \
      "$name (serial): exit $rc: $(head -5 serial.out)"
    return
  fi
  [ -n "$san" ] && np=2
  bad_once=1
  mpi "$np" --input bad/gen.pvtu --iso 0.1 --mode sliding --workers 1 --reps 1 --output bad/o.pvtp
  local rc=$?
  local lines
  lines=$(grep -cE "^adapt-isosurface: rank [0-9]+ of $np: stopping: .*$re" mpi.out)
  if [ $rc -eq 2 ] && [ "$lines" = "$np" ]; then
    pass "$name: exit 2, all $np ranks: $(grep -m1 -o "stopping: .*" mpi.out)"
  else
    fail "$name: exit $rc (124: hung), $lines of $np ranks named it: $(head -5 mpi.out)"
  fi
}

mkdir -p bad
cp gen.pvtu gen_*.vtu bad/
rm bad/gen_2.vtu
bad_case "missing piece" 3 "'bad/gen_2.vtu'.*No such file"
cp gen_2.vtu bad/
head -c 2000 gen_2.vtu >bad/gen_2.vtu
bad_case "truncated piece" 2 "'bad/gen_2.vtu'"
cp gen_2.vtu bad/
# A piece whose data is damaged past its header (the reader fails).
python3 - <<'EOF'
d = open('gen_2.vtu', 'rb').read()
i = d.find(b'_', d.find(b'<AppendedData')) + 1
open('bad/gen_2.vtu', 'wb').write(d[:i + 64] + bytes(256) + d[i + 320:])
EOF
bad_case "corrupt piece" 2 "'bad/gen_2.vtu'"
# Arrays that differ: the piece of a mesh whose scalars are another array.
if [ "$san" = tsan ]; then
  echo "skip: piece with other arrays (single-threaded reader: release and ASan variants)"
elif serial --generate 18x14x11 --field sphere --order hilbert --reorder none --reps 1 \
  --save-mesh other.pvtu --pieces 4; then
  cp gen_2.vtu bad/
  cp other_1.vtu bad/gen_1.vtu
  bad_case "piece with other arrays" 3 "'bad/gen_1.vtu': point arrays differ"
else
  fail "other.pvtu: exit $?"
fi
cp gen_1.vtu bad/
sed 's/gen_3.vtu/missing_3.vtu/' gen.pvtu >bad/gen.pvtu
bad_case "index naming a missing piece" 2 "'bad/missing_3.vtu'"

# Under mpirun, a serial-only option is refused.
if [ -n "$full" ]; then
  mpi 2 "${gen[@]}" --iso 0.1
  rc=$?
  if [ $rc -eq 1 ] && grep -q 'not available in a distributed run' mpi.out; then
    pass "mpirun with --generate: refused, exit 1"
  else
    fail "mpirun with --generate: exit $rc"
  fi
fi

[ $fails -eq 0 ] && echo "test_dist: all passed" && exit 0
echo "test_dist: $fails check(s) failed"
exit 1
