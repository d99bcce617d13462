/* apps/isosurface/io: the app's meshes and surfaces as VTK data objects
 * (vtk_convert.h) and their files: the mesh and surface writers by
 * extension, the surface readers (see vtk_bridge.h). */
#include "file_checks.h"
#include "pieces.h"
#include "pieces_xml.h"
#include "vtk_bridge.h"
#include "vtk_convert.h"
#include "vtk_datasets.h"
#include "vtk_quiet.h"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCommand.h>
#include <vtkDataArray.h>
#include <vtkDataObjectTreeIterator.h>
#include <vtkDataWriter.h>
#include <vtkDoubleArray.h>
#include <vtkIdTypeArray.h>
#include <vtkMultiBlockDataSet.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataReader.h>
#include <vtkPolyDataWriter.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkUnstructuredGridWriter.h>
#include <vtkXMLMultiBlockDataWriter.h>
#include <vtkXMLPPolyDataReader.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLPolyDataWriter.h>
#include <vtkXMLUnstructuredGridWriter.h>
#include <vtkXMLWriter.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <sys/stat.h>
#include <utility>

namespace iso {

namespace {

/* The file format of each writer family: XML writers write appended data,
 * legacy writers binary. */
void set_format(vtkXMLWriter *w) { w->SetDataModeToAppended(); }
void set_format(vtkDataWriter *w) { w->SetFileTypeToBinary(); }

/* Write data to path through a Writer (an XML or a legacy VTK writer, in the
 * format set_format gives it). 0 or -EIO. */
template <class Writer>
int write_with(vtkDataObject *data, const std::string &path, std::string *err) {
  QuietVtk quiet; /* the executive's dump of the failed request, colour codes and all */
  vtkNew<Writer> w;
  vtkNew<ErrorCatcher> catcher;
  w->AddObserver(vtkCommand::ErrorEvent, catcher);
  w->SetFileName(path.c_str());
  w->SetInputData(data);
  set_format(w.GetPointer());
  if (!w->Write() || catcher->failed) {
    *err = "cannot write '" + path + "'" + caught_reason(*catcher);
    return -EIO;
  }
  return 0;
}

/* The message of an output path whose extension no writer takes. */
int unknown_extension(const std::string &path, const char *expected, std::string *err) {
  *err = "'" + path + "': unknown file type (expected " + expected + ")";
  return -ENOTSUP;
}

} // namespace

Surface surface_of(vtkPolyData *pd) {
  Surface out;
  out.xyz.resize(3 * (size_t)pd->GetNumberOfPoints());
  for (vtkIdType p = 0; p < pd->GetNumberOfPoints(); p++) pd->GetPoint(p, &out.xyz[3 * (size_t)p]);
  for_each_triangle(pd, [&](const vtkIdType *ids) {
    for (int k = 0; k < 3; k++) out.tri.push_back((int64_t)ids[k]);
  });
  return out;
}

vtkSmartPointer<vtkUnstructuredGrid> to_vtk(const Mesh &m) {
  auto ug = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkDoubleArray> xyz;
  xyz->SetNumberOfComponents(3);
  xyz->SetNumberOfTuples((vtkIdType)m.pts.size());
  vtkNew<vtkDoubleArray> s;
  s->SetName(m.array_name.c_str());
  s->SetNumberOfTuples((vtkIdType)m.pts.size());
  /* The same layouts: three doubles a point, one a scalar. */
  if (!m.pts.empty()) {
    std::memcpy(xyz->GetPointer(0), m.pts.data(), m.pts.size() * sizeof(Point));
    std::memcpy(s->GetPointer(0), m.scalars.data(), m.scalars.size() * sizeof(double));
  }
  vtkNew<vtkPoints> points;
  points->SetData(xyz);
  ug->SetPoints(points);
  vtkNew<vtkIdTypeArray> offsets, conn;
  offsets->SetNumberOfTuples((vtkIdType)m.tets.size() + 1);
  conn->SetNumberOfTuples((vtkIdType)(4 * m.tets.size()));
  vtkIdType *po = offsets->GetPointer(0), *pc = conn->GetPointer(0);
  for (size_t c = 0; c <= m.tets.size(); c++) po[c] = (vtkIdType)(4 * c);
  /* VTK's own 64-bit ids (vtkIdType), as its readers make them: the VTK
   * peers read the cells they read from a file. */
  for (size_t c = 0; c < m.tets.size(); c++)
    for (int a = 0; a < 4; a++) pc[4 * c + (size_t)a] = (vtkIdType)m.tets[c].v[a];
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, conn);
  ug->SetCells(VTK_TETRA, cells);
  ug->GetPointData()->SetScalars(s);
  return ug;
}

