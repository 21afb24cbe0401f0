/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_BOOTTIME_H
#define KB_BOOTTIME_H

#include "accel.h"
#include "store.h"

/* The backend's name (backend-hyperfine.c), which the samples below carry. */
#define KB_BOOTTIME_BACKEND "hyperfine"

/* Whole-boot timing: hyperfine times `kbench boot-check` (QEMU start to
 * guest exit, the runner doing no workload) p->runs times for one variant.
 * Each good run becomes a sample of workload "boot" in samples.jsonl, with its own boot id (first_id + run - 1, past the ids of
 * the measuring boots), backend "hyperfine"; the stage's outcome is one line
 * of timing.jsonl.  hyperfine's JSON export and log stay in boots/.
 * 0, or -1 when the variant could not be timed (said why). */
struct kb_boottime_params {
	long runs, warmup;		/* timed boots, and untimed ones first */
	long timeout, memory;		/* per boot: seconds, MiB */
	const char *arch;		/* the guest's: its QEMU (boot-check --arch) */
};
int kb_boottime_variant(const struct kb_boottime_params *p, struct kb_store *store, const char *variant,
			const char *bzimage, const char *cmdline, enum kb_accel accel,
			const char *image, long first_id);

/* Variants whose timing finished before (timing.jsonl), for --resume: a
 * JSON object, variant name -> true. */
json_t *kb_boottime_done(const struct kb_store *store);

/* The hyperfine JSON export of one command: the times (seconds) of the runs
 * that exited 0, and how many did not.  0, or -1 with *why set (static). */
int kb_boottime_parse(const char *json_path, double **times, size_t *n, size_t *failed,
		      const char **why);

#endif
