"""The ParaView plugin AdaptiveContour against ParaView's own Contour, in
pvbatch (tests/isosurface/test_paraview_plugin.sh runs it):

    pvbatch test_paraview_plugin.py PLUGIN DIR            (serial; writes DIR's meshes)
    mpirun -np 2 pvbatch --symmetric test_paraview_plugin.py PLUGIN DIR --mpi
    python3 test_paraview_plugin.py PLUGIN DIR --server PORT [--server-ranks N]
                                      (a client of pvserver, N ranks: mpirun -np N pvserver)
    paraview --server-url=cs://localhost:PORT --script=S --exit
                                      (S runs this with PLUGIN DIR --gui, in the GUI)

LoadPlugin(PLUGIN, ns=globals()) gives AdaptiveContour. Meshes (written by
the serial run with ParaView's VTK): the wavelet (vtkRTAnalyticSource,
20^3 voxels) with a second point array, a 3-component one and a cell
array, split into tetrahedra (vtkDataSetTriangleFilter), as DIR/mesh.vtu
and as DIR/mesh.pvtu in 3 pieces (GlobalPointIds on its points, the
seams' points in each piece with the same ids, as a partitioner writes
them). Serial: both files, one and four
isovalues, contoured by RTData and by the second array; each surface
compared with Contour's on the same reader (surface_compare.compare: the
triangle and merged point counts, the points, every interpolated point
array within 1e-6, the area; normals off; on the .pvtu too, whose pieces'
seams are merged as Contour merges them), then with normals on (ours of
unit length, along Contour's up to orientation), ComputeScalars off (no
scalars array), on the .vtu Contour's other properties
(check_contour_properties), and the errors: a file that is not VTK XML
(OpenDataFile's usual error; read by XMLUnstructuredGridReader: the
reader's error, an empty surface, no crash), an array that does not exist.
Under mpirun (--mpi): each rank compares its own piece's surfaces, and the
triangle counts summed over the ranks equal the serial run's. Serial and
under mpirun: GenerateGlobalIds after ours (and after Contour) numbers as
many points as the serial surface has (check_global_ids), and on the
.pvtu ours is Contour's followed by Clean (check_shared_points). After the
serial run, a client of pvserver (--server: the plugin loaded on both
sides by LoadPlugin, the server's surfaces fetched) and the GUI as a
client of pvserver (--gui: the plugin loaded on both sides at their start
by PV_PLUGIN_PATH) compare ours with Contour's on both files. Each rank
ends with the line "test_paraview_plugin.py (rank R of N): F failed", on
stdout when serial (its exit status is F, at most 100), in DIR/rank_R.log
under mpirun.
"""
import os
import sys

import numpy as np
from paraview.modules.vtkRemotingCore import vtkProcessModule
from paraview import servermanager, simple
from paraview.simple import (Clean, Connect, Contour, Disconnect, GenerateGlobalIds, LoadPlugin,
                             OpenDataFile, XMLUnstructuredGridReader)
from vtkmodules.util import numpy_support as ns
from vtkmodules.vtkCommonCore import vtkOutputWindow, vtkStringOutputWindow
from vtkmodules.vtkFiltersCore import vtkArrayCalculator, vtkCleanPolyData, vtkPointDataToCellData
from vtkmodules.vtkFiltersGeneral import vtkDataSetTriangleFilter
from vtkmodules.vtkFiltersProgrammable import vtkProgrammableFilter
from vtkmodules.vtkImagingCore import vtkRTAnalyticSource
from vtkmodules.vtkIOParallelXML import vtkXMLPUnstructuredGridWriter
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridWriter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from surface_compare import check, compare, failures, triangles  # noqa: E402

PLUGIN, DIR = sys.argv[1], sys.argv[2]
MPI = "--mpi" in sys.argv[3:]
# --server PORT [--server-ranks N]: a client of the pvserver (of N ranks,
# default 1) on localhost:PORT. --gui --server PORT: in the GUI
# (paraview --script=...), first in its built-in session, then connected
# by Connect to the pvserver, the plugin loaded on both sides at their
# start (PV_PLUGIN_PATH). A client loads the plugin on both sides, as the
# GUI's Tools > Manage Plugins does (LoadPlugin, then with remote=True).
SERVER = int(sys.argv[sys.argv.index("--server") + 1]) if "--server" in sys.argv[3:] else None
SERVER_RANKS = (int(sys.argv[sys.argv.index("--server-ranks") + 1])
                if "--server-ranks" in sys.argv[3:] else 1)
