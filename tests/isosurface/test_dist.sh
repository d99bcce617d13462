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
# DUPLICATECELL ghost cells (left out, serial and mpirun -np 2); bad pieces (missing,
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
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir" || exit 1

fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}
pass() { echo "ok: $*"; }
# verdict STATUS OK FAILURE: pass OK when STATUS (give $?, the status of the
# check just run) is 0, else fail FAILURE.
verdict() {
  if [ "$1" -eq 0 ]; then pass "$2"; else fail "$3"; fi
}

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

# mpi NP ARGS...: the binary under mpirun (one machine: shared memory and
# self transports), output in mpi.out (stdout and stderr), its exit status
# returned; 124 when it hangs.
mpi() {
  local np=$1
  shift
  timeout 300 "${mpi_env[@]}" mpirun "${root[@]}" --oversubscribe --mca btl self,vader \
    -np "$np" "$bin" "$@" >mpi.out 2>&1
}

# serial ARGS...: the binary without mpirun, output in serial.out.
serial() { timeout 300 "$bin" "$@" >serial.out 2>&1; }

# The field N of the first line of FILE matching REGEX.
field() { awk -v re="$2" -v n="$3" '$0 ~ re { print $n; exit }' "$1"; }

# The column named COL of the row named ROW of the app's CSV table FILE.
csvcol() {
  awk -F, -v row="$2" -v col="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $1 == row { print $c[col]; exit }' "$1"
}

# An ASCII image volume of two Gaussian blobs (an "image-derived" mesh),
# N+1 points per axis, off-origin and anisotropic spacing.
write_image() {
  local n=$1 out=$2
  {
    echo '<?xml version="1.0"?>'
    echo '<VTKFile type="ImageData" version="0.1">'
    echo "<ImageData WholeExtent=\"0 $n 0 $n 0 $n\" Origin=\"-3 1 0.5\" Spacing=\"0.5 0.25 0.4\">"
    echo "<Piece Extent=\"0 $n 0 $n 0 $n\">"
    echo '<PointData Scalars="density">'
    echo '<DataArray type="Float64" Name="density" format="ascii">'
    awk -v n="$n" 'BEGIN {
      for (k = 0; k <= n; k++) for (j = 0; j <= n; j++) for (i = 0; i <= n; i++) {
        x = i / n; y = j / n; z = k / n
        a = (x - 0.35)^2 + (y - 0.4)^2 + (z - 0.45)^2
        b = (x - 0.68)^2 + (y - 0.62)^2 + (z - 0.55)^2
        printf "%.12g\n", 100 * exp(-a / 0.03) + 80 * exp(-b / 0.02)
      } }'
    echo '</DataArray>'
    echo '</PointData>'
    echo '</Piece>'
    echo '</ImageData>'
    echo '</VTKFile>'
  } >"$out"
}

