/* apps/isosurface/io: the arrays carried for the surface, cell scalars made
 * point scalars (see vtk_arrays.h). */
#include "vtk_arrays.h"
#include "vtk_convert.h"
#include "vtk_datasets.h"
#include "vtk_quiet.h"

#include <vtkCellData.h>
#include <vtkCellDataToPointData.h>
#include <vtkCommand.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkType.h>

#include <cerrno>
#include <cstring>
#include <new>

namespace iso {

namespace {

/* The names of the arrays of fd, "a, b" ("none"); not the blocks' numbers
 * of a multiblock (kBlockArray, the reader's own). */
std::string names_of(vtkFieldData *fd) {
  std::string s;
  for (int i = 0; i < fd->GetNumberOfArrays(); i++) {
    const char *n = fd->GetArrayName(i);
    if (n && std::strcmp(n, kBlockArray) == 0) continue;
    s += std::string(s.empty() ? "" : ", ") + (n ? n : "(unnamed)");
  }
  return s.empty() ? "none" : s;
}

std::string available(vtkDataSet *ds) {
  return "point arrays: " + names_of(ds->GetPointData()) +
         "; cell arrays: " + names_of(ds->GetCellData());
}

/* The type an array is stored as: the VTK code of its fixed width (that
 * of <adapt/iso.hpp>'s dtype), 0 for a type not taken. */
int stored_type(int t) {
  switch (t) {
  case VTK_CHAR: return static_cast<char>(-1) < 0 ? VTK_SIGNED_CHAR : VTK_UNSIGNED_CHAR;
  case VTK_LONG:
  case VTK_ID_TYPE: return sizeof(long) == 8 || t == VTK_ID_TYPE ? VTK_LONG_LONG : VTK_INT;
  case VTK_UNSIGNED_LONG: return sizeof(long) == 8 ? VTK_UNSIGNED_LONG_LONG : VTK_UNSIGNED_INT;
  case VTK_SIGNED_CHAR:
  case VTK_UNSIGNED_CHAR:
  case VTK_SHORT:
  case VTK_UNSIGNED_SHORT:
  case VTK_INT:
  case VTK_UNSIGNED_INT:
  case VTK_LONG_LONG:
  case VTK_UNSIGNED_LONG_LONG:
  case VTK_FLOAT:
  case VTK_DOUBLE: return t;
  default: return 0;
  }
}

/* Array a (tuples src[i], or i when src is empty) as a MeshArray. */
MeshArray to_mesh_array(vtkDataArray *a, const std::vector<int64_t> &src) {
  MeshArray out;
  out.name = a->GetName() ? a->GetName() : "";
  out.components = a->GetNumberOfComponents();
  const bool raw = a->HasStandardMemoryLayout() && stored_type(a->GetDataType()) != 0;
  out.type = raw ? stored_type(a->GetDataType()) : VTK_DOUBLE;
  out.elem_size = raw ? (size_t)a->GetDataTypeSize() : sizeof(double);
  const size_t n = src.empty() ? (size_t)a->GetNumberOfTuples() : src.size(), w = out.tuple_bytes();
  out.bytes.resize(n * w);
  const auto *base = static_cast<const unsigned char *>(raw ? a->GetVoidPointer(0) : nullptr);
  for (size_t i = 0; i < n; i++) {
    const vtkIdType t = src.empty() ? (vtkIdType)i : (vtkIdType)src[i];
    if (raw) {
      std::memcpy(out.bytes.data() + i * w, base + (size_t)t * w, w);
      continue;
    }
    for (int c = 0; c < out.components; c++) {
      const double v = a->GetComponent(t, c);
      std::memcpy(out.bytes.data() + i * w + (size_t)c * sizeof(double), &v, sizeof v);
    }
  }
  return out;
}

/* Whether array i of fd is carried: numeric, not the scalars, asked for. */
vtkDataArray *carried(vtkFieldData *fd, int i, const ReadOptions &opt, const std::string &scalars,
                      bool points) {
  vtkDataArray *a = fd->GetArray(i);
  if (!a || !a->GetName() || stored_type(a->GetDataType()) == 0) return nullptr;
  const std::string name = a->GetName();
  if (points && name == scalars) return nullptr;
  if (opt.all_arrays) return a;
  for (const std::string &n : opt.arrays)
    if (n == name) return a;
  return nullptr;
}

} // namespace

bool wants_cell_scalars(vtkDataSet *ds, const ReadOptions &opt) {
  if (opt.cell_scalars) return true;
  return !opt.array.empty() && !ds->GetPointData()->GetArray(opt.array.c_str()) &&
         ds->GetCellData()->GetArray(opt.array.c_str());
}

int cell_scalars_to_points(vtkSmartPointer<vtkDataSet> *ds, const ReadOptions &opt,
                           std::string *name, std::string *err) {
  vtkCellData *cd = (*ds)->GetCellData();
  vtkDataArray *a = opt.array.empty() ? cd->GetScalars() : cd->GetArray(opt.array.c_str());
  if (!a || !a->GetName()) {
    *err = (opt.array.empty() ? std::string("no active cell scalars")
                              : "unknown cell array '" + opt.array + "'") +
           "; choose one with --array NAME (" + available(*ds) + ")";
    return -EINVAL;
  }
  if (a->GetNumberOfComponents() != 1) {
    *err = std::string("cell array '") + a->GetName() + "' has " +
           std::to_string(a->GetNumberOfComponents()) +
           " components; a scalar (1 component) is needed";
    return -EINVAL;
  }
  *name = a->GetName();
  QuietVtk quiet;
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkCellDataToPointData> c2p;
  c2p->AddObserver(vtkCommand::ErrorEvent, catcher);
  c2p->SetInputData(*ds);
  c2p->ProcessAllArraysOff();
  c2p->AddCellDataArray(name->c_str());
  c2p->PassCellDataOn();
  c2p->Update();
  vtkDataSet *out = vtkDataSet::SafeDownCast(c2p->GetOutputDataObject(0));
  if (catcher->failed || !out || !out->GetPointData()->GetArray(name->c_str())) {
    *err = "vtkCellDataToPointData failed on cell array '" + *name + "'" +
           (catcher->message.empty() ? "" : ": " + message_line(catcher->message));
    return -EIO;
  }
  *ds = out;
  return 0;
}

int image_point_sources(const int64_t dims[3], const ReadOptions &opt, std::vector<int64_t> *src,
                        std::string *err) {
  try {
    std::vector<double> idx((size_t)(dims[0] * dims[1] * dims[2]));
    for (size_t i = 0; i < idx.size(); i++) idx[i] = (double)i;
    Grid g;
    for (int a = 0; a < 3; a++) g.np[a] = dims[a];
    g.scalars = idx.data();
    Mesh m;
    if (int rc = tetrahedralize_grid(g, opt.split, opt.order, 1, &m, err)) return rc;
    src->assign(m.scalars.begin(), m.scalars.end());
  } catch (const std::bad_alloc &) {
    *err = "out of memory reading the image's arrays";
    return -ENOMEM;
  }
  return 0;
}

bool wants_point_arrays(vtkDataSet *ds, const ReadOptions &opt, const std::string &scalars) {
  vtkPointData *pd = ds->GetPointData();
  for (int i = 0; i < pd->GetNumberOfArrays(); i++)
    if (carried(pd, i, opt, scalars, true)) return true;
  return false;
}

int copy_arrays(vtkDataSet *ds, const ReadOptions &opt, const std::string &scalars,
                const std::vector<int64_t> &point_src, bool with_cells, Mesh *m, std::string *err) {
  vtkPointData *pd = ds->GetPointData();
  vtkCellData *cd = ds->GetCellData();
  for (const std::string &n : opt.arrays) {
    vtkAbstractArray *p = pd->GetAbstractArray(n.c_str()), *c = cd->GetAbstractArray(n.c_str());
    vtkAbstractArray *a = p ? p : c;
    if (!a) {
      *err = "--arrays: unknown array '" + n + "' (" + available(ds) + ")";
      return -EINVAL;
    }
    if (!vtkDataArray::SafeDownCast(a) || stored_type(a->GetDataType()) == 0) {
      *err = "--arrays: array '" + n + "' is not numeric (" + a->GetDataTypeAsString() + ")";
      return -EINVAL;
    }
    if (!p && !with_cells) {
      *err = "--arrays: cell array '" + n +
             "': an image volume's cells are split by the reader, its cell arrays are not carried";
      return -ENOTSUP;
    }
  }
  try {
    for (int i = 0; i < pd->GetNumberOfArrays(); i++)
      if (vtkDataArray *a = carried(pd, i, opt, scalars, true))
        m->point_data.push_back(to_mesh_array(a, point_src));
    for (int i = 0; with_cells && i < cd->GetNumberOfArrays(); i++)
      if (vtkDataArray *a = carried(cd, i, opt, "", false)) {
        if (!opt.all_arrays && pd->GetArray(a->GetName())) continue; /* named: the point one */
        m->cell_data.push_back(to_mesh_array(a, {}));
      }
  } catch (const std::bad_alloc &) {
    *err = "out of memory reading the arrays";
    return -ENOMEM;
  }
  for (const MeshArray &a : m->point_data)
    if (a.tuples() != m->pts.size()) {
      *err = "point array '" + a.name + "' has " + std::to_string(a.tuples()) + " tuples for " +
             std::to_string(m->pts.size()) + " points";
      return -EINVAL;
    }
  for (const MeshArray &a : m->cell_data)
    if (a.tuples() != m->tets.size()) {
      *err = "cell array '" + a.name + "' has " + std::to_string(a.tuples()) + " tuples for " +
             std::to_string(m->tets.size()) + " cells";
      return -EINVAL;
    }
  return 0;
}

} // namespace iso
