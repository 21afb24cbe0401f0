// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the statistics: known answers worked out by hand (exact
 * Mann-Whitney tails are 2 / C(n1 + n2, n1) at the extremes), properties
 * (bootstrap intervals hold the median, seeds reproduce), the calibration
 * of the rank test under the null, and the verdicts of the result model on
 * small in-memory runs, with what they leave out (duplicate samples, names
 * that are not plain names).  tests/t0300-stats-scipy.sh checks the same
 * figures against scipy on fixed data.
 */
#include "config.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats.h"
#include "model.h"
#include "util.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void medians_and_mad(void **state)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 }, v[] = { 1, 2, 3, 4, 100 };

	(void)state;
	NEAR(kb_stats_median(odd, 3), 2);
	NEAR(kb_stats_median(even, 4), 2.5);
	assert_true(odd[0] == 3);	/* the input is not sorted in place */
	NEAR(kb_stats_mad(v, 5), 1);
	assert_true(isnan(kb_stats_median(v, 0)));
}

static void outliers_marked(void **state)
{
	double v[] = { 1, 2, 3, 4, 100 }, flat[] = { 5, 5, 5, 5, 9 }, same[] = { 7, 7, 7, 7 };
	unsigned char o[5];

	(void)state;
	assert_int_equal(kb_stats_outliers(v, 5, 3.5, o), 1);
	assert_true(o[4] && !o[0] && !o[1] && !o[2] && !o[3]);
	/* MAD 0: the mean absolute deviation stands in (z = 4 / 1.0027) */
	assert_int_equal(kb_stats_outliers(flat, 5, 3.5, o), 1);
	assert_true(o[4]);
	assert_int_equal(kb_stats_outliers(flat, 5, 4.5, o), 0);
	assert_int_equal(kb_stats_outliers(same, 4, 3.5, o), 0);
	assert_int_equal(kb_stats_outliers(v, 2, 3.5, o), 0);
}

static void mann_whitney_exact(void **state)
{
	double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	double x[] = { 1.1, 2.2, 3.3, 4.4, 5.5 }, y[] = { 6.1, 7.2, 8.3, 9.4, 10.5 };
	double m1[] = { 1, 2, 4 }, m2[] = { 3, 5, 6 };
	struct kb_mwu r;

	(void)state;
	assert_int_equal(kb_stats_mann_whitney(a, 3, b, 3, &r), 0);
	assert_true(r.exact);
	NEAR(r.u, 0);
	NEAR(r.p, 0.1);
	kb_stats_mann_whitney(b, 3, a, 3, &r);
	NEAR(r.u, 9);
	NEAR(r.p, 0.1);
	kb_stats_mann_whitney(x, 5, y, 5, &r);
	NEAR(r.p, 2.0 / 252);
	NEAR(kb_stats_mwu_min_p(5, 5), 2.0 / 252);
	NEAR(kb_stats_mwu_min_p(3, 3), 0.1);
	NEAR(kb_stats_mwu_min_p(1, 1), 1);
	/* U = 1 of 9: of the 20 orderings, 2 have U >= 8 (counts 1,1,2,3,3,3,3,2,1,1) */
	kb_stats_mann_whitney(m1, 3, m2, 3, &r);
	NEAR(r.u, 1);
	NEAR(r.p, 2 * 2.0 / 20);
	assert_int_equal(kb_stats_mann_whitney(a, 0, b, 3, &r), -EINVAL);
}

/* Ties at small n: the exact permutation distribution, never the normal
 * approximation, which gave p below the smallest the design allows (issue
 * 13: 3 vs 3 all tied within each side, 0.047; 4 vs 4, 0.013; 1 vs 10,
 * 0.0044).  Worked by hand: with every value of a below every value of b
 * and all tied within each side, only the observed split and its mirror
 * are as extreme (k of a's values drawn from b's side gives U = n k), so
 * p = 2 / C(2n, n); with 1 against 10, the one baseline value is the odd
 * one out in 1 of the 11 splits: 2 / 11. */
