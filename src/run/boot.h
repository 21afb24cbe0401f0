/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_BOOT_H
#define KB_BOOT_H

/*
 * The measuring boots: each boots QEMU with the run's backends attached
 * (their QEMU arguments, guest arguments and per-boot hooks), validates
 * every guest record, appends its samples to samples.jsonl and its outcome
 * to boots.jsonl.  The guest is untrusted input: a record that is not
 * checksummed, planned and in range is counted and dropped.
 */

#include "backend.h"
#include "conf.h"
#include "plan.h"
#include "run.h"
#include "store.h"

/* What every measuring boot of a run shares. */
struct kb_boots {
	const struct kb_conf *conf;
	struct kb_store *store;
	enum kb_accel accel;
	const char *image;			/* the initramfs */
	const struct kb_backends_chosen *backends;
	long jobs;				/* boots at once, where the backends allow */
};

/* Whether boots of a run with these backends may run at once: none of them
 * measures time ([run] jobs; else one at a time on an otherwise idle host). */
int kb_boots_concurrent(const struct kb_backends_chosen *c);

/* Boot seq of the plan, the variant's boot vboot (of total boots): its
 * samples to samples.jsonl, its outcome to boots.jsonl (with the Slurm node
 * and job when it runs as one).  0, or -1 when it failed or was interrupted. */
int kb_boots_one(const struct kb_boots *env, const struct kb_run_variant *rv, long seq, long vboot,
		 long total);
/* Boot the plan's unfinished boots in order, up to env->jobs at once when
 * kb_boots_concurrent allows, with a progress line; the variants' boots_done
 * count the finished ones too.  Stops early when interrupted (the boots
 * running are stopped and waited for).  Returns how many boots failed;
 * *ran, how many were started. */
long kb_boots_run(const struct kb_boots *env, const struct kb_plan *plan, struct kb_run_variant *vs,
		  double t0, long *ran);
/* --resume: the unfinished boots' lines go from samples.jsonl and from every
 * backend's own per-boot file, so that those boots run again cleanly. */
int kb_boots_drop_partial(const struct kb_boots *env, const struct kb_plan *plan);

#endif
