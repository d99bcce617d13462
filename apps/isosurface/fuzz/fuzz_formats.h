/* apps/isosurface/fuzz: the file readers the fuzzers drive and the property
 * each must hold, shared by fuzz_reader.cpp (one binary per format) and
 * test_isosurface, which replays fuzz/regress/ and fuzz/seeds/ with them.
 * Internal to the app; the io part's headers.
 *
 * Formats, by extension:
 *  - .vtu .vtk .vti .vts .vtr .mha .nii: read_mesh (again with
 *    tetrahedralize when a cell is refused);
 *  - .pvti, .vtm: an index and its piece 0 or block file (input_0.vti,
 *    input_0.vtu) likewise split at the first NUL byte: read_mesh;
 *  - .pvtu: an index and its piece 0, split at the input's first NUL byte
 *    (written as input.pvtu and input_0.vtu, the name the seeds' index
 *    gives its piece): read_pvtu_index, then read_pvtu (again with
 *    tetrahedralize);
 *  - .pvtp: an index and its piece 0 likewise (input_0.vtp):
 *    read_pvtp_union (--verify-union's reader), then read_surface (the
 *    reader of --render);
 *  - .vtp: read_vtp and read_surface (--render).
 *
 * The property: every reader returns 0 and a valid result (a mesh that
 * passes validate() and extracts, a surface whose triangles name its
 * vertices), or a negative errno with a one-line message; and nothing is
 * written to stderr meanwhile (VTK's own messages are caught, never
 * printed). */
#ifndef APPS_ISOSURFACE_FUZZ_FUZZ_FORMATS_H
#define APPS_ISOSURFACE_FUZZ_FUZZ_FORMATS_H

#include "mesh.h"
#include "mt.h"
#include "pieces.h"
#include "vtk_bridge.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace iso {
namespace fuzz {

/* True for the formats whose input is an index and its piece 0. */
inline bool has_piece(const std::string &ext) {
  return ext == ".pvtu" || ext == ".pvtp" || ext == ".pvti" || ext == ".vtm";
}

/* The piece (or block) file of input<ext> in dir. */
inline std::string piece_path(const std::string &dir, const std::string &ext) {
  return dir + "/input_0" +
         (ext == ".pvtu" || ext == ".vtm" ? ".vtu"
          : ext == ".pvti"                ? ".vti"
                                          : ".vtp");
}

/* Write the bytes to path; false on an I/O error. */
inline bool write_bytes(const std::string &path, const uint8_t *data, size_t size) {
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(data, 1, size, f) == size;
  return std::fclose(f) == 0 && ok;
}

/* Write an input of format ext in dir (dir/input<ext>, and for an index
 * the bytes after its first NUL as its piece 0, no piece file if there is
 * no NUL); *path is the file to read. False on an I/O error. */
inline bool write_input(const std::string &dir, const std::string &ext, const uint8_t *data,
                        size_t size, std::string *path) {
  *path = dir + "/input" + ext;
  size_t head = size;
  if (has_piece(ext)) {
    const uint8_t *nul = static_cast<const uint8_t *>(std::memchr(data, 0, size));
    const std::string piece = piece_path(dir, ext);
    unlink(piece.c_str());
    if (nul) {
      head = (size_t)(nul - data);
      if (!write_bytes(piece, nul + 1, size - head - 1)) return false;
    }
  }
  return write_bytes(*path, data, head);
}

/* Remove what write_input wrote in dir. */
inline void remove_input(const std::string &dir, const std::string &ext) {
  unlink((dir + "/input" + ext).c_str());
  if (has_piece(ext)) unlink(piece_path(dir, ext).c_str());
}

/* stderr (fd 2) sent to a temporary file while alive; text() is what was
 * written. The sanitizers' reports still reach the real stderr (see
 * fuzz_reader.cpp). */
class StderrCapture {
public:
  StderrCapture() {
    std::fflush(stderr);
    file_ = std::tmpfile();
    saved_ = dup(2);
    if (file_ && saved_ >= 0) dup2(fileno(file_), 2);
  }
  ~StderrCapture() {
    restore();
    if (file_) std::fclose(file_);
  }
  /* Stop capturing and return what was written. */
  std::string text() {
    restore();
    std::string out;
    if (!file_) return out;
    std::rewind(file_);
    char buf[512];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0) out.append(buf, n);
    return out;
  }

private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
  }
  FILE *file_ = nullptr;
  int saved_ = -1;
};

/* "" if rc and err keep the error contract (0, or negative with one line),
 * else what breaks it, naming the reader. */
