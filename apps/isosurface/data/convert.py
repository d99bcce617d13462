#!/usr/bin/python3
"""Conversions of libcgal-demo's data into files adapt-isosurface reads
(see make_meshes.sh, which calls them, and docs/isosurface.md, "Benchmark
meshes"). Debian's VTK and numpy belong to /usr/bin/python3.

usage:
  convert.py inr IN.inr[.gz] OUT.vti NAME [--smooth SIGMA] [--scale FX,FY,FZ]
      INRIMAGE-4 volume -> .vti with two point arrays: NAME (the voxel values,
      as float32; optionally smoothed by a Gaussian of SIGMA voxels, then
      resampled by the factors F (2: twice the points per axis, cubic
      interpolation; 0.5: half, linear)) and gradient_magnitude (of NAME).
  convert.py tetgen BASE SURFACE.off OUT.vtu PERIOD
      tetgen's BASE.node and BASE.ele (tetrahedra of the closed surface
      SURFACE.off) -> .vtu of tetrahedra, the points and cells in tetgen's
      numbering, with the point arrays distance (signed distance to
      SURFACE.off, negative inside) and gyroid (sin X cos Y + sin Y cos Z +
      sin Z cos X, X = 2 pi x / PERIOD, ...).
"""
import gzip
import math
import os
import sys

import numpy as np
import vtk
from vtk.util import numpy_support as ns


def fail(msg):
    sys.exit("convert.py: " + msg)


def write(writer, data, out):
    """Write data to out through a temporary file: out exists only whole."""
    part = out + ".part"
    writer.SetFileName(part)
    writer.SetInputData(data)
    writer.SetDataModeToAppended()
    writer.EncodeAppendedDataOff()
    writer.SetCompressorTypeToZLib()
    if not writer.Write():
        fail("cannot write " + part)
    os.replace(part, out)


# ---- INRIMAGE-4 -------------------------------------------------------------

