/* apps/isosurface: checks of a mesh file's declared counts and sizes (see
 * file_checks.h). */
#include "file_checks.h"

#include <zlib.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <vector>

namespace iso {

namespace {

/* Values per byte of the file an uncompressed array may declare (bit
 * arrays pack 8), and per byte of compressed data (zlib's largest ratio). */
constexpr uint64_t values_per_byte = 8;
constexpr uint64_t compression_ratio = 1032;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return (char)std::tolower(c); });
  return s;
}

bool ends_with(const std::string &s, const char *suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

/* The file mapped read-only (empty files: no mapping). */
class Mapped {
public:
  explicit Mapped(const std::string &path) {
    fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      errno_ = errno;
      return;
    }
    struct stat st;
    if (fstat(fd_, &st) != 0) {
      errno_ = errno;
      return;
    }
    size_ = (size_t)st.st_size;
    if (size_ == 0) return;
    void *p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
    if (p == MAP_FAILED) {
      errno_ = errno;
      size_ = 0;
      return;
    }
    data_ = static_cast<const char *>(p);
  }
  ~Mapped() {
    if (data_) munmap(const_cast<char *>(data_), size_);
    if (fd_ >= 0) close(fd_);
  }
  Mapped(const Mapped &) = delete;
  Mapped &operator=(const Mapped &) = delete;
  int error() const { return errno_; }
  const char *data() const { return data_; }
  size_t size() const { return size_; }

private:
  int fd_ = -1, errno_ = 0;
  const char *data_ = nullptr;
  size_t size_ = 0;
};

int cannot_read(const std::string &path, int e, std::string *err) {
  *err = "cannot read '" + path + "': " + std::strerror(e);
  return -ENOENT;
}

/* A non-negative decimal integer (optional '+'), the whole token. */
bool parse_count(const std::string &tok, uint64_t *out) {
  size_t i = tok.size() > 1 && tok[0] == '+' ? 1 : 0;
  if (i >= tok.size()) return false;
  uint64_t v = 0;
  for (; i < tok.size(); i++) {
    if (tok[i] < '0' || tok[i] > '9') return false;
    if (__builtin_mul_overflow(v, 10, &v) ||
        __builtin_add_overflow(v, (uint64_t)(tok[i] - '0'), &v))
      return false;
  }
  *out = v;
  return true;
}

/* A decimal integer that may be negative (extents), the whole token. */
bool parse_signed(const std::string &tok, int64_t *out) {
  const bool neg = !tok.empty() && tok[0] == '-';
  uint64_t u;
  if (!parse_count(neg ? tok.substr(1) : tok, &u) || u > (uint64_t)INT64_MAX) return false;
  *out = neg ? -(int64_t)u : (int64_t)u;
  return true;
}

std::vector<std::string> split_ws(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

/* The product of the factors, false on overflow. */
bool product(std::initializer_list<uint64_t> factors, uint64_t *out) {
  uint64_t p = 1;
  for (uint64_t f : factors)
    if (__builtin_mul_overflow(p, f, &p)) return false;
  *out = p;
  return true;
}

/* What a checker reports: the first bad value. */
struct Report {
  std::string path, *err;
  int fail(const std::string &what) {
    *err = "'" + path + "': " + what;
    return -EINVAL;
  }
  /* n values declared by `what`, at most `limit`. */
  int values(const std::string &what, uint64_t n, uint64_t limit) {
    if (n <= limit) return 0;
    return fail(what + " declares " + std::to_string(n) + " values, more than the file can hold (" +
                std::to_string(limit) + ")");
  }
};

/* ---- legacy .vtk ------------------------------------------------------- */

/* Words grouped by a value: a table of {value, space-separated words}. */
struct WordGroup {
  int64_t value;
  const char *words;
};

/* The value of the group holding word w (compared as given), or `none`. */
template <size_t N>
int64_t group_of(const WordGroup (&groups)[N], const std::string &w, int64_t none) {
  for (const WordGroup &g : groups)
    for (const char *p = g.words; *p;) {
      const size_t len = std::strcspn(p, " ");
      if (len == w.size() && w.compare(0, len, p, len) == 0) return g.value;
      p += p[len] ? len + 1 : len;
    }
  return none;
}

/* VTK's legacy type names (the last token of an array header), lower case,
 * by the bytes of one binary value (vtkIdType: 4, as VTK writes and reads
 * it); 0: bit (packed) and the types without a fixed size (strings,
 * variants). */
const WordGroup legacy_types[] = {
    {0, "bit string utf8_string variant"},
    {1, "char unsigned_char vtktypeint8 vtktypeuint8"},
    {2, "short unsigned_short vtktypeint16 vtktypeuint16"},
    {4, "int unsigned_int vtktypeint32 vtktypeuint32 float vtktypefloat32 vtkidtype"},
    {8, "long unsigned_long vtktypeint64 vtktypeuint64 double vtktypefloat64"}};

bool legacy_type(const std::string &t) { return group_of(legacy_types, lower(t), -1) >= 0; }

/* Bytes of one binary value of a legacy type name, 0 for bit and the types
 * without a fixed size. */
uint64_t legacy_type_size(const std::string &t) {
  return (uint64_t)group_of(legacy_types, lower(t), 0);
}

/* The keywords of the legacy format, and how many argument tokens follow
 * (-1: SCALARS and LOOKUP_TABLE, whose arguments depend on the context;
 * -2: not a keyword). */
int legacy_arity(const std::string &k) {
  static const WordGroup keys[] = {
      {-1, "SCALARS LOOKUP_TABLE"},
      {0, "METADATA"},
      {1, "DATASET CELL_TYPES POINT_DATA CELL_DATA OFFSETS CONNECTIVITY"},
      {2, "POINTS CELLS VERTICES LINES POLYGONS TRIANGLE_STRIPS COLOR_SCALARS VECTORS NORMALS "
          "TENSORS TENSORS6 FIELD X_COORDINATES Y_COORDINATES Z_COORDINATES GLOBAL_IDS "
          "PEDIGREE_IDS"},
      {3, "DIMENSIONS ORIGIN SPACING ASPECT_RATIO TEXTURE_COORDINATES"}};
  return (int)group_of(keys, k, -2);
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return (char)std::toupper(c); });
  return s;
}

