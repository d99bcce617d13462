/* Model (d): loop-frame claims (loopframe.c, loopframe.h; thesis Fig. 3-2,
 * strip-mined by the grain G) on top of the THE steal of the loop entry
 * (deque.c) and the root scope's completion count (scope.c).
 *
 * Worker 0 runs adapt__for_loopframe over [0, N): lf_run_range (init the
 * frame, push its splittable entry when N > G, claim chunks with
 * adapt__lf_next, run them, pop_locked the entry, the frame dies), then
 * adapt__scope_wait on the root scope (load remote, then splits; while they
 * differ it steals, up to OWNER_ATT attempts, then spins).
 * Workers 1..NTH steal NATT times from a worker whose deque looks non-empty:
 * adapt__deque_steal (lock, head + 1, load tail) then adapt__lf_split under
 * the lock (load start, end; store end = m; load start; FAIL restores end
 * and head, KEEP restores head, LAST/DROP leave head past the entry), a
 * piece is counted in splits under the lock; the piece [m, e) runs as a
 * loop frame of the thief's own (lf_run_range: splittable again by the
 * other workers), then remote + 1 (local + 1 when worker 0 runs it).
 * Each statement on start, end, head, tail, lock, remote, splits is one
 * atomic access of the C code (the seq_cst ones of the Dekker pairs in
 * particular); owner-local computation is grouped.
 *
 * Checked: every iteration of [0, N) runs exactly once and none outside;
 * a split only touches a live frame (the frame is on its owner's stack:
 * alive and of the generation its entry was pushed for); the root wait
 * returns only when every iteration has run; no deadlock.
 *
 * SEEDED_BUG 1: the thief decides with its first load of start (it does
 *   not load start again after its store of end): it takes [m, e) while the
 *   owner's claim crossed m: an iteration runs twice.
 * SEEDED_BUG 2: the root wait loads splits before remote (scope.h says
 *   remote first): a piece split and completed between the two loads
 *   balances a piece still running, and the wait returns early. */

#ifndef N
#define N 4
#endif
#ifndef G
#define G 1
#endif
#ifndef NTH
#define NTH 2
#endif
#ifndef NATT
#define NATT 1
#endif
#ifndef OWNER_ATT
#define OWNER_ATT 1
#endif
#define NW (NTH + 1)

/* per worker: its deque (holding only its loop entry) and its loop frame */
byte head[NW], tail[NW];
bool lock[NW];
byte start[NW], end[NW];     /* adapt__loopframe.start, .end */
byte entgen[NW];             /* the frame generation the entry was pushed for */
byte gen[NW];                /* ghost: frame generation (the stack slot reused) */
bool alive[NW];              /* ghost: the frame is on its owner's stack */
/* root scope */
byte nlocal, remote, splits;
byte thieves_done;
/* ghosts */
byte executed;              /* bit i: iteration i has run */

inline dq_lock(v) { atomic { lock[v] == 0 -> lock[v] = 1 } }
inline dq_unlock(v) { lock[v] = 0 }

/* the loop body on [b, e): each iteration once (a bit per iteration) */
inline body(b, e) {
  d_step {
    assert(b < e && e <= N);
    assert((executed & ((1 << e) - (1 << b))) == 0);
    executed = executed | ((1 << e) - (1 << b))
  }
}

/* lf_run_range(w, lo, hi): the frame of worker w */
inline lf_run_range(w, lo, hi) {
  d_step { start[w] = lo; end[w] = hi; gen[w]++; alive[w] = 1; floor = tail[w] };
  if
  :: hi - lo > G ->                             /* adapt__push_entry */
     entgen[w] = gen[w];                        /* the slot */
     tail[w] = floor + 1;                       /* seq_cst store of tail */
     pushed = 1
  :: else -> pushed = 0
  fi;
  do                                            /* while (adapt__lf_next) body */
  :: s = start[w];                              /* relaxed: our own */
     ns = s + G;
     start[w] = ns;                             /* seq_cst store */
     en = end[w];                               /* seq_cst load */
     if
     :: ns <= en && s < ns -> body(s, ns)
     :: else ->
        dq_lock(w);
        en = end[w];                            /* stable under the lock */
        if
        :: s >= en -> dq_unlock(w); break
        :: else ->
           if :: en - s > G -> en = s + G :: else -> skip fi;
           start[w] = en;
           dq_unlock(w);
           body(s, en)
        fi
     fi
  od;
  if
  :: pushed ->                                  /* adapt__deque_pop_locked(floor) */
     dq_lock(w);
     tl = tail[w];
     if
     :: tl <= floor || tl <= head[w] -> skip    /* a thief removed it (LAST/DROP) */
     :: else ->
        tail[w] = tl - 1;                       /* seq_cst store */
        assert(head[w] <= tl - 1)               /* seq_cst load: no conflict under our lock */
     fi;
     dq_unlock(w)
  :: else -> skip
  fi;
  alive[w] = 0                                  /* lf_run_range returns */
}

