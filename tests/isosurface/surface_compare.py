"""The comparison of two contour surfaces (vtkPolyData of triangles), shared
by the tests of the VTK filter (test_vtk_filter.py, /usr/bin/python3 and
Debian's VTK) and of the ParaView plugin (test_paraview_plugin.py, pvbatch
and ParaView's VTK): check() records each check, failures lists the failed
ones; compare() checks a surface against a reference contour's.
"""
import numpy as np
from vtkmodules.util import numpy_support as ns

failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)
    return ok


# ---- the surfaces as numpy arrays -------------------------------------------

def triangles(pd):
    polys = pd.GetPolys()
    if polys.GetNumberOfCells() == 0:
        return np.zeros((0, 3), dtype=np.int64)
    off = ns.vtk_to_numpy(polys.GetOffsetsArray())
    assert np.all(np.diff(off) == 3), "a cell that is not a triangle"
    return ns.vtk_to_numpy(polys.GetConnectivityArray()).astype(np.int64).reshape(-1, 3)


def point_map(name, ours, ref, used, ref_name):
    """ref point id -> ours, matching coordinates (quantized to 1e-9 of the
    bounding box): None if the used points differ."""
    xo = ns.vtk_to_numpy(ours.GetPoints().GetData()).astype(np.float64)
    xr = ns.vtk_to_numpy(ref.GetPoints().GetData()).astype(np.float64)
    q = max(1e-300, 1e-9 * np.linalg.norm(xr[used].max(0) - xr[used].min(0)))
    ko = {tuple(k): i for i, k in enumerate(np.rint(xo / q).astype(np.int64))}
    kr = np.rint(xr / q).astype(np.int64)
    m = np.full(len(xr), -1, dtype=np.int64)
    for i in used:
        m[i] = ko.get(tuple(kr[i]), -1)
    missing = int((m[used] < 0).sum())
    return m if check(missing == 0, "%s: every point of %s's at the same place"
                      " (%d missing)" % (name, ref_name, missing)) else None


def same_array(name, what, a, b):
    return (check(a is not None and b is not None, "%s: %s present in both" % (name, what)) and
            check(a.GetDataType() == b.GetDataType() and
                  a.GetNumberOfComponents() == b.GetNumberOfComponents(),
                  "%s: %s of the same type and components" % (name, what)))


def values(a, rows):
    return ns.vtk_to_numpy(a).astype(np.float64).reshape(a.GetNumberOfTuples(), -1)[rows]


def by_cell_value(a, areas):
    """Triangle count and area per distinct tuple of the cell array a: the
    rows sorted, each run of equal rows a group (its areas summed in
    triangle order: bincount adds its weights in order)."""
    v = values(a, slice(None))
    order = np.lexsort(v.T[::-1])
    s = v[order]
    start = np.ones(len(s), dtype=bool)
    start[1:] = np.any(s[1:] != s[:-1], axis=1)
    group = np.empty(len(v), dtype=np.int64)
    group[order] = np.cumsum(start) - 1
    keys = s[start]
    counts = np.bincount(group, minlength=len(keys))
    sums = np.bincount(group, weights=areas, minlength=len(keys))
    return {tuple(k): (int(n), x) for k, n, x in zip(keys, counts, sums)}


def rotated(t):
    """Triangles t (n x 3) each rotated so that its smallest id comes first
    (winding kept), sorted by rows."""
    r = np.argmin(t, axis=1)
    idx = (r[:, None] + np.arange(3)[None, :]) % 3
    u = np.take_along_axis(t, idx, axis=1)
    return u[np.lexsort(u.T[::-1])]


def count_in(a, b):
    """Rows of a (n x 3) found in b."""
    have = set(map(tuple, b))
    return sum(tuple(r) in have for r in a)


def compare(name, ours, ref, ref_name="vtkContourGrid", skip=(), winding=True):
    """ours (the filter's vtkPolyData) against ref (ref_name's): the
    triangle and merged point counts, the points (as a set), every point
    array at them, the area, per tuple of each cell array the count and
    area of its triangles, and unless winding is False the triangles
    themselves with their winding (the same triangles wound alike: on
    tetrahedra of positive determinant, with their vertices in the same
    order). The point arrays named in skip are not compared."""
    to, tr = triangles(ours), triangles(ref)
    used = np.unique(tr)
    if not check(len(to) == len(tr) and ours.GetNumberOfPoints() == len(used),
                 "%s: %d triangles %d points, %s %d triangles %d points"
                 % (name, len(to), ours.GetNumberOfPoints(), ref_name, len(tr), len(used))):
        return
    if len(tr) == 0:
        return
    m = point_map(name, ours, ref, used, ref_name)
    if m is None:
        return
    check(len(np.unique(m[used])) == len(used) and np.all(to[:, 0] != to[:, 1]) and
          np.all(to[:, 1] != to[:, 2]) and np.all(to[:, 0] != to[:, 2]),
          "%s: points distinct, triangles of 3 distinct points" % name)
    xo = ns.vtk_to_numpy(ours.GetPoints().GetData()).astype(np.float64)
    xr = ns.vtk_to_numpy(ref.GetPoints().GetData()).astype(np.float64)
    a, b = xo[to], xr[tr]
    ao = 0.5 * np.linalg.norm(np.cross(a[:, 1] - a[:, 0], a[:, 2] - a[:, 0]), axis=1)
    ar = 0.5 * np.linalg.norm(np.cross(b[:, 1] - b[:, 0], b[:, 2] - b[:, 0]), axis=1)
    check(abs(ao.sum() - ar.sum()) <= 1e-9 * ar.sum(), "%s: area %.12g, %s %.12g"
          % (name, ao.sum(), ref_name, ar.sum()))
    wo, wr = rotated(to), rotated(m[tr])
    flipped = rotated(m[tr][:, [0, 2, 1]])
    same = np.array_equal(wo, wr)
    check(same or not winding, "%s: every triangle is %s's, wound alike (%d of %d; %d reversed)"
          % (name, ref_name, len(tr) if same else count_in(wr, wo), len(tr), count_in(flipped, wo)))
    pd, rpd = ours.GetPointData(), ref.GetPointData()
    for i in range(rpd.GetNumberOfArrays()):
        ra = rpd.GetArray(i)
        if ra.GetName() in skip:
            continue
        oa = pd.GetArray(ra.GetName())
        what = "point array %s" % ra.GetName()
        if same_array(name, what, oa, ra):
            vo, vr = values(oa, m[used]), values(ra, used)
            err = (np.abs(vo - vr) / np.maximum(1.0, np.abs(vr))).max()
            check(err <= 1e-6, "%s: %s within 1e-6 (max %.2g)" % (name, what, err))
    cd, rcd = ours.GetCellData(), ref.GetCellData()
    for i in range(rcd.GetNumberOfArrays()):
        ra = rcd.GetArray(i)
        oa = cd.GetArray(ra.GetName())
        what = "cell array %s" % ra.GetName()
        if same_array(name, what, oa, ra):
            go, gr = by_cell_value(oa, ao), by_cell_value(ra, ar)
            bad = [k for k in gr if k not in go or go[k][0] != gr[k][0] or
                   abs(go[k][1] - gr[k][1]) > 1e-9 * max(gr[k][1], 1e-300)]
            check(not bad and len(go) == len(gr), "%s: %s: per value, the same triangle count "
                  "and area (%d values, %d differ)" % (name, what, len(gr), len(bad)))


