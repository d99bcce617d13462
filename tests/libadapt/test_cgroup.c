/* The cgroups' CPU bandwidth limit (cgroup.c), white-box: fake
 * /proc/self/cgroup, /proc/self/mountinfo and cgroup trees in a temporary
 * directory, for cgroup v2 (cpu.max) and v1 (cpu.cfs_quota_us and
 * cpu.cfs_period_us): the limit rounded up, the smallest over the
 * ancestors, "max" and -1 as no limit, a container's namespaced root, both
 * versions at once, a hierarchy mounted several times, escaped mount
 * points, very long lines, a caller with a small stack, and malformed or
 * missing files read as no limit. Then
 * the running process: whatever its cgroups say, the default worker count
 * never exceeds it. */
#include <adapt/adapt.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapt_test.h" /* cmocka */

#include "../../libadapt/src/cgroup.h" /* white-box */

static char dir[64];

/* Writes text to the file dir/rel, creating its directories. */
static void put(const char *rel, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
    *p = 0;
    assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
    *p = '/';
  }
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* Writes the fake /proc/self/mountinfo and /proc/self/cgroup. */
static void put_proc(const char *mountinfo, const char *cgroup) {
  put("mountinfo", mountinfo);
  put("cgroup", cgroup);
}

/* Writes a v1 cgroup's cpu.cfs_quota_us and cpu.cfs_period_us in dir/cg. */
static void put_cfs(const char *cg, const char *quota, const char *period) {
  char rel[256];
  snprintf(rel, sizeof rel, "%s/cpu.cfs_quota_us", cg);
  put(rel, quota);
  snprintf(rel, sizeof rel, "%s/cpu.cfs_period_us", cg);
  put(rel, period);
}

/* The limit with the fake files of dir. */
static int limit(void) {
  char cg[128], mi[128];
  snprintf(cg, sizeof cg, "%s/cgroup", dir);
  snprintf(mi, sizeof mi, "%s/mountinfo", dir);
  return adapt__cgroup_cpu_limit(cg, mi, dir);
}

/* Writes text to dir/rel (put), then checks that the limit is want. */
static void put_expect(const char *rel, const char *text, int want) {
  put(rel, text);
  const int got = limit();
  if (got != want) fail_msg("after %s <- \"%s\": limit %d, want %d", rel, text, got, want);
}

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/adapt-cgroup-XXXXXX");
  return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

#define V2_MOUNT "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
#define V1_MOUNT                                                                                   \
  "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct\n"

static void test_v2(void **state) {
  (void)state;
  put_proc("22 1 8:1 / / rw - ext4 /dev/sda1 rw\n" V2_MOUNT, "0::/app.slice/job.service\n");
  assert_int_equal(limit(), 0); /* no cpu.max anywhere */
  put_expect("sys/fs/cgroup/app.slice/job.service/cpu.max", "max 100000\n", 0);
  /* 1.5 CPUs, rounded up */
  put_expect("sys/fs/cgroup/app.slice/job.service/cpu.max", "150000 100000\n", 2);
  put_expect("sys/fs/cgroup/app.slice/job.service/cpu.max", "100000 100000\n", 1);
  /* The smallest over the ancestors. */
  put("sys/fs/cgroup/app.slice/job.service/cpu.max", "max 100000\n");
  put_expect("sys/fs/cgroup/app.slice/cpu.max", "300000 100000\n", 3);
  put_expect("sys/fs/cgroup/app.slice/job.service/cpu.max", "50000 25000\n", 2);
}

