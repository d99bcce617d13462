/* Model (j): the claim protocol of the hybrid loop scheduler (hybrid.c:
 * adapt__hybrid_claim, adapt__hybrid_run; Handleman et al., IPDPS 2021,
 * Algorithm 3).
 *
 * R = 2^k >= W partitions, one claim flag each. Worker 0 starts the loop
 * and runs its claim sequence; each other worker may arrive (a thief that
 * split the loop's entry while its own partition looked free) or not, at
 * any time, and runs its own sequence. A sequence of worker w claims
 * partition w (one fetch_or; a failed first claim ends it), then i = 1, 2,
 * ... < R on partition i XOR w, skipping by the least significant set bit
 * of i after a failed claim. A claimed partition is run (ghost count).
 *
 * Checked: every partition is run exactly once, whatever the arrival order
 * and interleaving (the starter's sequence and those of the thieves that
 * claimed their own partition cover every partition).
 *
 * SEEDED_BUG 1: any failed claim ends the sequence, not only the first
 * (the partitions of workers that never came are left unclaimed).
 * SEEDED_BUG 2: a claim is a load then a store instead of one fetch_or (two
 * workers run the same partition). */

#ifndef W
#define W 3            /* workers */
#endif
#ifndef R
#define R 4            /* partitions: a power of two >= W */
#endif
#if W < 1 || W > R || R > 8 || (R & (R - 1)) != 0
#error "hybrid.pml models 1 <= W <= R <= 8 with R a power of two"
#endif

bool A[R];             /* claim flags */
byte runs[R];          /* ghost: times partition r ran */
byte ended;            /* sequences ended (or workers that never came) */

/* adapt__hybrid_claim(A, i, w): ok = the flag of partition i ^ w was clear */
inline claim(i, w) {
#if SEEDED_BUG == 2
  ok = !A[i ^ w];
  A[i ^ w] = 1
#else
  atomic { ok = !A[i ^ w]; A[i ^ w] = 1 }
#endif
}

inline run_partition(p) { d_step { runs[p]++; assert(runs[p] == 1) } }

proctype worker(byte w) {
  byte i;
  bool ok;
  if
  :: w != 0 -> skip                            /* a thief that never comes */
  :: true ->
     claim(0, w);
     if
     :: ok ->
        run_partition(w);
        i = 1;
        do
        :: i < R ->
           claim(i, w);
           if
           :: ok -> run_partition(i ^ w); i++
#if SEEDED_BUG == 1
           :: else -> break
#else
           :: else -> i = i + (i & (256 - i))  /* i & -i on a byte */
#endif
           fi
        :: else -> break
        od
     :: else -> skip
     fi
  fi;
  ended++
}

init {
  byte r = 0;
  atomic {
    do
    :: r < W -> run worker(r); r++
    :: else -> break
    od
  };
  ended == W;
  r = 0;
  do
  :: r < R -> assert(runs[r] == 1); r++
  :: else -> break
  od
}
