/* apps/isosurface/core/arena.h: the transient memory of one extraction. */
#ifndef APPS_ISOSURFACE_CORE_ARENA_H
#define APPS_ISOSURFACE_CORE_ARENA_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace iso {

/* The memory an extraction needs only while it runs: the cell phase's chunk
 * buffers, the merge's tables and key lists, its per-point arrays. Taken
 * from slabs of ISO_SLAB_BYTES, 2 MiB-aligned, that ask for transparent huge
 * pages: in the VMs measured a page fault costs about 12 us per 4 KiB page
 * and about 60 us per 2 MiB huge page (docs/benchmarks-isosurface.md,
 * "Transient memory in huge-page slabs"), and unmapping 4 KiB pages one
 * chunk at a time interrupts the other cores to flush their TLBs.
 *
 * Each worker of the runtime (adapt_worker_id(); a thread outside a region,
 * or running one alone, counts as worker 0) allocates from its own current
 * slab by moving a pointer: no atomic, no lock. Any thread frees. A slab
 * counts its live allocations (plus one while it is some worker's current
 * slab) and the free that ends the last one gives it back: the memory goes
 * back to the system while the merge ends the chunks, so that the
 * extraction's peak RSS stays near the output's; or, for an arena made with
 * a MapCache that is giving, to the cache, for the next extraction (every
 * mapping of the arena goes through the cache that way, both ways). Space freed inside a slab is not reused
 * until the whole slab is unmapped, except at the end of the calling
 * worker's current slab: its last allocation can grow and shrink in place
 * (resize), which is how a chunk's buffer follows its triangles.
 *
 * Allocations above max_slab_alloc() bytes get a mapping of their own (see
 * alloc). A worker also has scratch buffers of its own (scratch), kept and
 * reused from call to call until the arena ends or trim_scratch unmaps
 * them.
 *
 * One arena per extraction. Within it, a worker id is used by one thread
 * at a time (the runtime's regions guarantee it); a worker's state is
 * created on its first allocation. Ids of kMaxWorkers or more (libadapt
 * allows at most 4096 workers) get NULL, as out of memory. Every
 * allocation must be freed before the arena is destroyed: ~Arena unmaps
 * the current slabs and the scratch buffers only, after the regions that
 * used it have returned. */
/* Mappings that an extraction gave back, kept for the next one (held by
 * the Surface passed back to extract(), mt.h). On the VMs of this project
 * the hypervisor takes back the memory the guest kernel has free (free page
 * reporting, 8 MiB blocks), so that a fresh mapping can cost a host fault
 * per page: up to about 200 us per 2 MiB slab, 4.7 ms for the second
 * worker's slabs of one armadillo extraction, in one process out of two
 * (docs/benchmarks-isosurface.md, "The transient memory kept from one
 * extraction to the next"). A mapping kept here stays resident instead.
 *
 * Bound: an extraction that gives (begin_giving) drops at its end
 * (end_giving) every kept mapping it did not take, so that what stays kept
 * is at most what that one extraction used at once. Thread-safe (a mutex:
 * a call per slab or per scratch buffer, not per allocation); the
 * mappings it holds are touched by nobody. */
class MapCache {
public:
  MapCache() = default;
  ~MapCache() { release(); }
  MapCache(const MapCache &) = delete;
  MapCache &operator=(const MapCache &) = delete;
  /* A kept mapping at an address aligned to align, which leaves the cache:
   * one of exactly bytes, else (bytes a multiple of 4 KiB) the smallest
   * of the same alignment larger than bytes but at most twice as large,
   * its tail unmapped so that it is bytes long; NULL when there is none. */
  void *take(size_t bytes, size_t align);
  /* Keep p (bytes, mapped at an address aligned to align) when giving is
   * on; else, or without memory for the record, unmap it. */
  void give(void *p, size_t bytes, size_t align);
  /* Giving on, for one extraction; end_giving: off, and the mappings kept
   * before begin_giving and not taken since are unmapped. */
  void begin_giving();
  void end_giving();
  /* Unmap everything kept. */
  void release();
  /* Bytes kept; mappings taken since the cache was made (tests, report). */
  size_t bytes() const;
  size_t hits() const;

private:
  struct Entry {
    void *p;
    size_t bytes, align;
    uint64_t gen; /* the giving period it was given in */
  };
  /* Every field below: read and written under mu_ only. */
  mutable std::mutex mu_;
  std::vector<Entry> kept_;
  size_t hits_ = 0;
  uint64_t gen_ = 0;
  bool giving_ = false;
};