/* The legacy file as VTK's reader walks it: whitespace-separated tokens
 * (VTK reads keywords and ASCII values as tokens, so a keyword may follow
 * data on the same line), lines, and raw bytes (binary arrays). */
class LegacyStream {
public:
  LegacyStream(const char *data, size_t size) : p_(data), end_(data + size), begin_(data) {}
  /* The next token; *line_start: it begins a line. */
  bool token(std::string *t, bool *line_start = nullptr) {
    bool nl = p_ == begin_ || p_[-1] == '\n';
    while (p_ < end_ && std::isspace((unsigned char)*p_)) nl |= *p_++ == '\n';
    if (p_ >= end_) return false;
    const char *s = p_;
    while (p_ < end_ && !std::isspace((unsigned char)*p_)) p_++;
    t->assign(s, (size_t)(p_ - s));
    if (line_start) *line_start = nl;
    return true;
  }
  /* The tokens left on the current line; the newline is consumed. */
  std::vector<std::string> rest_of_line() {
    const char *nl = static_cast<const char *>(std::memchr(p_, '\n', (size_t)(end_ - p_)));
    const char *stop = nl ? nl : end_;
    std::vector<std::string> out = split_ws(std::string(p_, (size_t)(stop - p_)));
    p_ = nl ? nl + 1 : end_;
    return out;
  }
  bool skip_bytes(uint64_t n) {
    if (n > (uint64_t)(end_ - p_)) return false;
    p_ += n;
    return true;
  }
  /* The next n bytes (n <= 8), big-endian as legacy binary data is. */
  bool take(size_t n, uint64_t *out) {
    if (n > (size_t)(end_ - p_)) return false;
    uint64_t v = 0;
    for (size_t k = 0; k < n; k++) v = v << 8 | (unsigned char)*p_++;
    *out = v;
    return true;
  }

private:
  const char *p_, *end_, *begin_;
};

/* Token k of tok as a count, else a report naming key. */
int legacy_count(Report &r, const std::string &key, const std::vector<std::string> &tok, size_t k,
                 uint64_t *out) {
  if (k >= tok.size()) return r.fail(key + ": a count is missing");
  if (!parse_count(tok[k], out))
    return r.fail(key + ": expected a non-negative integer, got '" + tok[k] + "'");
  return 0;
}

bool numeric(const std::string &t) {
  if (t.empty()) return false;
  char *end;
  std::strtod(t.c_str(), &end);
  return *end == '\0';
}

/* Walks a legacy file as VTK's reader does: keywords and their arguments,
 * then the values they announce, all of which must be there (ASCII: that
 * many numbers; binary: that many bytes). VTK 9.1's legacy reader
 * dereferences null pointers on some malformed files (a FIELD whose array
 * cannot be read, a version 5 cell list without CONNECTIVITY), so nothing
 * malformed reaches it. */
class LegacyChecker {
public:
  LegacyChecker(Report &r, LegacyStream &in, bool ascii, uint64_t limit)
      : r_(r), in_(in), ascii_(ascii), limit_(limit) {}

  /* n values of `type` announced by `what` (ASCII: tokens, each a number;
   * binary: n values of the type's size, bytes for bit arrays). */
  int values(const std::string &what, uint64_t n, const std::string &type) {
    if (int rc = r_.values(what, n, limit_)) return rc;
    const uint64_t size = legacy_type_size(type);
    if (lower(type) != "bit" && size == 0)
      return r_.fail(what + ": arrays of type '" + type + "' are not read");
    if (ascii_) {
      std::string t;
      for (uint64_t k = 0; k < n; k++) {
        if (!in_.token(&t))
          return r_.fail(what + ": the file ends after " + std::to_string(k) + " of " +
                         std::to_string(n) + " values");
        if (!numeric(t))
          return r_.fail(what + ": value " + std::to_string(k) + " '" + t.substr(0, 40) +
                         "' is not a number");
      }
      return 0;
    }
    if (!in_.skip_bytes(size ? n * size : (n + 7) / 8))
      return r_.fail(what + ": the file ends before its " + std::to_string(n) + " values");
    return 0;
  }

