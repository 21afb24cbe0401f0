// SPDX-License-Identifier: GPL-2.0-or-later
/* Statistics of a comparison between kernels: medians, MAD outliers,
 * bootstrap intervals, Mann-Whitney U, Holm, Cliff's delta, Spearman.
 * The unit of replication is the boot: callers pass per-boot medians. */
#include "config.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

static double *copy_sorted(const double *v, size_t n)
{
	double *c = kb_xmalloc((n ? n : 1) * sizeof(*c));

	memcpy(c, v, n * sizeof(*c));
	gsl_sort(c, 1, n);
	return c;
}

double kb_stats_median(const double *v, size_t n)
{
	double *c, m;

	if (!n)
		return NAN;
	c = copy_sorted(v, n);
	m = gsl_stats_median_from_sorted_data(c, 1, n);
	free(c);
	return m;
}

double kb_stats_mad(const double *v, size_t n)
{
	double med = kb_stats_median(v, n), *d, m;

	if (!n)
		return NAN;
	d = kb_xmalloc(n * sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(v[i] - med);
	m = kb_stats_median(d, n);
	free(d);
	return m;
}

size_t kb_stats_outliers(const double *v, size_t n, double threshold, unsigned char *out)
{
	double med, mad, scale, meanad = 0;
	size_t k = 0;

	memset(out, 0, n);
	if (n < 3)
		return 0;	/* two values cannot say which one is odd */
	med = kb_stats_median(v, n);
	mad = kb_stats_mad(v, n);
	if (mad > 0) {
		scale = mad / 0.6745;
	} else {
		for (size_t i = 0; i < n; i++)
			meanad += fabs(v[i] - med);
		scale = 1.253314 * meanad / (double)n;
	}
	if (!(scale > 0))
		return 0;	/* all equal */
	for (size_t i = 0; i < n; i++)
		if (fabs(v[i] - med) / scale > threshold) {
			out[i] = 1;
			k++;
		}
	return k;
}

/* Median of n values drawn with replacement from v; tmp holds n doubles. */
static double resampled_median(const double *v, size_t n, gsl_rng *rng, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[gsl_rng_uniform_int(rng, n)];
	gsl_sort(tmp, 1, n);
	return gsl_stats_median_from_sorted_data(tmp, 1, n);
}

static void percentile_interval(double *dist, size_t b, double level, struct kb_interval *ci)
{
	double tail = (1.0 - level) / 2;

	gsl_sort(dist, 1, b);
	ci->lo = gsl_stats_quantile_from_sorted_data(dist, 1, b, tail);
	ci->hi = gsl_stats_quantile_from_sorted_data(dist, 1, b, 1.0 - tail);
}

int kb_stats_bootstrap_median(const double *v, size_t n, gsl_rng *rng, size_t resamples,
			      double level, struct kb_interval *ci)
{
	double *dist, *tmp;

	if (!n || !resamples)
		return -EINVAL;
	dist = kb_xmalloc(resamples * sizeof(*dist));
	tmp = kb_xmalloc(n * sizeof(*tmp));
	for (size_t r = 0; r < resamples; r++)
		dist[r] = resampled_median(v, n, rng, tmp);
	percentile_interval(dist, resamples, level, ci);
	free(dist);
	free(tmp);
	return 0;
}

int kb_stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb, gsl_rng *rng,
			     size_t resamples, double level, struct kb_interval *ci)
{
	double *dist, *tmp;

	if (!na || !nb || !resamples)
		return -EINVAL;
	dist = kb_xmalloc(resamples * sizeof(*dist));
	tmp = kb_xmalloc((na > nb ? na : nb) * sizeof(*tmp));
	for (size_t r = 0; r < resamples; r++) {
		double ma = resampled_median(a, na, rng, tmp);

		dist[r] = ma / resampled_median(b, nb, rng, tmp);
	}
	percentile_interval(dist, resamples, level, ci);
	free(dist);
	free(tmp);
	return 0;
}

/* Ranks of the concatenation of a and b (1-based, average ranks for ties);
 * returns the sum over tie groups of t^3 - t. */
