/* Model (g): nested frames, stealing while a join waits, and requests
 * served while their server waits (frame.c: adapt__wait_final,
 * adapt__join_thieves, adapt__run_theft, adapt__serve; thief.c:
 * request_from; design invariant 6).
 *
 * W workers, each with a stack of at most D frames. Worker 0 runs the root
 * frame over [0, N). A worker's top frame processes one element per step;
 * at any step its owner may serve the pending request of its slot: the
 * splitter of any frame of its stack that is not ENDING and holds 2
 * elements or more gives the upper half (a theft record, RUNNING, in that
 * frame's thieves), else the answer is FAIL. When its range is done the
 * frame is ENDING and joins its thieves in key order: while a record is
 * not FINAL its owner serves its slot and helps, by requesting a piece of
 * the record's thief (leapfrogging: only the worker it waits for); a piece
 * it gets runs as a new frame on its stack (nested, up to D). A frame run
 * for a record stores FINAL when it has joined its own thieves and is
 * popped. An idle worker (empty stack) serves its slot and requests a
 * piece of any other worker. A requester posts in the victim's slot (one
 * request per slot: CAS) and waits for the answer, serving its own slot
 * meanwhile. The owner of the root sets `finished` when it pops it; a
 * worker leaves when it is idle, finished is set and its slot is empty
 * (no request is posted once finished is set).
 *
 * Checked: every element is processed exactly once; a record is reduced
 * only once FINAL and a thief never touches it afterwards; stacks stay
 * within D; every record is back at the end; no deadlock (every wait for
 * FINAL and for an answer ends: invalid end states), which is where a
 * worker waiting on its own stack can block the worker it waits for.
 *
 * SEEDED_BUG 1: a requester does not serve its slot while it waits for
 * its answer (two workers requesting each other wait forever).
 * SEEDED_BUG 2: a frame run for a record stores FINAL when its range is
 * done, before it joins its own thieves (their records outlive the frame
 * that owns them once the owner of its record has reduced it).
 *
 * Without the help (a join that only waits), nothing else changes here:
 * the request protocol's timeouts, and that a join serves its slot
 * (invariant 6), keep other thieves from waiting on it; with leapfrogging
 * a join that helps already serves while its own request waits. */

#ifndef N
#define N 4            /* elements */
#endif
#ifndef W
#define W 2            /* workers */
#endif
#ifndef D
#define D 2            /* frames per worker */
#endif
#define NR (N - 1)     /* theft records: a split leaves 1 element at least */
#if N < 2 || N > 8 || W < 2 || W > 4 || D < 1 || D > 3
#error "nested.pml models 2 <= N <= 8, 2 <= W <= 4, 1 <= D <= 3 (bitsets are bytes)"
#endif

#define RUNNING 1
#define FINAL   2
#define FAIL    255

byte fb[W * D], fe[W * D];   /* frame w*D+l: unprocessed range */
byte fth[W * D];             /* its thieves: a set of records (bit r) */
byte frec[W * D];            /* the record it runs for, 0: the root */
bool fend[W * D];            /* ENDING: its splitter gives nothing */
byte depth[W];
byte rst[NR + 1], rthief[NR + 1], rb[NR + 1], re[NR + 1];
byte req[W];                 /* requester + 1 in the slot, 0: empty */
byte ans[W];                 /* answer to a requester: a record, FAIL, 0: none yet */
bool finished;
byte done;                   /* ghost: bit i, element i processed */
byte nrec;                   /* ghost: records in use */

/* adapt__serve(w): answer the request in w's slot from a splittable frame
 * of w's stack (any one), else FAIL */
