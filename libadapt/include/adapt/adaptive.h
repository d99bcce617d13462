/* libadapt low-level adaptive API (the paper's Fig. 1).
 *
 * An adaptive task is sequential code that works on a *work descriptor* (a
 * small struct of yours, e.g. a range [begin,end) and an output cursor) and
 * that lets other workers take part of the remaining work:
 *
 *   static void dowork(adapt_frame *f, void *w, void *ctx) {
 *     my_work *work = w;
 *     for (;;) {
 *       while (work->begin < work->end) {
 *         adapt_steal_point(f);              // may call my splitter
 *         size_t b = work->begin, e = min(b + GRAIN, work->end);
 *         work->begin = e;                   // claim before running
 *         run(b, e, work);
 *         if (adapt_preempt_point(f)) return;   // a thief stops here
 *       }
 *       if (!adapt_preempt_next_thief(f)) return;  // reducer gave work back?
 *     }
 *   }
 *   adapt_frame f;
 *   adapt_begin(&f, &task, &work);  dowork(&f, &work, ctx);  adapt_end(&f);
 *
 * Protocol (docs/design.md has the details):
 * - Idle workers post steal requests to a victim. The victim answers all of
 *   its pending requests at once, at its next steal point, by calling the
 *   task's splitter with the number of requests; the splitter gives pieces
 *   with adapt_reply(); requests left without a piece fail.
 * - A thief runs task->entry on its piece, in a frame of its own that the
 *   runtime begins and ends. Thieves are themselves splittable.
 * - The owner of a frame can preempt its thieves in sequence order
 *   (adapt_preempt_next_thief) or wait for them (adapt_end); each thief's
 *   final descriptor is handed to task->reducer(victim_work, thief_work)
 *   in sequence order: the order of the keys given to adapt_reply.
 *
 * Rules for the splitter, the reducer and the code between steal points:
 * - A splitter writes at most task->work_size bytes into each buffer that
 *   adapt_reply gives, and an entry at most that many into its descriptor:
 *   the bytes after it are guarded (a canary checked after each splitter
 *   call and before each reduction; ASan builds poison them, and debug
 *   builds guard one more cache line): a write past them names the
 *   callback on stderr and aborts the process.
 * - A steal point reached inside a splitter does nothing (the worker does
 *   not answer requests until it returns). Inside a reducer, a steal point
 *   answers requests only from frames begun inside that reducer (a parallel
 *   loop it runs, so that idle workers help a long merge), never from the
 *   frame being reduced or its outer frames. So no callback sees a
 *   descriptor that another callback is changing.
 * - The splitter runs on the frame owner's thread, at a steal point of that
 *   worker: the one in your loop, or one in a loop nested inside your body
 *   (requests are answered from the outermost frame first by default). So
 *   keep the descriptor consistent whenever you call code that may contain a
 *   steal point: claim the range you run before running it.
 * - Give thieves pieces that come after what the owner keeps, and keys
 *   increasing with sequence position (e.g. the begin index): then
 *   reductions happen in sequence order.
 */
#ifndef LIBADAPT_INCLUDE_ADAPT_ADAPTIVE_H
#define LIBADAPT_INCLUDE_ADAPT_ADAPTIVE_H

#include <stddef.h>
#include <adapt/adapt.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest work descriptor a task may declare, in bytes. */
#define ADAPT_WORK_MAX 256

/* A frame: the runtime's record of one running adaptive task on one worker.
 * Allocate it yourself (on the stack); its content is private. The first two
 * fields are read by the inline steal and preempt points. */
typedef struct adapt_frame {
  const void *adapt_priv_poll;    /* private: worker's pending-request count */
  const void *adapt_priv_preempt; /* private: preemption flag of this frame */
  void *adapt_priv[14];           /* private */
} adapt_frame;

/* The set of requests a splitter answers; valid only during the call. */
typedef struct adapt_reply_set adapt_reply_set;

