/* Model (a): the steal-request slot state machine (request.h, thief.c,
 * frame.c). One victim, NT thieves, one slot per thief in the victim's
 * worker, the victim's pending counter nreq.
 *
 * Each Promela statement that touches shared state is one atomic operation
 * of the C code (sequentially consistent interleavings):
 *   thief  request_from(): fetch_add nreq; store POSTED; load state;
 *          read rec; store IDLE; CAS POSTED->IDLE (timeout) then fetch_sub nreq
 *   victim adapt__serve(): load state; CAS POSTED->TAKEN (per slot);
 *          fetch_sub nreq (count); splitter (adapt_reply); store rec; store OK|FAIL
 * The victim polls (relaxed load of nreq) at NPOLLS steal points, then
 * unpublishes its frame and leaves: a thief whose request is still POSTED
 * must then cancel it (timeout); one whose request was TAKEN must get an
 * answer, or it waits forever (an invalid end state).
 *
 * Checked: a request is answered only when TAKEN (a cancelled request is
 * never answered); every piece handed out reaches exactly the thief it was
 * given to, once; nreq never underflows and is >= the number of POSTED
 * slots (invariant 3); at the end every slot is IDLE and nreq is 0; no
 * thief waits forever.
 *
 * SEEDED_BUG: the thief cancels with a load of POSTED followed by a plain
 * store of IDLE instead of a CAS: the victim can take the request in
 * between, and then answers a slot that is no longer TAKEN (or the thief
 * returns to the slot that is being answered). */

#ifndef NT
#define NT 2        /* thieves */
#endif
#ifndef NATT
#define NATT 2      /* requests per thief */
#endif
#ifndef NPOLLS
#define NPOLLS 3    /* victim's steal points */
#endif
#ifndef AVAIL
#define AVAIL 2     /* pieces the victim's splitter can give in all */
#endif

#define IDLE   0
#define POSTED 1
#define TAKEN  2
#define OK     3
#define FAIL   4

byte slot[NT];          /* adapt__req.state */
#if NT > 3
#error "NPOSTED below counts up to 3 thieves"
#endif
#define P(i) (NT > i -> (slot[i] == POSTED) : 0)
#define NPOSTED (P(0) + P(1) + P(2))
byte rec[NT];           /* adapt__req.rec: piece number, 0 = NULL */
short nreq;             /* victim->nreq (unsigned in C: checked >= 0) */
bool has_work = 1;      /* victim->has_work (published frame) */
byte thieves_done;

/* ghosts */
byte pieces;            /* pieces handed out (adapt_reply) */
byte given_to[AVAIL + 1];
byte received[AVAIL + 1];

/* invariant 3: nreq counts POSTED slots plus requests about to be posted
 * or just taken. Checked in every reachable state. */
active proctype inv() {
  assert(nreq >= 0);
  assert(nreq >= NPOSTED);
}

active proctype victim() {
  byte polls, i, j, count, given, avail = AVAIL;
  byte ids[NT];
  byte recs[NT];
  do
  :: polls < NPOLLS ->
     polls++;
     if
     :: nreq > 0 ->                            /* steal point: relaxed poll */
        /* adapt__serve: collect every POSTED slot */
        count = 0; i = 0;
        do
        :: i < NT ->
           if
           :: slot[i] == POSTED ->             /* relaxed load */
              atomic {                         /* CAS POSTED -> TAKEN */
                if
                :: slot[i] == POSTED -> slot[i] = TAKEN; ids[count] = i; count++
                :: else -> skip
                fi
              }
           :: else -> skip
           fi;
           i++
        :: else -> break
        od;
        if
        :: count > 0 ->
           nreq = nreq - count;                /* fetch_sub (count) */
           /* splitter: adapt_reply for as many requests as it has pieces */
           d_step {
             given = 0;
             do
             :: given < count && avail > 0 ->
                avail--; pieces++; recs[given] = pieces; given_to[pieces] = ids[given]; given++
             :: else -> break
             od
           }
           j = 0;
           do
           :: j < count ->
              assert(slot[ids[j]] == TAKEN);    /* only a taken request is answered */
              if
              :: j < given ->
                 rec[ids[j]] = recs[j];         /* slot->rec = ... */
                 slot[ids[j]] = OK              /* release store */
              :: else ->
                 slot[ids[j]] = FAIL
              fi;
              j++
           :: else -> break
           od
        :: else -> skip
        fi
     :: else -> skip
     fi
  :: else -> break
  od;
  has_work = 0;                                /* adapt__unpublish */
  (thieves_done == NT);
  /* end of the run: every piece reached its thief once, nothing pending */
  d_step {
    i = 1;
    do
    :: i <= pieces -> assert(received[i] == 1); i++
    :: else -> break
    od;
    i = 0;
    do
    :: i < NT -> assert(slot[i] == IDLE && rec[i] == 0); i++
    :: else -> break
    od;
    assert(nreq == 0)
  }
}

active [NT] proctype thief() {
  byte t = _pid - 2;                            /* pids 0, 1: inv, victim */
  byte att, r, st;
  do
  :: att < NATT ->
     att++;
     if
     :: has_work ->                             /* relaxed hint */
        assert(slot[t] == IDLE);                /* ADAPT_ASSERT_EQ in request_from */
        nreq++;                                 /* fetch_add, before the post */
        slot[t] = POSTED;                       /* release store */
        do
        :: st = slot[t];                        /* acquire load */
           if
           :: st == OK ->
              r = rec[t];
              assert(r != 0 && given_to[r] == t);
              received[r]++;
              rec[t] = 0;
              slot[t] = IDLE;                   /* consume */
              break
           :: st == FAIL ->
              slot[t] = IDLE;
              break
           :: st == POSTED ->                   /* the timeout may expire */
#if SEEDED_BUG != 1
              atomic {                          /* CAS POSTED -> IDLE */
                if
                :: slot[t] == POSTED -> slot[t] = IDLE; st = IDLE
                :: else -> skip
                fi
              }
#else
              if                                /* BUG: load, then store */
              :: slot[t] == POSTED -> slot[t] = IDLE; st = IDLE
              :: else -> skip
              fi
#endif
              if
              :: st == IDLE -> nreq--; break    /* fetch_sub: we moved it out of POSTED */
              :: else -> skip                   /* the victim took it: wait for the reply */
              fi
           :: st == POSTED -> skip              /* not yet: poll again */
           :: st == TAKEN -> (slot[t] != TAKEN) /* the victim is answering */
           fi
        od
     :: else -> skip
     fi
  :: else -> break
  od;
  thieves_done++
}
