/* The wrappers of fault_inject.h.
 *
 * The linker's --wrap=SYM option sends every reference to SYM made by the
 * objects of the link to __wrap_SYM and binds __real_SYM to the original
 * definition, so the names __wrap_malloc, __real_malloc, ... are mandated
 * by the linker (ld(1), --wrap), not chosen here. Under ASan and TSan the
 * originals are the sanitizers' interceptors, so the wrappers compose with
 * them. */
#include "fault_inject.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

/* The original (__real_) and the wrapper (__wrap_) of each wrapped
 * function, both with its signature. */
#define WRAPPED(ret, name, params)                                                                 \
  ret __real_##name params;                                                                        \
  ret __wrap_##name params;

WRAPPED(void *, malloc, (size_t n))
WRAPPED(void *, calloc, (size_t count, size_t size))
WRAPPED(void *, realloc, (void *p, size_t n))
WRAPPED(int, posix_memalign, (void **out, size_t align, size_t n))
WRAPPED(void *, aligned_alloc, (size_t align, size_t n))
WRAPPED(char *, strdup, (const char *s))
WRAPPED(void, free, (void *p))
WRAPPED(int, pthread_create, (pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))
WRAPPED(int, adapt__membarrier, (void))

enum { ARM_NONE, ARM_ALLOC, ARM_THREAD, ARM_BARRIER };

static atomic_int armed;           /* ARM_* */
static atomic_ulong fail_at;       /* k */
static atomic_int fail_mode;       /* fault_mode */
static atomic_ulong fail_period;   /* FAULT_EVERY: p */
static atomic_ulong allocs_seen;   /* allocation calls since the arm */
static atomic_ulong threads_seen;  /* pthread_create calls since the arm */
static atomic_ulong barriers_seen; /* thieves' membarrier calls since the arm */
static atomic_ulong injected;      /* failures injected since the arm */
static atomic_long live;           /* blocks allocated and not freed */

static void arm(int what, unsigned long k, fault_mode mode) {
  /* relaxed: published by the release store of armed below. */
  atomic_store_explicit(&fail_at, k, memory_order_relaxed);
  atomic_store_explicit(&fail_mode, (int)mode, memory_order_relaxed);
  atomic_store_explicit(&allocs_seen, 0, memory_order_relaxed);
  atomic_store_explicit(&threads_seen, 0, memory_order_relaxed);
  atomic_store_explicit(&barriers_seen, 0, memory_order_relaxed);
  atomic_store_explicit(&injected, 0, memory_order_relaxed);
  /* release: pairs with the acquire load of armed in the wrappers, which
   * then read the k and mode stored above. */
  atomic_store_explicit(&armed, what, memory_order_release);
}

void fault_alloc_arm(unsigned long k, fault_mode mode) { arm(ARM_ALLOC, k, mode); }
void fault_alloc_arm_every(unsigned long k, unsigned long p) {
  /* relaxed: published by the release store of armed in arm(). */
  atomic_store_explicit(&fail_period, p ? p : 1, memory_order_relaxed);
  arm(ARM_ALLOC, k, FAULT_EVERY);
}
void fault_thread_arm(unsigned long k) { arm(ARM_THREAD, k, FAULT_ONCE); }
void fault_barrier_arm(unsigned long k, fault_mode mode, unsigned long p) {
  /* relaxed: published by the release store of armed in arm(). */
  atomic_store_explicit(&fail_period, p ? p : 1, memory_order_relaxed);
  arm(ARM_BARRIER, k, mode);
}

void fault_disarm(void) {
  /* release: as in arm (no data travels; a wrapper seeing ARM_NONE just
   * does not fail). */
  atomic_store_explicit(&armed, ARM_NONE, memory_order_release);
}

/* The counters below are read by the driver after the library's calls have
 * returned and its workers were joined or synchronised with (the regions'
 * joins order the workers' increments before the reads): relaxed. */
unsigned long fault_allocs_seen(void) {
  return atomic_load_explicit(&allocs_seen, memory_order_relaxed);
}
unsigned long fault_barriers_seen(void) {
  return atomic_load_explicit(&barriers_seen, memory_order_relaxed);
}
unsigned long fault_injected(void) { return atomic_load_explicit(&injected, memory_order_relaxed); }
long fault_live_blocks(void) { return atomic_load_explicit(&live, memory_order_relaxed); }

/* Does the call numbered by `seen` fail? */
static int should_fail(int what, atomic_ulong *seen) {
  /* acquire: pairs with the release store of armed in arm(). */
  if (atomic_load_explicit(&armed, memory_order_acquire) != what) return 0;
  /* relaxed: the read-modify-write alone numbers the calls uniquely. */
  unsigned long n = atomic_fetch_add_explicit(seen, 1, memory_order_relaxed) + 1;
  unsigned long k = atomic_load_explicit(&fail_at, memory_order_relaxed);
  int mode = atomic_load_explicit(&fail_mode, memory_order_relaxed);
  if (mode == FAULT_FROM ? n < k
      : mode == FAULT_EVERY
          ? n < k || (n - k) % atomic_load_explicit(&fail_period, memory_order_relaxed) != 0
          : n != k)
    return 0;
  atomic_fetch_add_explicit(&injected, 1, memory_order_relaxed);
  return 1;
}

static int alloc_fails(void) { return should_fail(ARM_ALLOC, &allocs_seen); }

/* relaxed: a count; see fault_live_blocks. */
static void live_add(long d) { atomic_fetch_add_explicit(&live, d, memory_order_relaxed); }

static void *counted(void *p) {
  if (p) live_add(1);
  return p;
}

void *__wrap_malloc(size_t n) {
  if (alloc_fails()) {
    errno = ENOMEM;
    return NULL;
  }
  return counted(__real_malloc(n));
}

void *__wrap_calloc(size_t count, size_t size) {
  if (alloc_fails()) {
    errno = ENOMEM;
    return NULL;
  }
  return counted(__real_calloc(count, size));
}

void *__wrap_realloc(void *p, size_t n) {
  if (alloc_fails()) {
    errno = ENOMEM;
    return NULL; /* p is left untouched, as by a real failure */
  }
  void *q = __real_realloc(p, n);
  if (!p && q) live_add(1);
  if (p && !q && n == 0) live_add(-1); /* realloc(p, 0) freed p */
  return q;
}

int __wrap_posix_memalign(void **out, size_t align, size_t n) {
  if (alloc_fails()) return ENOMEM;
  int rc = __real_posix_memalign(out, align, n);
  if (rc == 0) live_add(1);
  return rc;
}

void *__wrap_aligned_alloc(size_t align, size_t n) {
  if (alloc_fails()) {
    errno = ENOMEM;
    return NULL;
  }
  return counted(__real_aligned_alloc(align, n));
}

char *__wrap_strdup(const char *s) {
  if (alloc_fails()) {
    errno = ENOMEM;
    return NULL;
  }
  return counted(__real_strdup(s));
}

void __wrap_free(void *p) {
  if (p) live_add(-1);
  __real_free(p);
}

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
                          void *arg) {
  if (should_fail(ARM_THREAD, &threads_seen)) return EAGAIN;
  return __real_pthread_create(t, attr, fn, arg);
}

/* A failing membarrier returns -1 with errno set, as the system call. */
int __wrap_adapt__membarrier(void) {
  if (should_fail(ARM_BARRIER, &barriers_seen)) {
    errno = EINVAL;
    return -1;
  }
  return __real_adapt__membarrier();
}
