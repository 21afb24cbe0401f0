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
	const char *accel;
	const char *image;			/* the initramfs */
	const struct kb_backends_chosen *backends;
};

/* Boot the plan's unfinished boots in order, with a progress line; the
 * variants' boots_done count the finished ones too.  Stops early when
 * interrupted.  Returns how many boots failed; *ran, how many ran. */
long kb_boots_run(const struct kb_boots *env, const struct kb_plan *plan, struct kb_run_variant *vs,
		  double t0, long *ran);
/* --resume: the unfinished boots' lines go from samples.jsonl and from every
 * backend's own per-boot file, so that those boots run again cleanly. */
int kb_boots_drop_partial(const struct kb_boots *env, const struct kb_plan *plan);

#endif
