/* The hybrid scheduler's claiming heuristic (Handleman et al., "A Hybrid
 * Scheduling Scheme for Parallel Loops", IPDPS 2021, Algorithms 2
 * and 3), white-box: the partition count, Claim, and the claim sequence
 * against the paper's pseudocode, under random nested arrival orders on one
 * thread and random arrivals and delays on plain threads (every partition
 * run once, each worker's own partition first, claims in sequence order);
 * then, through adapt_for, hybrid partitions kept on one worker. */
#include <adapt/algorithms.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapt_test.h"
#include "../../libadapt/src/config.h"     /* white-box */
#include "../../libadapt/src/schedulers.h" /* white-box */

static unsigned lcg(unsigned *s) { return (*s = *s * 1103515245u + 12345u) >> 8; }

/* --- Hybrid claiming heuristic: Algorithms 2 and 3 -------------------- */

static void test_hybrid_partitions_claim(void **state) {
  for (int p = 1; p <= ADAPT_MAX_WORKERS; p++) {
    unsigned r = adapt__hybrid_partitions(p);
    assert_true(r >= (unsigned)p && r < 2u * (unsigned)p + (p == 1)); /* smallest */
    assert_int_equal(r & (r - 1), 0);                                 /* power of 2 */
  }
  assert_int_equal(adapt__hybrid_partitions(1), 1);
  assert_int_equal(adapt__hybrid_partitions(3), 4);
  /* Claim(i, w) sets flag i XOR w: once 1, then 0; nothing else changes */
  for (unsigned w = 0; w < 16; w++)
    for (unsigned i = 0; i < 16; i++) {
      atomic_uchar A[16];
      for (int k = 0; k < 16; k++) atomic_init(&A[k], 0);
      assert_int_equal(adapt__hybrid_claim(A, i, w), 1);
      assert_int_equal(adapt__hybrid_claim(A, i, w), 0);
      assert_int_equal(adapt__hybrid_claim(A, w, i), 0); /* the same partition */
      for (unsigned k = 0; k < 16; k++) assert_int_equal(atomic_load(&A[k]) != 0, k == (i ^ w));
    }
}

/* The paper's Algorithm 3, as a model. */
static unsigned model_run(unsigned char *A, unsigned R, unsigned w, unsigned *seq) {
  if (A[w]) return 0;
  A[w] = 1;
  unsigned n = 0, i = 1;
  seq[n++] = w;
  while (i < R) {
    if (!A[i ^ w]) {
      A[i ^ w] = 1;
      seq[n++] = i ^ w;
      i++;
    } else {
      i += i & (0u - i);
    }
  }
  return n;
}

typedef struct seq_rec {
  unsigned n, seq[64];
} seq_rec;
static void seq_work(unsigned r, void *arg) {
  seq_rec *s = arg;
  if (s->n < 64) s->seq[s->n] = r;
  s->n++;
}

/* Single thread, against the model, from random sets of partitions already
 * claimed. */
static void test_hybrid_run_model(void **state) {
  unsigned seed = 7;
  for (unsigned R = 1; R <= 32; R *= 2)
    for (unsigned w = 0; w < R; w++)
      for (int t = 0; t < 200; t++) {
        unsigned char B[32];
        atomic_uchar A[32];
        unsigned density = t % 4; /* 0: none claimed .. 3: about 3/4 claimed */
        for (unsigned k = 0; k < R; k++) {
          B[k] = t > 0 && lcg(&seed) % 4 < density;
          atomic_init(&A[k], B[k]);
        }
        unsigned want[32];
        seq_rec got = {0};
        unsigned nw = model_run(B, R, w, want);
        unsigned n = adapt__hybrid_run(A, R, w, seq_work, &got);
        if (n != nw || got.n != nw)
          fprintf(stderr, "hybrid_run R=%u w=%u trial %d: %u claims (%u work calls), model %u\n", R,
                  w, t, n, got.n, nw);
        assert_int_equal(n, nw);
        assert_int_equal(got.n, nw);
        for (unsigned k = 0; k < nw; k++) assert_int_equal(got.seq[k], want[k]);
        for (unsigned k = 0; k < R; k++) assert_int_equal(atomic_load(&A[k]) != 0, B[k] != 0);
        if (t == 0) assert_int_equal(n, R); /* alone: every partition, in claim order */
      }
}

/* Checks common to the arrival tests: per worker, what it claimed. */
typedef struct claimer {
  unsigned w, n, first, last_i, ret, order_bad;
  unsigned seed;
  unsigned delay_ns; /* max spin in each work call */
  struct claim_shared *sh;
} claimer;
typedef struct claim_shared {
  atomic_uchar A[64];
  atomic_uint count[64];
  unsigned R, P;
  /* threaded arrivals: start. The claimers sleep on go_cv until go is set
   * (under go_mu) rather than spin: up to 16 claimers on fewer CPUs would
   * take the CPU from the thread creating the others. */
  int go;
  pthread_mutex_t go_mu;
  pthread_cond_t go_cv;
  /* nested arrivals (single thread) */
  unsigned next, order[64], seed;
  claimer c[64];
} claim_shared;

