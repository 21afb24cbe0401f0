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
 * "foo.isra", same-named statics summed).  Simulated figures; and beside
 * them each function's modeled cycles per operation: the blocks the plugin
 * counted in each sample's region (boots/<variant>-<n>.blocks), each
 * priced by LLVM's machine model (mca.h: llvm-mca's steady state for a
 * named CPU, block costs only, no cache misses, no branch mispredictions),
 * times its executions, to the function that holds the block's first
 * instruction in System.map of the boot's build (blocks.h).
 */

#include <stddef.h>
#include <stdio.h>

#include "blocks.h"
#include "bloat.h"
#include "names.h"
#include "pool.h"

/* One function in one case, under two variants (per operation). */
struct kb_miss_row {
	const char *name;		/* bloat-o-meter's name */
	double ins[2], miss[2];		/* 0 where it did not run */
	long long size[2];		/* bytes; -1 where the variant has no such function */
	double d_ins, d_miss;		/* new - old */
	double cyc[2], d_cyc;		/* modeled cycles; NAN where the run has none */
	int moved;			/* the new variant's order names it */
};

/* One case: its functions, and what the attribution leaves over. */
struct kb_miss_case {
	const char *cas;
	struct kb_miss_row *rows;	/* sorted by d_ins, then d_miss, descending; then name */
	size_t n;
	double ins_k[2], miss_k[2];	/* the regions' kernel totals per operation */
	double attributed_ins[2];	/* the sum over functions ("[kernel]" too) */
	long long samples[2];		/* sim.jsonl lines matched to a sample */
	double iters[2];		/* their iterations */
	double cyc_k[2], cyc_u[2];	/* modeled cycles of kernel and user blocks; NAN: none */
};

/* A function whose modeled cycles per operation grow while its simulated
 * instructions do not (fewer or as many), in the case where they grow
 * most (kb_miss_cycles_top). */
struct kb_miss_cyc {
	const char *name, *cas;
	double ins[2], cyc[2];		/* per operation, old and new */
	double d_ins, d_cyc;
	size_t cases;			/* the cases in which it does so */
	/* The mnemonic ("divl", "rep movsl") that explains at least half of
	 * d_cyc, or NULL: of those whose executions per operation grew, the
	 * one whose removal from the function's blocks takes away the most
	 * cycles (llvm-mca pricing the blocks without it), new minus old. */
	const char *why;
	double why_n, why_cyc;		/* its executions' change, its cycles' */
};
#define KB_MISS_TOP_CYC	10

struct miss_boot;

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

	/* modeled cycles: set before kb_miss_read */
	const char *cpu;			/* NULL: the run's [run] sim_cpu, else skylake */
	int no_cycles;				/* none at all */
	/* and what it found */
	const char *cycles_model;		/* "LLVM 14.0.6 llvm-mca, -mcpu=skylake"; NULL: none */
	const char *cycles_why;			/* NULL, or why some or all are missing */
	struct kb_mca *mca;
	const char *run_dir;
	struct miss_boot *boots;		/* the blocks files of the samples' boots */
	size_t nboots;
	struct kb_names boot_keys;		/* "variant\tvboot" */
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
 * instructions, misses or modeled cycles per operation changed by more than
 * min (all when top is 0, else the top ones by change, each way). */
/* The functions the order a run kept for variant names (run_dir's
 * variants/VARIANT/order, kbench run's copy), under bloat-o-meter's names
 * as the rows have them, added to names: 1, or 0 where the run kept no
 * order for it (or it cannot be read: said). */
int kb_miss_order_names(const char *run_dir, const char *variant, struct kb_names *names, struct kb_pool *p);
/* Mark the rows of c whose function names holds (moved): how many. */
size_t kb_miss_mark_moved(struct kb_miss_case *c, const struct kb_names *names);

/* A case as text; a row of a function the new variant's order names ends
 * in "moved". */
void kb_miss_print(FILE *f, const struct kb_miss_case *c, const char *old, const char *new,
		   double min, size_t top, const char *cycles_model);

/* The top functions (at most top) whose modeled cycles per operation grow
 * from old to new while their instructions do not, over every case, each
 * once, in the case where its cycles grow most; largest growth first, each
 * with the instruction that explains it where one does (a few small
 * llvm-mc and llvm-mca calls, cached).  *out in p.  0 (*n may be 0, and is
 * where the run has no modeled cycles), or -1 after a message. */
int kb_miss_cycles_top(struct kb_miss *m, const char *old, const char *new, size_t top,
		       struct kb_pool *p, struct kb_miss_cyc **out, size_t *n);
/* For miss-cycles.c: every unit of the blocks of variant's samples, read
 * again, with the case of its region.  0, or -1 after a message. */
int kb_miss_each_unit(struct kb_miss *m, const char *variant,
		      void (*fn)(void *ctx, const char *cas, const struct kb_blocks_unit *u, uint64_t n),
		      void *ctx);
/* Every unit of the blocks of variant's samples (mca or not: unpriced
 * without), with the case of its region, and every call edge of the same
 * regions (the boots' calls files: boots/<variant>-<n>.calls, plugin/
 * simfmt.h) as caller and callee functions of the boot's System.map, the
 * call's count; a boot without a calls file is counted in *no_calls.  Only
 * the boots of that layout replica (-1: all).
 * 0, or -1 after a message. */
int kb_miss_each_block(struct kb_miss *m, const char *variant, int layout,
		       void (*fn)(void *ctx, const char *cas, const struct kb_blocks_unit *u, uint64_t n),
		       void *ctx);
int kb_miss_each_call(struct kb_miss *m, const char *variant, int layout,
		      void (*fn)(void *ctx, const char *cas, const char *caller, const char *callee,
				 uint64_t n),
		      void *ctx, size_t *boots, size_t *no_calls);
void kb_miss_cycles_print(FILE *f, const struct kb_miss_cyc *c, size_t n, const char *old, const char *new,
			  const char *cycles_model);

#endif
