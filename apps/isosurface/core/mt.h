/* apps/isosurface/core: marching tetrahedra, sequential reference and adaptive
 * (libadapt sequence engine, adapt_seq_run) extraction. No VTK here.
 *
 * Conventions (those of VTK's vtkTetra::Contour, so that the surfaces equal
 * vtkContourGrid's; the one difference is the winding in cells of negative
 * determinant):
 *  - a point with scalar s >= iso is inside;
 *  - on a crossed edge the vertex is x_lo + t (x_hi - x_lo), t = (iso - s_lo)
 *    / (s_hi - s_lo), lo the end with the smaller scalar;
 *  - one output vertex per crossed edge, keyed by the edge's two point ids; a
 *    vertex that falls exactly on a mesh point (t == 1: s_hi == iso) is keyed
 *    by that point, so all edges ending there share it;
 *  - a triangle with two equal vertex keys is degenerate and dropped;
 *  - each cell's triangles, their corners' order and the diagonal of a
 *    quadrilateral cut are vtkTetra::Contour's (mt_cases.h);
 *  - triangle winding: the normal (v1 - v0) x (v2 - v0) points against the
 *    gradient of the cell's linear field (towards smaller scalars), which is
 *    VTK's winding in every cell of positive determinant; VTK's flips with
 *    a cell of negative determinant, ours does not.
 * Vertices are numbered in order of first appearance in the triangle
 * sequence, and triangles keep the cell order, so the output is the same,
 * byte for byte, whatever the mode and worker count.
 */
#ifndef APPS_ISOSURFACE_CORE_MT_H
#define APPS_ISOSURFACE_CORE_MT_H

#include "arena.h"
#include "mesh.h"

#include <adapt/loop.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace iso {

/* One vertex of the surface, as the mesh edge (a, b), a < b, it lies on, or
 * the mesh point a when a == b. */
struct EdgeKey {
  int64_t a, b;
};

/* One triangle before merging: its three vertices. */
struct TriRec {
  EdgeKey e[3];
};
static_assert(sizeof(TriRec) == 48, "three edge keys");

/* Triangles of one cell (0, 1 or 2) into out[]; returns how many. Pure:
 * reads the points' positions pts and scalars sc, and t only;
 * thread-safe. The point ids of t must be valid. */
size_t mt_cell(const Point *pts, const double *sc, const Tet &t, double iso, TriRec out[2]);

/* Allocator of the surface's arrays: the mesh's (HugeAlloc, mesh.h: large
 * arrays in huge pages), except that resize() leaves new elements of a
 * trivial type uninitialised (extract() writes every element once, from
 * the workers: the pages are first touched in parallel, and nothing is
 * zero-filled serially before). Stateless: all instances are equal. */
template <class T>
struct OutAlloc : HugeAlloc<T> {
  OutAlloc() noexcept = default;
  template <class U>
  OutAlloc(const OutAlloc<U> &) noexcept {}
  /* Default-initialise (no zeroing), where std::allocator value-initialises. */
  template <class U>
  void construct(U *p) noexcept(std::is_nothrow_default_constructible<U>::value) {
    ::new ((void *)p) U;
  }
  template <class U, class... A>
  void construct(U *p, A &&...a) {
    ::new ((void *)p) U(std::forward<A>(a)...);
  }
};

/* The transient memory that extractions into a surface keep for the next
 * one (a MapCache, arena.h, made on first use). Not part of the surface's
 * value: a copy starts without it, a copy assignment leaves the target's
 * as it is, == ignores it; a move takes it along. */
class KeptMemory {
public:
  KeptMemory() = default;
  KeptMemory(const KeptMemory &) noexcept {}
  KeptMemory &operator=(const KeptMemory &) noexcept { return *this; }
  KeptMemory(KeptMemory &&) noexcept = default;
  KeptMemory &operator=(KeptMemory &&) noexcept = default;
  /* The cache, made when absent (NULL when that fails: out of memory). */
  MapCache *get() {
    if (!c_) c_.reset(new (std::nothrow) MapCache);
    return c_.get();
  }
  size_t bytes() const { return c_ ? c_->bytes() : 0; }
  size_t hits() const { return c_ ? c_->hits() : 0; }
  /* Unmap what is kept (not during an extraction into this surface). */
  void release() { c_.reset(); }

private:
  std::unique_ptr<MapCache> c_;
};

