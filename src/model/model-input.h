/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_MODEL_INPUT_H
#define KB_MODEL_INPUT_H

/*
 * What a model is built from, as model-read.c reads a run directory line by
 * line: not the JSON of each sample but, per variant, case and boot (a
 * cell), the finite values of each metric in the order the lines came, with
 * every name in the order it was first seen.  Memory grows with the numbers
 * kept, not with the text of samples.jsonl.  Only model*.c include this.
 */

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "names.h"
#include "pool.h"

/* One metric's finite values in a cell; a single one is kept inline. */
struct kb_vals {
	union {
		double *v;
		double one;
	};
	uint32_t n, cap;
};

static inline const double *kb_vals_of(const struct kb_vals *x)
{
	return x->cap == 1 ? &x->one : x->v;
}

/* The samples of one boot of one variant in one case. */
struct kb_cell {
	uint32_t variant, cas;		/* ids in the input's names */
	long long boot;
	long long layout;		/* the boot's layout ("layout", absent: 0) */
	size_t samples;
	struct kb_vals *metric;		/* [nmetric]: 0 the time, then field i at i + 1 */
	uint32_t nmetric;
	/* virtual layouts (a field's "vl_<field>" arrays): the values of metric
	 * i under virtual layout k (1..nvl) at vl[i * nvl + k - 1], i < nvl_metric */
	struct kb_vals *vl;
	uint32_t nvl_metric, nvl;
	unsigned char nondet;		/* a sample of a non-deterministic backend */
	unsigned char rep_hashed;	/* reps in the input's rep set, not 1..rep_max */
	long long rep_max;		/* while !rep_hashed: reps 1..rep_max seen */
};

/* The samples of one model (the workloads', or the whole boots'). */
struct kb_model_input {
	struct kb_names variants, cases, workloads, fields;
	uint32_t (*pairs)[2];		/* (workload, case) ids, first-seen order */
	size_t npairs, cap_pairs;
	struct kb_htab pair_index;
	struct kb_cell *cells;
	size_t ncells, cap_cells;
	struct kb_htab cell_index;	/* (variant, case), boot -> cell */
	size_t last;			/* the cell of the last line */
	struct kb_htab reps;		/* (cell, rep) of cells with rep_hashed */
	const char *backend;		/* the first sample's ("" without any) */
	size_t samples;
	int deterministic;		/* every sample's backend is */
};

/* A line of boots.jsonl. */
struct kb_boot_line {
	const char *variant, *status, *reason, *serial;
	long long boot;
	double other_cpu;	/* other processes' share of the CPU during it, or NAN */
	const char *node;	/* the Slurm node it ran on, or NULL */
};

/* The statistics of a model from its input (model.c); NULL after a
 * message (more rows than KB_MODEL_MAX_ROWS). */
struct kb_model_build_args {
	json_t *manifest;
	const char *backend, *workloads;	/* NULL: the manifest's */
	const struct kb_model_input *in;
	const struct kb_boot_line *boots;	/* NULL for the boot-timing model */
	size_t nboots;
	const struct kb_model_opts *o;
	const char *dir;			/* for messages; NULL: none */
};
struct kb_model *kb_model_from_input(const struct kb_model_build_args *a);
/* A sim sample of a run with a predicted order (model-predict.c): its
 * variant and case, and per operation [0] its kernel L1i misses and [1]
 * its cycles (the verdicts' cycle model), as built (own) and predicted
 * (pred_<field>; NAN where the sample has none). */
struct kb_pred_sample {
	const char *variant, *cas;
	long long layout;		/* its build's layout replica (0: as configured) */
	double own[2], pred[2];
};
/* The run's predicted order (manifest sim.prediction.order), or NULL; the
 * cycle field its rows give (sim.primary_metric). */
const char *kb_model_pred_order(json_t *manifest);
const char *kb_model_pred_cycles(json_t *manifest);
/* The prediction rows of m (m->pred) from the run's samples. */
void kb_model_predict(struct kb_model *m, json_t *manifest, const struct kb_pred_sample *s, size_t n);
/* timing.jsonl's lines (copied) in the boot-timing model, with the caveats
 * of the failed and partial ones. */
void kb_model_timing_outcome(struct kb_model *bt, const struct kb_timing *t, size_t n);
/* The manifest's claim, each prediction judged by the figures of the
 * workloads' model m, once built (model-claim.c, over model.c): into
 * m->stated. */
void kb_model_claim(struct kb_model *m, json_t *manifest);

#endif
