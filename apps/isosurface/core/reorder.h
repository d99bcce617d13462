/* apps/isosurface/core: the locality of a mesh's numbering, and renumbering
 * along a space-filling curve (issue 15). No VTK here.
 *
 * The extraction assumes that cells close in the cell array share points
 * and that those points are close in the point array (mesh.h). Meshes from
 * generators and adaptation codes often break both; measure_numbering says
 * how much (cheap: a fixed sample of cells), reorder_cells renumbers the
 * cells along a Morton or Hilbert curve of their centroids and the points
 * in order of first use by the new cell order, in parallel on libadapt's
 * runtime (adapt_for, the C++ front end's adapt::sort).
 *
 * Determinism: every function here computes the same permutation whatever
 * the worker count and schedule (curve keys with ties broken by the
 * original cell index, first use as a minimum over cell slots), so the
 * surface of a renumbered mesh is byte-identical across modes and workers.
 * Renumbering is a permutation of the points and of the cells (each cell
 * keeps its points and their order): degenerate cells, unused points (kept,
 * numbered after the used ones in their previous order) and duplicate
 * points stay as they were, and so does the surface up to its vertex
 * numbering and triangle order.
 *
 * Calling context: reorder_cells: any thread that may run adapt_for (the
 * runtime starts lazily: start it first when its configuration matters);
 * the others are sequential. Not thread-safe on the same mesh. Errors: negative errno with a message in *err; the mesh
 * is then untouched. */
#ifndef APPS_ISOSURFACE_CORE_REORDER_H
#define APPS_ISOSURFACE_CORE_REORDER_H

#include "mesh.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace iso {

/* --reorder: none, a curve, or auto (a curve only when the numbering is
 * poor: reorder_needed). */
enum class Reorder { None, Morton, Hilbert, Auto };
int parse_reorder(const std::string &name, Reorder *out); /* 0 or -EINVAL */
const char *reorder_name(Reorder r);

/* --point-order: keep the points' numbering, renumber them by first use in
 * the cell order, or shuffle them (seeded: a poor numbering on purpose). */
enum class PointOrder { Keep, FirstUse, Random };
int parse_point_order(const std::string &name, PointOrder *out); /* 0 or -EINVAL */
const char *point_order_name(PointOrder p);

/* Numbering of a numbering, over a sample of at most ISO_NUMBERING_SAMPLES
 * cells c evenly spread over the cell array (all cells of small meshes):
 *  - cell_spread: median of (largest - smallest point id of c) / points,
 *    how far apart in the point array the points of one cell are;
 *  - pair_spread: the same over the points of c and of the cell before it
 *    (c - 1), so that a cell order unrelated to space shows even when each
 *    cell's points are close; pair_p90 its 90% quantile.
 * 0 is perfect; a random numbering gives about 0.6 (cell) and 0.75 (pair);
 * a generated lexicographic box of nz layers about 1/nz. Empty meshes: 0. */
struct Numbering {
  double cell_spread = 0;
  double pair_spread = 0;
  double pair_p90 = 0;
  size_t samples = 0;
};
Numbering measure_numbering(const Mesh &m);

/* Whether --reorder auto renumbers: at least ISO_REORDER_MIN_POINTS points
 * (a smaller point array stays in the L2 cache whatever its order) and a
 * median pair spread above ISO_REORDER_POOR_SPREAD (iso_config.h). */
bool reorder_needed(const Numbering &loc, size_t npoints);

/* Phase times of a renumbering, seconds. */
struct ReorderTiming {
  double keys = 0;   /* bounding box and curve keys of the cells */
  double sort = 0;   /* sorting the keys */
  double apply = 0;  /* gathering the cells in the new order */
  double points = 0; /* first-use point numbering, moving the points, relabelling the cells */
};

/* Renumber the cells of *m along curve (Reorder::Morton or Reorder::Hilbert)
 * of their centroids (quantized in the points' bounding box, the same
 * scale on every axis, ISO_REORDER_KEY_EXTRA_BITS bits finer than the mean
 * cell spacing), then the points by first use (below). The mesh's
 * point_data and cell_data move with their points and cells (sequentially,
 * in the cells' and points' times). *timing may be NULL. -EINVAL another
 * curve, -ENOMEM, the runtime's errors. */
int reorder_cells(Mesh *m, Reorder curve, ReorderTiming *timing, std::string *err);

/* Renumber the points of *m in order of first use by its cells (cell by
 * cell, each cell's points in their order); unused points follow in their
 * previous order, the point_data with them. Sequential, no runtime
 * (--point-order first-use, and the reference of reorder_cells' parallel
 * numbering in the tests). -ENOMEM. */
int renumber_points_first_use(Mesh *m, std::string *err);

/* Shuffle the point numbering of *m (Fisher-Yates, mt19937_64 seeded with
 * seed), the point_data with them: a poor numbering on purpose
 * (--point-order random). Sequential, no runtime. -ENOMEM. */
int shuffle_points(Mesh *m, uint64_t seed, std::string *err);

} // namespace iso

#endif /* APPS_ISOSURFACE_CORE_REORDER_H */
