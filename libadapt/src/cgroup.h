/* The CPU bandwidth limit of the process's control groups (a container's
 * --cpus, a systemd CPUQuota=, a Kubernetes CPU limit): the CPUs it allows,
 * which bound the default worker count as the affinity mask does. */
#ifndef LIBADAPT_SRC_CGROUP_H
#define LIBADAPT_SRC_CGROUP_H

/* CPUs that the CPU bandwidth limit of the cgroups listed in cgroup_file
 * allows, rounded up: the smallest quota / period over each cgroup and its
 * ancestors up to its hierarchy's mount (cgroup v2: cpu.max; v1, the
 * hierarchy with the cpu controller: cpu.cfs_quota_us and
 * cpu.cfs_period_us), the smaller of v1's and v2's when both limit. A
 * hierarchy mounted several times is read through the first mount that
 * shows the process's cgroup; mountinfo's octal escapes (\040 for a space)
 * are undone.
 * cgroup_file and mountinfo_file are normally /proc/self/cgroup and
 * /proc/self/mountinfo; prefix ("" normally) is put before every mount
 * point read from mountinfo_file (tests build a tree elsewhere). 0: no
 * limit, or nothing could be read (a missing or malformed file is no
 * limit). Memory: lines and paths on the heap, freed before it returns,
 * so that a lazy start on a small-stack thread fits (test_cgroup runs it
 * on a 32 KiB stack); an allocation failure reads as no limit. */
int adapt__cgroup_cpu_limit(const char *cgroup_file, const char *mountinfo_file,
                            const char *prefix);

#endif /* LIBADAPT_SRC_CGROUP_H */
