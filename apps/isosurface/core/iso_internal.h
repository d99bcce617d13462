/* apps/isosurface/core/iso_internal.h: what the files of <adapt/iso.hpp>
 * share (iso_api.cpp, iso_input.cpp, iso_attrs.cpp): the surface's
 * memory, the mesh as the extraction core reads it, the type dispatch.
 * Internal: not installed. */
#ifndef APPS_ISOSURFACE_CORE_ISO_INTERNAL_H
#define APPS_ISOSURFACE_CORE_ISO_INTERNAL_H

#include <adapt/iso.hpp>
#include <adapt/loop.h>

#include "mesh.h"
#include "mt.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace adapt {
namespace iso {
namespace internal {

/* Calls f(T()) with the C++ type of t; false for a value that is not a
 * dtype. Once per array (a coarse grain): the loops are inside f. */
template <class F>
bool with_type(dtype t, F &&f) {
  switch (t) {
  case dtype::int8: f(std::int8_t()); return true;
  case dtype::uint8: f(std::uint8_t()); return true;
  case dtype::int16: f(std::int16_t()); return true;
  case dtype::uint16: f(std::uint16_t()); return true;
  case dtype::int32: f(std::int32_t()); return true;
  case dtype::uint32: f(std::uint32_t()); return true;
  case dtype::int64: f(std::int64_t()); return true;
  case dtype::uint64: f(std::uint64_t()); return true;
  case dtype::float32: f(float()); return true;
  case dtype::float64: f(double()); return true;
  }
  return false;
}

/* The mesh as the core reads it: a view of the caller's arrays (checked),
 * nothing copied. */
struct Prepared {
  ::iso::MeshView view;
};

/* A buffer of output elements of any dtype. */
struct OutArray {
  std::vector<unsigned char> bytes;
  dtype type = dtype::float64;
  int components = 1;
  size_t count = 0;
};

/* Runs body(b, e) over [0, n) in pieces: plain loop when sequential, else
 * adapt_for (each index written by one call: the result does not depend
 * on the schedule). 0 or the runtime's error. */
template <class F>
int loop(size_t n, bool sequential, F &&body) {
  if (sequential || n < 2) {
    body((size_t)0, n);
    return 0;
  }
  using L = std::remove_reference_t<F>;
  L *f = &body;
  return adapt_for(
      0, n, [](size_t b, size_t e, void *ctx) { (*static_cast<L *>(ctx))(b, e); }, f, nullptr);
}

/* The first i in [0, n) with bad(i), or n: chunks of `chunk` indices in
 * loop(), each finding its first; the smallest wins (the same at any
 * worker count). *rc: the runtime's error, if any. */
template <class Bad>
size_t first_bad(size_t n, size_t chunk, bool sequential, Bad &&bad, int *rc) {
  const size_t nch = (n + chunk - 1) / chunk;
  std::vector<size_t> first(nch, n);
  *rc = loop(nch, sequential, [&](size_t b, size_t e) {
    for (size_t k = b; k < e; k++)
      for (size_t i = k * chunk; i < n && i < (k + 1) * chunk; i++)
        if (bad(i)) {
          first[k] = i;
          break;
        }
  });
  for (size_t k = 0; k < nch; k++)
    if (first[k] < n) return first[k];
  return n;
}

} // namespace internal

struct surface::impl {
  internal::Prepared prep;
  std::vector<::iso::Surface> parts; /* one per value, reused */
  /* The surface when it has several parts (else parts[0]'s buffers). */
  std::vector<double> xyz;
  std::vector<int64_t> tri;
  const double *pts = nullptr;
  const int64_t *tris = nullptr;
  size_t npts = 0, ntris = 0;
  std::vector<size_t> first_pt, first_tri;
  std::vector<internal::OutArray> pdata, cdata;
  std::vector<float> normals;
  std::vector<int64_t> cell_ids;
  std::vector<double> scalars;
  bool has_normals = false, has_ids = false, has_scalars = false;
  std::string msg;
  void clear_outputs();
};

namespace internal {

/* Checks in (see extract's errors; the ids in loop()s unless sequential)
 * and fills prep with the core's view of it: 0, or a negative errno with
 * the message in *msg. Cells read in place as tetrahedra have their ids
 * (and the offsets of VTK's arrays of tetrahedra) checked by the cell
 * phase (CellSource::id_bound, tet_offsets), whose -ERANGE check_deferred
 * then explains. */
int prepare_input(const input &in, bool sequential, Prepared *prep, std::string *msg);

/* The checks prepare_input left to the cell phase, all of them, in
 * loop()s unless sequential: 0, or the first error's code and message (in
 * *msg) as a check before any extraction gives them. */
int check_deferred(const input &in, bool sequential, std::string *msg);

/* Checks req's arrays against in (counts, types); 0 or -EINVAL/-EOVERFLOW
 * with the message in *msg. */
int check_request(const input &in, const request &req, size_t ncells, std::string *msg);

/* The attributes of s's parts (req's point and cell data, normals, cell
 * ids, scalars) into s; parallel loops unless sequential. 0, -ENOMEM, the
 * runtime's errors (message in s->msg). */
int compute_attributes(const input &in, const request &req, bool sequential, surface::impl *s);

} // namespace internal
} // namespace iso
} // namespace adapt

#endif /* APPS_ISOSURFACE_CORE_ISO_INTERNAL_H */
