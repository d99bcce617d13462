/* apps/isosurface/core/arena.cpp: huge-page slabs for an extraction's transient
 * memory (arena.h). */
#include "arena.h"

#include "iso_config.h"

#include <algorithm>
#include <cstdint>
#include <new>
#include <vector>
#include <sys/mman.h>

#include <adapt/adapt.h>

namespace iso {

namespace {

constexpr size_t kHuge = (size_t)2 << 20;
constexpr size_t kPage = 4096;
constexpr size_t kAlign = 64;
constexpr size_t kSlab = ISO_SLAB_BYTES;
static_assert((kSlab & (kSlab - 1)) == 0 && kSlab >= ((size_t)64 << 10),
              "ISO_SLAB_BYTES: a power of two, at least 64 KiB");

/* The first cache line of a slab. */
struct SlabHead {
  /* Live allocations, plus one while the slab is a worker's current one:
   * incremented by the owner, decremented by any thread. */
  std::atomic<size_t> live;
};
static_assert(sizeof(SlabHead) <= kAlign, "the head fits in the first line");

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

/* bytes mapped at an address aligned to `align` (a power of two, a multiple
 * of the page), huge pages asked for when it is at least 2 MiB; NULL when
 * out of memory. */
void *map_aligned(size_t bytes, size_t align) {
  void *p =
      mmap(nullptr, bytes + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  const uintptr_t b = (uintptr_t)p, a = (b + align - 1) & ~(uintptr_t)(align - 1);
  if (a > b) (void)munmap(p, a - b);
  if (b + align > a) (void)munmap((void *)(a + bytes), b + align - a);
#ifdef MADV_HUGEPAGE
  /* A hint: without THP ("never") the pages are 4 KiB, nothing else changes. */
  if (align >= kHuge) (void)madvise((void *)a, bytes, MADV_HUGEPAGE);
#endif
  return (void *)a;
}

/* The size mapped for an allocation of its own: whole huge pages when
 * asked (a 4 KiB page costs as much to fault as a huge page), else whole
 * 4 KiB pages (those of a last, partial huge page are 4 KiB pages). */
size_t own_bytes(size_t bytes, bool whole_huge) {
  return whole_huge ? round_up(bytes, kHuge) : round_up(bytes, kPage);
}

/* The alignment of an allocation of its own of n bytes (own_bytes): at a
 * 2 MiB boundary from 2 MiB on, so that its full huge pages can be huge. */
size_t own_align(size_t n) { return n >= kHuge ? kHuge : kPage; }

SlabHead *head_of(void *p) {
  return reinterpret_cast<SlabHead *>((uintptr_t)p & ~(uintptr_t)(kSlab - 1));
}

} // namespace

/* ---- MapCache ----------------------------------------------------------- */

void *MapCache::take(size_t bytes, size_t align) {
  Entry got{nullptr, 0, 0, 0};
  {
    std::lock_guard<std::mutex> lock(mu_);
    /* An exact match, the most recently given first (the likeliest to be
     * in cache); else the smallest with the same alignment that is larger
     * but at most twice as large (a per-call size that shrank: another
     * isovalue). The same alignment keeps the 4 KiB-aligned small mappings
     * from eating the slabs. */
    size_t best = kept_.size();
    for (size_t i = kept_.size(); i-- > 0;) {
      const Entry &e = kept_[i];
      if (e.bytes == bytes && e.align == align) {
        best = i;
        break;
      }
      if (bytes % kPage == 0 && e.bytes > bytes && e.bytes / 2 <= bytes && e.align == align &&
          (best == kept_.size() || e.bytes < kept_[best].bytes))
        best = i;
    }
    if (best == kept_.size()) return nullptr;
    got = kept_[best];
    kept_.erase(kept_.begin() + (std::ptrdiff_t)best);
    hits_++;
  }
  /* A larger one loses its tail: what is taken is `bytes` long, as what
   * will be given back. Outside the lock: nobody else knows the mapping. */
  if (got.bytes > bytes) (void)munmap(static_cast<char *>(got.p) + bytes, got.bytes - bytes);
  return got.p;
}

void MapCache::give(void *p, size_t bytes, size_t align) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (giving_) {
      try {
        kept_.push_back({p, bytes, align, gen_});
        return;
      } catch (const std::bad_alloc &) {
        /* Not kept: unmapped below. */
      }
    }
  }
  (void)munmap(p, bytes);
}