static double joint_ranks(const double *a, size_t na, const double *b, size_t nb, double *rank)
{
	size_t n = na + nb, *idx = kb_xmalloc((n ? n : 1) * sizeof(*idx));
	double *all = kb_xmalloc((n ? n : 1) * sizeof(*all)), ties = 0;

	memcpy(all, a, na * sizeof(*all));
	if (nb)
		memcpy(all + na, b, nb * sizeof(*all));
	gsl_sort_index(idx, all, 1, n);
	for (size_t i = 0; i < n; ) {
		size_t j = i;
		double t;

		while (j + 1 < n && all[idx[j + 1]] == all[idx[i]])
			j++;
		t = (double)(j - i + 1);
		for (size_t k = i; k <= j; k++)
			rank[idx[k]] = (double)(i + j) / 2 + 1;
		ties += t * t * t - t;
		i = j + 1;
	}
	free(idx);
	free(all);
	return ties;
}

double kb_stats_mwu_min_p(size_t na, size_t nb)
{
	double c = 1;

	for (size_t i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return 2 / c < 1 ? 2 / c : 1;
}

/* The exact permutation distribution of the rank sum of k of the n values
 * whose doubled (mid)ranks are w[0..n) (integers, ties included): the
 * number of k-subsets with each sum, for sums 0..*len-1 (malloc'd).  One
 * item at a time, subset sizes counted down so each item is used once. */
static double *rank_sum_counts(const long *w, size_t n, size_t k, size_t *len)
{
	long top = 0;
	double *dp, *res;
	size_t cols;

	for (size_t i = 0; i < n; i++)
		top += w[i];
	cols = (size_t)top + 1;
	dp = kb_xcalloc((k + 1) * cols, sizeof(*dp));
	dp[0] = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t j = (i + 1 < k ? i + 1 : k); j >= 1; j--) {
			const double *prev = dp + (j - 1) * cols;
			double *cur = dp + j * cols;

			for (size_t s = 0; s + (size_t)w[i] < cols; s++)
				if (prev[s] != 0)
					cur[s + (size_t)w[i]] += prev[s];
		}
	res = kb_xmalloc(cols * sizeof(*res));
	memcpy(res, dp + k * cols, cols * sizeof(*res));
	free(dp);
	*len = cols;
	return res;
}

/* Exact two-sided p of the rank sum of a: twice the smaller tail of its
 * permutation distribution (the observed value counted in both), at most 1
 * (scipy.stats.permutation_test's convention, the same as
 * scipy.stats.mannwhitneyu's exact p where there are no ties). */
static double exact_p(const double *rank, size_t na, size_t nb)
{
	size_t n = na + nb, k = na < nb ? na : nb, len, obs = 0;
	long *w = kb_xmalloc(n * sizeof(*w));
	double *c, total = 0, le = 0, ge = 0, p;

	for (size_t i = 0; i < n; i++)
		w[i] = lround(2 * rank[i]);
	/* the smaller side's rank sum: the same test, a smaller table */
	for (size_t i = na < nb ? 0 : na; i < (na < nb ? na : n); i++)
		obs += (size_t)w[i];
	c = rank_sum_counts(w, n, k, &len);
	for (size_t s = 0; s < len; s++) {
		total += c[s];
		if (s <= obs)
			le += c[s];
		if (s >= obs)
			ge += c[s];
	}
	p = 2 * (le < ge ? le : ge) / total;
	free(c);
	free(w);
	return p < 1 ? p : 1;
}

int kb_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct kb_mwu *r)
{
	size_t n = na + nb;
	double *rank, ties, r1 = 0, mn = (double)na * (double)nb, u1, u2, ubig;

	memset(r, 0, sizeof(*r));
	if (!na || !nb)
		return -EINVAL;
	rank = kb_xmalloc(n * sizeof(*rank));
	ties = joint_ranks(a, na, b, nb, rank);
	for (size_t i = 0; i < na; i++)
		r1 += rank[i];
	u1 = r1 - (double)na * (double)(na + 1) / 2;
	u2 = mn - u1;
	ubig = u1 > u2 ? u1 : u2;
	r->u = u1;
	if (na <= KB_MWU_EXACT_MAX && nb <= KB_MWU_EXACT_MAX) {
		r->p = exact_p(rank, na, nb);
		r->exact = 1;
	} else {
		double nn = (double)n;
		double s = sqrt(mn / 12 * ((nn + 1) - ties / (nn * (nn - 1))));
		double pmin = kb_stats_mwu_min_p(na, nb);

		r->p = s > 0 ? 2 * gsl_cdf_ugaussian_Q((ubig - mn / 2 - 0.5) / s) : 1;
		/* never below what any arrangement of these sample sizes allows */
		if (r->p < pmin)
			r->p = pmin;
	}
	free(rank);
	if (r->p > 1)
		r->p = 1;
	return 0;
}

