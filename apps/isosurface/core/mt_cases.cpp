/* apps/isosurface/core: the marching tetrahedra's case table (see mt_cases.h). */
#include "mt_cases.h"

#include "mt_geometry.h"

namespace iso {

const CaseTable cases;

CaseTable::CaseTable() {
  for (int idx = 0; idx < 16; idx++) {
    make_triangles(idx);
    make_distinct_edges(idx);
    make_orientation(idx);
  }
}

/* ntri and edge of case idx: 1 or 3 inside, one triangle around the lone
 * vertex; 2 inside {a,b}, outside {c,d}, the quad (a,c) (b,c) (b,d) (a,d)
 * split along (a,c)-(b,d). */
void CaseTable::make_triangles(int idx) {
  int in[4], out[4], ni = 0, no = 0;
  for (int v = 0; v < 4; v++) {
    if (idx & (1 << v))
      in[ni++] = v;
    else
      out[no++] = v;
  }
  ntri[idx] = 0;
  if (ni == 1 || ni == 3) {
    int lone = ni == 1 ? in[0] : out[0];
    const int *others = ni == 1 ? out : in;
    for (int k = 0; k < 3; k++) {
      edge[idx][0][k][0] = lone;
      edge[idx][0][k][1] = others[k];
    }
    ntri[idx] = 1;
  } else if (ni == 2) {
    const int a = in[0], b = in[1], c = out[0], d = out[1];
    const int quad[4][2] = {{a, c}, {b, c}, {b, d}, {a, d}};
    const int split[2][3] = {{0, 1, 2}, {0, 2, 3}};
    for (int t = 0; t < 2; t++)
      for (int k = 0; k < 3; k++) {
        edge[idx][t][k][0] = quad[split[t][k]][0];
        edge[idx][t][k][1] = quad[split[t][k]][1];
      }
    ntri[idx] = 2;
  }
}

/* The distinct crossed edges of case idx, and each triangle's corners as
 * indices into them (each crossed edge is interpolated once). */
void CaseTable::make_distinct_edges(int idx) {
  nedge[idx] = 0;
  for (int t = 0; t < ntri[idx]; t++)
    for (int k = 0; k < 3; k++) {
      const int p = edge[idx][t][k][0], q = edge[idx][t][k][1];
      int e = 0;
      while (e < nedge[idx] && !((cedge[idx][e][0] == p && cedge[idx][e][1] == q) ||
                                 (cedge[idx][e][0] == q && cedge[idx][e][1] == p)))
        e++;
      if (e == nedge[idx]) {
        cedge[idx][e][0] = p;
        cedge[idx][e][1] = q;
        nedge[idx]++;
      }
      tedge[idx][t][k] = e;
    }
}

/* swap_pos of case idx on the unit tetrahedron (determinant 1), scalars 1
 * inside and 0 outside, the crossings at the midpoints: the gradient is
 * (s1 - s0, s2 - s0, s3 - s0), every value exact. */
void CaseTable::make_orientation(int idx) {
  static const double V[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  double sv[4];
  for (int v = 0; v < 4; v++) sv[v] = (idx >> v) & 1 ? 1.0 : 0.0;
  const double grad[3] = {sv[1] - sv[0], sv[2] - sv[0], sv[3] - sv[0]};
  for (int t = 0; t < 2; t++) {
    swap_pos[idx][t] = false;
    if (t >= ntri[idx]) continue;
    double x[3][3];
    for (int k = 0; k < 3; k++)
      for (int a = 0; a < 3; a++)
        x[k][a] = 0.5 * (V[edge[idx][t][k][0]][a] + V[edge[idx][t][k][1]][a]);
    double u[3], w[3], nrm[3];
    for (int a = 0; a < 3; a++) {
      u[a] = x[1][a] - x[0][a];
      w[a] = x[2][a] - x[0][a];
    }
    cross(u, w, nrm);
    swap_pos[idx][t] = dot(nrm, grad) < 0;
  }
}

} // namespace iso
