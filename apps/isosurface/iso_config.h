/* apps/isosurface tunables (all #ifndef-guarded: override with -D). */
#ifndef APPS_ISOSURFACE_ISO_CONFIG_H
#define APPS_ISOSURFACE_ISO_CONFIG_H

/* Default window size m (cells) = shared cache bytes / (cell footprint bytes
 * * ISO_WINDOW_CACHE_DIVISOR): the window's cells take 1/divisor of the
 * shared cache, the rest keeps the points reused across the window. */
#ifndef ISO_WINDOW_CACHE_DIVISOR
#define ISO_WINDOW_CACHE_DIVISOR 4
#endif

/* Shared cache size assumed when hwloc reports none, bytes (32 MiB). */
#ifndef ISO_FALLBACK_SHARED_CACHE
#define ISO_FALLBACK_SHARED_CACHE (32u << 20)
#endif

/* Cells per element of adapt_transform_var in the adaptive modes (one
 * indirect call per block instead of per cell), and per case pass of the
 * cell loop (whose crossed-cell list holds byte indices: at most 256).
 * Window sizes and grains are given in cells and rounded up to whole
 * blocks. Default 32. */
#ifndef ISO_CELL_BLOCK
#define ISO_CELL_BLOCK 32
#endif

/* The vertex merge (mt.cpp, merge_keys) cuts the triangle sequence into
 * chunks, each deduplicating its vertices in a table of its own, then
 * resolves the vertices shared with earlier chunks (same numbering as one
 * sequential pass). With fewer than ISO_PAR_MERGE_MIN_TRIS triangles, or a
 * cell order that is not local (below), there is one chunk.
 * ISO_MERGE_CHUNK_TRIS: most triangles per chunk (a chunk's table, about 4
 * bytes per triangle, and its key list stay in L2), default 16384. The seq mode uses such
 * chunks too (in a plain loop); the adaptive modes use at least
 * ISO_PAR_MERGE_CHUNKS_PER_WORKER chunks per worker (more than one: a thief
 * needs a piece left to steal), run by adapt_for. */
#ifndef ISO_PAR_MERGE_MIN_TRIS
#define ISO_PAR_MERGE_MIN_TRIS 1024
#endif
#ifndef ISO_MERGE_CHUNK_TRIS
#define ISO_MERGE_CHUNK_TRIS 16384
#endif
/* Chunks are used only if their point id ranges summed are at most
 * ISO_PAR_MERGE_OVERLAP * chunks times the whole range (see chunks_local in
 * mt.cpp; lexicographic, Morton and Hilbert orders pass, random orders do
 * not: there every shared vertex would be looked up in most earlier chunks).
 * Dimensionless ratio, default 0.5. */
#ifndef ISO_PAR_MERGE_OVERLAP
#define ISO_PAR_MERGE_OVERLAP 0.5
#endif
/* Chunks per worker in the adaptive modes, at least (count), default 4. */
#ifndef ISO_PAR_MERGE_CHUNKS_PER_WORKER
#define ISO_PAR_MERGE_CHUNKS_PER_WORKER 4
#endif

/* The reuse-distance model (locality.h, docs/locality.md). Cells a modelled
 * worker runs before the next worker's turn (the interleaving grain). */
#ifndef ISO_LOCALITY_CHUNK
#define ISO_LOCALITY_CHUNK 256
#endif
/* Meshes of at most this many 64-byte lines are modelled exactly; larger
 * ones are sampled by line down to about this many lines (lines). */
#ifndef ISO_LOCALITY_EXACT_LINES
#define ISO_LOCALITY_EXACT_LINES (1u << 21)
#endif
/* Sampling keeps at least this many sampled lines in the smallest cache
 * modelled (lines; below a few thousand the estimate gets noisy). */
#ifndef ISO_LOCALITY_MIN_SAMPLED_LINES
#define ISO_LOCALITY_MIN_SAMPLED_LINES 16384
#endif
/* --positions: consecutive blocks of one worker started within this time
 * of the first make one event of the CSV (nanoseconds). */
#ifndef ISO_LOCALITY_POSITION_NS
#define ISO_LOCALITY_POSITION_NS 20000
#endif