# write_hex N NP [GHOST]: a mesh of N^3 cells, hexahedra and voxels
# alternating (VTK types 12 and 11), in NP ASCII pieces with global point
# ids (hex.pvtu): what --tetrahedralize splits. With GHOST layers (ghost.pvtu):
# each piece also holds the GHOST layers of cells (N^2 cells each) before
# and after its own, of its neighbours' pieces, marked DUPLICATECELL in a
# vtkGhostType cell array, as vtkRedistributeDataSetFilter (D3) writes them.
write_hex() {
  python3 - "$1" "$2" "${3:-0}" <<'EOF'
import math, sys
n, npieces, ghost = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
name = 'ghost' if ghost else 'hex'
def pid(a, b, c): return (c * (n + 1) + b) * (n + 1) + a
xyz, f = [], []
for c in range(n + 1):
    for b in range(n + 1):
        for a in range(n + 1):
            x, y, z = a + 0.1 * b, b * 0.9, c * 1.1 + 0.05 * a
            xyz.append((x, y, z))
            f.append(math.sin(0.5 * x) * math.cos(0.4 * y) + 0.3 * z / n)
cells = []
for c in range(n):
    for b in range(n):
        for a in range(n):
            if (a + b + c) % 2:
                q = [(0, 0), (1, 0), (1, 1), (0, 1)]
                cells.append((12, [pid(a + i, b + j, c + k) for k in (0, 1) for i, j in q]))
            else:
                cells.append((11, [pid(a + i, b + j, c + k) for k in (0, 1) for j in (0, 1) for i in (0, 1)]))
T = len(cells)
def arr(typ, name, v, comps=1):
    att = f' NumberOfComponents="{comps}"' if comps > 1 else ''
    return f'<DataArray type="{typ}" Name="{name}"{att} format="ascii">{" ".join(map(str, v))}</DataArray>\n'
for p in range(npieces):
    lo, hi = p * T // npieces, (p + 1) * T // npieces
    glo, ghi = max(0, lo - ghost * n * n), min(T, hi + ghost * n * n)
    cs = cells[glo:ghi]
    dup = [0 if lo <= c < hi else 1 for c in range(glo, ghi)]
    used, local = [], {}
    for _, ids in cs:
        for v in ids:
            if v not in local:
                local[v] = len(used)
                used.append(v)
    offs, o = [], 0
    for _, ids in cs:
        o += len(ids)
        offs.append(o)
    with open(f'{name}_{p}.vtu', 'w') as out:
        out.write('<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="1.0" '
                  'byte_order="LittleEndian">\n<UnstructuredGrid>\n'
                  f'<Piece NumberOfPoints="{len(used)}" NumberOfCells="{len(cs)}">\n'
                  '<PointData Scalars="f" GlobalIds="GlobalPointIds">\n' +
                  arr('Float64', 'f', [repr(f[v]) for v in used]) +
                  arr('Int64', 'GlobalPointIds', used) + '</PointData>\n<Points>\n' +
                  arr('Float64', 'Points', [repr(x) for v in used for x in xyz[v]], 3) +
                  '</Points>\n<Cells>\n' +
                  arr('Int64', 'connectivity', [local[v] for _, ids in cs for v in ids]) +
                  arr('Int64', 'offsets', offs) + arr('UInt8', 'types', [t for t, _ in cs]) +
                  '</Cells>\n' +
                  (f'<CellData>\n{arr("UInt8", "vtkGhostType", dup)}</CellData>\n' if ghost else '') +
                  '</Piece>\n</UnstructuredGrid>\n</VTKFile>\n')
with open(f'{name}.pvtu', 'w') as out:
    out.write('<?xml version="1.0"?>\n<VTKFile type="PUnstructuredGrid" version="1.0" '
              f'byte_order="LittleEndian">\n<PUnstructuredGrid GhostLevel="{ghost}">\n'
              '<PPointData Scalars="f" GlobalIds="GlobalPointIds">\n'
              '<PDataArray type="Float64" Name="f"/>\n<PDataArray type="Int64" Name="GlobalPointIds"/>\n'
              '</PPointData>\n' +
              ('<PCellData>\n<PDataArray type="UInt8" Name="vtkGhostType"/>\n</PCellData>\n' if ghost else '') +
              '<PPoints>\n<PDataArray type="Float64" NumberOfComponents="3"/>\n'
              '</PPoints>\n' + ''.join(f'<Piece Source="{name}_{p}.vtu"/>\n' for p in range(npieces)) +
              '</PUnstructuredGrid>\n</VTKFile>\n')
EOF
}

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

