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
 * indirect call per block instead of per cell). Window sizes and grains are
 * given in cells and rounded up to whole blocks. */
#ifndef ISO_CELL_BLOCK
#define ISO_CELL_BLOCK 32
#endif

/* The adaptive modes merge the vertices in parallel (same numbering as the
 * sequential merge) when there are at least this many triangles and more
 * than one worker, cutting the triangles into workers * CHUNKS_PER_WORKER
 * chunks (more than one per worker: a thief needs a piece left to steal). */
#ifndef ISO_PAR_MERGE_MIN_TRIS
#define ISO_PAR_MERGE_MIN_TRIS 1024
#endif
/* The parallel merge is used only if the chunks' point id ranges summed are
 * at most ISO_PAR_MERGE_OVERLAP * chunks times the whole range (see
 * chunks_local in mt.cpp; measured: lexicographic and Hilbert orders gain,
 * random orders lose). */
#ifndef ISO_PAR_MERGE_OVERLAP
#define ISO_PAR_MERGE_OVERLAP 0.5
#endif
#ifndef ISO_PAR_MERGE_CHUNKS_PER_WORKER
#define ISO_PAR_MERGE_CHUNKS_PER_WORKER 4
#endif

/* Repetitions of each timed run (median reported), default. */
#ifndef ISO_DEFAULT_REPS
#define ISO_DEFAULT_REPS 3
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
static_assert(ISO_CELL_BLOCK >= 1, "a block holds at least one cell");
static_assert(ISO_PAR_MERGE_CHUNKS_PER_WORKER >= 1, "at least one chunk per worker");
static_assert(ISO_DEFAULT_REPS >= 1, "at least one repetition");

#endif /* APPS_ISOSURFACE_ISO_CONFIG_H */