  /* One integer value of `type` (ASCII: a token; binary: big-endian). */
  bool integer(const std::string &type, int64_t *out) {
    if (ascii_) {
      std::string t;
      return in_.token(&t) && parse_signed(t, out);
    }
    const uint64_t size = legacy_type_size(type);
    uint64_t v;
    if (size == 0 || !in_.take((size_t)size, &v)) return false;
    const bool is_unsigned = lower(type).find("unsigned") != std::string::npos ||
                             lower(type).find("uint") != std::string::npos;
    if (!is_unsigned && size < 8 && (v >> (8 * size - 1)) & 1) v |= ~uint64_t(0) << (8 * size);
    *out = (int64_t)v;
    return true;
  }

  /* A cell list of the formats before 5: `size` integers, each cell its
   * point count then its ids, `ncells` cells exactly (VTK 9.1 reads past
   * its array when a count runs over). */
  int cell_list(const std::string &what, uint64_t ncells, uint64_t size) {
    if (int rc = r_.values(what, size, limit_)) return rc;
    uint64_t cells = 0;
    for (uint64_t i = 0; i < size;) {
      int64_t n;
      if (!integer("int", &n))
        return r_.fail(what + ": value " + std::to_string(i) + " unreadable");
      if (n < 0 || (uint64_t)n >= size - i)
        return r_.fail(what + ": cell " + std::to_string(cells) + " has " + std::to_string(n) +
                       " points, past the list's " + std::to_string(size) + " values");
      for (int64_t k = 0; k < n; k++) {
        int64_t id;
        if (!integer("int", &id))
          return r_.fail(what + ": value unreadable in cell " + std::to_string(cells));
      }
      i += 1 + (uint64_t)n;
      cells++;
    }
    if (cells != ncells)
      return r_.fail(what + ": declares " + std::to_string(ncells) + " cells, its list holds " +
                     std::to_string(cells));
    return 0;
  }

  /* The OFFSETS of a version 5 cell list: n values from 0, non-decreasing,
   * the last one the connectivity's size. */
  int offsets(const std::string &type, uint64_t n, uint64_t connectivity) {
    if (int rc = r_.values("OFFSETS", n, limit_)) return rc;
    if (legacy_type_size(type) == 0)
      return r_.fail("OFFSETS: type '" + type + "' is not an integer");
    int64_t prev = 0, v = 0;
    for (uint64_t k = 0; k < n; k++) {
      if (!integer(type, &v)) return r_.fail("OFFSETS: value " + std::to_string(k) + " unreadable");
      if ((k == 0 && v != 0) || v < prev || (uint64_t)v > connectivity)
        return r_.fail("OFFSETS: value " + std::to_string(k) + " is " + std::to_string(v) +
                       " (offsets go from 0 up to the connectivity size " +
                       std::to_string(connectivity) + ")");
      prev = v;
    }
    if (n > 0 && (uint64_t)v != connectivity)
      return r_.fail("OFFSETS: the last offset " + std::to_string(v) +
                     " is not the connectivity size " + std::to_string(connectivity));
    return 0;
  }

  /* The arrays of a FIELD block: NAME COMPONENTS TUPLES TYPE (or
   * NULL_ARRAY) then the values, each. */
  int field(uint64_t narrays) {
    for (uint64_t i = 0; i < narrays; i++) {
      std::vector<std::string> h;
      std::string t;
      for (int k = 0; k < 4 && in_.token(&t); k++) {
        h.push_back(t);
        if (k == 0 && t == "NULL_ARRAY") break;
      }
      if (!h.empty() && h[0] == "NULL_ARRAY") continue;
      if (!ascii_) in_.rest_of_line();
      const std::string what = "FIELD array " + std::to_string(i);
      if (h.size() != 4) return r_.fail(what + ": expected NAME COMPONENTS TUPLES TYPE");
      uint64_t ncomp = 0, ntuples = 0, n = 0;
      if (int rc = legacy_count(r_, what, h, 1, &ncomp)) return rc;
      if (int rc = legacy_count(r_, what, h, 2, &ntuples)) return rc;
      if (!legacy_type(h[3])) return r_.fail(what + ": unknown type '" + h[3] + "'");
      if (int rc = values(what, product({ncomp, ntuples}, &n) ? n : UINT64_MAX, h[3])) return rc;
    }
    return 0;
  }

private:
  Report &r_;
  LegacyStream &in_;
  bool ascii_;
  uint64_t limit_;
};

/* Where the walk of a legacy file is: its mode, and what the keywords read
 * so far announce. */
