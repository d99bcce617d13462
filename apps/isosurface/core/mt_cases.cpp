/* apps/isosurface/core: the marching tetrahedra's case table (see mt_cases.h). */
#include "mt_cases.h"

#include "mt_geometry.h"

namespace iso {

namespace {
/* Each case's triangles as the local vertex pairs of their corners, in
 * vtkTetra::Contour's order (VTK 9.1's case table, vtkTetra.cxx): the same
 * triangles, corners in the same order (so that the vertices are numbered
 * as vtkContourGrid numbers them) and the same diagonal for the
 * quadrilateral cuts. An unused triangle's pairs are {-1, -1}. */
const signed char kVtkCases[16][2][3][2] = {
    {{{-1, -1}, {-1, -1}, {-1, -1}}, {{-1, -1}, {-1, -1}, {-1, -1}}},
    {{{0, 3}, {0, 1}, {0, 2}}, {{-1, -1}, {-1, -1}, {-1, -1}}},
    {{{1, 2}, {0, 1}, {1, 3}}, {{-1, -1}, {-1, -1}, {-1, -1}}},
    {{{0, 2}, {0, 3}, {1, 3}}, {{0, 2}, {1, 3}, {1, 2}}},
    {{{0, 2}, {1, 2}, {2, 3}}, {{-1, -1}, {-1, -1}, {-1, -1}}},
    {{{2, 3}, {0, 3}, {1, 2}}, {{1, 2}, {0, 3}, {0, 1}}},
    {{{0, 2}, {0, 1}, {2, 3}}, {{2, 3}, {0, 1}, {1, 3}}},
    {{{2, 3}, {0, 3}, {1, 3}}, {{-1, -1}, {-1, -1}, {-1, -1}}},
    {{{1, 3}, {0, 3}, {2, 3}}, {{-1, -1}, {-1, -1}, {-1, -1}}},
    {{{1, 3}, {0, 1}, {2, 3}}, {{2, 3}, {0, 1}, {0, 2}}},
    {{{2, 3}, {0, 1}, {0, 3}}, {{1, 2}, {0, 1}, {2, 3}}},
    {{{0, 2}, {2, 3}, {1, 2}}, {{-1, -1}, {-1, -1}, {-1, -1}}},
    {{{1, 3}, {0, 3}, {1, 2}}, {{1, 2}, {0, 3}, {0, 2}}},
    {{{1, 3}, {0, 1}, {1, 2}}, {{-1, -1}, {-1, -1}, {-1, -1}}},
    {{{0, 2}, {0, 1}, {0, 3}}, {{-1, -1}, {-1, -1}, {-1, -1}}},
    {{{-1, -1}, {-1, -1}, {-1, -1}}, {{-1, -1}, {-1, -1}, {-1, -1}}},
};

} // namespace

const CaseTable cases;

CaseTable::CaseTable() {
  for (int idx = 0; idx < 16; idx++) {
    make_triangles(idx);
    make_distinct_edges(idx);
    make_orientation(idx);
  }
}

/* ntri and edge of case idx, from kVtkCases. */
void CaseTable::make_triangles(int idx) {
  ntri[idx] = 0;
  for (int t = 0; t < 2 && kVtkCases[idx][t][0][0] >= 0; t++) {
    for (int k = 0; k < 3; k++) {
      edge[idx][t][k][0] = kVtkCases[idx][t][k][0];
      edge[idx][t][k][1] = kVtkCases[idx][t][k][1];
    }
    ntri[idx] = t + 1;
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
 * (s1 - s0, s2 - s0, s3 - s0), every value exact; a triangle whose normal
 * has a positive component along it is swapped. (VTK's table needs no swap
 * there: every swap_pos is false.) */
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
    swap_pos[idx][t] = dot(nrm, grad) > 0;
  }
}

} // namespace iso
