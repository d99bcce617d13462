/* apps/isosurface/io: capturing VTK's error output (vtk_bridge.cpp, dist.cpp,
 * pieces*.cpp, pvtp_union.cpp). Internal to the app; includes VTK. */
#ifndef APPS_ISOSURFACE_IO_VTK_QUIET_H
#define APPS_ISOSURFACE_IO_VTK_QUIET_H

#include "file_checks.h"

#include <vtkCommand.h>
#include <vtkLogger.h>
#include <vtkNew.h>
#include <vtkOutputWindow.h>
#include <vtkSmartPointer.h>

#include <iostream>
#include <sstream>
#include <string>
#include <utility>

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
 * parser) is captured instead of printed, and so is what is written to
 * std::cerr (VTK's MetaImage library, metaio, prints its parse errors
 * there). */
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
    cerr_previous_ = std::cerr.rdbuf(cerr_.rdbuf());
  }
  ~QuietVtk() {
    std::cerr.rdbuf(cerr_previous_);
    vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_WARNING);
    vtkOutputWindow::SetInstance(previous_);
  }
  QuietVtk(const QuietVtk &) = delete;
  QuietVtk &operator=(const QuietVtk &) = delete;
  /* The first text VTK output, else what was written to std::cerr, else "". */
  std::string text() const { return !window_->text.empty() ? window_->text : cerr_.str(); }

private:
  vtkSmartPointer<vtkOutputWindow> previous_;
  vtkSmartPointer<Window> window_;
  std::ostringstream cerr_;
  std::streambuf *cerr_previous_ = nullptr;
};

/* The last non-empty line of a VTK message, as VTK wrote it, or "". */
inline std::string message_line(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  const size_t p = s.rfind('\n');
  return p == std::string::npos ? s : s.substr(p + 1);
}

/* ": " and the last line of the message caught, or "" if none. */
inline std::string caught_reason(const ErrorCatcher &c) {
  return c.message.empty() ? std::string() : ": " + message_line(c.message);
}

/* The last non-empty line of a VTK message (VTK prefixes the class and the
 * source line) without the object's address, printable, or "". */
inline std::string last_line(std::string s) {
  s = message_line(std::move(s));
  /* "vtkXMLUnstructuredGridReader (0x55d0c8a0): why": the object's address
   * says nothing to the user. */
  const size_t open = s.find(" (0x"), close = s.find("): ");
  if (s.rfind("vtk", 0) == 0 && open != std::string::npos && close != std::string::npos &&
      open < close && close < 80)
    s = s.substr(0, open) + s.substr(close + 1);
  return printable(s);
}

/* ": why" from what VTK said, or "". */
inline std::string vtk_reason(const ErrorCatcher &c, const QuietVtk &q) {
  const std::string why = !c.message.empty() ? c.message : q.text();
  return why.empty() ? std::string() : ": " + last_line(why);
}

/* A VTK reader or parser of one file (SetFileName), its errors caught and
 * VTK's text output captured while it lives. */
template <class Reader>
struct CaughtReader {
  QuietVtk quiet;
  vtkNew<ErrorCatcher> catcher;
  vtkNew<Reader> r;
  explicit CaughtReader(const std::string &path) {
    r->AddObserver(vtkCommand::ErrorEvent, catcher);
    r->SetFileName(path.c_str());
  }
  /* ": why" from what VTK said, or "". */
  std::string reason() const { return vtk_reason(*catcher, quiet); }
};

} // namespace iso

#endif /* APPS_ISOSURFACE_IO_VTK_QUIET_H */
