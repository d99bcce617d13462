/* The adaptive API: begin/end, serving requests with splitters, replies,
 * preemption, reduction, and the execution of stolen pieces. */
#include <errno.h>
#include <string.h>

#include "debug.h"
#include "error.h"
#include "worker.h"

/* Constant "not preempted" flag for frames that do not run a stolen piece. */
static const atomic_int never_preempted = 0;

struct adapt_reply_set {
  adapt__worker *w;
  adapt__frame *frame;
  int count;                  /* requests collected */
  int given;                  /* requests answered with a piece so far */
  int ids[ADAPT_MAX_WORKERS]; /* thief ids, in collection order */
  adapt__theft *recs[ADAPT_MAX_WORKERS];
};

void *adapt_reply(adapt_reply_set *rs, size_t key) {
  if (!rs || rs->given >= rs->count) return NULL;
  adapt__theft *rec = adapt__theft_get(rs->w);
  if (!rec) return NULL; /* ENOMEM: the request fails, nothing is lost */
  adapt__frame *f = rs->frame;
  rec->key = key;
  rec->task = f->task;
  rec->thief = rs->ids[rs->given];
  rec->handover = NULL;
  /* relaxed: published to the thief by the release store of OK. */
  atomic_store_explicit(&rec->state, ADAPT__THEFT_RUNNING, memory_order_relaxed);
  adapt__theft_insert(&f->thieves, rec);
  rs->recs[rs->given++] = rec;
  return rec->work;
}

int adapt_reply_remaining(const adapt_reply_set *rs) { return rs ? rs->count - rs->given : 0; }

int adapt__serve(adapt__worker *w) {
  if (w->serving) return 0; /* a splitter or reducer polled: not re-entrant */
  w->serving = 1;
  adapt_reply_set rs;
  rs.w = w;
  rs.count = 0;
  rs.given = 0;
  int n = adapt__rt.nworkers;
  for (int i = 0; i < n; i++) {
    adapt__req *slot = &w->req[i];
    if (atomic_load_explicit(&slot->state, memory_order_relaxed) != ADAPT__REQ_POSTED) continue;
    int expected = ADAPT__REQ_POSTED;
    /* acquire: pairs with the thief's release store of POSTED. */
    if (atomic_compare_exchange_strong_explicit(&slot->state, &expected, ADAPT__REQ_TAKEN,
                                                memory_order_acquire, memory_order_relaxed))
      rs.ids[rs.count++] = i;
  }
  if (rs.count == 0) {
    w->serving = 0;
    return 0;
  }
  /* relaxed: the counter is a hint (request.h); the slots carry the data. */
  atomic_fetch_sub_explicit(&w->nreq, (unsigned)rs.count, memory_order_relaxed);

  /* Spawned tasks first (tasks.h): while the oldest entry of our deque is a
   * task a thief takes whole, requests fail, and the thieves, which look at
   * a victim's deque before posting, take the task. This covers the
   * requests posted before the task was pushed (a thief preempted while we
   * merged its piece and spawned its follow-up work). */
  unsigned d = adapt__deque_head_whole(&w->dq) ? 0 : w->depth;
  for (unsigned k = 0; k < d && rs.given < rs.count; k++) {
    unsigned i = adapt__rt.steal_outer ? k : d - 1 - k;
    if (i < w->floor) continue; /* inside a reducer: only frames begun there */
    adapt__frame *f = w->frames[i];
    if (f->flags & (ADAPT__FRAME_ENDING | ADAPT__FRAME_HELD)) continue;
    rs.frame = f;
    int before = rs.given;
    f->task->splitter((adapt_frame *)f, f->work, rs.count - rs.given, &rs, f->task->ctx);
    if (rs.given > before) ADAPT_STAT_INC(w, splits);
  }
  for (int j = 0; j < rs.count; j++) {
    adapt__req *slot = &w->req[rs.ids[j]];
    if (j < rs.given) {
      slot->rec = rs.recs[j];
      /* release: pairs with the thief's acquire load of the slot state;
       * publishes rec, its descriptor and the frame's task. */
      atomic_store_explicit(&slot->state, ADAPT__REQ_OK, memory_order_release);
    } else {
      /* release: pairs with the thief's acquire load (no data). */
      atomic_store_explicit(&slot->state, ADAPT__REQ_FAIL, memory_order_release);
    }
  }
  ADAPT_STAT_ADD(w, requests_served, (uint64_t)rs.count);
  w->serving = 0;
  return rs.given;
}

