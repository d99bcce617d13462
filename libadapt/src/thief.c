/* Thieves: victim selection, posting a request, waiting for the reply (with
 * a timeout), running the piece received. */
#include "thief.h"

#include <errno.h>
#include <time.h>

#include "debug.h"
#include "frame.h"
#include "idle.h"
#include "scope.h"
#include "worker.h"

static inline uint64_t rng_next(adapt__worker *w) {
  /* xorshift64*: owner-only state */
  uint64_t x = w->rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  w->rng = x;
  return x * 0x2545F4914F6CDD1Dull;
}

/* Does v look busy to w: published frames or deque entries, other than
 * those that refused w in its idle round (worker limit, idle.c)? */
static inline int has_work(const adapt__worker *w, int v) {
  adapt__worker *x = adapt__rt.workers[v];
  /* relaxed: hints only; the request and deque protocols decide. */
  int hw = atomic_load_explicit(&x->has_work, memory_order_relaxed);
  if (ADAPT__HW_DEPTH(hw) > 0 && !adapt__refused_hw(w, v, hw)) return 1;
  size_t h = atomic_load_explicit(&x->dq.head, memory_order_relaxed);
  return atomic_load_explicit(&x->dq.tail, memory_order_relaxed) > h &&
         !adapt__refused_head(w, v, h);
}

/* Note the refusal in a FAIL answer of victim v (request.h): a worker
 * limit counts at once; "nothing to split" once ADAPT_REFUSED_SLEEP
 * answers in a row carried the same has_work value (a range the victim's
 * owner is about to give back refuses once or twice, not for long), and
 * then only until w's next timed sleep ends (adapt__idle_recheck). */
static void note_refusal(adapt__worker *w, int v, int hw, int team) {
  adapt__refusal *r = &w->refused[v];
  if (!team) {
    if (r->soft_round == w->round && r->soft_hw == hw) {
      r->soft_n++;
    } else {
      r->soft_hw = hw;
      r->soft_round = w->round;
      r->soft_n = 1;
    }
    if (r->soft_n < ADAPT_REFUSED_SLEEP) return;
  }
  r->hw = hw;
  r->hw_round = w->round;
  r->hw_soft = !team;
}

/* A victim with published frames, never w itself; -1 if none looks busy.
 * Cache policy: first a few draws among the workers that share w's closest
 * shared cache, then among all. */
static int pick_victim(adapt__worker *w, int prefer) {
  int n = adapt__rt.nworkers;
  if (n < 2) return -1;
  if (prefer >= 0 && prefer != w->id && has_work(w, prefer)) return prefer;
  if (adapt__rt.victim_cache && w->nnear > 0) {
    for (int k = 0; k < 2 * w->nnear; k++) {
      int v = w->near[rng_next(w) % (uint64_t)w->nnear];
      if (has_work(w, v)) return v;
    }
  }
  for (int k = 0; k < 2 * n; k++) {
    int v = (int)(rng_next(w) % (uint64_t)(n - 1));
    if (v >= w->id) v++;
    if (has_work(w, v)) return v;
  }
  return -1;
}

/* How long w waits for an answer before it cancels, ns: the steal
 * timeout, and once the idle loop backs off (w->fails) twice as long per
 * further failure up to ADAPT_BACKOFF_MAX_US, so that a victim polling
 * rarely (long chunks, descheduled) still finds the request posted. */
static uint64_t patience_ns(const adapt__worker *w) {
  uint64_t us = adapt__rt.steal_timeout_us;
  if (w->fails > ADAPT_BACKOFF_FAILS) {
    unsigned k = w->fails - ADAPT_BACKOFF_FAILS;
    uint64_t longer = k < 16u ? us << k : (uint64_t)ADAPT_BACKOFF_MAX_US;
    if (longer > ADAPT_BACKOFF_MAX_US) longer = ADAPT_BACKOFF_MAX_US;
    if (longer > us) us = longer;
  }
  return us * 1000u;
}

