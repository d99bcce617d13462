/* Model (k): the claim protocol of the static loop scheduler (hybrid.c:
 * partitioned, claim_and_run, entry_split, adapt__hybrid_claim with
 * is_static).
 *
 * W workers, R = W blocks, one claim flag each. Worker S starts the loop:
 * it pushes one splittable entry (when W > 1), claims its own block (one
 * fetch_or on A[S]) and runs it if the claim succeeded, then claims every
 * block r = 0 .. R - 1 in turn (blocks whose worker did not come) and runs
 * those it got; then it pops the entry back under the deque's lock and
 * waits for its scope (every copy of the entry handed to a thief counts
 * there). Each other worker w may come or not, at any time while the
 * entry is there: its split (under the deque's lock) drops the entry when
 * A[w] is already set (the relaxed hint), else hands it a copy (counted in
 * the scope); the copy claims A[w] alone, runs block w if it got it, and
 * leaves the scope. A block's run is two steps (start, end: a body call
 * that takes time).
 *
 * Checked: no block runs twice (asserted at each start), and when the
 * starter's wait returns (the loop's end) every block has run to its end
 * exactly once, whatever the arrivals and interleavings.
 *
 * SEEDED_BUG 1: the starter does not claim the blocks of the workers that
 * did not come (their indices never run).
 * SEEDED_BUG 2: a claim is a load then a store instead of one fetch_or (a
 * thief and the starter both run the thief's block).
 * SEEDED_BUG 3: a copy handed to a thief is not counted in the scope (the
 * loop returns while the thief still runs its block). */

#ifndef W
#define W 4            /* workers (= blocks) */
#endif
#ifndef S
#define S 1            /* the worker that starts the loop */
#endif
#if W < 1 || W > 4 || S >= W
#error "static.pml models 1 <= W <= 4 workers, the starter S < W"
#endif

bool A[W];             /* claim flags */
byte started[W];       /* ghost: runs of block r begun */
byte finished[W];      /* ghost: runs of block r ended */
bool entry;            /* the loop's entry is in the starter's deque */
byte copies;           /* the scope's count of copies not yet done */

/* adapt__hybrid_claim(A, 0, r): ok = the flag of block r was clear */
inline claim(r) {
#if SEEDED_BUG == 2
  ok = !A[r];
  A[r] = 1
#else
  atomic { ok = !A[r]; A[r] = 1 }
#endif
}

inline run_block(r) {
  d_step { started[r]++; assert(started[r] == 1) };
  finished[r]++
}

proctype thief(byte w) {
  bool ok;
  if
  :: skip                                      /* never comes */
  :: atomic { entry && !A[w] ->                /* entry_split: a copy (KEEP) */
#if SEEDED_BUG != 3
       copies++
#else
       skip
#endif
     };
     claim(w);
     if
     :: ok -> run_block(w)
     :: else -> skip
     fi;
#if SEEDED_BUG != 3
     copies--
#else
     skip
#endif
  :: atomic { entry && A[w] -> skip }          /* entry_split: DROP */
  fi
}

proctype starter() {
  byte r;
  bool ok;
  entry = (W > 1);                             /* adapt__push_entry */
  claim(S);
  if
  :: ok -> run_block(S)
  :: else -> skip
  fi;
#if SEEDED_BUG != 1
  r = 0;
  do                                           /* blocks whose worker did not come */
  :: r < W ->
     claim(r);
     if
     :: ok -> run_block(r)
     :: else -> skip
     fi;
     r++
  :: else -> break
  od;
#endif
  entry = 0;                                   /* adapt__deque_pop_locked */
  copies == 0;                                 /* adapt__scope_wait */
  r = 0;
  do                                           /* the loop has ended */
  :: r < W -> assert(finished[r] == 1); r++
  :: else -> break
  od
}

init {
  byte w = 0;
  atomic {
    run starter();
    do
    :: w < W -> if :: w != S -> run thief(w) :: else -> skip fi; w++
    :: else -> break
    od
  }
}
