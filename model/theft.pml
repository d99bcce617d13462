/* Model (b): theft records with preemption and in-order reduction
 * (adaptive.c, frame.c, records.h, records.c; the task pattern of adaptive.h).
 *
 * Worker 0 runs an adaptive task over the sequence [0, N): adapt_begin,
 * dowork, adapt_end. dowork (adaptive.h's example) processes one element
 * per step; before each, a steal point may answer an idle worker (the
 * splitter gives it the upper half with key = its first index: adapt_reply
 * takes a record, fills it, sets RUNNING, inserts it in the frame's list by
 * key; the OK answer, whose slot protocol is model (a), is one atomic
 * hand-off here); a thief's dowork has a preempt point after each element.
 * When its range is empty the owner of a frame either calls
 * adapt_preempt_next_thief (CAS RUNNING->PREEMPT on the head record, wait
 * for FINAL, reduce_head: the reducer appends the thief's result and takes
 * over its unprocessed range, the handed-over thieves are merged by key,
 * the record is recycled) and loops, or returns (the choice is free).
 * Workers 1..NTH are idle until given a piece; adapt__run_theft runs dowork
 * on the record's descriptor, then: if the record is PREEMPT (one load), it
 * hands its own thieves over, else it joins them (wait FINAL and reduce
 * each, in key order); then stores FINAL and never touches the record
 * again. adapt_end joins the same way.
 * Shared accesses (record state: CAS, loads, the FINAL store; the hand-off
 * of a piece) are single steps; owner-only steps (list, pool, descriptor
 * of the owner) are grouped. Lists are kept as key sets (the sorted-list
 * code of records.c is sequential and not modelled): head = smallest key.
 *
 * Checked: every element is processed exactly once and the reductions see
 * the pieces in sequence order (the reducer asserts that the thief's
 * result starts where the owner's ends); a record is reduced only after
 * FINAL; a thief never touches its record after it was recycled (ghost
 * generation); at the end the owner holds [0, N) and every record is back
 * in the pool; no deadlock (every wait for FINAL ends).
 *
 * adapt_preempt_next_thief holds the frame while it waits (FRAME_HELD):
 * requests are answered, but not by this frame's splitter, so no record can
 * be inserted before the awaited one, which is then the head it reduces.
 *
 * SEEDED_BUG 1: adapt__run_theft stores FINAL right after the entry
 * returns, before handing over or joining its own thieves.
 * SEEDED_BUG 2: the frame is not held while adapt_preempt_next_thief waits
 * (the code before issue 11, item 5): its splitter may insert a record
 * before the awaited one, and reduce_head reduces that RUNNING record.
 * Caught with ISSUE5 only (with the owner's range done the splitter has
 * nothing to give).
 * ISSUE5: the owner calls adapt_preempt_next_thief while its own range is
 * not done (against adaptive.h's contract, but it must not break the
 * runtime): the runtime's properties are checked (every element at most
 * once, reduce only after FINAL, no touch after recycling, every record
 * back), not the user's reducer order, which such a call breaks. */

#ifndef N
#define N 6            /* elements; keys are 1..N-1 */
#endif
#ifndef NTH
#define NTH 2
#endif
/* The key sets and the processed set are bits of a byte: N <= 8. Any NTH
 * >= 1 is modelled (a steal point may serve any idle thief). */
#if N < 2 || N > 8
#error "theft.pml models 2 <= N <= 8 elements (key sets are bytes)"
#endif
#if NTH < 1 || NTH > 6
#error "theft.pml models 1 <= NTH <= 6 thieves"
#endif
#define NR (N - 1)     /* theft records (the owner's descriptor is rec 0) */
#define NW (NTH + 1)

#define RUNNING 0
#define PREEMPT 1
#define FINAL   2

