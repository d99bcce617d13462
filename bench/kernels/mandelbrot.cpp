/* Mandelbrot for bench_sched (mandelbrot.hpp). */
#include "mandelbrot.hpp"

static inline int mb_pixel(size_t p, int side, int maxit) {
  int px = (int)(p % (size_t)side), py = (int)(p / (size_t)side);
  double cr = -2.0 + 2.5 * (double)px / (double)side;
  double ci = -1.25 + 2.5 * (double)py / (double)side;
  double zr = 0, zi = 0;
  int k = 0;
  while (k < maxit && zr * zr + zi * zi <= 4.0) {
    double t = zr * zr - zi * zi + cr;
    zi = 2.0 * zr * zi + ci;
    zr = t;
    k++;
  }
  return k;
}

struct mb_ctx {
  int *out;
  int side, maxit;
};

static void mb_body(size_t b, size_t e, void *p) {
  mb_ctx *c = (mb_ctx *)p;
  for (size_t i = b; i < e; i++) c->out[i] = mb_pixel(i, c->side, c->maxit);
}

__attribute__((noinline)) void mb_seq(int *out, int side, int maxit) {
  size_t n = (size_t)side * (size_t)side;
  for (size_t i = 0; i < n; i++) out[i] = mb_pixel(i, side, maxit);
}

int mb_adapt(int *out, int side, int maxit, const adapt_attr *attr) {
  mb_ctx c = {out, side, maxit};
  return adapt_for(0, (size_t)side * (size_t)side, mb_body, &c, attr);
}

void mb_omp(omp_kind kind, int chunk, int threads, int *out, int side, int maxit) {
  size_t n = (size_t)side * (size_t)side;
  OMP_PARALLEL_FOR(kind, chunk, threads, firstprivate(out, side, maxit),
                   for (size_t i = 0; i < n; i++) out[i] = mb_pixel(i, side, maxit););
}

void mb_tbb(tbb_kind kind, tbb::task_arena &arena, tbb::affinity_partitioner *ap, int *out,
            int side, int maxit) {
  size_t n = (size_t)side * (size_t)side;
  arena.execute([&] {
    tbb_for(
        kind, tbb::blocked_range<size_t>(0, n, 1),
        [=](const tbb::blocked_range<size_t> &r) {
          for (size_t i = r.begin(); i != r.end(); i++) out[i] = mb_pixel(i, side, maxit);
        },
        ap);
  });
}
