/* tests/isosurface/iso_api_test.h: what the tests of <adapt/iso.hpp>
 * share (test_iso_api.cpp, test_iso_api_cells.cpp): the mesh, the core's
 * reference surface, the library's input over it, the comparisons.
 * Include after <cmocka.h>. */
#ifndef TESTS_ISOSURFACE_ISO_API_TEST_H
#define TESTS_ISOSURFACE_ISO_API_TEST_H

#include <adapt/iso.hpp>

#include "mesh.h"
#include "start_workers.h"
#include "mt.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace ai = adapt::iso;

namespace iso_api_test {

constexpr int kNx = 9, kNy = 8, kNz = 7; /* the grid's points per axis */

/* The generated grid (waves, 5 tetrahedra a hex, points at integer
 * coordinates), its scalars replaced by integers q in [30, 170] (so that
 * every scalar dtype holds them exactly). */
inline const iso::Mesh &grid() {
  static iso::Mesh m = [] {
    iso::Mesh g;
    iso::Grid spec;
    spec.np[0] = kNx, spec.np[1] = kNy, spec.np[2] = kNz;
    spec.field = iso::Field::Waves;
    std::string err;
    if (iso::tetrahedralize_grid(spec, iso::Split::Five, iso::Order::Lex, 1, &g, &err)) abort();
    for (double &v : g.scalars) v = std::round(40 * v) + 100;
    return g;
  }();
  return m;
}

constexpr double kIso = 100.5;

/* The core's surface of m at v (sequential). */
inline iso::Surface reference(const iso::Mesh &m, double v) {
  iso::Surface s;
  std::string err;
  assert_int_equal(iso::extract(m, v, iso::Mode::Seq, iso::AdaptOptions(), &s, nullptr, &err), 0);
  return s;
}

/* The library's input of a mesh of VTK cells held in vectors: points (3
 * coordinates per scalar), point scalars, connectivity, offsets, types;
 * views: the vectors outlive it. */
template <class P, class S, class I>
ai::input cells_input(const std::vector<P> &pts, const std::vector<S> &sc,
                      const std::vector<I> &conn, const std::vector<I> &off,
                      const std::vector<uint8_t> &types) {
  ai::input in;
  in.points = ai::view(pts.data(), sc.size(), 3);
  in.scalars = ai::view(sc.data(), sc.size());
  in.connectivity = ai::view(conn.data(), conn.size());
  in.offsets = ai::view(off.data(), off.size());
  in.types = ai::view(types.data(), types.size());
  return in;
}

/* The library's input of m, all views of m's arrays. */
inline ai::input input_of(const iso::Mesh &m) {
  ai::input in;
  in.points = ai::view(&m.pts[0].x, m.pts.size(), 3);
  in.scalars = ai::view(m.scalars.data(), m.scalars.size());
  in.connectivity = ai::view(&m.tets[0].v[0], 4 * m.tets.size());
  return in;
}

inline ai::request request_at(std::vector<double> values) {
  ai::request req;
  req.values = std::move(values);
  return req;
}

/* extract() must succeed. */
inline void run_ok(const ai::input &in, const ai::request &req, ai::surface *s) {
  const int rc = ai::extract(in, req, s);
  if (rc) std::fprintf(stderr, "extract: %s\n", s->message());
  assert_int_equal(rc, 0);
  assert_string_equal(s->message(), "");
}

/* Points [p0, ...) and triangles [t0, ...) of s are r's (ids offset by p0). */
inline void assert_part(const ai::surface &s, size_t p0, size_t t0, const iso::Surface &r) {
  assert_memory_equal(s.points() + 3 * p0, r.xyz.data(), r.xyz.size() * sizeof(double));
  for (size_t i = 0; i < r.tri.size(); i++)
    assert_int_equal(s.triangles()[3 * t0 + i], r.tri[i] + (int64_t)p0);
}

inline void assert_same(const ai::surface &s, const iso::Surface &r) {
  assert_int_equal(s.num_points(), r.nverts());
  assert_int_equal(s.num_triangles(), r.ntris());
  assert_part(s, 0, 0, r);
}

/* The tests of test_iso_api_cells.cpp: the split of linear cells, the
 * errors. */
void test_split_one_cell(void **);
void test_split_meshes(void **);
void test_input_errors(void **);
void test_deferred_checks(void **);
void test_request_errors(void **);

} // namespace iso_api_test

#endif /* TESTS_ISOSURFACE_ISO_API_TEST_H */