/* adapt__deque_steal by worker w on a victim chosen among the others */
inline steal_attempt(w) {
  v = w;
  if
  :: w != 0 && tail[0] > head[0] -> v = 0       /* relaxed pre-checks */
  :: w != 1 && tail[1] > head[1] -> v = 1
  :: NW > 2 && w != 2 && tail[2] > head[2] -> v = 2
  :: else -> skip
  fi;
  if
  :: v != w ->
     got = 0;
     dq_lock(v);
     h = head[v];
     head[v] = h + 1;                           /* seq_cst store */
     if
     :: h + 1 > tail[v] -> head[v] = h          /* seq_cst load: nothing there */
     :: else ->
        assert(alive[v] && entgen[v] == gen[v]);/* the entry's frame is live */
        /* adapt__lf_split */
        s = start[v];                           /* seq_cst load */
        e = end[v];                             /* relaxed (stable: lock held) */
        if
        :: s >= e -> skip                       /* DROP: head stays past the entry */
        :: else ->
           if
           :: e - s > G -> m = s + ((e - s) / 2 > G -> (e - s) / 2 : G)
           :: else -> m = s                     /* take all */
           fi;
           end[v] = m;                          /* seq_cst store */
#if SEEDED_BUG == 1
           s2 = s;                              /* BUG: no second load of start */
#else
           s2 = start[v];                       /* seq_cst load */
#endif
           if
           :: s2 > m -> end[v] = e; head[v] = h /* FAIL: back off */
           :: else ->
              if :: s2 < m -> head[v] = h :: else -> skip fi;  /* KEEP / LAST */
              splits++;                         /* counted under the lock */
              got = 1
           fi
        fi
     fi;
     dq_unlock(v);
     if
     :: got ->
        lo = m; hi = e;
        lf_run_range(w, lo, hi);                /* the piece, a frame of w's own */
        if :: w == 0 -> nlocal++ :: else -> remote++ fi   /* adapt__run_spawned */
     :: else -> skip
     fi
  :: else -> skip
  fi
}

active proctype owner() {
  byte s, ns, en, e, m, s2, h, v, tl, floor, lo, hi, r, sp, att;
  bool pushed, got;
  lf_run_range(0, 0, N);
  /* adapt__scope_wait(root): pushed = 0 */
  do
  ::
#if SEEDED_BUG == 2
     sp = splits; r = remote;                   /* BUG: splits first */
#else
     r = remote;                                /* acquire */
     sp = splits;                               /* relaxed, after it */
#endif
     if
     :: nlocal + r == sp -> break
     :: else ->
        if
        :: att < OWNER_ATT -> att++; steal_attempt(0)
        :: else -> (remote != r || splits != sp)  /* spin until something moves */
        fi
     fi
  od;
  assert(executed == (1 << N) - 1);
  (thieves_done == NTH);
  assert(head[0] == tail[0] && head[1] == tail[1] && (NW < 3 || head[NW - 1] == tail[NW - 1]))
}

active [NTH] proctype thief() {
  byte w = _pid;                                /* owner is pid 0 */
  byte s, ns, en, e, m, s2, h, v, tl, floor, lo, hi, att;
  bool pushed, got;
  do
  :: att < NATT -> att++; steal_attempt(w)
  :: else -> break
  od;
  thieves_done++
}
