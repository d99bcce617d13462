/* Model (h): cancellation of an adaptive loop (cancel.c, loop.c: for_run,
 * the cancel scopes; frame.c: the barrier of adapt__run_theft and
 * adapt__run_spawned; docs/design.md, "Cancellation").
 *
 * Call A is an adapt_for over [0, N) run by worker 0 (the owner); worker 1
 * is idle and requests a piece; the owner's steal point answers with the
 * upper half of its range unless A's flag is set. Each worker running a
 * piece of A pushes A's scope (for_run), reads the flag (relaxed) before
 * each element and, when set, abandons its range (begin = end). Any body
 * of A may call adapt_cancel (at most CANCELS times in all): the flag of
 * the calling thread's top scope is stored, a barrier makes it refuse
 * (-EPERM). The code's barrier is a NULL top, saved and restored
 * (adapt__cancel_shield); here a BARRIER entry on the stack, which hides
 * the scopes below it the same way. A body of A on the owner may also wait in a nested join
 * (adapt_end or adapt_sync) and run there a piece of an unrelated task B
 * it steals, whose body calls adapt_cancel: running a stolen piece pushes
 * a barrier first. The thief stores FINAL when its piece is done; the
 * owner joins it, then reads the flag: the call's result.
 *
 * Checked: every element at most once, and every element exactly once when
 * nothing cancelled A; only A's bodies set A's flag (B's cancel does not
 * reach A); a worker starts at most one element after the flag is stored
 * (the one whose check preceded the store); the call returns -ECANCELED
 * exactly when one of its bodies cancelled; the scope stacks are empty at
 * the end.
 *
 * SEEDED_BUG 1: running a stolen piece pushes no barrier: B's cancel
 * reaches A's scope below it.
 * SEEDED_BUG 2: the loop reads the flag before every other element only
 * (a chunk of two elements per check): a worker starts a second element
 * after the cancel. */

#ifndef N
#define N 4            /* elements */
#endif
#ifndef CANCELS
#define CANCELS 1      /* adapt_cancel calls by A's bodies, at most */
#endif
#if N < 2 || N > 8
#error "cancel.pml models 2 <= N <= 8 elements (the processed set is a byte)"
#endif
#define S 3            /* scope stack depth per worker */
#define BARRIER 0
#define SCOPE_A 1

bool flagA;            /* A's cancel flag */
byte setter;           /* ghost: who stored flagA: 1 a body of A, 2 B's body */
byte scope[2 * S];     /* worker w's scope stack: scope[w * S + i] */
byte sp[2];
byte b[2], e[2];       /* each worker's range of A */
bool want;             /* worker 1's request, answered at the owner's steal point */
byte given;            /* 0: none yet, 1: a piece, 2: FAIL */
bool final;            /* the thief's record */
byte done;             /* ghost: bit i, element i processed */
byte after[2];         /* ghost: elements started by w after flagA was stored */
byte cancels;          /* ghost: adapt_cancel calls by A's bodies */
bool bdone;            /* ghost: B's piece was run */

inline push(w, s) { atomic { assert(sp[w] < S); scope[w * S + sp[w]] = s; sp[w]++ } }
inline pop(w) { atomic { assert(sp[w] > 0); sp[w]-- } }

/* adapt_cancel on worker w by a body of `who` (1: A, 2: B) */
inline cancel(w, who) {
  atomic {
    if
    :: sp[w] > 0 && scope[w * S + sp[w] - 1] == SCOPE_A ->
       flagA = 1;
       if :: setter == 0 -> setter = who :: else -> skip fi
    :: else -> skip                            /* -EPERM: no call of its own */
    fi
  }
}

/* the body of element i, on worker w */
inline body(w) {
  if
  :: cancels < CANCELS -> cancels++; cancel(w, 1)
  :: w == 0 && !bdone ->                       /* a nested join runs a piece of B */
     bdone = 1;
#if SEEDED_BUG != 1
     push(w, BARRIER);
#endif
     cancel(w, 2);
#if SEEDED_BUG != 1
     pop(w)
#endif
  :: true -> skip
  fi
}

/* for_run: worker w's piece of A */
inline for_run(w) {
  push(w, SCOPE_A);
  k = 0;
  do
  :: b[w] < e[w] ->
#if SEEDED_BUG == 2
     if
     :: k % 2 == 0 -> f = flagA                /* relaxed load, every other element */
     :: else -> skip
     fi;
     k++;
#else
     f = flagA;                                /* relaxed load before each element */
#endif
     if
     :: f -> b[w] = e[w]                       /* abandon the range */
     :: else ->
        if                                     /* steal point: answer, unless cancelled */
        :: w == 0 && want && given == 0 ->
           atomic {
             if
             :: !flagA && e[0] - b[0] >= 2 ->
                b[1] = b[0] + (e[0] - b[0] + 1) / 2; e[1] = e[0]; e[0] = b[1]; given = 1
             :: else -> given = 2
             fi
           }
        :: else -> skip
        fi;
        d_step {
          assert(!(done & (1 << b[w])));
          done = done | (1 << b[w]);
          if :: flagA -> after[w]++ :: else -> skip fi;
          assert(after[w] <= 1);
          b[w]++
        };
        body(w)
     fi
  :: else -> break
  od;
  pop(w)
}

active proctype owner() {
  byte k, f;
  atomic { b[0] = 0; e[0] = N };
  for_run(0);
  if                                           /* adapt_end: join the thief */
  :: given == 1 -> final
  :: else -> skip
  fi;
  given = 2;                                   /* no more answers: the call returns */
  assert(setter != 2);                         /* B's cancel never reaches A */
  assert(flagA == (setter == 1));              /* -ECANCELED exactly when A cancelled */
  assert(setter != 0 || done == (1 << N) - 1);
  assert(sp[0] == 0)
}

active proctype thief() {
  byte k, f;
  want = 1;
  given != 0;
  if
  :: given == 1 ->                             /* adapt__run_theft */
#if SEEDED_BUG != 1
     push(1, BARRIER);
#endif
     for_run(1);
#if SEEDED_BUG != 1
     pop(1);
#endif
     assert(sp[1] == 0);
     final = 1
  :: else -> skip
  fi
}
