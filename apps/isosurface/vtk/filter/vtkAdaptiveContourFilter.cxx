/* vtkAdaptiveContourFilter (vtkAdaptiveContourFilter.h): the pipeline
 * side; adaptContourInput.cxx views the input, adaptContourOutput.cxx
 * calls <adapt/iso.hpp> and fills the output. */
#include "vtkAdaptiveContourFilter.h"

#include "adaptContourInput.h"
#include "adaptContourOutput.h"
#include "rank_share.h"

#include "vtkDataObject.h"
#include "vtkDataSet.h"
#include "vtkIncrementalPointLocator.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkObjectFactory.h"
#include "vtkPolyData.h"

#include <cerrno>
#include <cstring>
#include <string>

vtkStandardNewMacro(vtkAdaptiveContourFilter);
vtkCxxSetObjectMacro(vtkAdaptiveContourFilter, Locator, vtkIncrementalPointLocator);

struct vtkAdaptiveContourFilter::Internals {
  adapt_vtk::Reuse Outputs;
};

namespace {

adapt::iso::mode IsoMode(int mode) {
  switch (mode) {
  case vtkAdaptiveContourFilter::SEQUENTIAL: return adapt::iso::mode::sequential;
  case vtkAdaptiveContourFilter::NONE: return adapt::iso::mode::none;
  case vtkAdaptiveContourFilter::STATIC: return adapt::iso::mode::static_;
  default: return adapt::iso::mode::sliding;
  }
}

/* Starts the runtime with n workers (0: ADAPT_WORKERS, else under mpirun
 * one per PU of this rank's share of its machine, rank_share.h, else the
 * default count) as <adapt/iso.hpp> does (adapt::iso::start_runtime:
 * unbound unless ADAPT_BIND is set, so that the calling thread and the rest
 * of the pipeline, a TBB arena first used from that thread, keep their
 * CPUs) before PrepareInput's loops could start it lazily, bound. A runtime
 * already running is left as it is; extract's -EBUSY reports a count that
 * differs. */
void StartRuntime(int n) {
  if (n == 1) return;
  static const int share = adapt_iso::rank_share_workers(); /* once per process */
  if (n == 0 && !std::getenv("ADAPT_WORKERS")) n = share;
  (void)adapt::iso::start_runtime(n);
}

} // namespace

vtkAdaptiveContourFilter::vtkAdaptiveContourFilter()
    : ContourValues(vtkContourValues::New()), ComputeScalars(1), ComputeNormals(0),
      ComputeGradients(0), OutputPointsPrecision(DEFAULT_PRECISION), GenerateTriangles(1),
      Locator(nullptr), NumberOfWorkers(0), Mode(SLIDING_WINDOW), WindowSize(0),
      Internal(new Internals) {
  /* As vtkContourGrid: the active point scalars by default. */
  this->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS,
                               vtkDataSetAttributes::SCALARS);
}

vtkAdaptiveContourFilter::~vtkAdaptiveContourFilter() {
  this->ContourValues->Delete();
  this->SetLocator(nullptr);
  delete this->Internal;
}

vtkMTimeType vtkAdaptiveContourFilter::GetMTime() {
  vtkMTimeType t = this->Superclass::GetMTime();
  vtkMTimeType v = this->ContourValues->GetMTime();
  if (v > t) t = v;
  vtkMTimeType l = this->Locator ? this->Locator->GetMTime() : 0;
  return l > t ? l : t;
}

const char *vtkAdaptiveContourFilter::GetModeAsString(int mode) {
  switch (mode) {
  case SEQUENTIAL: return "sequential";
  case NONE: return "none";
  case STATIC: return "static";
  case SLIDING_WINDOW: return "sliding";
  default: return "unknown";
  }
}

int vtkAdaptiveContourFilter::FillInputPortInformation(int, vtkInformation *info) {
  /* Composite inputs are run block by block by the composite pipeline. */
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkDataSet");
  return 1;
}

