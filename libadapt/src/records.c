/* Theft records (records.h): per-worker pools (free lists, blocks allocated
 * on demand and freed all together at finalize) and the sorted lists of a
 * frame's thieves. */
#include "records.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "worker.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define GUARD_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define GUARD_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#define GUARD_CANARY 0
#else
#define GUARD_POISON(p, n) ((void)(p), (void)(n))
#define GUARD_UNPOISON(p, n) ((void)(p), (void)(n))
#define GUARD_CANARY 1
#endif

/* The canary byte of the guarded area past a descriptor. */
enum { CANARY = 0xa5 };

typedef struct block {
  struct block *next;
  adapt__theft *recs;
} block;

static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static block *blocks;

void adapt__theft_after_fork(void) {
  /* The lock may have been held by a thread of the parent; the blocks stay
   * listed and are freed by the child's next finalize. */
  pthread_mutex_init(&blocks_lock, NULL);
}

adapt__theft *adapt__theft_get(adapt__worker *w) {
  if (!w->pool) {
    block *b = malloc(sizeof *b);
    adapt__theft *recs = aligned_alloc(ADAPT_CACHE_LINE, sizeof(adapt__theft) * ADAPT_THEFT_BLOCK);
    if (!b || !recs) {
      free(b);
      free(recs);
      return NULL;
    }
    for (unsigned i = 0; i < ADAPT_THEFT_BLOCK; i++) {
      atomic_init(&recs[i].state, ADAPT__THEFT_FINAL);
      recs[i].next = i + 1 < ADAPT_THEFT_BLOCK ? &recs[i + 1] : NULL;
    }
    b->recs = recs;
    pthread_mutex_lock(&blocks_lock);
    b->next = blocks;
    blocks = b;
    pthread_mutex_unlock(&blocks_lock);
    w->pool = recs;
  }
  adapt__theft *rec = w->pool;
  w->pool = rec->next;
  rec->next = NULL;
  return rec;
}

/* The work area of rec: its descriptor, then the guard line if any. */
static unsigned char *area(const adapt__theft *rec) {
  return (unsigned char *)rec + offsetof(adapt__theft, work);
}

void adapt__theft_arm(adapt__theft *rec, size_t work_size) {
  unsigned char *a = area(rec);
  memset(a, 0, work_size);
  if (GUARD_CANARY) memset(a + work_size, CANARY, ADAPT__THEFT_AREA - work_size);
  GUARD_POISON(a + work_size, ADAPT__THEFT_AREA - work_size);
}

size_t adapt__theft_overrun(const adapt__theft *rec, size_t work_size) {
  if (!GUARD_CANARY) return 0;
  const unsigned char *a = area(rec);
  for (size_t i = work_size; i < ADAPT__THEFT_AREA; i++)
    if (a[i] != CANARY) return i;
  return 0;
}

void adapt__theft_put(adapt__worker *w, adapt__theft *rec) {
  GUARD_UNPOISON(area(rec), ADAPT__THEFT_AREA);
  rec->next = w->pool;
  w->pool = rec;
}

void adapt__theft_insert(adapt__theft **head, adapt__theft *rec) {
  while (*head && (*head)->key <= rec->key) head = &(*head)->next;
  rec->next = *head;
  *head = rec;
}

void adapt__theft_merge(adapt__theft **head, adapt__theft *add) {
  while (add) {
    adapt__theft *next = add->next;
    adapt__theft_insert(head, add);
    head = &add->next; /* keys of `add` increase: continue after it */
    add = next;
  }
}

void adapt__theft_free_all(void) {
  pthread_mutex_lock(&blocks_lock);
  while (blocks) {
    block *b = blocks;
    blocks = b->next;
    /* records of a region whose thread exited inside it were never put back */
    GUARD_UNPOISON(b->recs, sizeof(adapt__theft) * ADAPT_THEFT_BLOCK);
    free(b->recs);
    free(b);
  }
  pthread_mutex_unlock(&blocks_lock);
}
