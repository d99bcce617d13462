/* Frames: one running adaptive task on one worker (private layout of the
 * public adapt_frame), and the protocol that serves, runs and joins them
 * (frame.c; the public calls are in adaptive.c). A frame lives on its
 * owner's C stack; only its owner reads or writes it (thieves never touch a
 * victim's frame: they get a copy of a piece in a theft record). */
#ifndef LIBADAPT_SRC_FRAME_H
#define LIBADAPT_SRC_FRAME_H

#include <stdatomic.h>
#include <stdint.h>
#include "records.h"

struct adapt__worker;

enum {
  ADAPT__FRAME_BEGUN = 1u << 0,     /* between begin and end */
  ADAPT__FRAME_PUBLISHED = 1u << 1, /* on the worker's frame stack */
  ADAPT__FRAME_ENDING = 1u << 2,    /* in adapt_end: not split any more */
  ADAPT__FRAME_HELD = 1u << 3       /* adapt_preempt_next_thief waits: not split */
};

#define ADAPT__FRAME_MAGIC 0x61647046u /* "adpF" */

typedef struct adapt__frame {
  const atomic_uint *poll;   /* &worker->nreq (read by the inline steal point) */
  const atomic_int *preempt; /* &rec->state, or a constant 0 */
  struct adapt__worker *w;
  const adapt_task *task;
  void *work;
  adapt__theft *rec;     /* the stolen piece this frame runs, or NULL */
  adapt__theft *thieves; /* pieces given away, sorted by key */
  /* The team of the call (worker limit), or NULL: only its members get
   * pieces. adapt_begin: the thread's current team; a stolen piece: its
   * victim's. */
  struct adapt__team *team;
  unsigned level; /* index in w->frames when published */
  unsigned flags;
  uint32_t magic;
  /* adapt_begin's frames: the kind of region entered (adapt__region_enter),
   * the beginning thread and its frame count then (adapt_end's checks). */
  int region;
  unsigned depth;
  const void *thread;
} adapt__frame;

_Static_assert(sizeof(adapt__frame) <= sizeof(adapt_frame), "adapt_frame too small");
_Static_assert(offsetof(adapt__frame, poll) == offsetof(adapt_frame, adapt_priv_poll),
               "inline steal point reads poll first");
_Static_assert(offsetof(adapt__frame, preempt) == offsetof(adapt_frame, adapt_priv_preempt),
               "inline preempt point reads preempt second");

static inline adapt__frame *adapt__frame_of(adapt_frame *f) { return (adapt__frame *)(void *)f; }

/* The requests adapt__serve collected, answered through the splitters'
 * calls of adapt_reply (adaptive.c). */
struct adapt_reply_set {
  struct adapt__worker *w;
  adapt__frame *frame;
  int count;                  /* requests collected */
  int given;                  /* requests answered with a piece so far */
  int limit;                  /* the current frame's splitter answers ids[given..limit) */
  int ids[ADAPT_MAX_WORKERS]; /* thief ids, in collection order (reordered
                                 for a frame with a team: its admissible
                                 thieves first) */
  adapt__theft *recs[ADAPT_MAX_WORKERS];
};

/* Answer every pending request of w from its published frames (outermost or
 * innermost first); requests left fail. Returns pieces given. Owner only. */
int adapt__serve(struct adapt__worker *w);

/* Set up f on w for task and work; rec: the stolen piece it runs, or NULL. */
void adapt__frame_init(adapt__frame *f, struct adapt__worker *w, const adapt_task *task, void *work,
                       adapt__theft *rec);

/* Wait until rec is FINAL. help: steal and run other work meanwhile (at a
 * join); otherwise only answer requests (preemption is short). */
void adapt__wait_final(struct adapt__worker *w, adapt__theft *rec, int help);
/* Reduce the FINAL record at the head of f's list into f, take over its
 * handed-over thieves, recycle it. */
void adapt__reduce_head(adapt__frame *f);
/* Wait for and reduce every thief of f, in order. */
void adapt__join_thieves(adapt__frame *f);

/* Run a piece received from a victim: begin a frame on it, call its entry,
 * then join or hand over its thieves and publish FINAL. */
void adapt__run_theft(struct adapt__worker *w, adapt__theft *rec);

#endif /* LIBADAPT_SRC_FRAME_H */
