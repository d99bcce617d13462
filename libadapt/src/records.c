/* Theft records (records.h): per-worker pools (free lists, blocks allocated
 * on demand and freed all together at finalize) and the sorted lists of a
 * frame's thieves. */
#include "records.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "worker.h"

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
  memset(rec->work, 0, sizeof rec->work);
  return rec;
}

void adapt__theft_put(adapt__worker *w, adapt__theft *rec) {
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
    free(b->recs);
    free(b);
  }
  pthread_mutex_unlock(&blocks_lock);
}
