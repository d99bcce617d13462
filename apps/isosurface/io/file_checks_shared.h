/* apps/isosurface/io: what the checkers of file_checks.h share (file_checks.cpp
 * and the checker of each format: file_checks_legacy.cpp, file_checks_xml.cpp,
 * file_checks_image.cpp): the file mapped, numbers parsed, the report of the
 * first bad value, tables of words. Internal to the app; no VTK. */
#ifndef APPS_ISOSURFACE_IO_FILE_CHECKS_SHARED_H
#define APPS_ISOSURFACE_IO_FILE_CHECKS_SHARED_H

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "file_checks.h"

namespace iso {
namespace checks {

/* Values per byte of the file an uncompressed array may declare (bit
 * arrays pack 8), and per byte of compressed data (zlib's largest ratio). */
constexpr uint64_t values_per_byte = 8;
constexpr uint64_t compression_ratio = 1032;

inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return (char)std::tolower(c); });
  return s;
}

inline bool ends_with(const std::string &s, const char *suffix) {
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

inline int cannot_read(const std::string &path, int e, std::string *err) {
  *err = "cannot read '" + path + "': " + std::strerror(e);
  return -ENOENT;
}

/* A non-negative decimal integer (optional '+'), the whole token. */
inline bool parse_count(const std::string &tok, uint64_t *out) {
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
inline bool parse_signed(const std::string &tok, int64_t *out) {
  const bool neg = !tok.empty() && tok[0] == '-';
  uint64_t u;
  if (!parse_count(neg ? tok.substr(1) : tok, &u) || u > (uint64_t)INT64_MAX) return false;
  *out = neg ? -(int64_t)u : (int64_t)u;
  return true;
}

inline std::vector<std::string> split_ws(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

/* The product of the factors, false on overflow. */
inline bool product(std::initializer_list<uint64_t> factors, uint64_t *out) {
  uint64_t p = 1;
  for (uint64_t f : factors)
    if (__builtin_mul_overflow(p, f, &p)) return false;
  *out = p;
  return true;
}

/* What a checker reports: the first bad value. */
struct Report {
  std::string path, *err;
  /* what quotes the file's values: printable keeps it on one line. */
  int fail(const std::string &what) {
    *err = "'" + path + "': " + printable(what);
    return -EINVAL;
  }
  /* n values declared by `what`, at most `limit`. */
  int values(const std::string &what, uint64_t n, uint64_t limit) {
    if (n <= limit) return 0;
    return fail(what + " declares " + std::to_string(n) + " values, more than the file can hold (" +
                std::to_string(limit) + ")");
  }
};

inline std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return (char)std::toupper(c); });
  return s;
}

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

/* The checker of each format: 0, or an error and its message in *err (see
 * check_file in file_checks.h). */
int check_legacy(const std::string &path, const Mapped &f, std::string *err);
int check_xml(const std::string &path, const Mapped &f, std::string *err);
int check_metaimage(const std::string &path, const Mapped &f, std::string *err);
int check_nifti(const std::string &path, bool gz, std::string *err);

} // namespace checks
} // namespace iso

#endif /* APPS_ISOSURFACE_IO_FILE_CHECKS_SHARED_H */
