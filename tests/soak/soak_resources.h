/* tests/soak: the process's resources sampled between the soak's cycles
 * (the runtime stopped), to see growth over a long run: resident memory,
 * threads, open file descriptors (Linux /proc/self). */
#ifndef TESTS_SOAK_SOAK_RESOURCES_H
#define TESTS_SOAK_SOAK_RESOURCES_H

typedef struct soak_resources {
  long rss_kb;  /* resident set, KiB; -1 unknown */
  long threads; /* threads of the process; -1 unknown */
  long fds;     /* open file descriptors; -1 unknown */
} soak_resources;

/* Sample the calling process into *out (a field it cannot read is -1).
 * Any thread; reads /proc/self only. */
void soak_resources_sample(soak_resources *out);

/* 0 if `now` shows no growth over `base` (same threads and descriptors,
 * and with check_rss a resident set within 50% + 32 MiB of the base:
 * allocators keep some memory; ASan's quarantine keeps up to 256 MiB, so
 * the sanitizer variants pass 0), else 1; prints one line
 * "soak: resources ..." to stdout either way, naming what grew. */
int soak_resources_check(const soak_resources *base, const soak_resources *now, int check_rss);

#endif /* TESTS_SOAK_SOAK_RESOURCES_H */
