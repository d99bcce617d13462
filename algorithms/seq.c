/* adapt_seq_run: the sequence engine (seq_engine.c) behind a public kernel
 * of <adapt/seq.h>. The public kernel's callbacks get the piece's state (the
 * engine's per-piece accumulator bytes) and the thief's processed range. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <adapt/seq.h>

#include "adapt_ext.h"
#include "seq_engine.h"

_Static_assert(ADAPT_SEQ_STATE_MAX <= ADAPT_SEQ_ACC_BYTES,
               "the public state must fit in the engine's accumulator");
_Static_assert(ADAPT_SEQ_STATE_ALIGN <= 16, "the engine's accumulator is 16-byte aligned");

/* The engine's context first: the engine's callbacks get &s->c. */
struct adapt_seq {
  adapt__seq_ctx c;
  const adapt_seq_kernel *k;
  void *user;
  void *shared; /* maps: the master's state, given to every chunk */
};

static adapt_seq *seq_of(adapt__seq_ctx *c) { return (adapt_seq *)(void *)c; }

static void k_run(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  adapt_seq *s = seq_of(c);
  s->k->run(s, w->acc, b, e, s->user);
}

/* A map's chunks all get the master's state (a stolen piece has its own,
 * zero, accumulator: not what a map's run expects). */
static void k_run_map(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  adapt_seq *s = seq_of(c);
  s->k->run(s, s->shared, b, e, s->user);
}

/* A piece that processed nothing (stolen, then cut off by a stop before
 * its first chunk) still has its all-zero state, which is not the kernel's
 * empty result in general (an identity that is not zero): it is neither
 * merged nor discarded. */
static void k_merge(adapt__seq_ctx *c, adapt__seq_work *v, adapt__seq_work *t) {
  adapt_seq *s = seq_of(c);
  if (t->ibeg != t->start) s->k->merge(s, v->acc, t->acc, t->start, t->ibeg, s->user);
}

static void k_discard(adapt__seq_ctx *c, adapt__seq_work *t) {
  adapt_seq *s = seq_of(c);
  if (t->ibeg != t->start) s->k->discard(s, t->acc, s->user);
}

/* The engine's kernel for the public one: merge and discard only where the
 * public kernel has them (no merge and no discard: a map, see seq.h). */
static const adapt__seq_kernel kernels[4] = {
    {k_run_map, NULL, NULL},
    {k_run, k_merge, NULL},
    {k_run, NULL, k_discard},
    {k_run, k_merge, k_discard},
};

int adapt_seq_run(const char *name, size_t n, size_t unit_bytes, const adapt_seq_kernel *k,
                  void *ctx, void *state, const adapt_attr *attr) {
  const char *fn = name ? name : "adapt_seq_run";
  adapt__error_clear();
  if (!k || !k->run) return adapt__fail(-EINVAL, "%s: kernel or kernel run is NULL", fn);
  if (k->state_size > ADAPT_SEQ_STATE_MAX)
    return adapt__fail(-EINVAL, "%s: state_size %zu is above ADAPT_SEQ_STATE_MAX (%d)", fn,
                       k->state_size, ADAPT_SEQ_STATE_MAX);
  if (k->state_size && !state)
    return adapt__fail(-EINVAL, "%s: state is NULL with state_size > 0", fn);
  if (unit_bytes == 0) return adapt__fail(-EINVAL, "%s: unit_bytes is 0", fn);
  if (k->thief_parts > ADAPT_SEQ_THIEF_PARTS_MAX)
    return adapt__fail(-EINVAL, "%s: thief_parts %u is above ADAPT_SEQ_THIEF_PARTS_MAX (%d)", fn,
                       k->thief_parts, ADAPT_SEQ_THIEF_PARTS_MAX);
  adapt__seq_params p;
  int rc = adapt__seq_params_resolve(fn, attr, n, 1, unit_bytes, &p);
  if (rc || n == 0) return rc;
  p.grain_key = (void (*)(void))k->run;
  p.thief_parts = k->thief_parts > 1 ? k->thief_parts : 1;
  adapt_seq s;
  adapt__seq_work w;
  s.k = k;
  s.user = ctx;
  s.shared = w.acc;
  const adapt__seq_kernel *ek = &kernels[(k->merge ? 1 : 0) + (k->discard ? 2 : 0)];
  rc = adapt__seq_run(&s.c, &w, ek, &s, &p, state, k->state_size);
  if (k->state_size) memcpy(state, w.acc, k->state_size);
  return rc;
}

void adapt_seq_stop(adapt_seq *s, size_t at, int err) {
  if (s) adapt__seq_stop(&s->c, at, err);
}

size_t adapt_seq_limit(const adapt_seq *s) { return s ? adapt__seq_limit(&s->c) : 0; }
