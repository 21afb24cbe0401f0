// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counter code the guest runner uses (src/base/counters.c), on the host with
 * software events, so it runs where no PMU exists: values grow with the work
 * done, kernel and user are told apart, helper processes count, ena/run
 * scaling, and errors for events that cannot be opened.  Where
 * perf_event_open is not allowed at all (a container's seccomp filter, a
 * paranoid setting) the tests that need it stop early and say so: cmocka's
 * skip() prints "not ok # SKIP", which automake's TAP driver counts as a
 * failure.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "counters.h"

/* Pages touched per test.  Faults are asserted as at least a quarter of
 * them: some kernels populate neighbouring anonymous pages on one fault
 * (seen here: 16 pages touched, 0 faults counted; 1024 pages, 948). */
#define PAGES 1024
/* The faults the last touch took, as the kernel's own rusage counts them:
 * with multi-size THP one fault can map many pages, so the number of pages
 * is not the reference; getrusage is, and the counter must see 90% of it. */
static long last_faults;
#define SOME_FAULTS(n) (assert_true(last_faults > 0), (uint64_t)(last_faults * 9 / 10))

static const struct kb_perf_desc bogus_pmu = { "bogus-pmu", "bog", 0x7fff0000u, 0 };
static const struct kb_perf_desc bogus_sw = { "bogus-sw", "bsw", PERF_TYPE_SOFTWARE, 0xfffff };

static size_t page_size;
static const char *no_perf;	/* why perf_event_open cannot be used here */

static const struct kb_perf_desc *sw(const char *label)
{
	const struct kb_perf_desc *d = kb_perf_desc_find(label);

	assert_non_null(d);
	return d;
}

/* Whether perf_event_open works here; if not, say why. */
static int have_perf(const char *test)
{
	if (no_perf)
		print_message("# %s: not run, needs:perf_event_open (%s)\n", test, no_perf);
	return !no_perf;
}

/* Touch n fresh pages from user space: n page faults in user mode. */
static long minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static void touch_pages(size_t n)
{
	long f0 = minflt();
	volatile char *p = mmap(NULL, n * page_size, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	/* one fault per page: transparent huge pages would fold 512 into one */
	madvise((void *)p, n * page_size, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < n; i++)
		p[i * page_size] = 1;
	last_faults = minflt() - f0;
	munmap((void *)p, n * page_size);
}

/* Let the kernel fault in n fresh pages: read(2) from /dev/zero into them. */
static void kernel_touch_pages(size_t n)
{
	char *p = mmap(NULL, n * page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("/dev/zero", O_RDONLY);
	long f0 = minflt();

	assert_true(p != MAP_FAILED);
	madvise(p, n * page_size, MADV_NOHUGEPAGE);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, p, n * page_size), (ssize_t)(n * page_size));
	last_faults = minflt() - f0;
	close(fd);
	munmap(p, n * page_size);
}

static void spin(unsigned long n)
{
	for (volatile unsigned long i = 0; i < n; i++)
		;
}

