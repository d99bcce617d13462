/* Frames (frame.h): the victim's side of the protocol (answering requests
 * with the splitters of its published frames), the execution of a stolen
 * piece, and the join, preemption wait and reduction of a frame's thieves. */
#include "frame.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "idle.h"
#include "thief.h"
#include "worker.h"

/* Constant "not preempted" flag for frames that do not run a stolen piece. */
static const atomic_int never_preempted = 0;

/* A task's callback that wrote past the descriptor of rec (who: "splitter"
 * writing a piece, "entry" running one): name it on stderr, by its symbol
 * if it has one in the dynamic symbol table, else by its object file and
 * offset (addr2line -f -e FILE OFFSET), and abort: the next record may be
 * overwritten. */
static void check_overrun(const adapt__theft *rec, const char *who) {
  const adapt_task *t = rec->task;
  size_t at = adapt__theft_overrun(rec, t->work_size);
  if (ADAPT_LIKELY(at == 0)) return;
  void *fn;
  if (who[0] == 's')
    memcpy(&fn, &t->splitter, sizeof fn);
  else
    memcpy(&fn, &t->entry, sizeof fn);
  Dl_info di = {0};
  int found = dladdr(fn, &di) != 0;
  fprintf(stderr,
          "libadapt: the %s of a task (work_size %zu) wrote past a piece's descriptor "
          "(byte %zu of the reply buffer changed): %s %p = %s+0x%zx%s%s\n",
          who, t->work_size, at, who, fn, found && di.dli_fname ? di.dli_fname : "?",
          found ? (size_t)((char *)fn - (char *)di.dli_fbase) : (size_t)0,
          found && di.dli_sname && di.dli_saddr == fn ? " " : "",
          found && di.dli_sname && di.dli_saddr == fn ? di.dli_sname : "");
  abort();
}

/* Worker limit: move the requests of rs that may join team t (members
 * first, then newcomers while the team has room) to the front of the
 * unanswered ones, keeping the others after them; returns their number.
 * adapt_reply admits each thief as it gets its piece. */
static int team_first(adapt_reply_set *rs, adapt__team *t) {
  int n = 0;
  unsigned newcomers = 0;
  for (int j = rs->given; j < rs->count; j++) {
    int id = rs->ids[j];
    int member = adapt__team_member(t, id);
    if (!member && !adapt__team_room(t, id, newcomers)) continue;
    newcomers += !member;
    int k = rs->given + n++;
    rs->ids[j] = rs->ids[k];
    rs->ids[k] = id;
  }
  return n;
}

/* Worker limit: 1 if every frame w has published refuses thief `id` (a
 * full team it is not in), so that the thief may sleep until w publishes
 * again (idle.c). 0 when a frame has no limit or room for it, when w has
 * none, or when a spawned task at the head of w's deque made the request
 * fail (the thief takes it next). */
static int refuses_all(const adapt__worker *w, int id) {
  if (w->depth == 0 || adapt__deque_head_whole((adapt__deque *)&w->dq)) return 0;
  for (unsigned i = 0; i < w->depth; i++) {
    const adapt__team *t = w->frames[i]->team;
    if (!t || adapt__team_member(t, id) || adapt__team_room(t, id, 0)) return 0;
  }
  return 1;
}

/* The refusal in a FAIL answer to thief `id` (request.h `refused`): a
 * worker limit, or nothing to split (noted in w->refused_out, so that a
 * range that grows back bumps has_work: adapt__regrown), or none. */
static void refuse(adapt__worker *w, adapt__req *slot, int id) {
  slot->refused = 0;
  slot->team = 0;
  if (w->depth == 0 || adapt__deque_head_whole(&w->dq)) return;
  slot->refused = adapt__hw_value(w);
  slot->team = refuses_all(w, id);
  if (!slot->team) w->refused_out = 1;
}