GUI = "--gui" in sys.argv[3:]
if SERVER is not None and not GUI:
    Connect("localhost", SERVER)
AUTOLOADED = hasattr(simple, "AdaptiveContour")
REMOTE = servermanager.ActiveConnection.IsRemote()
if AUTOLOADED:  # loading it again would fail on a server that has it
    AdaptiveContour = simple.AdaptiveContour
else:
    if REMOTE:
        LoadPlugin(PLUGIN, remote=False, ns=globals())
    LoadPlugin(PLUGIN, remote=REMOTE, ns=globals())
pm = vtkProcessModule.GetProcessModule()
RANK, SIZE = pm.GetPartitionId(), pm.GetNumberOfLocalPartitions()
if MPI:  # one file per rank: the ranks' lines would interleave on one pipe
    sys.stdout = open(os.path.join(DIR, "rank_%d.log" % RANK), "w", buffering=1)
VALUE_SETS = ([150.0], [90.0, 140.0, 190.0, 240.0])
SECOND_VALUES = [0.5]


def calculator(upstream, coords, function, name):
    """A vtkArrayCalculator after upstream: the point array `name` of
    function, over the coordinates coords ({variable: axis}) and s (RTData)."""
    calc = vtkArrayCalculator()
    calc.SetInputConnection(upstream.GetOutputPort())
    for var, axis in coords.items():
        calc.AddCoordinateScalarVariable(var, axis)
    calc.AddScalarVariable("s", "RTData")
    calc.SetFunction(function)
    calc.SetResultArrayName(name)
    return calc


def add_global_point_ids(prog):
    """prog's output: its input with the point array GlobalPointIds (the
    active global ids), the index of each point in the wavelet's 21^3 grid:
    the ids a partitioner writes, a seam's point one id in every piece."""
    inp, out = prog.GetInput(), prog.GetOutput()
    out.ShallowCopy(inp)
    x = np.rint(ns.vtk_to_numpy(inp.GetPoints().GetData()) + 10).astype(np.int64)
    ids = ns.numpy_to_vtkIdTypeArray(x[:, 0] + 21 * x[:, 1] + 441 * x[:, 2], deep=1)
    ids.SetName("GlobalPointIds")
    out.GetPointData().SetGlobalIds(ids)


def make_meshes():
    """DIR/mesh.vtu and DIR/mesh.pvtu (3 pieces, with GlobalPointIds) of
    the wavelet's tetrahedra."""
    src = vtkRTAnalyticSource()
    src.SetWholeExtent(-10, 10, -10, 10, -10, 10)
    second = calculator(src, {"x": 0, "y": 1}, "0.01 * x * y + s / 250", "second")
    vec = calculator(second, {"z": 2}, "z * iHat + s * jHat + (z * z) * kHat", "vec")
    cells = vtkPointDataToCellData()
    cells.SetInputConnection(vec.GetOutputPort())
    cells.PassPointDataOn()
    tets = vtkDataSetTriangleFilter()
    tets.SetInputConnection(cells.GetOutputPort())
    w = vtkXMLUnstructuredGridWriter()
    w.SetInputConnection(tets.GetOutputPort())
    w.SetFileName(os.path.join(DIR, "mesh.vtu"))
    w.Write()
    gids = vtkProgrammableFilter()
    gids.SetInputConnection(tets.GetOutputPort())
    gids.SetExecuteMethod(lambda: add_global_point_ids(gids))
    p = vtkXMLPUnstructuredGridWriter()
    p.SetInputConnection(gids.GetOutputPort())
    p.SetFileName(os.path.join(DIR, "mesh.pvtu"))
    p.SetNumberOfPieces(3)
    p.SetStartPiece(0)
    p.SetEndPiece(2)
    p.Write()
    with open(os.path.join(DIR, "bad.vtu"), "w") as f:
        f.write("this is not a VTK XML file\n")