static void tables(void **state)
{
	(void)state;
	static const char *const want[] = { "cycles", "instructions", "L1-icache-load-misses",
					    "iTLB-load-misses", "branch-misses" };

	assert_int_equal(kb_perf_n_hw_events, 5);
	for (size_t i = 0; i < kb_perf_n_hw_events; i++) {
		assert_string_equal(kb_perf_hw_events[i].label, want[i]);
		assert_ptr_equal(kb_perf_desc_find(want[i]), &kb_perf_hw_events[i]);
		/* key_k=<20 digits> for ten events must fit a 512-byte record */
		assert_true(strlen(kb_perf_hw_events[i].key) <= 5);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(kb_perf_hw_events[i].key, kb_perf_hw_events[j].key);
	}
	assert_int_equal(kb_perf_n_sw_events, 3);
	assert_int_equal(sw("task-clock")->config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(sw("page-faults")->config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_int_equal(sw("context-switches")->config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_int_equal(kb_perf_desc_find("L1-icache-load-misses")->type, PERF_TYPE_HW_CACHE);
	assert_int_equal(kb_perf_desc_find("L1-icache-load-misses")->config,
			 PERF_COUNT_HW_CACHE_L1I | PERF_COUNT_HW_CACHE_OP_READ << 8 |
			 PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	assert_null(kb_perf_desc_find("cycle"));
}

static void scaling(void **state)
{
	struct kb_perf_count c = { 1000, 400, 400 }, a = { 5000, 900, 450 }, d;

	(void)state;
	assert_int_equal(kb_perf_count_scaled(&c), 1000);	/* never multiplexed */
	c.run = 100;
	assert_int_equal(kb_perf_count_scaled(&c), 4000);	/* counted a quarter of the time */
	c.run = 0;
	assert_int_equal(kb_perf_count_scaled(&c), 0);		/* never scheduled */
	c = (struct kb_perf_count){ 3, 3, 2 };
	assert_int_equal(kb_perf_count_scaled(&c), 5);		/* 4.5 rounds up */
	/* no overflow on long regions: 2^60 counted in half the time */
	c = (struct kb_perf_count){ 1ull << 60, 2000000000ull, 1000000000ull };
	assert_true(kb_perf_count_scaled(&c) == 1ull << 61);

	c = (struct kb_perf_count){ 1000, 400, 400 };
	d = kb_perf_count_delta(&a, &c);
	assert_int_equal(d.val, 4000);
	assert_int_equal(d.ena, 500);
	assert_int_equal(d.run, 50);
	assert_int_equal(kb_perf_count_scaled(&d), 40000);
}

static void one_event(void **state)
{
	struct kb_perf_event ev;
	struct kb_perf_count a, b;

	(void)state;
	kb_perf_event_init(&ev, sw("task-clock"), KB_PERF_ALL);
	assert_int_equal(ev.fd, -1);
	assert_int_equal(ev.attr.disabled, 1);
	assert_int_equal(kb_perf_event_read(&ev, &a), -EBADF);
	if (!have_perf(__func__))
		return;
	assert_int_equal(kb_perf_event_open(&ev, 0, -1, -1), 0);
	assert_true(ev.fd >= 0);
	assert_int_equal(kb_perf_event_open(&ev, 0, -1, -1), -EBUSY);

	assert_int_equal(kb_perf_event_read(&ev, &a), 0);
	assert_int_equal(a.val, 0);		/* created disabled */
	assert_int_equal(kb_perf_event_enable(&ev), 0);
	spin(1000000);
	assert_int_equal(kb_perf_event_disable(&ev), 0);
	assert_int_equal(kb_perf_event_read(&ev, &a), 0);
	assert_true(a.val > 0);
	assert_true(a.ena > 0 && a.run > 0 && a.run <= a.ena);

	/* disabled: no more counting */
	spin(1000000);
	assert_int_equal(kb_perf_event_read(&ev, &b), 0);
	assert_int_equal(b.val, a.val);

	/* more work, more time */
	assert_int_equal(kb_perf_event_enable(&ev), 0);
	spin(10000000);
	assert_int_equal(kb_perf_event_disable(&ev), 0);
	assert_int_equal(kb_perf_event_read(&ev, &b), 0);
	assert_true(b.val - a.val > 2 * a.val);
	kb_perf_event_close(&ev);
	assert_int_equal(ev.fd, -1);
	kb_perf_event_close(&ev);		/* twice is harmless */
}

static void group_counts_work(void **state)
{
	struct kb_perf_group g;
	struct kb_perf_count c[3], before, small, large;

	(void)state;
	kb_perf_group_init(&g);
	for (unsigned i = 0; i < KB_PERF_GROUP_MAX; i++)
		assert_int_equal(g.ev[i].fd, -1);
	assert_int_equal(kb_perf_group_read(&g, c), -EBADF);
	/* page-faults leads: a group led by task-clock misses software events
	 * until the next context switch on some kernels (counters.h) */
	assert_int_equal(kb_perf_group_add(&g, sw("page-faults"), KB_PERF_ALL), 0);
	assert_int_equal(kb_perf_group_add(&g, sw("context-switches"), KB_PERF_ALL), 0);
	assert_int_equal(kb_perf_group_add(&g, sw("task-clock"), KB_PERF_ALL), 0);
	if (!have_perf(__func__))
		return;
	assert_int_equal(kb_perf_group_open(&g, 0, -1), 0);
	assert_int_equal(g.failed, -1);
	assert_int_equal(kb_perf_group_add(&g, sw("task-clock"), KB_PERF_ALL), -EBUSY);
	/* a member's own read is not the group's */
	assert_int_equal(kb_perf_event_read(&g.ev[1], c), -EINVAL);

	assert_int_equal(kb_perf_group_read(&g, c), 0);
	assert_int_equal(c[0].val, 0);
	assert_int_equal(kb_perf_group_enable(&g), 0);
	touch_pages(PAGES);
	usleep(2000);				/* sleeping is a context switch */
	assert_int_equal(kb_perf_group_disable(&g), 0);
	assert_int_equal(kb_perf_group_read(&g, c), 0);
	assert_true(c[0].val >= SOME_FAULTS(PAGES));
	assert_true(c[1].val >= 1);
	assert_true(c[2].val > 0);
	/* one read, one enabled and running time for the whole group */
	for (int i = 1; i < 3; i++) {
		assert_int_equal(c[i].ena, c[0].ena);
		assert_int_equal(c[i].run, c[0].run);
	}
	assert_true(c[0].ena > 0 && c[0].run == c[0].ena);

	/* page faults grow with the pages touched */
	before = c[0];
	assert_int_equal(kb_perf_group_enable(&g), 0);
	touch_pages(PAGES / 4);
	assert_int_equal(kb_perf_group_disable(&g), 0);
	assert_int_equal(kb_perf_group_read(&g, c), 0);
	small = kb_perf_count_delta(&c[0], &before);
	before = c[0];
	assert_int_equal(kb_perf_group_enable(&g), 0);
	touch_pages(PAGES * 4);
	assert_int_equal(kb_perf_group_disable(&g), 0);
	assert_int_equal(kb_perf_group_read(&g, c), 0);
	large = kb_perf_count_delta(&c[0], &before);
	assert_true(large.val > small.val);
	assert_true(large.val >= SOME_FAULTS(PAGES * 4));
	kb_perf_group_close(&g);
	for (unsigned i = 0; i < g.n; i++)
		assert_int_equal(g.ev[i].fd, -1);
}

static void group_full(void **state)
{
	struct kb_perf_group g;

	(void)state;
	kb_perf_group_init(&g);
	for (unsigned i = 0; i < KB_PERF_GROUP_MAX; i++)
		assert_int_equal(kb_perf_group_add(&g, sw("task-clock"), KB_PERF_USER), 0);
	assert_int_equal(kb_perf_group_add(&g, sw("task-clock"), KB_PERF_USER), -ENOSPC);
	assert_int_equal(g.n, KB_PERF_GROUP_MAX);
	assert_int_equal(g.ev[0].attr.exclude_kernel, 1);
	assert_int_equal(g.ev[0].attr.exclude_user, 0);
	assert_true(g.ev[0].attr.read_format & PERF_FORMAT_GROUP);
	assert_true(g.ev[0].attr.inherit);
}

/* A bad event anywhere in a group: nothing stays open, and it is named. */
static void bad_events(void **state)
{
	struct kb_perf_event ev;
	struct kb_perf_group g;
	struct kb_counters c;
	struct kb_perf_desc set[2];

	(void)state;
	if (!have_perf(__func__))
		return;
	kb_perf_event_init(&ev, &bogus_pmu, KB_PERF_ALL);
	assert_true(kb_perf_event_open(&ev, 0, -1, -1) < 0);
	assert_int_equal(ev.fd, -1);

	kb_perf_group_init(&g);
	assert_int_equal(kb_perf_group_add(&g, sw("task-clock"), KB_PERF_ALL), 0);
	assert_int_equal(kb_perf_group_add(&g, sw("page-faults"), KB_PERF_ALL), 0);
	assert_int_equal(kb_perf_group_add(&g, &bogus_sw, KB_PERF_ALL), 0);
	assert_true(kb_perf_group_open(&g, 0, -1) < 0);
	assert_int_equal(g.failed, 2);
	for (unsigned i = 0; i < g.n; i++)
		assert_int_equal(g.ev[i].fd, -1);
	assert_int_equal(kb_perf_group_enable(&g), -EBADF);

	set[0] = *sw("task-clock");
	set[1] = bogus_pmu;
	assert_true(kb_counters_open(&c, set, 2, 0, -1) < 0);
	assert_string_equal(c.why, "open:bogus-pmu:kernel");
	for (int m = 0; m < KB_COUNTERS_MODES; m++)
		for (unsigned i = 0; i < KB_PERF_GROUP_MAX; i++)
			assert_int_equal(c.group[m].ev[i].fd, -1);
	assert_int_equal(kb_counters_open(&c, set, 0, 0, -1), -EINVAL);
	assert_int_equal(kb_counters_open(&c, set, KB_COUNTERS_MAX + 1, 0, -1), -EINVAL);
}

/* The runner's set: kernel and user apart, per region, helpers included. */
static void counter_set(void **state)
{
	struct kb_counters c;
	uint64_t got;
	size_t pf;
	pid_t pid;
	int status;

	(void)state;
	if (!have_perf(__func__))
		return;
	assert_int_equal(kb_counters_open(&c, kb_perf_sw_events, kb_perf_n_sw_events, 0, -1), 0);
	pf = (size_t)(sw("page-faults") - kb_perf_sw_events);

	/* faults taken in user mode count for user, not for the kernel */
	assert_int_equal(kb_counters_start(&c), 0);
	touch_pages(PAGES);
	assert_int_equal(kb_counters_stop(&c), 0);
	assert_true(kb_counters_value(&c, 1, pf) >= SOME_FAULTS(PAGES));
	assert_true(kb_counters_value(&c, 0, pf) < SOME_FAULTS(PAGES) / 4);
	assert_int_equal(kb_counters_permille(&c, 0), 1000);
	assert_int_equal(kb_counters_permille(&c, 1), 1000);

	/* faults the kernel takes copying to user memory count for the kernel */
	assert_int_equal(kb_counters_start(&c), 0);
	kernel_touch_pages(PAGES);
	assert_int_equal(kb_counters_stop(&c), 0);
	assert_true(kb_counters_value(&c, 0, pf) >= SOME_FAULTS(PAGES));
	assert_true(kb_counters_value(&c, 1, pf) < SOME_FAULTS(PAGES) / 4);

	/* each region counts only itself */
	assert_int_equal(kb_counters_start(&c), 0);
	assert_int_equal(kb_counters_stop(&c), 0);
	assert_true(kb_counters_value(&c, 1, pf) < 4);

	/* a workload's helper process counts too (inherited counters) */
	assert_int_equal(kb_counters_start(&c), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		touch_pages(PAGES * 2);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(kb_counters_stop(&c), 0);
	/* last_faults is the parent's last touch (PAGES): the child took twice that */
	assert_true(kb_counters_value(&c, 1, pf) >= SOME_FAULTS(PAGES * 2));

	/* out of range asks get 0 */
	assert_int_equal(kb_counters_value(&c, 2, 0), 0);
	assert_int_equal(kb_counters_value(&c, 0, c.n), 0);
	/* the instruction check needs an instructions event */
	assert_int_equal(kb_counters_check(&c, 1000, &got), -ENOENT);
	kb_counters_close(&c);
	for (int m = 0; m < KB_COUNTERS_MODES; m++)
		for (unsigned i = 0; i < KB_PERF_GROUP_MAX; i++)
			assert_int_equal(c.group[m].ev[i].fd, -1);
}

/* Where the host has a PMU, the guest's set and its check work here too. */
static void hardware_check(void **state)
{
	struct kb_counters c;
	uint64_t got = 0;
	int ret;

	(void)state;
	if (!have_perf(__func__))
		return;
	ret = kb_counters_open(&c, kb_perf_hw_events, kb_perf_n_hw_events, 0, -1);
	if (ret < 0) {
		print_message("# hardware_check: not run, needs:pmu (%s: %s)\n", c.why, strerror(-ret));
		return;
	}
	ret = kb_counters_check(&c, 1000000, &got);
	kb_counters_close(&c);
	print_message("# instruction check: 2000000 expected, %llu counted\n",
		      (unsigned long long)got);
	assert_int_equal(ret, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tables),
		cmocka_unit_test(scaling),
		cmocka_unit_test(one_event),
		cmocka_unit_test(group_counts_work),
		cmocka_unit_test(group_full),
		cmocka_unit_test(bad_events),
		cmocka_unit_test(counter_set),
		cmocka_unit_test(hardware_check),
	};
	struct kb_perf_event probe;
	int ret;

	page_size = (size_t)sysconf(_SC_PAGESIZE);
	kb_perf_event_init(&probe, kb_perf_desc_find("task-clock"), KB_PERF_ALL);
	ret = kb_perf_event_open(&probe, 0, -1, -1);
	if (ret < 0)
		no_perf = strerror(-ret);
	kb_perf_event_close(&probe);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