/* Post a request to v and wait for the answer. Returns the record of the
 * piece received, or NULL (failed, or cancelled after the timeout: then
 * *timed_out is 1); a refusal is noted in w->refused. Past the steal
 * timeout, a thief that backs off waits in naps of ADAPT_BACKOFF_MIN_US
 * instead of spinning. */
static adapt__theft *request_from(adapt__worker *w, adapt__worker *v, int *timed_out) {
  adapt__req *slot = &v->req[w->id];
  ADAPT_ASSERT_EQ(atomic_load_explicit(&slot->state, memory_order_relaxed), ADAPT__REQ_IDLE);
  /* relaxed: nreq is a hint read by the victim's poll; incremented before
   * the post so that it never underflows (see request.h). */
  atomic_fetch_add_explicit(&v->nreq, 1, memory_order_relaxed);
  uint64_t t0 = adapt__now_ns();
  /* release: pairs with the victim's acquire CAS POSTED->TAKEN in
   * adapt__serve (orders the increment above and our prior writes). */
  atomic_store_explicit(&slot->state, ADAPT__REQ_POSTED, memory_order_release);
  ADAPT_STAT_INC(w, requests_posted);
  uint64_t deadline = t0 + patience_ns(w);
  uint64_t drowsy = t0 + (uint64_t)adapt__rt.steal_timeout_us * 1000u;
  unsigned spins = 0, checks = 0;
  *timed_out = 0;
  for (;;) {
    /* acquire: pairs with the victim's release store of OK/FAIL, which
     * publishes slot->rec and the piece's descriptor. */
    int st = atomic_load_explicit(&slot->state, memory_order_acquire);
    if (st == ADAPT__REQ_OK) {
      adapt__theft *rec = slot->rec;
      slot->rec = NULL;
      atomic_store_explicit(&slot->state, ADAPT__REQ_IDLE, memory_order_relaxed);
      adapt__stats_rtt(w, adapt__now_ns() - t0);
      return rec;
    }
    if (st == ADAPT__REQ_FAIL) {
      if (slot->refused) note_refusal(w, v->id, slot->refused, slot->team);
      atomic_store_explicit(&slot->state, ADAPT__REQ_IDLE, memory_order_relaxed);
      return NULL;
    }
    /* A waiting thief answers its own requesters at once (fail or split its
     * frames if it is waiting at a join): no chains of waiting thieves. */
    if (atomic_load_explicit(&w->nreq, memory_order_relaxed)) adapt__serve(w);
    /* Cancel after the timeout, or at once when the runtime shuts down (a
     * victim that stopped polling, e.g. worker 0 between regions, would
     * otherwise delay adapt_finalize by the whole timeout). acquire: pairs
     * with the release store of shutdown in finalize. */
    uint64_t now = 0;
    if ((++checks & 15u) == 0 && st == ADAPT__REQ_POSTED &&
        ((now = adapt__now_ns()) >= deadline ||
         atomic_load_explicit(&adapt__rt.shutdown, memory_order_acquire))) {
      int expected = ADAPT__REQ_POSTED;
      /* relaxed: a cancelled request carries no data either way. */
      if (atomic_compare_exchange_strong_explicit(&slot->state, &expected, ADAPT__REQ_IDLE,
                                                  memory_order_relaxed, memory_order_relaxed)) {
        atomic_fetch_sub_explicit(&v->nreq, 1, memory_order_relaxed);
        ADAPT_STAT_INC(w, requests_timeout);
        *timed_out = 1;
        return NULL;
      }
      /* The victim took it: it is answering now, wait for the reply. */
    }
    if (now >= drowsy && st == ADAPT__REQ_POSTED) {
      checks |= 15u; /* look at the clock after each nap */
      struct timespec ts = {0, (long)ADAPT_BACKOFF_MIN_US * 1000L};
      nanosleep(&ts, NULL);
    } else {
      adapt__pause(&spins);
    }
  }
}

