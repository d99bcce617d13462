# ParaView's own distributed contour, the peer of `make bench-mpi`
# (apps/isosurface/tools/dist_bench.sh), run by every rank of
#   mpirun -np R pvbatch --symmetric dist_bench_pv.py IN.pvtu ARRAY ISO OUT.pvtp
# Each rank reads its share of the pieces (XMLPartitionedUnstructuredGridReader,
# i.e. vtkXMLPUnstructuredGridReader), contours it (Contour, i.e.
# vtkPVContourFilter) and writes its piece of OUT.pvtp (SaveData), then
# prints one line: per phase its wall and CPU (the process's) seconds, its
# peak RSS before and after (KiB) and its triangle count.
#   pvbatch dist_bench_pv.py --open SURFACE.pvtp
# opens a .pvtp (ours) with ParaView's reader and prints its cell count.
import resource
import sys
import time

from paraview.modules.vtkRemotingCore import vtkProcessModule
from paraview.simple import (Contour, SaveData, XMLPartitionedPolydataReader,
                             XMLPartitionedUnstructuredGridReader)

if len(sys.argv) == 3 and sys.argv[1] == "--open":
    surface = XMLPartitionedPolydataReader(FileName=[sys.argv[2]])
    surface.UpdatePipeline()
    info = surface.GetDataInformation()
    print("pvbatch opened %s: %d cells, %d points"
          % (sys.argv[2], info.GetNumberOfCells(), info.GetNumberOfPoints()), flush=True)
    sys.exit(0)
if len(sys.argv) != 5:
    sys.exit("usage: dist_bench_pv.py IN.pvtu ARRAY ISO OUT.pvtp | --open SURFACE.pvtp")
src, array, iso, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
pm = vtkProcessModule.GetProcessModule()
rank, size = pm.GetPartitionId(), pm.GetNumberOfLocalPartitions()
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0, c0 = time.perf_counter(), time.process_time()
reader = XMLPartitionedUnstructuredGridReader(FileName=[src])
reader.PointArrayStatus = [array]
reader.UpdatePipeline()
t1, c1 = time.perf_counter(), time.process_time()
contour = Contour(Input=reader, ContourBy=["POINTS", array], Isosurfaces=[iso])
contour.ComputeScalars = 0
contour.ComputeNormals = 0
contour.UpdatePipeline()
t2, c2 = time.perf_counter(), time.process_time()
SaveData(out, proxy=contour)
t3, c3 = time.perf_counter(), time.process_time()
cells = contour.GetDataInformation().GetNumberOfCells()
print("pvbatch rank %d of %d: read %.6f contour %.6f write %.6f rss0 %d rss %d triangles %d "
      "cpu %.6f %.6f %.6f"
      % (rank, size, t1 - t0, t2 - t1, t3 - t2, rss0,
         resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, cells, c1 - c0, c2 - c1, c3 - c2),
      flush=True)
