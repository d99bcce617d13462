/* apps/isosurface/io: the checks of an XML .vtu/.vti file (see file_checks.h):
 * the counts and extents its tags declare, the headers of its binary and
 * appended arrays. */
#include "file_checks.h"
#include "file_checks_shared.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstring>

namespace iso {
namespace checks {

namespace {

/* The value of attribute name in tag (the text between '<' and '>'). */
bool xml_attr(const std::string &tag, const char *name, std::string *value) {
  const std::string key = std::string(name) + "=";
  size_t p = 0;
  while ((p = tag.find(key, p)) != std::string::npos) {
    const bool word_start = p > 0 && std::isspace((unsigned char)tag[p - 1]);
    p += key.size();
    if (!word_start || p >= tag.size() || (tag[p] != '"' && tag[p] != '\'')) continue;
    const size_t end = tag.find(tag[p], p + 1);
    if (end == std::string::npos) return false;
    *value = tag.substr(p + 1, end - p - 1);
    return true;
  }
  return false;
}

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

/* The binary data of one XML array: raw bytes of the file, or base64
 * text (whitespace skipped, '=' padding ends a group: VTK encodes a
 * compressed array's header and its blocks as separate base64 strings). */
class XmlData {
public:
  XmlData(const std::string &text, size_t pos, size_t end, bool base64)
      : t_(text), pos_(pos), end_(std::min(end, text.size())), b64_(base64) {}
  /* The next n bytes into out; false if the data ends first. */
  bool take(size_t n, std::vector<unsigned char> *out) {
    out->clear();
    if (!b64_) {
      if (pos_ > end_ || n > end_ - pos_) return false;
      out->assign(t_.begin() + (long)pos_, t_.begin() + (long)(pos_ + n));
      pos_ += n;
      return true;
    }
    while (out->size() < n) {
      if (pending_.empty() && !group()) return false;
      out->push_back(pending_.front());
      pending_.erase(pending_.begin());
    }
    return true;
  }
  /* An upper bound of the bytes left. */
  uint64_t left() const {
    const uint64_t chars = pos_ < end_ ? end_ - pos_ : 0;
    return b64_ ? chars / 4 * 3 + pending_.size() : chars;
  }

private:
  /* Decode one group of 4 characters into pending_. */
  bool group() {
    int v[4], n = 0, pad = 0;
    while (n < 4 && pos_ < end_) {
      const unsigned char c = (unsigned char)t_[pos_++];
      if (std::isspace(c)) continue;
      int d = c >= 'A' && c <= 'Z'   ? c - 'A'
              : c >= 'a' && c <= 'z' ? c - 'a' + 26
              : c >= '0' && c <= '9' ? c - '0' + 52
              : c == '+'             ? 62
              : c == '/'             ? 63
              : c == '='             ? -2
                                     : -1;
      if (d == -1) return false;
      if (d == -2) {
        pad++;
        d = 0;
      } else if (pad) {
        return false;
      }
      v[n++] = d;
    }
    if (n < 4) return false;
    const unsigned w = (unsigned)(v[0] << 18 | v[1] << 12 | v[2] << 6 | v[3]);
    const unsigned char bytes[3] = {(unsigned char)(w >> 16), (unsigned char)(w >> 8),
                                    (unsigned char)w};
    pending_.insert(pending_.end(), bytes, bytes + 3 - std::min(pad, 2));
    return true;
  }
  const std::string &t_;
  size_t pos_, end_;
  bool b64_;
  std::vector<unsigned char> pending_;
};

/* The header of an XML array's binary data (the header_type words: the
 * byte count, or with a compressor the block count, block size, last block
 * size and each block's compressed size), checked against what follows
 * (VTK 9.1 allocates a compressed block's size before reading it). */
int xml_block_header(Report &r, const std::string &what, XmlData d, bool compressed, size_t word,
                     bool big_endian, uint64_t file_size) {
  std::vector<unsigned char> b;
  auto words = [&](size_t n, std::vector<uint64_t> *out) {
    if (!d.take(n * word, &b)) return false;
    out->assign(n, 0);
    for (size_t i = 0; i < n; i++)
      for (size_t k = 0; k < word; k++) {
        const unsigned char byte = b[i * word + (big_endian ? k : word - 1 - k)];
        (*out)[i] = (*out)[i] << 8 | byte;
      }
    return true;
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

/* How an XML file's data is laid out: from its root element's attributes
 * and its <AppendedData>. */
struct XmlLayout {
  size_t markup_end = 0;               /* the data appended after <AppendedData> is not markup */
  bool compressed = false;             /* a compressor declared (the root element's attribute) */
  uint64_t limit = 0;                  /* the most values the file can hold */
  size_t word = 4;                     /* the binary data's header words (header_type) */
  bool big_endian = false;             /* and their byte order */
  size_t appended = std::string::npos; /* the appended data (after the '_' that follows
                                        * <AppendedData>) */
  bool appended_b64 = false;
};

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

/* A <Piece>, <ImageData>, <StructuredGrid> or <RectilinearGrid> tag: its
 * counts and extents; *piece: the current piece's points or cells,
 * whichever is larger. A piece's non-empty Extent must lie inside the
 * WholeExtent (VTK 9.1's readers size arrays by their difference). */
int xml_piece_tag(Report &r, const std::string &tag, uint64_t limit, uint64_t *piece,
                  Whole *whole) {
  std::string v;
  uint64_t n = 0;
  int rc = 0;
  if (tag.compare(0, 5, "Piece") == 0) *piece = 0;
  for (const char *name : {"NumberOfPoints", "NumberOfCells"})
    if (!rc && xml_attr(tag, name, &v)) {
      if (!parse_count(v, &n))
        rc = r.fail(std::string(name) + ": expected a non-negative integer, got '" + v + "'");
      else if (!(rc = r.values(name, n, limit)))
        *piece = std::max(*piece, n);
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
    *piece = std::max(*piece, n);
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
  std::string format, name;
  xml_attr(tag, "Name", &name);
  const std::string what = "DataArray '" + name.substr(0, 40) + "'";
  if (!rc && xml_attr(tag, "format", &format) && format == "binary" && tag.back() != '/') {
    const size_t close = text.find('<', pos);
    return xml_block_header(r, what, XmlData(text, pos, std::min(close, l.markup_end), true),
                            l.compressed, l.word, l.big_endian, file_size);
  }
  if (rc || format != "appended") return rc;
  uint64_t offset = 0;
  if (!xml_attr(tag, "offset", &v) || !parse_count(v, &offset))
    return r.fail(what + ": appended data without a valid offset");
  if (l.appended == std::string::npos || offset > text.size() - l.appended)
    return r.fail(what + ": offset " + v + " is past the appended data");
  return xml_block_header(r, what,
                          XmlData(text, l.appended + (size_t)offset, text.size(), l.appended_b64),
                          l.compressed, l.word, l.big_endian, file_size);
}

} // namespace

int check_xml(const std::string &path, const Mapped &f, std::string *err) {
  Report r{path, err};
  const std::string text(f.data() ? f.data() : "", f.size());
  const XmlLayout l = xml_layout(text, (uint64_t)f.size());
  uint64_t piece = 0; /* the current piece's points or cells, whichever is larger */
  Whole whole;
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
      rc = xml_array_tag(r, text, tag, pos, l, piece, f.size());
    if (rc) return rc;
  }
  return 0;
}

} // namespace checks
} // namespace iso
