/* Misuse the runtime detects (issue 38, items 1-4): a thread that exits
 * inside its region (its place is given back, stderr names the call), the
 * preemption of another thread's frame (-EINVAL), a splitter that writes
 * past its piece's descriptor (named on stderr, the process stops), a
 * finalize while other threads keep starting long regions (it returns;
 * late regions fail with -ESHUTDOWN). */
#include <adapt/adaptive.h>
#include <adapt/loop.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adapt_test.h"
#include "timed_join.h"

/* A hang is a failure too: each test here takes well under a second. */
enum { WATCHDOG_S = 120, JOIN_S = 20 };

/* Join t within JOIN_S seconds: 0, or ETIMEDOUT (t is then left running). */
static int join_within(pthread_t t, void **ret) { return adapt_test_join_within(t, ret, JOIN_S); }

/* Run fn(arg) on a thread of its own with fd 2 sent to a temporary file;
 * the file's text (up to cap - 1 bytes) in buf. 0 if the thread ended. */
static int run_capturing_stderr(void *(*fn)(void *), void *arg, char *buf, size_t cap) {
  FILE *tmp = tmpfile();
  if (!tmp) return -1;
  fflush(stderr);
  int saved = dup(2);
  dup2(fileno(tmp), 2);
  pthread_t t;
  int rc = pthread_create(&t, NULL, fn, arg);
  if (rc == 0) rc = join_within(t, NULL);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t n = fread(buf, 1, cap - 1, tmp);
  buf[n] = '\0';
  fclose(tmp);
  return rc;
}

/* adapt_finalize on a thread of its own: 1 if it returned in time. */
static void *finalize_main(void *arg) {
  (void)arg;
  adapt_finalize();
  return NULL;
}

static int finalize_in_time(void) {
  pthread_t t;
  if (pthread_create(&t, NULL, finalize_main, NULL) != 0) return 0;
  return join_within(t, NULL) == 0;
}

/* --- Item 1: a thread exits inside its region --------------------------- */

static void nop(void *arg) { (void)arg; }

static void *exit_in_scope(void *arg) {
  static adapt_scope s; /* static: the test reads nothing of it afterwards */
  (void)arg;
  if (adapt_scope_begin(&s) != 0) return NULL;
  adapt_spawn(&s, nop, NULL);
  return NULL; /* no adapt_sync */
}

static void exit_body(size_t b, size_t e, void *ctx) {
  (void)b, (void)e, (void)ctx;
  pthread_exit(NULL);
}

static void *exit_in_body(void *arg) {
  (void)arg;
  adapt_attr a = {0};
  a.grain = 1;
  adapt_for(0, 1, exit_body, NULL, &a);
  return NULL;
}

static atomic_int on_worker0, ids_seen;

static void id_body(size_t b, size_t e, void *ctx) {
  (void)ctx;
  int id = adapt_worker_id();
  if (id == 0) atomic_store(&on_worker0, 1);
  if (id > 0) atomic_fetch_or(&ids_seen, 1 << (id & 7));
  adapt_test_spin_ns(2000 * (e - b));
}

/* After a thread left its region open: this thread's region gets the pool
 * (its body runs on worker 0, the other worker helps), and finalize ends.
 * The loops repeat until the other worker has taken part, for up to 10 s:
 * on a loaded machine (make test builds three variants at once on 2 CPUs)
 * its thread may not run for tens of milliseconds. */
static void check_place_given_back(const char *log, const char *fn) {
  assert_non_null(strstr(log, "a thread exited inside"));
  assert_non_null(strstr(log, fn));
  atomic_store(&on_worker0, 0);
  atomic_store(&ids_seen, 0);
  adapt_attr a = {0};
  a.grain = 1;
  const double t0 = adapt_test_now_ms();
  while (!atomic_load(&ids_seen) && adapt_test_now_ms() - t0 < 10000.0)
    assert_int_equal(adapt_for(0, 64, id_body, NULL, &a), 0);
  assert_true(atomic_load(&on_worker0));
  assert_true(atomic_load(&ids_seen));
  assert_true(finalize_in_time());
}

static void test_exit_in_scope(void **state) {
  char log[1024];
  assert_int_equal(run_capturing_stderr(exit_in_scope, NULL, log, sizeof log), 0);
  check_place_given_back(log, "adapt_scope_begin");
}

static void test_pthread_exit_in_body(void **state) {
  char log[1024];
  assert_int_equal(run_capturing_stderr(exit_in_body, NULL, log, sizeof log), 0);
  check_place_given_back(log, "adapt_for");
}

/* The thread exits while worker 0 runs a piece it stole from worker 1 (at
 * the join of its own loop): worker 1's loop still ends (the piece is
 * published as final), so do this thread's loop and the finalize. */
static atomic_int outer1_started, outer1_worker;

