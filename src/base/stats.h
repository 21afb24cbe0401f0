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

/* Replicates in two levels (builds, then layouts within each): group i
 * holds v[start[i]..start[i + 1]), start having n + 1 entries; start NULL:
 * each value a group of its own (boots). */
struct kb_nested {
	const double *v;
	const size_t *start;
	size_t n;
};
/* The two-level median: the median over groups of each group's median
 * (NAN without a value). */
double kb_stats_nested_median(const struct kb_nested *a);
/* Two-stage bootstrap of nested_median(a) / nested_median(b), each side
 * resampled on its own: groups drawn with replacement, then each drawn
 * group's values drawn with replacement from that group (Davison and
 * Hinkley 1997, 3.8; a group of one value stays that value).  The
 * resamples ratios go to dist[0..resamples), sorted.  0, or -EINVAL when
 * a side has no value. */
int kb_stats_bootstrap_ratio_nested(const struct kb_nested *a, const struct kb_nested *b, gsl_rng *rng,
				    size_t resamples, double *dist);

/* The geometric mean over ncases cases of nested_median(a[c]) /
 * nested_median(b[c]), bootstrapped as kb_stats_bootstrap_ratio_nested
 * bootstraps one ratio: each resample redraws every case's two sides in
 * two stages, and its geometric mean goes to dist[0..resamples), sorted.
 * A side whose cases share one shape (the same groups of the same sizes:
 * the same builds and layouts measured in every case) is drawn once per
 * resample for all its cases, so that what the cases share (a build that
 * is slow everywhere) moves them together; else each case is drawn on its
 * own.  With one case the draws, and so dist, are the ratio's.  Every
 * ratio must be positive.  0, or -EINVAL (no case, a side without a
 * value). */
int kb_stats_bootstrap_geomean_nested(const struct kb_nested *a, const struct kb_nested *b, size_t ncases,
				      gsl_rng *rng, size_t resamples, double *dist);
/* Their geometric mean itself (NAN where a ratio is not positive). */
double kb_stats_geomean_nested(const struct kb_nested *a, const struct kb_nested *b, size_t ncases);

/* The two tails of a sorted bootstrap distribution of n values that every
 * percentile interval at a level of at least min_level needs (numpy's
 * linear interpolation between order statistics): kept so that an
 * interval's level can be chosen after the bootstrap (a family's
 * correction), without keeping the whole distribution. */
struct kb_tails {
	size_t n, keep;		/* resamples; values kept at each end */
	double *lo, *hi;	/* the keep smallest, the keep largest (increasing) */
};
/* From dist[0..n) sorted; 0, or -EINVAL (n 0, or min_level not in (0, 1)).
 * Release with kb_stats_tails_release. */
int kb_stats_tails_init(struct kb_tails *t, const double *sorted, size_t n, double min_level);
/* The percentile interval at level (>= the min_level it was made for:
 * else -ERANGE), the same figures as from the whole distribution. */
int kb_stats_tails_interval(const struct kb_tails *t, double level, struct kb_interval *ci);
void kb_stats_tails_release(struct kb_tails *t);
/* The percentile interval at level of a sorted distribution. */
void kb_stats_percentile(const double *sorted, size_t n, double level, struct kb_interval *ci);

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
