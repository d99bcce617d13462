/* tests/isosurface: <adapt/iso.hpp>: the split of the linear 3D cells
 * into tetrahedra (exact plane sections, no crack between cells), and
 * each error of extract() (run by test_iso_api.cpp's main). */
#include <adapt/adapt.h>
#include <adapt/loop.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
}

#include "iso_api_test.h"

namespace iso_api_test {

namespace {
/* One cell of each linear type on the unit cube (VTK's numbering), its
 * points stored in the order perm (so that the split starts from another
 * vertex), field z: the surface at 0.3 (pyramid: 0.5) is the plane's
 * section, of known area, whatever the split. */
struct OneCell {
  uint8_t type;
  std::vector<double> xyz; /* in VTK's local order */
  double value, area;
};

const OneCell kCells[] = {
    {ai::tetra, {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, 0.5, 0.125},
    {ai::voxel, {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1}, 0.3, 1},
    {ai::hexahedron,
     {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1},
     0.3,
     1},
    {ai::wedge, {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1}, 0.3, 0.5},
    {ai::pyramid, {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5, 0.5, 1}, 0.5, 0.25},
};

} // namespace

void test_split_one_cell(void **) {
  for (const OneCell &c : kCells) {
    const int n = (int)c.xyz.size() / 3;
    for (int rot = 0; rot < n; rot++) {
      /* Local vertex k is global point (k + rot) % n, reversed when rot
       * is odd: every vertex is the smallest id once. */
      std::vector<double> pts(c.xyz.size()), sc((size_t)n);
      std::vector<int32_t> conn((size_t)n);
      for (int k = 0; k < n; k++) {
        const int g = rot & 1 ? (n - 1 - (k + rot) % n) : (k + rot) % n;
        conn[(size_t)k] = g;
        for (int j = 0; j < 3; j++)
          pts[3 * (size_t)g + (size_t)j] = c.xyz[3 * (size_t)k + (size_t)j];
        sc[(size_t)g] = c.xyz[3 * (size_t)k + 2];
      }
      const int32_t off[2] = {0, n};
      ai::input in;
      in.points = ai::view(pts.data(), (size_t)n, 3);
      in.scalars = ai::view(sc.data(), (size_t)n);
      in.connectivity = ai::view(conn.data(), (size_t)n);
      in.offsets = ai::view(off, 2);
      in.types = ai::view(&c.type, 1);
      ai::request req = request_at({c.value});
      req.cell_ids = true;
      ai::surface s;
      run_ok(in, req, &s);
      assert_true(s.num_triangles() >= 1);
      assert_true(std::fabs(s.area() - c.area) < 1e-12);
      for (size_t p = 0; p < s.num_points(); p++)
        assert_true(std::fabs(s.points()[3 * p + 2] - c.value) < 1e-12);
      for (size_t f = 0; f < s.num_triangles(); f++) assert_int_equal(s.cell_ids()[f], 0);
    }
  }
}

namespace {

/* The grid's hexahedra as cells of `type` (hexahedron, voxel, or wedge: two
 * per hexahedron, cut along the same diagonal in every one), the waves
 * field: the surface has no crack, i.e. an edge used by one triangle only
 * lies on the box's boundary. */
void crack_free(uint8_t type) {
  const iso::Mesh &m = grid();
  auto id = [](int i, int j, int k) { return (int64_t)(i + kNx * (j + kNy * k)); };
  std::vector<double> pts, sc;
  for (int k = 0; k < kNz; k++)
    for (int j = 0; j < kNy; j++)
      for (int i = 0; i < kNx; i++) {
        pts.insert(pts.end(), {(double)i, (double)j, (double)k});
        sc.push_back(iso::field_value(iso::Field::Waves, i, j, k, kNx - 1, kNy - 1, kNz - 1));
      }
  std::vector<int64_t> conn, off = {0};
  std::vector<uint8_t> types;
  for (int k = 0; k + 1 < kNz; k++)
    for (int j = 0; j + 1 < kNy; j++)
      for (int i = 0; i + 1 < kNx; i++) {
        const int64_t h[8] = {
            id(i, j, k),     id(i + 1, j, k),     id(i + 1, j + 1, k),     id(i, j + 1, k),
            id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)};
        if (type == ai::hexahedron) {
          conn.insert(conn.end(), h, h + 8);
        } else if (type == ai::voxel) {
          conn.insert(conn.end(), {h[0], h[1], h[3], h[2], h[4], h[5], h[7], h[6]});
        } else {
          conn.insert(conn.end(), {h[0], h[1], h[2], h[4], h[5], h[6]});
          conn.insert(conn.end(), {h[0], h[2], h[3], h[4], h[6], h[7]});
          types.push_back(type);
          off.push_back((int64_t)conn.size() - 6);
        }
        types.push_back(type);
        off.push_back((int64_t)conn.size());
      }
  const ai::input in = cells_input(pts, sc, conn, off, types);
  ai::request req = request_at({0.1});
  req.cell_ids = true;
  ai::surface s;
  run_ok(in, req, &s);
  assert_true(s.num_triangles() > 100);
  std::map<std::pair<int64_t, int64_t>, int> uses;
  for (size_t f = 0; f < s.num_triangles(); f++) {
    assert_true(s.cell_ids()[f] >= 0 && (size_t)s.cell_ids()[f] < types.size());
    for (int e = 0; e < 3; e++) {
      int64_t a = s.triangles()[3 * f + (size_t)e], b = s.triangles()[3 * f + (size_t)(e + 1) % 3];
      uses[std::make_pair(std::min(a, b), std::max(a, b))]++;
    }
  }
  auto boundary = [&](int64_t p) {
    const double *x = s.points() + 3 * p;
    return x[0] == 0 || x[0] == kNx - 1 || x[1] == 0 || x[1] == kNy - 1 || x[2] == 0 ||
           x[2] == kNz - 1;
  };
  for (const auto &u : uses) {
    assert_true(u.second <= 2);
    if (u.second == 1) assert_true(boundary(u.first.first) && boundary(u.first.second));
  }
  (void)m;
}

} // namespace

void test_split_meshes(void **) {
  crack_free(ai::hexahedron);
  crack_free(ai::voxel);
  crack_free(ai::wedge);
}

namespace {

/* extract() fails with rc, a message, and an empty surface. */
void expect_error(const ai::input &in, const ai::request &req, int rc) {
  ai::surface s;
  run_ok(input_of(grid()), request_at({kIso}), &s); /* not empty before */
  const int got = ai::extract(in, req, &s);
  if (got != rc) std::fprintf(stderr, "expected %d, got %d: %s\n", rc, got, s.message());
  assert_int_equal(got, rc);
  assert_true(std::strlen(s.message()) > 0);
  assert_null(std::strchr(s.message(), '\n'));
  assert_int_equal(s.num_points(), 0);
  assert_int_equal(s.num_triangles(), 0);
}

} // namespace

void test_input_errors(void **) {
  const iso::Mesh &m = grid();
  const ai::input good = input_of(m);
  const ai::request req = request_at({kIso});
  assert_int_equal(ai::extract(good, req, nullptr), -EINVAL);
  ai::input in = good;
  in.points.data = nullptr;
  expect_error(in, req, -EINVAL); /* NULL array */
  in = good;
  in.points.components = 2;
  expect_error(in, req, -EINVAL);
  in = good;
  in.points.type = ai::dtype::int32;
  expect_error(in, req, -EINVAL);
  in = good;
  in.points.count = SIZE_MAX / 8;
  expect_error(in, req, -EOVERFLOW); /* count * size */
  in = good;
  in.points.count = in.scalars.count = (size_t)1 << 32;
  expect_error(in, req, -EOVERFLOW); /* 32-bit point ids */
  in = good;
  in.scalars.count--;
  expect_error(in, req, -EINVAL); /* lengths */
  in = good;
  in.scalars.type = (ai::dtype)99;
  expect_error(in, req, -EINVAL);
  in = good;
  in.connectivity.count -= 2;
  expect_error(in, req, -EINVAL); /* not 4 per tetrahedron */
  std::vector<int32_t> ids(&m.tets[0].v[0], &m.tets[0].v[0] + 4 * m.tets.size());
  in = good;
  in.connectivity = ai::view(ids.data(), ids.size());
  ids[77] = -1;
  expect_error(in, req, -ERANGE);
  ids[77] = (int32_t)m.pts.size();
  expect_error(in, req, -ERANGE);
  ids[77] = 0;
  std::vector<uint64_t> ids64(ids.begin(), ids.end());
  ids64.back() = (uint64_t)1 << 40;
  ai::input in64 = good;
  in64.connectivity = ai::view(ids64.data(), ids64.size());
  expect_error(in64, req, -ERANGE);
  /* VTK cells: a 2D cell, an unknown type, wrong point counts, offsets. */
  std::vector<int32_t> off;
  for (size_t c = 0; c <= m.tets.size(); c++) off.push_back((int32_t)(4 * c));
  std::vector<uint8_t> types(m.tets.size(), ai::tetra);
  in.offsets = ai::view(off.data(), off.size());
  in.types = ai::view(types.data(), types.size());
  {
    ai::surface ok; /* the cells as given are good */
    run_ok(in, req, &ok);
  }
  ids[77] = -1; /* an id out of range in a cell */
  expect_error(in, req, -ERANGE);
  ids[77] = 0;
  types[5] = 5; /* VTK_TRIANGLE */
  expect_error(in, req, -ENOTSUP);
  types[5] = 42;
  expect_error(in, req, -ENOTSUP);
  types[5] = ai::hexahedron; /* 4 points for a hexahedron */
  expect_error(in, req, -EINVAL);
  types[5] = ai::tetra;
  off[0] = 1;
  expect_error(in, req, -EINVAL);
  off[0] = 0;
  in.offsets.count--;
  expect_error(in, req, -EINVAL);
  in.offsets.count++;
  in.types.type = ai::dtype::int8;
  expect_error(in, req, -EINVAL);
}

/* The checks the cell phase makes as it reads the cells (ids below the
 * point count; the offsets of VTK's arrays of tetrahedra): a bad cell
 * first, in the middle or last, on 1 and 2 workers at a small grain (a
 * thief stops the call), with several values or none, fails with the
 * error and message of the first bad cell, as a check before the
 * extraction gives them. */
void test_deferred_checks(void **) {
  iso::Mesh g;
  iso::Grid spec;
  spec.np[0] = spec.np[1] = spec.np[2] = 30; /* 121,945 tetrahedra, 3,811 blocks */
  spec.field = iso::Field::Waves;
  std::string err;
  assert_int_equal(iso::tetrahedralize_grid(spec, iso::Split::Five, iso::Order::Lex, 1, &g, &err),
                   0);
  const size_t nt = g.tets.size(), npts = g.pts.size();
  std::vector<int64_t> ids(&g.tets[0].v[0], &g.tets[0].v[0] + 4 * nt), off(nt + 1);
  for (size_t c = 0; c <= nt; c++) off[c] = (int64_t)(4 * c);
  const std::vector<uint8_t> types(nt, ai::tetra);
  start_workers(2);
  for (bool vtk : {false, true})
    for (int w : {1, 2})
      for (size_t at : {(size_t)0, nt / 2, nt - 1}) {
        ai::input in;
        in.points = ai::view(&g.pts[0].x, npts, 3);
        in.scalars = ai::view(g.scalars.data(), npts);
        in.connectivity = ai::view(ids.data(), ids.size());
        if (vtk) {
          in.offsets = ai::view(off.data(), off.size());
          in.types = ai::view(types.data(), types.size());
        }
        ai::request req = request_at({0.0, 0.25});
        req.policy = ai::policy().workers(w).grain(32);
        ids[4 * at + 2] = (int64_t)npts;
        if (at + 1 < nt) ids[4 * nt - 1] = -1; /* a later one too */
        const std::string want =
            vtk ? "connectivity[" + std::to_string(4 * at + 2) + "]: point id " +
                      std::to_string(npts) + " outside"
                : "cell " + std::to_string(at) + ": point id " + std::to_string(npts) + " outside";
        for (size_t nv : {2, 0}) {
          req.values.resize(nv);
          ai::surface s;
          assert_int_equal(ai::extract(in, req, &s), -ERANGE);
          if (std::strncmp(s.message(), want.c_str(), want.size()))
            std::fprintf(stderr, "expected \"%s...\", got \"%s\"\n", want.c_str(), s.message());
          assert_int_equal(std::strncmp(s.message(), want.c_str(), want.size()), 0);
          assert_int_equal(s.num_triangles(), 0);
        }
        ids[4 * at + 2] = g.tets[at].v[2];
        ids[4 * nt - 1] = g.tets[nt - 1].v[3];
        if (!vtk) continue;
        /* Offsets: cell at - 1 (or at) of 5 points, its next of 3. */
        const size_t k = at ? at : 1;
        off[k]++;
        req.values = {0.0};
        ai::surface s;
        assert_int_equal(ai::extract(in, req, &s), -EINVAL);
        const std::string cell = "cell " + std::to_string(k - 1) + ": offsets";
        assert_int_equal(std::strncmp(s.message(), cell.c_str(), cell.size()), 0);
        off[k]--;
        run_ok(in, req, &s); /* all restored */
        assert_true(s.num_triangles() > 0);
        /* Another type (read 8 a word, the last ones apart): the cells are
         * checked before, as VTK cells (4 points for a hexahedron). */
        std::vector<uint8_t> other = types;
        other[at] = ai::hexahedron;
        in.types = ai::view(other.data(), other.size());
        assert_int_equal(ai::extract(in, req, &s), -EINVAL);
        const std::string hex = "cell " + std::to_string(at) + ": offsets";
        assert_int_equal(std::strncmp(s.message(), hex.c_str(), hex.size()), 0);
      }
}

void test_request_errors(void **) {
  const iso::Mesh &m = grid();
  const ai::input good = input_of(m);
  const ai::request req = request_at({kIso});
  ai::request bad = req;
  bad.values.push_back(NAN);
  expect_error(good, bad, -EINVAL);
  bad = req;
  bad.point_data = {ai::view(m.scalars.data(), m.scalars.size() - 1)};
  expect_error(good, bad, -EINVAL);
  bad = req;
  bad.cell_data = {ai::view(m.scalars.data(), m.tets.size() + 1)};
  expect_error(good, bad, -EINVAL);
  bad = req;
  bad.point_data = {ai::view(m.scalars.data(), m.scalars.size(), 0)};
  expect_error(good, bad, -EINVAL);
  bad = req;
  bad.policy = ai::policy().workers(-1);
  expect_error(good, bad, -EINVAL);
  /* A surface that failed works again, its message cleared. */
  ai::surface s;
  assert_int_equal(ai::extract(good, bad, &s), -EINVAL);
  run_ok(good, req, &s);
  assert_same(s, reference(m, kIso));
}

} // namespace iso_api_test
