/* apps/isosurface/arena.h: the transient memory of one extraction. */
#ifndef APPS_ISOSURFACE_ARENA_H
#define APPS_ISOSURFACE_ARENA_H

#include <atomic>
#include <cstddef>
#include <memory>

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
 * slab) and the free that ends the last one unmaps it: the memory goes back
 * to the system while the merge ends the chunks, so that the extraction's
 * peak RSS stays near the output's. Space freed inside a slab is not reused
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
class Arena {
public:
  Arena();
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
  /* Unmap the calling worker's scratch buffers larger than keep bytes (after
   * an unusually large use, so that they do not stay resident). */
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
  std::unique_ptr<std::atomic<Slot *>[]> slots_;
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
