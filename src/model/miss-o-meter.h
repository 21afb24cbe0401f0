/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_MISS_O_METER_H
#define KB_MISS_O_METER_H

/*
 * The miss-o-meter: which kernel functions make one case of a sim run cost
 * more or less under one variant than under another.  Per function, the
 * instructions and simulated L1i misses per operation (the sim plugin's
 * attribution by System.map, sim.jsonl, over the iterations of the same
 * samples in samples.jsonl), beside the function's size change as the
 * kernel's scripts/bloat-o-meter gives it (its names: "foo.isra.0" is
 * "foo.isra", same-named statics summed).  Simulated figures.
 */

#include <stddef.h>
#include <stdio.h>

#include "bloat.h"
#include "names.h"
#include "pool.h"

/* One function in one case, under two variants (per operation). */
struct kb_miss_row {
	const char *name;		/* bloat-o-meter's name */
	double ins[2], miss[2];		/* 0 where it did not run */
	long long size[2];		/* bytes; -1 where the variant has no such function */
	double d_ins, d_miss;		/* new - old */
};

/* One case: its functions, and what the attribution leaves over. */
struct kb_miss_case {
	const char *cas;
	struct kb_miss_row *rows;	/* sorted by d_ins, then d_miss, descending; then name */
	size_t n;
	double ins_k[2], miss_k[2];	/* the regions' kernel totals per operation */
	double attributed_ins[2];	/* the sum over functions ("[kernel]" too) */
	long long samples[2];		/* sim.jsonl lines matched to a sample */
};

/* All of one run directory's per-function figures, read once. */
struct kb_miss {
	struct kb_pool pool;
	struct kb_names variants, cases;
	struct kb_names cell_keys;		/* "variant id\tcase id" */
	struct kb_names keys;			/* "variant id\tcase id\tfunction" */
	struct acc *acc;			/* by key id */
	size_t cap_acc;
	struct cell *cells;			/* by (variant, case): [cap_cells] */
	size_t cap_cells;
	long unmatched;				/* sim.jsonl lines with no sample */
	long names;				/* lines and functions left out for their names */
	long torn;
};

/* Read samples.jsonl (iterations) and sim.jsonl of run_dir.  0, or a
 * negative errno after a message naming the file (no sim.jsonl: -ENOENT
 * with a message saying the run did not use the sim backend). */
int kb_miss_read(struct kb_miss *m, const char *run_dir);
void kb_miss_release(struct kb_miss *m);

/* The case cas between variants old and new; sizes from their function
 * tables (NULL: none).  0, or -1 when either variant has no sample of it. */
int kb_miss_case(const struct kb_miss *m, const char *cas, const char *old, const char *new,
		 const struct kb_bloat_named *tab_old, size_t n_old,
		 const struct kb_bloat_named *tab_new, size_t n_new, struct kb_pool *p,
		 struct kb_miss_case *out);

/* bloat-o-meter's layout: a summary line, then one line per function whose
 * instructions or misses per operation changed by at least min (all when
 * top is 0, else the top ones by change, each way). */
void kb_miss_print(FILE *f, const struct kb_miss_case *c, const char *old, const char *new,
		   double min, size_t top);

#endif
