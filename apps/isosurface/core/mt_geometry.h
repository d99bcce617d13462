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

template <class S>
inline Crossing crossing(const S *sc, uint64_t p, uint64_t q, double iso) {
  const double ps = (double)sc[p], qs = (double)sc[q];
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

/* Vertex on the edge (p, q) of a crossed edge: key and position. The
 * points P (Point, PointF) and scalars S of any type are read as doubles. */
template <class P, class S>
inline void edge_vertex(const P *pts, const S *sc, int64_t p, int64_t q, double iso, EdgeKey *key,
                        double x[3]) {
  const Crossing c = crossing(sc, (uint64_t)p, (uint64_t)q, iso);
  const uint64_t k = crossing_key(c, (uint64_t)p, (uint64_t)q);
  key->a = (int64_t)(k >> 32);
  key->b = (int64_t)(k & 0xFFFFFFFFu);
  const P &lo = pts[c.lo], &hi = pts[c.hi];
  const double lx = lo.x, ly = lo.y, lz = lo.z, hx = hi.x, hy = hi.y, hz = hi.z;
  if (c.t == 1.0) {
    x[0] = hx, x[1] = hy, x[2] = hz;
  } else if (c.t == 0.0) {
    x[0] = lx, x[1] = ly, x[2] = lz;
  } else {
    x[0] = lx + c.t * (hx - lx);
    x[1] = ly + c.t * (hy - ly);
    x[2] = lz + c.t * (hz - lz);
  }
}

/* A vertex key packed in 64 bits: (a << 32) | b, a <= b < 2^32 (the edge
 * (a, b), or the point a when a == b). extract() refuses meshes of
 * kMaxMeshPoints (2^32 - 1) points or more. */
inline uint64_t pack(const EdgeKey &k) { return (uint64_t)k.a << 32 | (uint64_t)k.b; }

/* Position of the vertex of a packed key: the point, or the crossing of
 * the edge (merge() and km_global alike). */
template <class P, class S>
inline void key_position(const P *pts, const S *sc, double iso, uint64_t key, double x[3]) {
  const int64_t a = (int64_t)(key >> 32), b = (int64_t)(key & 0xFFFFFFFFu);
  if (a == b) {
    x[0] = pts[a].x, x[1] = pts[a].y, x[2] = pts[a].z;
  } else {
    EdgeKey again;
    edge_vertex(pts, sc, a, b, iso, &again, x);
  }
}

/* f(P(), S()) with the point type (Point, PointF) and the scalar type of
 * a MeshView: once per call or phase, the loops inside f. */
template <class F>
void with_mesh_types(bool pts_float, ScalarType st, F &&f) {
  auto with_s = [&](auto p) {
    switch (st) {
    case ScalarType::I8: f(p, int8_t()); break;
    case ScalarType::U8: f(p, uint8_t()); break;
    case ScalarType::I16: f(p, int16_t()); break;
    case ScalarType::U16: f(p, uint16_t()); break;
    case ScalarType::I32: f(p, int32_t()); break;
    case ScalarType::U32: f(p, uint32_t()); break;
    case ScalarType::I64: f(p, int64_t()); break;
    case ScalarType::U64: f(p, uint64_t()); break;
    case ScalarType::F32: f(p, float()); break;
    case ScalarType::F64: f(p, double()); break;
    }
  };
  if (pts_float)
    with_s(PointF());
  else
    with_s(Point());
}

inline bool same(const EdgeKey &u, const EdgeKey &v) { return u.a == v.a && u.b == v.b; }

/* Determinant of the cell (p1 - p0, p2 - p0, p3 - p0), in double. */
template <class P>
inline double cell_det(const P &p0, const P &p1, const P &p2, const P &p3) {
  const double x0 = p0.x, y0 = p0.y, z0 = p0.z;
  const double e[3][3] = {{p1.x - x0, p1.y - y0, p1.z - z0},
                          {p2.x - x0, p2.y - y0, p2.z - z0},
                          {p3.x - x0, p3.y - y0, p3.z - z0}};
  double c[3];
  cross(e[1], e[2], c);
  return dot(e[0], c);
}
} // namespace iso

#endif /* APPS_ISOSURFACE_CORE_MT_GEOMETRY_H */
