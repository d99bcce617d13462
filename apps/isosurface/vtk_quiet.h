/* apps/isosurface: capturing VTK's error output (vtk_bridge.cpp,
 * pieces.cpp). Internal to the app; includes VTK. */
#ifndef APPS_ISOSURFACE_VTK_QUIET_H
#define APPS_ISOSURFACE_VTK_QUIET_H

#include <vtkCommand.h>
#include <vtkLogger.h>
#include <vtkOutputWindow.h>
#include <vtkSmartPointer.h>

#include <string>

namespace iso {

/* Collects the first error message of a VTK object instead of printing it
 * (AddObserver(vtkCommand::ErrorEvent, ...)). */
class ErrorCatcher : public vtkCommand {
public:
  static ErrorCatcher *New() { return new ErrorCatcher; }
  void Execute(vtkObject *, unsigned long, void *data) override {
    if (data && message.empty()) message = static_cast<const char *>(data);
    failed = true;
  }
  std::string message;
  bool failed = false;
};

/* While alive, VTK's text output (errors of internal objects such as the XML
 * parser) is captured instead of printed. */
class QuietVtk {
public:
  class Window : public vtkOutputWindow {
  public:
    static Window *New() { return new Window; }
    void DisplayText(const char *t) override {
      if (t && text.empty()) text = t;
    }
    std::string text;
  };
  QuietVtk() : previous_(vtkOutputWindow::GetInstance()), window_(vtkSmartPointer<Window>::New()) {
    vtkOutputWindow::SetInstance(window_);
    vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_OFF);
  }
  ~QuietVtk() {
    vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_WARNING);
    vtkOutputWindow::SetInstance(previous_);
  }
  const std::string &text() const { return window_->text; }

private:
  vtkSmartPointer<vtkOutputWindow> previous_;
  vtkSmartPointer<Window> window_;
};

} // namespace iso

#endif /* APPS_ISOSURFACE_VTK_QUIET_H */
