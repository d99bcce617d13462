# One rank of `make bench-paraview` (apps/isosurface/tools/pv_bench.sh,
# docs/benchmarks-mpi.md, "Inside pvbatch"), run by every rank of
#   mpirun -np R pvbatch --symmetric pv_bench.py PLUGIN IN.pvtu ARRAY ISO FILTER REPS
# FILTER: Contour (ParaView's) or AdaptiveContour (the plugin, defaults).
# Each rank reads its share of the pieces, contours it REPS times (the
# filter re-executed: its isovalue nudged by 1e-12 between runs) and
# prints one line: the read's wall and CPU seconds, the contour's (median
# of the runs; CPU: the process's, all its threads), its peak RSS before
# and after the contours (KiB), its triangle count.
import resource
import statistics
import sys
import time

from paraview.modules.vtkRemotingCore import vtkProcessModule
from paraview.simple import Contour, LoadPlugin, XMLPartitionedUnstructuredGridReader

if len(sys.argv) != 7 or sys.argv[5] not in ("Contour", "AdaptiveContour"):
    sys.exit("usage: pv_bench.py PLUGIN IN.pvtu ARRAY ISO Contour|AdaptiveContour REPS")
plugin, src, array, iso, which, reps = sys.argv[1:]
iso, reps = float(iso), int(reps)
LoadPlugin(plugin, ns=globals())
pm = vtkProcessModule.GetProcessModule()
rank, size = pm.GetPartitionId(), pm.GetNumberOfLocalPartitions()
t0, c0 = time.perf_counter(), time.process_time()
reader = XMLPartitionedUnstructuredGridReader(FileName=[src])
reader.PointArrayStatus = [array]
reader.UpdatePipeline()
t_read, c_read = time.perf_counter() - t0, time.process_time() - c0
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
make = Contour if which == "Contour" else AdaptiveContour  # noqa: F821
f = make(Input=reader, ContourBy=["POINTS", array], Isosurfaces=[iso])
f.ComputeScalars = 0
f.ComputeNormals = 0
walls, cpus = [], []
for i in range(reps):
    f.Isosurfaces = [iso + 1e-12 * i]
    t0, c0 = time.perf_counter(), time.process_time()
    f.UpdatePipeline()
    walls.append(time.perf_counter() - t0)
    cpus.append(time.process_time() - c0)
cells = f.GetDataInformation().GetNumberOfCells()
print("pv_bench %s rank %d of %d: read %.6f cpu %.6f contour %.6f cpu %.6f rss0 %d rss %d "
      "triangles %d" % (which, rank, size, t_read, c_read, statistics.median(walls),
                        statistics.median(cpus), rss0,
                        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, cells), flush=True)