/* Repetitions of each timed run (median reported), default. */
#ifndef ISO_DEFAULT_REPS
#define ISO_DEFAULT_REPS 3
#endif

/* Locality measure of a point/cell numbering (reorder.h): cells sampled,
 * evenly spread over the cell array (count, default 65536: under 2 ms at
 * load, quantiles to about 0.5%). */
#ifndef ISO_NUMBERING_SAMPLES
#define ISO_NUMBERING_SAMPLES 65536
#endif
/* --reorder auto renumbers when the median pair spread (the id range of two
 * consecutive cells' points over the point count) exceeds this fraction.
 * Measured: generated lex/morton/hilbert boxes and images give at most 1/nz
 * for nz layers of cells (0.01-0.06 on the benchmark meshes), a TetGen mesh
 * 0.57, random cell or point numberings 0.7-0.8; the default 0.25 (a
 * fraction) sits between (docs/isosurface.md, "Mesh numbering and
 * --reorder"). */
#ifndef ISO_REORDER_POOR_SPREAD
#define ISO_REORDER_POOR_SPREAD 0.25
#endif
/* ... and only when the mesh has at least this many points (32768 points of
 * 32 bytes: 1 MiB, Zen 5's L2; a smaller point array stays cached whatever
 * its order, the renumbering would cost more than it saves; default 32768). */
#ifndef ISO_REORDER_MIN_POINTS
#define ISO_REORDER_MIN_POINTS 32768
#endif
/* Resolution of the renumbering's curve: its boxes are 2^EXTRA_BITS times
 * finer per axis than the mean cell spacing (bits per axis, default 4: boxes
 * 4096 times smaller than a mean cell; at most 21 bits in all). Cells in
 * one box keep their relative order; fewer bits make the keys cheaper. */
#ifndef ISO_REORDER_KEY_EXTRA_BITS
#define ISO_REORDER_KEY_EXTRA_BITS 4
#endif
/* Cells whose centroids are gathered before their curve keys are computed
 * (count, default 256: the gathers' cache misses overlap, unhindered by the
 * keys' long dependency chains; 6 KiB of stack). */
#ifndef ISO_REORDER_KEY_BATCH
#define ISO_REORDER_KEY_BATCH 256
#endif
/* Points or cells per block of the renumbering's fixed-block passes
 * (bounding box, first-use counts), default 4096. */
#ifndef ISO_REORDER_BLOCK
#define ISO_REORDER_BLOCK 4096
#endif

/* Relative tolerance of the area check against VTK. */
#ifndef ISO_AREA_RTOL
#define ISO_AREA_RTOL 1e-6
#endif

/* PNG size of the rendering, pixels. */
#ifndef ISO_PNG_WIDTH
#define ISO_PNG_WIDTH 900
#endif
#ifndef ISO_PNG_HEIGHT
#define ISO_PNG_HEIGHT 700
#endif

static_assert(ISO_WINDOW_CACHE_DIVISOR >= 1, "the window cannot exceed the cache");
static_assert(ISO_CELL_BLOCK >= 1 && ISO_CELL_BLOCK <= 256,
              "a block holds at least one cell, its indices fit in a byte");
static_assert(ISO_PAR_MERGE_CHUNKS_PER_WORKER >= 1, "at least one chunk per worker");
static_assert(ISO_MERGE_CHUNK_TRIS >= 1, "a chunk holds at least one triangle");
static_assert(ISO_DEFAULT_REPS >= 1, "at least one repetition");
static_assert(ISO_LOCALITY_CHUNK >= 1, "a modelled chunk holds at least one cell");
static_assert(ISO_LOCALITY_EXACT_LINES >= 1 && ISO_LOCALITY_MIN_SAMPLED_LINES >= 1,
              "the model keeps at least one line");
static_assert(ISO_NUMBERING_SAMPLES >= 1, "at least one sampled cell");
static_assert(ISO_REORDER_BLOCK >= 1, "a block holds at least one element");
static_assert(ISO_REORDER_KEY_BATCH >= 1, "a batch holds at least one cell");

#endif /* APPS_ISOSURFACE_ISO_CONFIG_H */