typedef struct adapt_task {
  /* Runs a stolen piece, on the thief, with a frame the runtime has begun
   * (do not call adapt_begin/adapt_end on it). `work` points to the piece's
   * descriptor as the splitter wrote it. Required. */
  void (*entry)(adapt_frame *frame, void *work, void *ctx);
  /* Divides the remaining work among the `count` requests and the owner
   * (inside a call with a worker limit, only the requests of thieves that
   * may join it are counted):
   * for each piece given away, w = adapt_reply(replies, key) and fill *w,
   * then shrink the owner's descriptor `work`. Give nothing if too little is
   * left. Runs on the owner. Required. */
  void (*splitter)(adapt_frame *frame, void *work, int count, adapt_reply_set *replies, void *ctx);
  /* Merges a finished or preempted thief's descriptor into the owner's, in
   * sequence order; after preemption thief_work holds the thief's partial
   * result and its unprocessed range, which the reducer may take over.
   * Runs on the owner. NULL: nothing to merge. */
  void (*reducer)(void *victim_work, void *thief_work, void *ctx);
  size_t work_size; /* bytes of a descriptor, 1..ADAPT_WORK_MAX */
  void *ctx;        /* passed to the three callbacks, shared by all workers */
} adapt_task;

/* Start an adaptive task: publish `work` (descriptor of task->work_size
 * bytes, owned by the caller) as splittable by the calling worker.
 * Initialises the runtime lazily. On a thread that is not a worker, the call
 * is a top-level region: it takes worker 0's place, and the other workers
 * help, when no other thread's region holds it; otherwise it never waits
 * but runs alone on the calling thread (nested loops, tasks and frames
 * included; adapt_worker_id() is -1 there), so that a thread started and
 * joined by a body, or any other thread, completes its loops while the
 * workers are busy. adapt_finalize waits for both kinds. `task` and `work`
 * must stay valid until adapt_end returns.
 * Nesting: allowed inside a body to any depth (beyond an internal limit the
 * frame is not published and runs sequentially).
 * Errors: -EINVAL NULL frame/task/work/entry/splitter or work_size 0,
 * -E2BIG work_size > ADAPT_WORK_MAX, -ENOMEM (a region run alone: its
 * worker), -ESHUTDOWN (a top-level frame refused by a finalize under way,
 * see adapt_finalize), or adapt_init's errors. On error nothing is
 * published and adapt_end must not be called.
 * A thread that exits (returns from its start routine, or pthread_exit,
 * also in a body) before ending the frames and scopes it began: at its exit
 * libadapt says so on stderr, naming the call that opened its region
 * (adapt_begin, adapt_scope_begin or adapt_for), closes the region and gives
 * its place back (later regions get the workers, adapt_finalize does not
 * wait for it). The work other workers had taken from it still runs; its
 * results are lost. Work of other workers that the thread was running
 * (while it waited at a join) is published as done: a stolen piece with its
 * descriptor as the entry left it (reduced as after a preemption), a stolen
 * spawned task as complete. Not guaranteed: anything about memory of the exited
 * thread's stack that such work (or a spawned task) still uses. */
ADAPT_API int adapt_begin(adapt_frame *frame, const adapt_task *task, void *work);

/* Join: wait for every thief of the frame (and theirs) to finish, reduce
 * each into the owner's descriptor in sequence order, and unpublish the
 * frame. While waiting, the worker steals and runs other work.
 * Frames and scopes end in the reverse order of their beginnings, on the
 * thread that began them.
 * Returns 0, or -EINVAL (nothing is done) for a frame that was not begun,
 * a thief's frame, a frame begun by another thread, or a frame ended out of
 * order (a frame or scope begun after it is still open). */
ADAPT_API int adapt_end(adapt_frame *frame);