struct LegacyState {
  bool v5 = false;            /* version 5 or later: cell lists as OFFSETS, CONNECTIVITY */
  bool ascii = false;         /* ASCII, else BINARY */
  uint64_t limit = 0;         /* the most values the file can hold */
  uint64_t attr_n = 0;        /* tuples of the current POINT_DATA / CELL_DATA */
  uint64_t cells[2] = {0, 0}; /* version 5: the offsets and connectivity to come */
  std::string expect, owner;  /* the keyword that must come next, and whose */
  uint64_t scalars = 0;       /* the values announced by SCALARS */
  std::string scalars_type;
};

/* The header: "# vtk DataFile Version X.Y", a title, ASCII or BINARY. */
int legacy_header(Report &r, LegacyStream &in, LegacyState *st) {
  const std::vector<std::string> head = in.rest_of_line();
  static const char *const magic[] = {"#", "vtk", "DataFile", "Version"};
  for (size_t k = 0; k < 4; k++)
    if (head.size() < 5 || head[k] != magic[k])
      return r.fail("not a legacy VTK file (its first line is not '# vtk DataFile Version X.Y')");
  /* The version as VTK reads it ("%d.%d", else 0.0): 5 and later give
   * each cell list as OFFSETS then CONNECTIVITY. */
  int major = 0, minor = 0;
  if (std::sscanf(head[4].c_str(), "%d.%d", &major, &minor) != 2) major = 0;
  st->v5 = major >= 5;
  in.rest_of_line(); /* the title */
  const std::vector<std::string> mode = in.rest_of_line();
  if (mode.size() != 1 || (upper(mode[0]) != "ASCII" && upper(mode[0]) != "BINARY"))
    return r.fail("the third line is not ASCII or BINARY");
  st->ascii = upper(mode[0]) == "ASCII";
  return 0;
}

/* The arguments of keyword `key`, on its line, into *tok; SCALARS'
 * component count is optional, a LOOKUP_TABLE after SCALARS has no size. */
int legacy_arguments(Report &r, LegacyStream &in, const LegacyState &st, const std::string &key,
                     int arity, std::vector<std::string> *tok) {
  *tok = in.rest_of_line();
  const size_t want = key == "SCALARS"        ? 2
                      : key == "LOOKUP_TABLE" ? (st.owner == "SCALARS" ? 1 : 2)
                                              : (size_t)arity;
  if (tok->size() < want || (tok->size() > want && !(key == "SCALARS" && tok->size() == 3)))
    return r.fail(key + ": expected " + std::to_string(want) + " argument(s) on its line, got " +
                  std::to_string(tok->size()));
  return 0;
}

/* Keyword `key` with its arguments tok: the counts it declares, checked,
 * and the values it announces, walked. */
int legacy_keyword(Report &r, LegacyStream &in, LegacyChecker &check, const std::string &key,
                   const std::vector<std::string> &tok, LegacyState *st) {
  uint64_t a = 0, b = 0, c = 0, n = 0;
  int rc = 0;
  if (key == "POINTS") {
    if (!(rc = legacy_count(r, key, tok, 0, &a)))
      rc = check.values(key, product({a, 3}, &n) ? n : UINT64_MAX, tok[1]);
  } else if (key == "CELLS" || key == "VERTICES" || key == "LINES" || key == "POLYGONS" ||
             key == "TRIANGLE_STRIPS") {
    if (!(rc = legacy_count(r, key, tok, 0, &a)) && !(rc = legacy_count(r, key, tok, 1, &b))) {
      if (st->v5) {
        st->cells[0] = a;
        st->cells[1] = b;
        st->expect = "OFFSETS";
      } else {
        rc = check.cell_list(key, a, b);
      }
    }
  } else if (key == "OFFSETS" || key == "CONNECTIVITY") {
    if (st->owner.empty() || !st->v5) return r.fail(key + " outside a version 5 cell list");
    rc = key == "OFFSETS" ? check.offsets(tok[0], st->cells[0], st->cells[1])
                          : check.values(key, st->cells[1], tok[0]);
    if (key == "OFFSETS") st->expect = "CONNECTIVITY";
  } else if (key == "CELL_TYPES") {
    if (!(rc = legacy_count(r, key, tok, 0, &a))) rc = check.values(key, a, "int");
  } else if (key == "X_COORDINATES" || key == "Y_COORDINATES" || key == "Z_COORDINATES") {
    if (!(rc = legacy_count(r, key, tok, 0, &a))) rc = check.values(key, a, tok[1]);
  } else if (key == "POINT_DATA" || key == "CELL_DATA") {
    if (!(rc = legacy_count(r, key, tok, 0, &st->attr_n)))
      rc = r.values(key, st->attr_n, st->limit);
  } else if (key == "DIMENSIONS") {
    if (!(rc = legacy_count(r, key, tok, 0, &a)) && !(rc = legacy_count(r, key, tok, 1, &b)) &&
        !(rc = legacy_count(r, key, tok, 2, &c)))
      rc = r.values(key, product({a, b, c}, &n) ? n : UINT64_MAX, st->limit);
  } else if (key == "SCALARS") {
    a = 1;
    if (tok.size() > 2 && !(rc = legacy_count(r, key, tok, 2, &a)) && (a < 1 || a > 4))
      rc = r.fail("SCALARS: expected 1 to 4 components, got " + tok[2]);
    st->scalars = product({st->attr_n, a}, &n) ? n : UINT64_MAX;
    st->scalars_type = tok[1];
    st->expect = "LOOKUP_TABLE";
  } else if (key == "LOOKUP_TABLE" && st->owner == "SCALARS") {
    rc = check.values("SCALARS", st->scalars, st->scalars_type);
  } else if (key == "LOOKUP_TABLE") {
    if (!(rc = legacy_count(r, key, tok, 1, &a)))
      rc = check.values(key, product({a, 4}, &n) ? n : UINT64_MAX,
                        st->ascii ? "float" : "unsigned_char");
  } else if (key == "COLOR_SCALARS") {
    if (!(rc = legacy_count(r, key, tok, 1, &a)))
      rc = check.values(key, product({st->attr_n, a}, &n) ? n : UINT64_MAX,
                        st->ascii ? "float" : "unsigned_char");
  } else if (key == "TEXTURE_COORDINATES") {
    if (!(rc = legacy_count(r, key, tok, 1, &a)))
      rc = check.values(key, product({st->attr_n, a}, &n) ? n : UINT64_MAX, tok[2]);
  } else if (key == "VECTORS" || key == "NORMALS" || key == "TENSORS" || key == "TENSORS6") {
    const uint64_t ncomp = key == "TENSORS" ? 9 : key == "TENSORS6" ? 6 : 3;
    rc = check.values(key, product({st->attr_n, ncomp}, &n) ? n : UINT64_MAX, tok[1]);
  } else if (key == "GLOBAL_IDS" || key == "PEDIGREE_IDS") {
    rc = check.values(key, st->attr_n, tok[1]);
  } else if (key == "FIELD") {
    if (!(rc = legacy_count(r, key, tok, 1, &a)) && !(rc = r.values(key, a, st->limit)))
      rc = check.field(a);
  } else if (key == "METADATA") {
    /* Text lines up to an empty one (component names, information keys). */
    while (!in.rest_of_line().empty()) {}
  }
  return rc;
}

