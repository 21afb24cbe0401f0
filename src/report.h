/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_REPORT_H
#define KB_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "summary.h"

/* Write <run_dir>/report.md, summary.json, summary.csv and report.html from
 * manifest.json, samples.jsonl and boots.jsonl (each atomically).  0 or -1
 * after a message. */
int kb_report_write(const char *run_dir);
/* Same with other statistics options (kbench report --confidence). */
int kb_report_write_opts(const char *run_dir, const struct kb_summary_opts *o);
int kb_report_parse_confidence(const char *arg, struct kb_summary_opts *o);

/* What every report writer reads: the run's files and the result model
 * (summary.h), all borrowed. */
struct kb_report_ctx {
	const char *run_dir;
	json_t *manifest;
	json_t *boots;
	json_t *model;
	int bad_lines;		/* torn lines skipped in samples.jsonl and boots.jsonl */
};

/* One output format: one file in the run directory, written from the
 * context into f (a memory stream; the caller writes it atomically).
 * Returns 0, or -1 after a message. */
struct kb_report_writer {
	const char *name;
	const char *file;
	int (*write)(FILE *f, const struct kb_report_ctx *ctx);
};

extern const struct kb_report_writer kb_report_md, kb_report_json, kb_report_csv, kb_report_html;

/* Helpers the writers share. */
const char *kb_report_str(json_t *o, const char *key);
/* Markdown table cell: config and guest text kept inert. */
void kb_report_md_cell(FILE *f, const char *s);
/* HTML text and attribute values: & < > " ' escaped, control characters dropped. */
void kb_report_html_text(FILE *f, const char *s);
/* "-34.2%" style change, "n/a" when undefined. */
void kb_report_pct(FILE *f, double fraction);
/* Cliff's delta: "+0.22", "-1.00". */
void kb_report_delta(FILE *f, double d);
/* A figure with sensible digits: %.1f at 100 and above, else 4 significant. */
void kb_report_fig(FILE *f, double v);

/* "0.820 [0.790, 0.860]": a row's ratio to the baseline and its interval. */
void kb_report_ratio_ci(FILE *f, json_t *row);
/* A p-value: 3 decimals, or scientific below 0.001; "n/a" when undefined. */
void kb_report_p(FILE *f, double p);
/* The model's variants[] entry by name, or NULL. */
json_t *kb_report_variant(json_t *model, const char *name);
/* The timing.jsonl line of a variant in a boot_timing model, or NULL. */
json_t *kb_report_timing(json_t *boot_timing, const char *variant);
/* "1.234 [1.200, 1.300]": a whole-boot row's median and interval, in seconds. */
void kb_report_seconds_ci(FILE *f, json_t *row);
/* The answer for one claim[] entry, as markdown (html 0) or HTML text. */
void kb_report_claim(FILE *f, json_t *model, json_t *claim, int html);

#endif