inline std::string check_code(const char *reader, int rc, const std::string &err) {
  if (rc > 0) return std::string(reader) + ": positive return code " + std::to_string(rc);
  if (rc == 0) return "";
  if (err.empty())
    return std::string(reader) + ": error " + std::to_string(rc) + " without message";
  if (err.find('\n') != std::string::npos)
    return std::string(reader) + ": message of several lines: " + err;
  return "";
}

/* Meshes up to this many cells are also extracted. */
constexpr size_t extract_max_tets = 1 << 14;

/* "" if m is valid and (when small) extracts, else why not. */
inline std::string check_mesh(const char *reader, const Mesh &m) {
  std::string verr;
  if (validate(m, &verr)) return std::string(reader) + " returned an invalid mesh: " + verr;
  if (m.tets.empty() || m.tets.size() > extract_max_tets) return "";
  const auto range = std::minmax_element(m.scalars.begin(), m.scalars.end());
  const double iso = 0.5 * *range.first + 0.5 * *range.second;
  Surface s;
  if (extract(m, iso, Mode::Seq, AdaptOptions(), &s, nullptr, &verr))
    return std::string("extraction of a mesh of ") + reader + " failed: " + verr;
  return "";
}

/* "" if every triangle of s names vertices of s, else why not. */
inline std::string check_surface(const char *reader, const Surface &s) {
  if (s.xyz.size() % 3 || s.tri.size() % 3)
    return std::string(reader) + " returned a surface of partial points or triangles";
  for (int64_t v : s.tri)
    if (v < 0 || (size_t)v >= s.nverts())
      return std::string(reader) + " returned a triangle naming vertex " + std::to_string(v);
  return "";
}

/* A mesh reader, read(path, opt, mesh, err) with options Opt, on path;
 * again with opt.tetrahedralize when it refuses a cell (-EPROTO); *rc its
 * last code. */
template <class Opt>
std::string check_mesh_reader(const char *reader,
                              int (*read)(const std::string &, const Opt &, Mesh *, std::string *),
                              const std::string &path, int *rc) {
  for (bool tetra : {false, true}) {
    Mesh m;
    std::string err;
    Opt opt;
    opt.tetrahedralize = tetra;
    *rc = read(path, opt, &m, &err);
    std::string why = check_code(reader, *rc, err);
    if (why.empty() && *rc == 0) why = check_mesh(reader, m);
    if (!why.empty() || *rc != -EPROTO) return why;
  }
  return "";
}

/* The readers of ext on path, without looking at stderr; *rc the code of
 * the last reader of the main result (read_mesh, read_pvtu,
 * read_pvtp_union, read_vtp). */
inline std::string check_readers(const std::string &path, const std::string &ext, int *rc) {
  std::string why, err;
  if (ext == ".pvtu") {
    PvtuIndex idx;
    const int irc = read_pvtu_index(path, &idx, &err);
    if (!(why = check_code("read_pvtu_index", irc, err)).empty()) return why;
    return check_mesh_reader("read_pvtu", read_pvtu, path, rc);
  }
  if (ext == ".pvtp" || ext == ".vtp") {
    Surface s;
    if (ext == ".pvtp") {
      UnionSurface u;
      *rc = read_pvtp_union(path, &u, &err);
      if (!(why = check_code("read_pvtp_union", *rc, err)).empty()) return why;
      if (*rc == 0 && !(why = check_surface("read_pvtp_union", u.s)).empty()) return why;
      if (*rc == 0) edge_stats(u.s);
    } else {
      *rc = read_vtp(path, &s, &err);
      if (!(why = check_code("read_vtp", *rc, err)).empty()) return why;
      if (*rc == 0 && !(why = check_surface("read_vtp", s)).empty()) return why;
    }
    err.clear();
    s = Surface();
    const int src = read_surface(path, &s, &err);
    if (!(why = check_code("read_surface", src, err)).empty()) return why;
    return src == 0 ? check_surface("read_surface", s) : "";
  }
  return check_mesh_reader("read_mesh", read_mesh, path, rc);
}

/* The property on the file at path of format ext (see the top): "" if it
 * holds, else what failed. *rc as check_readers. */
inline std::string check_read(const std::string &path, const std::string &ext, int *rc) {
  StderrCapture cap;
  const std::string why = check_readers(path, ext, rc);
  const std::string printed = cap.text();
  if (!why.empty()) return why;
  if (!printed.empty()) return "the readers wrote to stderr: " + printed;
  return "";
}

} // namespace fuzz
} // namespace iso

#endif /* APPS_ISOSURFACE_FUZZ_FUZZ_FORMATS_H */