int check_legacy(const std::string &path, const Mapped &f, std::string *err) {
  Report r{path, err};
  LegacyState st;
  st.limit = values_per_byte * (uint64_t)f.size();
  LegacyStream in(f.data() ? f.data() : "", f.size());
  if (int rc = legacy_header(r, in, &st)) return rc;
  LegacyChecker check(r, in, st.ascii, st.limit);
  std::string t;
  std::vector<std::string> tok;
  while (in.token(&t)) {
    const std::string key = upper(t);
    const int arity = legacy_arity(key);
    if (arity == -2) return r.fail("unknown keyword '" + t.substr(0, 40) + "'");
    if (!st.expect.empty() && key != st.expect)
      return r.fail(st.owner + ": " + st.expect + " expected, got " + key);
    st.expect.clear();
    if (int rc = legacy_arguments(r, in, st, key, arity, &tok)) return rc;
    if (int rc = legacy_keyword(r, in, check, key, tok, &st)) return rc;
    st.owner = st.expect.empty() ? "" : key == "OFFSETS" ? st.owner : key;
  }
  if (!st.expect.empty())
    return r.fail(st.owner + ": " + st.expect + " expected, got the end of file");
  return 0;
}

/* ---- XML .vtu / .vti --------------------------------------------------- */

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

