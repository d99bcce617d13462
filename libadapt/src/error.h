/* The last-error detail of each thread (adapt_last_error): the message of
 * the last failed call, naming the function and the argument. Its interface
 * is shared with the sequence algorithms, so it is declared in the
 * extension header (adapt__fail, adapt__error_clear); this header adds the
 * runtime's helper for errno texts. */
#ifndef LIBADAPT_SRC_ERROR_H
#define LIBADAPT_SRC_ERROR_H

#include "../ext/adapt_ext.h"

/* Text of errno value e (positive) for adapt_strerror: static, or in a
 * thread-local buffer valid until the next call on this thread. Never NULL. */
const char *adapt__errno_text(int e);

#endif /* LIBADAPT_SRC_ERROR_H */
