/* apps/isosurface/io: the checks of an XML .vtu/.vti/.vts/.vtr/.vtp file (see
 * file_checks.h): the counts and extents its tags declare, the headers of
 * its binary and appended arrays, its cell sections (checked by
 * file_checks_cells.cpp). */
#include "file_checks_xml.h"
#include "file_checks.h"
#include "file_checks_shared.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstring>

namespace iso {
namespace checks {

namespace {

/* The points of an extent attribute "x0 x1 y0 y1 z0 z1" (0 if empty), its
 * bounds in e. */
int extent_points(Report &r, const char *name, const std::string &v, uint64_t *out, int64_t e[6]) {
  const std::vector<std::string> tok = split_ws(v);
  if (tok.size() != 6) return r.fail(std::string(name) + ": expected 6 integers, got '" + v + "'");
  for (int k = 0; k < 6; k++)
    if (!parse_signed(tok[(size_t)k], &e[k]) || e[k] < INT32_MIN || e[k] > INT32_MAX)
      return r.fail(std::string(name) + ": expected 6 32-bit integers, got '" + v + "'");
  uint64_t n = 1;
  for (int k = 0; k < 3; k++) {
    const int64_t d = e[2 * k + 1] - e[2 * k] + 1;
    if (d <= 0) {
      *out = 0;
      return 0;
    }
    if (__builtin_mul_overflow(n, (uint64_t)d, &n)) n = UINT64_MAX;
  }
  *out = n;
  return 0;
}

/* The header of an XML array's binary data (the header_type words: the
 * byte count, or with a compressor the block count, block size, last block
 * size and each block's compressed size), checked against what follows
 * (VTK 9.1 allocates a compressed block's size before reading it). */
int xml_block_header(Report &r, const std::string &what, XmlData d, bool compressed, size_t word,
                     bool big_endian, uint64_t file_size) {
  auto words = [&](size_t n, std::vector<uint64_t> *out) {
    return xml_words(d, n, word, big_endian, out);
  };
  std::vector<uint64_t> h;
  if (!compressed) {
    if (!words(1, &h)) return r.fail(what + ": the data ends in its header");
    if (h[0] > d.left())
      return r.fail(what + ": its header declares " + std::to_string(h[0]) + " bytes, " +
                    std::to_string(d.left()) + " follow");
    return 0;
  }
  if (!words(3, &h)) return r.fail(what + ": the data ends in its compression header");
  const uint64_t nblocks = h[0], block = h[1], last = h[2];
  if (nblocks > file_size / word)
    return r.fail(what + ": " + std::to_string(nblocks) + " compressed blocks in a file of " +
                  std::to_string(file_size) + " bytes");
  if (block > compression_ratio * file_size || last > block)
    return r.fail(what + ": compressed block size " + std::to_string(block) + " (last " +
                  std::to_string(last) + ") is more than the file can hold");
  std::vector<uint64_t> sizes;
  if (!words((size_t)nblocks, &sizes)) return r.fail(what + ": the data ends in its block sizes");
  uint64_t total = 0;
  for (uint64_t s : sizes)
    if (s > file_size || (total += s) > d.left())
      return r.fail(what + ": compressed blocks of " + std::to_string(s) +
                    " bytes, more than the data holds");
  return 0;
}

XmlLayout xml_layout(const std::string &text, uint64_t file_size) {
  XmlLayout l;
  l.markup_end = std::min(text.find("<AppendedData"), text.size());
  l.compressed = text.find("compressor=") < l.markup_end;
  l.limit = (l.compressed ? compression_ratio : values_per_byte) * file_size;
  std::string v;
  const size_t root = text.find("<VTKFile");
  const std::string root_tag =
      root < l.markup_end ? text.substr(root, std::min(text.find('>', root), l.markup_end) - root)
                          : "";
  l.word = xml_attr(root_tag, "header_type", &v) && v == "UInt64" ? 8 : 4;
  l.big_endian = xml_attr(root_tag, "byte_order", &v) && v == "BigEndian";
  if (l.markup_end < text.size()) {
    const size_t gt = text.find('>', l.markup_end);
    const std::string tag =
        text.substr(l.markup_end, gt == std::string::npos ? 0 : gt - l.markup_end);
    l.appended_b64 = !(xml_attr(tag, "encoding", &v) && v == "raw");
    const size_t us = gt == std::string::npos ? gt : text.find('_', gt);
    if (us != std::string::npos) l.appended = us + 1;
  }
  return l;
}

/* The WholeExtent of the file's dataset tag, once read. */
struct Whole {
  bool set = false;
  int64_t e[6];
};

/* The counts a piece declares: its points and cells, whichever is larger
 * (its arrays hold at most that many tuples), and the cells of each cell
 * section (the .vtu's NumberOfCells, the .vtp's NumberOfVerts...). */
struct PieceCounts {
  uint64_t largest = 0;
  uint64_t cells[5] = {0, 0, 0, 0, 0};
};

/* The cell sections VTK 9.1 reads with ReadCellArray and the attribute of
 * <Piece> that gives each its number of cells. */
const char *const section_names[5] = {"Cells", "Verts", "Lines", "Strips", "Polys"};
const char *const section_counts[5] = {"NumberOfCells", "NumberOfVerts", "NumberOfLines",
                                       "NumberOfStrips", "NumberOfPolys"};

/* A <Piece>, <ImageData>, <StructuredGrid> or <RectilinearGrid> tag: its
 * counts and extents into *piece. A piece's non-empty Extent must lie
 * inside the WholeExtent (VTK 9.1's readers size arrays by their
 * difference). */
int xml_piece_tag(Report &r, const std::string &tag, uint64_t limit, PieceCounts *piece,
                  Whole *whole) {
  std::string v;
  uint64_t n = 0;
  int rc = 0;
  if (tag.compare(0, 5, "Piece") == 0) *piece = PieceCounts();
  for (int k = -1; k < 5; k++) {
    const char *name = k < 0 ? "NumberOfPoints" : section_counts[k];
    if (rc || !xml_attr(tag, name, &v)) continue;
    if (!parse_count(v, &n))
      rc = r.fail(std::string(name) + ": expected a non-negative integer, got '" + v + "'");
    else if (!(rc = r.values(name, n, limit)))
      piece->largest = std::max(piece->largest, n);
    if (!rc && k >= 0) piece->cells[k] = n;
  }
  for (const char *name : {"Extent", "WholeExtent"}) {
    int64_t e[6];
    if (rc || !xml_attr(tag, name, &v) || (rc = extent_points(r, name, v, &n, e)) ||
        (rc = r.values(name, n, limit)))
      continue;
    if (std::strcmp(name, "WholeExtent") == 0) {
      whole->set = true;
      std::copy(e, e + 6, whole->e);
      continue;
    }
    piece->largest = std::max(piece->largest, n);
    for (int k = 0; k < 3 && n > 0 && whole->set; k++)
      if (e[2 * k] < whole->e[2 * k] || e[2 * k + 1] > whole->e[2 * k + 1])
        rc = r.fail("Extent '" + v + "' lies outside the WholeExtent");
  }
  return rc;
}

/* A <DataArray> or <Array> tag whose element's content starts at pos: its
 * counts (piece: the current piece's), the header of its binary data. */
int xml_array_tag(Report &r, const std::string &text, const std::string &tag, size_t pos,
                  const XmlLayout &l, uint64_t piece, uint64_t file_size) {
  std::string v;
  uint64_t n = 0, m = 1;
  int rc = 0;
  if (xml_attr(tag, "NumberOfComponents", &v) && (!parse_count(v, &m) || m < 1))
    rc = r.fail("NumberOfComponents: expected a positive integer, got '" + v + "'");
  if (!rc && xml_attr(tag, "NumberOfTuples", &v)) {
    if (!parse_count(v, &n))
      rc = r.fail("NumberOfTuples: expected a non-negative integer, got '" + v + "'");
    else
      rc = r.values("NumberOfTuples", product({n, m}, &n) ? n : UINT64_MAX, l.limit);
  }
  if (!rc) rc = r.values("a DataArray", product({piece, m}, &n) ? n : UINT64_MAX, l.limit);
  std::string name;
  xml_attr(tag, "Name", &name);
  const std::string what = "DataArray '" + name.substr(0, 40) + "'";
  const XmlFormat format = xml_format(tag);
  if (rc || format == XmlFormat::Ascii || (format == XmlFormat::Binary && tag.back() == '/'))
    return rc;
  uint64_t offset = 0;
  if (format == XmlFormat::Appended) {
    if (!xml_attr(tag, "offset", &v) || !parse_count(v, &offset))
      return r.fail(what + ": appended data without a valid offset");
    if (l.appended == std::string::npos || offset > text.size() - l.appended)
      return r.fail(what + ": offset " + v + " is past the appended data");
  }
  size_t start = 0, end = 0;
  bool b64 = false;
  xml_binary_data(text, tag, pos, l, &start, &end, &b64);
  return xml_block_header(r, what, XmlData(text, start, end, b64), l.compressed, l.word,
                          l.big_endian, file_size);
}

/* The cell sections of an XML file as its tags are met: each is checked
 * (check_cell_section) once its element ends, after the headers of its
 * arrays. */
class Sections {
public:
  /* The tag opens or closes a section, or is an array inside one: 0, or
   * check_cell_section's error when a section ends. */
  int tag(Report &r, const std::string &text, const XmlLayout &l, const std::string &tag,
          size_t pos, const PieceCounts &piece) {
    const bool closing = !tag.empty() && tag[0] == '/';
    const int k = section_of(closing ? tag.substr(1) : tag);
    if (k >= 0 || tag.compare(closing ? 1 : 0, 5, "Piece") == 0) {
      const int rc = end(r, text, l);
      if (rc || k < 0 || closing || tag.back() == '/') return rc;
      open_ = true;
      s_.name = section_names[k];
      s_.cells = piece.cells[k];
      s_.arrays.clear();
      return 0;
    }
    if (open_ && (tag.compare(0, 9, "DataArray") == 0 || tag.compare(0, 5, "Array") == 0))
      s_.arrays.push_back(XmlArrayTag{tag, pos});
    return 0;
  }
  /* The open section, if any, ends: checked. */
  int end(Report &r, const std::string &text, const XmlLayout &l) {
    if (!open_) return 0;
    open_ = false;
    return check_cell_section(r, text, l, s_);
  }

private:
  /* The section a tag names (its first word), or -1. */
  static int section_of(const std::string &tag) {
    const size_t len = std::min(tag.find_first_of(" \t\r\n/"), tag.size());
    for (int k = 0; k < 5; k++)
      if (tag.compare(0, len, section_names[k]) == 0) return k;
    return -1;
  }
  bool open_ = false;
  CellSection s_;
};

} // namespace

int check_xml(const std::string &path, const Mapped &f, std::string *err) {
  Report r{path, err};
  const std::string text(f.data() ? f.data() : "", f.size());
  const XmlLayout l = xml_layout(text, (uint64_t)f.size());
  PieceCounts piece;
  Whole whole;
  Sections sections;
  size_t pos = 0;
  while (pos < l.markup_end) {
    const size_t lt = text.find('<', pos);
    if (lt == std::string::npos || lt >= l.markup_end) break;
    const size_t gt = text.find('>', lt);
    if (gt == std::string::npos) break;
    const std::string tag = text.substr(lt + 1, gt - lt - 1);
    pos = gt + 1;
    int rc = 0;
    if (tag.compare(0, 5, "Piece") == 0 || tag.compare(0, 9, "ImageData") == 0 ||
        tag.compare(0, 14, "StructuredGrid") == 0 || tag.compare(0, 15, "RectilinearGrid") == 0)
      rc = xml_piece_tag(r, tag, l.limit, &piece, &whole);
    else if (tag.compare(0, 9, "DataArray") == 0 || tag.compare(0, 5, "Array") == 0)
      rc = xml_array_tag(r, text, tag, pos, l, piece.largest, f.size());
    if (rc || (rc = sections.tag(r, text, l, tag, pos, piece))) return rc;
  }
  return sections.end(r, text, l);
}

} // namespace checks
} // namespace iso
