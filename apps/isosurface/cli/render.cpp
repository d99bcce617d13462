/* apps/isosurface/cli: isosurface rendering to PNG through VTK's OpenGL2
 * backend (GLX: run under xvfb-run on a machine without a display). */
#include "file_checks.h"
#include "vtk_bridge.h"
#include "vtk_convert.h"
#include "vtk_quiet.h"

#include <vtkAutoInit.h>
VTK_MODULE_INIT(vtkRenderingOpenGL2);
VTK_MODULE_INIT(vtkRenderingFreeType);

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCharArray.h>
#include <vtkColorTransferFunction.h>
#include <vtkDataArray.h>
#include <vtkDataSet.h>
#include <vtkImageData.h>
#include <vtkLookupTable.h>
#include <vtkNew.h>
#include <vtkPNGWriter.h>
#include <vtkPolyDataMapper.h>
#include <vtkPointData.h>
#include <vtkPolyDataNormals.h>
#include <vtkProbeFilter.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnstructuredGrid.h>
#include <vtkWindowToImageFilter.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <vector>

/* Last: Xlib defines macros (None, Status, Bool) that VTK's headers and
 * ours must not see. */
#include <X11/Xlib.h>

namespace iso {

namespace {

/* The colouring of render_png_colored: the probed array and its range. */
struct Coloring {
  std::string array;
  double lo = 0, hi = 1;
};

/* Viridis, sampled at five points. */
vtkSmartPointer<vtkLookupTable> viridis(double lo, double hi) {
  vtkNew<vtkColorTransferFunction> ctf;
  const double stops[5][4] = {{0.00, 0.267, 0.005, 0.329},
                              {0.25, 0.229, 0.322, 0.545},
                              {0.50, 0.128, 0.567, 0.551},
                              {0.75, 0.369, 0.789, 0.383},
                              {1.00, 0.993, 0.906, 0.144}};
  for (const auto &st : stops) ctf->AddRGBPoint(lo + st[0] * (hi - lo), st[1], st[2], st[3]);
  auto lut = vtkSmartPointer<vtkLookupTable>::New();
  const int n = 256;
  lut->SetNumberOfTableValues(n);
  lut->SetRange(lo, hi);
  for (int i = 0; i < n; i++) {
    double rgb[3];
    ctf->GetColor(lo + (hi - lo) * i / (n - 1), rgb);
    lut->SetTableValue(i, rgb[0], rgb[1], rgb[2], 1.0);
  }
  return lut;
}

/* Colours of the surface: by c's array through viridis, with a scalar bar,
 * else orange outside and blue inside. */
void set_colors(vtkPolyDataMapper *mapper, vtkActor *actor, vtkRenderer *ren, const Coloring *c) {
  if (!c) {
    mapper->ScalarVisibilityOff();
    actor->GetProperty()->SetColor(0.90, 0.55, 0.25);
    vtkNew<vtkProperty> back;
    back->SetColor(0.35, 0.55, 0.85);
    actor->SetBackfaceProperty(back);
    return;
  }
  const vtkSmartPointer<vtkLookupTable> lut = viridis(c->lo, c->hi);
  mapper->ScalarVisibilityOn();
  mapper->SetScalarModeToUsePointFieldData();
  mapper->SelectColorArray(c->array.c_str());
  mapper->SetLookupTable(lut);
  mapper->UseLookupTableScalarRangeOn();
  vtkNew<vtkScalarBarActor> bar;
  bar->SetLookupTable(lut);
  bar->SetTitle(c->array.c_str());
  bar->SetNumberOfLabels(5);
  bar->SetLabelFormat("%.3g");
  bar->SetWidth(0.1);
  bar->SetHeight(0.55);
  bar->SetPosition(0.86, 0.2);
  bar->GetTitleTextProperty()->SetColor(0.1, 0.1, 0.1);
  bar->GetTitleTextProperty()->SetFontSize(14);
  bar->GetTitleTextProperty()->ShadowOff();
  bar->GetLabelTextProperty()->SetColor(0.1, 0.1, 0.1);
  bar->GetLabelTextProperty()->SetFontSize(12);
  bar->GetLabelTextProperty()->ShadowOff();
  bar->UnconstrainedFontSizeOn();
  ren->AddActor2D(bar);
}

/* The background, the title at the top left, the camera: volumes (c) z up,
 * seen from -y (a CT's front), three-quarter view. */
void set_scene(vtkRenderer *ren, const std::string &title, int height, const Coloring *c) {
  ren->SetBackground(1, 1, 1);
  ren->SetBackground2(0.78, 0.82, 0.90);
  ren->GradientBackgroundOn();
  vtkNew<vtkTextActor> text;
  text->SetInput(title.c_str());
  text->GetTextProperty()->SetFontSize(18);
  text->GetTextProperty()->SetColor(0.1, 0.1, 0.1);
  text->GetTextProperty()->SetVerticalJustificationToTop();
  text->SetDisplayPosition(12, height - 12);
  ren->AddActor2D(text);
  vtkCamera *cam = ren->GetActiveCamera();
  if (c) {
    cam->SetFocalPoint(0, 0, 0);
    cam->SetPosition(0, -1, 0);
    cam->SetViewUp(0, 0, 1);
    ren->ResetCamera();
    cam->Azimuth(-30);
    cam->Elevation(12);
  } else {
    ren->ResetCamera();
    cam->Azimuth(35);
    cam->Elevation(25);
  }
  ren->ResetCamera();
  const bool long_title = title.find('\n') != std::string::npos;
  cam->Zoom(c ? 1.15 : long_title ? 1.0 : 1.2); /* room for a title of several lines */
}

/* Render ren off screen to png; VTK's log (its OpenGL and X messages)
 * caught, its last line the reason of a failure. */
int write_png(vtkRenderer *ren, const std::string &png, int width, int height, std::string *err) {
  QuietVtk quiet;
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkRenderWindow> win;
  win->AddObserver(vtkCommand::ErrorEvent, catcher);
  win->SetOffScreenRendering(1);
  win->AddRenderer(ren);
  win->SetSize(width, height);
  win->Render();
  vtkNew<vtkWindowToImageFilter> grab;
  grab->SetInput(win);
  grab->ReadFrontBufferOff();
  grab->Update();
  vtkNew<vtkPNGWriter> w;
  w->SetFileName(png.c_str());
  w->SetInputConnection(grab->GetOutputPort());
  w->AddObserver(vtkCommand::ErrorEvent, catcher);
  w->Write();
  if (w->GetErrorCode() != 0 || catcher->failed) {
    *err = "cannot write '" + png + "'" + vtk_reason(*catcher, quiet);
    return -EIO;
  }
  return 0;
}

/* Render pd (normals computed here) to png; coloured by c's array when c. */
int render_polydata(vtkPolyData *pd, const std::string &png, int width, int height,
                    const std::string &title, const Coloring *c, std::string *err) {
  if (int rc = render_check(err)) return rc;
  vtkNew<vtkPolyDataNormals> normals; /* smooth shading; our winding is consistent */
  normals->SetInputData(pd);
  normals->SplittingOff();
  normals->ConsistencyOff();
  normals->AutoOrientNormalsOff();
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(normals->GetOutputPort());
  vtkNew<vtkActor> actor;
  actor->SetMapper(mapper);
  vtkNew<vtkRenderer> ren;
  set_colors(mapper, actor, ren, c);
  actor->GetProperty()->SetSpecular(0.3);
  actor->GetProperty()->SetSpecularPower(30);
  ren->AddActor(actor);
  set_scene(ren, title, height, c);
  return write_png(ren, png, width, height, err);
}

/* The dataset of path (.vti or .vtu), after check_file. */
int read_source(const std::string &path, vtkSmartPointer<vtkDataSet> *out, std::string *err) {
  const FileFormat f = file_format(path);
  if (f != FileFormat::Vti && f != FileFormat::Vtu) {
    *err = "'" + path + "': the colour source must be a .vti image or a .vtu grid";
    return -ENOTSUP;
  }
  if (int rc = check_file(path, f, err)) return rc;
  QuietVtk quiet;
  vtkNew<ErrorCatcher> catcher;
  vtkSmartPointer<vtkXMLReader> reader;
  if (f == FileFormat::Vti)
    reader = vtkSmartPointer<vtkXMLImageDataReader>::New();
  else
    reader = vtkSmartPointer<vtkXMLUnstructuredGridReader>::New();
  reader->AddObserver(vtkCommand::ErrorEvent, catcher);
  reader->SetFileName(path.c_str());
  reader->Update();
  vtkDataSet *ds = vtkDataSet::SafeDownCast(reader->GetOutputDataObject(0));
  if (reader->GetErrorCode() != 0 || catcher->failed || !ds || ds->GetNumberOfPoints() == 0) {
    *err =
        "'" + path + "': VTK could not read it (or it has no points)" + vtk_reason(*catcher, quiet);
    return -EIO;
  }
  *out = ds;
  return 0;
}

} // namespace

int render_check(std::string *err) {
  const char *name = std::getenv("DISPLAY");
  if (!name || !*name) {
    *err = "no X display for VTK's OpenGL rendering (DISPLAY unset): run under xvfb-run -a";
    return -EIO;
  }
  /* VTK's X window aborts the process on a display it cannot open. The
   * connection stays open until exit: an X server without -noreset (as
   * xvfb-run starts Xvfb) resets when its last client leaves, and VTK's
   * window could then come during the reset and find no server. */
  static Display *held = nullptr;
  if (held) return 0;
  held = XOpenDisplay(name);
  if (!held) {
    *err = std::string("cannot open the X display '") + printable(name, 80) +
           "' for VTK's OpenGL rendering: run under xvfb-run -a";
    return -EIO;
  }
  return 0;
}

int render_png(const Surface &s, const std::string &png, int width, int height,
               const std::string &title, std::string *err) {
  const vtkSmartPointer<vtkPolyData> pd = to_vtk(s);
  return render_polydata(pd, png, width, height, title, nullptr, err);
}

int render_png_colored(const Surface &s, const std::string &png, int width, int height,
                       const std::string &title, const std::string &source,
                       const std::string &array, std::string *err) {
  vtkSmartPointer<vtkDataSet> ds;
  if (int rc = read_source(source, &ds, err)) return rc;
  vtkDataArray *a = ds->GetPointData()->GetArray(array.c_str());
  if (!a || a->GetNumberOfComponents() != 1) {
    std::string names;
    for (int i = 0; i < ds->GetPointData()->GetNumberOfArrays(); i++) {
      const char *n = ds->GetPointData()->GetArrayName(i);
      names += std::string(names.empty() ? "" : ", ") + (n ? n : "(unnamed)");
    }
    *err = "'" + source + "': " +
           (a ? "array '" + array + "' has several components" : "no point array '" + array + "'") +
           " (point arrays: " + (names.empty() ? "none" : names) + ")";
    return -EINVAL;
  }
  const vtkSmartPointer<vtkPolyData> pd = to_vtk(s);
  vtkNew<vtkProbeFilter> probe;
  probe->SetInputData(pd);
  probe->SetSourceData(ds);
  probe->Update();
  vtkDataSet *probed = probe->GetOutput();
  vtkDataArray *vals = probed->GetPointData()->GetArray(array.c_str());
  vtkCharArray *valid = vtkCharArray::SafeDownCast(
      probed->GetPointData()->GetArray(probe->GetValidPointMaskArrayName()));
  if (!vals) {
    *err = "vtkProbeFilter returned no array '" + array + "'";
    return -EIO;
  }
  /* Colour range: the 2nd to 98th percentiles of the probed values (a few
   * extreme vertices would otherwise flatten the colours). */
  std::vector<double> v;
  v.reserve((size_t)vals->GetNumberOfTuples());
  for (vtkIdType i = 0; i < vals->GetNumberOfTuples(); i++)
    if (!valid || valid->GetValue(i)) v.push_back(vals->GetComponent(i, 0));
  Coloring c;
  c.array = array;
  if (!v.empty()) {
    std::sort(v.begin(), v.end());
    c.lo = v[v.size() * 2 / 100];
    c.hi = v[v.size() * 98 / 100];
  }
  if (!(c.hi > c.lo)) c.hi = c.lo + 1;
  vtkSmartPointer<vtkPolyData> out = vtkSmartPointer<vtkPolyData>::New();
  out->DeepCopy(probed);
  return render_polydata(out, png, width, height, title, &c, err);
}

} // namespace iso