vtkSmartPointer<vtkPolyData> to_vtk(const Surface &s) {
  auto pd = vtkSmartPointer<vtkPolyData>::New();
  vtkNew<vtkDoubleArray> xyz;
  xyz->SetNumberOfComponents(3);
  xyz->SetNumberOfTuples((vtkIdType)s.nverts());
  if (!s.xyz.empty()) std::memcpy(xyz->GetPointer(0), s.xyz.data(), s.xyz.size() * sizeof(double));
  vtkNew<vtkPoints> pts;
  pts->SetData(xyz);
  pd->SetPoints(pts);
  vtkNew<vtkIdTypeArray> offsets, conn;
  offsets->SetNumberOfTuples((vtkIdType)s.ntris() + 1);
  conn->SetNumberOfTuples((vtkIdType)s.tri.size());
  for (size_t f = 0; f <= s.ntris(); f++) offsets->SetValue((vtkIdType)f, (vtkIdType)(3 * f));
  if (!s.tri.empty())
    std::memcpy(conn->GetPointer(0), s.tri.data(), s.tri.size() * sizeof(int64_t));
  vtkNew<vtkCellArray> polys;
  polys->SetData(offsets, conn);
  pd->SetPolys(polys);
  return pd;
}

int write_vtu(const Mesh &m, const std::string &path, std::string *err) {
  return write_with<vtkXMLUnstructuredGridWriter>(to_vtk(m), path, err);
}

int write_vtp(const Surface &s, const std::string &path, std::string *err) {
  return write_with<vtkXMLPolyDataWriter>(to_vtk(s), path, err);
}

int write_mesh(const Mesh &m, const std::string &path, std::string *err) {
  if (has_extension(path, ".vtu")) return write_vtu(m, path, err);
  if (has_extension(path, ".vtk"))
    return write_with<vtkUnstructuredGridWriter>(to_vtk(m), path, err);
  return unknown_extension(path, ".vtu or .vtk", err);
}

namespace {

/* The MeshArrays as arrays of fd; false if one has n tuples or an unknown type. */
bool add_arrays(vtkFieldData *fd, const std::vector<MeshArray> &arrays, size_t n) {
  for (const MeshArray &a : arrays) {
    vtkSmartPointer<vtkDataArray> d;
    d.TakeReference(vtkDataArray::CreateDataArray(a.type));
    if (!d || (size_t)d->GetDataTypeSize() != a.elem_size || a.tuples() != n) return false;
    d->SetName(a.name.c_str());
    d->SetNumberOfComponents(a.components);
    d->SetNumberOfTuples((vtkIdType)n);
    if (!a.bytes.empty()) std::memcpy(d->GetVoidPointer(0), a.bytes.data(), a.bytes.size());
    fd->AddArray(d);
  }
  return true;
}

} // namespace

