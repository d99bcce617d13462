/* apps/isosurface/core/mt_cases.h: the marching tetrahedra's case table: for
 * each of the 16 inside/outside cases of a cell, its triangles as crossed
 * edges, and how each triangle is oriented. Internal to the extraction
 * (mt.cpp, cell_phase.cpp). No VTK here. */
#ifndef APPS_ISOSURFACE_CORE_MT_CASES_H
#define APPS_ISOSURFACE_CORE_MT_CASES_H

namespace iso {

/* Triangles of each of the 16 inside/outside cases, as pairs of local
 * vertices (the crossed edges): those of VTK's vtkTetra::Contour, in its
 * order (its triangles, their corners' order, its diagonal of the
 * quadrilateral cuts: mt_cases.cpp, kVtkCases).
 *
 * Orientation: a triangle's normal points against the gradient of the
 * cell's linear field (towards the outside points, the smaller scalars):
 * VTK's winding in a cell of positive determinant, where its table needs
 * no swap; in a cell of negative determinant VTK's triangles flip with the
 * cell, ours are swapped so that the surface stays consistently oriented.
 * For corners x_k on the crossed edges at parameters in (0, 1), the sign
 * of dot(normal, gradient) is that of orient3d(x_0, x_1, x_2, an inside
 * vertex), which is the tetrahedron's determinant times the determinant
 * of the corners' barycentric
 * coordinates. The latter never vanishes while the parameters stay in
 * (0, 1) (the triangle is a non-degenerate piece of the section, the
 * inside vertex strictly on one side), so its sign depends on the case and
 * the triangle only: swap_pos, computed once on the unit tetrahedron with
 * the crossings at the edges' midpoints. A cell then needs the sign of its
 * determinant, not its gradient and each triangle's normal: 20% less time
 * in the cell phase on the meshes with large surfaces (docs/
 * benchmarks-isosurface.md, "Orientation from the case table"). The
 * gradient test it replaces agreed on every triangle of the eight
 * benchmark meshes; they differ only on degenerate triangles (zero area,
 * or a flat cell), where the gradient test's sign was rounding noise and
 * this one is fixed (no swap on a flat cell). */
struct CaseTable {
  int ntri[16];
  int edge[16][2][3][2];
  int nedge[16];
  int cedge[16][4][2];
  int tedge[16][2][3];
  /* In a cell of positive determinant, triangle t of case idx is written
   * with its last two corners swapped (see above). */
  bool swap_pos[16][2];
  CaseTable();

private:
  void make_triangles(int idx);
  void make_distinct_edges(int idx);
  void make_orientation(int idx);
};
extern const CaseTable cases;

/* Whether triangle tr of case idx is written with its last two corners
 * swapped, in a cell of determinant det (none when det is 0 or NaN). */
inline bool swap_corners(int idx, int tr, double det) {
  return det > 0 ? cases.swap_pos[idx][tr] : det < 0 && !cases.swap_pos[idx][tr];
}

} // namespace iso

#endif /* APPS_ISOSURFACE_CORE_MT_CASES_H */
