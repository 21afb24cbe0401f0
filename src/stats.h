/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_STATS_H
#define KB_STATS_H

/* The statistics of a comparison, on plain arrays of doubles: no JSON and no
 * I/O here, so each function can be checked against an independent
 * implementation (tests/stats-ref.py, scipy) on fixed data. */

#include <gsl/gsl_rng.h>
#include <stddef.h>

struct kb_interval {
	double lo, hi;
};

/* Median of v[0..n) (v is not changed); NAN when n is 0. */
double kb_stats_median(const double *v, size_t n);
/* Median absolute deviation from the median (raw, not scaled). */
double kb_stats_mad(const double *v, size_t n);
/* Modified z-scores (Iglewicz and Hoaglin): 0.6745 (x - median) / MAD, or
 * (x - median) / (1.253314 mean absolute deviation) when the MAD is 0.  Sets
 * out[i] to 1 where |z| > threshold (3.5 is the usual choice), else 0, and
 * returns how many.  Nothing is dropped: callers mark, never remove. */
size_t kb_stats_outliers(const double *v, size_t n, double threshold, unsigned char *out);

/* Percentile bootstrap interval (linear interpolation between order
 * statistics, as numpy's percentile) of the median, from resamples drawn
 * with replacement; level is e.g. 0.95.  0, or -EINVAL when n is 0. */
int kb_stats_bootstrap_median(const double *v, size_t n, gsl_rng *rng, size_t resamples,
			      double level, struct kb_interval *ci);
/* Same for median(a) / median(b), a and b resampled independently. */
int kb_stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb, gsl_rng *rng,
			     size_t resamples, double level, struct kb_interval *ci);

/* Two-sided Mann-Whitney U test of a against b.  u is U of a (pairs with
 * a > b, ties counting one half), as scipy.stats.mannwhitneyu returns it.
 * When both samples have at most KB_MWU_EXACT_MAX values, the exact
 * permutation distribution of the rank sum, ties included (midranks): p is
 * twice the smaller tail, the observed value counted in both, at most 1
 * (scipy.stats.permutation_test's two-sided convention; with no ties the
 * same as mannwhitneyu's exact p).  So p is never below
 * kb_stats_mwu_min_p: 3 boots against 3, all tied within each, give 0.1,
 * not the normal approximation's 0.047.  Larger samples: the normal
 * approximation with tie and continuity corrections, raised to
 * kb_stats_mwu_min_p if below it. */
#define KB_MWU_EXACT_MAX 50
struct kb_mwu {
	double u;
	double p;
	int exact;
};
int kb_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct kb_mwu *r);
/* The smallest two-sided p an exact test of na against nb values can give:
 * 2 / C(na + nb, na).  With 3 boots against 3 it is 0.1. */
double kb_stats_mwu_min_p(size_t na, size_t nb);
/* Cliff's delta of a against b: P(a > b) - P(a < b), in [-1, 1]; equal to
 * the rank-biserial correlation 2U/(na nb) - 1. */
double kb_stats_cliffs_delta(const double *a, size_t na, const double *b, size_t nb);
/* "negligible", "small", "medium" or "large" (Romano et al. 2006 thresholds). */
const char *kb_stats_effect_label(double delta);
/* Holm-Bonferroni adjusted p-values (step-down, monotone, at most 1). */
void kb_stats_holm(const double *p, size_t n, double *adjusted);

/* Spearman's rank correlation (average ranks for ties); NAN when either
 * side is constant or n < 2. */
double kb_stats_spearman(const double *x, const double *y, size_t n);
/* Two-sided permutation p-value of Spearman's rho: y permuted against x,
 * p = 2 min(P(rho* <= rho), P(rho* >= rho)), at most 1 (scipy's
 * permutation_test convention).  Every permutation when n <= 8, else
 * `resamples` random ones with p = (k + 1) / (resamples + 1).  NAN when rho
 * is undefined. */
double kb_stats_spearman_p(const double *x, const double *y, size_t n, gsl_rng *rng,
			   size_t resamples);

/* A stable 64-bit seed for one figure: the run's seed mixed with names, so
 * each interval is reproducible whatever else the report computes. */
unsigned long kb_stats_seed(unsigned long long seed, const char *a, const char *b, const char *c);

#endif
