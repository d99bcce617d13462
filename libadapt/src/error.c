/* The last-error detail of each thread, and the error texts
 * (adapt_last_error, adapt_strerror). */
#include "error.h"

#include <adapt/adapt.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Longest detail kept, terminator included; longer ones are truncated. */
enum { DETAIL_MAX = 256 };

_Thread_local unsigned char adapt__error_pending ADAPT__TLS_FAST;
static _Thread_local char detail[DETAIL_MAX];
static _Thread_local char errno_buf[128];

int adapt__fail(int err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  adapt__error_pending = detail[0] != '\0';
  return err;
}

void adapt__error_reset(void) {
  detail[0] = '\0';
  adapt__error_pending = 0;
}

const char *adapt_last_error(void) { return adapt__error_pending ? detail : ""; }

const char *adapt__errno_text(int e) {
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
  return strerror_r(e, errno_buf, sizeof errno_buf); /* GNU: static or errno_buf */
#else
  if (strerror_r(e, errno_buf, sizeof errno_buf) != 0)
    snprintf(errno_buf, sizeof errno_buf, "error %d", e);
  return errno_buf;
#endif
}

const char *adapt_strerror(int err) {
  switch (err) {
  case 0: return "success";
  case -EINVAL: return "invalid argument, attribute or configuration (adapt_last_error names it)";
  case -ENOMEM: return "out of memory";
  case -EOVERFLOW: return "count * size overflows size_t";
  case -E2BIG: return "work descriptor larger than ADAPT_WORK_MAX";
  case -EBUSY:
    return "runtime busy: not allowed inside a parallel region, or a configuration different "
           "from the running one (adapt_finalize first)";
  case -EAGAIN: return "cannot create worker threads";
  case -ESRCH: return "runtime not running";
  case -ENODATA: return "no data (no steal latency sample)";
  case -ERANGE: return "value out of range (an op wrote more outputs than max_out)";
  case -ENODEV: return "hwloc cannot read the topology";
  case -ENOTSUP: return "not supported: this algorithm or window mode needs the adaptive scheduler";
  case -ENOSPC: return "deque full";
  case -EPROTO: return "internal protocol error in a sequence algorithm (a libadapt bug)";
  default:
    if (err > 0) return "not an error code (expected 0 or negative)";
    if (err == INT_MIN) return "unknown error code";
    return adapt__errno_text(-err);
  }
}
