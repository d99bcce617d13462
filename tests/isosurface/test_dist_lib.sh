# Helpers of test_dist.sh (sourced by it, after it set bin, fails,
# mpi_env and root): the verdicts, the runs (serial, under mpirun), the
# fields of their output, and the meshes it writes.
# shellcheck shell=bash

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
# The grid is uniform: a tetrahedron's point ids are its cube's first
# point's plus offsets, and its orientation is the same in every cube, so
# both are computed once per permutation, on the first cube.
perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
steps = (1, n + 1, (n + 1) * (n + 1))
tets = []
for perm in perms:
    t = [0]
    for ax in perm:
        t.append(t[-1] + steps[ax])
    P = [xyz[v] for v in t]
    e = [[P[q][d] - P[0][d] for d in range(3)] for q in (1, 2, 3)]
    det = (e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
           e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
           e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]))
    if det < 0:
        t[1], t[2] = t[2], t[1]
    tets.append(t)
cells = [[o + d for d in t] for c in range(n) for b in range(n) for a in range(n)
         for o in ((c * (n + 1) + b) * (n + 1) + a,) for t in tets]
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

# tet_serial INPUT LABEL: INPUT (write_hex 10 3's mesh, with or without
# ghost layers) split by --tetrahedralize, serial: the mesh read must be the
# 10^3 cells' (1331 points, 6000 tetrahedra) and the surface == vtkContourGrid
# on it (--verify).
tet_serial() {
  local input=$1 label=$2 rc mesh
  serial --input "$input" --iso 0.1 --reps 1 --reorder none --tetrahedralize --verify
  rc=$?
  mesh=$(grep -o '[0-9]* points, [0-9]* tetrahedra' serial.out | head -1)
  [ $rc -eq 0 ] && [ "$mesh" = "1331 points, 6000 tetrahedra" ] &&
    grep -q '^verify: vtkContourGrid .*: ok$' serial.out
  verdict $? "$label: $mesh, == vtkContourGrid" \
    "$label: exit $rc, '$mesh': $(grep -E 'verify|adapt-iso' serial.out)"
}
