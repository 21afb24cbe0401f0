/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_EXECUTOR_H
#define KB_EXECUTOR_H

/*
 * Where a run's builds and boots run ([run] executor, --executor), behind
 * one interface as the measurement backends are (backend.h): one file each
 * (executor-*.c), registered once in executors.def.  local builds and boots
 * here; slurm makes each a Slurm job.  The pipeline (pipeline.c) calls the
 * hooks in order: check before a run directory is made, init, builds (before
 * kb_run_build, which then finds the kernels cached), boots, cancel, release.
 */

#include <stddef.h>

#include "option.h"

struct kb_boots;
struct kb_conf;
struct kb_plan;
struct kb_run_variant;
struct kb_store;

/* The version of this interface; an executor built for another is refused. */
#define KB_EXECUTOR_API 1
/* [run] keys an executor may bring */
#define KB_EXECUTOR_MAX_OPTIONS 8

/* One run's executor: what the pipeline tells the hooks, and what they
 * give back. */
struct kb_executor_run {
	const struct kb_executor *e;
	const struct kb_conf *conf;
	const void *opts;		/* its [run] options (its opts_size struct) */
	int key_line[KB_EXECUTOR_MAX_OPTIONS]; /* the line of each of its keys; 0 for a default */
	struct kb_store *store;
	const char *logdir;		/* RUN/variants, for the builds' logs */
	const struct kb_boots *env;	/* for boots */
	double t0;			/* the run's start (kb_now) */
	int builds_failed;		/* for boots: a variant did not build */
	long ran, unfinished;		/* boots gives: boots run, boots without an outcome */
	const char *why;		/* a hook that failed: why the run is incomplete (static) */
	void *priv;			/* the executor's own state, from init */
};

struct kb_executor {
	const char *name;		/* [run] executor, --executor */
	int api;			/* KB_EXECUTOR_API */
	const struct kb_option *options; /* its [run] keys, up to one with a NULL name */
	size_t opts_size;		/* the struct those offsets point into */

	/* Before a run directory is made (dir: the results directory, or the
	 * run directory on --resume): 0, -ENOTSUP (not here) or -EINVAL, each
	 * after a message.  NULL: nothing to check. */
	int (*check)(const struct kb_executor_run *x, const char *dir);
	/* x->priv; 0, or -1 with x->why.  NULL: no state. */
	int (*init)(struct kb_executor_run *x);
	/* Build what it builds of vs ahead of kb_run_build: a failed build is
	 * vs[u].not_built, one it built vs[u].pre.  0, or -1 with x->why. */
	int (*builds)(struct kb_executor_run *x, struct kb_run_variant *vs);
	/* The plan's unfinished boots: the failed ones, as kb_boots_run
	 * returns, x->ran and x->unfinished set; -1 with x->why when they
	 * could not be started. */
	long (*boots)(struct kb_executor_run *x, const struct kb_plan *plan, struct kb_run_variant *vs);
	/* Stop whatever still runs elsewhere: the run stops here.  NULL: nothing. */
	void (*cancel)(struct kb_executor_run *x);
	void (*release)(struct kb_executor_run *x);
};

#define KB_EXECUTOR(id, ops) extern const struct kb_executor ops;
#include "executors.def"
#undef KB_EXECUTOR
enum {
#define KB_EXECUTOR(id, ops) KB_EXECUTOR_ID_##id,
#include "executors.def"
#undef KB_EXECUTOR
	KB_N_EXECUTORS
};

/* The table; n in *n. */
const struct kb_executor *const *kb_executors(size_t *n);
/* The executor of that name, or NULL. */
const struct kb_executor *kb_executor_find(const char *name);
/* Index of e in the table (conf.c keeps each executor's options by index). */
size_t kb_executor_index(const struct kb_executor *e);
/* NULL if e is fit to register, else what is wrong (static text). */
const char *kb_executor_check(const struct kb_executor *e);
/* The table checked at start-up: aborts naming the broken entry. */
void kb_executor_check_table(void);
/* "local or slurm": the names, for a message. */
const char *kb_executor_names(void);

#endif
