/* apps/isosurface/core: the cell phase of extract() (see cell_phase.h). */
#include "cell_phase.h"

#include "mt_cases.h"
#include "mt_geometry.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <new>
#include <type_traits>

#include <adapt/adapt.h>
#include <adapt/algorithms.h>

namespace iso {

bool cells_local(const MeshView &m) {
  const size_t n = m.cells.ncells, parts = ISO_LOCAL_SAMPLE_PARTS;
  if (n < 2 * parts) return false;
  const size_t step = std::max<size_t>(1, n / (parts * ISO_LOCAL_SAMPLE_CELLS));
  int64_t lo = INT64_MAX, hi = -1;
  double summed = 0;
  for (size_t c = 0; c < parts; c++) {
    int64_t clo = INT64_MAX, chi = -1;
    for (size_t f = n * c / parts; f < n * (c + 1) / parts; f += step) {
      const int64_t a = cell_min_id(m.cells, f);
      clo = std::min(clo, a);
      chi = std::max(chi, a);
    }
    summed += (double)(chi - clo + 1);
    lo = std::min(lo, clo);
    hi = std::max(hi, chi);
  }
  return summed <= ISO_PAR_MERGE_OVERLAP * (double)parts * (double)(hi - lo + 1);
}

size_t cell_bytes(const MeshView &m) {
  const CellSource &c = m.cells;
  if (c.ncells == 0) return 0;
  size_t ids = sizeof(Tet);
  if (c.kind == CellSource::Kind::Tets64) ids = 4 * sizeof(uint64_t);
  if (c.kind == CellSource::Kind::Mixed) {
    const size_t nconn = c.off64 ? (size_t) static_cast<const int64_t *>(c.offsets)[c.ncells]
                                 : (size_t) static_cast<const int32_t *>(c.offsets)[c.ncells];
    const size_t w = c.conn64 ? 8 : 4, ow = c.off64 ? 8 : 4;
    ids = nconn * w / c.ncells + ow + 1;
  }
  static const size_t st_bytes[] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
  const size_t pt = (m.pts_float ? sizeof(PointF) : sizeof(Point)) + st_bytes[(int)m.st];
  return ids + pt * m.npts / c.ncells;
}

adapt_attr cell_phase_attr(const MeshView &m, Mode mode, const AdaptOptions &opt) {
  adapt_attr attr;
  std::memset(&attr, 0, sizeof attr);
  /* Options are in cells; the elements of the call are blocks. */
  const size_t per = cells_per_block(m.cells);
  attr.grain = (opt.grain + per - 1) / per;
  attr.window = mode == Mode::NoWin    ? ADAPT_WINDOW_NONE
                : mode == Mode::Static ? ADAPT_WINDOW_STATIC
                                       : ADAPT_WINDOW_SLIDING;
  attr.window_size = (opt.window_size + per - 1) / per;
  attr.splitter = (adapt_window_splitter)opt.splitter;
  attr.sched = (adapt_sched)opt.sched;
  /* Bytes one cell brings into the cache: its ids and its share of the
   * points (paper §4: m cells should fit in the shared cache). */
  attr.footprint = per * cell_bytes(m);
  return attr;
}

adapt_attr cell_phase_attr(const Mesh &m, Mode mode, const AdaptOptions &opt) {
  return cell_phase_attr(view_of(m), mode, opt);
}

size_t default_window(const MeshView &m, uint64_t cache_bytes) {
  return (size_t)std::max<uint64_t>(1, cache_bytes / (cell_bytes(m) * ISO_WINDOW_CACHE_DIVISOR));
}

size_t default_window(const Mesh &m, uint64_t cache_bytes) {
  return (size_t)std::max<uint64_t>(1, cache_bytes / (cell_bytes(m) * ISO_WINDOW_CACHE_DIVISOR));
}

namespace {

/* A tetrahedron read in place from 64-bit ids (CellSource::Kind::Tets64;
 * ids below kMaxMeshPoints, checked by the caller). */
struct Tet64 {
  uint64_t v[4];
};
static_assert(sizeof(Tet64) == 4 * sizeof(uint64_t), "four ids, no padding");

/* Packed key of the vertex on the crossed edge (p, q), without its
 * position: km_global computes the positions of the merged vertices only. */
template <class S>
inline uint64_t edge_key(const S *sc, uint32_t p, uint32_t q, double iso) {
  return crossing_key(crossing(sc, p, q, iso), p, q);
}

/* Triangles of a cell of case idx (1 to 14: crossed) as packed keys, three
 * per triangle, into out; returns how many. mt_cell's, but each crossed
 * edge's key is computed once. */
template <class P, class S, class C>
inline size_t cell_keys(const P *pts, const S *sc, const C &t, int idx, double iso,
                        uint64_t out[6]) {
  const double det = cell_det(pts[t.v[0]], pts[t.v[1]], pts[t.v[2]], pts[t.v[3]]);
  uint64_t key[4];
  for (int k = 0; k < cases.nedge[idx]; k++)
    key[k] = edge_key(sc, (uint32_t)t.v[cases.cedge[idx][k][0]],
                      (uint32_t)t.v[cases.cedge[idx][k][1]], iso);
  size_t n = 0;
  for (int tr = 0; tr < cases.ntri[idx]; tr++) {
    const int *te = cases.tedge[idx][tr];
    int i0 = te[0], i1 = te[1], i2 = te[2];
    if (key[i0] == key[i1] || key[i0] == key[i2] || key[i1] == key[i2]) continue;
    if (swap_corners(idx, tr, det)) std::swap(i1, i2);
    out[3 * n] = key[i0];
    out[3 * n + 1] = key[i1];
    out[3 * n + 2] = key[i2];
    n++;
  }
  return n;
}

/* Case of a cell from the points' inside bytes (1 if s >= iso): four byte
 * loads from an array of one byte per point (in L2 on meshes of up to about
 * a million points) instead of four 8-byte scalars, and no branch. */
template <class C>
inline int cell_case(const uint8_t *in, const C &t) {
  return in[t.v[0]] | in[t.v[1]] << 1 | in[t.v[2]] << 2 | in[t.v[3]] << 3;
}

inline bool crossed(int idx) { return (unsigned)(idx - 1) < 14u; }

/* Triangles of the cells first[0 .. n), n <= ISO_CELL_BLOCK, as packed keys
 * into out (at most 2n triangles); returns how many. Two passes: the cases
 * (a branch-free list of the crossed cells, whose points are prefetched:
 * empty cells never read their points, so a crossed cell's are cold), then
 * the triangles of the listed cells. */
template <class P, class S, class C>
inline size_t cells_block(const P *pts, const S *sc, const uint8_t *in, const C *first, size_t n,
                          double iso, uint64_t *out) {
  uint8_t idx[ISO_CELL_BLOCK], at[ISO_CELL_BLOCK];
  size_t nc = 0;
  for (size_t i = 0; i < n; i++) {
    const int c = cell_case(in, first[i]);
    idx[nc] = (uint8_t)c;
    at[nc] = (uint8_t)i;
    nc += crossed(c);
  }
  for (size_t j = 0; j < nc; j++)
    for (int k = 0; k < 4; k++) {
      __builtin_prefetch(&pts[first[at[j]].v[k]]);
      __builtin_prefetch(&sc[first[at[j]].v[k]]);
    }
  size_t k = 0;
  for (size_t j = 0; j < nc; j++) k += cell_keys(pts, sc, first[at[j]], idx[j], iso, out + 3 * k);
  return k;
}

/* The points' inside bytes, and owner[] initialised (when not NULL). */
static_assert(sizeof(OwnerMap::Word) == sizeof(uint16_t) && OwnerMap::Word::is_always_lock_free &&
                  OwnerMap::kNone == UINT16_MAX,
              "owner[] is filled with memset");
struct ClassifyCtx {
  const void *sc;
  uint8_t *in;
  OwnerMap::Word *owner;
  double iso;
};

template <class S>
void classify(size_t b, size_t e, void *ctx) {
  const ClassifyCtx *c = static_cast<const ClassifyCtx *>(ctx);
  /* Locals: in[] is bytes, which may alias *c, so that the compiler would
   * load c's fields again at every point. */
  const S *const sc = static_cast<const S *>(c->sc);
  uint8_t *const in = c->in;
  const double iso = c->iso;
  for (size_t p = b; p < e; p++) in[p] = (double)sc[p] >= iso;
  /* owner[] to kNone in one memset (glibc's wide stores), not an
   * atomic store per point, which the compiler does not vectorise. Nothing
   * else touches these entries until the cell phase, after this loop's
   * region (or plain loop) has returned, whose join orders the writes
   * before its atomic accesses. OwnerMap::Word is a lock-free 2-byte
   * object (static_assert at ClassifyCtx). */
  if (c->owner) std::memset(static_cast<void *>(c->owner + b), 0xFF, (e - b) * sizeof(uint16_t));
}

/* A chunk's buffer grows in place by this many triangles at a time. */
constexpr size_t kGrowTris = 256;
/* A thief's single unsealed chunk is appended to its victim's last one
 * (instead of linked after it) when it holds at most chunk_tris / this. */
constexpr size_t kAppendDivisor = 16;

/* A new chunk with room for cap triangles (from the calling worker's
 * slab), or NULL. */
KeyChunk *new_chunk(Arena &arena, size_t cap, uint32_t pos) {
  KeyChunk *ch = new (std::nothrow) KeyChunk;
  if (!ch) return nullptr;
  const size_t bytes = 3 * cap * sizeof(uint64_t);
  void *p = arena.alloc(bytes);
  if (!p) {
    delete ch;
    return nullptr;
  }
  ch->arena = &arena;
  ch->keys = static_cast<uint64_t *>(p);
  ch->bytes = bytes;
  ch->owned = true;
  ch->cap = cap;
  ch->pos = pos;
  return ch;
}

/* Make room for need triangles in the unsealed chunk t, in place (its
 * buffer is the last allocation of the calling worker's slab), by steps of
 * kGrowTris up to chunk_tris + kBlockTris; false when it cannot. */
bool grow(const CellCtx *c, KeyChunk *t, size_t need) {
  if (need <= t->cap) return true;
  const size_t most = c->chunk_tris + kBlockTris;
  if (need > most) return false;
  const size_t cap = std::min(std::max(need, t->ntri + kGrowTris), most);
  if (!c->arena->resize(t->keys, t->bytes, 3 * cap * sizeof(uint64_t))) return false;
  t->cap = cap;
  t->bytes = 3 * cap * sizeof(uint64_t);
  return true;
}

/* Seal ch; on local orders run the merge's local phase on it. */
void seal(KeyChunk *ch, const CellCtx *c) {
  ch->sealed = true;
  if (c->local && !ch->closed) chunk_local(*c->arena, *c->tables, *ch, c->owner);
}

/* The cells of m's block blk: in place (Native: the Tet array, or the
 * Tet64 one of 64-bit ids, as C), else converted into buf (C: Tet). */
template <class C, bool Native>
inline const C *block_tets(const CellSource &src, size_t blk, C *buf, size_t *n) {
  if constexpr (Native) {
    const size_t first = blk * ISO_CELL_BLOCK;
    *n = std::min<size_t>(ISO_CELL_BLOCK, src.ncells - first);
    const C *all = std::is_same<C, Tet>::value ? reinterpret_cast<const C *>(src.tets)
                                               : static_cast<const C *>(src.conn);
    return all + first;
  } else {
    *n = fill_block(src, blk, buf, nullptr);
    return buf;
  }
}

/* Are the ids of the cells first[0 .. n) all below bound? Running maxima
 * in named locals (registers: a compare and a conditional move per id);
 * the block's ids come into L1 here, for cells_block next. */
template <class C>
inline bool ids_below(const C *first, size_t n, uint64_t bound) {
  using U = typename std::decay<decltype(first->v[0])>::type;
  U m0 = 0, m1 = 0, m2 = 0, m3 = 0;
  for (size_t i = 0; i < n; i++) {
    const C &t = first[i];
    m0 = t.v[0] > m0 ? t.v[0] : m0;
    m1 = t.v[1] > m1 ? t.v[1] : m1;
    m2 = t.v[2] > m2 ? t.v[2] : m2;
    m3 = t.v[3] > m3 ? t.v[3] : m3;
  }
  return (uint64_t)std::max(std::max(m0, m1), std::max(m2, m3)) < bound;
}

/* Are the offsets of cells [first, first + n) of VTK's arrays of
 * tetrahedra o (ncells + 1 of them) 4c, c the cell's end? Each offset
 * XORed with 4c, ORed together; 64-bit ones two at a time (GCC's vector
 * extension, SSE2: about 4 instructions a cell instead of 7, callgrind on
 * skull2x's 10 M cells). */
template <class O>
inline bool offsets_regular(const O *o, size_t first, size_t n) {
  uint64_t acc = 0;
  size_t c = first + 1;
  if constexpr (sizeof(O) == 8) {
    typedef uint64_t Two __attribute__((vector_size(16)));
    Two want = {4 * (uint64_t)c, 4 * (uint64_t)c + 4}, bits = {0, 0};
    const Two step = {8, 8};
    for (; c + 1 <= first + n; c += 2) {
      Two got;
      std::memcpy(&got, o + c, sizeof got);
      bits |= got ^ want;
      want += step;
    }
    acc = bits[0] | bits[1];
  }
  for (; c <= first + n; c++) acc |= (uint64_t)o[c] ^ (4 * (uint64_t)c);
  return acc == 0;
}

/* May block blk (its cells first[0 .. n)) be read through its ids? Its
 * ids below src.id_bound, and its offsets regular where they are to be
 * checked (CellSource). */
template <class C>
inline bool block_valid(const CellSource &src, size_t blk, const C *first, size_t n) {
  if (!src.id_bound) return true;
  const size_t c0 = blk * ISO_CELL_BLOCK;
  if (src.tet_offsets && !(src.off64 ? offsets_regular((const int64_t *)src.tet_offsets, c0, n)
                                     : offsets_regular((const int32_t *)src.tet_offsets, c0, n)))
    return false;
  return ids_below(first, n, src.id_bound);
}

/* Prefetch the cells of block blk + ISO_PREFETCH_BLOCKS of src, read in
 * place as C (first: block blk's): their ids, and VTK's offsets where they
 * are checked. The source's blocks, not the piece's: a piece ends where a
 * thief's begins, and the runtime hands the cell phase a few blocks at a
 * time (the ids of the next call's blocks come in while this call runs).
 * The kernel backs VTK's arrays with 4 KiB pages, at whose ends the
 * hardware's prefetchers stop: this took the core on liver (16 M
 * tetrahedra) from 124-142 to 100 ms at 1 worker and from 68-70 to 57 ms
 * at 2. Always inlined: GCC 12 deems a function that only prefetches pure,
 * and drops its calls. Unrolled (about 0.7 instructions a cell, 3 with the
 * loops). */
/* Every 64-byte line of [p, p + Bytes) (one line in two, the other left
 * to the adjacent-line prefetcher, was 3-9% slower on liver). */
template <size_t Bytes>
__attribute__((always_inline)) inline void prefetch_lines(const char *p) {
  constexpr size_t kLine = 64;
#pragma GCC unroll 16
  for (size_t b = 0; b < Bytes; b += kLine) __builtin_prefetch(p + b);
}

template <class C>
__attribute__((always_inline)) inline void prefetch_cells(const CellSource &src, size_t blk,
                                                          const C *first) {
  constexpr size_t kAhead = (size_t)ISO_PREFETCH_BLOCKS * ISO_CELL_BLOCK;
  const size_t at = blk * ISO_CELL_BLOCK + kAhead;
  if (!kAhead || at + ISO_CELL_BLOCK > src.ncells) return;
  prefetch_lines<ISO_CELL_BLOCK * sizeof(C)>(reinterpret_cast<const char *>(first + kAhead));
  if (!src.tet_offsets) return;
  const char *off = static_cast<const char *>(src.tet_offsets);
  if (src.off64)
    prefetch_lines<ISO_CELL_BLOCK * 8>(off + at * 8);
  else
    prefetch_lines<ISO_CELL_BLOCK * 4>(off + at * 4);
}

template <class P, class S, class C, bool Native>
void cells_run(adapt_seq *s, void *state, size_t b, size_t e, void *ctx) {
  const CellCtx *c = static_cast<const CellCtx *>(ctx);
  PieceState *st = static_cast<PieceState *>(state);
  const P *pts = static_cast<const P *>(c->mesh->pts);
  const S *sc = static_cast<const S *>(c->mesh->sc);
  uint64_t buf[6 * ISO_CELL_BLOCK];
  C tbuf[Native ? 1 : ISO_CELL_BLOCK];
  for (size_t blk = b; blk < e; blk++) {
    size_t n;
    const C *first = block_tets<C, Native>(c->mesh->cells, blk, tbuf, &n);
    if (Native) prefetch_cells(c->mesh->cells, blk, first);
    if (Native && !block_valid(c->mesh->cells, blk, first, n)) {
      st->err = -ERANGE;
      if (s) adapt_seq_stop(s, 0, -ERANGE);
      return;
    }
    KeyChunk *t = st->tail;
    /* A chunk that cannot take a block in place (full, or its buffer no
     * longer the last of this worker's slab: another worker's, or this one
     * has started a chunk since) is sealed; the next triangles start a new
     * one. */
    if (t && !t->sealed && !grow(c, t, t->ntri + kBlockTris)) seal(t, c);
    if (t && !t->sealed) {
      t->ntri += cells_block(pts, sc, c->in, first, n, c->iso, t->keys + 3 * t->ntri);
    } else {
      const size_t k = cells_block(pts, sc, c->in, first, n, c->iso, buf);
      if (k == 0) continue;
      KeyChunk *nc =
          new_chunk(*c->arena, std::min(k + kGrowTris, c->chunk_tris + kBlockTris), (uint32_t)blk);
      if (!nc) {
        st->err = -ENOMEM;
        if (s) adapt_seq_stop(s, 0, -ENOMEM);
        return;
      }
      std::memcpy(nc->keys, buf, 3 * k * sizeof(uint64_t));
      nc->ntri = k;
      if (t)
        t->next = nc;
      else
        st->head = nc;
      st->tail = t = nc;
    }
    if (t->ntri >= c->chunk_tris) seal(t, c);
  }
}

void cells_merge(adapt_seq *, void *state, void *thief_state, size_t, size_t, void *ctx) {
  const CellCtx *c = static_cast<const CellCtx *>(ctx);
  PieceState *v = static_cast<PieceState *>(state), *t = static_cast<PieceState *>(thief_state);
  KeyChunk *th = t->head, *tt = t->tail;
  t->head = t->tail = nullptr;
  if (t->err) v->err = t->err;
  if (!th) return;
  KeyChunk *vt = v->tail;
  if (!vt) {
    v->head = th;
    v->tail = tt;
    return;
  }
  if (!vt->sealed && !th->sealed && th->ntri <= c->chunk_tris / kAppendDivisor &&
      grow(c, vt, vt->ntri + th->ntri)) {
    /* An unsealed chunk is the last of its list: th is the thief's only.
     * Only a small one is copied: its buffer stays dead in its slab until
     * the slab is unmapped. */
    std::memcpy(vt->keys + 3 * vt->ntri, th->keys, 3 * th->ntri * sizeof(uint64_t));
    vt->ntri += th->ntri;
    delete th;
    if (vt->ntri >= c->chunk_tris) vt->sealed = true; /* step (1): see below */
    return;
  }
  /* Sealed without its step (1), which merge_finish runs in parallel with
   * the other chunks sealed so (km_local_sealed): the thief waits for this
   * merge to end, and the step takes 0.2-0.5 ms. */
  vt->sealed = true;
  vt->next = th;
  v->tail = tt;
}

void cells_discard(adapt_seq *, void *thief_state, void *) {
  PieceState *t = static_cast<PieceState *>(thief_state);
  free_list(t->head);
  t->head = t->tail = nullptr;
}

} // namespace

namespace {

template <class P, class S, class C, bool Native>
int run_typed(const MeshView &m, Mode mode, const AdaptOptions &opt, uint8_t *inside,
              const CellCtx &ctx, PieceState *st, std::string *err) {
  const size_t nblocks = source_blocks(m.cells);
  ClassifyCtx cc{m.sc, inside, ctx.owner.v, ctx.iso};
  if (mode == Mode::Seq) {
    classify<S>(0, m.npts, &cc);
    cells_run<P, S, C, Native>(nullptr, st, 0, nblocks, const_cast<CellCtx *>(&ctx));
    return 0;
  }
  adapt_attr attr;
  std::memset(&attr, 0, sizeof attr);
  /* Loop frames (as the merge's phases): the first chunk faults in the
   * first huge pages of inside and owner, and an adaptive victim would
   * answer the second worker only after it (0.3-0.4 ms late on a 1.3 ms
   * loop). */
  attr.sched = ADAPT_SCHED_LOOPFRAME;
  int rc = adapt_for(0, m.npts, classify<S>, &cc, &attr);
  if (rc) {
    *err = std::string("adapt_for: ") + adapt_strerror(rc);
    return rc;
  }
  attr = cell_phase_attr(m, mode, opt);
  static const adapt_seq_kernel kernel = {cells_run<P, S, C, Native>, cells_merge, cells_discard,
                                          sizeof(PieceState), 0};
  rc = adapt_seq_run("extract", nblocks, ISO_CELL_BLOCK * sizeof(Tet), &kernel,
                     const_cast<CellCtx *>(&ctx), st, &attr);
  if (rc) *err = std::string("the cell phase: ") + adapt_strerror(rc);
  return rc;
}

} // namespace

int run_cell_phase(const MeshView &m, Mode mode, const AdaptOptions &opt, uint8_t *inside,
                   const CellCtx &ctx, PieceState *st, std::string *err) {
  int rc = 0;
  /* Tetrahedra are read in place (their 32- or 64-bit ids), the other
   * cells split block by block. */
  const CellSource::Kind kind = m.cells.kind;
  with_mesh_types(m.pts_float, m.st, [&](auto p, auto s) {
    using P = decltype(p);
    using S = decltype(s);
    rc = kind == CellSource::Kind::Tets
             ? run_typed<P, S, Tet, true>(m, mode, opt, inside, ctx, st, err)
         : kind == CellSource::Kind::Tets64
             ? run_typed<P, S, Tet64, true>(m, mode, opt, inside, ctx, st, err)
             : run_typed<P, S, Tet, false>(m, mode, opt, inside, ctx, st, err);
  });
  return rc;
}

} // namespace iso