static void stolen_inner_body(size_t b, size_t e, void *ctx) {
  (void)ctx;
  if (adapt_worker_id() == 0) pthread_exit(NULL); /* a piece stolen from worker 1 */
  adapt_test_spin_ns(100000 * (e - b));
}

static void poll_body(size_t b, size_t e, void *ctx) {
  (void)b, (void)e, (void)ctx;
  usleep(100);
}

static void stolen_outer_body(size_t b, size_t e, void *ctx) {
  (void)e, (void)ctx;
  adapt_attr a = {0};
  a.grain = 1;
  if (adapt_worker_id() == 0) {
    /* let worker 1 take a piece first (the steal points of a nested
     * adaptive loop answer its request from the outer frame), then join
     * and steal from worker 1's inner loop. Adaptive, not the default
     * nested scheduler (lazy-df2): a lazy loop pushes its second index,
     * worker 1 would steal that instead, loop after loop, and under load
     * never reach the outer frame. */
    adapt_attr poll = a;
    poll.sched = ADAPT_SCHED_ADAPTIVE;
    for (int k = 0; b == 0 && k < 20000 && !atomic_load(&outer1_started); k++)
      adapt_for(0, 2, poll_body, NULL, &poll);
    return;
  }
  if (atomic_exchange(&outer1_started, 1)) return;
  atomic_store(&outer1_worker, adapt_worker_id());
  adapt_for(0, 200, stolen_inner_body, NULL, &a);
}

static void *exit_in_stolen_piece(void *arg) {
  (void)arg;
  adapt_attr a = {0};
  a.grain = 1;
  adapt_for(0, 8, stolen_outer_body, NULL, &a);
  return NULL; /* reached only if worker 0 never stole an inner piece */
}

static void test_exit_in_stolen_piece(void **state) {
  char log[1024];
  atomic_store(&outer1_started, 0);
  atomic_store(&outer1_worker, -1);
  assert_int_equal(run_capturing_stderr(exit_in_stolen_piece, NULL, log, sizeof log), 0);
  assert_int_equal(atomic_load(&outer1_worker), 1); /* the inner loop ran on worker 1 */
  check_place_given_back(log, "adapt_for");
}

/* A region run alone (the pool held by this thread's loop) whose thread
 * exits: finalize does not wait for it. */
static atomic_int solo_done;

static void *solo_exit_main(void *arg) {
  char *log = arg;
  run_capturing_stderr(exit_in_scope, NULL, log, 1024);
  atomic_store(&solo_done, 1);
  return NULL;
}

static void hold_body(size_t b, size_t e, void *ctx) {
  (void)b, (void)e;
  pthread_t t;
  if (pthread_create(&t, NULL, solo_exit_main, ctx) != 0) return;
  join_within(t, NULL);
}

static void test_exit_in_solo_scope(void **state) {
  char log[1024] = "";
  atomic_store(&solo_done, 0);
  adapt_attr a = {0};
  a.grain = 1;
  assert_int_equal(adapt_for(0, 1, hold_body, log, &a), 0);
  assert_true(atomic_load(&solo_done));
  assert_non_null(strstr(log, "adapt_scope_begin"));
  assert_true(finalize_in_time());
}

/* --- Item 2: preempting another thread's frame --------------------------- */

typedef adapt_test_range rng;

static adapt_frame *foreign_frame;

static void *preempt_main(void *arg) {
  (void)arg;
  intptr_t rc = adapt_preempt_next_thief(foreign_frame);
  if (rc == -EINVAL && !strstr(adapt_last_error(), "another thread")) rc = 0;
  return (void *)rc;
}

static void test_preempt_other_thread(void **state) {
  const adapt_task task = adapt_test_inert_task();
  rng w = {0, 0};
  adapt_frame f;
  assert_int_equal(adapt_begin(&f, &task, &w), 0);
  foreign_frame = &f;
  pthread_t t;
  void *rc = NULL;
  assert_int_equal(pthread_create(&t, NULL, preempt_main, NULL), 0);
  assert_int_equal(join_within(t, &rc), 0);
  assert_int_equal((intptr_t)rc, -EINVAL);
  assert_int_equal(adapt_preempt_next_thief(&f), 0); /* the owner: no thief */
  assert_int_equal(adapt_end(&f), 0);
  assert_int_equal(adapt_preempt_next_thief(&f), 0); /* ended: no thief */
}

/* --- Item 3: a splitter that writes past its piece's descriptor ---------- */

typedef struct small {
  size_t begin, end;
} small;

static void small_entry(adapt_frame *f, void *w, void *c) {
  (void)f, (void)c;
  small *s = w;
  s->begin = s->end;
}

