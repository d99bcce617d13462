/* apps/isosurface/core: extract() (mt.h): the cell phase (cell_phase.h), then
 * the merge of the vertex keys (vertex_merge.h), in the memory of one
 * extraction (arena.h). */
#include "mt.h"

#include "arena.h"
#include "cell_phase.h"
#include "iso_config.h"
#include "vertex_merge.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#include <adapt/adapt.h>

namespace iso {

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* Gives to cache (may be NULL) from construction to destruction: declared
 * before the arenas that give to it, so that it ends after their
 * destructors have given back their slabs and scratch buffers. */
struct Giving {
  MapCache *cache;
  explicit Giving(MapCache *c) : cache(c) {
    if (cache) cache->begin_giving();
  }
  ~Giving() {
    if (cache) cache->end_giving();
  }
  Giving(const Giving &) = delete;
  Giving &operator=(const Giving &) = delete;
};

/* Frees the chunk lists however extract() returns. */
struct ExtractState {
  PieceState st{nullptr, nullptr, 0};
  std::vector<std::unique_ptr<KeyChunk>> own;
  ~ExtractState() { free_list(st.head); }
};

/* The sizes extract() refuses (see mt.h): 0, or -EINVAL or -EOVERFLOW with
 * the message in *err. */
int check_sizes(const MeshView &m, std::string *err) {
  const size_t npts = m.npts;
  if ((uint64_t)npts >= kMaxMeshPoints) {
    *err = "too many points for 32-bit vertex keys (" + std::to_string(npts) + ", at most " +
           std::to_string(kMaxMeshPoints - 1) + ")";
    return -EOVERFLOW;
  }
  if ((uint64_t)source_blocks(m.cells) >= UINT32_MAX) {
    *err = "too many cells for 32-bit chunk positions (" + std::to_string(m.cells.ncells) + ")";
    return -EOVERFLOW;
  }
  return 0;
}

/* The merge's chunks, into km, from the cell phase's list xs.st, their
 * tri_off set: on local orders the list itself, with owner[] (its memory
 * taken by km, its shift that of om); else one chunk, the keys gathered into s->tri (merged in place),
 * held by xs.own. 0, -ENOMEM, -EOVERFLOW (too many triangles for one
 * chunk). */
int gather_chunks(ExtractState &xs, bool local, ArenaArray<OwnerMap::Word> &owner, OwnerMap om,
                  KeyMerge &km, Surface *s) {
  int rc = xs.st.err;
  try {
    /* The master's last chunk is left open: km_rank numbers it, in
     * parallel with the other chunks' ranks. */
    if (!rc && xs.st.tail) xs.st.tail->sealed = true;
    size_t ntri = 0;
    for (KeyChunk *ch = xs.st.head; ch; ch = ch->next) {
      if (ch->oom) rc = -ENOMEM;
      ch->tri_off = ntri;
      ntri += ch->ntri;
    }
    if (!rc && local) {
      for (KeyChunk *ch = xs.st.head; ch; ch = ch->next) km.chunks.push_back(ch);
      km.owner = om;
      km.owner_mem = std::move(owner);
    } else if (!rc && ntri > kMaxChunkTris) {
      rc = -EOVERFLOW;
    } else if (!rc && xs.st.head) {
      /* Not local: one chunk, the keys gathered into tri (merged in place). */
      s->tri.resize(3 * ntri);
      for (KeyChunk *ch = xs.st.head; ch; ch = ch->next)
        std::memcpy(s->tri.data() + 3 * ch->tri_off, ch->keys, 3 * ch->ntri * sizeof(uint64_t));
      free_list(xs.st.head);
      xs.st.head = xs.st.tail = nullptr;
      xs.own.emplace_back(new KeyChunk);
      KeyChunk &one = *xs.own.back();
      one.keys = reinterpret_cast<uint64_t *>(s->tri.data());
      one.ntri = ntri;
      km.chunks.push_back(&one); /* numbered by km_rank */
    }
  } catch (const std::bad_alloc &) {
    rc = -ENOMEM;
  }
  return rc;
}

/* The message of the merge's error rc. */
std::string merge_error(int rc) {
  return rc == -ENOMEM      ? std::string("out of memory merging vertices")
         : rc == -EOVERFLOW ? std::string("too many triangles (2^32 / 3 or more) to merge on a "
                                          "cell order that is not local (--reorder renumbers it)")
                            : std::string("merging vertices: ") + adapt_strerror(rc);
}

/* Triangles per merge chunk: opt's, or the default, within a chunk's most. */
size_t chunk_tris(const AdaptOptions &opt) {
  return std::min(opt.chunk_tris ? opt.chunk_tris : (size_t)ISO_MERGE_CHUNK_TRIS,
                  kMaxChunkTris - kBlockTris);
}

} // namespace

