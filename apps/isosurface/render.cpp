/* apps/isosurface: isosurface rendering to PNG through VTK's OpenGL2
 * backend (GLX: run under xvfb-run on a machine without a display). */
#include "vtk_bridge.h"
#include "vtk_convert.h"

#include <vtkAutoInit.h>
VTK_MODULE_INIT(vtkRenderingOpenGL2);
VTK_MODULE_INIT(vtkRenderingFreeType);

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkNew.h>
#include <vtkPNGWriter.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkWindowToImageFilter.h>

#include <cerrno>
#include <cstdlib>

namespace iso {

int render_png(const Surface &s, const std::string &png, int width, int height,
               const std::string &title, std::string *err) {
  if (!std::getenv("DISPLAY")) {
    *err = "no X display for VTK's OpenGL rendering (DISPLAY unset): run under xvfb-run -a";
    return -EIO;
  }
  const vtkSmartPointer<vtkPolyData> pd = to_vtk(s);
  vtkNew<vtkPolyDataNormals> normals; /* smooth shading; our winding is consistent */
  normals->SetInputData(pd);
  normals->SplittingOff();
  normals->ConsistencyOff();
  normals->AutoOrientNormalsOff();
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(normals->GetOutputPort());
  mapper->ScalarVisibilityOff();
  vtkNew<vtkActor> actor;
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(0.90, 0.55, 0.25);
  actor->GetProperty()->SetSpecular(0.3);
  actor->GetProperty()->SetSpecularPower(30);
  vtkNew<vtkProperty> back;
  back->SetColor(0.35, 0.55, 0.85);
  actor->SetBackfaceProperty(back);

  vtkNew<vtkRenderer> ren;
  ren->AddActor(actor);
  ren->SetBackground(1, 1, 1);
  ren->SetBackground2(0.78, 0.82, 0.90);
  ren->GradientBackgroundOn();
  vtkNew<vtkTextActor> text;
  text->SetInput(title.c_str());
  text->GetTextProperty()->SetFontSize(18);
  text->GetTextProperty()->SetColor(0.1, 0.1, 0.1);
  text->SetDisplayPosition(10, 10);
  ren->AddActor2D(text);
  ren->ResetCamera();
  ren->GetActiveCamera()->Azimuth(35);
  ren->GetActiveCamera()->Elevation(25);
  ren->ResetCamera();
  ren->GetActiveCamera()->Zoom(1.2);

  vtkNew<vtkRenderWindow> win;
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
  w->Write();
  if (w->GetErrorCode() != 0) {
    *err = "cannot write '" + png + "'";
    return -EIO;
  }
  return 0;
}

} // namespace iso