static void claimed(claimer *me, unsigned r) {
  atomic_fetch_add_explicit(&me->sh->count[r], 1, memory_order_relaxed);
  unsigned i = r ^ me->w; /* the claim sequence's index: strictly increasing */
  if (me->n++ == 0)
    me->first = r;
  else if (i <= me->last_i)
    me->order_bad = 1;
  me->last_i = i;
}

static void check_claims(claim_shared *sh, const char *what, unsigned trial) {
  unsigned total = 0;
  for (unsigned r = 0; r < sh->R; r++) {
    unsigned c = atomic_load(&sh->count[r]);
    if (c != 1)
      fprintf(stderr, "hybrid %s R=%u P=%u trial %u: partition %u run %u times\n", what, sh->R,
              sh->P, trial, r, c);
    assert_int_equal(c, 1);
    assert_true(atomic_load(&sh->A[r]) != 0);
  }
  for (unsigned w = 0; w < sh->P; w++) {
    claimer *c = &sh->c[w];
    assert_int_equal(c->ret, c->n);          /* return value = partitions it ran */
    if (c->n) assert_int_equal(c->first, w); /* own partition first */
    assert_int_equal(c->order_bad, 0);
    total += c->n;
  }
  assert_int_equal(total, sh->R);
}

/* Nested arrivals on one thread: worker b's whole claim sequence runs
 * inside one of worker a's work calls (b arrived while a was between two
 * claims), in random orders. */
static void arrive(claim_shared *sh);
static void nested_work(unsigned r, void *arg) {
  claimer *me = arg;
  claimed(me, r);
  while (me->sh->next < me->sh->P && lcg(&me->sh->seed) % 3 == 0) arrive(me->sh);
}
static void arrive(claim_shared *sh) {
  claimer *c = &sh->c[sh->order[sh->next++]];
  c->ret = adapt__hybrid_run(sh->A, sh->R, c->w, nested_work, c);
}
static void shared_reset(claim_shared *sh, unsigned R, unsigned P, unsigned *seed) {
  sh->R = R;
  sh->P = P;
  for (unsigned r = 0; r < 64; r++) {
    atomic_init(&sh->A[r], 0);
    atomic_init(&sh->count[r], 0);
  }
  sh->go = 0;
  for (unsigned w = 0; w < P; w++) {
    sh->order[w] = w;
    sh->c[w] = (claimer){.w = w, .sh = sh, .seed = lcg(seed) | 1};
  }
  for (unsigned w = P; w-- > 1;) { /* random arrival order */
    unsigned k = lcg(seed) % (w + 1), t = sh->order[w];
    sh->order[w] = sh->order[k];
    sh->order[k] = t;
  }
}

static void test_hybrid_nested_arrivals(void **state) {
  claim_shared *sh = calloc(1, sizeof *sh);
  assert_non_null(sh);
  unsigned seed = 99;
  for (unsigned R = 1; R <= 32; R *= 2)
    for (unsigned P = 1; P <= R; P++)
      for (unsigned t = 0; t < 300; t++) {
        shared_reset(sh, R, P, &seed);
        sh->next = 0;
        sh->seed = lcg(&seed);
        while (sh->next < P) arrive(sh);
        check_claims(sh, "nested arrivals", t);
      }
  free(sh);
}

/* Plain threads (not workers) claim concurrently, arriving in random
 * order after random delays, and stay a random time in each work call. */
static void thread_work(unsigned r, void *arg) {
  claimer *me = arg;
  claimed(me, r);
  unsigned d = lcg(&me->seed) % 3 ? lcg(&me->seed) % (me->delay_ns + 1) : 0;
  if (d) adapt_test_spin_ns(d);
}
static void *claimer_main(void *arg) {
  claimer *c = arg;
  /* the mutex orders the main thread's set-up of the trial before the claims */
  pthread_mutex_lock(&c->sh->go_mu);
  while (!c->sh->go) pthread_cond_wait(&c->sh->go_cv, &c->sh->go_mu);
  pthread_mutex_unlock(&c->sh->go_mu);
  unsigned d = lcg(&c->seed) % 4 ? lcg(&c->seed) % (4 * c->delay_ns + 1) : 0;
  if (d) adapt_test_spin_ns(d);
  c->ret = adapt__hybrid_run(c->sh->A, c->sh->R, c->w, thread_work, c);
  return NULL;
}

