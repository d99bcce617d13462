/* apps/isosurface/io: the values of an XML file's cell sections that VTK
 * 9.1 trusts (see check_cell_section in file_checks_xml.h): the cell
 * offsets, decoded from ascii, base64 or raw bytes, zlib-compressed or not,
 * and the number of values of the arrays they index. */
#include "file_checks_xml.h"
#include "file_checks_shared.h"

#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace iso {
namespace checks {

namespace {

/* An XML array's value type: bytes per value, and signed integer ('i'),
 * unsigned integer ('u') or floating point ('f'). */
struct ValueType {
  size_t size;
  char kind;
};

/* The type named by an array's type attribute; false for a type VTK does
 * not read as numbers (its reader then refuses the array itself). */
bool value_type(const std::string &tag, ValueType *t) {
  static const struct {
    const char *name;
    ValueType t;
  } types[] = {{"Int8", {1, 'i'}},    {"UInt8", {1, 'u'}},  {"Int16", {2, 'i'}},
               {"UInt16", {2, 'u'}},  {"Int32", {4, 'i'}},  {"UInt32", {4, 'u'}},
               {"Int64", {8, 'i'}},   {"UInt64", {8, 'u'}}, {"Float32", {4, 'f'}},
               {"Float64", {8, 'f'}}, {"Char", {1, 'i'}},   {"UChar", {1, 'u'}}};
  std::string v;
  if (!xml_attr(tag, "type", &v)) return false;
  for (const auto &e : types)
    if (v == e.name) {
      *t = e.t;
      return true;
    }
  return false;
}

/* The value of t.size bytes at b (in the file's byte order), as a double
 * (exact for the integers that matter here: counts below 2^53). */
double value_of(const unsigned char *b, ValueType t, bool big_endian) {
  uint64_t u = 0;
  for (size_t k = 0; k < t.size; k++) u = u << 8 | b[big_endian ? k : t.size - 1 - k];
  if (t.kind == 'u') return (double)u;
  if (t.kind == 'i') {
    const unsigned unused = (unsigned)(64 - 8 * t.size);
    return (double)((int64_t)(u << unused) >> unused);
  }
  if (t.size == 4) {
    const uint32_t w = (uint32_t)u;
    float f;
    std::memcpy(&f, &w, sizeof f);
    return f;
  }
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

/* Bytes to values: whole values go to f (false from f stops), a value
 * split between two chunks waits for the next. */
template <class F>
class ValueFeed {
public:
  ValueFeed(ValueType t, bool big_endian, F &f) : t_(t), big_(big_endian), f_(f) {}
  /* The next n bytes at p; false once f has stopped. */
  bool bytes(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n && going_; i++) {
      part_[fill_++] = p[i];
      if (fill_ == t_.size) {
        fill_ = 0;
        going_ = f_(value_of(part_, t_, big_));
      }
    }
    return going_;
  }

private:
  ValueType t_;
  bool big_;
  F &f_;
  unsigned char part_[8];
  size_t fill_ = 0;
  bool going_ = true;
};

constexpr size_t chunk_bytes = 1 << 16;

/* The data bytes of an uncompressed binary array after its header into
 * feed; "" or what is wrong. */
template <class Feed>
std::string raw_bytes(XmlData &d, uint64_t nbytes, Feed &feed) {
  std::vector<unsigned char> b;
  for (uint64_t done = 0; done < nbytes;) {
    const size_t n = (size_t)std::min<uint64_t>(chunk_bytes, nbytes - done);
    if (!d.take(n, &b))
      return "its data ends before the " + std::to_string(nbytes) +
             " bytes "
             "its header declares";
    if (!feed.bytes(b.data(), n)) return "";
    done += n;
  }
  return "";
}

/* One zlib-compressed block of `size` compressed bytes into feed, `want`
 * bytes once decompressed; "" or what is wrong. */
template <class Feed>
std::string inflate_block(XmlData &d, z_stream &z, uint64_t size, uint64_t want, Feed &feed,
                          bool *stopped) {
  std::vector<unsigned char> in, out(chunk_bytes);
  if (!d.take((size_t)size, &in)) return "its compressed data ends early";
  if (inflateReset(&z) != Z_OK) return "zlib cannot start";
  z.next_in = in.data();
  z.avail_in = (uInt)in.size();
  uint64_t produced = 0;
  int zr = Z_OK;
  while (produced < want && zr == Z_OK) {
    z.next_out = out.data();
    z.avail_out = (uInt)std::min<uint64_t>(out.size(), want - produced);
    const uInt room = z.avail_out;
    zr = inflate(&z, Z_NO_FLUSH);
    const size_t got = room - z.avail_out;
    if (zr != Z_OK && zr != Z_STREAM_END) break;
    produced += got;
    if (!feed.bytes(out.data(), got)) {
      *stopped = true;
      return "";
    }
    if (got == 0 && zr == Z_OK) zr = Z_DATA_ERROR; /* no progress: the input is cut */
  }
  if (produced < want)
    return "a compressed block decompresses to " + std::to_string(produced) + " bytes, not the " +
           std::to_string(want) + " its header declares";
  return "";
}

/* A binary or appended array's values (the data at d, its header first)
 * into f; *count: the values its header declares; with f == nullptr only
 * the header is read. "" or what is wrong. */
template <class F>
std::string binary_values(XmlData d, const XmlLayout &l, ValueType t, uint64_t *count, F *f) {
  std::vector<uint64_t> h;
  if (!l.compressed) {
    if (!xml_words(d, 1, l.word, l.big_endian, &h)) return "the data ends in its header";
    *count = h[0] / t.size;
    if (!f) return "";
    ValueFeed<F> feed(t, l.big_endian, *f);
    return raw_bytes(d, h[0], feed);
  }
  if (!xml_words(d, 3, l.word, l.big_endian, &h)) return "the data ends in its header";
  const uint64_t nblocks = h[0], block = h[1], last = h[2] ? h[2] : h[1];
  uint64_t total = 0;
  if (nblocks > 0 && (__builtin_mul_overflow(nblocks - 1, block, &total) ||
                      __builtin_add_overflow(total, last, &total)))
    total = UINT64_MAX;
  *count = total / t.size;
  if (!f) return "";
  std::vector<uint64_t> sizes;
  if (!xml_words(d, (size_t)nblocks, l.word, l.big_endian, &sizes))
    return "the data ends in its block sizes";
  ValueFeed<F> feed(t, l.big_endian, *f);
  z_stream z;
  std::memset(&z, 0, sizeof z);
  if (inflateInit(&z) != Z_OK) return "zlib cannot start";
  std::string why;
  bool stopped = false;
  for (uint64_t i = 0; i < nblocks && why.empty() && !stopped; i++)
    why = inflate_block(d, z, sizes[i], i + 1 == nblocks ? last : block, feed, &stopped);
  inflateEnd(&z);
  return why;
}

/* Whether v is a value of type t: for an integer type, an integer in its
 * range (VTK 9.1 parses ascii values as the array's type: it stops at a
 * value out of the range of a wider type, and wraps one of a 1-byte type). */
bool fits(double v, ValueType t) {
  if (t.kind == 'f') return true;
  const double bits = 8.0 * (double)t.size;
  const double lo = t.kind == 'u' ? 0 : -std::exp2(bits - 1);
  const double hi = t.kind == 'u' ? std::exp2(bits) - 1 : std::exp2(bits - 1) - 1;
  return v == std::floor(v) && v >= lo && v <= hi;
}

/* An ascii array's values (the text of its content, of type t) into f;
 * *count: its values (whitespace-separated words). "" or what is wrong: a
 * word that is not a value of its type, in the first ones f takes. */
template <class F>
std::string ascii_values(const std::string &text, size_t pos, size_t end, ValueType t,
                         uint64_t *count, F *f) {
  *count = 0;
  bool going = f != nullptr;
  while (pos < end) {
    while (pos < end && std::isspace((unsigned char)text[pos])) pos++;
    if (pos == end) break;
    const size_t word = pos;
    while (pos < end && !std::isspace((unsigned char)text[pos])) pos++;
    ++*count;
    if (!going) continue;
    const std::string w = text.substr(word, pos - word);
    char *stop = nullptr;
    const double v = std::strtod(w.c_str(), &stop);
    if (stop != w.c_str() + w.size() || !fits(v, t))
      return "'" + w.substr(0, 40) + "' is not a value of its type";
    going = (*f)(v);
  }
  return "";
}

/* The values of array a into f (nullptr: count them only); *count: the
 * values it holds or its header declares. 1: a type or format VTK does not
 * read as numbers (its reader refuses the array), 0, or the error. */
template <class F>
int array_values(Report &r, const std::string &what, const std::string &text, const XmlLayout &l,
                 const XmlArrayTag &a, uint64_t *count, F *f) {
  ValueType t;
  std::string why;
  if (!value_type(a.tag, &t)) return 1;
  size_t start, end;
  bool b64;
  if (xml_format(a.tag) == XmlFormat::Ascii) {
    const bool empty = !a.tag.empty() && a.tag.back() == '/';
    why = ascii_values(text, a.pos, empty ? a.pos : std::min(text.find('<', a.pos), l.markup_end),
                       t, count, f);
  } else if (xml_binary_data(text, a.tag, a.pos, l, &start, &end, &b64)) {
    why = binary_values(XmlData(text, start, end, b64), l, t, count, f);
  } else {
    return 1;
  }
  return why.empty() ? 0 : r.fail(what + ": " + why);
}

/* The arrays of s named name. */
std::vector<const XmlArrayTag *> named(const CellSection &s, const char *name) {
  std::vector<const XmlArrayTag *> out;
  std::string v;
  for (const XmlArrayTag &a : s.arrays)
    if (xml_attr(a.tag, "Name", &v) && v == name) out.push_back(&a);
  return out;
}

/* v for a message: an integer as one, else as printf's %g. */
std::string number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e18) return std::to_string((long long)v);
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

/* An offsets array and the array it indexes, as VTK 9.1 reads them: the
 * cells' "offsets" into "connectivity" (ReadCellArray), a .vtu's
 * polyhedra's "faceoffsets" into "faces" (ReadFaceArray: a negative offset
 * marks a cell that is not a polyhedron). */
struct OffsetsOf {
  const char *offsets, *indexed;
  bool negative_skips;
};
const OffsetsOf offset_arrays[] = {{"offsets", "connectivity", false},
                                   {"faceoffsets", "faces", true}};

/* What array_values calls to count an array's values only. */
struct CountOnly {
  bool operator()(double) const { return false; }
};

/* The first `cells` values of an offsets array: present, non-negative
 * (but where negative_skips), non-decreasing, at most `values` (the
 * values of the array they index); *used: how many are not negative, *last:
 * the last of those. */
int check_offsets(Report &r, const std::string &text, const XmlLayout &l, const CellSection &s,
                  const XmlArrayTag &a, const OffsetsOf &o, uint64_t values, uint64_t *used,
                  double *last) {
  const std::string what = s.name + ": " + o.offsets;
  uint64_t seen = 0, count = 0;
  double prev = 0;
  std::string bad;
  *used = 0;
  auto f = [&](double v) {
    if (v < 0 && o.negative_skips) return ++seen < s.cells;
    if (!(v >= 0))
      bad = "is negative";
    else if (v < prev)
      bad = "is less than the one before (" + number(prev) + ")";
    else if (v > (double)values)
      bad = "is past the " + std::to_string(values) + " values of its " + o.indexed + " array";
    if (!bad.empty()) {
      bad = "value " + std::to_string(seen) + " (" + number(v) + ") " + bad;
      return false;
    }
    prev = v;
    ++*used;
    return ++seen < s.cells;
  };
  if (int rc = array_values(r, what, text, l, a, &count, &f)) return rc < 0 ? rc : 0;
  if (!bad.empty()) return r.fail(what + ": " + bad);
  if (seen < s.cells)
    return r.fail(what + " holds " + std::to_string(seen) + " values, the piece declares " +
                  std::to_string(s.cells) + " cells");
  *last = prev;
  return 0;
}

/* The face lists of a .vtu's polyhedra as VTK 9.1's ReadFaceArray walks
 * them through the first `length` values of "faces" (the last face offset):
 * per polyhedron its number of faces, then per face its number of points
 * and the points; the walk must end at `length` exactly (VTK reads where the
 * counts lead it, past the array if they lead there). */
struct FaceWalk {
  uint64_t cells_left = 0, length = 0, read = 0, faces_left = 0, skip = 0;
  std::string bad;
  bool operator()(double v) {
    if (read++ == length) return false;
    if (skip > 0) {
      skip--;
      return true;
    }
    if (cells_left == 0 && faces_left == 0) {
      bad = "the face lists end at value " + std::to_string(read - 1);
      return false;
    }
    if (!(v >= 0) || v != std::floor(v) || v > (double)length) {
      bad = "count " + number(v) + " at value " + std::to_string(read - 1) + " is not a count";
      return false;
    }
    if (faces_left > 0) {
      faces_left--;
      skip = (uint64_t)v;
    } else {
      cells_left--;
      faces_left = (uint64_t)v;
    }
    return true;
  }
};

/* The first faces array of s walked for `cells` polyhedra through its first
 * `length` values (FaceWalk). */
int check_faces(Report &r, const std::string &text, const XmlLayout &l, const CellSection &s,
                uint64_t cells, uint64_t length) {
  const std::vector<const XmlArrayTag *> faces = named(s, "faces");
  if (faces.empty() || length == 0) return 0;
  FaceWalk walk;
  walk.cells_left = cells;
  walk.length = length;
  uint64_t count = 0;
  const std::string what = s.name + ": faces";
  if (int rc = array_values(r, what, text, l, *faces[0], &count, &walk)) return rc < 0 ? rc : 0;
  if (walk.bad.empty() && (walk.cells_left || walk.faces_left || walk.skip))
    walk.bad = "the face lists of its " + std::to_string(cells) + " polyhedra run past value " +
               std::to_string(length) + ", the last face offset";
  return walk.bad.empty() ? 0 : r.fail(what + ": " + walk.bad);
}

} // namespace

int check_cell_section(Report &r, const std::string &text, const XmlLayout &l,
                       const CellSection &s) {
  if (s.cells == 0) return 0;
  for (const OffsetsOf &o : offset_arrays) {
    const std::vector<const XmlArrayTag *> offsets = named(s, o.offsets);
    if (offsets.empty()) continue;
    /* Each offsets array against the largest array it may index. */
    uint64_t values = 0;
    for (const XmlArrayTag *a : named(s, o.indexed)) {
      uint64_t n = 0;
      const int rc = array_values(r, s.name + ": " + o.indexed, text, l, *a, &n,
                                  static_cast<CountOnly *>(nullptr));
      if (rc < 0) return rc;
      values = std::max(values, n);
    }
    uint64_t used = 0;
    double last = 0;
    for (const XmlArrayTag *a : offsets)
      if (int rc = check_offsets(r, text, l, s, *a, o, values, &used, &last)) return rc;
    if (o.negative_skips && used > 0)
      if (int rc = check_faces(r, text, l, s, used, (uint64_t)last)) return rc;
  }
  return 0;
}

} // namespace checks
} // namespace iso
