/* apps/isosurface/io: the XML of VTK's parallel and piece files (see
 * pieces_xml.h), and the .pvtu index (read_pvtu_index, pieces.h). */
#include "pieces_shared.h"
#include "pieces_xml.h"
#include "vtk_quiet.h"

#include <vtkAbstractArray.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <unistd.h>

namespace iso {

/* The XML type name of values of VTK type t, as VTK's XML writers spell
 * it. */
std::string xml_type(int t) {
  const std::string bits = std::to_string(8 * vtkAbstractArray::GetDataTypeSize(t));
  switch (t) {
  case VTK_FLOAT:
  case VTK_DOUBLE: return "Float" + bits;
  case VTK_UNSIGNED_CHAR:
  case VTK_UNSIGNED_SHORT:
  case VTK_UNSIGNED_INT:
  case VTK_UNSIGNED_LONG:
  case VTK_UNSIGNED_LONG_LONG: return "UInt" + bits;
  case VTK_BIT: return "Bit";
  case VTK_STRING: return "String";
  default: return "Int" + bits;
  }
}

/* The directory part of path, with its slash ("" for none). */
std::string dir_of(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

/* Array element e as VTK's readers take it: its name, its type (the
 * attribute "type"), its components (1 if not said), inline ASCII (no
 * "offset" attribute and a format other than "binary"). */
XmlArray xml_array(vtkXMLDataElement *e) {
  XmlArray a;
  a.e = e;
  const char *n = e->GetAttribute("Name"), *t = e->GetAttribute("type");
  a.name = n ? n : "";
  if (!e->GetWordTypeAttribute("type", a.vtk_type)) a.vtk_type = 0;
  a.type = a.vtk_type ? xml_type(a.vtk_type) : t ? t : "";
  if (!e->GetScalarAttribute("NumberOfComponents", a.components)) a.components = 1;
  const char *format = e->GetAttribute("format");
  a.ascii = !e->GetAttribute("offset") && !(format && std::strcmp(format, "binary") == 0);
  return a;
}

std::vector<XmlArray> xml_arrays(vtkXMLDataElement *e, bool any_name) {
  std::vector<XmlArray> v;
  for (int i = 0; e && i < e->GetNumberOfNestedElements(); i++) {
    vtkXMLDataElement *a = e->GetNestedElement(i);
    if (any_name || std::strcmp(a->GetName(), "DataArray") == 0 ||
        std::strcmp(a->GetName(), "Array") == 0)
      v.push_back(xml_array(a));
  }
  return v;
}

/* The array of v named name, or null. */
const XmlArray *find_array(const std::vector<XmlArray> &v, const std::string &name) {
  for (const XmlArray &a : v)
    if (a.name == name) return &a;
  return nullptr;
}

/* The point arrays of a piece against those its index declares: "" if the
 * same (names, types, components), else what differs. */
std::string compare_arrays(const std::vector<XmlArray> &pd, const std::vector<ArrayDecl> &decl) {
  std::string diff;
  auto add = [&diff](const std::string &s) { diff += (diff.empty() ? "" : "; ") + s; };
  for (const ArrayDecl &d : decl) {
    const XmlArray *a = find_array(pd, d.name);
    if (!a) {
      add("array '" + d.name + "' missing");
      continue;
    }
    if (a->type != d.type) add("array '" + d.name + "' is " + a->type + ", not " + d.type);
    if (a->components != d.components)
      add("array '" + d.name + "' has " + std::to_string(a->components) + " components, not " +
          std::to_string(d.components));
  }
  for (const XmlArray &a : pd)
    if (std::none_of(decl.begin(), decl.end(),
                     [&](const ArrayDecl &d) { return d.name == a.name; }))
      add("array '" + a.name + "' not in the index");
  return diff;
}

/* True if VTK type t holds integers. */
bool integer_type(int t) {
  switch (t) {
    vtkTemplateMacro(return std::numeric_limits<VTK_TT>::is_integer);
  default: return false;
  }
}

/* True if VTK type t is a number (not a string, a bit or a variant). */
bool numeric_type(int t) {
  switch (t) {
    vtkTemplateMacro(return true);
  default: return false;
  }
}

bool has_extension(const std::string &path, const char *ext) {
  const size_t n = std::strlen(ext);
  if (path.size() <= n) return false;
  for (size_t i = 0; i < n; i++)
    if (std::tolower((unsigned char)path[path.size() - n + i]) !=
        std::tolower((unsigned char)ext[i]))
      return false;
  return true;
}

int read_pvtu_index(const std::string &path, PvtuIndex *out, std::string *err) {
  if (int rc = need_regular_file(path, err)) return rc;
  CaughtReader<vtkXMLDataParser> in(path);
  if (!in.r->Parse() || in.catcher->failed || !in.r->GetRootElement()) {
    *err = "'" + path + "' is not a readable XML file" + in.reason();
    return -EIO;
  }
  vtkXMLDataElement *root = in.r->GetRootElement();
  const char *type = root->GetAttribute("type");
  vtkXMLDataElement *grid = root->FindNestedElementWithName("PUnstructuredGrid");
  if (std::strcmp(root->GetName(), "VTKFile") != 0 || !type ||
      std::strcmp(type, "PUnstructuredGrid") != 0 || !grid) {
    *err = "'" + path + "' is not a .pvtu index (VTKFile of type PUnstructuredGrid)";
    return -EPROTO;
  }
  PvtuIndex idx;
  idx.path = path;
  const std::string dir = dir_of(path);
  for (int i = 0; i < grid->GetNumberOfNestedElements(); i++) {
    vtkXMLDataElement *e = grid->GetNestedElement(i);
    if (std::strcmp(e->GetName(), "Piece") == 0) {
      const char *src = e->GetAttribute("Source");
      if (!src || !*src) {
        *err = "'" + path + "': piece " + std::to_string(idx.pieces.size()) + " has no Source";
        return -EPROTO;
      }
      idx.pieces.push_back(src[0] == '/' ? std::string(src) : dir + src);
    } else if (std::strcmp(e->GetName(), "PPointData") == 0) {
      if (const char *sc = e->GetAttribute("Scalars")) idx.scalars = sc;
      for (int j = 0; j < e->GetNumberOfNestedElements(); j++) {
        vtkXMLDataElement *a = e->GetNestedElement(j);
        const char *name = a->GetAttribute("Name"), *t = a->GetAttribute("type");
        if (std::strcmp(a->GetName(), "PDataArray") != 0 || !name || !t) {
          *err = "'" + path + "': point array " + std::to_string(j) + " has no Name or type";
          return -EPROTO;
        }
        ArrayDecl d;
        d.name = name;
        d.type = t;
        if (!a->GetScalarAttribute("NumberOfComponents", d.components)) d.components = 1;
        idx.arrays.push_back(d);
      }
    }
  }
  if (idx.pieces.empty()) {
    *err = "'" + path + "' lists no pieces";
    return -EINVAL;
  }
  *out = std::move(idx);
  return 0;
}

int check_piece_arrays(const std::string &index, vtkXMLDataElement *top, const std::string &file,
                       const char *type, std::string *err) {
  CaughtReader<vtkXMLDataParser> in(file);
  if (!in.r->Parse() || in.catcher->failed || !in.r->GetRootElement()) return 0;
  vtkXMLDataElement *data = in.r->GetRootElement()->FindNestedElementWithName(type);
  for (int i = 0; data && i < data->GetNumberOfNestedElements(); i++) {
    vtkXMLDataElement *piece = data->GetNestedElement(i);
    if (std::strcmp(piece->GetName(), "Piece") != 0) continue;
    for (const char *kind : {"PointData", "CellData", "Points"}) {
      /* Every nested element, whatever its name: VTK 9.1's parallel
       * readers make an array of each (a misspelt <PFataArray> too) and
       * copy the piece's into it by name with memcpy. */
      const std::vector<XmlArray> decl =
          xml_arrays(top->FindNestedElementWithName((std::string("P") + kind).c_str()), true);
      const bool points = std::strcmp(kind, "Points") == 0;
      for (const XmlArray &a : xml_arrays(piece->FindNestedElementWithName(kind), true)) {
        /* The points: the first array of each, whatever its name. */
        const XmlArray *d = points ? (decl.empty() ? nullptr : &decl[0]) : find_array(decl, a.name);
        if (!d || (d->type == a.type && d->components == a.components)) continue;
        *err = "'" + index + "': its piece '" + printable(file, 80) + "' holds " + kind +
               " array '" + printable(a.name, 80) + "' as " + printable(a.type, 20) + " of " +
               std::to_string(a.components) + " component(s), the index declares " +
               printable(d->type, 20) + " of " + std::to_string(d->components);
        return -EPROTO;
      }
    }
  }
  return 0;
}

int check_pvtp_index(const std::string &path, std::string *err) {
  CaughtReader<vtkXMLDataParser> in(path);
  if (!in.r->Parse() || in.catcher->failed || !in.r->GetRootElement()) return 0;
  vtkXMLDataElement *grid = in.r->GetRootElement()->FindNestedElementWithName("PPolyData");
  for (int i = 0; grid && i < grid->GetNumberOfNestedElements(); i++) {
    vtkXMLDataElement *e = grid->GetNestedElement(i);
    const char *src = e->GetAttribute("Source");
    if (std::strcmp(e->GetName(), "Piece") == 0 && src && *src) {
      const std::string piece = src[0] == '/' ? std::string(src) : dir_of(path) + src;
      if (access(piece.c_str(), R_OK) == 0) {
        if (int rc = check_file(piece, FileFormat::Vtp, err)) {
          *err = "piece of '" + path + "': " + *err;
          return rc;
        }
        if (int rc = check_piece_arrays(path, grid, piece, "PolyData", err)) return rc;
      }
    }
    const bool points = std::strcmp(e->GetName(), "PPoints") == 0;
    for (int j = 0; j < e->GetNumberOfNestedElements(); j++) {
      int n = 1;
      if (!e->GetNestedElement(j)->GetScalarAttribute("NumberOfComponents", n)) n = points ? 3 : 1;
      if (n < 1 || (points && n != 3)) {
        *err = "'" + path + "': " + e->GetName() + " declares an array of " + std::to_string(n) +
               " components" + (points ? ", not 3" : "");
        return -EPROTO;
      }
    }
  }
  return 0;
}

} // namespace iso
