/* A program as a user of the installed library writes it: checks that the
 * headers and the loaded library agree on the version, then runs a parallel
 * loop and a reduction and checks their results. Built by
 * packaging/check_consumers.sh through pkg-config and through CMake. */
#include <adapt/algorithms.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 1 << 20 };

static void body(size_t begin, size_t end, void *ctx) {
  double *y = ctx;
  for (size_t i = begin; i < end; i++) y[i] = 2.0 * (double)i + 1.0;
}

static void accumulate(void *acc, const void *first, size_t n, void *ctx) {
  const double *x = first;
  double *s = acc;
  for (size_t i = 0; i < n; i++) *s += x[i];
}

static void combine(void *acc, const void *other, void *ctx) {
  *(double *)acc += *(const double *)other;
}

int main(void) {
  if (adapt_version() != ADAPT_VERSION_HEX) {
    fprintf(stderr, "consumer: headers %#x, library %#x\n", ADAPT_VERSION_HEX, adapt_version());
    return 1;
  }
  double *y = malloc(N * sizeof *y);
  if (!y) return 1;
  int rc = adapt_for(0, N, body, y, NULL);
  double sum = 0, zero = 0;
  if (!rc)
    rc = adapt_reduce(y, N, sizeof *y, &sum, sizeof sum, &zero, accumulate, combine, NULL, NULL);
  free(y);
  if (rc) {
    fprintf(stderr, "consumer: %s\n", adapt_strerror(rc));
    return 1;
  }
  double expect = (double)N * (double)N; /* sum of 2i+1 over [0, N) */
  printf("consumer: libadapt %s, %d workers, sum %.0f (%s)\n", adapt_version_string(),
         adapt_num_workers(), sum, sum == expect ? "ok" : "WRONG");
  adapt_finalize();
  return sum == expect ? 0 : 1;
}
