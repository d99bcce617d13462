/* apps/isosurface/io: the XML of VTK's parallel and piece files as the
 * readers of pieces.cpp read it (their data arrays, the values of a range
 * of them): internal to the app, used by pieces.cpp only. */
#ifndef APPS_ISOSURFACE_IO_PIECES_XML_H
#define APPS_ISOSURFACE_IO_PIECES_XML_H

#include "pieces.h"

#include <vtkType.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>

#include <cstdint>
#include <string>
#include <vector>

namespace iso {

/* A data array of a piece file, as its XML element declares it. */
struct XmlArray {
  vtkXMLDataElement *e = nullptr;
  std::string name;
  std::string type; /* as xml_type() spells it, or the attribute VTK does not know */
  int vtk_type = 0; /* 0: not a type VTK knows */
  int components = 1;
  bool ascii = false; /* inline ASCII: VTK's parser parses it whole (again when another array
                       * was read in between): read in one chunk */
};

/* The XML type name of values of VTK type t, as VTK's XML writers spell
 * it. */
std::string xml_type(int t);

/* The directory part of path, with its slash ("" for none). */
std::string dir_of(const std::string &path);

/* Array element e as VTK's readers take it: its name, its type (the
 * attribute "type"), its components (1 if not said), inline ASCII (no
 * "offset" attribute and a format other than "binary"). */
XmlArray xml_array(vtkXMLDataElement *e);

/* The arrays nested in element e (PointData, Points, Cells; null: none):
 * its DataArray and Array (strings) elements; with any_name, every nested
 * element, as VTK's parallel readers take them (an index's PDataArray and
 * PArray declarations, and misspelt ones). */
std::vector<XmlArray> xml_arrays(vtkXMLDataElement *e, bool any_name = false);

/* The array of v named name, or null. */
const XmlArray *find_array(const std::vector<XmlArray> &v, const std::string &name);

/* The point arrays of a piece against those its index declares: "" if the
 * same (names, types, components), else what differs. */
std::string compare_arrays(const std::vector<XmlArray> &pd, const std::vector<ArrayDecl> &decl);

/* True if VTK type t holds integers. */
bool integer_type(int t);

/* True if VTK type t is a number (not a string, a bit or a variant). */
bool numeric_type(int t);

/* Values [start, start + n) of array a (all its components flattened)
 * through parser p (appended or inline, raw, base64 or compressed, as the
 * file says), converted to T in out. `raw` is the reused read buffer.
 * False if fewer values could be read (a truncated or corrupt array). */
template <class T>
inline bool read_values(vtkXMLDataParser *p, const XmlArray &a, uint64_t start, size_t n,
                        std::vector<unsigned char> &raw, T *out) {
  if (n == 0) return true;
  raw.resize(n * p->GetWordTypeSize(a.vtk_type));
  size_t got;
  if (a.e->GetAttribute("offset")) {
    long long offset = 0;
    if (!a.e->GetScalarAttribute("offset", offset)) return false;
    got = p->ReadAppendedData(offset, raw.data(), start, n, a.vtk_type);
  } else {
    got = p->ReadInlineData(a.e, a.ascii, raw.data(), start, n, a.vtk_type);
  }
  if (got != n) return false;
  switch (a.vtk_type) {
    vtkTemplateMacro({
      const VTK_TT *v = reinterpret_cast<const VTK_TT *>(raw.data());
      for (size_t i = 0; i < n; i++) out[i] = static_cast<T>(v[i]);
    });
  default: return false;
  }
  return true;
}

/* The arrays of piece file `file` (its <type> element's pieces: type
 * "ImageData", "PolyData") against those the parallel index at `index`
 * declares in its element `top` (PImageData, PPolyData): an array both
 * name, in PPointData and PointData or PCellData and CellData, and the
 * points' (the first array of PPoints and Points), must have the same
 * type and components, else VTK 9.1's parallel readers copy the
 * piece's values into an array sized by the index's declaration (a heap
 * overflow of vtkXMLPStructuredDataReader::CopyArrayForPoints). Arrays only
 * one of them names are VTK's to handle. 0, or -EPROTO and a line naming
 * both files; a piece VTK's parser cannot parse passes (its reader then
 * says why). */
int check_piece_arrays(const std::string &index, vtkXMLDataElement *top, const std::string &file,
                       const char *type, std::string *err);

/* What VTK's .pvtp reader (vtkXMLPPolyDataReader, VTK 9.1) does not check
 * and crashes or stalls on, checked in the index at path before it runs:
 * 0, or -EPROTO and a line naming the file when its points are declared
 * with other than 3 components or an array with fewer than 1, or
 * check_file's error on a piece it lists (named), or check_piece_arrays'
 * on each piece. An index VTK's parser
 * cannot read passes (the reader then says why), as do missing pieces. */
int check_pvtp_index(const std::string &path, std::string *err);

} // namespace iso

#endif /* APPS_ISOSURFACE_IO_PIECES_XML_H */
