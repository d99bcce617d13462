/* libFuzzer harness of the app's mesh reader path, one binary per file
 * format (ISO_FUZZ_EXT, e.g. ".vtu"): the input is written to a file of
 * that extension and read by read_mesh (VTK's reader, then our checks of
 * what it returned and our conversion); a mesh of non-tetrahedral cells is
 * read again with tetrahedralize. Built and run by `make fuzz` (see
 * docs/isosurface.md, "Fuzzing").
 *
 * What must hold for every input: read_mesh returns 0 or a negative errno
 * with a one-line message; a mesh returned passes validate() and its
 * sequential extraction succeeds. Anything else aborts (a finding), as do
 * the sanitizers' reports. */
#include "mesh.h"
#include "mt.h"
#include "vtk_bridge.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

#ifndef ISO_FUZZ_EXT
#error "ISO_FUZZ_EXT (the file extension of the format, e.g. \".vtu\") is required"
#endif

using namespace iso;

namespace {

/* Meshes up to this many cells are also extracted. */
constexpr size_t extract_max_tets = 1 << 14;

std::string dir;

void remove_dir() {
  if (dir.empty()) return;
  unlink((dir + "/input" ISO_FUZZ_EXT).c_str());
  rmdir(dir.c_str());
}

const std::string &input_path() {
  static std::string path;
  if (path.empty()) {
    const char *tmp = std::getenv("TMPDIR");
    std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/iso_fuzz.XXXXXX";
    if (!mkdtemp(&tmpl[0])) {
      std::perror("fuzz_reader: mkdtemp");
      std::abort();
    }
    dir = tmpl;
    std::atexit(remove_dir);
    path = dir + "/input" ISO_FUZZ_EXT;
  }
  return path;
}

[[noreturn]] void finding(const char *what, const std::string &detail) {
  std::fprintf(stderr, "fuzz_reader: %s: %s\n", what, detail.c_str());
  std::abort();
}

void check(int rc, const Mesh &m, const std::string &err) {
  if (rc > 0) finding("positive return code", std::to_string(rc));
  if (rc < 0) {
    if (err.empty()) finding("error without a message", std::to_string(rc));
    if (err.find('\n') != std::string::npos) finding("message of several lines", err);
    return;
  }
  std::string verr;
  if (validate(m, &verr)) finding("read_mesh returned an invalid mesh", verr);
  if (m.tets.empty() || m.tets.size() > extract_max_tets) return;
  const auto range = std::minmax_element(m.scalars.begin(), m.scalars.end());
  const double iso = 0.5 * *range.first + 0.5 * *range.second;
  Surface s;
  std::string xerr;
  if (extract(m, iso, Mode::Seq, AdaptOptions(), &s, nullptr, &xerr))
    finding("extraction of a valid mesh failed", xerr);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path = input_path();
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0) {
    std::perror("fuzz_reader: writing the input");
    std::abort();
  }
  ReadOptions ro;
  Mesh m;
  std::string err;
  int rc = read_mesh(path, ro, &m, &err);
  check(rc, m, err);
  if (rc == -EPROTO) {
    ro.tetrahedralize = true;
    err.clear();
    rc = read_mesh(path, ro, &m, &err);
    check(rc, m, err);
  }
  return 0;
}
