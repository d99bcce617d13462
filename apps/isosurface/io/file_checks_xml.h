/* apps/isosurface/io: what the checks of an XML file share (see file_checks.h):
 * file_checks_xml.cpp (its tags' counts and extents, the headers of its
 * binary and appended arrays) and file_checks_cells.cpp (the values of its
 * cell offsets). Internal to the app; no VTK. */
#ifndef APPS_ISOSURFACE_IO_FILE_CHECKS_XML_H
#define APPS_ISOSURFACE_IO_FILE_CHECKS_XML_H

#include "file_checks_shared.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

namespace iso {
namespace checks {

/* The value of attribute name in tag (the text between '<' and '>'). */
inline bool xml_attr(const std::string &tag, const char *name, std::string *value) {
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

/* The next n header words of d (word bytes each, in the file's byte order)
 * into out; false if the data ends first. */
inline bool xml_words(XmlData &d, size_t n, size_t word, bool big_endian,
                      std::vector<uint64_t> *out) {
  std::vector<unsigned char> b;
  if (!d.take(n * word, &b)) return false;
  out->assign(n, 0);
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < word; k++)
      (*out)[i] = (*out)[i] << 8 | b[i * word + (big_endian ? k : word - 1 - k)];
  return true;
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

/* How VTK 9.1 reads an array element's data (vtkXMLReader's
 * ReadArrayValues): appended when the element has an offset attribute,
 * whatever its format; else inline base64 when its format is "binary";
 * else inline ascii, whatever its format. */
enum class XmlFormat { Ascii, Binary, Appended };
inline XmlFormat xml_format(const std::string &tag) {
  std::string v;
  if (xml_attr(tag, "offset", &v)) return XmlFormat::Appended;
  return xml_attr(tag, "format", &v) && v == "binary" ? XmlFormat::Binary : XmlFormat::Ascii;
}

/* Where the binary data of an array element whose content starts at pos
 * lies, from its header on: inline base64 (XmlFormat::Binary, up to the
 * next markup) or in the appended data (XmlFormat::Appended, from its
 * offset to the end of the file); false for ascii data, an element without
 * content, or an offset that is not a count or is past the data
 * (xml_array_tag refuses those). */
inline bool xml_binary_data(const std::string &text, const std::string &tag, size_t pos,
                            const XmlLayout &l, size_t *start, size_t *end, bool *base64) {
  const XmlFormat f = xml_format(tag);
  if (f == XmlFormat::Binary && !tag.empty() && tag.back() != '/') {
    *start = pos;
    *end = std::min(text.find('<', pos), l.markup_end);
    *base64 = true;
    return true;
  }
  std::string v;
  uint64_t offset = 0;
  if (f != XmlFormat::Appended || !xml_attr(tag, "offset", &v) || !parse_count(v, &offset) ||
      l.appended == std::string::npos || offset > text.size() - l.appended)
    return false;
  *start = l.appended + (size_t)offset;
  *end = text.size();
  *base64 = l.appended_b64;
  return true;
}

/* An array element inside a cell section: its tag (the text between '<'
 * and '>') and where its content starts. */
struct XmlArrayTag {
  std::string tag;
  size_t pos;
};

/* A piece's cell section, as VTK 9.1's vtkXMLUnstructuredDataReader reads
 * it (ReadCellArray): <Cells> of a .vtu, <Verts>, <Lines>, <Strips> or
 * <Polys> of a .vtp; cells: what the piece declares for it (NumberOfCells,
 * NumberOfVerts...), the arrays directly inside it. */
struct CellSection {
  std::string name;
  uint64_t cells = 0;
  std::vector<XmlArrayTag> arrays;
};

/* The values VTK 9.1 trusts in a cell section (file_checks_cells.cpp): its
 * first `cells` offsets (each "offsets" array's) non-negative, non-decreasing,
 * present, and the last at most the values of its largest "connectivity"
 * array (VTK allocates the last offset's count of ids before reading them);
 * a .vtu's "faceoffsets" likewise against its "faces", which must hold the
 * face lists the offsets announce. 0, or -EINVAL and the message (r). */
int check_cell_section(Report &r, const std::string &text, const XmlLayout &l,
                       const CellSection &s);

} // namespace checks
} // namespace iso

#endif /* APPS_ISOSURFACE_IO_FILE_CHECKS_XML_H */