/* Result surface: xyz[3 * v + c], tri[3 * f + c] (vertex ids), plus the
 * memory extract() keeps in it for the next extraction (see extract). */
struct Surface {
  std::vector<double, OutAlloc<double>> xyz;
  std::vector<int64_t, OutAlloc<int64_t>> tri;
  /* Vertex v's packed key (mt_geometry.h, pack()), when the extraction was
   * asked for them (AdaptOptions::vertex_keys), else empty. */
  std::vector<uint64_t, OutAlloc<uint64_t>> keys;
  KeptMemory kept;
  size_t nverts() const { return xyz.size() / 3; }
  size_t ntris() const { return tri.size() / 3; }
  double area() const; /* sum of the triangle areas */
  bool operator==(const Surface &o) const { return xyz == o.xyz && tri == o.tri; }
};

/* Merge the triangle records rec[0..n) into out (vertex per key, numbered in
 * order of first appearance). 0 or -ENOMEM (out untouched). Sequential;
 * thread-safe for distinct outputs. */
int merge(const Point *pts, const double *sc, double iso, const TriRec *rec, size_t n,
          Surface *out);

/* merge() in nchunks contiguous chunks of triangles run by adapt_for: the
 * same result, byte for byte, for any nchunks >= 1 and any cell order. It
 * runs the steps of extract()'s merge (on 64-bit packed keys, see vertex_merge.h;
 * extract() runs the first inside its cell phase): each chunk
 * numbers its vertices in a table of its own; a vertex is looked up in an
 * earlier chunk only if that chunk has a vertex on an edge from the same
 * lower point (on cell-ordered meshes: the chunk boundaries); a prefix sum
 * of the chunks' new-vertex counts gives the global ids. 0, -EINVAL nchunks
 * == 0, -EOVERFLOW a point id >= 2^32 - 1, -ENOMEM, the runtime's errors. */
int merge_chunked(const Point *pts, const double *sc, double iso, const TriRec *rec, size_t n,
                  size_t nchunks, Surface *out);

/* ---- Meshes in other arrays than Mesh's (the library, <adapt/iso.hpp>) ----
 * The extraction reads them in place: points of doubles (Point) or floats
 * (PointF), scalars of any of ScalarType's types (each read as a double),
 * cells as the Tet array or given the library's ways (CellSource), each
 * combination a template instance chosen once per call, never per
 * element. */
enum class ScalarType : uint8_t { I8, U8, I16, U16, I32, U32, I64, U64, F32, F64 };

struct PointF {
  float x, y, z;
};
static_assert(sizeof(PointF) == 12, "a point's position is three floats");

/* The cells: Tets, tetrahedra as 4 32-bit ids each, read in place (the
 * app's Tet array; ids as uint32 or valid int32); Tets64, 4 64-bit ids each
 * (valid, so read as uint64); Mixed, VTK's cell arrays (offsets, ids of 32
 * or 64 bits, a cell type each: tetra 10, voxel 11, hexahedron 12, wedge
 * 13, pyramid 14), each cell split into tetrahedra (split_cell,
 * cell_source.cpp). The last two are converted a block of cells at a time
 * (fill_block) into a buffer on the stack. Checked before (ids in range,
 * offsets and types consistent), but for the ids of Tets and Tets64 when
 * id_bound is not 0: the cell phase then checks each block's ids below
 * id_bound before it reads through them, and the offsets (tet_offsets,
 * off64) of VTK's arrays of tetrahedra read as Tets or Tets64 (one pass
 * over the cells, not two: on 10 M tetrahedra the ids take 160-320 MB,
 * the offsets 40-80 MB) and stops with -ERANGE at a bad one. */
