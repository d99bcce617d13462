/* The adaptive API (<adapt/adaptive.h>): begin/end, replies, steal and
 * preemption points, preempting the next thief. The protocol under them is
 * in frame.c. */
#include <errno.h>

#include "debug.h"
#include "error.h"
#include "frame.h"
#include "idle.h"
#include "region.h"
#include "worker.h"

void *adapt_reply(adapt_reply_set *rs, size_t key) {
  if (!rs || rs->given >= rs->limit) return NULL;
  adapt__frame *f = rs->frame;
  /* Worker limit: admit the thief now. Another victim of the same call may
   * have filled the team since adapt__serve looked: this frame then gives
   * no more pieces in this call (the splitter sees NULL, as on ENOMEM). */
  if (f->team && !adapt__team_join(f->team, rs->ids[rs->given])) {
    rs->limit = rs->given;
    return NULL;
  }
  adapt__theft *rec = adapt__theft_get(rs->w);
  if (!rec) return NULL; /* ENOMEM: the request fails, nothing is lost */
  adapt__theft_arm(rec, f->task->work_size);
  rec->key = key;
  rec->task = f->task;
  rec->team = f->team;
  rec->thief = rs->ids[rs->given];
  rec->handover = NULL;
  /* relaxed: published to the thief by the release store of OK. */
  atomic_store_explicit(&rec->state, ADAPT__THEFT_RUNNING, memory_order_relaxed);
  adapt__theft_insert(&f->thieves, rec);
  rs->recs[rs->given++] = rec;
  return rec->work;
}

int adapt_reply_remaining(const adapt_reply_set *rs) { return rs ? rs->limit - rs->given : 0; }

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
  int rc = adapt__region_enter(&w, &region, "adapt_begin");
  if (rc) return rc;
  adapt__frame_init(f, w, task, work, NULL);
  /* Worker limit: the owner is the first member of its call's team. */
  if (f->team && !w->solo) adapt__team_join(f->team, w->id);
  f->region = region;
  f->depth = adapt__tls_frames;
  f->thread = adapt__thread_token();
  ADAPT_STAT_INC(w, regions);
  adapt__publish(w, f);
  return 0;
}

int adapt_preempt_next_thief(adapt_frame *frame) {
  adapt__frame *f = frame ? adapt__frame_of(frame) : NULL;
  if (!f || f->magic != ADAPT__FRAME_MAGIC) return 0; /* not begun, or ended: no thief */
  /* The owner's token before the flags: another thread reads no field that
   * the owner writes after adapt_begin (magic and thread are written there). */
  if (f->thread != adapt__thread_token()) {
    adapt__error_clear();
    return adapt__fail(-EINVAL, "adapt_preempt_next_thief: the frame's owner is another thread");
  }
  if (!(f->flags & ADAPT__FRAME_BEGUN)) return 0;
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
  adapt__wait_final(f->w, rec, 0);
  f->flags &= ~ADAPT__FRAME_HELD;
  ADAPT_ASSERT_PTR_EQ(f->thieves, rec);
  adapt__reduce_head(f);
  /* The frame is split again and the thief's rest is ours: requests it
   * refused meanwhile may be answered now. */
  adapt__regrown(f->w);
  return 1;
}

void adapt_work_grew(adapt_frame *frame) {
  adapt__frame *f = frame ? adapt__frame_of(frame) : NULL;
  if (!f || f->magic != ADAPT__FRAME_MAGIC || !(f->flags & ADAPT__FRAME_BEGUN)) return;
  if (f->thread != adapt__thread_token()) return; /* not the owner: its worker is not ours */
  adapt__regrown(f->w);
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
  adapt__join_thieves(f);
  adapt__unpublish(w, f);
  f->flags &= ~ADAPT__FRAME_BEGUN;
  f->magic = 0;
  adapt__region_leave(f->region);
  return 0;
}
