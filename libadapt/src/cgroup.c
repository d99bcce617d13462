/* CPU bandwidth limit of the process's cgroups (cgroup.h). Reads
 * /proc/self/cgroup for the process's cgroup in each hierarchy,
 * /proc/self/mountinfo for where the hierarchies are mounted, then the
 * limit files of the cgroup and its ancestors.
 *
 * Lines are read into a growing heap buffer and paths live in one heap
 * block per hierarchy, so the stack use stays small: the runtime may start
 * lazily on a user thread with a small stack. (Not getline: its buffer
 * comes from inside libc, out of reach of an allocator interposed at link
 * time, which tests/fault does.) */
#include "cgroup.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* One line of f, with its newline, into *buf (realloc'd, *cap bytes); its
 * length, or -1 at the end of the file or when memory runs out. */
static long read_line(FILE *f, char **buf, size_t *cap) {
  size_t len = 0;
  for (;;) {
    if (!*buf || *cap - len < 2) {
      size_t nc = *cap ? 2 * *cap : 256;
      char *nb = realloc(*buf, nc);
      if (!nb) return -1;
      *buf = nb;
      *cap = nc;
    }
    if (!fgets(*buf + len, (int)(*cap - len < INT_MAX ? *cap - len : INT_MAX), f))
      return len ? (long)len : -1;
    len += strlen(*buf + len);
    if (len && (*buf)[len - 1] == '\n') return (long)len;
  }
}

/* Cuts s in place into its space-separated fields, at most max of them
 * into f; the number of fields stored. */
static int split(char *s, char **f, int max) {
  int n = 0;
  while (n < max) {
    while (*s == ' ') s++;
    if (!*s) break;
    f[n++] = s;
    s += strcspn(s, " ");
    if (!*s) break;
    *s++ = 0;
  }
  return n;
}

/* Undoes mountinfo's escapes in place: the kernel writes a space, tab,
 * newline or backslash of a path as a backslash and three octal digits. */
static void unescape(char *s) {
  char *o = s;
  for (const char *p = s; *p; o++) {
    if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' && p[3] >= '0' &&
        p[3] <= '7') {
      *o = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
      p += 4;
    } else {
      *o = *p++;
    }
  }
  *o = 0;
}

/* The paths of one hierarchy, on the heap. */
struct paths {
  char cg[PATH_MAX];    /* the process's cgroup, as /proc/self/cgroup names it */
  char root[PATH_MAX];  /* the cgroup a mount shows at its mount point */
  char point[PATH_MAX]; /* that mount point */
  char dir[PATH_MAX];   /* prefix + point + the cgroup below root, then its ancestors */
  char file[PATH_MAX];  /* a limit file of dir */
};

/* The process's cgroup path in hierarchy v2 (v1 == 0) or in v1's hierarchy
 * with the cpu controller (v1 == 1), into ps->cg. 0 found, -1 not. */
static int own_cgroup(const char *cgroup_file, int v1, struct paths *ps) {
  FILE *f = fopen(cgroup_file, "r");
  if (!f) return -1;
  char *line = NULL;
  size_t cap = 0;
  int rc = -1;
  while (rc && read_line(f, &line, &cap) > 0) {
    line[strcspn(line, "\n")] = 0;
    char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2 || c2[1] != '/') continue;
    *c1 = *c2 = 0;
    int match = v1 ? has_token(c1 + 1, "cpu") : strcmp(line, "0") == 0 && c1[1] == 0;
    if (match && strlen(c2 + 1) < sizeof ps->cg) {
      strcpy(ps->cg, c2 + 1);
      rc = 0;
    }
  }
  free(line);
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

/* CPUs the limit of the cgroup directory ps->dir allows (rounded up), 0
 * none (or a path too long to read). */
