/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_PLAN_H
#define KB_PLAN_H

/*
 * The boot plan of a run: rounds of all built variants (every layout
 * replica of each), each round in a seeded shuffled order, so drift on the
 * host spreads over every variant.
 * The same seed and the same built variants give the same plan: --resume
 * relies on it, and on the finished set read back from boots.jsonl.
 */

#include <stddef.h>

#include "run.h"
#include "store.h"

struct kb_plan {
	size_t *variant;	/* variant[seq - 1]: index in the run's variants (layout
				 * replicas, run.h) of the one booted as boot seq */
	long total;		/* boots in the plan, ids 1..total */
	unsigned char *done;	/* done[seq]: finished before (any status) */
	long *todo;		/* ids not finished, increasing */
	size_t n_todo;
};

/* rounds boots of every built variant (layout replica) of vs (n of them). */
void kb_plan_make(struct kb_plan *p, const struct kb_run_variant *vs, size_t n, long rounds,
		  unsigned long long seed);
/* Mark the boots that boots.jsonl of store says finished; fills todo. */
void kb_plan_read_done(struct kb_plan *p, const struct kb_store *store);
void kb_plan_release(struct kb_plan *p);

#endif
