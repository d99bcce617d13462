/* Fault injection, the sequence algorithms' cases (fault_cases.h; the
 * harness and the checks made around each run are in fault_driver.c):
 * each algorithm in each window mode, in its per-element and range forms,
 * with exact results or its documented errors and outputs untouched. */
#include <adapt/algorithms.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "adapt_test.h"
#include "fault_cases.h"

/* --- The sequence algorithms ---------------------------------------------- */

static const adapt_window_mode modes[] = {ADAPT_WINDOW_NONE, ADAPT_WINDOW_STATIC,
                                          ADAPT_WINDOW_SLIDING};

static adapt_attr mode_attr(adapt_window_mode m) {
  adapt_attr a = {0};
  a.window = m;
  a.window_size = m == ADAPT_WINDOW_NONE ? 0 : 1024;
  a.grain = 32;
  return a;
}

static void op_f3_range(const void *a, void *b, size_t n, void *ctx) {
  range_transform(fault_op_f3, a, b, n, ctx);
}
static int pred3(const void *e, void *ctx) { return *(const uint64_t *)e % 3 == 0; }
static int pred_is(const void *e, void *ctx) { return *(const uint64_t *)e == *(size_t *)ctx; }

static affine scan_out[N_MAX];

/* The range forms of pred3 and pred_is. */
static size_t count3_range(const void *f, size_t n, void *ctx) {
  return range_count(pred3, f, n, ctx);
}
static size_t find_range(const void *f, size_t n, void *ctx) {
  return range_find(pred_is, f, n, ctx);
}
/* out[i] = init, then each element composed in order */
static void check_xscan_out(const char *what, affine init) {
  affine p = init;
  for (size_t i = 0; i < fault_n_elems; i++) {
    if (scan_out[i].a != p.a || scan_out[i].b != p.b) {
      fail_msg("%s, k=%lu: %s: out[%zu] wrong", fault_cur_name, fault_cur_k, what, i);
    }
    p = compose(p, fault_scan_in[i]);
  }
}
/* 72-byte sums: the exclusive scan's carries go to the heap (-ENOMEM may
 * be returned, and nothing may leak). */
typedef struct wide {
  uint64_t s[9];
} wide;
static void wide_op(const void *p, const void *e, void *r, void *ctx) {
  wide t;
  for (int k = 0; k < 9; k++) t.s[k] = ((const wide *)p)->s[k] + ((const wide *)e)->s[k];
  *(wide *)r = t;
}
static wide wide_in[N_MAX / 4], wide_out[N_MAX / 4];
static void check_scan_out(const char *what) {
  affine p = fault_scan_in[0];
  for (size_t i = 0; i < fault_n_elems; i++) {
    if (i) p = compose(p, fault_scan_in[i]);
    if (scan_out[i].a != p.a || scan_out[i].b != p.b) {
      fail_msg("%s, k=%lu: %s: out[%zu] wrong", fault_cur_name, fault_cur_k, what, i);
    }
  }
}