/* Preempt the first thief (in sequence order) of the frame: ask it to stop
 * at its next preempt point, wait for it, reduce its descriptor into the
 * owner's and take over its own thieves. Returns 1 when a thief was reduced
 * (the owner's descriptor may hold new work: look again), 0 when the frame
 * has no thief left. While it waits, the frame's splitter is not called
 * (other frames' are), so the thief reduced is always the one waited for,
 * in sequence order. Call from the frame's owner, normally when its own
 * range is done; called earlier, the owner keeps its remaining work.
 * 0 too for a NULL frame, or one not begun or already ended. Errors:
 * -EINVAL (nothing is done; adapt_last_error() says so) for a call from
 * another thread than the one running the frame (so loop with `> 0`, not
 * `!= 0`). */
ADAPT_API int adapt_preempt_next_thief(adapt_frame *frame);

/* Tell idle workers that the frame's splitter may now give work it
 * answered "nothing to split" before: the owner's range grew back without
 * a new adapt_begin (a window it opened or slid; a range it took back
 * otherwise than through adapt_preempt_next_thief, which tells them
 * itself). Thieves that were refused a few times in a row stop asking and
 * may sleep until this call, a publication or new work; a splitter whose
 * answer changes from nothing to something without it costs parallelism
 * until then, never progress (the owner runs its range to the end).
 * Call from the frame's owner, outside its splitter; cheap when nobody was
 * refused since the last call (one load and a branch). A NULL frame, or
 * one not begun or already ended: nothing. Not guaranteed: which idle
 * worker, if any, asks next. */
ADAPT_API void adapt_work_grew(adapt_frame *frame);

/* In a splitter: the descriptor buffer (task->work_size bytes, zeroed) of
 * the next request to answer positively, or NULL when every request has a
 * piece, or when no more piece can be given now (out of memory; the
 * worker limit of the call the frame belongs to, adapt_attr.max_workers:
 * the thief may not join it). After NULL, give no more pieces in this
 * call and keep what was not given. `key` orders the pieces for reduction (use the piece's begin
 * index). Pieces given are sent when the splitter returns. */
ADAPT_API void *adapt_reply(adapt_reply_set *replies, size_t key);

/* Number of requests still without a piece in this splitter call. */
ADAPT_API int adapt_reply_remaining(const adapt_reply_set *replies);

/* Slow paths of the inline points below. */
ADAPT_API int adapt__steal_slow(adapt_frame *frame);
ADAPT_API int adapt__steal_point_call(adapt_frame *frame);
ADAPT_API int adapt__preempt_point_call(adapt_frame *frame);

#if !defined(__cplusplus)
#include <stdatomic.h>
/* Steal point: answer the pending steal requests of this worker, if any, by
 * calling the splitters of its frames. When nobody asks it costs one load
 * and a not-taken branch. Returns the number of pieces given away. */
static inline int adapt_steal_point(adapt_frame *frame) {
  const atomic_uint *poll = (const atomic_uint *)frame->adapt_priv_poll;
  /* relaxed: only a hint; the request itself is acquired in the slow path
   * (pairs with the thief's release store of the slot state). */
  if (__builtin_expect(atomic_load_explicit(poll, memory_order_relaxed) != 0, 0))
    return adapt__steal_slow(frame);
  return 0;
}

/* Preempt point: 1 if the owner of the piece this frame runs asked it to
 * stop: the entry must return at once, leaving its descriptor as the
 * partial result plus the unprocessed range. 0 otherwise (always 0 on a
 * frame that is not a stolen piece). One load and a branch. */
static inline int adapt_preempt_point(adapt_frame *frame) {
  /* relaxed: no data travels with the flag; the thief's results are
   * published by its release store of FINAL (pairs with the owner's
   * acquire load in adapt_preempt_next_thief). */
  return atomic_load_explicit((const atomic_int *)frame->adapt_priv_preempt,
                              memory_order_relaxed) != 0;
}
#else
static inline int adapt_steal_point(adapt_frame *frame) { return adapt__steal_point_call(frame); }
static inline int adapt_preempt_point(adapt_frame *frame) {
  return adapt__preempt_point_call(frame);
}
#endif

#ifdef __cplusplus
}
#endif

#endif /* LIBADAPT_INCLUDE_ADAPT_ADAPTIVE_H */