int extract(const Mesh &m, double iso, Mode mode, const AdaptOptions &opt, Surface *out,
            Timing *timing, std::string *err) {
  if (m.scalars.size() != m.pts.size()) {
    *err = "the mesh has " + std::to_string(m.scalars.size()) + " scalars for " +
           std::to_string(m.pts.size()) + " points";
    return -EINVAL;
  }
  return extract(view_of(m), iso, mode, opt, out, timing, err);
}

int extract(const MeshView &m, double iso, Mode mode, const AdaptOptions &opt, Surface *out,
            Timing *timing, std::string *err) {
  if (const int rc = check_sizes(m, err)) return rc;
  Timing tm;
  const size_t npts = m.npts;
  const double t0 = now();
  const bool parallel = mode != Mode::Seq;
  const bool local = cells_local(m);
  /* A previous surface passed back: this call's transient memory is kept
   * in it for the next one (see mt.h), and the memory the previous call
   * kept is taken first. */
  MapCache *const cache = out->xyz.capacity() || out->tri.capacity() ? out->kept.get() : nullptr;
  const Giving giving(cache);
  /* Declared first: it outlives every chunk, table and list of this call. */
  Arena arena(cache), tables(cache); /* the chunks' maps apart: freed after the rank step */
  ArenaArray<uint8_t> inside;
  /* Uninitialised here: classify stores every element, in parallel. */
  ArenaArray<OwnerMap::Word> owner;
  /* Both freed before the output is written, in whole huge pages. On local
   * orders the npts + 1 inside bytes follow owner[] in its mapping (freed
   * with it, after the rank step): one partial last huge page, not two. */
  const size_t in_words = (npts + 1 + sizeof(uint16_t) - 1) / sizeof(uint16_t);
  if (local ? !owner.allocate(&arena, npts + in_words, true)
            : !inside.allocate(&arena, npts + 1, true)) {
    *err = "out of memory";
    return -ENOMEM;
  }
  uint8_t *const in = local ? reinterpret_cast<uint8_t *>(owner.get() + npts) : inside.get();
  OwnerMap om;
  om.v = owner.get();
  om.shift = OwnerMap::shift_for(source_blocks(m.cells)); /* the chunks' positions: blocks */
  const CellCtx ctx{&m, iso, in, om, &arena, &tables, chunk_tris(opt), local};
  ExtractState xs;
  int rc = run_cell_phase(m, mode, opt, in, ctx, &xs.st, err);
  if (rc == -ERANGE || (!rc && xs.st.err == -ERANGE)) {
    /* A block's ids outside [0, npts), or its VTK offsets not 4 a cell
     * (CellSource::id_bound, tet_offsets; the library's check_deferred
     * names the first bad cell). */
    *err = "a cell's point ids outside [0, " + std::to_string(npts) + ") or its offsets not 4c";
    return -ERANGE;
  }
  if (rc) return rc;
  inside.reset();
  /* The chunks are all allocated (but the last one's table and list, in
   * km_rank): their slabs go back to the system as the global step ends
   * them, not at the end of the call. */
  arena.retire_all();
  Surface s;
  KeyMerge km;
  km.arena = &arena;
  km.tables = &tables;
  km.pts = m.pts;
  km.sc = m.sc;
  km.iso = iso;
  km.global = global_phase(m.pts_float, m.st);
  km.want_keys = opt.vertex_keys;
  rc = gather_chunks(xs, local, owner, om, km, &s);
  const double t1 = now();
  if (!rc) rc = merge_finish(km, parallel, &s, out);
  tm.cells = t1 - t0;
  tm.merge = now() - t1;
  if (rc) {
    *err = merge_error(rc);
    return rc;
  }
  KeptMemory kept = std::move(out->kept); /* the arenas still give to it */
  *out = std::move(s);
  out->kept = std::move(kept);
  if (timing) *timing = tm;
  return 0;
}

} // namespace iso