def local(proxy):
    """This rank's output of proxy (its piece under mpirun; the server's,
    fetched, in a client: the server's ranks' outputs appended, a vertex on
    the seam of two ranks' pieces once per rank, so merged by coordinates
    here, by vtkCleanPolyData, when the server has several)."""
    if REMOTE:
        out = servermanager.Fetch(proxy)
        if SERVER_RANKS == 1 or not out.IsA("vtkPolyData"):
            return out
        clean = vtkCleanPolyData()
        clean.SetInputData(out)
        clean.SetTolerance(0.0)
        clean.Update()
        return clean.GetOutput()
    proxy.UpdatePipeline()
    return proxy.GetClientSideObject().GetOutputDataObject(0)


def pair(reader, array, values, **props):
    """(ours, Contour's) surfaces of reader's local piece, each made by the
    same call but for its first word. A .pvtu's pieces keep their own
    points, a seam's twice: both merge them by coordinates (the point
    locator of PointMergeMethod, by default Uniform Binning)."""
    ours = AdaptiveContour(Input=reader, ContourBy=["POINTS", array],  # noqa: F821
                           Isosurfaces=values, **props)
    ref = local(Contour(Input=reader, ContourBy=["POINTS", array], Isosurfaces=values, **props))
    return local(ours), ref


def check_contour_properties(tag, reader, tris):
    """Contour's other properties, set by the same call on both:
    OutputPointsPrecision (the input's points are float: Same as input is
    the comparisons above), GenerateTriangles (tris: the triangles with it
    on), ComputeGradients (Contour computes none on tetrahedra, ours
    interpolates the point gradients), PointMergeMethod."""
    for prec, vtk_type in (("Double", 11), ("Single", 10)):
        ours, ref = pair(reader, "RTData", VALUE_SETS[0], ComputeNormals=0,
                         OutputPointsPrecision=prec)
        check(ours.GetPoints() is not None and ours.GetPoints().GetDataType() == vtk_type and
              ref.GetPoints().GetDataType() == vtk_type,
              "%s: OutputPointsPrecision %s: points of type %d in both" % (tag, prec, vtk_type))
        compare("%s OutputPointsPrecision %s" % (tag, prec), ours, ref, "Contour")
    ours, ref = pair(reader, "RTData", VALUE_SETS[0], ComputeNormals=0, GenerateTriangles=0)
    check(ours.GetNumberOfCells() == tris and ref.GetNumberOfCells() < tris,
          "%s: GenerateTriangles off: our %d triangles (Contour: %d cells, some quadrilaterals)"
          % (tag, ours.GetNumberOfCells(), ref.GetNumberOfCells()))
    ours, ref = pair(reader, "RTData", VALUE_SETS[0], ComputeNormals=0, ComputeGradients=1)
    compare("%s ComputeGradients on" % tag, ours, ref, "Contour")
    g = ours.GetPointData().GetArray("Gradients")
    check(g is not None and g.GetNumberOfComponents() == 3 and
          g.GetNumberOfTuples() == ours.GetNumberOfPoints() and
          ref.GetPointData().GetArray("Gradients") is None,
          "%s: ComputeGradients on: our Gradients, 3 components per point (Contour: none on "
          "tetrahedra)" % tag)
    ours, ref = pair(reader, "RTData", VALUE_SETS[1], ComputeNormals=0,
                     PointMergeMethod="Don't Merge Points")
    check(ours.GetNumberOfPoints() == ref.GetNumberOfPoints() == 3 * ref.GetNumberOfCells() and
          ours.GetNumberOfCells() == ref.GetNumberOfCells(),
          "%s: PointMergeMethod Don't Merge Points: %d points for %d triangles, Contour %d for %d"
          % (tag, ours.GetNumberOfPoints(), ours.GetNumberOfCells(), ref.GetNumberOfPoints(),
             ref.GetNumberOfCells()))
    ours, ref = pair(reader, "RTData", VALUE_SETS[1], ComputeNormals=0,
                     PointMergeMethod="Octree Binning")
    compare("%s PointMergeMethod Octree Binning" % tag, ours, ref, "Contour")


