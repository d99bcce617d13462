/* adapt_transform_var and adapt_copy_if and their range forms: outputs
 * byte-identical to the sequential run for every window mode, splitter,
 * worker count, grain and size; errors leave the output as it was. */
#include <adapt/algorithms.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo_test.h"

/* 12-byte outputs (not a power of two): element i writes 0..4 of them. */
typedef struct tri {
  uint32_t cell, k, h;
} tri;

enum { MAX_OUT = 4 };

static size_t gen(const void *in_elem, void *out_elems, void *ctx) {
  uint64_t v = *(const uint64_t *)in_elem;
  size_t k = (size_t)(algo_mix(v) % 5); /* 0..4 */
  tri *t = out_elems;
  for (size_t j = 0; j < k; j++) t[j] = (tri){(uint32_t)v, (uint32_t)j, (uint32_t)algo_mix(v + j)};
  return k;
}

/* The sequential definition. */
static size_t gen_seq(const uint64_t *in, size_t n, tri *out) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++) c += gen(&in[i], out + c, NULL);
  return c;
}

static int keep_pred(const void *elem, void *ctx) {
  return algo_mix(*(const uint64_t *)elem) % 3 == 0;
}

/* The range forms of gen and keep_pred. gen_range also scribbles on the
 * room it does not use (allowed: it is scratch). */
static size_t gen_range(const void *in_first, size_t n, void *out_first, void *ctx) {
  size_t k = gen_seq(in_first, n, out_first);
  if (k < n * MAX_OUT) memset((tri *)out_first + k, 0xa5, sizeof(tri));
  return k;
}

static size_t keep_range(const void *in_first, size_t n, void *out_first, void *ctx) {
  const uint64_t *in = in_first;
  uint64_t *out = out_first;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    out[k] = in[i]; /* branch-free: written always, kept when selected */
    k += keep_pred(&in[i], NULL);
  }
  return k;
}

static int case_var(const algo_case *c, void *arg) {
  size_t n = c->n;
  uint64_t *in = malloc((n + 1) * sizeof *in);
  tri *ref = malloc((n * MAX_OUT + 4) * sizeof *ref);
  assert_true(in && ref);
  for (size_t i = 0; i < n; i++) in[i] = i * 2654435761u + 11;
  /* two outputs already in the vector are kept */
  ref[0] = (tri){1, 2, 3};
  ref[1] = (tri){4, 5, 6};
  size_t nref = 2 + gen_seq(in, n, ref + 2);
  adapt_vec v = {0};
  v.elem_size = sizeof(tri);
  v.data = malloc(2 * sizeof(tri));
  assert_non_null(v.data);
  memcpy(v.data, ref, 2 * sizeof(tri));
  v.count = v.capacity = 2;
  int rc = adapt_transform_var(in, n, sizeof *in, &v, MAX_OUT, gen, NULL, &c->attr);
  int bad = rc != 0 || v.count != nref || v.capacity < v.count ||
            memcmp(v.data, ref, nref * sizeof(tri)) != 0;
  if (bad) {
    algo_case_print(c, "transform_var");
    fprintf(stderr, "  rc=%d count=%zu expected %zu\n", rc, v.count, nref);
  }
  free(v.data);

  /* transform_var_range: the same vector */
  v = (adapt_vec){0};
  v.elem_size = sizeof(tri);
  v.data = malloc(2 * sizeof(tri));
  assert_non_null(v.data);
  memcpy(v.data, ref, 2 * sizeof(tri));
  v.count = v.capacity = 2;
  rc = adapt_transform_var_range(in, n, sizeof *in, &v, MAX_OUT, gen_range, NULL, &c->attr);
  if (rc || v.count != nref || memcmp(v.data, ref, nref * sizeof(tri)) != 0) {
    algo_case_print(c, "transform_var_range");
    fprintf(stderr, "  rc=%d count=%zu expected %zu\n", rc, v.count, nref);
    bad = 1;
  }
  free(v.data);

  /* copy_if: stable, byte-identical */
  uint64_t *out = malloc((n + 1) * sizeof *out), *cref = malloc((n + 1) * sizeof *cref);
  assert_true(out && cref);
  size_t nc = 0;
  for (size_t i = 0; i < n; i++)
    if (keep_pred(&in[i], NULL)) cref[nc++] = in[i];
  size_t got = SIZE_MAX;
  out[n] = 0xabcdef;
  rc = adapt_copy_if(in, n, sizeof *in, out, &got, keep_pred, NULL, &c->attr);
  if (rc || got != nc || memcmp(out, cref, nc * sizeof *out) || out[n] != 0xabcdef) {
    algo_case_print(c, "copy_if");
    fprintf(stderr, "  rc=%d count=%zu expected %zu\n", rc, got, nc);
    bad = 1;
  }
  got = SIZE_MAX;
  memset(out, 0, n * sizeof *out);
  rc = adapt_copy_if_range(in, n, sizeof *in, out, &got, keep_range, NULL, &c->attr);
  if (rc || got != nc || memcmp(out, cref, nc * sizeof *out) || out[n] != 0xabcdef) {
    algo_case_print(c, "copy_if_range");
    fprintf(stderr, "  rc=%d count=%zu expected %zu\n", rc, got, nc);
    bad = 1;
  }
  free(out);
  free(cref);
  free(in);
  free(ref);
  return bad;
}