/* The points of an extent attribute "x0 x1 y0 y1 z0 z1" (0 if empty). */
int extent_points(Report &r, const char *name, const std::string &v, uint64_t *out) {
  const std::vector<std::string> tok = split_ws(v);
  int64_t e[6];
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

/* A <Piece> or <ImageData> tag: its counts and extents; *piece: the
 * current piece's points or cells, whichever is larger. */
int xml_piece_tag(Report &r, const std::string &tag, uint64_t limit, uint64_t *piece) {
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
  for (const char *name : {"Extent", "WholeExtent"})
    if (!rc && xml_attr(tag, name, &v) && !(rc = extent_points(r, name, v, &n)) &&
        !(rc = r.values(name, n, limit)) && std::strcmp(name, "Extent") == 0)
      *piece = std::max(*piece, n);
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

int check_xml(const std::string &path, const Mapped &f, std::string *err) {
  Report r{path, err};
  const std::string text(f.data() ? f.data() : "", f.size());
  const XmlLayout l = xml_layout(text, (uint64_t)f.size());
  uint64_t piece = 0; /* the current piece's points or cells, whichever is larger */
  size_t pos = 0;
  while (pos < l.markup_end) {
    const size_t lt = text.find('<', pos);
    if (lt == std::string::npos || lt >= l.markup_end) break;
    const size_t gt = text.find('>', lt);
    if (gt == std::string::npos) break;
    const std::string tag = text.substr(lt + 1, gt - lt - 1);
    pos = gt + 1;
    int rc = 0;
    if (tag.compare(0, 5, "Piece") == 0 || tag.compare(0, 9, "ImageData") == 0)
      rc = xml_piece_tag(r, tag, l.limit, &piece);
    else if (tag.compare(0, 9, "DataArray") == 0 || tag.compare(0, 5, "Array") == 0)
      rc = xml_array_tag(r, text, tag, pos, l, piece, f.size());
    if (rc) return rc;
  }
  return 0;
}

/* ---- MetaImage .mha / .mhd --------------------------------------------- */

/* Bytes of one value of a MetaImage element type (the smallest for
 * platform-dependent ones), 0 if unknown. */
uint64_t meta_type_size(const std::string &t) {
  static const WordGroup types[] = {{1, "MET_CHAR MET_UCHAR"},
                                    {2, "MET_SHORT MET_USHORT"},
                                    {4, "MET_INT MET_UINT MET_LONG MET_ULONG MET_FLOAT"},
                                    {8, "MET_LONG_LONG MET_ULONG_LONG MET_DOUBLE"}};
  return (uint64_t)group_of(types, t, 0);
}

/* What a MetaImage header declares. */
struct MetaHeader {
  uint64_t ndims = 0, channels = 1, elem = 0, dims[3] = {0, 0, 0};
  int64_t header_size = 0;
  bool have_dims = false, compressed = false, have_type = false;
  std::string data_file; /* ElementDataFile, trimmed: the last line of the header */
  size_t data_start = 0; /* where the header ends */
};

/* One header line "key = value" (v: value's words) into *h. */
int meta_key(Report &r, const std::string &key, const std::vector<std::string> &v,
             const std::string &value, MetaHeader *h) {
  if (key == "NDims") {
    if (v.size() != 1 || !parse_count(v[0], &h->ndims) || h->ndims < 1 || h->ndims > 3)
      return r.fail("NDims: expected 1, 2 or 3");
  } else if (key == "DimSize") {
    if (h->ndims == 0) return r.fail("DimSize before NDims");
    if (v.size() != h->ndims)
      return r.fail("DimSize: expected " + std::to_string(h->ndims) + " sizes");
    for (size_t d = 0; d < h->ndims; d++)
      if (!parse_count(v[d], &h->dims[d]) || h->dims[d] < 1 || h->dims[d] > INT32_MAX)
        return r.fail("DimSize: expected positive 32-bit integers, got '" + v[d] + "'");
    h->have_dims = true;
  } else if (key == "ElementNumberOfChannels") {
    if (v.size() != 1 || !parse_count(v[0], &h->channels) || h->channels < 1 || h->channels > 4096)
      return r.fail("ElementNumberOfChannels: expected 1..4096");
  } else if (key == "ElementType") {
    if (v.size() != 1 || !(h->elem = meta_type_size(v[0])))
      return r.fail("ElementType: unknown type '" + (v.empty() ? "" : v[0]) + "'");
    h->have_type = true;
  } else if (key == "CompressedData") {
    h->compressed = v.size() == 1 && (v[0] == "True" || v[0] == "true");
  } else if (key == "HeaderSize") {
    if (v.size() != 1 || !parse_signed(v[0], &h->header_size) || h->header_size < -1)
      return r.fail("HeaderSize: expected an integer >= -1");
  } else if (key == "ObjectType") {
    if (v.size() != 1 || v[0] != "Image") return r.fail("ObjectType: expected Image");
  } else if (key == "ElementDataFile") {
    if (v.empty()) return r.fail("ElementDataFile: no file named");
    h->data_file = value;
    h->data_file.erase(0, h->data_file.find_first_not_of(" \t"));
    h->data_file.erase(h->data_file.find_last_not_of(" \t\r") + 1);
  }
  return 0;
}

/* The header's lines, up to ElementDataFile, into *h. */
int meta_header(Report &r, const Mapped &f, MetaHeader *h) {
  size_t pos = 0;
  h->data_start = f.size();
  while (pos < f.size()) {
    const char *start = f.data() + pos;
    const char *nl = static_cast<const char *>(std::memchr(start, '\n', f.size() - pos));
    const size_t len = nl ? (size_t)(nl - start) : f.size() - pos;
    pos += len + 1;
    const std::string line(start, len);
    const size_t eq = line.find('=');
    if (eq == std::string::npos) {
      if (split_ws(line).empty()) continue;
      return r.fail("MetaImage header line without '=': '" + line.substr(0, 60) + "'");
    }
    const std::vector<std::string> k = split_ws(line.substr(0, eq));
    if (k.size() != 1)
      return r.fail("malformed MetaImage header line '" + line.substr(0, 60) + "'");
    if (int rc = meta_key(r, k[0], split_ws(line.substr(eq + 1)), line.substr(eq + 1), h))
      return rc;
    if (k[0] == "ElementDataFile") {
      h->data_start = pos;
      break;
    }
  }
  if (h->data_file.empty()) return r.fail("no ElementDataFile in the MetaImage header");
  if (!h->have_dims || !h->have_type)
    return r.fail("the MetaImage header lacks DimSize or ElementType");
  return 0;
}

/* The bytes of image data there are: after the header (LOCAL) or in the
 * data file, less HeaderSize. */
int meta_available(Report &r, const std::string &path, const Mapped &f, const MetaHeader &h,
                   uint64_t *avail, std::string *err) {
  if (h.data_file == "LOCAL") {
    *avail = h.data_start >= f.size() ? 0 : (uint64_t)(f.size() - h.data_start);
  } else {
    const std::string &file = h.data_file;
    if (file.find('%') != std::string::npos || file.compare(0, 4, "LIST") == 0)
      return r.fail("ElementDataFile: file lists and patterns are not supported ('" + file + "')");
    const size_t slash = path.rfind('/');
    const std::string full =
        file[0] == '/' || slash == std::string::npos ? file : path.substr(0, slash + 1) + file;
    struct stat st;
    if (stat(full.c_str(), &st) != 0) return cannot_read(full, errno, err);
    *avail = (uint64_t)st.st_size;
  }
  const int64_t skip = h.header_size;
  if (skip > 0) *avail = *avail > (uint64_t)skip ? *avail - (uint64_t)skip : 0;
  return 0;
}

int check_metaimage(const std::string &path, const Mapped &f, std::string *err) {
  Report r{path, err};
  MetaHeader h;
  if (int rc = meta_header(r, f, &h)) return rc;
  uint64_t avail = 0;
  if (int rc = meta_available(r, path, f, h, &avail, err)) return rc;
  uint64_t need = 0;
  if (!product(
          {h.dims[0], h.ndims > 1 ? h.dims[1] : 1, h.ndims > 2 ? h.dims[2] : 1, h.channels, h.elem},
          &need))
    return r.fail("the image size overflows");
  const uint64_t can =
      h.compressed
          ? (avail > UINT64_MAX / compression_ratio ? UINT64_MAX : avail * compression_ratio)
          : avail;
  if (need > can)
    return r.fail("the header declares " + std::to_string(need) + " bytes of image data, the " +
                  (h.compressed ? "compressed " : "") + "data holds " + std::to_string(avail) +
                  " bytes");
  return 0;
}

/* ---- NIfTI .nii / .nii.gz ---------------------------------------------- */

/* Bytes per voxel of the NIfTI data types VTK 9.1 reads, 0 otherwise. */
uint64_t nifti_type_size(int t) {
  switch (t) {
  case 2:
  case 256: return 1; /* uint8, int8 */
  case 4:
  case 512: return 2; /* int16, uint16 */
  case 8:
  case 768:
  case 16: return 4; /* int32, uint32, float32 */
  case 1024:
  case 1280:
  case 64: return 8;    /* int64, uint64, float64 */
  case 128: return 3;   /* RGB24 */
  case 2304: return 4;  /* RGBA32 */
  case 32: return 8;    /* complex64 */
  case 1792: return 16; /* complex128 */
  default: return 0;
  }
}

/* The bytes of a file, or of its gzip stream decompressed: up to
 * head.size() into head, *total all of them. */
int read_head(const std::string &path, bool gz, std::vector<unsigned char> *head, uint64_t *total,
              std::string *err) {
  gzFile z = gzopen(path.c_str(), "rb"); /* reads plain files as they are */
  if (!z) return cannot_read(path, errno ? errno : EIO, err);
  uint64_t n = 0;
  size_t got = 0;
  std::vector<unsigned char> buf(1 << 16);
  for (;;) {
    const int k = gzread(z, buf.data(), (unsigned)buf.size());
    if (k < 0) {
      int zerr;
      *err =
          "'" + path + "': " + (gz ? "gzip stream" : "file") + " unreadable: " + gzerror(z, &zerr);
      gzclose(z);
      return -EINVAL;
    }
    if (k == 0) break;
    const size_t take = std::min((size_t)k, head->size() - got);
    std::memcpy(head->data() + got, buf.data(), take);
    got += take;
    n += (uint64_t)k;
  }
  gzclose(z);
  head->resize(got);
  *total = n;
  return 0;
}

template <class T>
T get(const std::vector<unsigned char> &h, size_t off, bool swap) {
  T v;
  unsigned char b[sizeof(T)];
  std::memcpy(b, &h[off], sizeof(T));
  if (swap) std::reverse(b, b + sizeof(T));
  std::memcpy(&v, b, sizeof(T));
  return v;
}

int check_nifti(const std::string &path, bool gz, std::string *err) {
  Report r{path, err};
  std::vector<unsigned char> h(540);
  uint64_t total = 0;
  if (int rc = read_head(path, gz, &h, &total, err)) return rc;
  if (h.size() < 348) return r.fail("too short for a NIfTI header");
  const int32_t sz = get<int32_t>(h, 0, false);
  const bool swap = sz == 0x5c010000 || sz == 0x1c020000;
  const int32_t hsize = swap ? get<int32_t>(h, 0, true) : sz;
  int version;
  if (hsize == 348)
    version = 1;
  else if (hsize == 540 && h.size() >= 540)
    version = 2;
  else
    return r.fail("not a NIfTI-1 or NIfTI-2 header (sizeof_hdr " + std::to_string(hsize) + ")");
  int64_t dim[8];
  int datatype, bitpix;
  double vox_offset, pixdim[4];
  if (version == 1) {
    if (std::memcmp(&h[344], "n+1", 4) != 0)
      return r.fail("NIfTI-1 magic is not \"n+1\" (a single-file .nii is needed)");
    for (int k = 0; k < 8; k++) dim[k] = get<int16_t>(h, 40 + 2 * (size_t)k, swap);
    datatype = get<int16_t>(h, 70, swap);
    bitpix = get<int16_t>(h, 72, swap);
    for (int k = 0; k < 4; k++) pixdim[k] = get<float>(h, 76 + 4 * (size_t)k, swap);
    vox_offset = get<float>(h, 108, swap);
  } else {
    if (std::memcmp(&h[4], "n+2\0\r\n\032\n", 8) != 0)
      return r.fail("NIfTI-2 magic is not \"n+2\" (a single-file .nii is needed)");
    datatype = get<int16_t>(h, 12, swap);
    bitpix = get<int16_t>(h, 14, swap);
    for (int k = 0; k < 8; k++) dim[k] = get<int64_t>(h, 16 + 8 * (size_t)k, swap);
    for (int k = 0; k < 4; k++) pixdim[k] = get<double>(h, 104 + 8 * (size_t)k, swap);
    vox_offset = (double)get<int64_t>(h, 168, swap);
  }
  if (dim[0] < 1 || dim[0] > 7)
    return r.fail("dim[0] (the number of dimensions) is " + std::to_string(dim[0]) +
                  ", expected 1..7");
  uint64_t voxels = 1;
  for (int k = 1; k <= dim[0]; k++) {
    if (dim[k] < 1 || dim[k] > INT32_MAX)
      return r.fail("dim[" + std::to_string(k) + "] is " + std::to_string(dim[k]) +
                    ", expected 1..2^31-1");
    if (__builtin_mul_overflow(voxels, (uint64_t)dim[k], &voxels))
      return r.fail("the image size overflows");
  }
  const uint64_t vsize = nifti_type_size(datatype);
  if (!vsize) {
    *err = "'" + path + "': NIfTI data type " + std::to_string(datatype) + " is not supported";
    return -ENOTSUP;
  }
  if ((uint64_t)bitpix != 8 * vsize)
    return r.fail("bitpix " + std::to_string(bitpix) + " does not match data type " +
                  std::to_string(datatype) + " (" + std::to_string(8 * vsize) + ")");
  for (int k = 1; k <= 3 && k <= dim[0]; k++)
    if (!std::isfinite(pixdim[k]))
      return r.fail("pixdim[" + std::to_string(k) + "] is not a finite number");
  if (!std::isfinite(vox_offset) || vox_offset < (double)hsize || vox_offset > (double)total)
    return r.fail("vox_offset " + std::to_string(vox_offset) + " is not within the file (" +
                  std::to_string(hsize) + ".." + std::to_string(total) + ")");
  uint64_t need;
  if (!product({voxels, vsize}, &need)) return r.fail("the image size overflows");
  const uint64_t avail = total - (uint64_t)vox_offset;
  if (need > avail)
    return r.fail("the header declares " + std::to_string(need) + " bytes of image data, the " +
                  (gz ? "decompressed " : "") + "file holds " + std::to_string(avail));
  return 0;
}

} // namespace

std::string printable(const std::string &s, size_t max) {
  std::string out = s.size() > max ? s.substr(0, max) + "..." : s;
  for (char &c : out)
    if ((unsigned char)c < 0x20 || c == 0x7f) c = '?';
  return out;
}

FileFormat file_format(const std::string &path) {
  const std::string l = lower(path);
  if (ends_with(l, ".vtu")) return FileFormat::Vtu;
  if (ends_with(l, ".vti")) return FileFormat::Vti;
  if (ends_with(l, ".vtk")) return FileFormat::LegacyVtk;
  if (ends_with(l, ".mha") || ends_with(l, ".mhd")) return FileFormat::MetaImage;
  if (ends_with(l, ".nii")) return FileFormat::Nifti;
  if (ends_with(l, ".nii.gz")) return FileFormat::NiftiGz;
  if (ends_with(l, ".pvtu")) return FileFormat::Pvtu;
  return FileFormat::Unknown;
}

int check_file(const std::string &path, FileFormat f, std::string *err) {
  if (f == FileFormat::Nifti || f == FileFormat::NiftiGz)
    return check_nifti(path, f == FileFormat::NiftiGz, err);
  if (f == FileFormat::Unknown || f == FileFormat::Pvtu) return 0;
  Mapped m(path);
  if (m.error()) return cannot_read(path, m.error(), err);
  switch (f) {
  case FileFormat::LegacyVtk: return check_legacy(path, m, err);
  case FileFormat::Vtu:
  case FileFormat::Vti: return check_xml(path, m, err);
  case FileFormat::MetaImage: return check_metaimage(path, m, err);
  default: return 0;
  }
}

} // namespace iso
