#!/usr/bin/env python3
"""Convert a TetGen mesh (NAME.node, NAME.ele) into a legacy ASCII .vtk
unstructured grid of tetrahedra with the app's `waves` point field, keeping
TetGen's own point and cell numbering (the benchmark of a mesh generator's
numbering, docs/benchmarks-isosurface.md, "Poor numberings and
renumbering").

usage: reorder_tetgen.py NAME OUT.vtk

The field is the one of `--field waves` (mesh.cpp, field_value) over the
bounding box of the points. Only linear tetrahedra (4 nodes per element)
are accepted; TetGen's attributes and markers are ignored.
"""
import math
import sys


def numbers(path):
    """The lines of a TetGen file as lists of tokens, comments dropped."""
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                yield line


def waves(x, y, z, lx, ly, lz):
    tau = 2 * math.pi
    u, v, w = x / lx, y / ly, z / lz
    return (math.sin(tau * u) * math.cos(tau * 1.5 * v) + 0.5 * math.sin(tau * 3.0 * (u + w)) +
            0.25 * math.cos(tau * 5.0 * (v - w) + 0.3))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-5])
    name, out = sys.argv[1], sys.argv[2]
    node = numbers(name + ".node")
    npts, dim = (int(t) for t in next(node)[:2])
    if dim != 3:
        sys.exit(f"{name}.node: dimension {dim}, expected 3")
    ids, pts = {}, []
    for k in range(npts):
        t = next(node)
        ids[int(t[0])] = k
        pts.append(tuple(float(c) for c in t[1:4]))
    ele = numbers(name + ".ele")
    ncells, per = (int(t) for t in next(ele)[:2])
    if per != 4:
        sys.exit(f"{name}.ele: {per} nodes per element, expected 4 (linear tetrahedra)")
    cells = [[ids[int(v)] for v in next(ele)[1:5]] for _ in range(ncells)]
    lo = [min(p[a] for p in pts) for a in range(3)]
    hi = [max(p[a] for p in pts) for a in range(3)]
    ext = [max(hi[a] - lo[a], 1e-300) for a in range(3)]
    with open(out, "w") as f:
        f.write(f"# vtk DataFile Version 3.0\nTetGen {name}\nASCII\nDATASET UNSTRUCTURED_GRID\n")
        f.write(f"POINTS {npts} double\n")
        f.writelines(f"{p[0]!r} {p[1]!r} {p[2]!r}\n" for p in pts)
        f.write(f"CELLS {ncells} {5 * ncells}\n")
        f.writelines(f"4 {c[0]} {c[1]} {c[2]} {c[3]}\n" for c in cells)
        f.write(f"CELL_TYPES {ncells}\n")
        f.write("10\n" * ncells)
        f.write(f"POINT_DATA {npts}\nSCALARS waves double 1\nLOOKUP_TABLE default\n")
        f.writelines(
            f"{waves(p[0] - lo[0], p[1] - lo[1], p[2] - lo[2], *ext)!r}\n" for p in pts)


if __name__ == "__main__":
    main()