static void test_hybrid_threads(void **state) {
  claim_shared *sh = calloc(1, sizeof *sh);
  assert_non_null(sh);
  assert_int_equal(pthread_mutex_init(&sh->go_mu, NULL), 0);
  assert_int_equal(pthread_cond_init(&sh->go_cv, NULL), 0);
  unsigned seed = 4242;
  size_t trials = adapt_test_trials(120, 25, 10); /* every (R, P), each delay class */
  pthread_t th[16];
  for (unsigned R = 1; R <= 16; R *= 2)
    for (unsigned P = 1; P <= R; P++)
      for (unsigned t = 0; t < trials; t++) {
        shared_reset(sh, R, P, &seed);
        unsigned delay = t % 3 == 0 ? 0 : (t % 3 == 1 ? 500 : 5000); /* ns */
        for (unsigned k = 0; k < P; k++) { /* created in the random order */
          claimer *c = &sh->c[sh->order[k]];
          c->delay_ns = delay;
          assert_int_equal(pthread_create(&th[k], NULL, claimer_main, c), 0);
        }
        pthread_mutex_lock(&sh->go_mu);
        sh->go = 1;
        pthread_cond_broadcast(&sh->go_cv);
        pthread_mutex_unlock(&sh->go_mu);
        for (unsigned k = 0; k < P; k++) pthread_join(th[k], NULL);
        check_claims(sh, "threads", t);
      }
  pthread_cond_destroy(&sh->go_cv);
  pthread_mutex_destroy(&sh->go_mu);
  free(sh);
}

/* --- Hybrid: partitions stay on one worker ------------------------------ */

/* With a grain of at least the partition size, each partition is one body
 * call, hence on one worker: R calls of n/R indices each. Which worker gets
 * which partition, and whether the helper arrives in time, is not
 * guaranteed: the share of indices on the same worker as in the previous
 * loop is printed, not asserted. */
typedef struct aff {
  signed char *runner;
  atomic_size_t calls;
  atomic_int bad;
  size_t n, part;
} aff;
static void aff_body(size_t b, size_t e, void *ctx) {
  aff *a = ctx;
  int id = adapt_worker_id();
  if (id < 0 || id > 1 || e - b != a->part || b % a->part) atomic_store(&a->bad, 1);
  atomic_fetch_add_explicit(&a->calls, 1, memory_order_relaxed);
  for (size_t i = b; i < e; i++) {
    if (a->runner[i] != -1) atomic_store(&a->bad, 2);
    a->runner[i] = (signed char)id;
  }
  adapt_test_spin_ns(20000); /* gives the other worker time to arrive */
}

/* On 2 workers (started by the setup). */
static void test_hybrid_affinity(void **state) {
  unsigned R = adapt__hybrid_partitions(2);
  assert_int_equal(R, 2);
  size_t n = 1u << 14, loops = adapt_test_scale(200, 50), both_prev = 0, pairs = 0;
  double share_sum = 0;
  signed char *prev = malloc(n), *cur = malloc(n);
  assert_true(prev && cur);
  int prev_both = 0;
  for (size_t l = 0; l < loops; l++) {
    aff a = {cur, 0, 0, n, n / R};
    memset(cur, -1, n);
    adapt_attr at = {0};
    at.sched = ADAPT_SCHED_HYBRID;
    at.grain = l % 2 ? n / R : n; /* partition size, or larger */
    assert_int_equal(adapt_for(0, n, aff_body, &a, &at), 0);
    if (atomic_load(&a.bad))
      fprintf(stderr, "hybrid affinity loop %zu: bad call (%d)\n", l, atomic_load(&a.bad));
    assert_int_equal(atomic_load(&a.bad), 0);
    assert_int_equal(atomic_load(&a.calls), R);
    size_t on1 = 0;
    for (size_t i = 0; i < n; i++) {
      assert_true(cur[i] == 0 || cur[i] == 1); /* every index once */
      on1 += cur[i] == 1;
    }
    int both = on1 > 0 && on1 < n;
    if (both && prev_both) {
      size_t same = 0;
      for (size_t i = 0; i < n; i++) same += cur[i] == prev[i];
      share_sum += (double)same / (double)n;
      pairs++;
    }
    both_prev += both;
    prev_both = both;
    signed char *t = prev;
    prev = cur;
    cur = t;
  }
  fprintf(stderr,
          "  hybrid affinity, 2 workers: %zu of %zu loops used both workers; "
          "same worker as the previous loop: %.1f%% of indices (%zu pairs)\n",
          both_prev, loops, pairs ? 100.0 * share_sum / (double)pairs : 0.0, pairs);
  free(prev);
  free(cur);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ADAPT_TEST(test_hybrid_partitions_claim),    ADAPT_TEST(test_hybrid_run_model),
      ADAPT_TEST(test_hybrid_nested_arrivals),     ADAPT_TEST(test_hybrid_threads),
      ADAPT_TEST_WORKERS(test_hybrid_affinity, 2),
  };
  return adapt_test_run("hybrid", tests);
}
