/* The one extension header of libadapt: what the sequence algorithms
 * (algorithms/, linked into the same library) need from the runtime beyond
 * the public headers. Not installed; the build gives -Ilibadapt/ext to the
 * runtime and to algorithms/ only (docs/design.md, "Layers"). Symbols
 * declared here are hidden in libadapt.so. */
#ifndef LIBADAPT_EXT_ADAPT_EXT_H
#define LIBADAPT_EXT_ADAPT_EXT_H

#include <adapt/loop.h>

/* The scheduler a call with attribute value s uses: s, or for
 * ADAPT_SCHED_DEFAULT the ADAPT_SCHED value read by adapt_init (starts the
 * runtime if needed). 0, or adapt_init's error. Any thread. */
int adapt__sched_resolve(adapt_sched s, adapt_sched *out);

#endif /* LIBADAPT_EXT_ADAPT_EXT_H */
