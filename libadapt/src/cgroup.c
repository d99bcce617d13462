/* CPU bandwidth limit of the process's cgroups (cgroup.h). Reads
 * /proc/self/cgroup for the process's cgroup in each hierarchy,
 * /proc/self/mountinfo for where the hierarchies are mounted, then the
 * limit files of the cgroup and its ancestors. */
#include "cgroup.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Paths and lines: PATH_MAX covers any path the kernel prints; the sscanf
 * widths below spell it. */
enum { LINE_MAX_LEN = 2 * PATH_MAX + 256 };
_Static_assert(PATH_MAX == 4096, "the %4095s conversions of find_mount assume PATH_MAX 4096");

/* 1 if the comma-separated list has the token tok. */
static int has_token(const char *list, const char *tok) {
  size_t n = strlen(tok);
  for (const char *p = list; p && *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && strncmp(p, tok, n) == 0) return 1;
    p = e ? e + 1 : NULL;
  }
  return 0;
}

/* The process's cgroup path in hierarchy v2 (v1 == 0) or in v1's hierarchy
 * with the cpu controller (v1 == 1), into path. 0 found, -1 not. */
static int own_cgroup(const char *cgroup_file, int v1, char *path, size_t cap) {
  FILE *f = fopen(cgroup_file, "r");
  if (!f) return -1;
  char line[LINE_MAX_LEN];
  int rc = -1;
  while (rc && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2 || c2[1] != '/') continue;
    *c1 = *c2 = 0;
    int match = v1 ? has_token(c1 + 1, "cpu") : strcmp(line, "0") == 0 && c1[1] == 0;
    if (match && strlen(c2 + 1) < cap) {
      strcpy(path, c2 + 1);
      rc = 0;
    }
  }
  fclose(f);
  return rc;
}

/* The mount of hierarchy v2 (v1 == 0) or of v1's cpu hierarchy: its root
 * (the cgroup mounted there) and its mount point. 0 found, -1 not. */
static int find_mount(const char *mountinfo_file, int v1, char *root, char *point, size_t cap) {
  FILE *f = fopen(mountinfo_file, "r");
  if (!f) return -1;
  char line[LINE_MAX_LEN];
  int rc = -1;
  while (rc && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    /* ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER */
    char *sep = strstr(line, " - ");
    if (!sep) continue;
    *sep = 0;
    char fstype[32], super[512], r[PATH_MAX], p[PATH_MAX];
    if (sscanf(sep + 3, "%31s %*s %511s", fstype, super) != 2) continue;
    if (sscanf(line, "%*s %*s %*s %4095s %4095s", r, p) != 2) continue;
    int match = v1 ? strcmp(fstype, "cgroup") == 0 && has_token(super, "cpu")
                   : strcmp(fstype, "cgroup2") == 0;
    if (match && strlen(r) < cap && strlen(p) < cap) {
      strcpy(root, r);
      strcpy(point, p);
      rc = 0;
    }
  }
  fclose(f);
  return rc;
}

/* One number, or two ("max" reads as -1), from the start of a file. The
 * count read; 0 when the file is missing or starts with something else. */
static int read_pair(const char *file, long long *a, long long *b) {
  FILE *f = fopen(file, "r");
  if (!f) return 0;
  char buf[128] = "";
  int n = 0;
  if (fgets(buf, sizeof buf, f)) {
    char *p = buf, *end;
    for (; n < 2; n++) {
      while (*p == ' ') p++;
      long long v;
      if (strncmp(p, "max", 3) == 0) {
        v = -1;
        end = p + 3;
      } else {
        v = strtoll(p, &end, 10);
        if (end == p) break;
      }
      *(n == 0 ? a : b) = v;
      p = end;
    }
  }
  fclose(f);
  return n;
}

/* CPUs the limit of the cgroup directory dir allows (rounded up), 0 none. */
static int dir_limit(const char *dir, int v1) {
  char file[PATH_MAX + 32];
  long long quota = -1, period = 0, x;
  if (v1) {
    snprintf(file, sizeof file, "%s/cpu.cfs_quota_us", dir);
    if (read_pair(file, &quota, &x) < 1) return 0;
    snprintf(file, sizeof file, "%s/cpu.cfs_period_us", dir);
    if (read_pair(file, &period, &x) < 1) return 0;
  } else {
    snprintf(file, sizeof file, "%s/cpu.max", dir);
    if (read_pair(file, &quota, &period) < 2) return 0;
  }
  if (quota <= 0 || period <= 0) return 0;
  long long cpus = quota / period + (quota % period != 0); /* no overflow near LLONG_MAX */
  return cpus > INT_MAX ? INT_MAX : (int)cpus;
}

/* The smallest limit over the process's cgroup in one hierarchy and its
 * ancestors up to the mount, 0 none. */
static int hierarchy_limit(const char *cgroup_file, const char *mountinfo_file, const char *prefix,
                           int v1) {
  char cg[PATH_MAX], root[PATH_MAX], point[PATH_MAX];
  if (own_cgroup(cgroup_file, v1, cg, sizeof cg) ||
      find_mount(mountinfo_file, v1, root, point, sizeof root))
    return 0;
  /* The cgroup relative to the mounted one: "/" mounts every cgroup. */
  const char *rel = cg;
  size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
  if (rl) {
    if (strncmp(cg, root, rl) != 0 || (cg[rl] != 0 && cg[rl] != '/')) return 0;
    rel = cg + rl;
  }
  char dir[PATH_MAX];
  if ((size_t)snprintf(dir, sizeof dir, "%s%s%s", prefix, point, rel) >= sizeof dir) return 0;
  size_t base = strlen(prefix) + strlen(point);
  int best = 0;
  for (;;) {
    size_t len = strlen(dir);
    while (len > base && dir[len - 1] == '/') dir[--len] = 0;
    int l = dir_limit(dir, v1);
    if (l && (!best || l < best)) best = l;
    if (len <= base) break;
    char *slash = strrchr(dir, '/');
    if (!slash || (size_t)(slash - dir) < base) break;
    *slash = 0;
  }
  return best;
}

int adapt__cgroup_cpu_limit(const char *cgroup_file, const char *mountinfo_file,
                            const char *prefix) {
  int a = hierarchy_limit(cgroup_file, mountinfo_file, prefix, 0);
  int b = hierarchy_limit(cgroup_file, mountinfo_file, prefix, 1);
  return !a ? b : !b ? a : a < b ? a : b;
}