def global_point_ids(proxy, comm):
    """GenerateGlobalIds after proxy: (the local points, the local distinct
    ids, the ids over all ranks: the largest plus one)."""
    out = local(GenerateGlobalIds(Input=proxy, Tolerance=0.0))
    ids = out.GetPointData().GetGlobalIds()
    mine = ns.vtk_to_numpy(ids).astype(np.int64) if ids is not None else np.zeros(0, np.int64)
    from vtkmodules.vtkCommonCore import vtkIdTypeArray
    a, b = vtkIdTypeArray(), vtkIdTypeArray()
    a.InsertNextValue(int(mine.max()) + 1 if len(mine) else 0)
    b.SetNumberOfValues(1)
    comm.AllReduce(a, b, 0)  # vtkCommunicator::MAX_OP
    return out.GetNumberOfPoints(), len(np.unique(mine)), b.GetValue(0)


def check_surfaces(tag, reader):
    """The comparisons of one file; returns the triangle counts."""
    counts = []
    for values in VALUE_SETS:
        ours, ref = pair(reader, "RTData", values, ComputeNormals=0)
        name = "%s RTData at %s" % (tag, values)
        check(ref.GetNumberOfCells() > 0 or MPI, "%s: Contour's surface not empty" % name)
        compare(name, ours, ref, "Contour")
        counts.append(ours.GetNumberOfCells())
    ours, ref = pair(reader, "second", SECOND_VALUES, ComputeNormals=0)
    compare("%s second at %s" % (tag, SECOND_VALUES), ours, ref, "Contour")
    counts.append(ours.GetNumberOfCells())
    # Normals: ours the normalised sum of the triangles' unit normals,
    # Contour's its own estimate: the same direction up to orientation.
    ours, ref = pair(reader, "RTData", VALUE_SETS[0], ComputeNormals=1)
    compare("%s RTData at %s, normals on" % (tag, VALUE_SETS[0]), ours, ref, "Contour",
            skip=("Normals",))
    no, nr = ours.GetPointData().GetArray("Normals"), ref.GetPointData().GetArray("Normals")
    if check(no is not None and nr is not None, "%s: Normals in both" % tag) and len(triangles(ours)):
        a = ns.vtk_to_numpy(no).astype(np.float64)
        check(np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5),
              "%s: our normals of unit length" % tag)
        xo = ns.vtk_to_numpy(ours.GetPoints().GetData()).astype(np.float64)
        xr = ns.vtk_to_numpy(ref.GetPoints().GetData()).astype(np.float64)
        order_o, order_r = np.lexsort(xo.T[::-1]), np.lexsort(xr.T[::-1])
        b = ns.vtk_to_numpy(nr).astype(np.float64)
        dots = np.abs(np.sum(a[order_o] * b[order_r], axis=1))
        check(np.median(dots) > 0.99, "%s: our normals along Contour's (median |cos| %.4f)"
              % (tag, np.median(dots)))
    ours, ref = pair(reader, "RTData", VALUE_SETS[0], ComputeNormals=0, ComputeScalars=0)
    check(ours.GetPointData().GetArray("RTData") is None and
          ours.GetNumberOfCells() == ref.GetNumberOfCells(),
          "%s: ComputeScalars off: no RTData on the surface, the same triangles" % tag)
    return counts


def expect_error(name, make_reader, array, words):
    """AdaptiveContour of make_reader()'s output by array: an empty surface,
    an error naming words on VTK's output window, no crash."""
    window = vtkStringOutputWindow()
    previous = vtkOutputWindow.GetInstance()
    vtkOutputWindow.SetInstance(window)
    try:
        out = local(AdaptiveContour(Input=make_reader(),  # noqa: F821
                                    ContourBy=["POINTS", array], Isosurfaces=[150.0]))
    finally:
        vtkOutputWindow.SetInstance(previous)
    text = window.GetOutput()
    check(out.GetNumberOfCells() == 0, "%s: an empty surface" % name)
    check(all(w in text for w in words), "%s: the error names %s: %s"
          % (name, " and ".join(words), " ".join(text.split())[:200]))