# Written by Python (no VTK), an n^3 grid (write_enc n) of cubes in 6 tetrahedra, scalars
# and coordinates exact in float32: the mesh whole as one ASCII .vtu
# (ref.vtu, which the app reads with VTK's reader) and in 4 pieces
# (enc.pvtu) that the piece reader reads a chunk at a time through VTK's
# parser: ASCII with two <Piece> elements in the file; inline binary with
# Float32 points and Int32 cells; appended raw, zlib in 4 KiB blocks, UInt64
# headers; appended base64, uncompressed, Int32 cells. n = 40 (release):
# about 17,000 points and 96,000 cells a piece, several chunks
# (ISO_PIECE_CHUNK, 16384) of points and of cells; n = 28 (AddressSanitizer):
# 33,000 cells a piece, chunks of cells, one of points.
write_enc() {
python3 - "$1" <<'EOF'
import array, base64, math, struct, sys, zlib

n = int(sys.argv[1])
# Points of an n^3 grid, coordinates and scalars exact in float32.
xyz, f = [], []
for c in range(n + 1):
    for b in range(n + 1):
        for a in range(n + 1):
            x, y, z = a * 0.5, b * 0.25, c * 0.75
            xyz.append((x, y, z))
            v = math.sin(0.41 * x) * math.cos(0.53 * y) + 0.4 * math.sin(0.29 * z)
            f.append(struct.unpack('<f', struct.pack('<f', v))[0])
# Six tetrahedra a cube along its diagonal (Kuhn), positively oriented.
cells = []
perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
for c in range(n):
    for b in range(n):
        for a in range(n):
            for perm in perms:
                p = [a, b, c]
                t = [(c * (n + 1) + b) * (n + 1) + a]
                for ax in perm:
                    p[ax] += 1
                    t.append((p[2] * (n + 1) + p[1]) * (n + 1) + p[0])
                P = [xyz[v] for v in t]
                e = [[P[q][d] - P[0][d] for d in range(3)] for q in (1, 2, 3)]
                det = (e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                       e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                       e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]))
                if det < 0:
                    t[1], t[2] = t[2], t[1]
                cells.append(t)
T = len(cells)

CODES = {'Float32': 'f', 'Float64': 'd', 'Int32': 'i', 'Int64': 'q', 'UInt8': 'B'}

class Writer:
    """One .vtu: enc ascii, binary (inline base64), rawz (appended raw,
    zlib blocks of 4096 bytes), b64 (appended base64, uncompressed)."""
    def __init__(self, enc, header):
        self.enc, self.header, self.app = enc, header, b''
    def array(self, name, typ, v, comps=1):
        att = f'type="{typ}" Name="{name}"' + (f' NumberOfComponents="{comps}"' if comps > 1 else '')
        if self.enc == 'ascii':
            return f'<DataArray {att} format="ascii">\n{" ".join(map(repr, v))}\n</DataArray>\n'
        data = array.array(CODES[typ], v).tobytes()
        h = '<Q' if self.header == 'UInt64' else '<I'
        if self.enc == 'binary':
            text = base64.b64encode(struct.pack(h, len(data)) + data).decode()
            return f'<DataArray {att} format="binary">\n{text}\n</DataArray>\n'
        off = len(self.app)
        if self.enc == 'rawz':
            B = 4096
            z = [zlib.compress(data[s:s + B]) for s in range(0, len(data), B)]
            head = [len(z), B, len(data) % B] + [len(x) for x in z]
            self.app += b''.join(struct.pack(h, x) for x in head) + b''.join(z)
        else:
            self.app += base64.b64encode(struct.pack(h, len(data)) + data)
        return f'<DataArray {att} format="appended" offset="{off}"/>\n'
    def file(self, body):
        root = (f'<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian" '
                f'header_type="{self.header}"')
        if self.enc == 'rawz':
            root += ' compressor="vtkZLibDataCompressor"'
        s = f'<?xml version="1.0"?>\n{root}>\n<UnstructuredGrid>\n{body}</UnstructuredGrid>\n'
        if not self.app:
            return (s + '</VTKFile>\n').encode()
        enc = 'raw' if self.enc == 'rawz' else 'base64'
        return (s.encode() + f'<AppendedData encoding="{enc}">\n_'.encode() + self.app +
                b'\n</AppendedData>\n</VTKFile>\n')

