/* apps/isosurface/io: a mesh written in pieces, a .pvtu and its .vtu files
 * (write_pieces, see pieces.h). */
#include "pieces.h"
#include "pieces_shared.h"
#include "vtk_quiet.h"

#include <vtkCellArray.h>
#include <vtkCellType.h>
#include <vtkCommand.h>
#include <vtkDoubleArray.h>
#include <vtkIdTypeArray.h>
#include <vtkInformation.h>
#include <vtkInformationVector.h>
#include <vtkNew.h>
#include <vtkObjectFactory.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>
#include <vtkStreamingDemandDrivenPipeline.h>
#include <vtkUnstructuredGrid.h>
#include <vtkUnstructuredGridAlgorithm.h>
#include <vtkXMLPUnstructuredGridWriter.h>

#include <cerrno>
#include <vector>

namespace iso {

namespace {

/* The cells [c0, c1) of a mesh as a VTK grid: their points in the order of
 * first use, the scalars, the input point ids as global ids. `local` maps
 * input point ids to the piece's (-1: not yet), left all -1 on return. */
vtkSmartPointer<vtkUnstructuredGrid> piece_grid(const Mesh &m, size_t c0, size_t c1,
                                                std::vector<int64_t> &local) {
  std::vector<int64_t> used;
  vtkNew<vtkIdTypeArray> offsets, conn;
  offsets->SetNumberOfTuples((vtkIdType)(c1 - c0 + 1));
  conn->SetNumberOfTuples((vtkIdType)(4 * (c1 - c0)));
  vtkIdType *po = offsets->GetPointer(0), *pc = conn->GetPointer(0);
  for (size_t c = c0; c < c1; c++) {
    po[c - c0] = (vtkIdType)(4 * (c - c0));
    for (int k = 0; k < 4; k++) {
      const int64_t g = m.tets[c].v[k];
      if (local[(size_t)g] < 0) {
        local[(size_t)g] = (int64_t)used.size();
        used.push_back(g);
      }
      *pc++ = (vtkIdType)local[(size_t)g];
    }
  }
  po[c1 - c0] = (vtkIdType)(4 * (c1 - c0));
  vtkNew<vtkDoubleArray> xyz, s;
  vtkNew<vtkIdTypeArray> gids;
  xyz->SetNumberOfComponents(3);
  xyz->SetNumberOfTuples((vtkIdType)used.size());
  s->SetName(m.array_name.c_str());
  s->SetNumberOfTuples((vtkIdType)used.size());
  gids->SetName(kGlobalPointIds);
  gids->SetNumberOfTuples((vtkIdType)used.size());
  for (size_t p = 0; p < used.size(); p++) {
    const Point &q = m.pts[(size_t)used[p]];
    xyz->SetTypedTuple((vtkIdType)p, &q.x);
    s->SetValue((vtkIdType)p, m.scalars[(size_t)used[p]]);
    gids->SetValue((vtkIdType)p, (vtkIdType)used[p]);
    local[(size_t)used[p]] = -1;
  }
  auto ug = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetData(xyz);
  ug->SetPoints(points);
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, conn);
  ug->SetCells(VTK_TETRA, cells);
  ug->GetPointData()->SetScalars(s);
  ug->GetPointData()->SetGlobalIds(gids);
  return ug;
}

/* A source of the pieces of one mesh: asked for piece i of N (the
 * pipeline's piece request, as vtkXMLPUnstructuredGridWriter asks for each
 * piece it writes), it produces the cells [i*T/N, (i+1)*T/N). */
class PieceSource : public vtkUnstructuredGridAlgorithm {
public:
  static PieceSource *New();
  vtkTypeMacro(PieceSource, vtkUnstructuredGridAlgorithm);
  void set_mesh(const Mesh *m) {
    mesh_ = m;
    local_.assign(m->pts.size(), -1);
    Modified();
  }

protected:
  PieceSource() { SetNumberOfInputPorts(0); }
  int RequestInformation(vtkInformation *, vtkInformationVector **,
                         vtkInformationVector *out) override {
    out->GetInformationObject(0)->Set(vtkAlgorithm::CAN_HANDLE_PIECE_REQUEST(), 1);
    return 1;
  }
  int RequestData(vtkInformation *, vtkInformationVector **, vtkInformationVector *out) override {
    vtkInformation *info = out->GetInformationObject(0);
    const int piece = info->Get(vtkStreamingDemandDrivenPipeline::UPDATE_PIECE_NUMBER());
    const int npieces = info->Get(vtkStreamingDemandDrivenPipeline::UPDATE_NUMBER_OF_PIECES());
    if (!mesh_ || npieces < 1 || piece < 0 || piece >= npieces) {
      vtkErrorMacro("piece " << piece << " of " << npieces << " requested");
      return 0;
    }
    const size_t t = mesh_->tets.size();
    const size_t c0 = (size_t)((unsigned __int128)t * (unsigned)piece / (unsigned)npieces);
    const size_t c1 = (size_t)((unsigned __int128)t * (unsigned)(piece + 1) / (unsigned)npieces);
    vtkUnstructuredGrid::GetData(out)->ShallowCopy(piece_grid(*mesh_, c0, c1, local_));
    return 1;
  }

private:
  const Mesh *mesh_ = nullptr;
  std::vector<int64_t> local_;
};
vtkStandardNewMacro(PieceSource);

} // namespace

int write_pieces(const Mesh &m, const std::string &path, int npieces, std::string *err) {
  if (npieces < 1) {
    *err = "cannot write '" + path + "': at least one piece is needed";
    return -EINVAL;
  }
  if (!has_extension(path, ".pvtu")) {
    *err = "cannot write '" + path + "' in pieces: the index must be a .pvtu file";
    return -EINVAL;
  }
  QuietVtk quiet;
  vtkNew<PieceSource> src;
  src->set_mesh(&m);
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkXMLPUnstructuredGridWriter> w;
  w->AddObserver(vtkCommand::ErrorEvent, catcher);
  src->AddObserver(vtkCommand::ErrorEvent, catcher);
  w->SetInputConnection(src->GetOutputPort());
  w->SetFileName(path.c_str());
  w->SetNumberOfPieces(npieces);
  w->SetStartPiece(0);
  w->SetEndPiece(npieces - 1);
  w->SetWriteSummaryFile(1);
  w->SetDataModeToAppended();
  if (!w->Write() || catcher->failed) {
    *err = "cannot write '" + path + "' (or its pieces '" + strip(path, ".pvtu") + "_<i>.vtu')" +
           vtk_reason(*catcher, quiet);
    return -EIO;
  }
  return 0;
}

} // namespace iso
