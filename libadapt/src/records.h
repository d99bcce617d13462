/* Theft records: the victim-side record of one piece given to a thief.
 *
 * A record is allocated by the victim in its splitter (adapt_reply), holds
 * the piece's work descriptor, which the thief works on in place, and stays
 * in the victim frame's list of thieves, sorted by key (sequence order),
 * until the frame's owner has reduced it. Then it returns to the freeing
 * worker's private pool.
 *
 * state: RUNNING --owner: CAS (relaxed)--> PREEMPT
 *        RUNNING | PREEMPT --thief: store (release)--> FINAL
 * After FINAL the thief never touches the record again; the owner reads the
 * descriptor and handover list after its acquire load of FINAL. */
#ifndef LIBADAPT_SRC_RECORDS_H
#define LIBADAPT_SRC_RECORDS_H

#include <stdatomic.h>
#include <stddef.h>
#include "config.h"
#include "debug.h"

enum adapt__theft_state {
  ADAPT__THEFT_RUNNING = 0,
  ADAPT__THEFT_PREEMPT = 1,
  ADAPT__THEFT_FINAL = 2
};

struct adapt__worker;

typedef struct adapt__theft {
  /* Owner side (the worker whose frame lists the record): list link, key,
   * task, team, thief id. Written by the victim before the reply is sent. */
  struct adapt__theft *next;
  size_t key;
  const adapt_task *task;
  struct adapt__team *team; /* the victim frame's team (worker limit), or NULL */
  int thief;

  /* Shared: the owner sets PREEMPT, the thief sets FINAL. Own line. */
  _Alignas(ADAPT_CACHE_LINE) atomic_int state;
  /* Thief: its own thieves not yet reduced when it stopped on preemption,
   * sorted by key; published by the FINAL store. */
  struct adapt__theft *handover;

  /* The piece's descriptor: written by the victim's splitter, then by the
   * thief while it runs, then read by the owner's reducer. Its bytes past
   * the task's work_size, and in debug builds (ADAPT_DEBUG) a guard line
   * after it, hold a canary (ASan builds: are poisoned instead) from
   * adapt_reply until the record is recycled: adapt__theft_overrun finds
   * a splitter or an entry that wrote past its descriptor. */
  _Alignas(ADAPT_CACHE_LINE) unsigned char work[ADAPT_WORK_MAX];
#if ADAPT_DEBUG
  unsigned char guard[ADAPT_CACHE_LINE];
#endif
} adapt__theft;

/* Bytes from work to the end of the record's guarded area. */
#define ADAPT__THEFT_AREA (sizeof(adapt__theft) - offsetof(adapt__theft, work))

/* Take a record from w's pool (allocating a block when empty); its work
 * area is not initialised (adapt__theft_arm does). NULL on ENOMEM. Owner
 * only. */
adapt__theft *adapt__theft_get(struct adapt__worker *w);
/* In a fork's child (runtime.c): the blocks' lock made anew. */
void adapt__theft_after_fork(void);
/* Zero rec's descriptor (work_size bytes) and guard the rest of its area. */
void adapt__theft_arm(adapt__theft *rec, size_t work_size);
/* The offset in rec's area of the first guarded byte that was written
 * since adapt__theft_arm, or 0 if none (ASan builds: always 0, ASan reports
 * the write itself). */
size_t adapt__theft_overrun(const adapt__theft *rec, size_t work_size);
/* Return a record to w's pool (its guard removed). Owner only. */
void adapt__theft_put(struct adapt__worker *w, adapt__theft *rec);
/* Insert rec into the list at *head sorted by key (stable for equal keys). */
void adapt__theft_insert(adapt__theft **head, adapt__theft *rec);
/* Merge the sorted list `add` into the sorted list at *head. */
void adapt__theft_merge(adapt__theft **head, adapt__theft *add);
/* Free every block ever allocated (finalize, no worker running). */
void adapt__theft_free_all(void);

#endif /* LIBADAPT_SRC_RECORDS_H */