void sc_algo_map(void) {
  for (size_t mi = 0; mi < 3; mi++) {
    adapt_attr a = mode_attr(modes[mi]);
    fault_clear_marks();
    if (!FAULT_CALL(fault_ok_none, adapt_for_each, fault_marks, fault_n_elems, 1, fault_op_mark,
                    NULL, &a))
      fault_check_marks("adapt_for_each", fault_n_elems, 1);
    fault_clear_marks();
    if (!FAULT_CALL(fault_ok_none, adapt_for_each_range, fault_marks, fault_n_elems, 1,
                    fault_op_mark_range, NULL, &a))
      fault_check_marks("adapt_for_each_range", fault_n_elems, 1);
    memset(fault_out, 0, fault_n_elems * sizeof *fault_out);
    if (!FAULT_CALL(fault_ok_none, adapt_transform, fault_in, fault_n_elems, 8, fault_out, 8,
                    fault_op_f3, NULL, &a))
      fault_check_out_f3("adapt_transform");
    memset(fault_out, 0, fault_n_elems * sizeof *fault_out);
    if (!FAULT_CALL(fault_ok_none, adapt_transform_range, fault_in, fault_n_elems, 8, fault_out, 8,
                    op_f3_range, NULL, &a))
      fault_check_out_f3("adapt_transform_range");
    size_t cnt = 0;
    if (!FAULT_CALL(fault_ok_none, adapt_count_if, fault_in, fault_n_elems, 8, &cnt, pred3, NULL,
                    &a))
      assert_int_equal(cnt, (fault_n_elems + 2) / 3);
    size_t target = fault_n_elems * 3 / 4, idx = 0;
    if (!FAULT_CALL(fault_ok_none, adapt_find_if, fault_in, fault_n_elems, 8, &idx, pred_is,
                    &target, &a))
      assert_int_equal(idx, target);
    if (!FAULT_CALL(fault_ok_none, adapt_inclusive_scan, fault_scan_in, fault_n_elems,
                    sizeof(affine), scan_out, op_scan, NULL, &a))
      check_scan_out("adapt_inclusive_scan");
    cnt = 0;
    if (!FAULT_CALL(fault_ok_none, adapt_count_if_range, fault_in, fault_n_elems, 8, &cnt,
                    count3_range, NULL, &a))
      assert_int_equal(cnt, (fault_n_elems + 2) / 3);
    idx = 0;
    if (!FAULT_CALL(fault_ok_none, adapt_find_if_range, fault_in, fault_n_elems, 8, &idx,
                    find_range, &target, &a))
      assert_int_equal(idx, target);
    memset(scan_out, 0, fault_n_elems * sizeof *scan_out);
    if (!FAULT_CALL(fault_ok_none, adapt_inclusive_scan_range, fault_scan_in, fault_n_elems,
                    sizeof(affine), scan_out, scan_range, scan_add, NULL, &a))
      check_scan_out("adapt_inclusive_scan_range");
    const affine init = {3, 5};
    memset(scan_out, 0, fault_n_elems * sizeof *scan_out);
    if (!FAULT_CALL(fault_ok_none, adapt_exclusive_scan, fault_scan_in, fault_n_elems,
                    sizeof(affine), scan_out, &init, op_scan, NULL, &a))
      check_xscan_out("adapt_exclusive_scan", init);
    memset(scan_out, 0, fault_n_elems * sizeof *scan_out);
    if (!FAULT_CALL(fault_ok_none, adapt_exclusive_scan_range, fault_scan_in, fault_n_elems,
                    sizeof(affine), scan_out, &init, xscan_range, scan_add, NULL, &a))
      check_xscan_out("adapt_exclusive_scan_range", init);
    size_t nw = fault_n_elems < N_MAX / 4 ? fault_n_elems : N_MAX / 4;
    for (size_t i = 0; i < nw; i++)
      for (int k = 0; k < 9; k++) wide_in[i].s[k] = (uint64_t)k + 1;
    const wide w0 = {{0}};
    if (!fault_expect_rc(
            "adapt_exclusive_scan (72-byte elements)",
            adapt_exclusive_scan(wide_in, nw, sizeof(wide), wide_out, &w0, wide_op, NULL, &a),
            fault_ok_nomem))
      for (size_t i = 0; i < nw; i++)
        if (wide_out[i].s[8] != 9 * i) {
          fail_msg("%s, k=%lu: adapt_exclusive_scan (72-byte): out[%zu] wrong", fault_cur_name,
                   fault_cur_k, i);
          break;
        }
  }
}

/* transform_var: element v writes v % 3 outputs; copy_if keeps the
 * multiples of 3. */
static size_t var_op(const void *e, void *o, void *ctx) {
  uint64_t v = *(const uint64_t *)e;
  size_t k = (size_t)(v % VAR_MAX_OUT);
  for (size_t j = 0; j < k; j++) ((uint64_t *)o)[j] = v * 8 + j;
  return k;
}

/* Their range forms. */
static size_t var_range(const void *e, size_t n, void *o, void *ctx) {
  return range_var(var_op, e, n, o, ctx);
}
static size_t copy3_range(const void *e, size_t n, void *o, void *ctx) {
  return range_copy_if(pred3, e, n, o, ctx);
}