void MapCache::begin_giving() {
  std::lock_guard<std::mutex> lock(mu_);
  gen_++;
  giving_ = true;
}

void MapCache::end_giving() {
  std::vector<Entry> stale;
  {
    std::lock_guard<std::mutex> lock(mu_);
    giving_ = false;
    size_t k = 0;
    for (const Entry &e : kept_) {
      if (e.gen == gen_) {
        kept_[k++] = e;
      } else {
        try {
          stale.push_back(e);
        } catch (const std::bad_alloc &) {
          (void)munmap(e.p, e.bytes);
        }
      }
    }
    kept_.resize(k);
  }
  for (const Entry &e : stale) (void)munmap(e.p, e.bytes);
}

void MapCache::release() {
  std::vector<Entry> all;
  {
    std::lock_guard<std::mutex> lock(mu_);
    all.swap(kept_);
  }
  for (const Entry &e : all) (void)munmap(e.p, e.bytes);
}

size_t MapCache::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const Entry &e : kept_) n += e.bytes;
  return n;
}

size_t MapCache::hits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return hits_;
}

/* ---- Arena -------------------------------------------------------------- */

void *Arena::map(size_t bytes, size_t align) {
  if (cache_)
    if (void *p = cache_->take(bytes, align)) return p;
  return map_aligned(bytes, align);
}

void Arena::unmap(void *p, size_t bytes, size_t align) {
  if (cache_)
    cache_->give(p, bytes, align);
  else
    (void)munmap(p, bytes);
}

void *Arena::map_own(size_t bytes, bool whole_huge) {
  const size_t n = own_bytes(bytes, whole_huge);
  return map(n, own_align(n));
}

/* Drop one reference of the slab; the last one gives it back. acq_rel:
 * the release orders this thread's accesses to its allocation before the
 * decrement; the acquire of the last decrement pairs with the release of
 * every earlier one (of other threads' frees), so that nothing touches the
 * slab once it is unmapped or kept. */
void Arena::unref(void *slab) {
  SlabHead *h = static_cast<SlabHead *>(slab);
  if (h->live.fetch_sub(1, std::memory_order_acq_rel) == 1) unmap(h, kSlab, kSlab);
}

/* One worker's state: touched only by the thread that has this worker id
 * during the extraction (and by ~Arena after the regions have returned). */
struct alignas(64) Arena::Slot {
  char *base = nullptr; /* the current slab (its SlabHead), or NULL */
  char *bump = nullptr; /* its first free byte */
  char *end = nullptr;
  void *scr[kScratch] = {};
  size_t scr_bytes[kScratch] = {};
};

Arena::Arena(MapCache *cache) : slots_(new std::atomic<Slot *>[kMaxWorkers]), cache_(cache) {
  for (int i = 0; i < kMaxWorkers; i++) slots_[i].store(nullptr, std::memory_order_relaxed);
}

Arena::~Arena() {
  for (int i = 0; i < kMaxWorkers; i++) {
    /* Relaxed: stored by the worker that made it, in a region that has
     * returned (its join orders the store before this load). */
    Slot *s = slots_[i].load(std::memory_order_relaxed);
    if (!s) continue;
    if (s->base) unref(s->base);
    for (int k = 0; k < kScratch; k++)
      if (s->scr[k]) unmap(s->scr[k], s->scr_bytes[k], own_align(s->scr_bytes[k]));
    delete s;
  }
}

size_t Arena::max_slab_alloc() { return kSlab / 4; }

const void *Arena::slab_of(const void *p, size_t bytes) {
  if (!p || bytes > max_slab_alloc()) return nullptr;
  return head_of(const_cast<void *>(p));
}

Arena::Slot *Arena::slot() {
  int id = adapt_worker_id();
  if (id < 0) id = 0; /* outside a region, or in one run alone */
  if (id >= kMaxWorkers) return nullptr;
  /* Relaxed: only this worker stores its entry (below); ~Arena reads it
   * after the regions have returned. */
  Slot *s = slots_[id].load(std::memory_order_relaxed);
  if (!s) {
    s = new (std::nothrow) Slot;
    if (s) slots_[id].store(s, std::memory_order_relaxed);
  }
  return s;
}