int adapt__steal_slow(adapt_frame *frame) { return adapt__serve(adapt__frame_of(frame)->w); }

int adapt__steal_point_call(adapt_frame *frame) {
  adapt__frame *f = adapt__frame_of(frame);
  /* relaxed: hint, as in the inline steal point. */
  if (atomic_load_explicit(f->poll, memory_order_relaxed)) return adapt__serve(f->w);
  return 0;
}

int adapt__preempt_point_call(adapt_frame *frame) {
  /* relaxed: as in the inline preempt point. */
  return atomic_load_explicit(adapt__frame_of(frame)->preempt, memory_order_relaxed) != 0;
}

static void frame_init(adapt__frame *f, adapt__worker *w, const adapt_task *task, void *work,
                       adapt__theft *rec) {
  f->poll = &w->nreq;
  f->preempt = rec ? &rec->state : &never_preempted;
  f->w = w;
  f->task = task;
  f->work = work;
  f->rec = rec;
  f->thieves = NULL;
  f->level = 0;
  f->flags = ADAPT__FRAME_BEGUN;
  f->magic = ADAPT__FRAME_MAGIC;
  f->region = ADAPT__REGION_NESTED;
  f->depth = 0;
  f->thread = NULL;
}

/* adapt_begin's argument errors (the slow path): -EINVAL or -E2BIG with
 * the detail. */
static int begin_error(const adapt_frame *frame, const adapt_task *task, const void *work) {
  if (!frame) return adapt__fail(-EINVAL, "adapt_begin: frame is NULL");
  if (!task) return adapt__fail(-EINVAL, "adapt_begin: task is NULL");
  if (!work) return adapt__fail(-EINVAL, "adapt_begin: work is NULL");
  if (!task->entry) return adapt__fail(-EINVAL, "adapt_begin: task->entry is NULL");
  if (!task->splitter) return adapt__fail(-EINVAL, "adapt_begin: task->splitter is NULL");
  if (task->work_size == 0) return adapt__fail(-EINVAL, "adapt_begin: task->work_size is 0");
  return adapt__fail(-E2BIG, "adapt_begin: task->work_size %zu > ADAPT_WORK_MAX (%d)",
                     task->work_size, (int)ADAPT_WORK_MAX);
}

int adapt_begin(adapt_frame *frame, const adapt_task *task, void *work) {
  adapt__error_clear();
  if (!frame || !task || !work || !task->entry || !task->splitter || task->work_size == 0 ||
      task->work_size > ADAPT_WORK_MAX)
    return begin_error(frame, task, work);
  adapt__frame *f = adapt__frame_of(frame);
  adapt__worker *w;
  int region;
  int rc = adapt__region_enter(&w, &region);
  if (rc) return rc;
  frame_init(f, w, task, work, NULL);
  f->region = region;
  f->depth = adapt__tls_frames;
  f->thread = adapt__thread_token();
  ADAPT_STAT_INC(w, regions);
  adapt__publish(w, f);
  return 0;
}

/* Wait until rec is FINAL. help: steal and run other work meanwhile (at a
 * join); otherwise only answer requests (preemption is short). */
static void wait_final(adapt__worker *w, adapt__theft *rec, int help) {
  unsigned spins = 0;
  /* acquire: pairs with the thief's release store of FINAL in
   * adapt__run_theft: its descriptor and handover list are then visible. */
  while (atomic_load_explicit(&rec->state, memory_order_acquire) != ADAPT__THEFT_FINAL) {
    if (atomic_load_explicit(&w->nreq, memory_order_relaxed)) adapt__serve(w);
    if (help && adapt__steal_and_run(w, rec->thief)) continue;
    adapt__pause(&spins);
  }
}

/* Reduce the FINAL record at the head of f's list into f, take over its
 * handed-over thieves, recycle it. */
static void reduce_head(adapt__frame *f) {
  adapt__theft *rec = f->thieves;
  f->thieves = rec->next;
  rec->next = NULL;
  if (f->task->reducer) {
    /* Inside the reducer, a steal point answers requests only from frames
     * begun in it (a parallel loop the reducer runs, so that idle workers
     * help): the frames published before, this one and its outer ones, are
     * not split, and no splitter sees a descriptor being reduced. */
    adapt__worker *w = f->w;
    unsigned floor = w->floor;
    w->floor = w->depth;
    f->task->reducer(f->work, rec->work, f->task->ctx);
    w->floor = floor;
    ADAPT_STAT_INC(w, reductions);
  }
  if (rec->handover) adapt__theft_merge(&f->thieves, rec->handover);
  rec->handover = NULL;
  adapt__theft_put(f->w, rec);
}