void sc_algo_var(void) {
  for (size_t fi = 0; fi < 6; fi++) {
    const int range = fi >= 3; /* the per-element forms, then the range forms */
    adapt_attr a = mode_attr(modes[fi % 3]);
    /* Two elements already in the vector, kept whatever happens; data is
     * the driver's own allocation (it may fail too: then the vector starts
     * empty) and the caller's to free, whatever the call returned. */
    adapt_vec v = {0};
    v.elem_size = 8;
    size_t pre = 0;
    if ((v.data = malloc(2 * 8))) {
      ((uint64_t *)v.data)[0] = 7;
      ((uint64_t *)v.data)[1] = 9;
      v.count = v.capacity = pre = 2;
    }
    int rc =
        range ? adapt_transform_var_range(fault_in, fault_n_elems, 8, &v, VAR_MAX_OUT, var_range,
                                          NULL, &a)
              : adapt_transform_var(fault_in, fault_n_elems, 8, &v, VAR_MAX_OUT, var_op, NULL, &a);
    const char *tv = range ? "adapt_transform_var_range" : "adapt_transform_var";
    const uint64_t *d = v.data;
    if (pre && (d[0] != 7 || d[1] != 9))
      fail_msg("%s, k=%lu: %s: elements before the call lost", fault_cur_name, fault_cur_k, tv);
    if (!fault_expect_rc(tv, rc, fault_ok_nomem)) {
      size_t c = pre;
      for (size_t i = 0; i < fault_n_elems && c <= v.count; i++)
        for (size_t j = 0; j < fault_in[i] % VAR_MAX_OUT; j++, c++)
          if (c >= v.count || d[c] != fault_in[i] * 8 + j)
            fail_msg("%s, k=%lu: %s: output %zu wrong", fault_cur_name, fault_cur_k, tv, c);
      assert_int_equal(c, v.count);
    } else {
      assert_int_equal(v.count, pre); /* unchanged */
    }
    free(v.data);

    size_t out_count = 12345;
    const char *ci = range ? "adapt_copy_if_range" : "adapt_copy_if";
    rc = range ? adapt_copy_if_range(fault_in, fault_n_elems, 8, fault_out, &out_count, copy3_range,
                                     NULL, &a)
               : adapt_copy_if(fault_in, fault_n_elems, 8, fault_out, &out_count, pred3, NULL, &a);
    if (!fault_expect_rc(ci, rc, fault_ok_nomem)) {
      assert_int_equal(out_count, (fault_n_elems + 2) / 3);
      for (size_t i = 0; i < out_count; i++) assert_int_equal(fault_out[i], 3 * i);
    } else {
      assert_int_equal(out_count, 12345); /* unchanged */
    }
  }
}

/* adapt_reduce: the values of kernels.h; combine checks the
 * grouping, and the hash of the result is compared with the documented
 * tree's. */
static void red_acc(void *acc, const void *first, size_t n, void *ctx) {
  if (!red_block(acc, first, n)) fault_bad(); /* the identity, a block's start */
}
static void red_combine(void *acc, const void *other, void *ctx) {
  if (!red_join(acc, other)) fault_bad();
}

void sc_algo_reduce(void) {
  red_val want = red_expected(fault_in, fault_n_elems);
  for (size_t mi = 0; mi < 3; mi++) {
    adapt_attr a = mode_attr(modes[mi]);
    a.grain = 1; /* units are blocks here */
    red_val r = {1, 2, 3};
    int rc = adapt_reduce(fault_in, fault_n_elems, 8, &r, sizeof r, &red_identity, red_acc,
                          red_combine, NULL, &a);
    if (!fault_expect_rc("adapt_reduce", rc, fault_ok_nomem)) {
      if (r.lo != 0 || r.hi != want.hi || r.h != want.h)
        fail_msg("%s, k=%lu: adapt_reduce: grouping differs from the documented one",
                 fault_cur_name, fault_cur_k);
    } else if (r.lo != 1 || r.hi != 2 || r.h != 3) {
      fail_msg("%s, k=%lu: adapt_reduce: result written on error", fault_cur_name, fault_cur_k);
    }
  }
}
