/* The memory of the extraction: extract() reusing the buffers of a surface
 * passed back, the arena (slabs, the cache of mappings, workers' slabs) and
 * the transient memory kept in a surface; tests of test_isosurface. */
#include "arena.h"
#include "mesh.h"
#include "mt.h"

#include <adapt/adapt.h>

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
}

#include "test_util.h"

using namespace iso;

namespace iso_suite {

/* extract() into a surface that already has buffers: reused when they hold
 * the new surface and are at most twice its size (same addresses), else
 * replaced; every element is written either way (the reused buffers are
 * filled with garbage first), for every mode, 1-3 workers, local and
 * random cell orders (the gathered chunk), and surfaces that grow and
 * shrink from one call to the next. */
void test_extract_reuses_output(void **) {
  Mesh lex = make_mesh(12, 11, 10, Field::Waves, Split::Five, Order::Lex);
  Mesh rnd = make_mesh(12, 11, 10, Field::Waves, Split::Five, Order::Random);
  const double isos[] = {0.05, 0.3, -0.2, 0.05, 0.9};
  /* The sequential surfaces, computed once per mesh and isovalue. */
  std::map<const Mesh *, std::vector<Surface>> wants;
  for (const Mesh *m : {&lex, &rnd})
    for (double iso : isos) wants[m].push_back(run(*m, iso, Mode::Seq));
  int reused = 0, replaced = 0;
  for (int w : {1, 2, 3}) {
    if (tsan_skips(w)) continue;
    start_workers(w);
    for (const Mesh *m : {&lex, &rnd})
      for (Mode mode : {Mode::Seq, Mode::NoWin, Mode::Static, Mode::Sliding}) {
        AdaptOptions opt;
        opt.chunk_tris = 100; /* many chunks on the local order */
        Surface r;
        for (size_t i = 0; i < sizeof isos / sizeof *isos; i++) {
          const double iso = isos[i];
          const Surface &want = wants[m][i];
          std::fill(r.xyz.begin(), r.xyz.end(), NAN);
          std::fill(r.tri.begin(), r.tri.end(), (int64_t)-7);
          const double *old_xyz = r.xyz.data();
          const bool xyz_fits =
              r.xyz.capacity() >= want.xyz.size() && r.xyz.capacity() / 2 <= want.xyz.size();
          std::string err;
          assert_int_equal(extract(*m, iso, mode, opt, &r, nullptr, &err), 0);
          assert_true(r == want);
          if (!want.xyz.empty() && old_xyz) {
            if (xyz_fits) {
              assert_ptr_equal(r.xyz.data(), old_xyz);
              reused++;
            } else {
              assert_ptr_not_equal(r.xyz.data(), old_xyz);
              replaced++;
            }
          }
        }
      }
  }
  adapt_finalize();
  assert_true(reused > 0 && replaced > 0); /* both cases were run */
  /* Buffers much larger than the surface are not kept: the result's
   * capacity is its own. */
  Surface big;
  big.xyz.assign(1u << 20, 1.0);
  big.tri.assign(1u << 20, 1);
  const Surface want = run(lex, 0.05, Mode::Seq);
  std::string err;
  assert_int_equal(extract(lex, 0.05, Mode::NoWin, AdaptOptions(), &big, nullptr, &err), 0);
  assert_true(big == want);
  assert_true(big.xyz.capacity() < (1u << 20) && big.tri.capacity() < (1u << 20));
}

/* Is the page at p mapped? msync fails with ENOMEM on unmapped memory. */
static bool mapped(const void *p) {
  const uintptr_t page = (uintptr_t)p & ~(uintptr_t)4095;
  return msync((void *)page, 4096, MS_ASYNC) == 0;
}

/* The extraction's arena: alignment, in-place resize only at the end of
 * the caller's current slab, allocations of their own, and a slab unmapped
 * by the free of its last allocation once it is no longer current. */
void test_arena_slabs(void **) {
  adapt_finalize(); /* outside any region: worker 0's slot */
  iso::Arena a;
  const size_t big = iso::Arena::max_slab_alloc();
  char *p = static_cast<char *>(a.alloc(1000));
  assert_non_null(p);
  assert_int_equal((uintptr_t)p % 64, 0);
  assert_true(a.resize(p, 1000, 5000)); /* the last allocation: grows */
  std::memset(p, 1, 5000);
  char *q = static_cast<char *>(a.alloc(100));
  assert_non_null(q);
  assert_true(q >= p + 5000);             /* after the grown block */
  assert_false(a.resize(p, 5000, 6000));  /* no longer the last */
  assert_true(a.resize(q, 100, 40));      /* the last: shrinks */
  assert_false(a.resize(q, 40, big + 1)); /* not from a slab */
  for (int i = 0; i < 5000; i++) assert_int_equal(p[i], 1);
  char *own = static_cast<char *>(a.alloc(big + 1));
  assert_non_null(own);
  own[0] = own[big] = 7;
  a.free(own, big + 1);
  assert_false(mapped(own));
  /* The slab stays while current, goes with its last free once retired. */
  a.free(p, 5000);
  assert_true(mapped(q));
  a.retire_all();
  assert_true(mapped(q));
  a.free(q, 40);
  assert_false(mapped(p));
  /* Scratch: kept while the size asked for does not grow. */
  uint64_t *s = static_cast<uint64_t *>(a.scratch(0, 4096));
  assert_non_null(s);
  s[0] = 42;
  assert_ptr_equal(a.scratch(0, 100), s);
  assert_int_equal(s[0], 42);
  a.trim_scratch(0);
  assert_false(mapped(s));
  assert_null(a.scratch(iso::Arena::kScratch, 8));
}

/* The cache of mappings: exact size and alignment, kept only while giving,
 * the most recent first, stale entries unmapped by the end of the next
 * giving period, everything by release. */
void test_map_cache(void **) {
  const size_t mb = (size_t)1 << 20;
  auto map = [](size_t n) {
    void *p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(p != MAP_FAILED);
    static_cast<char *>(p)[0] = 1;
    return p;
  };
  iso::MapCache c;
  void *a = map(mb);
  c.give(a, mb, 4096); /* not giving: unmapped */
  assert_false(mapped(a));
  assert_int_equal(c.bytes(), 0);
  c.begin_giving();
  a = map(mb);
  void *b = map(mb);
  void *d = map(2 * mb);
  c.give(a, mb, 4096);
  c.give(b, mb, 4096);
  c.give(d, 2 * mb, 4096);
  assert_int_equal(c.bytes(), 4 * mb);
  assert_true(mapped(a) && mapped(b) && mapped(d));
  assert_null(c.take(3 * mb, 4096));              /* no such size */
  assert_null(c.take(2 * mb, 2 * mb));            /* no such alignment */
  assert_ptr_equal(c.take(mb, 4096), b);          /* the last given first */
  assert_int_equal(static_cast<char *>(b)[0], 1); /* contents as left */
  assert_int_equal(c.hits(), 1);
  assert_int_equal(c.bytes(), 3 * mb);
  c.end_giving(); /* a and d were given in this period: kept */
  assert_true(mapped(a) && mapped(d));
  c.give(b, mb, 4096); /* not giving any more: unmapped */
  assert_false(mapped(b));
  c.begin_giving();
  assert_ptr_equal(c.take(mb, 4096), a);
  c.give(a, mb, 4096);
  c.end_giving(); /* d, from the period before and not taken, goes */
  assert_false(mapped(d));
  assert_true(mapped(a));
  assert_int_equal(c.bytes(), mb);
  c.release();
  assert_false(mapped(a));
  assert_int_equal(c.bytes(), 0);
  assert_int_equal(c.hits(), 2);
  /* No exact size: the smallest larger one of the same alignment, at most
   * twice as large, its tail unmapped (a per-call size that shrank). */
  c.begin_giving();
  void *big = map(2 * mb), *bigger = map(3 * mb), *aligned = map(2 * mb);
  static_cast<char *>(big)[mb] = 7;
  c.give(bigger, 3 * mb, 4096);
  c.give(big, 2 * mb, 4096);
  c.give(aligned, 2 * mb, 2 * mb);
  assert_null(c.take(mb - 4096, 4096));  /* more than twice as large: no */
  assert_null(c.take(mb + 1, 4096));     /* not whole pages: exact sizes only */
  assert_null(c.take(3 * mb / 2, 8192)); /* no other alignment */
  void *t = c.take(3 * mb / 2, 4096);    /* 2 MiB (smallest), not 3 */
  assert_ptr_equal(t, big);
  assert_int_equal(static_cast<char *>(t)[mb], 7); /* contents as left */
  assert_true(mapped(static_cast<char *>(t) + 3 * mb / 2 - 4096));
  assert_false(mapped(static_cast<char *>(t) + 3 * mb / 2)); /* the tail is gone */
  assert_int_equal(c.bytes(), 5 * mb);
  assert_int_equal(c.hits(), 3);
  c.give(t, 3 * mb / 2, 4096); /* given back at the size taken */
  assert_int_equal(c.bytes(), 5 * mb + 3 * mb / 2);
  c.end_giving();
  c.release();
  assert_false(mapped(t) || mapped(bigger) || mapped(aligned));
  assert_int_equal(c.bytes(), 0);
}

/* An arena with a cache takes its slabs, scratch buffers and allocations of
 * their own from it and gives them back to it. */
void test_arena_cache(void **) {
  adapt_finalize(); /* outside any region: worker 0's slot */
  const size_t big = iso::Arena::max_slab_alloc();
  iso::MapCache c;
  void *slab, *own, *scr;
  c.begin_giving();
  {
    iso::Arena a(&c);
    slab = a.alloc(1000);
    own = a.alloc(big + 1);
    scr = a.scratch(0, 100000);
    assert_true(slab && own && scr);
    a.free(own, big + 1);
    a.free(slab, 1000);
    assert_true(mapped(own)); /* kept */
  }
  c.end_giving();
  assert_true(mapped(slab) && mapped(scr));
  const size_t kept = c.bytes();
  assert_true(kept >= big + 1 + 100000 + 4 * big); /* own, scratch and the slab */
  c.begin_giving();
  {
    iso::Arena a(&c);
    void *own2 = a.alloc(big + 1);
    void *slab2 = a.alloc(64);
    void *scr2 = a.scratch(0, 100000);
    assert_ptr_equal(own2, own);
    assert_ptr_equal(scr2, scr);
    assert_ptr_equal(iso::Arena::slab_of(slab2, 64), iso::Arena::slab_of(slab, 1000));
    assert_int_equal(c.hits(), 3);
    assert_int_equal(c.bytes(), 0);
    a.free(own2, big + 1);
    a.free(slab2, 64);
    a.trim_scratch(0); /* a large scratch buffer is unmapped, not kept */
    assert_false(mapped(scr));
  }
  c.end_giving();
  assert_int_equal(c.bytes(), kept - 100000 - (100000 % 4096 ? 4096 - 100000 % 4096 : 0));
  c.release();
  /* release_scratch_all: every worker's scratch buffers go (to the cache
   * while it gives, else unmapped); the next scratch() maps again. */
  {
    iso::Arena a;
    void *s0 = a.scratch(0, 100000), *s2 = a.scratch(2, 5000);
    assert_true(s0 && s2 && mapped(s0) && mapped(s2));
    a.release_scratch_all();
    assert_false(mapped(s0) || mapped(s2));
    void *again = a.scratch(0, 100);
    assert_non_null(again);
    static_cast<char *>(again)[0] = 1;
  }
  c.begin_giving();
  {
    iso::Arena a(&c);
    void *s0 = a.scratch(1, 100000);
    assert_non_null(s0);
    a.release_scratch_all();
    assert_true(mapped(s0)); /* kept */
    assert_int_equal(c.bytes(), 100000 + (100000 % 4096 ? 4096 - 100000 % 4096 : 0));
  }
  c.end_giving();
  c.release();
}

/* extract() keeps its transient memory in a surface passed back, not in a
 * fresh one; the next extraction takes it (same output); what stays kept
 * is what the last call used; copies do not share it. */
void test_extract_keeps_memory(void **) {
  const int g = test_variant() == "release" || test_variant().empty() ? 30 : 18;
  Mesh m = make_mesh(g, g, g, Field::Waves, Split::Five, Order::Hilbert);
  Mesh small = make_mesh(4, 4, 4, Field::Waves, Split::Five, Order::Hilbert);
  /* The sequential surfaces, computed once. */
  const Surface want = run(m, 0.05, Mode::Seq);
  const Surface want_small = run(small, 0.05, Mode::Seq);
  std::map<double, Surface> want_at;
  for (double iso : {0.3, 0.25, 0.2}) want_at[iso] = run(m, iso, Mode::Seq);
  for (int w : {1, 2}) {
    if (tsan_skips(w)) continue;
    start_workers(w);
    for (Mode mode : {Mode::Seq, Mode::NoWin, Mode::Sliding}) {
      Surface r;
      std::string err;
      assert_int_equal(extract(m, 0.05, mode, AdaptOptions(), &r, nullptr, &err), 0);
      assert_int_equal(r.kept.bytes(), 0); /* into an empty surface: nothing kept */
      assert_true(r == want);
      assert_int_equal(extract(m, 0.05, mode, AdaptOptions(), &r, nullptr, &err), 0);
      assert_true(r == want);
      const size_t kept = r.kept.bytes();
      assert_true(kept > 0);
      const size_t hits = r.kept.hits();
      std::fill(r.xyz.begin(), r.xyz.end(), NAN);
      assert_int_equal(extract(m, 0.05, mode, AdaptOptions(), &r, nullptr, &err), 0);
      assert_true(r == want);
      assert_true(r.kept.hits() > hits);
      assert_true(r.kept.bytes() > 0 && r.kept.bytes() <= 2 * kept);
      Surface copy = r;
      assert_true(copy == r);
      assert_int_equal(copy.kept.bytes(), 0);
      /* A much smaller surface next: the memory it does not take goes. */
      assert_int_equal(extract(small, 0.05, mode, AdaptOptions(), &r, nullptr, &err), 0);
      assert_true(r == want_small);
      assert_true(r.kept.bytes() < kept);
      r.kept.release();
      assert_int_equal(r.kept.bytes(), 0);
      assert_int_equal(extract(m, 0.05, mode, AdaptOptions(), &r, nullptr, &err), 0);
      assert_true(r == want);
      /* Another isovalue each call (a slider): the kept memory serves the
       * next call even when sizes change, and the output is a fresh
       * extraction's. */
      assert_int_equal(extract(m, 0.05, mode, AdaptOptions(), &r, nullptr, &err), 0);
      for (double iso : {0.3, 0.25, 0.2, 0.3}) {
        const size_t before = r.kept.hits();
        assert_int_equal(extract(m, iso, mode, AdaptOptions(), &r, nullptr, &err), 0);
        assert_true(r == want_at[iso]);
        assert_true(r.kept.hits() > before);
      }
    }
  }
  adapt_finalize();
}

namespace {
struct ArenaLoop {
  iso::Arena *a;
  std::vector<std::pair<char *, size_t>> *blocks;
};
} // namespace

static void arena_body(size_t b, size_t e, void *ctx) {
  const ArenaLoop *l = static_cast<const ArenaLoop *>(ctx);
  for (size_t i = b; i < e; i++) {
    const size_t n = 64 + (i * 7919) % 20000;
    char *p = static_cast<char *>(l->a->alloc(n));
    if (p) std::memset(p, (int)(i & 0x7F), n);
    (*l->blocks)[i] = {p, n};
  }
}

/* Every worker allocates from its own slabs in a parallel loop; the blocks
 * do not overlap (each keeps its pattern) and all are freed by the calling
 * thread, which unmaps every slab (TSan checks the counts' orders). */
void test_arena_workers(void **) {
  for (int w = 1; w <= 3; w++) {
    start_workers(w);
    const size_t n = 3000;
    std::vector<std::pair<char *, size_t>> blocks(n);
    {
      iso::Arena a;
      ArenaLoop l{&a, &blocks};
      adapt_attr attr;
      std::memset(&attr, 0, sizeof attr);
      attr.grain = 7;
      assert_int_equal(adapt_for(0, n, arena_body, &l, &attr), 0);
      for (size_t i = 0; i < n; i++) {
        assert_non_null(blocks[i].first);
        for (size_t k = 0; k < blocks[i].second; k += 97)
          assert_int_equal(blocks[i].first[k], (int)(i & 0x7F));
      }
      a.retire_all();
      for (size_t i = 0; i < n; i++) a.free(blocks[i].first, blocks[i].second);
      for (size_t i = 0; i < n; i++) assert_false(mapped(blocks[i].first));
    }
  }
  adapt_finalize();
}

} // namespace iso_suite
