/* libFuzzer harness of the app's file readers, one binary per file format
 * (ISO_FUZZ_EXT, e.g. ".vtu"): the input is written as a file of that
 * format (an index and its piece for .pvtu and .pvtp) and read by every
 * reader the app has for it, and the property of fuzz_formats.h is
 * checked: 0 and a valid result, or a negative errno with a one-line
 * message, and nothing printed on stderr. Anything else aborts (a
 * finding), as do the sanitizers' reports. Built and run by `make fuzz`
 * (see docs/isosurface.md, "Fuzzing"). */
#include "fuzz_formats.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sanitizer/common_interface_defs.h>
#include <string>
#include <unistd.h>

#ifndef ISO_FUZZ_EXT
#error "ISO_FUZZ_EXT (the file extension of the format, e.g. \".vtu\") is required"
#endif

namespace {

std::string dir;

void remove_dir() {
  if (dir.empty()) return;
  iso::fuzz::remove_input(dir, ISO_FUZZ_EXT);
  rmdir(dir.c_str());
}

/* The scratch directory, made at the first input; the sanitizers' reports
 * go to a copy of the real stderr, which the harness captures while it
 * reads. */
const std::string &scratch_dir() {
  if (dir.empty()) {
    const char *tmp = std::getenv("TMPDIR");
    std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/iso_fuzz.XXXXXX";
    if (!mkdtemp(&tmpl[0])) {
      std::perror("fuzz_reader: mkdtemp");
      std::abort();
    }
    dir = tmpl;
    std::atexit(remove_dir);
    static int report_fd = dup(2);
    if (report_fd >= 0) __sanitizer_set_report_fd(reinterpret_cast<void *>((intptr_t)report_fd));
  }
  return dir;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string path;
  if (!iso::fuzz::write_input(scratch_dir(), ISO_FUZZ_EXT, data, size, &path)) {
    std::perror("fuzz_reader: writing the input");
    std::abort();
  }
  int rc = 0;
  const std::string why = iso::fuzz::check_read(path, ISO_FUZZ_EXT, &rc);
  if (!why.empty()) {
    std::fprintf(stderr, "fuzz_reader: %s\n", why.c_str());
    std::abort();
  }
  return 0;
}