namespace {

/* The surface and its arrays as a polydata (*pd); false if an array has
 * another length than the points or triangles, or an unknown type. */
bool polydata_of(const Surface &s, const std::vector<MeshArray> &point_data,
                 const std::vector<MeshArray> &cell_data, bool scalars,
                 vtkSmartPointer<vtkPolyData> *pd) {
  *pd = to_vtk(s);
  if (!add_arrays((*pd)->GetPointData(), point_data, s.nverts()) ||
      !add_arrays((*pd)->GetCellData(), cell_data, s.ntris()))
    return false;
  if (scalars && !point_data.empty())
    (*pd)->GetPointData()->SetActiveScalars(point_data[0].name.c_str());
  return true;
}

/* The tuples idx[0..) of each array, in that order. */
std::vector<MeshArray> pick_tuples(const std::vector<MeshArray> &arrays,
                                   const std::vector<size_t> &idx) {
  std::vector<MeshArray> out;
  for (const MeshArray &a : arrays) {
    MeshArray p = a;
    const size_t w = a.tuple_bytes();
    p.bytes.resize(idx.size() * w);
    for (size_t i = 0; i < idx.size(); i++)
      std::memcpy(p.bytes.data() + i * w, a.bytes.data() + idx[i] * w, w);
    out.push_back(std::move(p));
  }
  return out;
}

/* Block b's part of the surface: its triangles (tri_block), their
 * vertices numbered in order of first use, the arrays' tuples picked. */
bool block_polydata(const Surface &s, const std::vector<uint32_t> &tri_block, uint32_t b,
                    const std::vector<MeshArray> &point_data,
                    const std::vector<MeshArray> &cell_data, bool scalars,
                    vtkSmartPointer<vtkPolyData> *pd) {
  Surface part;
  std::vector<size_t> verts, tris;
  std::vector<int64_t> local(s.nverts(), -1);
  for (size_t t = 0; t < s.ntris(); t++) {
    if (tri_block[t] != b) continue;
    tris.push_back(t);
    for (int k = 0; k < 3; k++) {
      const auto v = (size_t)s.tri[3 * t + (size_t)k];
      if (local[v] < 0) {
        local[v] = (int64_t)verts.size();
        verts.push_back(v);
        part.xyz.insert(part.xyz.end(), &s.xyz[3 * v], &s.xyz[3 * v] + 3);
      }
      part.tri.push_back(local[v]);
    }
  }
  return polydata_of(part, pick_tuples(point_data, verts), pick_tuples(cell_data, tris), scalars,
                     pd);
}

} // namespace

int write_surface_blocks(const BlockTree &blocks, const Surface &s,
                         const std::vector<uint32_t> &tri_block,
                         const std::vector<MeshArray> &point_data,
                         const std::vector<MeshArray> &cell_data, bool scalars,
                         const std::string &path, std::string *err) {
  if (!has_extension(path, ".vtm")) return unknown_extension(path, ".vtm", err);
  const size_t n = blocks.count();
  if (!blocks.impl || tri_block.size() != s.ntris() ||
      std::any_of(tri_block.begin(), tri_block.end(), [n](uint32_t b) { return b >= n; })) {
    *err = "write_surface_blocks: the triangles' blocks do not match the input's";
    return -EINVAL;
  }
  std::map<unsigned, uint32_t> block_at; /* flat index -> block */
  for (size_t b = 0; b < n; b++) block_at[blocks.impl->flat[b]] = (uint32_t)b;
  vtkNew<vtkMultiBlockDataSet> out;
  out->CopyStructure(blocks.impl->tree);
  vtkSmartPointer<vtkDataObjectTreeIterator> it;
  it.TakeReference(out->NewTreeIterator());
  it->SkipEmptyNodesOff();
  it->VisitOnlyLeavesOn();
  try {
    for (it->InitTraversal(); !it->IsDoneWithTraversal(); it->GoToNextItem()) {
      auto at = block_at.find(it->GetCurrentFlatIndex());
      if (at == block_at.end()) continue;
      vtkSmartPointer<vtkPolyData> pd;
      if (!block_polydata(s, tri_block, at->second, point_data, cell_data, scalars, &pd)) {
        *err = "write_surface_blocks: an array of the wrong length or type";
        return -EINVAL;
      }
      out->SetDataSet(it, pd);
    }
  } catch (const std::bad_alloc &) {
    *err = "out of memory splitting the surface into its blocks";
    return -ENOMEM;
  }
  return write_with<vtkXMLMultiBlockDataWriter>(out, path, err);
}

