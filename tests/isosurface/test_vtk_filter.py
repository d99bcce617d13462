#!/usr/bin/python3
"""vtkAdaptiveContourFilter from Python (adapt_vtk) against vtkContourGrid,
run by `make test` (release variant) with Debian's /usr/bin/python3:

    PYTHONPATH=<build>/lib/python3/dist-packages test_vtk_filter.py EXAMPLE.py

Meshes: the wavelet image (vtkRTAnalyticSource), a tetgen mesh of CGAL's
elephant.off and a crop of CGAL's skull_2.9.inr (libcgal-demo's data, as
apps/isosurface/data/make_meshes.sh builds them), a grid of mixed linear
cells, cell scalars. Reference: vtkContourGrid on the same tetrahedra
(images: vtkDataSetTriangleFilter's, with the image's points in double;
mixed cells: split here by the rule <adapt/iso.hpp> documents; cell scalars:
vtkCellDataToPointData first). Compared: the triangle and merged point
counts, the points, every point array (type, components, values within
1e-6), the area within 1e-9 relative, per value of each cell array the
count and area of its triangles, the triangles wound alike (not on the
mixed cells: see test_mixed). vtkContourGrid's other properties:
OutputPointsPrecision, GenerateTriangles, ComputeGradients (a linear
field's exact gradient; vtkContourFilter's on the image), the locators (a
mesh of two pieces, each with its own seam points). Errors: empty input, no
scalars, a wrong array name, 2D and quadratic cells: an error, an empty
output. Then EXAMPLE.py (docs/isosurface.md's example) is run and its file
read back, and the docs' Python and C++ examples are checked to be
EXAMPLE.py and the .cpp beside it. Exit status: the number of failed checks.
"""
import importlib.util
import os
import subprocess
import sys
import tempfile

import numpy as np
from vtkmodules.util import numpy_support as ns
from vtkmodules.vtkCommonCore import (VTK_DOUBLE, VTK_FLOAT, vtkDoubleArray, vtkLogger,
                                      vtkOutputWindow, vtkPoints, vtkStringOutputWindow)
from vtkmodules.vtkCommonDataModel import (VTK_HEXAHEDRON, VTK_PIXEL, VTK_PYRAMID,
                                           VTK_QUADRATIC_TETRA, VTK_TETRA, VTK_TRIANGLE,
                                           VTK_VOXEL, VTK_WEDGE, vtkCellArray,
                                           vtkDataObject, vtkImageData,
                                           vtkIncrementalOctreePointLocator, vtkMergePoints,
                                           vtkNonMergingPointLocator, vtkUnstructuredGrid)
from vtkmodules.vtkFiltersCore import (vtkAppendFilter, vtkCellDataToPointData, vtkContourFilter,
                                       vtkContourGrid)
from vtkmodules.vtkFiltersGeneral import vtkDataSetTriangleFilter
from vtkmodules.vtkImagingCore import vtkExtractVOI, vtkRTAnalyticSource
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader, vtkXMLUnstructuredGridReader

from adapt_vtk import vtkAdaptiveContourFilter
from surface_compare import check, compare, failures, triangles

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "apps", "isosurface", "data")
CGAL_TARBALL = "/usr/share/doc/libcgal-dev/data.tar.gz"
POINTS, CELLS = vtkDataObject.FIELD_ASSOCIATION_POINTS, vtkDataObject.FIELD_ASSOCIATION_CELLS
# ---- pipelines ----------------------------------------------------------------

def contour_grid(grid, values, array, assoc=POINTS):
    g = vtkContourGrid()
    g.SetInputData(grid)
    g.SetInputArrayToProcess(0, 0, 0, assoc, array)
    for i, v in enumerate(values):
        g.SetValue(i, v)
    g.Update()
    return g.GetOutput()


def adaptive(data, values, array, assoc=POINTS, workers=0):
    f = vtkAdaptiveContourFilter()
    f.SetInputData(data)
    f.SetInputArrayToProcess(0, 0, 0, assoc, array)
    for i, v in enumerate(values):
        f.SetValue(i, v)
    f.SetNumberOfWorkers(workers)
    f.Update()
    return f.GetOutput()


