#!/usr/bin/python3
"""vtkAdaptiveContourFilter in a Python pipeline (docs/isosurface.md, "The
VTK filter"): three isosurfaces of VTK's wavelet source, coloured by a second
field, written to a .vtp file.

    /usr/bin/python3 contour.py [OUT.vtp]

Needs Debian's python3-vtk9 and adapt_vtk (`make install`, or PYTHONPATH set
to build/release/apps/isosurface/vtk/lib/python3/dist-packages).
"""
import sys

from vtkmodules.vtkFiltersCore import vtkArrayCalculator
from vtkmodules.vtkImagingCore import vtkRTAnalyticSource
from vtkmodules.vtkIOXML import vtkXMLPolyDataWriter

from adapt_vtk import vtkAdaptiveContourFilter

out = sys.argv[1] if len(sys.argv) > 1 else "contour.vtp"

# A 41^3 image with the point scalars RTData (the wavelet) and a second
# point array, "height", to carry onto the surface.
wavelet = vtkRTAnalyticSource()
wavelet.SetWholeExtent(-20, 20, -20, 20, -20, 20)
height = vtkArrayCalculator()
height.SetInputConnection(wavelet.GetOutputPort())
height.AddCoordinateScalarVariable("z", 2)
height.SetFunction("z * z")
height.SetResultArrayName("height")

# In place of vtkContourGrid / vtkContourFilter: every point array is
# interpolated onto the surface, as vtkContourGrid does.
contour = vtkAdaptiveContourFilter()
contour.SetInputConnection(height.GetOutputPort())
contour.SetInputArrayToProcess(0, 0, 0, 0, "RTData")  # 0, 0, 0, points, name
contour.GenerateValues(3, 120.0, 220.0)  # 120, 170, 220
contour.ComputeNormalsOn()
contour.SetNumberOfWorkers(2)  # 0 (default): ADAPT_WORKERS, else one per core

writer = vtkXMLPolyDataWriter()
writer.SetInputConnection(contour.GetOutputPort())
writer.SetFileName(out)
if not writer.Write():
    sys.exit("contour.py: cannot write " + out)

surface = contour.GetOutput()
names = [surface.GetPointData().GetArrayName(i)
         for i in range(surface.GetPointData().GetNumberOfArrays())]
print("contour.py: %d triangles, %d points, point arrays %s -> %s"
      % (surface.GetNumberOfCells(), surface.GetNumberOfPoints(), ", ".join(names), out))