class Arena {
public:
  /* cache (may be NULL): where the mappings come from first and go back
   * to (MapCache::give), which must outlive the arena. */
  explicit Arena(MapCache *cache = nullptr);
  ~Arena();
  Arena(const Arena &) = delete;
  Arena &operator=(const Arena &) = delete;

  /* bytes aligned to 64 bytes; NULL when out of memory. whole_huge: an
   * allocation of its own (above max_slab_alloc) takes whole huge pages
   * (faster to fault; for arrays freed before the peak of the extraction),
   * else its last partial huge page is in 4 KiB pages. */
  void *alloc(size_t bytes, bool whole_huge = false);
  /* Give back p, allocated with this size and whole_huge (or last resized
   * to this size). */
  void free(void *p, size_t bytes, bool whole_huge = false);
  /* Grow or shrink p (of `bytes`) in place to new_bytes: true when done,
   * i.e. when p is the last allocation of the calling worker's current
   * slab and new_bytes fits in it; false changes nothing. */
  bool resize(void *p, size_t bytes, size_t new_bytes);
  /* The calling worker's scratch buffer `which` (0 .. kScratch - 1), at
   * least bytes long. Its content is kept only while the size asked for
   * does not grow past it. NULL when out of memory. */
  void *scratch(int which, size_t bytes);
  /* End every worker's current slab (each is then unmapped once its
   * allocations are freed); the next allocations start new ones. Called
   * between regions, by the thread running the extraction, when the
   * allocations of a phase are done: their slabs no longer wait for the
   * arena's end. */
  void retire_all();
  /* Give back every worker's scratch buffers (to the cache, or unmapped),
   * when no phase of the call will ask for them again: they need not be
   * resident while the output is written (the extraction's peak). Called
   * between regions by the thread running the extraction, as retire_all. */
  void release_scratch_all();
  /* Unmap the calling worker's scratch buffers larger than keep bytes (after
   * an unusually large use, so that they do not stay resident: never kept
   * in the cache). */
  void trim_scratch(size_t keep);

  /* The slab holding p (an allocation of `bytes`), NULL for one of its own:
   * allocations with the same slab are unmapped together. */
  static const void *slab_of(const void *p, size_t bytes);
  /* Largest allocation taken from a slab. */
  static size_t max_slab_alloc();
  static constexpr int kScratch = 3;
  static constexpr int kMaxWorkers = 4096;

private:
  struct Slot;
  Slot *slot();
  void *map(size_t bytes, size_t align);
  void unmap(void *p, size_t bytes, size_t align);
  void unref(void *slab);
  void *map_own(size_t bytes, bool whole_huge);
  std::unique_ptr<std::atomic<Slot *>[]> slots_;
  MapCache *cache_; /* set at construction, then only read: no synchronisation */
};

/* An arena allocation of n T's (trivial T), freed with its holder. */
template <class T>
class ArenaArray {
public:
  ArenaArray() = default;
  ArenaArray(const ArenaArray &) = delete;
  ArenaArray &operator=(const ArenaArray &) = delete;
  ~ArenaArray() { reset(); }
  /* Take o's allocation (o is left empty). */
  ArenaArray &operator=(ArenaArray &&o) noexcept {
    if (this != &o) {
      reset();
      a_ = o.a_;
      p_ = o.p_;
      n_ = o.n_;
      huge_ = o.huge_;
      o.p_ = nullptr;
      o.n_ = 0;
    }
    return *this;
  }
  /* n elements, uninitialised (Arena::alloc); false when out of memory. */
  bool allocate(Arena *a, size_t n, bool whole_huge = false) {
    reset();
    if (n == 0) return true;
    p_ = static_cast<T *>(a->alloc(n * sizeof(T), whole_huge));
    if (!p_) return false;
    a_ = a;
    n_ = n;
    huge_ = whole_huge;
    return true;
  }
  void reset() {
    if (p_) a_->free(p_, n_ * sizeof(T), huge_);
    p_ = nullptr;
    n_ = 0;
  }
  T *get() const { return p_; }

private:
  Arena *a_ = nullptr;
  T *p_ = nullptr;
  size_t n_ = 0;
  bool huge_ = false;
};

} // namespace iso

#endif