inline serve(w) {
  atomic {
    t = req[w] - 1;
    k = 0;
    do
    :: k < depth[w] && !fend[w * D + k] && fe[w * D + k] - fb[w * D + k] >= 2 -> break
    :: k < depth[w] -> k++                     /* or another frame */
    :: k == depth[w] -> break
    od;
    if
    :: k < depth[w] && !fend[w * D + k] && fe[w * D + k] - fb[w * D + k] >= 2 ->
       f = w * D + k;
       r = 1;
       do
       :: r <= NR && rst[r] != 0 -> r++
       :: else -> break
       od;
       assert(r <= NR);
       rb[r] = fb[f] + (fe[f] - fb[f] + 1) / 2; re[r] = fe[f]; fe[f] = rb[r];
       rst[r] = RUNNING; rthief[r] = t; nrec++;
       fth[f] = fth[f] | (1 << r);
       ans[t] = r
    :: else -> ans[t] = FAIL
    fi;
    req[w] = 0
  }
}

/* request_from(w, v): post in v's slot, wait for the answer serving w's
 * own slot; got = the record or 0 */
inline request(w, v) {
  got = 0;
  if
  :: atomic { !finished && req[v] == 0 -> req[v] = w + 1 };
     do
     :: ans[w] != 0 -> break
#if SEEDED_BUG != 1
     :: req[w] != 0 -> serve(w)
#endif
     od;
     atomic { if :: ans[w] != FAIL -> got = ans[w] :: else -> skip fi; ans[w] = 0 }
  :: else -> skip                              /* slot taken or finished: no request */
  fi
}

/* push the frame of record got on w's stack */
inline push(w) {
  atomic {
    assert(depth[w] < D && rthief[got] == w && rst[got] == RUNNING);
    f = w * D + depth[w];
    fb[f] = rb[got]; fe[f] = re[got]; fth[f] = 0; fend[f] = 0; frec[f] = got;
    depth[w]++
  }
}

proctype worker(byte w) {
  byte t, k, f, r, v, got;
  do
  :: depth[w] == 0 ->                          /* idle */
     if
     :: atomic { finished && req[w] == 0 -> break }
     :: req[w] != 0 -> serve(w)
     :: !finished ->
        v = 0;
        do                                     /* any other worker */
        :: v < W - 1 -> v++
        :: break
        od;
        if
        :: v != w -> request(w, v); if :: got != 0 -> push(w) :: else -> skip fi
        :: else -> skip
        fi
     fi
  :: depth[w] > 0 ->
     f = w * D + depth[w] - 1;
     if
     :: fb[f] < fe[f] ->                       /* one element */
        atomic { assert(!(done & (1 << fb[f]))); done = done | (1 << fb[f]); fb[f]++ }
     :: fb[f] < fe[f] && req[w] != 0 -> serve(w)   /* steal point */
     :: fb[f] == fe[f] && fth[f] != 0 ->       /* join: the lowest key first */
#if SEEDED_BUG == 2
        if
        :: !fend[f] && frec[f] != 0 -> rst[frec[f]] = FINAL  /* BUG: before the join */
        :: else -> skip
        fi;
#endif
        fend[f] = 1;
        r = 1;
        do
        :: !(fth[f] & (1 << r)) -> r++
        :: else -> break
        od;
        if
        :: rst[r] == FINAL ->                  /* reduce_head */
           atomic { fth[f] = fth[f] & ~(1 << r); rst[r] = 0; nrec-- }
        :: req[w] != 0 -> serve(w)             /* adapt__wait_final serves */
        :: depth[w] < D && rst[r] != FINAL ->  /* helps: steals from its thief */
           v = rthief[r];
           request(w, v);
           if :: got != 0 -> push(w) :: else -> skip fi
        fi
     :: fb[f] == fe[f] && fth[f] == 0 ->       /* done: pop */
        fend[f] = 1;
        atomic { depth[w]--; r = frec[f] };
        if
#if SEEDED_BUG == 2
        :: r != 0 -> skip
#else
        :: r != 0 -> assert(rst[r] == RUNNING && rthief[r] == w); rst[r] = FINAL
#endif
        :: else -> assert(done == (1 << N) - 1 && nrec == 0); finished = 1
        fi
     fi
  od
}

init {
  byte i = 0;
  atomic {
    fb[0] = 0; fe[0] = N; depth[0] = 1;
    do
    :: i < W -> run worker(i); i++
    :: else -> break
    od
  }
}