def check_shared_points(reader):
    """The .pvtu's pieces share their seams' points, each piece a copy with
    the same GlobalPointIds (as a partitioner writes them). Per rank, ours
    is Contour's followed by Clean with PieceInvariant off (each rank's
    coincident points merged; the input's global ids not carried: VTK does
    not interpolate them). Clean as ParaView sets it (PieceInvariant on)
    asks its input for the whole mesh on rank 0: after ours, as after
    Contour, the serial surface there, nothing on the other ranks."""
    tag = "mesh.pvtu with GlobalPointIds (rank %d of %d)" % (RANK, SIZE)
    inp = local(reader)
    check(inp.GetPointData().GetGlobalIds() is not None, "%s: the input has global ids" % tag)
    props = dict(ContourBy=["POINTS", "RTData"], Isosurfaces=VALUE_SETS[1], ComputeNormals=0)
    ours = AdaptiveContour(Input=reader, **props)  # noqa: F821
    ref = Contour(Input=reader, **props)
    mine, theirs = local(ours), local(Clean(Input=ref, PieceInvariant=0))
    compare("%s against Contour + Clean" % tag, mine, theirs, "Contour + Clean")
    check(mine.GetPointData().GetGlobalIds() is None and
          mine.GetPointData().GetArray("GlobalPointIds") is None and
          theirs.GetPointData().GetArray("GlobalPointIds") is None,
          "%s: no GlobalPointIds on the surface, as Contour + Clean" % tag)
    mine, theirs = local(Clean(Input=ours)), local(Clean(Input=ref))
    compare("%s, Clean (PieceInvariant)" % tag, mine, theirs, "Contour + Clean")
    with open(os.path.join(DIR, "serial_points.txt")) as fh:
        serial = int(fh.read())
    check(mine.GetNumberOfPoints() == (serial if RANK == 0 else 0),
          "%s: Clean (PieceInvariant) after ours: %d points (serial surface: %d on rank 0)"
          % (tag, mine.GetNumberOfPoints(), serial))


def check_global_ids(reader):
    """A vertex on a seam is one point with one GlobalPointId: within a rank
    the surface's points are distinct (its pieces' seams merged), and
    GenerateGlobalIds (ParaView's answer for Contour too: its output has no
    GlobalPointIds) numbers the ranks' points as many as the serial run's
    merged points (DIR/serial_points.txt, written by the serial run)."""
    comm = pm.GetGlobalController()
    ours = local(AdaptiveContour(Input=reader, ContourBy=["POINTS", "RTData"],  # noqa: F821
                                 Isosurfaces=VALUE_SETS[1], ComputeNormals=0))
    path = os.path.join(DIR, "serial_points.txt")
    if not MPI:
        with open(path, "w") as fh:
            fh.write("%d\n" % ours.GetNumberOfPoints())
    with open(path) as fh:
        serial = int(fh.read())
    for name, f in (("ours", AdaptiveContour), ("Contour", Contour)):  # noqa: F821
        proxy = f(Input=reader, ContourBy=["POINTS", "RTData"], Isosurfaces=VALUE_SETS[1],
                  ComputeNormals=0)
        n, distinct, total = global_point_ids(proxy, comm)
        check(n == distinct and total == serial,
              "rank %d: GenerateGlobalIds after %s: %d points, %d distinct ids, %d ids over the "
              "ranks (serial surface: %d points)" % (RANK, name, n, distinct, total, serial))


def client_checks(where, ranks):
    """Ours against Contour on DIR/mesh.vtu and DIR/mesh.pvtu (a client:
    the server's surfaces, fetched, of its ranks); ours of the .pvtu has
    the serial run's triangles."""
    check(servermanager.ActiveConnection.IsRemote() == REMOTE and
          servermanager.ActiveConnection.GetNumberOfDataPartitions() == ranks,
          "%s: %s" % (where, "a client of a pvserver of %d ranks" % ranks if REMOTE
                      else "a built-in session"))
    with open(os.path.join(DIR, "serial_counts.txt")) as fh:
        serial = [int(v) for v in fh.read().split()]
    for f in ("mesh.vtu", "mesh.pvtu"):
        reader = OpenDataFile(os.path.join(DIR, f))
        ours, ref = pair(reader, "RTData", VALUE_SETS[1], ComputeNormals=1)
        compare("%s: %s RTData at %s" % (where, f, VALUE_SETS[1]), ours, ref, "Contour",
                skip=("Normals",))
        check(ours.GetPointData().GetArray("Normals") is not None and
              ours.GetNumberOfCells() == serial[1],
              "%s: %s: Normals, %d triangles (serial run: %d)"
              % (where, f, ours.GetNumberOfCells(), serial[1]))


