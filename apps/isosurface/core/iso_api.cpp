/* apps/isosurface/core: <adapt/iso.hpp>'s extract() and surface: the
 * input checked and prepared (iso_input.cpp), one core extraction per
 * value (mt.h), the parts appended, the attributes (iso_attrs.cpp). */
#include "iso_internal.h"

#include "iso_config.h"

#include <adapt/adapt.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <utility>

namespace adapt {
namespace iso {

void surface::impl::clear_outputs() {
  pts = nullptr;
  tris = nullptr;
  npts = ntris = 0;
  first_pt.clear(); /* no allocation: this runs in extract's handlers */
  first_tri.clear();
  pdata.clear();
  cdata.clear();
  has_normals = has_ids = has_scalars = false;
}

surface::surface() noexcept = default;
surface::~surface() = default;
surface::surface(surface &&) noexcept = default;
surface &surface::operator=(surface &&) noexcept = default;

std::size_t surface::num_points() const noexcept { return p_ ? p_->npts : 0; }
const double *surface::points() const noexcept { return p_ ? p_->pts : nullptr; }
std::size_t surface::num_triangles() const noexcept { return p_ ? p_->ntris : 0; }
const std::int64_t *surface::triangles() const noexcept { return p_ ? p_->tris : nullptr; }
std::size_t surface::num_values() const noexcept {
  return p_ && !p_->first_pt.empty() ? p_->first_pt.size() - 1 : 0;
}
std::size_t surface::first_point(std::size_t i) const noexcept {
  return p_ && i < p_->first_pt.size() ? p_->first_pt[i] : num_points();
}
std::size_t surface::first_triangle(std::size_t i) const noexcept {
  return p_ && i < p_->first_tri.size() ? p_->first_tri[i] : num_triangles();
}
std::size_t surface::num_point_data() const noexcept { return p_ ? p_->pdata.size() : 0; }
std::size_t surface::num_cell_data() const noexcept { return p_ ? p_->cdata.size() : 0; }

namespace {
array out_view(const internal::OutArray &o) {
  array a;
  a.data = o.bytes.data();
  a.type = o.type;
  a.count = o.count;
  a.components = o.components;
  return a;
}
} // namespace

array surface::point_data(std::size_t i) const noexcept {
  return p_ && i < p_->pdata.size() ? out_view(p_->pdata[i]) : array();
}
array surface::cell_data(std::size_t i) const noexcept {
  return p_ && i < p_->cdata.size() ? out_view(p_->cdata[i]) : array();
}
const float *surface::normals() const noexcept {
  return p_ && p_->has_normals ? p_->normals.data() : nullptr;
}
const std::int64_t *surface::cell_ids() const noexcept {
  return p_ && p_->has_ids ? p_->cell_ids.data() : nullptr;
}
const double *surface::scalars() const noexcept {
  return p_ && p_->has_scalars ? p_->scalars.data() : nullptr;
}
const char *surface::message() const noexcept { return p_ ? p_->msg.c_str() : ""; }

double surface::area() const noexcept {
  double sum = 0;
  if (!p_) return 0;
  for (const ::iso::Surface &s : p_->parts) sum += s.area();
  return sum;
}

std::size_t surface::kept_bytes() const noexcept {
  size_t b = 0;
  if (p_)
    for (const ::iso::Surface &s : p_->parts) b += s.kept.bytes();
  return b;
}

void surface::release() noexcept { p_.reset(); }

int start_runtime(int workers) noexcept {
  if (workers < 0) return -EINVAL;
  adapt_config cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.workers = workers;
  /* A library's implicit start does not pin its caller; ADAPT_BIND decides
   * when it is set (adapt_init reads it for a bind field left at 0). */
  if (!std::getenv("ADAPT_BIND")) cfg.bind = -1;
  int rc = adapt_init(&cfg);
  if (rc == -EBUSY && cfg.bind != 0) {
    /* Running, bound or with another count: any binding will do. */
    cfg.bind = 0;
    rc = adapt_init(&cfg);
  }
  return rc;
}

namespace {

/* The runtime of a parallel call, started (start_runtime) before anything
 * of the call starts it lazily (bound); 0, or -EBUSY / the runtime's
 * errors with the message in *msg. */
int start_for(const policy &pol, std::string *msg) {
  const int rc = start_runtime(pol.worker_count());
  if (rc == -EBUSY)
    *msg = "policy: " + std::to_string(pol.worker_count()) +
           " workers asked, the runtime runs with " + std::to_string(adapt_num_workers());
  else if (rc)
    *msg = std::string("adapt_init: ") + adapt_strerror(rc);
  return rc;
}

/* The core's mode and options for pol on the prepared mesh; 0, or -EINVAL
 * with the message in *msg. */
int core_options(const policy &pol, const ::iso::MeshView &m, ::iso::Mode *mode,
                 ::iso::AdaptOptions *opt, std::string *msg) {
  opt->grain = pol.grain_size();
  if (pol.window_mode() == mode::sequential || pol.worker_count() == 1) {
    *mode = ::iso::Mode::Seq;
    return 0;
  }
  switch (pol.window_mode()) {
  case mode::none: *mode = ::iso::Mode::NoWin; break;
  case mode::static_: *mode = ::iso::Mode::Static; break;
  case mode::sliding: *mode = ::iso::Mode::Sliding; break;
  default: *msg = "policy: unknown mode"; return -EINVAL;
  }
  size_t shared = ISO_FALLBACK_SHARED_CACHE;
  if (size_t c = adapt_shared_cache_size()) shared = c;
  opt->window_size = pol.window_size() ? pol.window_size() : ::iso::default_window(m, shared);
  return 0;
}

/* The parts appended into one surface (offsets of their point ids), or
 * parts[0]'s buffers when there is one. */
void assemble(surface::impl *s) {
  const size_t nparts = s->parts.size();
  s->first_pt.assign(nparts + 1, 0);
  s->first_tri.assign(nparts + 1, 0);
  for (size_t p = 0; p < nparts; p++) {
    s->first_pt[p + 1] = s->first_pt[p] + s->parts[p].nverts();
    s->first_tri[p + 1] = s->first_tri[p] + s->parts[p].ntris();
  }
  s->npts = s->first_pt[nparts];
  s->ntris = s->first_tri[nparts];
  if (nparts == 1) {
    s->pts = s->parts[0].xyz.data();
    s->tris = s->parts[0].tri.data();
    return;
  }
  s->xyz.resize(3 * s->npts);
  s->tri.resize(3 * s->ntris);
  for (size_t p = 0; p < nparts; p++) {
    const ::iso::Surface &part = s->parts[p];
    std::copy(part.xyz.begin(), part.xyz.end(), s->xyz.begin() + 3 * (ptrdiff_t)s->first_pt[p]);
    const int64_t off = (int64_t)s->first_pt[p];
    int64_t *t = s->tri.data() + 3 * s->first_tri[p];
    for (size_t i = 0; i < part.tri.size(); i++) t[i] = part.tri[i] + off;
  }
  s->pts = s->xyz.data();
  s->tris = s->tri.data();
}

int run(const input &in, const request &req, surface::impl *s) {
  const bool seq = req.policy.window_mode() == mode::sequential || req.policy.worker_count() == 1;
  if (req.policy.worker_count() < 0) {
    s->msg = "policy: negative worker count";
    return -EINVAL;
  }
  if (!seq)
    if (int rc = start_for(req.policy, &s->msg)) return rc;
  if (int rc = internal::prepare_input(in, seq, &s->prep, &s->msg)) return rc;
  const ::iso::MeshView &v = s->prep.view;
  if (int rc = internal::check_request(in, req, v.cells.ncells, &s->msg)) return rc;
  ::iso::Mode mode;
  ::iso::AdaptOptions opt;
  if (int rc = core_options(req.policy, v, &mode, &opt, &s->msg)) return rc;
  /* The vertices' keys: the interpolation's crossings (iso_attrs.cpp), 8
   * bytes a point kept in the surface; none without point arrays. */
  opt.vertex_keys = !req.point_data.empty();
  s->parts.resize(req.values.size());
  /* With no value no cell phase checks the ids. */
  if (req.values.empty() && v.cells.id_bound)
    if (int rc = internal::check_deferred(in, seq, &s->msg)) return rc;
  for (size_t p = 0; p < req.values.size(); p++) {
    const int rc = ::iso::extract(v, req.values[p], mode, opt, &s->parts[p], nullptr, &s->msg);
    /* A bad id or offset stopped the cell phase: the error of the first. */
    if (rc == -ERANGE && v.cells.id_bound)
      if (int rc2 = internal::check_deferred(in, seq, &s->msg)) return rc2;
    if (rc) return rc;
  }
  assemble(s);
  return internal::compute_attributes(in, req, mode == ::iso::Mode::Seq, s);
}

} // namespace

int extract(const input &in, const request &req, surface *out) noexcept {
  if (!out) return -EINVAL;
  try {
    if (!out->p_) out->p_.reset(new surface::impl);
    surface::impl *s = out->p_.get();
    s->msg.clear();
    s->clear_outputs();
    const int rc = run(in, req, s);
    if (rc) {
      s->clear_outputs();
      if (s->msg.empty()) s->msg = adapt_strerror(rc);
    }
    return rc;
  } catch (const std::exception &) {
    /* bad_alloc, or length_error for sizes no memory holds. */
    if (out->p_) {
      out->p_->clear_outputs();
      out->p_->msg = "out of memory"; /* within std::string's own buffer */
    }
    return -ENOMEM;
  }
}

} // namespace iso
} // namespace adapt