static int dir_limit(struct paths *ps, int v1) {
  long long quota = -1, period = 0, x;
  const size_t cap = sizeof ps->file;
  if (v1) {
    if ((size_t)snprintf(ps->file, cap, "%s/cpu.cfs_quota_us", ps->dir) >= cap ||
        read_pair(ps->file, &quota, &x) < 1)
      return 0;
    if ((size_t)snprintf(ps->file, cap, "%s/cpu.cfs_period_us", ps->dir) >= cap ||
        read_pair(ps->file, &period, &x) < 1)
      return 0;
  } else {
    if ((size_t)snprintf(ps->file, cap, "%s/cpu.max", ps->dir) >= cap ||
        read_pair(ps->file, &quota, &period) < 2)
      return 0;
  }
  if (quota <= 0 || period <= 0) return 0;
  long long cpus = quota / period + (quota % period != 0); /* no overflow near LLONG_MAX */
  return cpus > INT_MAX ? INT_MAX : (int)cpus;
}

/* The smallest limit over ps->cg and its ancestors up to the mount of
 * ps->root at ps->point; -1 when that mount does not show ps->cg (it
 * mounts another part of the hierarchy), else the limit, 0 none. */
static int mount_limit(struct paths *ps, const char *prefix, int v1) {
  /* The cgroup relative to the mounted one: "/" mounts every cgroup. */
  const char *rel = ps->cg;
  size_t rl = strcmp(ps->root, "/") == 0 ? 0 : strlen(ps->root);
  if (rl) {
    if (strncmp(ps->cg, ps->root, rl) != 0 || (ps->cg[rl] != 0 && ps->cg[rl] != '/')) return -1;
    rel = ps->cg + rl;
  }
  if ((size_t)snprintf(ps->dir, sizeof ps->dir, "%s%s%s", prefix, ps->point, rel) >= sizeof ps->dir)
    return 0;
  size_t base = strlen(prefix) + strlen(ps->point);
  int best = 0;
  for (;;) {
    size_t len = strlen(ps->dir);
    while (len > base && ps->dir[len - 1] == '/') ps->dir[--len] = 0;
    int l = dir_limit(ps, v1);
    if (l && (!best || l < best)) best = l;
    if (len <= base) break;
    char *slash = strrchr(ps->dir, '/');
    if (!slash || (size_t)(slash - ps->dir) < base) break;
    *slash = 0;
  }
  return best;
}

/* The limit in hierarchy v2 (v1 == 0) or in v1's cpu hierarchy, through
 * the first of its mounts that shows the process's cgroup (a hierarchy may
 * be mounted several times, e.g. bind mounts of parts of it); 0 none. */
static int hierarchy_limit(const char *cgroup_file, const char *mountinfo_file, const char *prefix,
                           int v1) {
  struct paths *ps = malloc(sizeof *ps);
  if (!ps) return 0;
  FILE *f = NULL;
  char *line = NULL;
  size_t cap = 0;
  int rc = -1;
  if (own_cgroup(cgroup_file, v1, ps) || !(f = fopen(mountinfo_file, "r"))) goto out;
  while (rc < 0 && read_line(f, &line, &cap) > 0) {
    line[strcspn(line, "\n")] = 0;
    /* ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER */
    char *sep = strstr(line, " - ");
    if (!sep) continue;
    *sep = 0;
    char *head[5], *tail[3];
    if (split(sep + 3, tail, 3) < 3 || split(line, head, 5) < 5) continue;
    int match = v1 ? strcmp(tail[0], "cgroup") == 0 && has_token(tail[2], "cpu")
                   : strcmp(tail[0], "cgroup2") == 0;
    const char *root = head[3], *point = head[4];
    if (!match || strlen(root) >= sizeof ps->root || strlen(point) >= sizeof ps->point) continue;
    strcpy(ps->root, root);
    strcpy(ps->point, point);
    unescape(ps->root);
    unescape(ps->point);
    rc = mount_limit(ps, prefix, v1);
  }
out:
  free(line);
  if (f) fclose(f);
  free(ps);
  return rc < 0 ? 0 : rc;
}

int adapt__cgroup_cpu_limit(const char *cgroup_file, const char *mountinfo_file,
                            const char *prefix) {
  int a = hierarchy_limit(cgroup_file, mountinfo_file, prefix, 0);
  int b = hierarchy_limit(cgroup_file, mountinfo_file, prefix, 1);
  return !a ? b : !b ? a : a < b ? a : b;
}
