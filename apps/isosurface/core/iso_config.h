/* apps/isosurface tunables (all #ifndef-guarded: override with -D). */
#ifndef APPS_ISOSURFACE_CORE_ISO_CONFIG_H
#define APPS_ISOSURFACE_CORE_ISO_CONFIG_H

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

/* Cells per unit of the cell phase's adapt_seq_run in the adaptive modes (one
 * indirect call per block instead of per cell), and per case pass of the
 * cell loop (whose crossed-cell list holds byte indices: at most 256).
 * Window sizes and grains are given in cells and rounded up to whole
 * blocks. Default 32. */
#ifndef ISO_CELL_BLOCK
#define ISO_CELL_BLOCK 32
#endif

/* How far ahead of the block it reads the cell phase prefetches the cells
 * of an array read in place (their ids, and VTK's offsets): blocks, default
 * 8 (8 KiB of 64-bit ids: two 4 KiB pages, past which the hardware's
 * prefetchers do not follow a stream). 0: none. */
#ifndef ISO_PREFETCH_BLOCKS
#define ISO_PREFETCH_BLOCKS 8
#endif

/* The vertex merge (vertex_merge.h) works on chunks of the triangle sequence, each
 * deduplicating its vertices in a table of its own, then resolves the
 * vertices shared with earlier chunks (same numbering as one sequential
 * pass). ISO_MERGE_CHUNK_TRIS: the cell phase writes its triangles into
 * chunks and seals a chunk once it holds this many (at most
 * 2 * ISO_CELL_BLOCK more; a thief's chunk ends where its piece does), then
 * runs the chunk's local merge while its keys are in cache (the keys, 24
 * bytes per triangle, its table, about 4, and its key list, about 4: about
 * 0.5 MiB, the L2 of the machine measured); triangles, default 16384. On a cell order that is not local (below) the
 * chunks are gathered into one after the cell phase. */
#ifndef ISO_MERGE_CHUNK_TRIS
#define ISO_MERGE_CHUNK_TRIS 16384
#endif
/* Step (1) of the merge on a table larger than ISO_MERGE_PREFETCH_TABLE
 * (bytes, default 1 MiB: beyond L2; the gathered chunk of a cell order
 * that is not local) prefetches the first slot of the key
 * ISO_MERGE_PREFETCH_KEYS (default 16) keys ahead. */
#ifndef ISO_MERGE_PREFETCH_TABLE
#define ISO_MERGE_PREFETCH_TABLE (1u << 20)
#endif
#ifndef ISO_MERGE_PREFETCH_KEYS
#define ISO_MERGE_PREFETCH_KEYS 16
#endif
/* A cell order is local when, sampled in ISO_LOCAL_SAMPLE_PARTS parts of
 * the cell array (ISO_LOCAL_SAMPLE_CELLS cells each, at most), the parts'
 * ranges of smallest point ids summed are at most ISO_PAR_MERGE_OVERLAP *
 * parts times the whole range (see cells_local in cell_phase.h; lexicographic,
 * Morton and Hilbert orders pass, random orders do not: there every shared
 * vertex would be looked up in most earlier chunks). Ratio default 0.5;
 * parts default 64; cells default 16 (1024 cold cache lines read before
 * the cell phase: a random order spans most of the ids with far fewer). */
#ifndef ISO_PAR_MERGE_OVERLAP
#define ISO_PAR_MERGE_OVERLAP 0.5
#endif
#ifndef ISO_LOCAL_SAMPLE_PARTS
#define ISO_LOCAL_SAMPLE_PARTS 64
#endif
#ifndef ISO_LOCAL_SAMPLE_CELLS
#define ISO_LOCAL_SAMPLE_CELLS 16
#endif
/* The transient memory of an extraction (arena.h: the chunk buffers, the
 * merge's tables and key lists, its per-point arrays) comes from slabs of
 * this many bytes, aligned to their size, each asking for transparent huge
 * pages; a worker allocates from its own slab, and a slab is unmapped once
 * everything in it has been freed. A power of two, at least 64 KiB; it
 * bounds a chunk buffer (a quarter of it: 21,845 triangles at the default)
 * and the memory freed late (about one slab per worker). Bytes, default
 * 2 MiB (one huge page). */
#ifndef ISO_SLAB_BYTES
#define ISO_SLAB_BYTES (2ul << 20)
#endif
/* Arrays of the mesh and of the surface of at least this many bytes are
 * aligned to 2 MiB and ask for transparent huge pages (out_alloc_bytes,
 * mesh.h: a 4 KiB page fault costs about 12 us in the VMs measured); bytes,
 * default 4 MiB. */
#ifndef ISO_HUGE_MIN_BYTES
#define ISO_HUGE_MIN_BYTES (4u << 20)
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
 * 32 bytes, position and scalar: 1 MiB, Zen 5's L2; a smaller point array
 * stays cached whatever its order, the renumbering would cost more than it
 * saves; default 32768). */
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

/* adapt-isosurface --iso: at most this many values. */
#ifndef ISO_MAX_ISOVALUES
#define ISO_MAX_ISOVALUES 4096
#endif

/* PNG size of the rendering, pixels. */
#ifndef ISO_PNG_WIDTH
#define ISO_PNG_WIDTH 900
#endif
#ifndef ISO_PNG_HEIGHT
#define ISO_PNG_HEIGHT 700
#endif

/* Points or cells of a piece file read and converted at a time by
 * read_pieces: its buffers (about 40 bytes a point, 45 a cell: under 1 MiB
 * at the default) are all of a piece held beside the mesh. Count, >= 1;
 * default 16384. */
#ifndef ISO_PIECE_CHUNK
#define ISO_PIECE_CHUNK 16384
#endif

static_assert(ISO_PIECE_CHUNK >= 1, "a chunk holds at least one value");
static_assert(ISO_WINDOW_CACHE_DIVISOR >= 1, "the window cannot exceed the cache");
static_assert((ISO_MERGE_CHUNK_TRIS + 2 * ISO_CELL_BLOCK) * 24 <= ISO_SLAB_BYTES / 4,
              "a full chunk buffer (24 bytes per triangle) fits in a slab allocation");
static_assert(ISO_CELL_BLOCK >= 1 && ISO_CELL_BLOCK <= 256,
              "a block holds at least one cell, its indices fit in a byte");
static_assert(ISO_MERGE_CHUNK_TRIS >= 1, "a chunk holds at least one triangle");
static_assert(ISO_LOCAL_SAMPLE_PARTS >= 2 && ISO_LOCAL_SAMPLE_CELLS >= 1,
              "the locality sample compares at least two parts");
static_assert(ISO_DEFAULT_REPS >= 1, "at least one repetition");
static_assert(ISO_LOCALITY_CHUNK >= 1, "a modelled chunk holds at least one cell");
static_assert(ISO_LOCALITY_EXACT_LINES >= 1 && ISO_LOCALITY_MIN_SAMPLED_LINES >= 1,
              "the model keeps at least one line");
static_assert(ISO_NUMBERING_SAMPLES >= 1, "at least one sampled cell");
static_assert(ISO_REORDER_BLOCK >= 1, "a block holds at least one element");
static_assert(ISO_REORDER_KEY_BATCH >= 1, "a batch holds at least one cell");

#endif /* APPS_ISOSURFACE_CORE_ISO_CONFIG_H */