/* Writes 8 bytes more than work_size into the reply buffer. */
void overflow_splitter(adapt_frame *f, void *w, int n, adapt_reply_set *r, void *c);
void overflow_splitter(adapt_frame *f, void *w, int n, adapt_reply_set *r, void *c) {
  (void)f, (void)n, (void)c;
  small *s = w;
  if (s->end - s->begin < 2) return;
  unsigned char *p = adapt_reply(r, s->begin + (s->end - s->begin) / 2);
  if (!p) return;
  memset(p, 0, sizeof(small) + 8);
  s->end = s->begin + (s->end - s->begin) / 2;
}

/* The child: an adaptive loop on 2 workers until the other one steals. */
static void overflow_child(void) {
  alarm(30);
  adapt_config cfg = {0};
  cfg.workers = 2;
  if (adapt_init(&cfg) != 0) _exit(3);
  const adapt_task task = {small_entry, overflow_splitter, NULL, sizeof(small), NULL};
  small w = {0, (size_t)1 << 40};
  adapt_frame f;
  if (adapt_begin(&f, &task, &w) != 0) _exit(3);
  for (;;) {
    adapt_steal_point(&f);
    sched_yield();
  }
}

static void test_splitter_overflow_named(void **state) {
  int fd[2];
  assert_int_equal(pipe(fd), 0);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    dup2(fd[1], 2);
    close(fd[0]);
    overflow_child();
  }
  close(fd[1]);
  char log[8192];
  size_t n = 0;
  ssize_t k;
  while (n < sizeof log - 1 && (k = read(fd[0], log + n, sizeof log - 1 - n)) > 0) n += (size_t)k;
  log[n] = '\0';
  close(fd[0]);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  /* The child stopped (abort, or ASan's report) and said why. */
  assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  if (WIFSIGNALED(status)) assert_int_not_equal(WTERMSIG(status), SIGALRM);
  if (strstr(log, "use-after-poison")) { /* ASan: the write, in the splitter */
    assert_non_null(strstr(log, "in overflow_splitter"));
  } else {
    assert_non_null(strstr(log, "the splitter of a task (work_size 16) wrote past"));
    assert_non_null(strstr(log, "byte 16 "));
  }
}

/* --- A finalize while long regions overlap (issue 38, item 4) ---------- */

/* LONG_THREADS threads start regions of LONG_REGION_MS each, back to back
 * and staggered, so that one always runs: longer than the finalize's
 * admission period (20 ms, adapt_finalize), they kept a finalize that let
 * the waiting regions in at every period waiting forever. Now it lets them
 * in once and fails the later ones: it returns within a few periods. The
 * bodies sleep: no CPU under the sanitizers. */
enum { LONG_THREADS = 3, LONG_REGION_MS = 50, LONG_FINALIZE_LIMIT_S = 5 };
static atomic_int long_stop, long_started, long_other_rc;

static void long_body(size_t b, size_t e, void *ctx) {
  (void)b, (void)e, (void)ctx;
  usleep(LONG_REGION_MS * 1000);
}

static void *long_main(void *arg) {
  usleep((useconds_t)((intptr_t)arg * LONG_REGION_MS * 1000 / LONG_THREADS));
  atomic_fetch_add(&long_started, 1);
  while (!atomic_load(&long_stop)) {
    int rc = adapt_for(0, 1, long_body, NULL, NULL);
    if (rc == -ESHUTDOWN && strstr(adapt_last_error(), "adapt_for: adapt_finalize is under way"))
      continue;
    if (rc != 0) atomic_store(&long_other_rc, rc);
  }
  return NULL;
}

static void test_finalize_bounded_long_regions(void **state) {
  atomic_store(&long_other_rc, 0);
  double ms = adapt_test_finalize_under_load(LONG_THREADS, long_main, &long_started, &long_stop,
                                             LONG_REGION_MS * 1000, LONG_FINALIZE_LIMIT_S);
  assert_true(ms >= 0 && ms < LONG_FINALIZE_LIMIT_S * 1000);
  /* Every region ran (0) or was refused with -ESHUTDOWN and the message. */
  assert_int_equal(atomic_load(&long_other_rc), 0);
}

int main(void) {
  alarm(WATCHDOG_S);
  const struct CMUnitTest tests[] = {
      ADAPT_TEST_WORKERS(test_exit_in_scope, 2),
      ADAPT_TEST_WORKERS(test_pthread_exit_in_body, 2),
      ADAPT_TEST_WORKERS(test_exit_in_stolen_piece, 2),
      ADAPT_TEST_WORKERS(test_exit_in_solo_scope, 2),
      ADAPT_TEST_WORKERS(test_preempt_other_thread, 2),
      ADAPT_TEST(test_splitter_overflow_named),
      ADAPT_TEST_WORKERS(test_finalize_bounded_long_regions, 2),
  };
  return adapt_test_run("misuse", tests);
}