def piece_xml(w, cs, ptype, itype, gids=True):
    """The cells cs, their points numbered in the order of first use."""
    used, local, conn = [], {}, []
    for t in cs:
        for v in t:
            if v not in local:
                local[v] = len(used)
                used.append(v)
            conn.append(local[v])
    s = f'<Piece NumberOfPoints="{len(used)}" NumberOfCells="{len(cs)}">\n'
    s += '<PointData Scalars="f"' + (' GlobalIds="GlobalPointIds"' if gids else '') + '>\n'
    s += w.array('f', 'Float32', [f[v] for v in used])
    if gids:
        s += w.array('GlobalPointIds', 'Int32', used)
    s += '</PointData>\n<Points>\n'
    s += w.array('Points', ptype, [x for v in used for x in xyz[v]], 3)
    s += '</Points>\n<Cells>\n' + w.array('connectivity', itype, conn)
    s += w.array('offsets', itype, range(4, 4 * len(cs) + 1, 4))
    s += w.array('types', 'UInt8', [10] * len(cs))
    return s + '</Cells>\n</Piece>\n'

# The whole mesh, ASCII, no global ids: what VTK's own reader reads.
w = Writer('ascii', 'UInt32')
open('ref.vtu', 'wb').write(w.file(piece_xml(w, cells, 'Float64', 'Int64', gids=False)))
# Four pieces in four encodings; the first file holds two <Piece> elements.
kinds = [('ascii', 'UInt32', 'Float64', 'Int64'), ('binary', 'UInt32', 'Float32', 'Int32'),
         ('rawz', 'UInt64', 'Float64', 'Int64'), ('b64', 'UInt32', 'Float64', 'Int32')]
for p, (enc, header, ptype, itype) in enumerate(kinds):
    cs = cells[p * T // 4:(p + 1) * T // 4]
    w = Writer(enc, header)
    if p == 0:
        body = piece_xml(w, cs[:len(cs) // 2], ptype, itype) + piece_xml(w, cs[len(cs) // 2:], ptype, itype)
    else:
        body = piece_xml(w, cs, ptype, itype)
    open(f'enc_{p}.vtu', 'wb').write(w.file(body))
with open('enc.pvtu', 'w') as out:
    out.write('<?xml version="1.0"?>\n<VTKFile type="PUnstructuredGrid" version="1.0" '
              'byte_order="LittleEndian" header_type="UInt32">\n<PUnstructuredGrid GhostLevel="0">\n'
              '<PPointData Scalars="f" GlobalIds="GlobalPointIds">\n'
              '<PDataArray type="Float32" Name="f"/>\n<PDataArray type="Int32" Name="GlobalPointIds"/>\n'
              '</PPointData>\n<PPoints>\n<PDataArray type="Float64" NumberOfComponents="3"/>\n'
              '</PPoints>\n' + ''.join(f'<Piece Source="enc_{p}.vtu"/>\n' for p in range(4)) +
              '</PUnstructuredGrid>\n</VTKFile>\n')
EOF
}

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
  serial --input hex.pvtu --iso 0.1 --reps 1 --reorder none --tetrahedralize --verify
  rc=$?
  hex_mesh=$(grep -o '[0-9]* points, [0-9]* tetrahedra' serial.out | head -1)
  [ $rc -eq 0 ] && [ "$hex_mesh" = "1331 points, 6000 tetrahedra" ] &&
    grep -q '^verify: vtkContourGrid .*: ok$' serial.out
  verdict $? "hex.pvtu --tetrahedralize: $hex_mesh (1000 cells in 6), == vtkContourGrid" \
    "hex.pvtu --tetrahedralize: exit $rc, '$hex_mesh': $(grep -E 'verify|adapt-iso' serial.out)"
  # The same mesh in pieces with a layer of DUPLICATECELL ghost cells on each
  # side: the ghosts left out, the mesh is hex.pvtu's.
  write_hex 10 3 1
  serial --input ghost.pvtu --iso 0.1 --reps 1 --reorder none --tetrahedralize --verify
  rc=$?
  ghost_mesh=$(grep -o '[0-9]* points, [0-9]* tetrahedra' serial.out | head -1)
  [ $rc -eq 0 ] && [ "$ghost_mesh" = "1331 points, 6000 tetrahedra" ] &&
    grep -q '^verify: vtkContourGrid .*: ok$' serial.out
  verdict $? "ghost.pvtu (1 layer of DUPLICATECELL ghosts a side): $ghost_mesh, the ghosts left out" \
    "ghost.pvtu: exit $rc, '$ghost_mesh': $(grep -E 'verify|adapt-iso' serial.out)"
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
