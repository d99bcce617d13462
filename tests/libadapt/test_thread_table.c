/* Per-thread heap tables (thread_table.c), white-box: each thread gets its
 * own zeroed table at its first call, the same one at the next, none seen
 * by another thread; its slot is set; the tables of exited threads are
 * freed (LeakSanitizer checks it in the asan variant: 64 threads). */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "adapt_test.h" /* cmocka */

#include "../../libadapt/ext/adapt_ext.h" /* white-box */

enum { BYTES = 3000, THREADS = 64 };
ADAPT__THREAD_TABLE_DEFINE(table, unsigned char, BYTES)

/* A thread: its table is zeroed, aligned, kept, then filled with its
 * mark; returns the table's address. */
static void *thread_main(void *arg) {
  unsigned char *t = table();
  if (!t || table_slot != t || (uintptr_t)t % _Alignof(max_align_t) != 0) return NULL;
  for (size_t i = 0; i < BYTES; i++)
    if (t[i] != 0) return NULL;
  if (table() != t) return NULL;
  memset(t, (int)(uintptr_t)arg, BYTES);
  return t;
}

static void test_one_table_per_thread(void **state) {
  (void)state;
  unsigned char *mine = table();
  assert_non_null(mine);
  memset(mine, 0xee, BYTES);
  pthread_t th[THREADS];
  for (int i = 0; i < THREADS; i++)
    assert_int_equal(pthread_create(&th[i], NULL, thread_main, (void *)(uintptr_t)(i + 1)), 0);
  for (int i = 0; i < THREADS; i++) {
    void *t;
    assert_int_equal(pthread_join(th[i], &t), 0);
    assert_non_null(t); /* zeroed, aligned, kept */
    assert_ptr_not_equal(t, mine);
  }
  for (size_t i = 0; i < BYTES; i++) assert_int_equal(mine[i], 0xee);
  assert_ptr_equal(table(), mine);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_table_per_thread),
  };
  return adapt_test_run("thread_table", tests);
}
