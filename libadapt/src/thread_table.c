/* Per-thread tables on the heap (adapt_ext.h): caches too large for
 * libadapt.so's thread-local block, which must stay small so that dlopen
 * can load the library (it has initial-exec thread-locals, ADAPT__TLS_FAST:
 * glibc then fits the whole block in its small static TLS surplus). */
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>

#include "adapt_ext.h"

/* A table's block: the address of its thread's pointer to it, then the
 * table. */
typedef struct header {
  void **slot;
  alignas(max_align_t) unsigned char table[];
} header;

/* The key's destructor, on the exiting thread: its pointer is cleared (a
 * later call on this thread, from another destructor, makes a new table). */
static void table_free(void *block) {
  header *h = block;
  *h->slot = NULL;
  free(h);
}

/* t's key, made once: 0, or -1 if pthread_key_create failed. */
static int key_ready(adapt__thread_table *t) {
  /* acquire: pairs with the release store below: a state of 1 shows the
   * key it was stored after. */
  int s = atomic_load_explicit(&t->state, memory_order_acquire);
  if (s) return s > 0 ? 0 : -1;
  pthread_mutex_lock(&t->lock);
  s = atomic_load_explicit(&t->state, memory_order_relaxed); /* relaxed: under the lock */
  if (!s) {
    s = pthread_key_create(&t->key, table_free) == 0 ? 1 : -1;
    /* release: pairs with the acquire load above (the key is written). */
    atomic_store_explicit(&t->state, s, memory_order_release);
  }
  pthread_mutex_unlock(&t->lock);
  return s > 0 ? 0 : -1;
}

void *adapt__thread_table_make(adapt__thread_table *t, void **slot) {
  if (key_ready(t) != 0) return NULL;
  header *h = calloc(1, sizeof *h + t->bytes);
  if (!h) return NULL;
  h->slot = slot;
  if (pthread_setspecific(t->key, h) != 0) {
    free(h);
    return NULL;
  }
  *slot = h->table;
  return h->table;
}
