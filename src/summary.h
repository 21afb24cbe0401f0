/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_SUMMARY_H
#define KB_SUMMARY_H

/* The one result model of a run (hyperfine's BenchmarkResult, here as a
 * JSON object): every figure of the report, with the per-boot medians it
 * came from.  report.md, report.html, summary.json and summary.csv are all
 * written from it; summary.json is it.  Layout (keys in this order):
 *
 *   run_id, kernel, backend, accel, seed, baseline, confidence, alpha,
 *   resamples, outlier_z, deterministic, primary_metric,
 *   variants[]   {name, status, flags, text, data, bss, text_change, boots_ok}
 *   cases[]      case names, in the order the report shows them
 *   metrics[]    {name, label, unit, source, note}
 *   results[]    {case, metric, variant, backend, boots, samples, boot_ids[],
 *                 boot_medians[], outlier_boots[], outlier_samples, median,
 *                 ci[lo, hi], ratio, ratio_ci[], u, p, p_exact, p_holm,
 *                 cliffs_delta, effect, verdict}  (tests only off baseline)
 *   correlation[] {metric, case, n, rho, p, smallest, fastest, smallest_is_fastest}
 *   claim[]      {variant, text_change, smaller, faster, slower, same,
 *                 undecided}  (primary metric, per non-baseline variant)
 *   caveats[]    sentences, hyperfine's warnings
 *
 * A figure that does not exist (one boot, no size) is null. */

#include <gsl/gsl_rng.h>
#include <jansson.h>
#include <stddef.h>

struct kb_summary_opts {
	double level;		/* confidence of the intervals, 0.95 */
	double alpha;		/* significance of the verdicts, 1 - level */
	size_t resamples;	/* bootstrap resamples */
	double outlier_z;	/* modified z-score beyond which a value is marked */
};
#define KB_SUMMARY_OPTS_INIT { 0.95, 0.05, 10000, 3.5 }

/* The model of one run directory's files (borrowed); never NULL. */
json_t *kb_summary_build(json_t *manifest, json_t *samples, json_t *boots,
			 const struct kb_summary_opts *o);
/* Load <run_dir>/manifest.json, samples.jsonl and boots.jsonl and build the
 * model, with timing.jsonl's outcomes in its boot_timing; NULL after a
 * message.  *bad_lines counts skipped torn lines. */
json_t *kb_summary_load(const char *run_dir, const struct kb_summary_opts *o, int *bad_lines);

/* x against base (per-boot medians): sets ratio, ratio_ci, u, p, p_exact,
 * cliffs_delta and effect on row.  rng seeds the bootstrap. */
void kb_summary_versus(json_t *row, const double *x, size_t nx, const double *base, size_t nb,
		       gsl_rng *rng, const struct kb_summary_opts *o);
/* Holm over the rows of results that have a "p" and share metric and
 * variant (the family is the cases), then a verdict on each of them. */
void kb_summary_decide(json_t *results, const struct kb_summary_opts *o);

/* Plain numbers out of the model: NAN for null or missing. */
double kb_summary_num(json_t *o, const char *key);
/* The doubles of an array of numbers (malloc'd), count in *n. */
double *kb_summary_array(json_t *arr, size_t *n);
/* results[] row of (case, metric, variant), or NULL. */
json_t *kb_summary_find(json_t *model, const char *cas, const char *metric, const char *variant);
/* metrics[] entry by name, or NULL. */
json_t *kb_summary_metric(json_t *model, const char *metric);
/* The first object of arr whose string key equals value, or NULL. */
json_t *kb_summary_lookup(json_t *arr, const char *key, const char *value);

#endif