struct CellSource {
  enum class Kind : uint8_t { Tets, Tets64, Mixed };
  Kind kind = Kind::Tets;
  const Tet *tets = nullptr;      /* Tets */
  const void *conn = nullptr;     /* Tets64: 4 ids a cell; Mixed: the ids */
  const void *offsets = nullptr;  /* Mixed: ncells + 1 */
  const uint8_t *types = nullptr; /* Mixed */
  bool conn64 = true, off64 = true;
  size_t ncells = 0;
  /* Tets, Tets64: 0 (ids checked), or every id read as unsigned must be
   * below it (npts, or at most 2^31 for signed 32-bit ids). */
  uint64_t id_bound = 0;
  /* Tets, Tets64 read from VTK's cell arrays: their offsets (ncells + 1,
   * off64), each must be 4c; else NULL. */
  const void *tet_offsets = nullptr;
};

/* A mesh read in place: npts points (pts_float: PointF, else Point) and
 * their scalars (st), the cells. */
struct MeshView {
  const void *pts = nullptr;
  bool pts_float = false;
  const void *sc = nullptr;
  ScalarType st = ScalarType::F64;
  size_t npts = 0;
  CellSource cells;
};

/* The view of m's arrays (its scalars must be as many as its points). */
MeshView view_of(const Mesh &m);

/* Most tetrahedra of one cell's split, and the cells of a Mixed source per
 * block of the cell phase (so that a block holds at most ISO_CELL_BLOCK
 * tetrahedra). */
constexpr int kMaxSplitTets = 6;
/* Cells of src per block of the cell phase, and the blocks. */
size_t cells_per_block(const CellSource &src);
size_t source_blocks(const CellSource &src);
/* The tetrahedra of block blk of src into out (ISO_CELL_BLOCK at most);
 * cell_of (may be NULL): the index in src of each one's cell. Returns how
 * many. Thread-safe (reads src only). */
size_t fill_block(const CellSource &src, size_t blk, Tet *out, size_t *cell_of);
/* The smallest point id of cell c of src. */
uint32_t cell_min_id(const CellSource &src, size_t c);
/* Split one linear 3D cell of VTK type `type` (its global point ids p,
 * npoints of them) into tetrahedra at out (kMaxSplitTets at most): the
 * vertex of smallest id joined to every face without it, each
 * quadrilateral face cut by the diagonal through its own vertex of
 * smallest id (conforming between cells). Returns how many, 0 for a type
 * that is not one of the five. */
int split_cell(uint8_t type, const uint32_t *p, Tet *out);
/* Points of a cell of VTK type `type` (tetra 4, voxel 8, ...), 0 for
 * another type. */
int cell_points(uint8_t type);

enum class Mode { Seq, NoWin, Static, Sliding };
int parse_mode(const std::string &name, Mode *out);
const char *mode_name(Mode m);

/* Options of an adaptive run (Mode::Seq uses chunk_tris only). 0 = the
 * default. */
struct AdaptOptions {
  size_t grain = 0;
  size_t window_size = 0; /* elements (cells) */
  int splitter = 0;       /* adapt_window_splitter value */
  int sched = 0;          /* adapt_sched value */
  /* Triangles per merge chunk (0: ISO_MERGE_CHUNK_TRIS); tests use small
   * values so that small meshes get many chunks. */
  size_t chunk_tris = 0;
  /* Fill Surface::keys (the library's interpolation of point arrays). */
  bool vertex_keys = false;
};

/* The attributes of the adaptive cell phase of mode (not Mode::Seq) with
 * opt: its elements are blocks of ISO_CELL_BLOCK cells (grain and window
 * converted from cells), and the footprint of a block is its cells and
 * their share of the points. Used by extract() and by the locality model's
 * recorded runs, so both run the same schedule. */
adapt_attr cell_phase_attr(const Mesh &m, Mode mode, const AdaptOptions &opt);
adapt_attr cell_phase_attr(const MeshView &m, Mode mode, const AdaptOptions &opt);

/* The default window, in cells, for a shared cache of cache_bytes: the
 * cells whose footprint (cell_bytes) fills 1/ISO_WINDOW_CACHE_DIVISOR of
 * it, at least 1. Used by the app, the distributed run and the locality
 * tools alike. */
