/* tests/soak: resources of the process between the soak's cycles (see
 * soak_resources.h). */
#include "soak_resources.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The value of the "Threads:" line of /proc/self/status, -1 if none. */
static long read_threads(void) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long n = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "Threads: %ld", &n) == 1) break;
  fclose(f);
  return n;
}

/* Entries of /proc/self/fd but the directory's own descriptor, -1 if
 * unreadable. */
static long count_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  long n = 0;
  const struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n - 1;
}

void soak_resources_sample(soak_resources *out) {
  long pages = -1, resident = -1;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
  }
  out->rss_kb = resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
  out->threads = read_threads();
  out->fds = count_fds();
}

int soak_resources_check(const soak_resources *base, const soak_resources *now, int check_rss) {
  const long rss_cap = base->rss_kb + base->rss_kb / 2 + 32 * 1024;
  const int rss_bad = check_rss && base->rss_kb >= 0 && now->rss_kb > rss_cap;
  const int thr_bad = now->threads != base->threads;
  const int fd_bad = now->fds != base->fds;
  printf("soak: resources: RSS %ld -> %ld KiB%s, threads %ld -> %ld%s, fds %ld -> %ld%s: %s\n",
         base->rss_kb, now->rss_kb, rss_bad ? " (GREW)" : "", base->threads, now->threads,
         thr_bad ? " (GREW)" : "", base->fds, now->fds, fd_bad ? " (GREW)" : "",
         rss_bad || thr_bad || fd_bad ? "FAILED" : "ok");
  fflush(stdout);
  return rss_bad || thr_bad || fd_bad;
}