def client():
    """A client of pvserver (python3 --server), or the GUI: its built-in
    session, then a client of pvserver (Connect from its Python)."""
    global AdaptiveContour, REMOTE
    if GUI:
        check(AUTOLOADED and
              vtkProcessModule.GetProcessType() == vtkProcessModule.PROCESS_CLIENT,
              "GUI: AdaptiveContour loaded at start (PV_PLUGIN_PATH) before LoadPlugin")
        client_checks("GUI, built-in", 1)
        Connect("localhost", SERVER)
        REMOTE = True
        check(hasattr(simple, "AdaptiveContour"), "GUI, pvserver: AdaptiveContour defined by "
              "the plugin the server loaded at its start (PV_PLUGIN_PATH)")
        AdaptiveContour = simple.AdaptiveContour
    client_checks("GUI, pvserver" if GUI else "pvserver of %d ranks" % SERVER_RANKS,
                  SERVER_RANKS)
    print("test_paraview_plugin.py (rank %d of %d): %d failed" % (RANK, SIZE, len(failures)))
    if SERVER is not None:
        Disconnect()
    return min(len(failures), 100)


def main():
    if SERVER is not None or GUI:
        return client()
    if not MPI:
        make_meshes()
    totals = {}
    for f in (["mesh.pvtu"] if MPI else ["mesh.vtu", "mesh.pvtu"]):
        reader = OpenDataFile(os.path.join(DIR, f))
        totals[f] = check_surfaces("%s (rank %d of %d)" % (f, RANK, SIZE), reader)
        if f == "mesh.vtu":
            check_contour_properties(f, reader, totals[f][0])
    pvtu = OpenDataFile(os.path.join(DIR, "mesh.pvtu"))
    check_global_ids(pvtu)
    check_shared_points(pvtu)
    if MPI:
        # The ranks' triangle counts add up to the serial run's.
        comm = pm.GetGlobalController()
        from vtkmodules.vtkCommonCore import vtkIdTypeArray
        mine, summed = vtkIdTypeArray(), vtkIdTypeArray()
        for c in totals["mesh.pvtu"]:
            mine.InsertNextValue(c)
        summed.SetNumberOfValues(mine.GetNumberOfValues())
        comm.AllReduce(mine, summed, 2)  # vtkCommunicator::SUM_OP
        with open(os.path.join(DIR, "serial_counts.txt")) as fh:
            serial = [int(v) for v in fh.read().split()]
        check([summed.GetValue(i) for i in range(summed.GetNumberOfValues())] == serial,
              "rank %d: triangles over the ranks %s, serial %s"
              % (RANK, [summed.GetValue(i) for i in range(summed.GetNumberOfValues())], serial))
    else:
        check(totals["mesh.vtu"] == totals["mesh.pvtu"],
              "the .vtu and the .pvtu give the same triangle counts %s" % totals["mesh.vtu"])
        with open(os.path.join(DIR, "serial_counts.txt"), "w") as fh:
            fh.write(" ".join(str(c) for c in totals["mesh.pvtu"]) + "\n")
        bad = os.path.join(DIR, "bad.vtu")
        try:
            OpenDataFile(bad)
            check(False, "OpenDataFile of a file that is not VTK XML: an error")
        except RuntimeError as e:
            check("No reader found" in str(e), "OpenDataFile of a file that is not VTK XML: "
                  "ParaView's error: %s" % e)
        expect_error("a file that is not VTK XML, read by XMLUnstructuredGridReader",
                     lambda: XMLUnstructuredGridReader(FileName=[bad]), "RTData",
                     ["Error parsing XML", "vtkXMLUnstructuredGridReader"])
        expect_error("no such array", lambda: OpenDataFile(os.path.join(DIR, "mesh.vtu")),
                     "nosuch", ["nosuch", "vtkAdaptiveContourFilter"])
    print("test_paraview_plugin.py (rank %d of %d): %d failed" % (RANK, SIZE, len(failures)))
    return min(len(failures), 100)


if __name__ == "__main__":
    try:
        rc = main()
    except Exception:  # a rank that stops must not leave the others waiting
        import traceback
        traceback.print_exc()
        sys.stdout.flush()
        os._exit(100)
    # Under mpirun pvbatch finalizes MPI after the script: no sys.exit there
    # (test_paraview_plugin.sh reads each rank's last line).
    if not MPI and not GUI:  # the GUI exits by its --exit
        sys.exit(rc)
