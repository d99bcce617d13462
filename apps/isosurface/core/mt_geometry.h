/* apps/isosurface/core/mt_geometry.h: the geometry of one cell of the
 * marching tetrahedra (see mt.h for the conventions): where an edge is
 * crossed, the vertex keys, packed or not, and the vertices' positions.
 * Inline: the cell phase and the merge call them per edge and per vertex.
 * Internal to the extraction (mt.cpp, mt_cases.cpp, vertex_merge.cpp,
 * cell_phase.cpp). No VTK here. */
#ifndef APPS_ISOSURFACE_CORE_MT_GEOMETRY_H
#define APPS_ISOSURFACE_CORE_MT_GEOMETRY_H

#include "mesh.h"
#include "mt.h"

#include <cstdint>

namespace iso {

inline void cross(const double a[3], const double b[3], double r[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

inline double dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Where the isosurface crosses the edge (p, q), computed exactly as
 * vtkTetra::Contour does: from the end with the smaller scalar (lo), at
 * parameter t towards hi. The vertex is the point hi when t == 1, lo when
 * t == 0 (a point key, shared by every edge ending there), else on the
 * edge. */
struct Crossing {
  uint64_t lo, hi;
  double t;
};

inline Crossing crossing(const double *sc, uint64_t p, uint64_t q, double iso) {
  const double ps = sc[p], qs = sc[q];
  const bool p_lo = qs - ps > 0;
  const double lo_s = p_lo ? ps : qs, hi_s = p_lo ? qs : ps;
  return {p_lo ? p : q, p_lo ? q : p, (iso - lo_s) / (hi_s - lo_s)};
}

/* The vertex key of crossing c of the edge (p, q), packed as pack() does:
 * (a << 32) | b, a <= b (point ids below kMaxMeshPoints). */
inline uint64_t crossing_key(const Crossing &c, uint64_t p, uint64_t q) {
  if (c.t == 1.0) return c.hi << 32 | c.hi;
  if (c.t == 0.0) return c.lo << 32 | c.lo;
  return p < q ? p << 32 | q : q << 32 | p;
}

/* Vertex on the edge (p, q) of a crossed edge: key and position. */
inline void edge_vertex(const Point *pts, const double *sc, int64_t p, int64_t q, double iso,
                        EdgeKey *key, double x[3]) {
  const Crossing c = crossing(sc, (uint64_t)p, (uint64_t)q, iso);
  const uint64_t k = crossing_key(c, (uint64_t)p, (uint64_t)q);
  key->a = (int64_t)(k >> 32);
  key->b = (int64_t)(k & 0xFFFFFFFFu);
  const Point &lo = pts[c.lo], &hi = pts[c.hi];
  if (c.t == 1.0) {
    x[0] = hi.x, x[1] = hi.y, x[2] = hi.z;
  } else if (c.t == 0.0) {
    x[0] = lo.x, x[1] = lo.y, x[2] = lo.z;
  } else {
    x[0] = lo.x + c.t * (hi.x - lo.x);
    x[1] = lo.y + c.t * (hi.y - lo.y);
    x[2] = lo.z + c.t * (hi.z - lo.z);
  }
}

/* A vertex key packed in 64 bits: (a << 32) | b, a <= b < 2^32 (the edge
 * (a, b), or the point a when a == b). extract() refuses meshes of
 * kMaxMeshPoints (2^32 - 1) points or more. */
inline uint64_t pack(const EdgeKey &k) { return (uint64_t)k.a << 32 | (uint64_t)k.b; }

/* Position of the vertex of a packed key: the point, or the crossing of
 * the edge (merge() and km_global alike). */
inline void key_position(const Point *pts, const double *sc, double iso, uint64_t key,
                         double x[3]) {
  const int64_t a = (int64_t)(key >> 32), b = (int64_t)(key & 0xFFFFFFFFu);
  if (a == b) {
    x[0] = pts[a].x, x[1] = pts[a].y, x[2] = pts[a].z;
  } else {
    EdgeKey again;
    edge_vertex(pts, sc, a, b, iso, &again, x);
  }
}

inline bool same(const EdgeKey &u, const EdgeKey &v) { return u.a == v.a && u.b == v.b; }

/* Determinant of the cell (p1 - p0, p2 - p0, p3 - p0). */
inline double cell_det(const Point &p0, const Point &p1, const Point &p2, const Point &p3) {
  const double e[3][3] = {{p1.x - p0.x, p1.y - p0.y, p1.z - p0.z},
                          {p2.x - p0.x, p2.y - p0.y, p2.z - p0.z},
                          {p3.x - p0.x, p3.y - p0.y, p3.z - p0.z}};
  double c[3];
  cross(e[1], e[2], c);
  return dot(e[0], c);
}
} // namespace iso

#endif /* APPS_ISOSURFACE_CORE_MT_GEOMETRY_H */