def split_image(image):
    """vtkDataSetTriangleFilter's tetrahedra of image, its points in double."""
    t = vtkDataSetTriangleFilter()
    t.SetInputData(image)
    t.Update()
    grid = t.GetOutput()
    xyz = vtkDoubleArray()
    xyz.SetNumberOfComponents(3)
    xyz.SetNumberOfTuples(image.GetNumberOfPoints())
    for i in range(image.GetNumberOfPoints()):
        xyz.SetTuple(i, image.GetPoint(i))
    pts = vtkPoints()
    pts.SetData(xyz)
    grid.SetPoints(pts)
    return grid


def wavelet(n):
    src = vtkRTAnalyticSource()
    src.SetWholeExtent(-n, n, -n, n, -n, n)
    src.Update()
    return src.GetOutput()


def test_image():
    image = wavelet(12)
    grid = split_image(image)
    for values in ([150.0], [90.0, 150.0, 210.0]):
        compare("wavelet image at %s" % values, adaptive(image, values, "RTData"),
                contour_grid(grid, values, "RTData"))
    one = adaptive(image, [150.0], "RTData", workers=1)
    two = adaptive(image, [150.0], "RTData", workers=2)
    check(np.array_equal(ns.vtk_to_numpy(one.GetPoints().GetData()),
                         ns.vtk_to_numpy(two.GetPoints().GetData())) and
          np.array_equal(triangles(one), triangles(two)),
          "wavelet image: the same surface on 1 and 2 workers, byte for byte")


def cgal_members(tmp, *members):
    """The members of libcgal-demo's data extracted into tmp (one pass)."""
    subprocess.run(["tar", "-xzf", CGAL_TARBALL, "-C", tmp] + list(members), check=True)
    return [os.path.join(tmp, m) for m in members]