static void mann_whitney_ties(void **state)
{
	double a[] = { 1, 1, 1 }, b[] = { 1, 1, 1 }, c[] = { 1, 2, 2, 3 }, d[] = { 2, 3, 3, 4 };
	double lo3[] = { 5, 5, 5 }, hi3[] = { 7, 7, 7 }, lo4[] = { 5, 5, 5, 5 }, hi4[] = { 7, 7, 7, 7 };
	double ten[] = { 3, 3, 3, 3, 3, 3, 3, 3, 3, 3 }, one[] = { 4 };
	struct kb_mwu r;

	(void)state;
	kb_stats_mann_whitney(a, 3, b, 3, &r);
	assert_true(r.exact);
	NEAR(r.p, 1);	/* all tied: no evidence at all */
	kb_stats_mann_whitney(lo3, 3, hi3, 3, &r);
	assert_true(r.exact);
	NEAR(r.u, 0);
	NEAR(r.p, 2.0 / 20);
	kb_stats_mann_whitney(hi4, 4, lo4, 4, &r);
	NEAR(r.u, 16);
	NEAR(r.p, 2.0 / 70);
	kb_stats_mann_whitney(ten, 10, one, 1, &r);
	NEAR(r.u, 0);
	NEAR(r.p, 2.0 / 11);
	assert_true(r.p >= kb_stats_mwu_min_p(10, 1) - 1e-12);
	/* above 50 a side: the normal approximation, raised to the smallest p
	 * the design allows (51 tied values against 1: z = 7, p 2.6e-12;
	 * no split of 52 values can give less than 2 / 52) */
	{
		double many[51], lone[] = { 2 };

		for (int i = 0; i < 51; i++)
			many[i] = 1;
		kb_stats_mann_whitney(many, 51, lone, 1, &r);
		assert_false(r.exact);
		NEAR(r.p, 2.0 / 52);
	}
	/* c against d: midranks 1 3 3 6 | 3 6 6 8, rank sum of c 13 (U 3);
	 * 10 of the 70 splits have a sum <= 13 */
	kb_stats_mann_whitney(c, 4, d, 4, &r);
	assert_true(r.exact);
	NEAR(r.u, 3);
	NEAR(r.p, 2 * 10.0 / 70);
}

/* Under the null (same distribution), p < 0.05 about 5% of the time or
 * less (the exact test is conservative at small n): the verdict's false
 * alarm rate is what it says. */
static void mann_whitney_calibrated(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double a[6], b[6];
	int alarms = 0, trials = 4000;
	struct kb_mwu r;

	(void)state;
	gsl_rng_set(rng, 42);
	for (int t = 0; t < trials; t++) {
		for (int i = 0; i < 6; i++) {
			a[i] = gsl_ran_lognormal(rng, 0, 0.3);
			b[i] = gsl_ran_lognormal(rng, 0, 0.3);
		}
		kb_stats_mann_whitney(a, 6, b, 6, &r);
		alarms += r.p < 0.05;
	}
	/* exact size at 6 vs 6: P(p < 0.05) = 2 * 19 / 924 = 0.041 */
	assert_true(alarms > trials * 0.03 && alarms < trials * 0.055);
	gsl_rng_free(rng);
}

static void cliffs_delta_and_labels(void **state)
{
	double a[] = { 1, 2, 3 }, b[] = { 2, 3, 4 };

	(void)state;
	NEAR(kb_stats_cliffs_delta(a, 3, b, 3), -5.0 / 9);
	NEAR(kb_stats_cliffs_delta(b, 3, a, 3), 5.0 / 9);
	assert_string_equal(kb_stats_effect_label(-5.0 / 9), "large");
	assert_string_equal(kb_stats_effect_label(0.1), "negligible");
	assert_string_equal(kb_stats_effect_label(0.2), "small");
	assert_string_equal(kb_stats_effect_label(0.4), "medium");
}

static void holm(void **state)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, adj[4], one[] = { 0.7 }, big[] = { 0.6, 0.9 };

	(void)state;
	kb_stats_holm(p, 4, adj);
	NEAR(adj[0], 0.03);
	NEAR(adj[1], 0.06);
	NEAR(adj[2], 0.06);
	NEAR(adj[3], 0.02);
	kb_stats_holm(one, 1, adj);
	NEAR(adj[0], 0.7);
	kb_stats_holm(big, 2, adj);
	NEAR(adj[0], 1);
	NEAR(adj[1], 1);
}