/* records 1..NR; record 0 is the owner's own descriptor */
byte st[NR + 1];       /* adapt__theft.state */
byte hov[NR + 1];      /* .handover, as a key set */
byte key[NR + 1];
byte b[NR + 1], e[NR + 1];   /* descriptor: unprocessed range */
byte rlo[NR + 1], rcnt[NR + 1]; /* descriptor: result = [rlo, rlo + rcnt) */
bool inuse[NR + 1];    /* ghost: taken from the pool, not yet recycled */
byte rgen[NR + 1];     /* ghost: bumped at each recycling */
byte rec_of_key[N];
/* frames, one per worker: list of thieves (key set) and descriptor */
byte fth[NW];
byte fdesc[NW];
/* hand-off of pieces to idle workers */
bool idle[NW];
byte assigned[NW];
bool finished;
/* ghosts */
byte done;             /* bit i: element i processed */

inline lowest(set, k) {
  k = 0;
  do
  :: k < N && !(set & (1 << k)) -> k++
  :: else -> break
  od
}

/* steal point of worker w: answer one idle worker, if the splitter can */
inline steal_point(w) {
  if
  :: e[fdesc[w]] - b[fdesc[w]] >= 2 ->
     atomic {                                  /* serve: splitter + adapt_reply + OK */
       t = 1;                                  /* the pending request served, if any */
       do
       :: t < NW && t != w && idle[t] -> break /* serve this one */
       :: t < NW -> t++                        /* or look further */
       :: t == NW -> t = 0; break              /* none (or not yet polled) */
       od;
       if
       :: t != 0 ->
          d = fdesc[w];
          r = 1;
          do
          :: r <= NR && inuse[r] -> r++
          :: else -> break
          od;
          assert(r <= NR);                     /* enough records for N */
          inuse[r] = 1;
          key[r] = b[d] + (e[d] - b[d] + 1) / 2;
          b[r] = key[r]; e[r] = e[d]; rlo[r] = key[r]; rcnt[r] = 0;
          hov[r] = 0;
          e[d] = key[r];
          st[r] = RUNNING;
          assert(!(fth[w] & (1 << key[r])));
          fth[w] = fth[w] | (1 << key[r]);     /* theft_insert by key */
          rec_of_key[key[r]] = r;
          idle[t] = 0;
          assigned[t] = r                      /* store OK (release) */
       :: else -> skip
       fi
     }
  :: else -> skip
  fi
}

/* reduce_head(f) of worker w's frame: the head record is FINAL */
inline reduce_head(w) {
  atomic {
    lowest(fth[w], k);
    r = rec_of_key[k];
    assert(inuse[r] && st[r] == FINAL);        /* reduced only after FINAL */
    fth[w] = fth[w] & ~(1 << k);
    d = fdesc[w];
    /* reducer: the thief's result follows the owner's */
#ifndef ISSUE5
    assert(rlo[r] == rlo[d] + rcnt[d]);
#endif
    rcnt[d] = rcnt[d] + rcnt[r];
    if
    :: b[r] < e[r] ->                          /* preempted: its rest is ours */
#ifndef ISSUE5
       assert(b[d] == e[d] && b[r] == rlo[d] + rcnt[d]);
       b[d] = b[r]; e[d] = e[r]
#else
       /* the owner's own rest is unfinished: the user's reducer may not
        * take the thief's over (the model hands it back: processed once) */
       if
       :: b[d] == e[d] -> b[d] = b[r]; e[d] = e[r]
       :: else ->
          do
          :: b[r] < e[r] -> assert(!(done & (1 << b[r]))); done = done | (1 << b[r]); b[r]++
          :: else -> break
          od
       fi
#endif
    :: else -> skip
    fi;
    assert((fth[w] & hov[r]) == 0);
    fth[w] = fth[w] | hov[r];                  /* theft_merge */
    hov[r] = 0;
    inuse[r] = 0; rgen[r]++                    /* theft_put */
  }
}

/* wait_final(rec, 0) of adapt_preempt_next_thief: spins on an acquire load
 * of the state; the frame is HELD, so requests meanwhile are answered
 * without its splitter (nothing is inserted in its list) */
