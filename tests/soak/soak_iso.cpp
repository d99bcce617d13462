/* tests/soak: isosurface extractions (soak_iso_job) through the public
 * header <adapt/iso.hpp>, from any of the soak's threads: a small grid of
 * g^3 cubes (g 2-16) generated in memory (tetrahedra, 6 per cube, with 32- or 64-bit
 * ids, or VTK cell arrays of hexahedra), random scalars, 1-3 isovalues,
 * random optional outputs and a random parallel policy; the surface must
 * equal, byte for byte, the one of the sequential policy (the library's
 * guarantee), and hold triangles whose ids are in range. */
#include <adapt/iso.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "soak.h"

namespace {

namespace ai = adapt::iso;

/* The mesh's arrays (the input's views point into them). */
struct mesh {
  std::vector<double> points, scalars;
  std::vector<std::int32_t> ids32;
  std::vector<std::int64_t> ids64, offsets;
  std::vector<std::uint8_t> types;
  ai::input in;
};

/* The 6 tetrahedra of a cube around its diagonal 0-6 (VTK's hexahedron
 * numbering): conforming between neighbouring cubes. */
const int kuhn[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6},
                        {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};

void make_mesh(rng *r, mesh *m, std::size_t g) {
  const std::size_t q = g + 1;
  auto id = [q](std::size_t x, std::size_t y, std::size_t z) {
    return (std::int64_t)((z * q + y) * q + x);
  };
  for (std::size_t z = 0; z < q; z++)
    for (std::size_t y = 0; y < q; y++)
      for (std::size_t x = 0; x < q; x++) {
        m->points.insert(m->points.end(), {(double)x, (double)y, (double)z});
        m->scalars.push_back((double)(next(r) % 1000) / 1000.0);
      }
  const int kind = (int)rnd(r, 3); /* tetrahedra with 32- or 64-bit ids, hexahedra */
  for (std::size_t z = 0; z < g; z++)
    for (std::size_t y = 0; y < g; y++)
      for (std::size_t x = 0; x < g; x++) {
        const std::int64_t c[8] = {
            id(x, y, z),     id(x + 1, y, z),     id(x + 1, y + 1, z),     id(x, y + 1, z),
            id(x, y, z + 1), id(x + 1, y, z + 1), id(x + 1, y + 1, z + 1), id(x, y + 1, z + 1)};
        if (kind == 2) {
          m->offsets.push_back((std::int64_t)m->ids64.size());
          m->ids64.insert(m->ids64.end(), c, c + 8);
          m->types.push_back((std::uint8_t)ai::hexahedron);
          continue;
        }
        for (const auto &t : kuhn)
          for (int v : t) {
            if (kind == 0)
              m->ids32.push_back((std::int32_t)c[v]);
            else
              m->ids64.push_back(c[v]);
          }
      }
  m->in.points = ai::view(m->points.data(), m->points.size() / 3, 3);
  m->in.scalars = ai::view(m->scalars.data(), m->scalars.size());
  if (kind == 0) {
    m->in.connectivity = ai::view(m->ids32.data(), m->ids32.size());
  } else {
    m->in.connectivity = ai::view(m->ids64.data(), m->ids64.size());
  }
  if (kind == 2) {
    m->offsets.push_back((std::int64_t)m->ids64.size());
    m->in.offsets = ai::view(m->offsets.data(), m->offsets.size());
    m->in.types = ai::view(m->types.data(), m->types.size());
  }
}

bool same(const void *a, const void *b, std::size_t bytes) {
  return bytes == 0 || (a && b && std::memcmp(a, b, bytes) == 0);
}

/* The parallel surface s against the sequential one ref: every output
 * byte for byte; the name of what differs, or nullptr. */
const char *compare(const ai::surface &s, const ai::surface &ref, const ai::request &req) {
  const std::size_t np = ref.num_points(), nt = ref.num_triangles();
  if (s.num_points() != np || s.num_triangles() != nt || s.num_values() != ref.num_values())
    return "counts";
  for (std::size_t i = 0; i <= ref.num_values(); i++)
    if (s.first_point(i) != ref.first_point(i) || s.first_triangle(i) != ref.first_triangle(i))
      return "parts";
  if (!same(s.points(), ref.points(), np * 3 * sizeof(double))) return "points";
  if (!same(s.triangles(), ref.triangles(), nt * 3 * sizeof(std::int64_t))) return "triangles";
  if (req.normals && !same(s.normals(), ref.normals(), np * 3 * sizeof(float))) return "normals";
  if (req.cell_ids && !same(s.cell_ids(), ref.cell_ids(), nt * sizeof(std::int64_t)))
    return "cell ids";
  if (req.scalars && !same(s.scalars(), ref.scalars(), np * sizeof(double))) return "scalars";
  for (std::size_t i = 0; i < ref.num_point_data(); i++)
    if (!same(s.point_data(i).data, ref.point_data(i).data, np * 3 * sizeof(double)))
      return "point data";
  for (std::size_t t = 0; t < nt * 3; t++)
    if (ref.triangles()[t] < 0 || (std::size_t)ref.triangles()[t] >= np)
      return "a triangle's point id";
  return nullptr;
}

} // namespace

extern "C" void soak_iso_job(rng *r) {
  /* 2-16 cubes a side (2-8 with the sanitizers' smaller sizes). */
  const std::size_t g = 2 + rnd(r, soak_size_cap >= ((std::size_t)1 << 17) ? 15 : 7);
  mesh m;
  make_mesh(r, &m, g);
  ai::request req;
  const std::size_t nv = 1 + rnd(r, 3);
  for (std::size_t i = 0; i < nv; i++) req.values.push_back((double)(1 + rnd(r, 998)) / 1000.0);
  req.normals = rnd(r, 2) != 0;
  req.cell_ids = rnd(r, 2) != 0;
  req.scalars = rnd(r, 2) != 0;
  if (rnd(r, 2)) req.point_data.push_back(m.in.points);
  static const ai::mode modes[] = {ai::mode::none, ai::mode::static_, ai::mode::sliding};
  const ai::mode mode = modes[rnd(r, 3)];
  req.policy = ai::policy()
                   .window(mode, rnd(r, 2) ? 1 + rnd(r, 4096) : 0)
                   .grain(rnd(r, 2) ? 1 + rnd(r, 256) : 0);
  ai::surface s, ref;
  int rc = ai::extract(m.in, req, &s);
  ai::request seq = req;
  seq.policy = ai::policy().window(ai::mode::sequential);
  int rc_ref = ai::extract(m.in, seq, &ref);
  soak_count(SOAK_ISO, 1);
  soak_count(SOAK_ITERS, g * g * g);
  if (rc || rc_ref) {
    soak_failf("iso extract (g %zu, mode %d): returned %d (%s), sequential %d (%s)", g, (int)mode,
               rc, s.message(), rc_ref, ref.message());
    return;
  }
  if (const char *what = compare(s, ref, req))
    soak_failf("iso extract (g %zu, %zu values, mode %d): %s differ from the sequential surface", g,
               nv, (int)mode, what);
}