void *Arena::alloc(size_t bytes, bool whole_huge) {
  if (bytes == 0) bytes = 1;
  if (bytes > max_slab_alloc()) return map_own(bytes, whole_huge);
  Slot *s = slot();
  if (!s) return nullptr;
  const size_t n = round_up(bytes, kAlign);
  if (!s->base || (size_t)(s->end - s->bump) < n) {
    char *b = static_cast<char *>(map(kSlab, kSlab));
    if (!b) return nullptr;
    /* Before the slab is reachable by any other thread. */
    reinterpret_cast<SlabHead *>(b)->live.store(1, std::memory_order_relaxed);
    if (s->base) unref(s->base);
    s->base = b;
    s->bump = b + kAlign;
    s->end = b + kSlab;
  }
  char *p = s->bump;
  s->bump += n;
  /* Relaxed: the allocation reaches another thread (its only possible
   * freer) through the runtime's synchronisation, which orders this
   * increment before that thread's decrement. */
  reinterpret_cast<SlabHead *>(s->base)->live.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void Arena::free(void *p, size_t bytes, bool whole_huge) {
  if (!p) return;
  if (bytes == 0) bytes = 1;
  if (bytes > max_slab_alloc()) {
    const size_t n = own_bytes(bytes, whole_huge);
    unmap(p, n, own_align(n));
    return;
  }
  unref(head_of(p));
}

bool Arena::resize(void *p, size_t bytes, size_t new_bytes) {
  if (!p || bytes > max_slab_alloc() || new_bytes > max_slab_alloc()) return false;
  if (bytes == 0) bytes = 1;
  if (new_bytes == 0) new_bytes = 1;
  Slot *s = slot();
  char *c = static_cast<char *>(p);
  if (!s || !s->base || reinterpret_cast<char *>(head_of(p)) != s->base ||
      c + round_up(bytes, kAlign) != s->bump)
    return false;
  const size_t n = round_up(new_bytes, kAlign);
  if ((size_t)(s->end - c) < n) return false;
  s->bump = c + n;
  return true;
}

void *Arena::scratch(int which, size_t bytes) {
  Slot *s = slot();
  if (!s || which < 0 || which >= kScratch) return nullptr;
  if (s->scr_bytes[which] >= bytes && s->scr[which]) return s->scr[which];
  const size_t want = own_bytes(std::max(bytes, 2 * s->scr_bytes[which]), false);
  void *p = map_own(want, false);
  if (!p) return nullptr;
  if (s->scr[which]) unmap(s->scr[which], s->scr_bytes[which], own_align(s->scr_bytes[which]));
  s->scr[which] = p;
  s->scr_bytes[which] = want;
  return p;
}

void Arena::retire_all() {
  for (int i = 0; i < kMaxWorkers; i++) {
    /* Relaxed: see ~Arena (the regions that stored them have returned). */
    Slot *s = slots_[i].load(std::memory_order_relaxed);
    if (s && s->base) {
      unref(s->base);
      s->base = s->bump = s->end = nullptr;
    }
  }
}

void Arena::release_scratch_all() {
  for (int i = 0; i < kMaxWorkers; i++) {
    /* Relaxed: see ~Arena (the regions that stored them have returned). */
    Slot *s = slots_[i].load(std::memory_order_relaxed);
    if (!s) continue;
    for (int k = 0; k < kScratch; k++)
      if (s->scr[k]) {
        unmap(s->scr[k], s->scr_bytes[k], own_align(s->scr_bytes[k]));
        s->scr[k] = nullptr;
        s->scr_bytes[k] = 0;
      }
  }
}

void Arena::trim_scratch(size_t keep) {
  Slot *s = slot();
  if (!s) return;
  for (int k = 0; k < kScratch; k++)
    if (s->scr[k] && s->scr_bytes[k] > keep) {
      (void)munmap(s->scr[k], s->scr_bytes[k]);
      s->scr[k] = nullptr;
      s->scr_bytes[k] = 0;
    }
}

} // namespace iso
