"""adapt_vtk: the VTK filter vtkAdaptiveContourFilter for Python.

    from adapt_vtk import vtkAdaptiveContourFilter

Isosurfaces of linear 3D cells (vtkUnstructuredGrid, vtkImageData,
vtkRectilinearGrid, vtkStructuredGrid, composites of them) on libadapt's
adaptive runtime; a drop-in for vtkContourGrid in a pipeline (see
docs/isosurface.md, "The VTK filter").

The wrapped module (adaptVtkContour, built by vtk_module_wrap_python) needs
the Python classes of the VTK modules it uses: they are imported first, from
Debian's python3-vtk9 (vtkmodules).
"""

import vtkmodules.vtkCommonCore  # noqa: F401  (vtkObject)
import vtkmodules.vtkCommonDataModel  # noqa: F401  (vtkPolyData, the inputs)
import vtkmodules.vtkCommonExecutionModel  # noqa: F401  (vtkPolyDataAlgorithm)

from .adaptVtkContour import vtkAdaptiveContourFilter

__all__ = ["vtkAdaptiveContourFilter"]
