/* apps/isosurface/core/cell_phase.h: the cell phase of extract() (mt.h): the
 * points classified, then the cells' triangles as packed vertex keys into
 * chunks, in cell order, adaptive (adapt_seq_run) or in plain loops.
 * Internal to the extraction (cell_phase.cpp, extract.cpp; CellInput also
 * for the locality model's recorder, locality.cpp). No VTK here. */
#ifndef APPS_ISOSURFACE_CORE_CELL_PHASE_H
#define APPS_ISOSURFACE_CORE_CELL_PHASE_H

#include "arena.h"
#include "iso_config.h"
#include "mesh.h"
#include "mt.h"
#include "vertex_merge.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include <adapt/seq.h>

namespace iso {

/* What a kernel over the cells reads: the points' positions and scalars,
 * the cells, the iso value. */
struct CellInput {
  const Point *pts;
  const double *sc;
  const Tet *tets;
  size_t ntets;
  double iso;
};

inline CellInput cell_input(const Mesh &m, double iso) {
  return CellInput{m.pts.data(), m.scalars.data(), m.tets.data(), m.tets.size(), iso};
}

/* Do the cells hold mostly separate point id ranges (a local cell order)?
 * Estimated on a sample of the cells: cut into ISO_LOCAL_SAMPLE_PARTS
 * parts, the summed ranges of the parts' smallest point ids must not
 * exceed ISO_PAR_MERGE_OVERLAP * parts times the whole range (1 for
 * disjoint ranges, parts when every part spans everything). Otherwise
 * (random orders) most vertices of a merge chunk would be looked up in
 * most earlier chunks, and one chunk (the sequential merge) is faster. */
bool cells_local(const MeshView &m);

/* The cell phase runs adapt_seq_run over blocks of ISO_CELL_BLOCK cells
 * (one unit = one block, so that the indirect call is amortised; the last
 * block is shorter), or the same kernel in a plain loop (Mode::Seq). A
 * piece's state is a list of chunks in cell order: the blocks' triangles
 * are appended to the last one as packed keys, straight into its buffer
 * (no copy, first touched by the worker that computes them); a chunk of
 * chunk_tris triangles or more is sealed and, on local orders, goes
 * through the merge's local phase at once. A thief's list is linked after
 * its victim's (or, when the thief made one unsealed chunk that fits, its
 * keys appended to the victim's last chunk, so that steals do not leave
 * many small chunks). */
struct CellCtx {
  const MeshView *mesh;
  double iso;
  const uint8_t *in; /* the points' inside bytes (1 if s >= iso) */
  OwnerMap owner;    /* v NULL: not local, one chunk in the end */
  Arena *arena;
  Arena *tables;
  size_t chunk_tris; /* a chunk is sealed at this many triangles */
  bool local;
};

struct PieceState {
  KeyChunk *head, *tail;
  int err; /* -ENOMEM: a chunk could not be allocated */
};
static_assert(sizeof(PieceState) <= ADAPT_SEQ_STATE_MAX, "a piece's state fits");

/* Room of a chunk beyond chunk_tris: one block's triangles at most. */
constexpr size_t kBlockTris = 2 * ISO_CELL_BLOCK;
/* Most triangles of a chunk: its local ids are 32-bit (3 keys each). */
constexpr size_t kMaxChunkTris = ((size_t)UINT32_MAX - 1) / 3;

/* The cell phase of m in mode with opt (its template instance for m's
 * point and scalar types, and for Tet cells read in place or converted a
 * block at a time: chosen once here): the points classified first
 * (inside, ctx.in's memory: one byte per point; ctx.owner.v, when not
 * NULL, set to OwnerMap::kNone), then the cells: the chunks' list into *st (head,
 * tail; st->err -ENOMEM when a chunk could not be allocated). 0, or the
 * runtime's errors (message in *err). */
int run_cell_phase(const MeshView &m, Mode mode, const AdaptOptions &opt, uint8_t *inside,
                   const CellCtx &ctx, PieceState *st, std::string *err);

/* Bytes a cell of m brings into the cache on average: its ids and its
 * share of the points and scalars (cell_bytes of mesh.h for a Mesh). */
size_t cell_bytes(const MeshView &m);

} // namespace iso

#endif /* APPS_ISOSURFACE_CORE_CELL_PHASE_H */
