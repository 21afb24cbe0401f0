// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counters through perf_event_open(2): see counters.h.  Built twice, into the
 * static i386 guest runner and into libkbench, so it uses nothing but libc.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters.h"

#define HW_CACHE(cache, op, result) \
	((PERF_COUNT_HW_CACHE_##cache) | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
	 (PERF_COUNT_HW_CACHE_RESULT_##result << 16))

const struct kb_perf_desc kb_perf_hw_events[] = {
	{ "cycles", "cyc", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", "ins", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "L1-icache-load-misses", "l1i", PERF_TYPE_HW_CACHE, HW_CACHE(L1I, READ, MISS) },
	{ "iTLB-load-misses", "itlb", PERF_TYPE_HW_CACHE, HW_CACHE(ITLB, READ, MISS) },
	{ "branch-misses", "brm", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
};
const size_t kb_perf_n_hw_events = sizeof(kb_perf_hw_events) / sizeof(kb_perf_hw_events[0]);

/* task-clock last: it must not lead a group (counters.h) */
const struct kb_perf_desc kb_perf_sw_events[] = {
	{ "page-faults", "pf", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "task-clock", "tclk", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
};
const size_t kb_perf_n_sw_events = sizeof(kb_perf_sw_events) / sizeof(kb_perf_sw_events[0]);

const struct kb_perf_desc *kb_perf_desc_find(const char *label)
{
	for (size_t i = 0; i < kb_perf_n_hw_events; i++)
		if (!strcmp(kb_perf_hw_events[i].label, label))
			return &kb_perf_hw_events[i];
	for (size_t i = 0; i < kb_perf_n_sw_events; i++)
		if (!strcmp(kb_perf_sw_events[i].label, label))
			return &kb_perf_sw_events[i];
	return NULL;
}

uint64_t kb_perf_count_scaled(const struct kb_perf_count *c)
{
	if (!c->run)
		return 0;
	if (c->run >= c->ena)
		return c->val;
	/* val * ena / run without overflowing for long regions */
	return (uint64_t)((long double)c->val * (long double)c->ena / (long double)c->run + 0.5L);
}

struct kb_perf_count kb_perf_count_delta(const struct kb_perf_count *after,
					 const struct kb_perf_count *before)
{
	struct kb_perf_count d = {
		after->val - before->val, after->ena - before->ena, after->run - before->run,
	};

	return d;
}

/* ---- one event ---- */

void kb_perf_event_init(struct kb_perf_event *ev, const struct kb_perf_desc *desc,
			enum kb_perf_mode mode)
{
	memset(ev, 0, sizeof(*ev));
	ev->desc = desc;
	ev->mode = mode;
	ev->fd = -1;
	ev->attr.size = sizeof(ev->attr);
	ev->attr.type = desc->type;
	ev->attr.config = desc->config;
	ev->attr.disabled = 1;
	ev->attr.inherit = 1;
	ev->attr.exclude_hv = 1;
	ev->attr.exclude_user = mode == KB_PERF_KERNEL;
	ev->attr.exclude_kernel = mode == KB_PERF_USER;
	ev->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
}

int kb_perf_event_open(struct kb_perf_event *ev, pid_t pid, int cpu, int group_fd)
{
	long fd;

	if (ev->fd >= 0)
		return -EBUSY;
	fd = syscall(__NR_perf_event_open, &ev->attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	ev->fd = (int)fd;
	return 0;
}

static int event_ioctl(struct kb_perf_event *ev, unsigned long req, unsigned long arg)
{
	if (ev->fd < 0)
		return -EBADF;
	return ioctl(ev->fd, req, arg) < 0 ? -errno : 0;
}

int kb_perf_event_enable(struct kb_perf_event *ev)
{
	return event_ioctl(ev, PERF_EVENT_IOC_ENABLE, 0);
}

int kb_perf_event_disable(struct kb_perf_event *ev)
{
	return event_ioctl(ev, PERF_EVENT_IOC_DISABLE, 0);
}

/* read(2) of exactly len bytes; a counter read never returns less. */
static int read_exact(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int kb_perf_event_read(struct kb_perf_event *ev, struct kb_perf_count *c)
{
	uint64_t buf[3];
	int ret;

	if (ev->fd < 0)
		return -EBADF;
	if (ev->attr.read_format & PERF_FORMAT_GROUP)
		return -EINVAL;		/* a group member: kb_perf_group_read */
	ret = read_exact(ev->fd, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	c->val = buf[0];
	c->ena = buf[1];
	c->run = buf[2];
	return 0;
}

void kb_perf_event_close(struct kb_perf_event *ev)
{
	if (ev->fd >= 0)
		close(ev->fd);
	ev->fd = -1;
}

/* ---- a group ---- */

void kb_perf_group_init(struct kb_perf_group *g)
{
	memset(g, 0, sizeof(*g));
	for (unsigned i = 0; i < KB_PERF_GROUP_MAX; i++)
		g->ev[i].fd = -1;
	g->failed = -1;
}

int kb_perf_group_add(struct kb_perf_group *g, const struct kb_perf_desc *desc,
		      enum kb_perf_mode mode)
{
	struct kb_perf_event *ev;

	if (g->n && g->ev[0].fd >= 0)
		return -EBUSY;
	if (g->n >= KB_PERF_GROUP_MAX)
		return -ENOSPC;
	ev = &g->ev[g->n++];
	kb_perf_event_init(ev, desc, mode);
	ev->attr.read_format |= PERF_FORMAT_GROUP;
	return 0;
}

int kb_perf_group_open(struct kb_perf_group *g, pid_t pid, int cpu)
{
	unsigned i;
	int ret;

	g->failed = -1;
	if (!g->n)
		return -EINVAL;
	for (i = 0; i < g->n; i++) {
		ret = kb_perf_event_open(&g->ev[i], pid, cpu, i ? g->ev[0].fd : -1);
		if (ret < 0)
			goto out_close;
	}
	return 0;

out_close:
	g->failed = (int)i;
	while (i--)
		kb_perf_event_close(&g->ev[i]);
	return ret;
}

/* The leader's ioctl with PERF_IOC_FLAG_GROUP reaches every member and
 * every inherited copy in child processes. */
int kb_perf_group_enable(struct kb_perf_group *g)
{
	return g->n ? event_ioctl(&g->ev[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) : -EBADF;
}

int kb_perf_group_disable(struct kb_perf_group *g)
{
	return g->n ? event_ioctl(&g->ev[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) : -EBADF;
}

int kb_perf_group_read(struct kb_perf_group *g, struct kb_perf_count *out)
{
	/* PERF_FORMAT_GROUP: nr, time_enabled, time_running, value[nr] */
	uint64_t buf[3 + KB_PERF_GROUP_MAX];
	int ret;

	if (!g->n || g->ev[0].fd < 0)
		return -EBADF;
	ret = read_exact(g->ev[0].fd, buf, (3 + g->n) * sizeof(buf[0]));
	if (ret < 0)
		return ret;
	if (buf[0] != g->n)
		return -EIO;
	for (unsigned i = 0; i < g->n; i++) {
		out[i].val = buf[3 + i];
		out[i].ena = buf[1];
		out[i].run = buf[2];
	}
	return 0;
}

void kb_perf_group_close(struct kb_perf_group *g)
{
	for (unsigned i = g->n; i-- > 0; )
		kb_perf_event_close(&g->ev[i]);
}

/* ---- the runner's counter set ---- */

static const enum kb_perf_mode set_modes[KB_COUNTERS_MODES] = { KB_PERF_KERNEL, KB_PERF_USER };

int kb_counters_open(struct kb_counters *c, const struct kb_perf_desc *events, size_t n,
		     pid_t pid, int cpu)
{
	return kb_counters_open_flags(c, events, n, pid, cpu, 0);
}

int kb_counters_open_flags(struct kb_counters *c, const struct kb_perf_desc *events, size_t n,
			   pid_t pid, int cpu, unsigned flags)
{
	int m, ret;

	memset(c, 0, sizeof(*c));
	for (m = 0; m < KB_COUNTERS_MODES; m++)
		kb_perf_group_init(&c->group[m]);
	if (n == 0 || n > KB_COUNTERS_MAX) {
		snprintf(c->why, sizeof(c->why), "events:%zu", n);
		return -EINVAL;
	}
	c->n = n;
	for (m = 0; m < KB_COUNTERS_MODES; m++) {
		for (size_t i = 0; i < n; i++) {
			kb_perf_group_add(&c->group[m], &events[i], set_modes[m]);
			c->group[m].ev[i].attr.exclude_host = !!(flags & KB_COUNTERS_GUEST_ONLY);
		}
		ret = kb_perf_group_open(&c->group[m], pid, cpu);
		if (ret < 0)
			goto out_close;
	}
	return 0;

out_close:
	snprintf(c->why, sizeof(c->why), "open:%s:%s", events[c->group[m].failed].label,
		 m ? "user" : "kernel");
	while (m-- > 0)
		kb_perf_group_close(&c->group[m]);
	return ret;
}

int kb_counters_start(struct kb_counters *c)
{
	int ret;

	for (int m = 0; m < KB_COUNTERS_MODES; m++) {
		ret = kb_perf_group_read(&c->group[m], c->start[m]);
		if (ret < 0)
			goto out_why;
	}
	for (int m = 0; m < KB_COUNTERS_MODES; m++) {
		ret = kb_perf_group_enable(&c->group[m]);
		if (ret < 0)
			goto out_why;
	}
	return 0;

out_why:
	snprintf(c->why, sizeof(c->why), "start");
	return ret;
}

int kb_counters_stop(struct kb_counters *c)
{
	struct kb_perf_count now[KB_COUNTERS_MAX];
	int ret = 0, r;

	/* the reverse order of start: the user group's window lies inside */
	for (int m = KB_COUNTERS_MODES; m-- > 0; ) {
		r = kb_perf_group_disable(&c->group[m]);
		if (r < 0 && !ret)
			ret = r;
	}
	for (int m = 0; m < KB_COUNTERS_MODES && !ret; m++) {
		ret = kb_perf_group_read(&c->group[m], now);
		for (size_t i = 0; i < c->n && !ret; i++)
			c->region[m][i] = kb_perf_count_delta(&now[i], &c->start[m][i]);
	}
	if (ret < 0)
		snprintf(c->why, sizeof(c->why), "stop");
	return ret;
}

uint64_t kb_counters_value(const struct kb_counters *c, int mode, size_t i)
{
	if (mode < 0 || mode >= KB_COUNTERS_MODES || i >= c->n)
		return 0;
	return kb_perf_count_scaled(&c->region[mode][i]);
}

unsigned kb_counters_permille(const struct kb_counters *c, int mode)
{
	const struct kb_perf_count *r;

	if (mode < 0 || mode >= KB_COUNTERS_MODES || !c->n)
		return 0;
	r = &c->region[mode][0];
	if (!r->ena)
		return 0;
	return r->run >= r->ena ? 1000u : (unsigned)(r->run * 1000u / r->ena);
}

/* 2 * n user instructions, whatever the compiler does around it. */
static void __attribute__((noinline)) known_loop(unsigned long n)
{
	__asm__ __volatile__("1:\n\tdec %0\n\tjnz 1b" : "+r" (n) : : "cc");
}

int kb_counters_check(struct kb_counters *c, unsigned long loops, uint64_t *got)
{
	uint64_t want = 2 * (uint64_t)loops, v;
	size_t idx;
	int ret;

	for (idx = 0; idx < c->n; idx++)
		if (!strcmp(c->group[1].ev[idx].desc->label, "instructions"))
			break;
	if (idx == c->n || !loops)
		return -ENOENT;
	ret = kb_counters_start(c);
	if (ret < 0)
		return ret;
	known_loop(loops);
	ret = kb_counters_stop(c);
	if (ret < 0)
		return ret;
	v = kb_counters_value(c, 1, idx);
	*got = v;
	if (v < want - want / 10 || v > want + want / 10) {
		snprintf(c->why, sizeof(c->why), "check:instructions");
		return -ERANGE;
	}
	return 0;
}

void kb_counters_close(struct kb_counters *c)
{
	for (int m = KB_COUNTERS_MODES; m-- > 0; )
		kb_perf_group_close(&c->group[m]);
}
