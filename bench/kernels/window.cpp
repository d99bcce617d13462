/* The window kernel and its PThread baselines (window.hpp). */
#include "window.hpp"

#include <adapt/algorithms.h>

#include <sched.h>
#include <stdlib.h>

static inline void window_range(const window_kernel &k, size_t i0, size_t i1) {
  const double *a = k.a;
  double *b = k.b;
  size_t r = k.r;
  for (size_t i = i0; i < i1; i++) b[i] = a[i] + 0.5 * a[i >= r ? i - r : i];
}

static void window_tr_range(const void *in_first, void *out_first, size_t n, void *ctx) {
  const window_kernel *k = (const window_kernel *)ctx;
  (void)out_first;
  size_t i0 = (size_t)((const double *)in_first - k->a);
  window_range(*k, i0, i0 + n);
}

void window_seq(const window_kernel &k) { window_range(k, 0, k.n); }

int window_adapt(const window_kernel &k, const adapt_attr *attr) {
  return adapt_transform_range(k.a, k.n, sizeof(double), k.b, sizeof(double), window_tr_range,
                               (void *)&k, attr);
}

size_t window_wrong(const window_kernel &k) {
  size_t bad = 0;
  for (size_t i = 0; i < k.n; i++) bad += k.b[i] != k.a[i] + 0.5 * k.a[i >= k.r ? i - k.r : i];
  return bad;
}

/* ------------------------------------------------------------------ */
/* PThread baselines                                                   */

/* Binds the calling thread to the PU adapt's worker id is bound to, so that
 * both implementations use the same cores (a bound calling thread's mask
 * cannot list the CPUs). */
static void bind_like_worker(int id) {
  int pu = adapt_worker_pu(id);
  int c = pu >= 0 ? pu : id;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(c, &one);
  pthread_setaffinity_np(pthread_self(), sizeof one, &one);
}

void pthread_pool::part(int id) {
  size_t n = k_->n, p = (size_t)p_;
  if (m_ == 0) {
    window_range(*k_, n * (size_t)id / p, n * (size_t)(id + 1) / p);
    return;
  }
  for (size_t c = 0; c < n; c += m_) {
    size_t len = n - c < m_ ? n - c : m_;
    window_range(*k_, c + len * (size_t)id / p, c + len * (size_t)(id + 1) / p);
    pthread_barrier_wait(&chunk_);
  }
}

struct pool_arg {
  pthread_pool *pool;
  int id;
};

void *pthread_pool::thread_main(void *v) {
  pool_arg a = *(pool_arg *)v;
  free(v);
  bind_like_worker(a.id);
  for (;;) {
    pthread_barrier_wait(&a.pool->start_);
    if (a.pool->quit_) return NULL;
    a.pool->part(a.id);
    pthread_barrier_wait(&a.pool->end_);
  }
}

bool pthread_pool::start(int p) {
  if (p < 1 || p > 64) return false;
  p_ = p;
  if (pthread_barrier_init(&start_, NULL, (unsigned)p) ||
      pthread_barrier_init(&end_, NULL, (unsigned)p) ||
      pthread_barrier_init(&chunk_, NULL, (unsigned)p))
    return false;
  started_ = 1;
  for (int i = 1; i < p; i++) {
    pool_arg *a = (pool_arg *)malloc(sizeof *a);
    if (!a) return false;
    *a = {this, i};
    if (pthread_create(&th_[i], NULL, thread_main, a)) return false;
    started_ = i + 1;
  }
  return true;
}

void pthread_pool::run(const window_kernel &k, size_t m) {
  cpu_set_t saved;
  sched_getaffinity(0, sizeof saved, &saved);
  bind_like_worker(0);
  k_ = &k;
  m_ = m;
  pthread_barrier_wait(&start_);
  part(0);
  pthread_barrier_wait(&end_);
  sched_setaffinity(0, sizeof saved, &saved);
}

pthread_pool::~pthread_pool() {
  if (started_ == 0) return;
  if (started_ == p_) {
    quit_ = true;
    pthread_barrier_wait(&start_);
    for (int i = 1; i < p_; i++) pthread_join(th_[i], NULL);
  }
  pthread_barrier_destroy(&start_);
  pthread_barrier_destroy(&end_);
  pthread_barrier_destroy(&chunk_);
}