int adapt__serve(adapt__worker *w) {
  if (w->serving) return 0; /* a splitter or reducer polled: not re-entrant */
  w->serving = 1;
  adapt_reply_set rs;
  rs.w = w;
  rs.count = 0;
  rs.given = 0;
  rs.limit = 0;
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
    rs.limit = f->team ? rs.given + team_first(&rs, f->team) : rs.count;
    if (rs.limit == rs.given) continue; /* none of the thieves may join its call */
    int before = rs.given;
    f->task->splitter((adapt_frame *)f, f->work, rs.limit - rs.given, &rs, f->task->ctx);
    for (int j = before; j < rs.given; j++) check_overrun(rs.recs[j], "splitter");
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
      refuse(w, slot, rs.ids[j]);
      /* release: pairs with the thief's acquire load; publishes refused. */
      atomic_store_explicit(&slot->state, ADAPT__REQ_FAIL, memory_order_release);
    }
  }
  ADAPT_STAT_ADD(w, requests_served, (uint64_t)rs.count);
  w->serving = 0;
  return rs.given;
}

void adapt__frame_init(adapt__frame *f, adapt__worker *w, const adapt_task *task, void *work,
                       adapt__theft *rec) {
  f->poll = &w->nreq;
  f->preempt = rec ? &rec->state : &never_preempted;
  f->w = w;
  f->task = task;
  f->work = work;
  f->rec = rec;
  f->thieves = NULL;
  f->team = rec ? rec->team : adapt__team_cur;
  f->level = 0;
  f->flags = ADAPT__FRAME_BEGUN;
  f->magic = ADAPT__FRAME_MAGIC;
  f->region = ADAPT__REGION_NESTED;
  f->depth = 0;
  f->thread = NULL;
}

void adapt__wait_final(adapt__worker *w, adapt__theft *rec, int help) {
  unsigned spins = 0;
  /* acquire: pairs with the thief's release store of FINAL in
   * adapt__run_theft: its descriptor and handover list are then visible. */
  while (atomic_load_explicit(&rec->state, memory_order_acquire) != ADAPT__THEFT_FINAL) {
    if (atomic_load_explicit(&w->nreq, memory_order_relaxed)) adapt__serve(w);
    if (help && adapt__steal_and_run(w, rec->thief) > 0) continue;
    adapt__pause(&spins);
  }
}

void adapt__reduce_head(adapt__frame *f) {
  adapt__theft *rec = f->thieves;
  f->thieves = rec->next;
  rec->next = NULL;
  check_overrun(rec, "entry");
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
    /* The frames below the floor are split again: the requests they did
     * not see meanwhile may be answered now. */
    adapt__regrown(w);
  }
  if (rec->handover) adapt__theft_merge(&f->thieves, rec->handover);
  rec->handover = NULL;
  adapt__theft_put(f->w, rec);
}

void adapt__join_thieves(adapt__frame *f) {
  while (f->thieves) {
    adapt__wait_final(f->w, f->thieves, 1);
    adapt__reduce_head(f);
  }
}

void adapt__run_theft(adapt__worker *w, adapt__theft *rec) {
  adapt__frame f;
  const adapt_task *task = rec->task;
  adapt__frame_init(&f, w, task, rec->work, rec);
  f.thread = adapt__thread_token(); /* its owner (adapt_preempt_next_thief's check) */
  adapt__publish(w, &f);
  /* A stolen piece runs in its own call's context (its entry pushes that
   * call's cancel scope, if it has one), never in the thief's current one. */
  adapt__cancel_scope *outer = adapt__cancel_shield();
  /* And in its call's team: calls nested in the entry inherit its limit. */
  adapt__team *team = adapt__team_cur;
  adapt__team_cur = rec->team;
  if (w->nest < ADAPT_MAX_NEST) w->running[w->nest] = (uintptr_t)rec;
  w->nest++;
  task->entry((adapt_frame *)&f, rec->work, task->ctx);
  w->nest--;
  adapt__team_cur = team;
  adapt__cancel_unshield(outer);
  f.flags |= ADAPT__FRAME_ENDING;
  /* relaxed: only our owner writes PREEMPT; seeing it late just means we
   * join instead of handing over, which is also correct. */
  if (atomic_load_explicit(&rec->state, memory_order_relaxed) == ADAPT__THEFT_PREEMPT) {
    rec->handover = f.thieves; /* the owner takes them over, in order */
    f.thieves = NULL;
  } else {
    adapt__join_thieves(&f);
  }
  adapt__unpublish(w, &f);
  f.magic = 0;
  /* release: pairs with the owner's acquire load in wait_final; after this
   * store the record belongs to the owner and is not touched here again. */
  atomic_store_explicit(&rec->state, ADAPT__THEFT_FINAL, memory_order_release);
}
