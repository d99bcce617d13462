/* Steal requests: one slot per (victim, thief) pair, in the victim's worker.
 *
 * Slot life cycle (who writes each transition):
 *   IDLE --thief: post (release)--> POSTED
 *   POSTED --victim: CAS (acquire)--> TAKEN --victim: reply (release)--> OK | FAIL
 *   OK | FAIL --thief: consume (relaxed)--> IDLE
 *   POSTED --thief: CAS cancel after its timeout--> IDLE
 * The victim's pending counter (nreq) counts POSTED slots plus requests
 * about to be posted: the thief increments it before posting and whoever
 * moves the slot out of POSTED (victim's take or thief's cancel) decrements
 * it, exactly once. The victim's poll reads only nreq. */
#ifndef LIBADAPT_SRC_REQUEST_H
#define LIBADAPT_SRC_REQUEST_H

#include <stdatomic.h>
#include <stdint.h>
#include "config.h"

struct adapt__theft;

enum adapt__req_state {
  ADAPT__REQ_IDLE = 0,
  ADAPT__REQ_POSTED,
  ADAPT__REQ_TAKEN,
  ADAPT__REQ_OK,
  ADAPT__REQ_FAIL
};

typedef struct adapt__req {
  /* Written by the thief (post, cancel, consume) and the victim (take,
   * reply); one cache line per slot so that thieves do not share lines. */
  _Alignas(ADAPT_CACHE_LINE) atomic_int state;
  /* Written by the victim before its release store of OK; read by the thief
   * after its acquire load of OK. */
  struct adapt__theft *rec;
  /* Written by the victim before its release store of FAIL; read by the
   * thief after its acquire load of FAIL: the victim's has_work value when
   * its published frames refused the thief (`team` 1: every frame for a
   * worker limit, a full team the thief is not in; 0: its splitters had
   * nothing to split), else 0: no frame, or a spawned task at the head of
   * its deque that the thief takes next (idle.c). */
  int refused;
  int team;
} adapt__req;

#endif /* LIBADAPT_SRC_REQUEST_H */
