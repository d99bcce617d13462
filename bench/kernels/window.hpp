/* The kernel of bench_window's window section, B[i] = A[i] + 0.5 * A[i - R]
 * (memory-bound, long reuse distance: between the two reads of A[j] the
 * sequential loop touches R elements of A and R of B, 16 R bytes), as the
 * sequential loop, through adapt_transform_range (every window mode), and
 * as the PThread baselines of the paper's §2.4: P threads bound to the PUs
 * of adapt's workers; no-window, a static partition in P groups and a
 * barrier at the end; static-window, chunks of m, each cut in P groups, a
 * barrier per chunk.
 *
 * Thread-safety: one call at a time per window_kernel and per pthread_pool.
 */
#ifndef BENCH_KERNELS_WINDOW_HPP
#define BENCH_KERNELS_WINDOW_HPP

#include <adapt/loop.h>

#include <pthread.h>
#include <stddef.h>

struct window_kernel {
  const double *a;
  double *b;
  size_t n, r;
};

void window_seq(const window_kernel &k);
int window_adapt(const window_kernel &k, const adapt_attr *attr);
/* Elements of b that differ from the definition. */
size_t window_wrong(const window_kernel &k);

/* The PThread baselines. */
class pthread_pool {
public:
  /* Starts p - 1 threads (the caller is thread 0); false if it could not. */
  bool start(int p);
  /* One pass of k: m = 0 no-window, else static-window of m elements. The
   * calling thread is bound to thread 0's PU during the pass. */
  void run(const window_kernel &k, size_t m);
  ~pthread_pool();

private:
  int p_ = 0, started_ = 0;
  pthread_t th_[64];
  pthread_barrier_t start_, end_, chunk_;
  const window_kernel *k_ = NULL;
  size_t m_ = 0;
  bool quit_ = false;
  void part(int id);
  static void *thread_main(void *arg);
};

#endif /* BENCH_KERNELS_WINDOW_HPP */
