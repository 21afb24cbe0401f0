/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest workloads, stress-ng style: workloads.def lists them once and this
 * header expands the list into the enum, the run-function externs and the
 * table (defined in runner.c).  Each wl-<name>.c ends with its one definition,
 * kb_wl_<name>_run().
 */
#ifndef KB_WORKLOAD_H
#define KB_WORKLOAD_H

#include <stdint.h>
#include <time.h>

#include "proto.h"

/* The enum value of a workload is its marker ID. */
enum kb_wl_id {
#define KB_WORKLOAD(name, kind, iters, help) KB_WL_##name,
#include "workloads.def"
#undef KB_WORKLOAD
	KB_WL_COUNT
};

struct kb_wl_args {
	unsigned long iters;	/* operations inside the measured region */
	unsigned long warmup;	/* operations before it, same code path */
};

struct kb_wl_result {
	uint64_t ns;		/* CLOCK_MONOTONIC time of the measured region */
	const char *reason;	/* on failure: what failed, a record token ("fork") */
	int err;		/* on failure: errno, 0 when there is none */
};

/*
 * Run one sample: set up, warm up, then the measured region between
 * KB_MARK(KB_MARK_BEGIN(id)) and KB_MARK(KB_MARK_END(id)) with the clock read
 * just outside, then tear down.  0, or -1 with res->reason and res->err set
 * (kb_wl_fail).  Never prints: the runner owns the console.
 */
typedef int kb_wl_run_fn(const struct kb_wl_args *args, struct kb_wl_result *res);

struct kb_workload {
	const char *name;
	const char *kind;
	unsigned long default_iters;
	const char *help;
	kb_wl_run_fn *run;
};

#define KB_WORKLOAD(name, kind, iters, help) kb_wl_run_fn kb_wl_##name##_run;
#include "workloads.def"
#undef KB_WORKLOAD

extern const struct kb_workload kb_workloads[KB_WL_COUNT];

/*
 * The region marker: nopl disp32(%eax,%eax,1), 0f 1f 84 00 imm32.  The ID has
 * to live in the instruction bytes (QEMU 7.2 plugins cannot read registers),
 * so it must be a compile-time constant; "memory" keeps loads and stores of
 * the region from moving across it.
 */
#define KB_MARK(id) \
	__asm__ __volatile__(".byte 0x0f, 0x1f, 0x84, 0x00\n\t.long %c0" \
			     : : "i" (id) : "memory")

static inline uint64_t kb_wl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int kb_wl_fail(struct kb_wl_result *res, const char *reason, int err)
{
	res->reason = reason;
	res->err = err;
	return -1;
}

#endif