static void end_idle(adapt__worker *w, uint64_t now) {
  if (w->looking) { /* a pool worker leaves its idle loop to run the work */
    w->looking = 0;
    /* relaxed: adapt__rt.idle is a hint (adapt_idle_workers). */
    atomic_fetch_sub_explicit(&adapt__rt.idle, 1, memory_order_relaxed);
  }
  if (w->idle_since) {
    ADAPT_STAT_ADD(w, idle_ns, now - w->idle_since);
    w->idle_since = 0;
  }
  ADAPT_STAT_INC(w, steals);
}

/* Order on a victim: its spawned tasks first (taken by the thief alone,
 * THE protocol), then a request for its adaptive work (answered by the
 * victim's splitters, outermost frame first). */
int adapt__steal_and_run(adapt__worker *w, int prefer) {
  /* no room on this stack to run more; a solo worker has no request slots */
  if (w->depth >= ADAPT_MAX_DEPTH - 1 || w->nest >= ADAPT_MAX_NEST || w->solo) return 0;
  int v = pick_victim(w, prefer);
  if (v < 0) return 0;
  adapt__worker *victim = adapt__rt.workers[v];
  adapt__spawned task;
  int restored = 0, got = 0;
  size_t refused = 0;
  /* relaxed: a hint, as in has_work. A head entry that refused w this
   * round (worker limit) is not asked again: the steal would only announce
   * itself to the owner's pops (head + 1) and take the deque's lock, once
   * per visit while the victim's frames keep w coming. */
  size_t h = atomic_load_explicit(&victim->dq.head, memory_order_relaxed);
  if (!adapt__refused_head(w, v, h))
    got = adapt__deque_steal(&victim->dq, w->id, &task, &restored, &refused);
  if (refused) { /* refused for a worker limit: note the head (idle.c) */
    w->refused[v].head = refused - 1u;
    w->refused[v].head_round = w->round;
  }
  /* seq_cst: after the seq_cst restore of head, the waker half of the
   * Dekker pair with a sleeper's seq_cst increment of sleepers and loads of
   * head and tail (idle.c): it saw the entry, or we wake it. */
  if (restored && atomic_load_explicit(&adapt__rt.sleepers, memory_order_seq_cst) > 0)
    adapt__wake_all();
  if (got) {
    w->fails = 0;
    uint64_t now = adapt__now_ns();
    end_idle(w, now);
    if (adapt__trace_mask & ADAPT__TRACE_STEAL)
      adapt__trace(w, ADAPT__TRACE_STEAL, now, now, (uint64_t)v, (uint64_t)-1);
    adapt__run_spawned(w, &task);
    return 1;
  }
  /* relaxed: hint; a victim with spawned tasks only may have no frame. */
  int hw = atomic_load_explicit(&victim->has_work, memory_order_relaxed);
  if (ADAPT__HW_DEPTH(hw) == 0 || adapt__refused_hw(w, v, hw)) return 0;
  int timed_out;
  adapt__theft *rec = request_from(w, victim, &timed_out);
  adapt__refusal *r = &w->refused[v];
  if (r->recheck) { /* the one request after a timed sleep (idle.c) */
    r->recheck = 0;
    /* unanswered (a victim busy in a chunk, descheduled): refused still,
     * until the next timed sleep ends */
    if (!rec && timed_out && r->hw == hw) r->hw_round = w->round;
  }
  if (!rec) return timed_out ? -2 : -1;
  w->fails = 0;
  uint64_t now = adapt__now_ns();
  end_idle(w, now);
  if (adapt__trace_mask & ADAPT__TRACE_STEAL)
    adapt__trace(w, ADAPT__TRACE_STEAL, now, now, (uint64_t)v, rec->key);
  adapt__run_theft(w, rec);
  return 1;
}