inline wait_final_held(rec, w) {
#if SEEDED_BUG == 2
  do
  :: st[rec] == FINAL -> break
  :: else -> steal_point(w)                    /* BUG: the frame's splitter runs */
  od
#else
  st[rec] == FINAL
#endif
}
/* the wait of join_thieves: the frame is ENDING, no splitter */
inline wait_final(r) { st[r] == FINAL }

inline dowork(w) {
  do
  :: b[fdesc[w]] < e[fdesc[w]] ->
     steal_point(w);
     atomic {                                  /* claim and process one element */
       d = fdesc[w];
       assert(w == 0 || rgen[myrec] == mygen);
#ifndef ISSUE5
       assert(b[d] == rlo[d] + rcnt[d]);
#endif
       assert(!(done & (1 << b[d])));
       done = done | (1 << b[d]);
       b[d]++; rcnt[d]++
     };
     if                                        /* preempt point (thieves) */
     :: w != 0 && st[myrec] == PREEMPT -> assert(rgen[myrec] == mygen); break
#ifdef ISSUE5
     :: w == 0 && fth[w] != 0 -> goto preempt  /* misuse: own range not done */
#endif
     :: else -> skip
     fi
  :: else ->
     if
     :: fth[w] != 0 ->                         /* adapt_preempt_next_thief */
#ifdef ISSUE5
  preempt:
#endif
        lowest(fth[w], k);
        pr = rec_of_key[k];                    /* rec = f->thieves (steal_point reuses r) */
        atomic { if :: st[pr] == RUNNING -> st[pr] = PREEMPT :: else -> skip fi };
        wait_final_held(pr, w);
        reduce_head(w)
     :: true -> break                          /* or return (to end/join) */
     fi
  od
}

inline join_thieves(w) {
  do
  :: fth[w] != 0 ->
     lowest(fth[w], k);
     r = rec_of_key[k];
     wait_final(r);
     reduce_head(w)
  :: else -> break
  od
}

active proctype owner() {
  byte t, d, r, k, pr, myrec, mygen;
  d_step { b[0] = 0; e[0] = N; rlo[0] = 0; rcnt[0] = 0; fdesc[0] = 0 };  /* adapt_begin */
  dowork(0);
  join_thieves(0);                             /* adapt_end */
#ifndef ISSUE5
  assert(rlo[0] == 0 && rcnt[0] == N && done == (1 << N) - 1);
#else
  assert(done == (1 << N) - 1);
#endif
  finished = 1;
  t = 1;
  do                                           /* every thief back to idle */
  :: t < NW && idle[t] -> t++
  :: t == NW -> break
  od;
  atomic {
    r = 1;
    do
    :: r <= NR -> assert(!inuse[r]); r++
    :: else -> break
    od
  }
}

active [NTH] proctype thief() {
  byte w = _pid;                               /* owner is pid 0 */
  byte t, d, r, k, pr, myrec, mygen;
  bool pre;
  idle[w] = 1;
  do
  :: assigned[w] != 0 ->                       /* load OK (acquire) */
     d_step { myrec = assigned[w]; assigned[w] = 0; mygen = rgen[myrec];
              fdesc[w] = myrec; fth[w] = 0 };
     /* adapt__run_theft */
     dowork(w);
#if SEEDED_BUG == 1
     pre = (st[myrec] == PREEMPT);
     st[myrec] = FINAL;                        /* BUG: FINAL before the join */
#endif
#if SEEDED_BUG != 1
     pre = (st[myrec] == PREEMPT);             /* relaxed load */
#endif
     if
     :: pre ->
        atomic { assert(rgen[myrec] == mygen); hov[myrec] = fth[w]; fth[w] = 0 }
     :: else -> join_thieves(w)
     fi;
#if SEEDED_BUG != 1
     assert(rgen[myrec] == mygen);
     st[myrec] = FINAL;                        /* release: the record is the owner's */
#endif
     myrec = 0;
     idle[w] = 1
  :: finished -> break
  od
}