def load_convert():
    spec = importlib.util.spec_from_file_location("convert", os.path.join(DATA, "convert.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_cgal(tmp):
    convert = load_convert()
    off, inr = cgal_members(tmp, "data/meshes/elephant.off", "data/images/skull_2.9.inr")
    subprocess.run(["tetgen", "-pq1.4", "-Q", off], check=True)
    vtu = os.path.join(tmp, "elephant.vtu")
    convert.tetgen_to_vtu(off[:-4] + ".1", off, vtu, 0.2)
    r = vtkXMLUnstructuredGridReader()
    r.SetFileName(vtu)
    r.Update()
    grid = r.GetOutput()
    check(grid.GetNumberOfCells() > 10000, "tetgen mesh of elephant.off: %d tetrahedra"
          % grid.GetNumberOfCells())
    compare("elephant (tetgen) distance at -0.02, -0.005",
            adaptive(grid, [-0.02, -0.005], "distance"),
            contour_grid(grid, [-0.02, -0.005], "distance"))
    compare("elephant (tetgen) gyroid at 0", adaptive(grid, [0.0], "gyroid"),
            contour_grid(grid, [0.0], "gyroid"))

    vol, dims, spacing = convert.read_inr(inr)
    vol = vol.reshape(dims[2], dims[1], dims[0])
    image = vtkImageData()
    image.SetDimensions(vol.shape[2], vol.shape[1], vol.shape[0])
    image.SetSpacing(spacing)
    arr = ns.numpy_to_vtk(np.ascontiguousarray(vol).reshape(-1), deep=1)
    arr.SetName("density")
    image.GetPointData().SetScalars(arr)
    crop = vtkExtractVOI()
    crop.SetInputData(image)
    crop.SetVOI(16, 47, 16, 47, 20, 43)
    crop.Update()
    skull = crop.GetOutput()
    compare("skull_2.9.inr (cropped) at 2.9", adaptive(skull, [2.9], "density"),
            contour_grid(split_image(skull), [2.9], "density"))


def mixed_grid():
    """A 6x5x5-cell grid, layer by layer hexahedra, voxels, wedges (2 per
    cube), pyramids (3 per cube, apex at its corner 6), tetrahedra (5 per
    cube); scalars random, a cell array "layer" and the point arrays."""
    rng = np.random.default_rng(7)
    n = (7, 6, 6)
    g = np.stack(np.meshgrid(*[np.arange(k, dtype=np.float64) for k in n], indexing="ij"), -1)
    xyz = g.transpose(2, 1, 0, 3).reshape(-1, 3)
    pid = lambda i, j, k: i + n[0] * (j + n[1] * k)
    cells, types, layer = [], [], []
    for k in range(n[2] - 1):
        for j in range(n[1] - 1):
            for i in range(n[0] - 1):
                v = [pid(i + a, j + b, k + c) for c in (0, 1) for b in (0, 1) for a in (0, 1)]
                hexa = [v[0], v[1], v[3], v[2], v[4], v[5], v[7], v[6]]
                kind = i % 5
                if kind == 0:
                    add = [(VTK_HEXAHEDRON, hexa)]
                elif kind == 1:
                    add = [(VTK_VOXEL, v)]
                elif kind == 2:
                    h = hexa
                    add = [(VTK_WEDGE, [h[0], h[1], h[2], h[4], h[5], h[6]]),
                           (VTK_WEDGE, [h[0], h[2], h[3], h[4], h[6], h[7]])]
                elif kind == 3:
                    h = hexa
                    add = [(VTK_PYRAMID, [h[0], h[1], h[2], h[3], h[6]]),
                           (VTK_PYRAMID, [h[0], h[4], h[5], h[1], h[6]]),
                           (VTK_PYRAMID, [h[0], h[3], h[7], h[4], h[6]])]
                else:
                    h = hexa
                    add = [(VTK_TETRA, t) for t in ([h[0], h[1], h[3], h[4]],
                                                    [h[1], h[2], h[3], h[6]],
                                                    [h[1], h[4], h[5], h[6]],
                                                    [h[3], h[4], h[6], h[7]],
                                                    [h[1], h[3], h[4], h[6]])]
                for t, ids in add:
                    types.append(t)
                    cells.append(ids)
                    layer.append(k * 10 + kind)
    grid = vtkUnstructuredGrid()
    pts = vtkPoints()
    pts.SetData(ns.numpy_to_vtk(xyz, deep=1))
    grid.SetPoints(pts)
    ca = vtkCellArray()
    for ids in cells:
        ca.InsertNextCell(len(ids), ids)
    grid.SetCells(ns.numpy_to_vtk(np.array(types, dtype=np.uint8), deep=1), ca)
    add_point_arrays(grid, rng)
    lay = ns.numpy_to_vtk(np.array(layer, dtype=np.int32), deep=1)
    lay.SetName("layer")
    grid.GetCellData().AddArray(lay)
    return grid


def add_point_arrays(grid, rng):
    npts = grid.GetNumberOfPoints()
    for name, comps, dtype in (("s", 1, np.float64), ("f1", 1, np.float32),
                               ("d3", 3, np.float64), ("i9", 9, np.int32)):
        vals = rng.uniform(-1.0, 1.0, (npts, comps))
        if dtype == np.int32:
            vals = rng.integers(-1000, 1000, (npts, comps))
        a = ns.numpy_to_vtk(np.ascontiguousarray(vals.astype(dtype)), deep=1)
        a.SetName(name)
        grid.GetPointData().AddArray(a)
    grid.GetPointData().SetActiveScalars("s")


def split_like_iso(grid):
    """The tetrahedra of <adapt/iso.hpp>'s split (its header): the cell's
    vertex v of the smallest id joined to every face without v, each
    quadrilateral cut by the diagonal through its own smallest id."""
    out = vtkCellArray()
    src = []
    for c in range(grid.GetNumberOfCells()):
        cell = grid.GetCell(c)
        if cell.GetCellType() == VTK_TETRA:
            out.InsertNextCell(4, [cell.GetPointId(k) for k in range(4)])
            src.append(c)
            continue
        ids = [cell.GetPointId(k) for k in range(cell.GetNumberOfPoints())]
        v = min(ids)
        for f in range(cell.GetNumberOfFaces()):
            face = cell.GetFace(f)
            fi = [face.GetPointId(k) for k in range(face.GetNumberOfPoints())]
            if face.GetCellType() == VTK_PIXEL:
                fi = [fi[0], fi[1], fi[3], fi[2]]
            if v in fi:
                continue
            tris = [fi]
            if len(fi) == 4:
                p = fi.index(min(fi))
                q = [fi[(p + k) % 4] for k in range(4)]
                tris = [[q[0], q[1], q[2]], [q[0], q[2], q[3]]]
            for t in tris:
                out.InsertNextCell(4, [v] + t)
                src.append(c)
    tets = vtkUnstructuredGrid()
    tets.SetPoints(grid.GetPoints())
    tets.SetCells(VTK_TETRA, out)
    tets.GetPointData().ShallowCopy(grid.GetPointData())
    idx = np.array(src, dtype=np.int64)
    for i in range(grid.GetCellData().GetNumberOfArrays()):
        a = grid.GetCellData().GetArray(i)
        b = ns.numpy_to_vtk(np.ascontiguousarray(ns.vtk_to_numpy(a)[idx]), deep=1)
        b.SetName(a.GetName())
        tets.GetCellData().AddArray(b)
    return tets


def test_mixed():
    """The mixed cells against vtkContourGrid on split_like_iso's tetrahedra:
    the same tetrahedra as the core's split, but not their vertices' order
    (VTK's faces, not the core's), by which VTK's case table picks a
    quadrilateral cut's diagonal, and some of negative determinant, where
    VTK's winding flips and ours does not: the triangles are not compared
    one by one."""
    grid = mixed_grid()
    tets = split_like_iso(grid)
    for values in ([0.1], [-0.3, 0.0, 0.4]):
        compare("mixed linear cells at %s" % values, adaptive(grid, values, "s"),
                contour_grid(tets, values, "s"), winding=False)
    # Cell scalars: vtkCellDataToPointData's point data, then vtkContourGrid.
    c2p = vtkCellDataToPointData()
    c2p.SetInputData(tets)
    c2p.ProcessAllArraysOff()
    c2p.AddCellDataArray("layer")
    c2p.PassCellDataOn()
    c2p.Update()
    conv = c2p.GetOutput()
    compare("cell scalars layer at 12.5", adaptive(tets, [12.5], "layer", CELLS),
            contour_grid(conv, [12.5], "layer"), winding=False)


def with_props(data, values, array, **props):
    """The filter on data with props set (Set<name>(value) each)."""
    f = vtkAdaptiveContourFilter()
    f.SetInputData(data)
    f.SetInputArrayToProcess(0, 0, 0, POINTS, array)
    for i, v in enumerate(values):
        f.SetValue(i, v)
    for name, value in props.items():
        getattr(f, "Set" + name)(value)
    f.Update()
    return f.GetOutput()


def test_precision_triangles():
    """OutputPointsPrecision: float, double, or the input's; GenerateTriangles
    accepted, triangles either way."""
    grid = mixed_grid()  # double points
    fgrid = vtkUnstructuredGrid()
    fgrid.DeepCopy(grid)
    fpts = vtkPoints()
    fpts.SetDataTypeToFloat()
    fpts.DeepCopy(grid.GetPoints())
    fgrid.SetPoints(fpts)
    ref = adaptive(grid, [0.1], "s")
    for data, prec, want in ((grid, 2, VTK_DOUBLE), (grid, 0, VTK_FLOAT), (grid, 1, VTK_DOUBLE),
                             (fgrid, 2, VTK_FLOAT), (fgrid, 1, VTK_DOUBLE), (fgrid, 0, VTK_FLOAT)):
        out = with_props(data, [0.1], "s", OutputPointsPrecision=prec)
        got = ns.vtk_to_numpy(out.GetPoints().GetData()).astype(np.float64)
        refx = ns.vtk_to_numpy(ref.GetPoints().GetData())
        check(out.GetPoints().GetDataType() == want and got.shape == refx.shape and
              np.allclose(got, refx, atol=1e-5) and np.array_equal(triangles(out), triangles(ref)),
              "OutputPointsPrecision %d on %s points: points of type %d (want %d), the same surface"
              % (prec, data.GetPoints().GetData().GetDataTypeAsString(), out.GetPoints().GetDataType(), want))
    f = vtkAdaptiveContourFilter()
    check(f.GetOutputPointsPrecision() == 2 and f.GetGenerateTriangles() == 1 and
          f.GetComputeGradients() == 0 and f.GetLocator() is None,
          "defaults: OutputPointsPrecision 2 (the input's), GenerateTriangles on, "
          "ComputeGradients off, no locator")
    out = with_props(grid, [0.1], "s", GenerateTriangles=0)
    check(np.array_equal(triangles(out), triangles(ref)),
          "GenerateTriangles off: the same triangles (%d)" % len(triangles(out)))


def test_gradients():
    """ComputeGradients: a linear field's gradient exactly at every point of
    the mixed cells; on the wavelet image Contour's (vtkContourFilter,
    synchronized templates) at the points both surfaces share."""
    grid = mixed_grid()
    xyz = ns.vtk_to_numpy(grid.GetPoints().GetData())
    lin = ns.numpy_to_vtk(np.ascontiguousarray(xyz @ np.array([2.0, 3.0, -1.0])), deep=1)
    lin.SetName("lin")
    grid.GetPointData().AddArray(lin)
    check(with_props(grid, [6.0], "lin").GetPointData().GetArray("Gradients") is None,
          "ComputeGradients off: no Gradients")
    out = with_props(grid, [6.0, 9.5], "lin", ComputeGradients=1)
    g = out.GetPointData().GetArray("Gradients")
    if check(g is not None and g.GetDataType() == VTK_FLOAT and g.GetNumberOfComponents() == 3 and
             out.GetPointData().GetVectors() is g and out.GetNumberOfPoints() > 0,
             "ComputeGradients on: Gradients, float, 3 components, the active vectors"):
        err = np.abs(ns.vtk_to_numpy(g) - np.array([2.0, 3.0, -1.0])).max()
        check(err < 1e-5, "ComputeGradients of 2x + 3y - z: (2, 3, -1) at every point (error %.2g)"
              % err)
    image = wavelet(6)
    ours = with_props(image, [150.0], "RTData", ComputeGradients=1)
    cf = vtkContourFilter()
    cf.SetInputData(image)
    cf.SetInputArrayToProcess(0, 0, 0, POINTS, "RTData")
    cf.SetValue(0, 150.0)
    cf.ComputeGradientsOn()
    cf.Update()
    ref = cf.GetOutput()
    xo = ns.vtk_to_numpy(ours.GetPoints().GetData()).astype(np.float64)
    xr = ns.vtk_to_numpy(ref.GetPoints().GetData()).astype(np.float64)
    ko = {tuple(k): i for i, k in enumerate(np.rint(xo * 1e6).astype(np.int64))}
    pairs = [(ko[tuple(k)], i) for i, k in enumerate(np.rint(xr * 1e6).astype(np.int64))
             if tuple(k) in ko]
    go = ns.vtk_to_numpy(ours.GetPointData().GetArray("Gradients"))
    gr = ns.vtk_to_numpy(ref.GetPointData().GetArray("Gradients"))
    o, r = np.array(pairs).T if pairs else (np.zeros(0, int), np.zeros(0, int))
    rel = (np.abs(go[o] - gr[r]).max() / np.abs(gr).max()) if pairs else 1.0
    check(len(pairs) > ref.GetNumberOfPoints() // 2 and rel < 1e-5,
          "ComputeGradients on the wavelet image: Contour's at the %d of its %d points ours has "
          "too (relative error %.2g)" % (len(pairs), ref.GetNumberOfPoints(), rel))


def two_pieces(n):
    """The wavelet's tetrahedra in two pieces (x <= 0, x >= 0) appended with
    their own points: the points at x = 0 twice."""
    halves = []
    for lo, hi in ((-n, 0), (0, n)):
        voi = vtkExtractVOI()
        voi.SetInputData(wavelet(n))
        voi.SetVOI(lo, hi, -n, n, -n, n)
        voi.Update()
        halves.append(split_image(voi.GetOutput()))
    app = vtkAppendFilter()
    for h in halves:
        app.AddInputData(h)
    app.MergePointsOff()
    app.Update()
    return app.GetOutput()


def test_locator():
    """Locator: none, edges merged (a seam's points twice); vtkMergePoints,
    vtkContourGrid's surface (coincident points merged); a
    vtkNonMergingPointLocator, three points per triangle, as
    vtkContourGrid's with it."""
    mesh = two_pieces(6)
    ref = contour_grid(mesh, [150.0, 200.0], "RTData")
    plain = adaptive(mesh, [150.0, 200.0], "RTData")
    check(plain.GetNumberOfCells() == ref.GetNumberOfCells() and
          plain.GetNumberOfPoints() > ref.GetNumberOfPoints(),
          "two pieces, no locator: %d points (merged by edge), vtkContourGrid %d"
          % (plain.GetNumberOfPoints(), ref.GetNumberOfPoints()))
    compare("two pieces, vtkMergePoints", with_props(mesh, [150.0, 200.0], "RTData",
                                                     Locator=vtkMergePoints()), ref)
    # Tolerance 0: the filter's own exact merge; 1e-9: through the locator.
    for tol in (0.0, 1e-9):
        loc = vtkIncrementalOctreePointLocator()
        loc.SetTolerance(tol)
        octree = with_props(mesh, [150.0, 200.0], "RTData", Locator=loc)
        check(octree.GetNumberOfPoints() == ref.GetNumberOfPoints() and
              np.array_equal(np.unique(triangles(octree)), np.arange(ref.GetNumberOfPoints())),
              "two pieces, vtkIncrementalOctreePointLocator (tolerance %g): %d points, every one "
              "used, vtkContourGrid %d" % (tol, octree.GetNumberOfPoints(),
                                           ref.GetNumberOfPoints()))
    g = vtkContourGrid()
    g.SetInputData(mesh)
    g.SetValue(0, 150.0)
    g.SetLocator(vtkNonMergingPointLocator())
    g.Update()
    loose = with_props(mesh, [150.0], "RTData", Locator=vtkNonMergingPointLocator())
    t = triangles(loose)
    xo = ns.vtk_to_numpy(loose.GetPoints().GetData()).astype(np.float64)
    xp = ns.vtk_to_numpy(plain.GetPoints().GetData()).astype(np.float64)
    tp = triangles(adaptive(mesh, [150.0], "RTData"))
    check(loose.GetNumberOfPoints() == 3 * loose.GetNumberOfCells() ==
          g.GetOutput().GetNumberOfPoints() and np.array_equal(t.reshape(-1), np.arange(t.size)) and
          np.array_equal(xo[t], xp[tp]) and
          loose.GetPointData().GetArray("RTData").GetNumberOfTuples() == t.size,
          "vtkNonMergingPointLocator: %d points for %d triangles (vtkContourGrid's %d), each "
          "triangle's corners where they were" % (loose.GetNumberOfPoints(),
                                                   loose.GetNumberOfCells(),
                                                   g.GetOutput().GetNumberOfPoints()))


class Errors:
    """The messages of a filter's error events (observed: not printed)."""

    def __init__(self, f):
        self.messages = []
        f.AddObserver("ErrorEvent", self)

    def __call__(self, obj, event):
        self.messages.append(event)


def expect_error(name, data, array=None, words=()):
    """The filter on data reports one error naming words, and its output is
    empty; without words, no error (empty input, as vtkContourGrid)."""
    f = vtkAdaptiveContourFilter()
    f.SetInputData(data)
    if array is not None:
        f.SetInputArrayToProcess(0, 0, 0, POINTS, array)
    f.SetValue(0, 0.5)
    log = vtkStringOutputWindow()
    vtkOutputWindow.SetInstance(log)
    f.Update()
    vtkOutputWindow.SetInstance(None)
    text = log.GetOutput()
    out = f.GetOutput()
    check(out.GetNumberOfCells() == 0 and out.GetNumberOfPoints() == 0,
          "%s: an empty output" % name)
    if words:
        check(all(w in text for w in words), "%s: the error names %s: %s"
              % (name, ", ".join(words), text.strip().splitlines()[-1:] if text else "none"))
    else:
        check("ERROR" not in text, "%s: no error" % name)


def test_errors():
    empty = vtkUnstructuredGrid()
    empty.SetPoints(vtkPoints())
    expect_error("empty input", empty)
    grid = mixed_grid()
    noscal = vtkUnstructuredGrid()
    noscal.ShallowCopy(grid)
    noscal.GetPointData().Initialize()
    expect_error("no scalars", noscal, words=("no scalars",))
    expect_error("a wrong array name", grid, "nonexistent", words=("nonexistent",))
    for ctype, npts, what in ((VTK_TRIANGLE, 3, "triangle"), (VTK_QUADRATIC_TETRA, 10, "quadratic")):
        bad = vtkUnstructuredGrid()
        pts = vtkPoints()
        for i in range(npts):
            pts.InsertNextPoint(i % 2, (i // 2) % 2, i // 4)
        bad.SetPoints(pts)
        bad.InsertNextCell(ctype, npts, list(range(npts)))
        s = ns.numpy_to_vtk(np.linspace(0.0, 1.0, npts), deep=1)
        s.SetName("s")
        bad.GetPointData().SetScalars(s)
        expect_error("a %s cell" % what, bad, words=("cell",))


def test_example(example, tmp):
    out = os.path.join(tmp, "example.vtp")
    res = subprocess.run([sys.executable, example, out], capture_output=True, text=True)
    check(res.returncode == 0 and "triangles" in res.stdout,
          "the docs' example runs: " + (res.stdout + res.stderr).strip())
    r = vtkXMLPolyDataReader()
    r.SetFileName(out)
    r.Update()
    pd = r.GetOutput()
    check(pd.GetNumberOfCells() > 0 and pd.GetPointData().GetArray("height") is not None and
          pd.GetPointData().GetArray("Normals") is not None,
          "the example's file: %d triangles with height and Normals" % pd.GetNumberOfCells())


def doc_block(text, opening):
    """The fenced block of text that opens with the line `opening`."""
    start = text.index(opening + "\n") + len(opening) + 1
    return text[start:text.index("```\n", start)]


def test_docs(example):
    """docs/isosurface.md shows the examples the tests run, as they are."""
    with open(os.path.join(HERE, "..", "..", "docs", "isosurface.md")) as f:
        doc = f.read()
    with open(example) as f:
        check(doc_block(doc, "```python") == f.read(),
              "docs/isosurface.md's Python example is " + os.path.basename(example))
    with open(os.path.splitext(example)[0] + ".cpp") as f:
        check(doc_block(doc, '```cpp example=vtk-filter with=vtk-filter expect="contour:"') ==
              f.read(), "docs/isosurface.md's C++ example is contour.cpp")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    vtkLogger.SetStderrVerbosity(vtkLogger.VERBOSITY_OFF)  # the errors expected: checked below
    with tempfile.TemporaryDirectory() as tmp:
        test_image()
        test_mixed()
        test_precision_triangles()
        test_gradients()
        test_locator()
        test_cgal(tmp)
        test_errors()
        test_example(sys.argv[1], tmp)
        test_docs(sys.argv[1])
    print("test_vtk_filter.py: %d failed" % len(failures))
    return min(len(failures), 100)


if __name__ == "__main__":
    sys.exit(main())