def read_inr(path):
    """The volume as a float32 array (z, y, x) and its spacing."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    if not data.startswith(b"#INRIMAGE-4#{"):
        fail(path + ": not an INRIMAGE-4 file")
    end = data.find(b"##}\n")
    if end < 0:
        fail(path + ": no end of header (##})")
    header = data[:end].decode("ascii", "replace")
    kv = dict(line.split("=", 1) for line in header.splitlines() if "=" in line)
    try:
        dims = [int(kv[k]) for k in ("XDIM", "YDIM", "ZDIM")]
        vdim = int(kv.get("VDIM", "1"))
        bits = int(kv["PIXSIZE"].split()[0])
        kind = kv["TYPE"]
        spacing = [float(kv.get(k, "1")) for k in ("VX", "VY", "VZ")]
    except (KeyError, ValueError) as e:
        fail("%s: bad or missing header field (%s)" % (path, e))
    if vdim != 1:
        fail("%s: %d values per voxel (expected 1)" % (path, vdim))
    types = {("float", 32): "f4", ("float", 64): "f8", ("unsigned fixed", 8): "u1",
             ("unsigned fixed", 16): "u2", ("signed fixed", 8): "i1",
             ("signed fixed", 16): "i2"}
    if (kind, bits) not in types:
        fail("%s: unsupported voxel type %s of %d bits" % (path, kind, bits))
    order = ">" if kv.get("CPU", "decm") in ("sun", "sgi") else "<"
    dt = np.dtype(order + types[(kind, bits)])
    n = dims[0] * dims[1] * dims[2]
    body = data[end + 4:]
    if len(body) < n * dt.itemsize:
        fail("%s: %d bytes of voxels, %d expected" % (path, len(body), n * dt.itemsize))
    vals = np.frombuffer(body, dtype=dt, count=n).astype(np.float32)
    return vals, dims, spacing


def inr_to_vti(src, out, name, sigma, scale):
    vals, dims, spacing = read_inr(src)
    img = vtk.vtkImageData()
    img.SetDimensions(*dims)
    img.SetSpacing(*spacing)
    arr = ns.numpy_to_vtk(vals, deep=1)
    arr.SetName(name)
    img.GetPointData().SetScalars(arr)
    port = None
    if sigma > 0:
        smooth = vtk.vtkImageGaussianSmooth()
        smooth.SetInputData(img)
        smooth.SetDimensionality(3)
        smooth.SetStandardDeviations(sigma, sigma, sigma)
        smooth.SetRadiusFactors(3, 3, 3)
        port = smooth.GetOutputPort()
    if scale != [1.0, 1.0, 1.0]:
        res = vtk.vtkImageResample()
        if port is None:
            res.SetInputData(img)
        else:
            res.SetInputConnection(port)
        res.SetDimensionality(3)
        res.SetMagnificationFactors(*scale)
        if min(scale) >= 1:
            res.SetInterpolationModeToCubic()
        else:
            res.SetInterpolationModeToLinear()
        port = res.GetOutputPort()
    if port is not None:
        alg = port.GetProducer()
        alg.Update()
        img = alg.GetOutput()
        img.GetPointData().GetScalars().SetName(name)
    grad = vtk.vtkImageGradientMagnitude()
    grad.SetInputData(img)
    grad.SetDimensionality(3)
    grad.HandleBoundariesOn()
    grad.Update()
    g = grad.GetOutput().GetPointData().GetScalars()
    gm = vtk.vtkFloatArray()
    gm.DeepCopy(g)
    gm.SetName("gradient_magnitude")
    img.GetPointData().AddArray(gm)
    img.GetPointData().SetActiveScalars(name)
    write(vtk.vtkXMLImageDataWriter(), img, out)
    d = img.GetDimensions()
    lo, hi = img.GetPointData().GetArray(name).GetRange()
    print("%s: %dx%dx%d points, spacing %s, %s in [%g, %g]"
          % (out, d[0], d[1], d[2], "x".join("%g" % s for s in img.GetSpacing()),
             name, lo, hi))


# ---- tetgen -----------------------------------------------------------------

def read_table(path, ncols):
    """The rows of a tetgen file (first line: the count), as an int64 or
    float64 array of ncols columns (the first: the index)."""
    with open(path, "r") as f:
        head = f.readline().split()
        text = "".join(line for line in f if not line.lstrip().startswith("#"))
    if not head:
        fail(path + ": empty file")
    count = int(head[0])
    vals = np.array(text.split(), dtype=np.float64)
    per = vals.size // count if count else 0
    if count == 0 or vals.size != count * per or per < ncols:
        fail("%s: %d values for %d rows" % (path, vals.size, count))
    return vals.reshape(count, per)[:, :ncols]


def read_off(path):
    """An OFF surface as polydata (VTK 9.1 has no OFF reader)."""
    with open(path) as f:
        words = [w for line in f for w in line.split("#", 1)[0].split()]
    if not words or words[0] != "OFF":
        fail(path + ": not an OFF file")
    nv, nf = int(words[1]), int(words[2])
    xyz = np.array(words[4:4 + 3 * nv], dtype=np.float64).reshape(nv, 3)
    pos = 4 + 3 * nv
    cells = vtk.vtkCellArray()
    for _ in range(nf):
        k = int(words[pos])
        cells.InsertNextCell(k)
        for j in range(k):
            cells.InsertCellPoint(int(words[pos + 1 + j]))
        pos += 1 + k
    pts = vtk.vtkPoints()
    pts.SetData(ns.numpy_to_vtk(xyz, deep=1))
    pd = vtk.vtkPolyData()
    pd.SetPoints(pts)
    pd.SetPolys(cells)
    return pd


def tetgen_to_vtu(base, surface, out, period):
    nodes = read_table(base + ".node", 4)
    eles = read_table(base + ".ele", 5)
    first = int(nodes[0, 0])
    if not np.array_equal(nodes[:, 0], np.arange(first, first + len(nodes))):
        fail(base + ".node: the points are not numbered consecutively")
    xyz = np.ascontiguousarray(nodes[:, 1:4])
    tets = eles[:, 1:5].astype(np.int64) - first
    if tets.min() < 0 or tets.max() >= len(xyz):
        fail(base + ".ele: a point index out of range")
    pts = vtk.vtkPoints()
    pts.SetData(ns.numpy_to_vtk(xyz, deep=1))
    ntet = len(tets)
    conn = ns.numpy_to_vtkIdTypeArray(np.ascontiguousarray(tets.reshape(-1)), deep=1)
    offs = ns.numpy_to_vtkIdTypeArray(np.arange(0, 4 * ntet + 1, 4, dtype=np.int64), deep=1)
    cells = vtk.vtkCellArray()
    cells.SetData(offs, conn)
    grid = vtk.vtkUnstructuredGrid()
    grid.SetPoints(pts)
    grid.SetCells(vtk.VTK_TETRA, cells)

    dist = vtk.vtkImplicitPolyDataDistance()
    dist.SetInput(read_off(surface))
    d = vtk.vtkDoubleArray()
    d.SetNumberOfTuples(len(xyz))
    dist.FunctionValue(pts.GetData(), d)
    dvals = ns.vtk_to_numpy(d)
    if np.median(dvals) > 0:  # inward-facing normals: make the inside negative
        dvals = -dvals
    darr = ns.numpy_to_vtk(dvals.astype(np.float64), deep=1)
    darr.SetName("distance")
    k = 2 * math.pi / period
    X, Y, Z = (k * xyz[:, 0], k * xyz[:, 1], k * xyz[:, 2])
    gy = np.sin(X) * np.cos(Y) + np.sin(Y) * np.cos(Z) + np.sin(Z) * np.cos(X)
    garr = ns.numpy_to_vtk(gy, deep=1)
    garr.SetName("gyroid")
    grid.GetPointData().AddArray(darr)
    grid.GetPointData().AddArray(garr)
    grid.GetPointData().SetActiveScalars("distance")
    write(vtk.vtkXMLUnstructuredGridWriter(), grid, out)
    print("%s: %d points, %d tetrahedra, distance in [%g, %g]"
          % (out, len(xyz), ntet, dvals.min(), dvals.max()))


def main(argv):
    if len(argv) >= 5 and argv[1] == "inr":
        sigma, scale = 0.0, [1.0, 1.0, 1.0]
        rest = argv[5:]
        while rest:
            if rest[0] == "--smooth" and len(rest) > 1:
                sigma = float(rest[1])
            elif rest[0] == "--scale" and len(rest) > 1:
                scale = [float(v) for v in rest[1].split(",")]
                if len(scale) != 3 or min(scale) <= 0:
                    fail("--scale: expected three positive factors FX,FY,FZ")
            else:
                sys.exit(__doc__)
            rest = rest[2:]
        inr_to_vti(argv[2], argv[3], argv[4], sigma, scale)
    elif len(argv) == 6 and argv[1] == "tetgen":
        tetgen_to_vtu(argv[2], argv[3], argv[4], float(argv[5]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