static void join_thieves(adapt__frame *f) {
  while (f->thieves) {
    wait_final(f->w, f->thieves, 1);
    reduce_head(f);
  }
}

int adapt_preempt_next_thief(adapt_frame *frame) {
  adapt__frame *f = frame ? adapt__frame_of(frame) : NULL;
  if (!f || f->magic != ADAPT__FRAME_MAGIC || !(f->flags & ADAPT__FRAME_BEGUN)) return 0;
  adapt__theft *rec = f->thieves;
  if (!rec) return 0;
  int expected = ADAPT__THEFT_RUNNING;
  /* relaxed: the flag carries no data; the thief answers with its release
   * store of FINAL. Fails harmlessly if the thief is already FINAL. */
  if (atomic_compare_exchange_strong_explicit(&rec->state, &expected, ADAPT__THEFT_PREEMPT,
                                              memory_order_relaxed, memory_order_relaxed)) {
    ADAPT_STAT_INC(f->w, preemptions);
    if (adapt__trace_mask & ADAPT__TRACE_PREEMPT) {
      uint64_t t = adapt__now_ns();
      adapt__trace(f->w, ADAPT__TRACE_PREEMPT, t, t, (uint64_t)rec->thief, rec->key);
    }
  }
  /* The frame is not split while we wait: a splitter could insert a piece
   * of the owner's remaining work before rec (smaller key), and rec would
   * no longer be the next record to reduce. */
  f->flags |= ADAPT__FRAME_HELD;
  wait_final(f->w, rec, 0);
  f->flags &= ~ADAPT__FRAME_HELD;
  ADAPT_ASSERT_PTR_EQ(f->thieves, rec);
  reduce_head(f);
  return 1;
}

int adapt_end(adapt_frame *frame) {
  adapt__error_clear();
  adapt__frame *f = frame ? adapt__frame_of(frame) : NULL;
  if (!f) return adapt__fail(-EINVAL, "adapt_end: frame is NULL");
  if (f->magic != ADAPT__FRAME_MAGIC || !(f->flags & ADAPT__FRAME_BEGUN))
    return adapt__fail(-EINVAL, "adapt_end: frame was not begun (or is already ended)");
  if (f->rec) return adapt__fail(-EINVAL, "adapt_end: frame is a thief's (the runtime ends it)");
  if (f->thread != adapt__thread_token())
    return adapt__fail(-EINVAL, "adapt_end: frame was begun by another thread");
  if (f->depth != adapt__tls_frames)
    return adapt__fail(-EINVAL, "adapt_end: frames ended out of order (a frame or scope begun "
                                "after this one is still open: end it first)");
  adapt__worker *w = f->w;
  f->flags |= ADAPT__FRAME_ENDING;
  join_thieves(f);
  adapt__unpublish(w, f);
  f->flags &= ~ADAPT__FRAME_BEGUN;
  f->magic = 0;
  adapt__region_leave(f->region);
  return 0;
}

void adapt__run_theft(adapt__worker *w, adapt__theft *rec) {
  adapt__frame f;
  const adapt_task *task = rec->task;
  frame_init(&f, w, task, rec->work, rec);
  adapt__publish(w, &f);
  /* A stolen piece runs in its own call's context (its entry pushes that
   * call's cancel scope, if it has one), never in the thief's current one. */
  adapt__cancel_scope barrier = {0};
  adapt__cancel_push(&barrier);
  w->nest++;
  task->entry((adapt_frame *)&f, rec->work, task->ctx);
  w->nest--;
  adapt__cancel_pop(&barrier);
  f.flags |= ADAPT__FRAME_ENDING;
  /* relaxed: only our owner writes PREEMPT; seeing it late just means we
   * join instead of handing over, which is also correct. */
  if (atomic_load_explicit(&rec->state, memory_order_relaxed) == ADAPT__THEFT_PREEMPT) {
    rec->handover = f.thieves; /* the owner takes them over, in order */
    f.thieves = NULL;
  } else {
    join_thieves(&f);
  }
  adapt__unpublish(w, &f);
  f.magic = 0;
  /* release: pairs with the owner's acquire load in wait_final; after this
   * store the record belongs to the owner and is not touched here again. */
  atomic_store_explicit(&rec->state, ADAPT__THEFT_FINAL, memory_order_release);
}