static void test_v1(void **state) {
  (void)state;
  put_proc(V1_MOUNT "33 31 0:30 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n",
           "5:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n");
  put_cfs("sys/fs/cgroup/cpu,cpuacct/docker/abc", "-1\n", "100000\n");
  assert_int_equal(limit(), 0);
  put_expect("sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "250000\n", 3);
  put_cfs("sys/fs/cgroup/cpu,cpuacct/docker", "100000\n", "100000\n");
  assert_int_equal(limit(), 1);
}

/* A container: its cgroup namespace mounts its own cgroup at the mount
 * point, whose root field names it. */
static void test_namespaced_root(void **state) {
  (void)state;
  put_proc("30 23 0:26 /kubepods/pod1/c1 /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n",
           "0::/kubepods/pod1/c1\n");
  put_expect("sys/fs/cgroup/cpu.max", "200000 100000\n", 2);
  /* A cgroup outside the mounted one: no file of it can be read. */
  put_expect("cgroup", "0::/elsewhere\n", 0);
}

static void test_both_versions(void **state) {
  (void)state;
  put_proc(V2_MOUNT V1_MOUNT, "4:cpu,cpuacct:/a\n0::/b\n");
  put("sys/fs/cgroup/b/cpu.max", "400000 100000\n");
  put_cfs("sys/fs/cgroup/cpu,cpuacct/a", "200000\n", "100000\n");
  assert_int_equal(limit(), 2);
  put_expect("sys/fs/cgroup/cpu,cpuacct/a/cpu.cfs_quota_us", "-1\n", 4);
}

/* The same v1 hierarchy mounted twice: a bind mount of another cgroup
 * first, then the whole hierarchy. The limit comes through the mount that
 * shows the process's cgroup, whichever comes first in mountinfo. */
static void test_several_mounts(void **state) {
  (void)state;
  put("cgroup", "4:cpu,cpuacct:/job\n");
  put_cfs("elsewhere", "100000\n", "100000\n");
  put_cfs("sys/fs/cgroup/cpu/job", "300000\n", "100000\n");
  put("mountinfo", "40 23 0:29 /other /elsewhere rw - cgroup cgroup rw,cpu\n"
                   "41 23 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
  assert_int_equal(limit(), 3);
  /* A bind mount of the process's own cgroup, first: read through it. */
  put_cfs("bound", "200000\n", "100000\n");
  put("mountinfo", "40 23 0:29 /job /bound rw - cgroup cgroup rw,cpu\n"
                   "41 23 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
  assert_int_equal(limit(), 2);
}

/* mountinfo writes a space in a path as \040, a backslash as \134. */
static void test_escaped_point(void **state) {
  (void)state;
  put("cgroup", "0::/a b\n");
  put("my cg\\root/a b/cpu.max", "300000 100000\n");
  put_expect("mountinfo", "30 23 0:26 / /my\\040cg\\134root rw - cgroup2 cgroup2 rw\n", 3);
}

/* Lines longer than any fixed buffer (a mount with many options, a deep
 * cgroup path) are read whole. */
static void test_long_lines(void **state) {
  (void)state;
  size_t n = 20000;
  char *mi = malloc(n + 256);
  assert_non_null(mi);
  char *p = mi + sprintf(mi, "29 23 0:40 / /opt rw - tmpfs tmpfs rw");
  for (size_t i = 0; i < n / 8; i++) p += sprintf(p, ",opt%04zu", i % 10000);
  sprintf(p, "\n%s", V2_MOUNT);
  put("mountinfo", mi);
  free(mi);
  char cg[600] = "0::";
  for (int i = 0; i < 20; i++) strcat(cg, "/level-of-a-deep-tree");
  strcat(cg, "\n");
  put("cgroup", cg);
  char file[700];
  snprintf(file, sizeof file, "sys/fs/cgroup%s", cg + 3);
  file[strcspn(file, "\n")] = 0;
  strcat(file, "/cpu.max");
  put(file, "500000 100000\n");
  assert_int_equal(limit(), 5);
}

static void *limit_thread(void *out) {
  *(int *)out = limit();
  return NULL;
}

/* The runtime may start lazily on a user thread with a small stack: the
 * reader fits in 32 KiB (it used about 33 KiB before its buffers moved to
 * the heap). */
static void test_small_stack(void **state) {
  (void)state;
  put_proc(V2_MOUNT, "0::/s\n");
  put("sys/fs/cgroup/s/cpu.max", "700000 100000\n");
  pthread_attr_t a;
  pthread_t t;
  int got = -1;
  assert_int_equal(pthread_attr_init(&a), 0);
  assert_int_equal(pthread_attr_setstacksize(&a, 32768), 0);
  assert_int_equal(pthread_create(&t, &a, limit_thread, &got), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
  pthread_attr_destroy(&a);
  assert_int_equal(got, 7);
}

static void test_malformed(void **state) {
  (void)state;
  assert_int_equal(limit(), 0); /* no files at all */
  put_proc("garbage\n\n - \n30 23 0:26 / /sys/fs/cgroup rw\n" V2_MOUNT,
           "nonsense\n0:/x\n::\n0::relative\n0::/x\n");
  put_expect("sys/fs/cgroup/x/cpu.max", "lots 100000\n", 0);
  put_expect("sys/fs/cgroup/x/cpu.max", "100000 0\n", 0);
  put_expect("sys/fs/cgroup/x/cpu.max", "100000\n", 0);
  put_expect("sys/fs/cgroup/x/cpu.max", "", 0);
  put_expect("sys/fs/cgroup/x/cpu.max", "999999999999999999 1\n", 2147483647);
  put_expect("sys/fs/cgroup/x/cpu.max", "9223372036854775807 100000\n", 2147483647);
  /* the well-formed lines still count */
  put_expect("sys/fs/cgroup/x/cpu.max", "100000 100000\n", 1);
}

/* This process: the default worker count is at most the limit its cgroups
 * set, and at most the CPUs of its affinity mask. */
static void test_this_process(void **state) {
  (void)state;
  unsetenv("ADAPT_WORKERS");
  int lim = adapt__cgroup_cpu_limit("/proc/self/cgroup", "/proc/self/mountinfo", "");
  assert_true(lim >= 0);
  cpu_set_t s;
  assert_int_equal(sched_getaffinity(0, sizeof s, &s), 0);
  int want = CPU_COUNT(&s);
  if (lim > 0 && lim < want) want = lim;
  assert_int_equal(adapt_init(NULL), 0);
  assert_int_equal(adapt_num_workers(), want < 256 ? want : 256);
}

/* Each test on a fresh temporary directory. */
#define CGROUP_TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      CGROUP_TEST(test_v2),
      CGROUP_TEST(test_v1),
      CGROUP_TEST(test_namespaced_root),
      CGROUP_TEST(test_both_versions),
      CGROUP_TEST(test_several_mounts),
      CGROUP_TEST(test_escaped_point),
      CGROUP_TEST(test_long_lines),
      CGROUP_TEST(test_small_stack),
      CGROUP_TEST(test_malformed),
      ADAPT_TEST(test_this_process),
  };
  return adapt_test_run("cgroup", tests);
}
