/* apps/isosurface/core/iso_internal.h: what the files of <adapt/iso.hpp>
 * share (iso_api.cpp, iso_input.cpp, iso_attrs.cpp): the surface's
 * memory, the mesh as the extraction core reads it, the type dispatch.
 * Internal: not installed. */
#ifndef APPS_ISOSURFACE_CORE_ISO_INTERNAL_H
#define APPS_ISOSURFACE_CORE_ISO_INTERNAL_H

#include <adapt/iso.hpp>

#include "mesh.h"
#include "mt.h"

#include <cstddef>
#include <cstdint>
#include <string>
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

/* Checks in (see extract's errors) and fills prep with the core's mesh:
 * 0, or a negative errno with the message in *msg. */
int prepare_input(const input &in, Prepared *prep, std::string *msg);

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