int vtkAdaptiveContourFilter::RequestData(vtkInformation *, vtkInformationVector **inputVector,
                                          vtkInformationVector *outputVector) {
  vtkDataSet *input = vtkDataSet::GetData(inputVector[0], 0);
  vtkPolyData *output = vtkPolyData::GetData(outputVector, 0);
  if (!input || !output) {
    vtkErrorMacro("no input dataset (a vtkDataSet or a composite of them is needed)");
    return 1;
  }
  output->Initialize();
  if (input->GetNumberOfCells() == 0) return 1; /* as vtkContourGrid: nothing to contour */
  int association = vtkDataObject::FIELD_ASSOCIATION_POINTS;
  vtkDataArray *scalars = this->GetInputArrayToProcess(0, input, association);
  if (!scalars) {
    vtkInformation *ai = this->GetInputArrayInformation(0);
    const char *name = ai->Get(vtkDataObject::FIELD_NAME());
    if (name)
      vtkErrorMacro(
          "no " << (association == vtkDataObject::FIELD_ASSOCIATION_CELLS ? "cell" : "point")
                << " array named '" << name << "' in the input to contour");
    else
      vtkErrorMacro("no scalars to contour: the input has no active point scalars");
    return 1;
  }
  if (association != vtkDataObject::FIELD_ASSOCIATION_POINTS &&
      association != vtkDataObject::FIELD_ASSOCIATION_CELLS) {
    vtkErrorMacro("the scalars must be point or cell data");
    return 1;
  }
  adapt_vtk::Input in;
  adapt_vtk::Call call;
  std::string err;
  const int workers = this->Mode == SEQUENTIAL ? 1 : this->NumberOfWorkers;
  StartRuntime(workers);
  int rc = adapt_vtk::PrepareInput(input, scalars, association, workers != 1, &in, &err);
  if (rc == 0) rc = adapt_vtk::BuildCall(in, this->ComputeScalars != 0, &call, &err);
  if (rc == 0 && this->ComputeGradients) rc = adapt_vtk::AddGradients(input, in, &call, &err);
  if (rc != 0) {
    vtkErrorMacro(<< err);
    return 1;
  }
  const int n = int(this->ContourValues->GetNumberOfContours());
  const double *values = this->ContourValues->GetValues();
  call.Req.values.assign(values, values + n);
  call.Req.normals = this->ComputeNormals != 0;
  call.Req.policy =
      adapt::iso::policy().window(IsoMode(this->Mode), size_t(this->WindowSize)).workers(workers);
  /* A surface that no array of a previous output holds: its buffers are
   * reused, and adopted by this output's arrays. */
  const std::shared_ptr<adapt::iso::surface> s = this->Internal->Outputs.Next();
  rc = adapt::iso::extract(call.In, call.Req, s.get());
  if (rc != 0) {
    vtkErrorMacro("extraction failed: " << s->message() << " (" << std::strerror(-rc) << ")");
    return 1;
  }
  const bool floatPoints =
      this->OutputPointsPrecision == SINGLE_PRECISION ||
      (this->OutputPointsPrecision == DEFAULT_PRECISION && in.Points->GetDataType() == VTK_FLOAT);
  rc = adapt_vtk::FillOutput(s, in, call, floatPoints, &this->Internal->Outputs, output);
  if (rc == 0 && this->Locator) rc = adapt_vtk::LocatePoints(this->Locator, output);
  if (rc != 0) {
    vtkErrorMacro("out of memory building the output");
    output->Initialize();
  }
  return 1;
}

void vtkAdaptiveContourFilter::PrintSelf(ostream &os, vtkIndent indent) {
  this->Superclass::PrintSelf(os, indent);
  this->ContourValues->PrintSelf(os, indent.GetNextIndent());
  os << indent << "ComputeScalars: " << (this->ComputeScalars ? "On" : "Off") << "\n";
  os << indent << "ComputeNormals: " << (this->ComputeNormals ? "On" : "Off") << "\n";
  os << indent << "ComputeGradients: " << (this->ComputeGradients ? "On" : "Off") << "\n";
  os << indent << "OutputPointsPrecision: " << this->OutputPointsPrecision << "\n";
  os << indent << "GenerateTriangles: " << (this->GenerateTriangles ? "On" : "Off") << "\n";
  os << indent << "Locator: " << static_cast<void *>(this->Locator) << "\n";
  os << indent << "NumberOfWorkers: " << this->NumberOfWorkers << "\n";
  os << indent << "Mode: " << GetModeAsString(this->Mode) << "\n";
  os << indent << "WindowSize: " << this->WindowSize << "\n";
}