static void spearman(void **state)
{
	double x[] = { 1, 2, 3, 4 }, up[] = { 10, 20, 30, 40 }, down[] = { 4, 3, 2, 1 };
	double flat[] = { 5, 5, 5, 5 }, tie[] = { 1, 2, 2, 3 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double big_x[12], big_y[12];

	(void)state;
	NEAR(kb_stats_spearman(x, up, 4), 1);
	NEAR(kb_stats_spearman(x, down, 4), -1);
	assert_true(isnan(kb_stats_spearman(x, flat, 4)));
	NEAR(kb_stats_spearman(x, tie, 4), 0.9486832980505138);
	/* exact: 1 of 24 orderings reaches rho = 1; two-sided doubles it */
	NEAR(kb_stats_spearman_p(x, up, 4, rng, 1000), 2.0 / 24);
	NEAR(kb_stats_spearman_p(x, up, 2, rng, 1000), 1);
	for (int i = 0; i < 12; i++) {
		big_x[i] = i;
		big_y[i] = i;
	}
	/* sampled: (0 + 1) / (999 + 1) each side */
	NEAR(kb_stats_spearman_p(big_x, big_y, 12, rng, 999), 2 * 1.0 / 1000);
	gsl_rng_free(rng);
}

static void bootstrap(void **state)
{
	double v[] = { 10, 11, 12, 13, 30 }, c[] = { 2, 2, 2 }, one[] = { 1, 1 };
	struct kb_interval ci, ci2;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	(void)state;
	gsl_rng_set(rng, 7);
	assert_int_equal(kb_stats_bootstrap_median(v, 5, rng, 5000, 0.95, &ci), 0);
	assert_true(ci.lo >= 10 && ci.lo <= 12 && ci.hi >= 12 && ci.hi <= 30);
	gsl_rng_set(rng, 7);
	kb_stats_bootstrap_median(v, 5, rng, 5000, 0.95, &ci2);
	NEAR(ci.lo, ci2.lo);
	NEAR(ci.hi, ci2.hi);
	assert_int_equal(kb_stats_bootstrap_median(v, 0, rng, 10, 0.95, &ci), -EINVAL);
	gsl_rng_free(rng);
	(void)c;
	(void)one;
}

/* The two-level median and its two-stage bootstrap (builds, then layouts
 * within each). */
static void nested(void **state)
{
	/* three builds at 5 (one layout each) and one of eleven layouts at 1:
	 * the median over builds is 5, where pooling every layout gives 1 */
	double v[14] = { 5, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, one = 1, c[3] = { 2, 2, 2 };
	size_t start[5] = { 0, 1, 2, 3, 14 }, one_start[2] = { 0, 1 };
	struct kb_nested a = { v, start, 4 }, b = { &one, one_start, 1 }, flat = { c, NULL, 3 };
	struct kb_nested empty = { v, start, 0 };
	double dist[4000], pooled[14];
	struct kb_interval ci;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t at1 = 0;

	(void)state;
	NEAR(kb_stats_nested_median(&a), 5);
	memcpy(pooled, v, sizeof(v));
	NEAR(kb_stats_median(pooled, 14), 1);
	NEAR(kb_stats_nested_median(&flat), 2);	/* start NULL: each value a group */
	assert_true(isnan(kb_stats_nested_median(&empty)));
	gsl_rng_set(rng, 11);
	assert_int_equal(kb_stats_bootstrap_ratio_nested(&a, &b, rng, 4000, dist), 0);
	/* a resample draws 4 builds: its median is 1, 3 or 5 (two of each),
	 * and 1 only when 3 or 4 of the draws are the one build at 1:
	 * 4 (1/4)^3 (3/4) + (1/4)^4 = 13/256 */
	for (size_t i = 0; i < 4000; i++) {
		assert_true(dist[i] == 1 || dist[i] == 3 || dist[i] == 5);
		assert_true(i == 0 || dist[i - 1] <= dist[i]);	/* sorted */
		at1 += dist[i] == 1;
	}
	assert_true(fabs((double)at1 / 4000 - 13.0 / 256) < 0.015);
	/* P(median <= 3) = P(2 or more draws at 1) = 67/256: the 35% quantile is 5 */
	kb_stats_percentile(dist, 4000, 0.3, &ci);
	NEAR(ci.lo, 5);
	assert_int_equal(kb_stats_bootstrap_ratio_nested(&flat, &b, rng, 100, dist), 0);
	NEAR(dist[0], 2);
	NEAR(dist[99], 2);
	assert_int_equal(kb_stats_bootstrap_ratio_nested(&empty, &b, rng, 100, dist), -EINVAL);
	gsl_rng_free(rng);
}

/* The geometric mean of the cases' ratios and its bootstrap: one case
 * draws as the ratio does; cases of one shape are drawn together. */
static void geomean(void **state)
{
	double v[14] = { 5, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, one = 1;
	double two[3] = { 2, 2, 2 }, eight[2] = { 8, 8 }, ones[3] = { 1, 1, 1 };
	double flat4[4] = { 1, 2, 3, 4 }, zero[2] = { 0, 0 };
	size_t start[5] = { 0, 1, 2, 3, 14 }, one_start[2] = { 0, 1 };
	struct kb_nested a[2] = { { v, start, 4 }, { v, start, 4 } }, b[2] = { { &one, one_start, 1 }, { &one, one_start, 1 } };
	struct kb_nested ca[2] = { { two, NULL, 3 }, { eight, NULL, 2 } }, cb[2] = { { ones, NULL, 3 }, { ones, NULL, 2 } };
	struct kb_nested da[2] = { { two, NULL, 3 }, { flat4, NULL, 4 } }, za[1] = { { zero, NULL, 2 } };
	static double ratio[4000], gm[4000];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	(void)state;
	/* one case: the same draws, the same distribution */
	gsl_rng_set(rng, 7);
	assert_int_equal(kb_stats_bootstrap_ratio_nested(&a[0], &b[0], rng, 4000, ratio), 0);
	gsl_rng_set(rng, 7);
	assert_int_equal(kb_stats_bootstrap_geomean_nested(a, b, 1, rng, 4000, gm), 0);
	for (size_t i = 0; i < 4000; i++)
		NEAR(gm[i], ratio[i]);
	/* two cases of one shape with the same figures: drawn together, their
	 * geometric mean moves as one ratio (drawn apart, it would be narrower) */
	gsl_rng_set(rng, 7);
	assert_int_equal(kb_stats_bootstrap_geomean_nested(a, b, 2, rng, 4000, gm), 0);
	for (size_t i = 0; i < 4000; i++)
		NEAR(gm[i], ratio[i]);
	NEAR(kb_stats_geomean_nested(a, b, 2), 5);
	/* constant cases: ratios 2 and 8, geometric mean 4 in every resample */
	NEAR(kb_stats_geomean_nested(ca, cb, 2), 4);
	assert_int_equal(kb_stats_bootstrap_geomean_nested(ca, cb, 2, rng, 100, gm), 0);
	NEAR(gm[0], 4);
	NEAR(gm[99], 4);
	/* shapes that differ: each case drawn on its own, every resample
	 * between the smallest and the largest possible mean */
	assert_int_equal(kb_stats_bootstrap_geomean_nested(da, cb, 2, rng, 1000, gm), 0);
	for (size_t i = 0; i < 1000; i++)
		assert_true(gm[i] >= sqrt(2.0 * 1) - 1e-9 && gm[i] <= sqrt(2.0 * 4) + 1e-9);
	NEAR(kb_stats_geomean_nested(da, cb, 2), sqrt(2 * 2.5));
	/* a ratio of 0 has no log: no mean; no case: no distribution */
	assert_true(isnan(kb_stats_geomean_nested(za, cb, 1)));
	assert_int_equal(kb_stats_bootstrap_geomean_nested(a, b, 0, rng, 10, gm), -EINVAL);
	gsl_rng_free(rng);
}

/* An interval from the kept tails is the one from the whole distribution,
 * at every level from the one they were kept for up. */
static void tails(void **state)
{
	enum { N = 10000 };
	double *dist = malloc(N * sizeof(*dist));
	const double levels[] = { 0.95, 0.99, 1 - 0.05 / 19, 1 - 0.05 / 190, 0.99999 };
	struct kb_interval whole, kept;
	struct kb_tails t;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	(void)state;
	gsl_rng_set(rng, 3);
	for (size_t i = 0; i < N; i++)
		dist[i] = gsl_rng_uniform(rng) * gsl_rng_uniform(rng);
	gsl_sort(dist, 1, N);
	assert_int_equal(kb_stats_tails_init(&t, dist, N, 0.95), 0);
	assert_true(t.keep < N / 30);
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		kb_stats_percentile(dist, N, levels[i], &whole);
		assert_int_equal(kb_stats_tails_interval(&t, levels[i], &kept), 0);
		assert_true(kept.lo == whole.lo && kept.hi == whole.hi);
	}
	/* a wider tail than was kept cannot be read */
	assert_int_equal(kb_stats_tails_interval(&t, 0.5, &kept), -ERANGE);
	kb_stats_tails_release(&t);
	assert_int_equal(kb_stats_tails_init(&t, dist, 0, 0.95), -EINVAL);
	/* a short distribution is kept whole */
	assert_int_equal(kb_stats_tails_init(&t, dist, 7, 0.95), 0);
	assert_int_equal(kb_stats_tails_interval(&t, 0.5, &kept), 0);
	kb_stats_percentile(dist, 7, 0.5, &whole);
	assert_true(kept.lo == whole.lo && kept.hi == whole.hi);
	kb_stats_tails_release(&t);
	gsl_rng_free(rng);
	free(dist);
}

static void seeds(void **state)
{
	(void)state;
	assert_true(kb_stats_seed(1, "ab", "c", "d") != kb_stats_seed(1, "a", "bc", "d"));
	assert_true(kb_stats_seed(1, "a", "b", "c") == kb_stats_seed(1, "a", "b", "c"));
	assert_true(kb_stats_seed(1, "a", "b", "c") != kb_stats_seed(2, "a", "b", "c"));
}

/* ---- the result model on in-memory runs ---- */

/* variants[i] with per-boot levels levels[i][b] (3 samples each, +-0.5%). */
static json_t *run_of(const char *backend, size_t nv, const char *const *names,
		      const long long *text, size_t nb, const double levels[][8], json_t **samples)
{
	json_t *m = json_pack("{s:s,s:I,s:s,s:{s:s},s:{s:s},s:[]}", "run_id", "t", "seed", (json_int_t)5,
			      "baseline", names[0], "run", "workloads", "getppid", "accel", "chosen",
			      "tcg", "variants");
	long long seq = 0;

	*samples = json_array();
	for (size_t v = 0; v < nv; v++)
		json_array_append_new(json_object_get(m, "variants"),
				      json_pack("{s:s,s:s,s:{s:I,s:I,s:I}}", "name", names[v], "status",
						"built", "size", "text", (json_int_t)text[v], "data",
						(json_int_t)1, "bss", (json_int_t)1));
	json_object_set_new(m, "backend", json_string(backend));
	for (size_t b = 0; b < nb; b++)
		for (size_t v = 0; v < nv; v++) {
			seq++;
			for (int r = 0; r < 3; r++) {
				double x = levels[v][b] * (1 + 0.005 * (r - 1) * !strcmp(backend, "clock"));

				json_array_append_new(*samples,
					json_pack("{s:s,s:I,s:s,s:s,s:I,s:f,s:s,s:{s:I}}", "variant", names[v],
						  "boot", (json_int_t)seq, "workload", "getppid", "case", "getppid",
						  "iterations", (json_int_t)1000, "ns_per_op", x, "backend", backend,
						  "fields", "instructions", (json_int_t)(x * 1000)));
			}
		}
	return m;
}

/* An in-memory run and its model. */
struct run {
	json_t *manifest, *samples, *boots;
	struct kb_model *model;
};

static struct kb_model *run_model(struct run *r, const char *backend, size_t nv, const char *const *names,
				  const long long *text, size_t nb, const double levels[][8])
{
	struct kb_model_opts o = KB_MODEL_OPTS_INIT;

	r->manifest = run_of(backend, nv, names, text, nb, levels, &r->samples);
	r->boots = json_array();
	r->model = kb_model_build(r->manifest, r->samples, r->boots, &o);
	return r->model;
}

static void run_free(struct run *r)
{
	kb_model_free(r->model);
	json_decref(r->manifest);
	json_decref(r->samples);
	json_decref(r->boots);
}

static void model_verdicts(void **state)
{
	static const char *const names[] = { "base", "same", "slow" };
	static const long long text[] = { 2000, 2000, 1500 };
	static const double lv[3][8] = {
		{ 100, 103, 98, 101, 99, 102 },
		{ 101, 99, 102, 100, 98, 103 },
		{ 120, 124, 119, 122, 121, 125 },
	};
	struct run run;
	struct kb_model *model = run_model(&run, "clock", 3, names, text, 6, lv);
	const struct kb_row *r;

	(void)state;
	r = kb_model_find(model, "getppid", "ns_per_op", "slow");
	assert_non_null(r);
	assert_int_equal(r->t.verdict, KB_VERDICT_SLOWER);
	assert_string_equal(kb_verdict_name(r->t.verdict), "slower");
	assert_true(r->t.decided && r->t.p_holm < 0.05);
	NEAR(r->t.cliffs_delta, 1);
	r = kb_model_find(model, "getppid", "ns_per_op", "same");
	assert_int_equal(r->t.verdict, KB_VERDICT_UNDECIDED);
	r = kb_model_find(model, "getppid", "ns_per_op", "base");
	NEAR(r->t.ratio, 1);
	assert_false(r->t.done);
	assert_int_equal(r->t.verdict, KB_VERDICT_NONE);
	/* fields become per-operation metrics */
	r = kb_model_find(model, "getppid", "instructions_per_op", "slow");
	assert_non_null(r);
	assert_true(r->median > 119 && r->median < 125);
	assert_string_equal(model->metrics[model->primary].name, "ns_per_op");
	/* sizes against the baseline, and the claim they make */
	NEAR(model->variants[2].text_change, -0.25);
	assert_int_equal(model->variants[2].text_delta, -500);
	assert_int_equal(model->nclaims, 2);
	assert_int_equal(model->claims[1].slower, 1);
	run_free(&run);
}

static void model_deterministic(void **state)
{
	static const char *const names[] = { "O2", "Os" };
	static const long long text[] = { 2000, 1500 };
	static const double lv[2][8] = { { 100 }, { 90 } };
	struct run run;
	struct kb_model *model = run_model(&run, "sim", 2, names, text, 1, lv);
	const struct kb_row *r;
	int said = 0;

	(void)state;
	assert_true(model->deterministic);
	assert_string_equal(model->metrics[model->primary].name, "instructions_per_op");
	r = kb_model_find(model, "getppid", "instructions_per_op", "Os");
	assert_int_equal(r->t.verdict, KB_VERDICT_FASTER);
	assert_true(r->t.deterministic && r->t.identical_counts);
	assert_int_equal(model->metrics[kb_model_metric(model, "instructions_per_op")].source, KB_FIG_SIMULATED);
	for (size_t i = 0; i < model->ncaveats; i++)
		said |= model->caveats[i].id == KB_CAVEAT_DETERMINISTIC &&
			strstr(model->caveats[i].text, "one boot per variant suffices") != NULL;
	assert_true(said);
	run_free(&run);
}

/* summary.json keeps the layout its readers (tests/stats-ref.py, jq in the
 * shell tests) rely on: the baseline's row has a ratio and no test, the
 * others have every test figure and a verdict. */
static void model_serialized(void **state)
{
	static const char *const names[] = { "base", "slow" };
	static const long long text[] = { 2000, 1500 };
	static const double lv[2][8] = { { 100, 103, 98, 101, 99 }, { 120, 124, 119, 122, 121 } };
	struct run run;
	json_t *j = kb_model_json(run_model(&run, "clock", 2, names, text, 5, lv)), *base, *slow;

	(void)state;
	assert_string_equal(json_string_value(json_object_get(j, "primary_metric")), "ns_per_op");
	base = json_array_get(json_object_get(j, "results"), 0);
	slow = json_array_get(json_object_get(j, "results"), 1);
	assert_string_equal(json_string_value(json_object_get(base, "variant")), "base");
	NEAR(json_number_value(json_object_get(base, "ratio")), 1);
	assert_null(json_object_get(base, "p"));
	assert_null(json_object_get(base, "verdict"));
	assert_string_equal(json_string_value(json_object_get(slow, "verdict")), "slower");
	assert_int_equal(json_array_size(json_object_get(slow, "boot_medians")), 5);
	assert_true(json_is_array(json_object_get(slow, "ratio_ci")));
	assert_true(json_is_boolean(json_object_get(slow, "p_exact")));
	assert_true(json_is_true(json_object_get(json_array_get(json_object_get(j, "size_speed"), 0), "smaller")));
	assert_int_equal(json_array_size(json_object_get(j, "caveats")),
			 json_array_size(json_object_get(j, "caveat_ids")));
	json_decref(j);
	run_free(&run);
}

/* ---- what the model leaves out ---- */

static void name_rules(void **state)
{
	static const struct {
		enum kb_name_kind kind;
		const char *s;
		int ok;
	} t[] = {
		{ KB_NAME_VARIANT, "O2", 1 }, { KB_NAME_VARIANT, "os-small_2.1", 1 }, { KB_NAME_VARIANT, "9x", 1 },
		{ KB_NAME_VARIANT, "", 0 }, { KB_NAME_VARIANT, ".hidden", 0 }, { KB_NAME_VARIANT, "-x", 0 },
		{ KB_NAME_VARIANT, "..", 0 }, { KB_NAME_VARIANT, "a/b", 0 }, { KB_NAME_VARIANT, "a b", 0 },
		{ KB_NAME_VARIANT, "<b>", 0 }, { KB_NAME_VARIANT, "a'b", 0 }, { KB_NAME_VARIANT, "a\tb", 0 },
		{ KB_NAME_VARIANT, "pmu-host", 1 },
		{ KB_NAME_VARIANT, "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv", 1 },
		{ KB_NAME_VARIANT, "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv", 0 },
		{ KB_NAME_PLAIN, "ins_k", 1 }, { KB_NAME_PLAIN, "host_cycles_u", 1 }, { KB_NAME_PLAIN, "_x", 0 },
		{ KB_NAME_PLAIN, "1x", 0 }, { KB_NAME_PLAIN, "a-b", 0 }, { KB_NAME_PLAIN, "a.b", 0 },
		{ KB_NAME_PLAIN, "", 0 }, { KB_NAME_PLAIN, "cycles'", 0 },
		{ KB_NAME_CASE, "getppid", 1 }, { KB_NAME_CASE, "icache/k=16", 1 }, { KB_NAME_CASE, "icache/k=", 0 },
		{ KB_NAME_CASE, "icache/k=1x", 0 }, { KB_NAME_CASE, "icache/j=1", 0 }, { KB_NAME_CASE, "/k=1", 0 },
		{ KB_NAME_CASE, "icache/k=1/k=2", 0 }, { KB_NAME_CASE, "icache/k=123456789012345678901", 0 },
	};

	(void)state;
	for (size_t i = 0; i < KB_ARRAY_SIZE(t); i++) {
		if (kb_model_name_ok(t[i].kind, t[i].s) != t[i].ok)
			fail_msg("'%s' (kind %d): want %d", t[i].s, t[i].kind, t[i].ok);
	}
}

/* A sample line of variant "base", boot 1, case getppid. */
static json_t *sample_line(const char *variant, const char *cas, long long rep, double ns)
{
	json_t *s = json_pack("{s:s,s:I,s:s,s:s,s:I,s:f,s:s,s:{}}", "variant", variant, "boot", (json_int_t)1,
			      "workload", "getppid", "case", cas, "iterations", (json_int_t)1000, "ns_per_op", ns,
			      "backend", "clock", "fields");

	if (rep)
		json_object_set_new(s, "rep", json_integer(rep));
	return s;
}

/* A run of lines to fill: a manifest naming the workload getppid and
 * variants (NULL-terminated), its baseline the first. */
static void lines_run(struct run *r, const char *const *variants)
{
	r->manifest = json_pack("{s:s,s:s,s:{s:s},s:[]}", "run_id", "t", "baseline", variants[0], "run",
				"workloads", "getppid", "variants");
	for (size_t i = 0; variants[i]; i++)
		json_array_append_new(json_object_get(r->manifest, "variants"), json_pack("{s:s}", "name", variants[i]));
	r->samples = json_array();
	r->boots = json_array();
	r->model = NULL;
}

/* Duplicate (boot, case, rep) lines are dropped, the first kept, whatever
 * order the reps come in; a line with no rep cannot be a duplicate; names
 * that are not plain names are dropped. */
static void model_drops(void **state)
{
	static const long long reps[] = { 1, 2, 3, 2, 5, 3, 4, 0, -1, -1, 1LL << 40, 1LL << 40, 6 };
	struct kb_model_opts o = KB_MODEL_OPTS_INIT;
	struct run run;
	struct kb_model *m;
	const struct kb_row *r;

	(void)state;
	lines_run(&run, (const char *const[]){ "base", "<b>", NULL });
	/* distinct reps: 1 2 3 5 4 0 -1 2^40 6 (9 samples of 10 ns); the others 1000 ns */
	for (size_t i = 0; i < KB_ARRAY_SIZE(reps); i++) {
		int dup = i == 3 || i == 5 || i == 9 || i == 11;

		json_array_append_new(run.samples, sample_line("base", "getppid", reps[i], dup ? 1000 : 10));
	}
	json_array_append_new(run.samples, sample_line("base", "getppid", 0, 10));	/* no rep */
	json_array_append_new(run.samples, sample_line("base", "getppid", 0, 10));
	json_array_append_new(run.samples, sample_line("b<a>d", "getppid", 1, 1000));
	json_array_append_new(run.samples, sample_line("base", "getppid/k=x", 1, 1000));
	json_array_append_new(run.samples, sample_line("base", "get ppid", 1, 1000));
	json_array_append_new(run.boots, json_pack("{s:s,s:I,s:s}", "variant", "a'b", "boot", (json_int_t)1,
						   "status", "ok"));
	json_array_append_new(run.boots, json_pack("{s:s,s:I,s:s}", "variant", "base", "boot", (json_int_t)1,
						   "status", "ok"));
	m = run.model = kb_model_build(run.manifest, run.samples, run.boots, &o);
	assert_non_null(m);
	assert_int_equal(m->dropped.duplicates, 4);
	assert_int_equal(m->dropped.names.samples, 3);
	assert_int_equal(m->dropped.names.boots, 1);
	assert_int_equal(m->dropped.names.manifest, 1);
	assert_int_equal(m->nv, 1);
	assert_int_equal(m->boots_total, 1);
	r = kb_model_find(m, "getppid", "ns_per_op", "base");
	assert_non_null(r);
	assert_int_equal(r->samples, 11);
	NEAR(r->median, 10);
	assert_int_equal(r->outlier_samples, 0);
	run_free(&run);
}

/* A line of samples like the clean ones of model_ignores (ns_per_op 1e6,
 * ins_k 5000, a rep of its own) but for key (under fields where it starts
 * with "f."), which is value. */
static void bad_line(json_t *samples, const char *key, json_t *value)
{
	json_t *s = sample_line("base", "getppid", 10 + (long long)json_array_size(samples), 1e6);
	json_t *fields = json_object_get(s, "fields");

	json_object_set_new(fields, "ins_k", json_integer(5000));
	if (!strncmp(key, "f.", 2))
		json_object_set_new(fields, key + 2, value);
	else
		json_object_set_new(s, key, value);
	json_array_append_new(samples, s);
}

/* Samples the manifest does not account for, or with values no writer
 * gives, are used in no figure and counted by why, each once. */
static void model_ignores(void **state)
{
	struct kb_model_opts o = KB_MODEL_OPTS_INIT;
	struct run run;
	struct kb_model *m;
	const struct kb_row *r;
	json_t *s;

	(void)state;
	lines_run(&run, (const char *const[]){ "base", NULL });
	json_object_set_new(run.manifest, "layouts", json_integer(2));
	json_object_set_new(run.manifest, "sim", json_pack("{s:{s:i}}", "virtual_layouts", "n", 2));
	for (int rep = 1; rep <= 3; rep++) {
		s = sample_line("base", "getppid", rep, 10);
		json_object_set_new(json_object_get(s, "fields"), "ins_k", json_integer(5000));
		json_object_set_new(json_object_get(s, "fields"), "vl_l1i_k", json_pack("[i,i]", 3, 4));
		json_array_append_new(run.samples, s);
	}
	/* each a clean line but for one value ("f.": in fields) */
	bad_line(run.samples, "variant", json_string("other"));	/* variant */
	bad_line(run.samples, "layout", json_integer(2));	/* layout: 0 and 1 listed */
	bad_line(run.samples, "layout", json_integer(-1));
	bad_line(run.samples, "f.vl_l1i_k", json_pack("[i,i,i]", 3, 4, 5));	/* 3 virtual layouts of 2 */
	bad_line(run.samples, "f.ins_k", json_string("5000"));	/* wrong type */
	bad_line(run.samples, "iterations", json_string("1000"));
	bad_line(run.samples, "boot", json_real(1.5));
	bad_line(run.samples, "rep", json_string("x"));
	bad_line(run.samples, "ns_per_op", json_null());
	bad_line(run.samples, "f.vl_l1i_k", json_string("3"));
	bad_line(run.samples, "fields", json_array());
	bad_line(run.samples, "iterations", json_integer(0));	/* zero iterations */
	bad_line(run.samples, "f.ins_k", json_integer(-5000));	/* negative */
	bad_line(run.samples, "ns_per_op", json_real(-10));
	bad_line(run.samples, "iterations", json_integer(-1000));
	bad_line(run.samples, "f.ins_k", json_real(1e308));	/* not an integer */
	bad_line(run.samples, "f.ins_k", json_real(5000.5));
	bad_line(run.samples, "iterations", json_real(1000.0));
	bad_line(run.samples, "f.vl_l1i_k", json_pack("[i,f]", 3, 4.5));
	/* two faults: counted once, for the first */
	s = sample_line("other", "getppid", 90, 1e6);
	json_object_set_new(s, "iterations", json_integer(0));
	json_array_append_new(run.samples, s);
	m = run.model = kb_model_build(run.manifest, run.samples, run.boots, &o);
	assert_non_null(m);
	assert_int_equal(m->ignored[KB_IGNORED_VARIANT], 2);
	assert_int_equal(m->ignored[KB_IGNORED_LAYOUT], 3);
	assert_int_equal(m->ignored[KB_IGNORED_TYPE], 7);
	assert_int_equal(m->ignored[KB_IGNORED_ITERATIONS], 1);
	assert_int_equal(m->ignored[KB_IGNORED_NEGATIVE], 3);
	assert_int_equal(m->ignored[KB_IGNORED_FRACTION], 4);
	assert_int_equal(m->nv, 1);
	assert_int_equal(m->nlayouts, 1);
	r = kb_model_find(m, "getppid", "ns_per_op", "base");
	assert_non_null(r);
	assert_int_equal(r->samples, 3);
	NEAR(r->median, 10);
	r = kb_model_find(m, "getppid", "ins_k_per_op", "base");
	assert_non_null(r);
	assert_int_equal(r->samples, 3);
	NEAR(r->median, 5);
	assert_string_equal(kb_ignored_name(KB_IGNORED_FRACTION), "not_integer");
	run_free(&run);
}

/* Many names: the hash tables grow and every name keeps its id. */
static void model_many_names(void **state)
{
	struct kb_model_opts o = KB_MODEL_OPTS_INIT;
	struct run run;
	struct kb_model *m;

	(void)state;
	lines_run(&run, (const char *const[]){ "v0", NULL });
	o.resamples = 10;
	for (int v = 0; v < 300; v++) {
		char name[16];

		snprintf(name, sizeof(name), "v%d", v);
		if (v)	/* the manifest lists every variant a sample names */
			json_array_append_new(json_object_get(run.manifest, "variants"), json_pack("{s:s}", "name", name));
		for (int b = 0; b < 2; b++) {
			json_t *s = sample_line(name, "getppid", 1, 100 + v);

			json_object_set_new(s, "boot", json_integer(2 * v + b));
			json_array_append_new(run.samples, s);
		}
	}
	m = run.model = kb_model_build(run.manifest, run.samples, run.boots, &o);
	assert_non_null(m);
	assert_int_equal(m->nv, 300);
	for (int v = 0; v < 300; v++) {
		const struct kb_row *r = kb_model_row(m, 0, 0, (size_t)v);

		assert_int_equal(r->boots, 2);
		NEAR(r->median, 100 + v);
		assert_int_equal(r->boot_ids[0], 2 * v);
	}
	run_free(&run);
}

/* A run whose cases, metrics and variants make more rows than a report
 * holds is refused with a message, not allocated. */
static void model_too_large(void **state)
{
	json_t *s = sample_line("v0", "getppid", 1, 10), *fields = json_object_get(s, "fields");
	struct kb_model_opts o = KB_MODEL_OPTS_INIT;
	struct run run;

	(void)state;
	lines_run(&run, (const char *const[]){ "v0", NULL });
	for (int i = 0; i < KB_MODEL_MAX_ROWS; i++) {
		char key[16];

		snprintf(key, sizeof(key), "f%d", i);
		json_object_set_new(fields, key, json_integer(i));
	}
	json_array_append_new(run.samples, s);
	assert_null(kb_model_build(run.manifest, run.samples, run.boots, &o));
	run_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(medians_and_mad),
		cmocka_unit_test(outliers_marked),
		cmocka_unit_test(mann_whitney_exact),
		cmocka_unit_test(mann_whitney_ties),
		cmocka_unit_test(mann_whitney_calibrated),
		cmocka_unit_test(cliffs_delta_and_labels),
		cmocka_unit_test(holm),
		cmocka_unit_test(spearman),
		cmocka_unit_test(bootstrap),
		cmocka_unit_test(nested),
		cmocka_unit_test(geomean),
		cmocka_unit_test(tails),
		cmocka_unit_test(seeds),
		cmocka_unit_test(model_verdicts),
		cmocka_unit_test(model_deterministic),
		cmocka_unit_test(model_serialized),
		cmocka_unit_test(name_rules),
		cmocka_unit_test(model_drops),
		cmocka_unit_test(model_ignores),
		cmocka_unit_test(model_many_names),
		cmocka_unit_test(model_too_large),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
