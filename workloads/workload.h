/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest workloads, stress-ng style: workloads.def lists them once and this
 * header expands the list into the enum, the run-function externs and the
 * table (defined in runner.c).  Each wl-<name>.c ends with its one definition,
 * kb_wl_<name>_run().
 *
 * Kinds: "syscall" and "icache" run args.iters operations per sample;
 * KB_KIND_SWEEP runs once per K of the runner's sweep (kb_sweep=0,4,...),
 * with args.k set and its iteration count scaled by kb_wl_sweep_iters().
 */
#ifndef KB_WORKLOAD_H
#define KB_WORKLOAD_H

#include <stddef.h>
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

#define KB_KIND_SWEEP		"sweep"
/* The sweep's K at which the straight-line code costs about as much as the
 * system call: iterations fall as default * H / (H + K), so every K's region
 * lasts about as long.  Measured under the sim backend (8 virtual layouts,
 * O2 tinyconfig, 2026-12-04), host time per operation is about 2.35 us +
 * 1.5 us x K: H = 2.  (H was 32, which left a K = 128 region 16 times as
 * long as K = 0's, and the sweep 64% of a default sim boot.) */
#define KB_SWEEP_HALF_KIB	2

struct kb_wl_args {
	unsigned long iters;	/* operations inside the measured region */
	unsigned long warmup;	/* operations before it, same code path */
	unsigned long k;	/* sweep workloads: KiB of user code per operation */
	const char *tmpdir;	/* a directory for files (tmpfs /tmp in the guest) */
};

struct kb_wl_result {
	uint64_t ns;		/* CLOCK_MONOTONIC time of the measured region */
	const char *reason;	/* on failure: what failed, a record token ("fork") */
	int err;		/* on failure: errno, 0 when there is none */
	uint64_t t0;		/* the clock at the region's start (KB_REGION_BEGIN) */
};

/*
 * Run one sample: set up, warm up, then the measured region between
 * KB_REGION_BEGIN and KB_REGION_END, then tear down.  0, or -1 with
 * res->reason and res->err set (kb_wl_fail).  Never prints: the runner owns
 * the console.
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

/*
 * The region's edges, one pair per workload, defined by the runner from
 * workloads.def: KB_REGION_BEGIN starts the guest's counters (where it has
 * them), reads the clock, then executes the begin marker; KB_REGION_END
 * executes the end marker, reads the clock, stops the counters and sets
 * res->ns.  The markers lie inside, so the simulation backend sees the
 * operations and nothing else; and being out of line, each marker is in the
 * runner exactly once, however the compiler treats the workload's code.
 */
#define KB_WORKLOAD(name, kind, iters, help) \
	void kb_wl_##name##_begin(struct kb_wl_result *res); \
	void kb_wl_##name##_end(struct kb_wl_result *res);
#include "workloads.def"
#undef KB_WORKLOAD

#define KB_REGION_BEGIN(name, res)	kb_wl_##name##_begin(res)
#define KB_REGION_END(name, res)	kb_wl_##name##_end(res)
/* Create an empty file named after tag in args->tmpdir, its path in path;
 * the caller unlinks it.  0, or -1 with errno set. */
int kb_wl_tmpfile(const struct kb_wl_args *args, const char *tag, char *path, size_t size);


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

/* Iterations of a sweep sample at k KiB, from the workload's (scaled)
 * iterations at K = 0. */
static inline unsigned long kb_wl_sweep_iters(unsigned long iters0, unsigned long k)
{
	unsigned long v = (unsigned long)((double)iters0 * KB_SWEEP_HALF_KIB /
					  (double)(KB_SWEEP_HALF_KIB + k) + 0.5);

	return v ? v : 1;
}

#endif