/* --- errors -------------------------------------------------------------- */

typedef struct bad_ctx {
  size_t bad_at;
  atomic_size_t calls;
} bad_ctx;

/* Returns max_out + 1 at element bad_at. */
static size_t gen_bad(const void *in_elem, void *out_elems, void *ctx) {
  bad_ctx *b = ctx;
  atomic_fetch_add_explicit(&b->calls, 1, memory_order_relaxed);
  uint64_t v = *(const uint64_t *)in_elem;
  if (v == b->bad_at) return MAX_OUT + 1;
  return gen(in_elem, out_elems, NULL);
}

/* More outputs than the room at the chunk holding the value *(size_t *)ctx
 * (test_var_errors' input holds its indices); writes nothing. */
static size_t gen_over(const void *in_first, size_t n, void *out_first, void *ctx) {
  const uint64_t *in = in_first, at = *(const size_t *)ctx;
  return in[0] <= at && in[n - 1] >= at ? n * MAX_OUT + 1 : 0;
}

static size_t keep_over(const void *in_first, size_t n, void *out_first, void *ctx) {
  const uint64_t *in = in_first, at = *(const size_t *)ctx;
  return in[0] <= at && in[n - 1] >= at ? n + 1 : 0;
}

static void test_var_errors(void **state) {
  size_t n = adapt_test_scale(200000, 20000);
  uint64_t *in = malloc(n * sizeof *in);
  assert_non_null(in);
  for (size_t i = 0; i < n; i++) in[i] = i;
  adapt_vec v = {0};
  v.elem_size = sizeof(tri);
  v.data = malloc(sizeof(tri));
  ((tri *)v.data)[0] = (tri){7, 8, 9};
  v.count = v.capacity = 1;
  for (size_t mi = 0; mi < ALGO_NMODES; mi++) {
    adapt_attr a = algo_attr(&algo_modes[mi], 1000, 0);
    bad_ctx b;
    b.bad_at = n / 2;
    atomic_init(&b.calls, 0);
    assert_int_equal(adapt_transform_var(in, n, sizeof *in, &v, MAX_OUT, gen_bad, &b, &a), -ERANGE);
    assert_int_equal(v.count, 1);
    assert_true(v.capacity >= 1);
    tri t0 = ((tri *)v.data)[0];
    assert_true(t0.cell == 7 && t0.k == 8 && t0.h == 9);
  }
  free(v.data);

  /* the range forms: an op returning more than its room, then the checks */
  size_t half = n / 2;
  for (size_t mi = 0; mi < ALGO_NMODES; mi++) {
    adapt_attr a = algo_attr(&algo_modes[mi], 1000, 0);
    adapt_vec r = {0};
    r.elem_size = sizeof(tri);
    assert_int_equal(adapt_transform_var_range(in, n, sizeof *in, &r, MAX_OUT, gen_over, &half, &a),
                     -ERANGE);
    assert_int_equal(r.count, 0);
    free(r.data);
    uint64_t *o = malloc(n * sizeof *o);
    assert_non_null(o);
    size_t cnt2 = 77;
    assert_int_equal(adapt_copy_if_range(in, n, sizeof *in, o, &cnt2, keep_over, &half, &a),
                     -ERANGE);
    assert_int_equal(cnt2, 77);
    free(o);
  }

  adapt_vec w = {0};
  w.elem_size = sizeof(tri);
  uint64_t buf[8] = {0};
  size_t cnt = 99;
  assert_int_equal(adapt_transform_var(in, 8, sizeof *in, &w, MAX_OUT, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_transform_var(in, 8, sizeof *in, NULL, MAX_OUT, gen, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_transform_var(in, 8, 0, &w, MAX_OUT, gen, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_transform_var(NULL, 8, 8, &w, MAX_OUT, gen, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_transform_var(in, SIZE_MAX / 4, 8, &w, MAX_OUT, gen, NULL, NULL),
                   -EOVERFLOW);
  assert_int_equal(adapt_transform_var(in, 8, 8, &w, SIZE_MAX / 2, gen, NULL, NULL), -EOVERFLOW);
  w.elem_size = 0;
  assert_int_equal(adapt_transform_var(in, 8, 8, &w, MAX_OUT, gen, NULL, NULL), -EINVAL);
  w.elem_size = sizeof(tri);
  w.count = 5; /* count > capacity */
  assert_int_equal(adapt_transform_var(in, 8, 8, &w, MAX_OUT, gen, NULL, NULL), -EINVAL);
  w.count = 0;
  w.capacity = 3; /* NULL data with capacity */
  assert_int_equal(adapt_transform_var(in, 8, 8, &w, MAX_OUT, gen, NULL, NULL), -EINVAL);
  /* input inside the output vector */
  w.data = buf;
  w.capacity = 2;
  w.elem_size = 8;
  assert_int_equal(adapt_transform_var(buf + 1, 2, 8, &w, 1, gen, NULL, NULL), -EINVAL);
  assert_true(w.data == buf && w.count == 0 && w.capacity == 2);

  assert_int_equal(adapt_copy_if(in, 8, 8, buf, &cnt, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_copy_if(in, 8, 8, buf, NULL, keep_pred, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_copy_if(in, 8, 0, buf, &cnt, keep_pred, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_copy_if(in, SIZE_MAX / 4, 8, buf, &cnt, keep_pred, NULL, NULL),
                   -EOVERFLOW);
  assert_int_equal(adapt_copy_if(in, 8, 8, in + 4, &cnt, keep_pred, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_copy_if(in, 8, 8, in, &cnt, keep_pred, NULL, NULL), -EINVAL);
  assert_int_equal(cnt, 99);
  assert_int_equal(adapt_copy_if(NULL, 0, 8, NULL, &cnt, keep_pred, NULL, NULL), 0);
  assert_int_equal(cnt, 0);
  w = (adapt_vec){0};
  w.elem_size = sizeof(tri);
  cnt = 99;
  assert_int_equal(adapt_transform_var_range(in, 8, 8, &w, MAX_OUT, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_transform_var_range(in, 8, 8, NULL, MAX_OUT, gen_range, NULL, NULL),
                   -EINVAL);
  assert_int_equal(adapt_transform_var_range(in, 8, 8, &w, SIZE_MAX / 2, gen_range, NULL, NULL),
                   -EOVERFLOW);
  assert_int_equal(adapt_copy_if_range(in, 8, 8, buf, &cnt, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_copy_if_range(in, 8, 8, buf, NULL, keep_range, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_copy_if_range(in, 8, 8, in + 4, &cnt, keep_range, NULL, NULL), -EINVAL);
  assert_int_equal(cnt, 99);
  assert_true(w.data == NULL && w.count == 0);
  free(in);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ALGO_MATRIX_TEST(test_var_matrix, case_var),
      ADAPT_TEST_WORKERS(test_var_errors, 3),
  };
  return adapt_test_run("algo_var", tests);
}
