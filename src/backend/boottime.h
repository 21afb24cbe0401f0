/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_BOOTTIME_H
#define KB_BOOTTIME_H

#include "accel.h"
#include "store.h"

/* The backend's name (backend-hyperfine.c), which the samples below carry. */
#define KB_BOOTTIME_BACKEND "hyperfine"

/* Whole-boot timing: hyperfine times `kbench boot-check` (QEMU start to
 * guest exit, the runner doing no workload) p->runs times for each variant,
 * interleaved: round r boots every variant once, in an order drawn from the
 * run's seed (a shuffle per round), one hyperfine -N --runs 1 per boot (its
 * warm-ups in round 1), so that a change in the host's load between rounds
 * falls on all variants alike instead of reading as a difference.
 * Each good boot becomes a sample of workload "boot" in samples.jsonl, with
 * its own boot id (first_id + run - 1, past the ids of the measuring boots,
 * each variant a block), backend "hyperfine"; each variant's outcome is one
 * line of timing.jsonl, with its boots' places in the order (sequence).
 * hyperfine's log, and its runs merged into one JSON export per variant (as
 * one hyperfine would have written, plus kbench.sequence), stay in boots/.
 * Nothing is recorded when interrupted.  The number of variants whose
 * timing failed (said why). */
struct kb_boottime_params {
	long runs, warmup;		/* timed boots, and untimed ones first */
	long timeout, memory;		/* per boot: seconds, MiB */
	const char *arch;		/* the guest's: its QEMU (boot-check --arch) */
};
struct kb_boottime_job {
	const char *variant, *bzimage, *cmdline;
	long first_id;
};
long kb_boottime_rounds(const struct kb_boottime_params *p, struct kb_store *store,
			const struct kb_boottime_job *jobs, size_t n, enum kb_accel accel,
			const char *image, unsigned long long seed);

/* Variants whose timing finished before (timing.jsonl), for --resume: a
 * JSON object, variant name -> true. */
json_t *kb_boottime_done(const struct kb_store *store);

/* The hyperfine JSON export of one command: the times (seconds) of the runs
 * that exited 0, and how many did not.  0, or -1 with *why set (static). */
int kb_boottime_parse(const char *json_path, double **times, size_t *n, size_t *failed,
		      const char **why);

#endif
