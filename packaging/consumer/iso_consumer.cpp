// A consumer of the installed <adapt/iso.hpp> (packaging/check_consumers.sh):
// one hexahedron, its field z contoured at 0.25 and 0.75, a point array
// interpolated; exits 0 when the surface is the two unit squares.
#include <adapt/iso.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>

int main() {
  namespace ai = adapt::iso;
  const float xyz[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
  const double z[] = {0, 0, 0, 0, 1, 1, 1, 1};
  const int64_t conn[] = {0, 1, 2, 3, 4, 5, 6, 7}, offsets[] = {0, 8};
  const uint8_t types[] = {ai::hexahedron};
  ai::input in;
  in.points = ai::view(xyz, 8, 3);
  in.scalars = ai::view(z, 8);
  in.connectivity = ai::view(conn, 8);
  in.offsets = ai::view(offsets, 2);
  in.types = ai::view(types, 1);
  ai::request req;
  req.values = {0.25, 0.75};
  req.point_data = {ai::view(z, 8)};
  ai::surface s;
  if (int rc = ai::extract(in, req, &s)) {
    std::fprintf(stderr, "iso consumer: %s (%d)\n", s.message(), rc);
    return 1;
  }
  const double *zi = static_cast<const double *>(s.point_data(0).data);
  const bool ok = std::fabs(s.area() - 2) < 1e-12 && s.num_values() == 2 &&
                  std::fabs(zi[s.first_point(1)] - 0.75) < 1e-12;
  std::printf("iso consumer: %zu points, %zu triangles, area %g\n", s.num_points(),
              s.num_triangles(), s.area());
  return ok ? 0 : 1;
}