int write_surface(const Surface &s, const std::vector<MeshArray> &point_data,
                  const std::vector<MeshArray> &cell_data, bool scalars, const std::string &path,
                  std::string *err) {
  vtkSmartPointer<vtkPolyData> pd;
  if (!polydata_of(s, point_data, cell_data, scalars, &pd)) {
    *err = "write_surface: an array of the wrong length or type";
    return -EINVAL;
  }
  if (has_extension(path, ".vtp")) return write_with<vtkXMLPolyDataWriter>(pd, path, err);
  if (has_extension(path, ".vtk")) return write_with<vtkPolyDataWriter>(pd, path, err);
  return unknown_extension(path, ".vtp or .vtk", err);
}

int write_surface(const Surface &s, const std::string &path, std::string *err) {
  if (has_extension(path, ".vtp")) return write_vtp(s, path, err);
  if (has_extension(path, ".vtk")) return write_with<vtkPolyDataWriter>(to_vtk(s), path, err);
  return unknown_extension(path, ".vtp or .vtk", err);
}

namespace {

/* The triangles of path through VTK's polydata reader R (a .pvtp's pieces
 * appended, their points not merged), VTK's messages caught: 0, or -ENOENT
 * and -EIO with one line, -EPROTO a triangle naming a point the file does
 * not have. A polydata without points (VTK writes an empty
 * one so; its reader only warns that the piece has no Points element) is
 * the empty surface. */
template <class R>
int read_polydata(const std::string &path, Surface *s, std::string *err) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    *err = "cannot read '" + path + "': " + std::strerror(errno);
    return -ENOENT;
  }
  if (!S_ISREG(st.st_mode)) {
    *err = "cannot read '" + path + "': not a regular file";
    return -ENOENT;
  }
  CaughtReader<R> in(path);
  in.r->Update();
  vtkPolyData *pd = in.r->GetOutput();
  const std::string said = in.catcher->message + in.quiet.text();
  const bool empty = pd && pd->GetNumberOfPoints() == 0 && pd->GetNumberOfCells() == 0 &&
                     said.find("No Points element") != std::string::npos;
  if (!empty && (in.catcher->failed || !pd || in.r->GetErrorCode() != 0 || !said.empty())) {
    *err = "VTK could not read '" + path + "'" + in.reason();
    return -EIO;
  }
  Surface out = surface_of(pd);
  for (size_t i = 0; i < out.tri.size(); i++)
    if (out.tri[i] < 0 || (size_t)out.tri[i] >= out.nverts()) {
      *err = "'" + path + "': triangle " + std::to_string(i / 3) + " names point " +
             std::to_string(out.tri[i]) + ", not one of its " + std::to_string(out.nverts());
      return -EPROTO;
    }
  *s = std::move(out);
  return 0;
}

} // namespace

int read_vtp(const std::string &path, Surface *s, std::string *err) {
  if (int rc = check_file(path, FileFormat::Vtp, err)) return rc;
  return read_polydata<vtkXMLPolyDataReader>(path, s, err);
}

int read_surface(const std::string &path, Surface *s, std::string *err) {
  int rc;
  if (has_extension(path, ".vtp"))
    rc = read_vtp(path, s, err);
  else if (has_extension(path, ".pvtp")) {
    rc = check_pvtp_index(path, err);
    if (!rc) rc = read_polydata<vtkXMLPPolyDataReader>(path, s, err);
  } else if (has_extension(path, ".vtk"))
    rc = check_file(path, FileFormat::LegacyVtk, err);
  else
    return unknown_extension(path, ".vtp, .pvtp or .vtk", err);
  if (!rc && has_extension(path, ".vtk")) rc = read_polydata<vtkPolyDataReader>(path, s, err);
  if (rc) *err = printable(*err);
  return rc;
}

} // namespace iso
