/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_EXPLAIN_H
#define KB_EXPLAIN_H

/*
 * What kbench explain found in its run directory, as the report does it
 * (report.h): the figures once, from the run's model and configuration
 * (explain-model.c), the sections once as a document (explain-sections.c),
 * and each of explain.md, explain.html and explain.json by a writer of
 * that document or of the figures (explain-json.c).
 */

#include "conf.h"
#include "model.h"
#include "report.h"

/* The comment of an explain run's configuration by code that says how many
 * objects A and B compile differently and how many of them the parts hold. */
extern const char kb_explain_coverage_tag[];
/* By order (B is A built with an order): the comment that names A and B
 * ("A B"), and one per part ("VARIANT PATH"); the coverage tag then
 * counts the order's functions some object of A defines, and those the
 * parts hold. */
extern const char kb_explain_order_tag[], kb_explain_order_part_tag[];

/* By code: one part of the tree, compiled as B. */
struct kb_explain_part {
	const char *path, *variant;	/* the part; its hybrid */
	double change;			/* the hybrid's figure minus A's */
	const char *verdict;		/* the run's test against A; "" where none */
};

/* By flag: one optimizer setting. */
struct kb_explain_flag {
	const char *name, *a_set, *b_set;	/* its name, its setting in A and in B */
	double one, loo;			/* one at a time from A; leave one out from the whole */
	const char *verdict;			/* A with it as B, against A; "" where none */
};

/* One table: the text size (metric NULL) or a metric of a case. */
struct kb_explain_table {
	const char *metric, *words, *unit, *kind;
	int speed;			/* a per-operation figure: with verdicts */
	double base, whole;		/* A's figure; the whole's minus A's */
	const char *whole_verdict;
	struct kb_explain_part *parts;	/* by code, largest change first */
	size_t nparts;
	double sum, real;		/* the parts' sum; B as built minus A */
	const char *real_verdict;
	struct kb_explain_flag *flags;	/* by flag */
	size_t nflags;
	double sum1, sumloo;		/* the sums of one at a time, of leave one out */
};

struct kb_explain_case {
	const char *name;
	struct kb_explain_table *tables;	/* the figures the model has, in figures[] order */
	size_t nt;
	const struct kb_miss_model *functions;	/* by code, the miss-o-meter of B; NULL: none */
};

enum kb_explain_by { KB_EXPLAIN_BY_CODE, KB_EXPLAIN_BY_FLAG };

struct kb_explain {
	enum kb_explain_by by;
	int ordered;			/* by code, the parts being those of B's order (B: A with it) */
	const char *order;		/* ... B's order file */
	const char *a, *b, *whole;	/* whole: the B end (by code), B over the parts (by flag) */
	const char *backend;		/* NULL: not recorded */
	long differ, covered;		/* by code, objects compiled differently, in the parts; -1 */
	const char *rest;		/* by code, the words of "whole - sum" */
	const char *parts;		/* by flag, the paths as hybrid = lists them */
	struct kb_explain_table text;
	struct kb_explain_case *cases;
	size_t nc;
	struct kb_model *model;		/* owned, as the configuration: the names point into them */
	struct kb_conf conf;
};

/* The paths of a hybrid as its key hybrid = A B PATH... lists them ("." for
 * the whole kernel), space-separated (malloc'd). */
char *kb_explain_paths_line(char *const *paths, size_t n);

/* The figures of explain run directory dir; NULL after a message. */
struct kb_explain *kb_explain_load(const char *dir);
void kb_explain_free(struct kb_explain *x);

/* explain.md, explain.html and explain.json into dir (each atomically).
 * 0, or -1 after a message. */
int kb_explain_write(const char *dir);

extern const struct kb_report_writer kb_explain_md, kb_explain_html, kb_explain_json;

#endif
