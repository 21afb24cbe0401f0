/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hardware and software counters through perf_event_open(2), libperf style:
 * one event, a group of events read together, and the counter set the guest
 * runner measures each region with (one group per privilege mode).  Plain C
 * on the kernel's <linux/perf_event.h>, no library: the same file is built
 * into the static i386 guest runner and into libkbench, so the host unit
 * tests run exactly the code the guest runs.
 *
 * File descriptors start at -1; functions return 0 or a negative errno.
 */
#ifndef KB_COUNTERS_H
#define KB_COUNTERS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

/* One reading: the count, and how long the event was enabled and how long
 * it really counted (run < ena when the PMU multiplexed it). */
struct kb_perf_count {
	uint64_t val, ena, run;
};

/* val scaled up to the whole enabled time (val * ena / run); 0 if it never ran. */
uint64_t kb_perf_count_scaled(const struct kb_perf_count *c);
/* after - before, field by field: the reading of a region. */
struct kb_perf_count kb_perf_count_delta(const struct kb_perf_count *after,
					 const struct kb_perf_count *before);

/* A countable event under perf's own name, and the short key of record fields. */
struct kb_perf_desc {
	const char *label;	/* perf's name, as `perf stat -e` takes it */
	const char *key;	/* record field stem, e.g. "l1i" for l1i_k and l1i_u */
	uint32_t type;		/* PERF_TYPE_* */
	uint64_t config;
};

/* The guest's events: cycles, instructions, L1-icache-load-misses,
 * iTLB-load-misses, branch-misses. */
extern const struct kb_perf_desc kb_perf_hw_events[];
extern const size_t kb_perf_n_hw_events;
/* Software events, countable wherever perf_event_open works at all:
 * page-faults, context-switches, task-clock.  task-clock comes last because
 * it must not lead a group: on Linux 6.18 (seen here), a self-monitoring
 * group led by task-clock and enabled by ioctl starts counting its other
 * software members only at the task's next context switch, so a region
 * that never sleeps loses part or all of them (0 to 86% of 1024 page
 * faults counted in 250 of 300 tries; none lost with page-faults leading,
 * nor after a 1 ms sleep right after the enable).  perf stat does not show
 * it: it enables its events at exec. */
extern const struct kb_perf_desc kb_perf_sw_events[];
extern const size_t kb_perf_n_sw_events;
/* Either table's entry by label, or NULL. */
const struct kb_perf_desc *kb_perf_desc_find(const char *label);

enum kb_perf_mode {
	KB_PERF_ALL,		/* kernel and user */
	KB_PERF_KERNEL,		/* exclude_user */
	KB_PERF_USER,		/* exclude_kernel */
};

/* One event. */
struct kb_perf_event {
	struct perf_event_attr attr;
	const struct kb_perf_desc *desc;
	enum kb_perf_mode mode;
	int fd;			/* -1 while closed */
};

/* Attributes for counting desc in mode, created disabled, inherited by
 * children forked after the open (a workload's helper processes count). */
void kb_perf_event_init(struct kb_perf_event *ev, const struct kb_perf_desc *desc,
			enum kb_perf_mode mode);
/* perf_event_open(pid, cpu, group_fd); 0 or -errno. */
int kb_perf_event_open(struct kb_perf_event *ev, pid_t pid, int cpu, int group_fd);
int kb_perf_event_enable(struct kb_perf_event *ev);
int kb_perf_event_disable(struct kb_perf_event *ev);
/* An event opened on its own (not as a group member). */
int kb_perf_event_read(struct kb_perf_event *ev, struct kb_perf_count *c);
void kb_perf_event_close(struct kb_perf_event *ev);

/* Events the PMU schedules together: one leader, read in one read(2) that
 * returns every value with the group's ena and run. */
#define KB_PERF_GROUP_MAX	8

struct kb_perf_group {
	struct kb_perf_event ev[KB_PERF_GROUP_MAX];
	unsigned n;
	int failed;		/* after a failed open: the event that failed, else -1 */
};

void kb_perf_group_init(struct kb_perf_group *g);
/* -ENOSPC when full, -EBUSY once opened. */
int kb_perf_group_add(struct kb_perf_group *g, const struct kb_perf_desc *desc,
		      enum kb_perf_mode mode);
/* All events or none: on failure every fd is closed again and g->failed
 * names the event that could not be opened. */
int kb_perf_group_open(struct kb_perf_group *g, pid_t pid, int cpu);
int kb_perf_group_enable(struct kb_perf_group *g);
int kb_perf_group_disable(struct kb_perf_group *g);
/* out[i] for g->ev[i]; every entry has the group's ena and run. */
int kb_perf_group_read(struct kb_perf_group *g, struct kb_perf_count *out);
void kb_perf_group_close(struct kb_perf_group *g);

/*
 * The guest runner's counter set: a table of events counted for the kernel
 * and for user space, as one group per mode.  Two groups of five fit a PMU
 * that cannot hold ten events at once; the kernel then multiplexes the two
 * and ena/run say by how much.
 */
#define KB_COUNTERS_MAX		KB_PERF_GROUP_MAX
#define KB_COUNTERS_MODES	2	/* [0] kernel, [1] user */

struct kb_counters {
	struct kb_perf_group group[KB_COUNTERS_MODES];
	size_t n;			/* events per group */
	struct kb_perf_count start[KB_COUNTERS_MODES][KB_COUNTERS_MAX];
	struct kb_perf_count region[KB_COUNTERS_MODES][KB_COUNTERS_MAX];
	char why[48];			/* after a failure: what failed, e.g. "open:cycles" */
};

/* Open events[0..n) for kernel and for user; 0, or -errno with c->why
 * set and nothing left open. */
int kb_counters_open(struct kb_counters *c, const struct kb_perf_desc *events, size_t n,
		     pid_t pid, int cpu);
/* Same, with flags: KB_COUNTERS_GUEST_ONLY counts only while the task runs
 * a KVM guest (exclude_host; kernel and user then mean the guest's). */
#define KB_COUNTERS_GUEST_ONLY	1u
int kb_counters_open_flags(struct kb_counters *c, const struct kb_perf_desc *events, size_t n,
			   pid_t pid, int cpu, unsigned flags);
/* A region: read the start values, enable; disable, read, keep the
 * difference in c->region. */
int kb_counters_start(struct kb_counters *c);
int kb_counters_stop(struct kb_counters *c);
/* The last region's value of events[i] in mode (0 kernel, 1 user), scaled. */
uint64_t kb_counters_value(const struct kb_counters *c, int mode, size_t i);
/* Per mille of the last region during which mode's group really counted. */
unsigned kb_counters_permille(const struct kb_counters *c, int mode);
/*
 * Counting really works: a loop of 2 * loops user instructions must read back
 * within 10 % from the event labelled "instructions".  0 with the count in
 * *got; -ENOENT without that event; -ERANGE when the count is off.
 */
int kb_counters_check(struct kb_counters *c, unsigned long loops, uint64_t *got);
void kb_counters_close(struct kb_counters *c);

#endif
