/* apps/isosurface/io: the checks of a legacy .vtk file (see file_checks.h):
 * walked as VTK's reader walks it, keywords, their arguments and the values
 * they announce. */
#include "file_checks.h"
#include "file_checks_shared.h"

#include <cstdio>
#include <cstdlib>

namespace iso {
namespace checks {

namespace {

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
  /* The block after a METADATA keyword line: text lines (component names,
   * information keys) up to an empty one, consumed. */
  void skip_metadata() {
    while (p_ < end_ && !rest_of_line().empty()) {}
  }
  /* If the next token is METADATA (VTK 9's writers put one after an array
   * with component names or information keys), that keyword's line and
   * block consumed; else nothing. */
  void skip_optional_metadata() {
    LegacyStream at = *this;
    std::string t;
    if (!token(&t) || upper(t) != "METADATA") {
      *this = at;
      return;
    }
    rest_of_line();
    skip_metadata();
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
   * NULL_ARRAY) then the values, each, then a METADATA block if any. */
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
      in_.skip_optional_metadata();
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
  }
  return rc;
}

} // namespace

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
    /* After an array's values (an OFFSETS' too, before its CONNECTIVITY):
     * text lines up to an empty one (component names, information keys). */
    if (key == "METADATA" && (st.expect.empty() || st.expect == "CONNECTIVITY")) {
      in.rest_of_line();
      in.skip_metadata();
      continue;
    }
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

} // namespace checks
} // namespace iso