size_t default_window(const Mesh &m, uint64_t cache_bytes);
size_t default_window(const MeshView &m, uint64_t cache_bytes);

/* Per-phase times of one extraction, seconds. */
struct Timing {
  double cells = 0; /* marching over the cells */
  double merge = 0; /* merging the vertices */
};

/* Extract the isosurface of m at iso in the given mode into *out (replaced
 * on success, untouched on error); *timing may be NULL.
 * Memory: *out's buffers are reused for the new surface when they hold it
 * and are at most twice its size (pass the previous extraction's surface:
 * its pages are already faulted in, which spares the page faults and the
 * kernel's zeroing of fresh ones: docs/benchmarks-isosurface.md, "Loop
 * frames for the merge, the output's memory reused"); else they are freed
 * on success. When *out holds a surface (its buffers have memory), the
 * extraction's transient memory (the cell phase's chunks, the merge's
 * tables, the per-point arrays) is kept in out->kept when the call ends,
 * rather than unmapped, and the next extraction into *out takes it first:
 * at most what this one call used at once, resident between calls
 * (out->kept.bytes(); out->kept.release() or destroying *out gives it
 * back). A first extraction into an empty surface keeps nothing, so that
 * its peak RSS stays what it was. docs/benchmarks-isosurface.md, "The
 * transient memory kept from one extraction to the next", has why. The one exception to "untouched on error": a failure of the
 * runtime in the last step, after *out's buffers were taken, leaves *out
 * empty (not expected: the runtime ran the earlier steps).
 * The cell phase classifies the points once (one byte each: s >= iso), takes
 * each cell's case from four of those bytes without a branch, and only for
 * crossed cells reads the points (prefetched), interpolates each crossed
 * edge once and emits three 64-bit vertex keys per triangle, into chunk
 * buffers of the piece of the sequence being run (adapt_seq_run with the
 * window mode of `mode`: a thief's chunks are linked after its victim's, so
 * they stay in cell order); a chunk of opt.chunk_tris triangles or more is
 * sealed and numbers its keys at once (the first step of the chunked merge,
 * merge_chunked above; a victim's chunk that a thief's chunks follow is
 * sealed by the merge of their pieces and numbered after the cell phase,
 * in parallel, so that the thief does not wait for it); then the ranks and
 * the global ids run as adapt_for
 * loops over the chunks, which write out->xyz and out->tri (each element
 * once, in parallel) and release their buffers. Mode::Seq runs the same
 * code in plain loops. Cell orders that are not local (a sample decides)
 * merge in one chunk.
 * Calling context: any thread; the adaptive modes run adapt_seq_run and
 * adapt_for on libadapt's runtime (initialised lazily), as top-level
 * regions or nested ones from a worker. Concurrent calls are safe (the mesh
 * is only read). Not guaranteed: the times, which worker runs what.
 * Errors (message in *err):
 * -EINVAL not as many scalars as points, -ENOMEM, -EOVERFLOW 2^32 - 1 points or more (32-bit halves of the vertex
 * keys), 2^32 - 1 blocks of ISO_CELL_BLOCK cells or more (32-bit chunk
 * positions), (2^32 - 1) / 3 triangles or more on a cell order that is not
 * local (one chunk: 32-bit local ids), the runtime's negative errno. The mesh must have passed
 * validate(). */
int extract(const Mesh &m, double iso, Mode mode, const AdaptOptions &opt, Surface *out,
            Timing *timing, std::string *err);
/* The same on a mesh read in place (the Mesh above is view_of(m)); the
 * window and grain of opt count the cells of m.cells (before the split),
 * rounded up to whole blocks of cells_per_block(). Same errors, but for
 * the scalars' count, which the view cannot get wrong. */
int extract(const MeshView &m, double iso, Mode mode, const AdaptOptions &opt, Surface *out,
            Timing *timing, std::string *err);

} // namespace iso

#endif /* APPS_ISOSURFACE_CORE_MT_H */