double kb_stats_cliffs_delta(const double *a, size_t na, const double *b, size_t nb)
{
	double more = 0, less = 0;

	if (!na || !nb)
		return NAN;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			more += a[i] > b[j];
			less += a[i] < b[j];
		}
	return (more - less) / ((double)na * (double)nb);
}

const char *kb_stats_effect_label(double d)
{
	d = fabs(d);
	if (isnan(d))
		return "";
	if (d < 0.147)
		return "negligible";
	if (d < 0.33)
		return "small";
	if (d < 0.474)
		return "medium";
	return "large";
}

void kb_stats_holm(const double *p, size_t n, double *adj)
{
	size_t *idx = kb_xmalloc((n ? n : 1) * sizeof(*idx));
	double run = 0;

	gsl_sort_index(idx, p, 1, n);
	for (size_t k = 0; k < n; k++) {
		double a = (double)(n - k) * p[idx[k]];

		if (a > 1)
			a = 1;
		if (a > run)
			run = a;
		adj[idx[k]] = run;
	}
	free(idx);
}

static void ranks(const double *v, size_t n, double *rank)
{
	joint_ranks(v, n, NULL, 0, rank);
}

static double pearson(const double *x, const double *y, size_t n)
{
	double mx = gsl_stats_mean(x, 1, n), my = gsl_stats_mean(y, 1, n), sxy = 0, sxx = 0, syy = 0;

	for (size_t i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (sxx == 0 || syy == 0)
		return NAN;
	return sxy / sqrt(sxx * syy);
}

double kb_stats_spearman(const double *x, const double *y, size_t n)
{
	double *rx, *ry, rho;

	if (n < 2)
		return NAN;
	rx = kb_xmalloc(n * sizeof(*rx));
	ry = kb_xmalloc(n * sizeof(*ry));
	ranks(x, n, rx);
	ranks(y, n, ry);
	rho = pearson(rx, ry, n);
	free(rx);
	free(ry);
	return rho;
}

struct perm_count {
	double obs, eps;
	size_t le, ge, total;
};

static void perm_tally(struct perm_count *c, const double *rx, const double *ry, size_t n)
{
	double rho = pearson(rx, ry, n);

	c->le += rho <= c->obs + c->eps;
	c->ge += rho >= c->obs - c->eps;
	c->total++;
}

double kb_stats_spearman_p(const double *x, const double *y, size_t n, gsl_rng *rng,
			   size_t resamples)
{
	struct perm_count c = { 0 };
	double *rx, *ry, p;

	c.obs = kb_stats_spearman(x, y, n);
	if (isnan(c.obs))
		return NAN;
	c.eps = 1e-12 * (fabs(c.obs) > 1 ? fabs(c.obs) : 1);
	rx = kb_xmalloc(n * sizeof(*rx));
	ry = kb_xmalloc(n * sizeof(*ry));
	ranks(x, n, rx);
	ranks(y, n, ry);
	if (n <= 8) {
		/* Heap's algorithm: every ordering of y's ranks once. */
		size_t stack[8] = { 0 }, i = 1;

		perm_tally(&c, rx, ry, n);
		while (i < n) {
			if (stack[i] < i) {
				size_t j = i % 2 ? stack[i] : 0;
				double t = ry[j];

				ry[j] = ry[i];
				ry[i] = t;
				perm_tally(&c, rx, ry, n);
				stack[i]++;
				i = 1;
			} else {
				stack[i++] = 0;
			}
		}
		p = 2 * (double)(c.le < c.ge ? c.le : c.ge) / (double)c.total;
	} else {
		for (size_t r = 0; r < resamples; r++) {
			gsl_ran_shuffle(rng, ry, n, sizeof(*ry));
			perm_tally(&c, rx, ry, n);
		}
		p = 2 * (double)((c.le < c.ge ? c.le : c.ge) + 1) / (double)(resamples + 1);
	}
	free(rx);
	free(ry);
	return p < 1 ? p : 1;
}

static unsigned long long fnv1a(unsigned long long h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;	/* a separator: ("ab","c") != ("a","bc") */
}

unsigned long kb_stats_seed(unsigned long long seed, const char *a, const char *b, const char *c)
{
	unsigned long long z = fnv1a(fnv1a(fnv1a(0xcbf29ce484222325ULL, a), b), c) ^ seed;

	/* splitmix64 finaliser: nearby inputs give unrelated seeds */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (unsigned long)(z ? z : 1);
}
