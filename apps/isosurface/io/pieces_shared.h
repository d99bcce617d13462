/* apps/isosurface/io: what the files of pieces.h share (pieces.cpp,
 * pieces_write.cpp, pvtp_union.cpp): path and file tests, exact
 * coordinates as a hash key. Internal to the app. */
#ifndef APPS_ISOSURFACE_IO_PIECES_SHARED_H
#define APPS_ISOSURFACE_IO_PIECES_SHARED_H

#include <sys/stat.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace iso {

/* The path without its extension ext (which it ends with). */
inline std::string strip(const std::string &path, const char *ext) {
  return path.substr(0, path.size() - std::strlen(ext));
}

/* True if path is a regular file, else false and why in *why. */
inline bool regular_file(const std::string &path, std::string *why) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    *why = std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *why = "not a regular file";
    return false;
  }
  return true;
}

/* 0 if path is a regular file, else -ENOENT and "cannot read 'path': why". */
inline int need_regular_file(const std::string &path, std::string *err) {
  if (regular_file(path, err)) return 0;
  *err = "cannot read '" + path + "': " + *err;
  return -ENOENT;
}

/* Exact coordinates as a hashable key. */
struct XyzKey {
  double v[3];
  bool operator==(const XyzKey &o) const { return std::memcmp(v, o.v, sizeof v) == 0; }
};
struct XyzHash {
  size_t operator()(const XyzKey &k) const {
    uint64_t h = 0x9e3779b97f4a7c15ull, b;
    for (double d : k.v) {
      std::memcpy(&b, &d, sizeof b);
      h ^= b + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdull;
    }
    return (size_t)(h ^ (h >> 33));
  }
};

} // namespace iso

#endif /* APPS_ISOSURFACE_IO_PIECES_SHARED_H */
