// SPDX-License-Identifier: GPL-2.0-or-later
/* Statistics of a comparison between kernels: medians, MAD outliers,
 * bootstrap intervals (of one level, or two: builds, then layouts within
 * each), Mann-Whitney U, Holm, Cliff's delta, Spearman.  Callers pass
 * their replicates: per-boot or per-build medians, or nested ones. */
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
	gsl_sort(dist, 1, b);
	kb_stats_percentile(dist, b, level, ci);
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

/* Median of v[0..n) (n > 0), which it sorts: by insertion where n is small,
 * as the groups of a nested bootstrap are (a build's layouts). */
static double small_median(double *v, size_t n)
{
	if (n > 32) {
		/* GSL's selection (from 2.5; v rearranged, not sorted): a median
		 * of 33 values per group per resample made gsl_sort 73% of a
		 * report of 8 builds x 33 layouts */
		return gsl_stats_median(v, 1, n);
	} else {
		for (size_t i = 1; i < n; i++) {
			double x = v[i];
			size_t j = i;

			for (; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
	}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static size_t group_at(const struct kb_nested *a, size_t i)
{
	return a->start ? a->start[i] : i;
}

static size_t group_size(const struct kb_nested *a, size_t i)
{
	return group_at(a, i + 1) - group_at(a, i);
}

static size_t largest_group(const struct kb_nested *a)
{
	size_t most = 0;

	for (size_t i = 0; i < a->n; i++)
		if (group_size(a, i) > most)
			most = group_size(a, i);
	return most;
}

double kb_stats_nested_median(const struct kb_nested *a)
{
	double *g = kb_xmalloc((a->n + 1) * sizeof(*g)), *tmp = kb_xmalloc((largest_group(a) + 1) * sizeof(*tmp));
	size_t ng = 0;
	double m;

	for (size_t i = 0; i < a->n; i++) {
		size_t k = group_size(a, i);

		if (!k)
			continue;
		memcpy(tmp, a->v + group_at(a, i), k * sizeof(*tmp));
		g[ng++] = small_median(tmp, k);
	}
	m = ng ? small_median(g, ng) : NAN;
	free(g);
	free(tmp);
	return m;
}

/* One two-stage resample of a's nested median; g: a->n doubles, tmp: the
 * largest group's.  Groups without a value are not drawn (nonempty lists
 * those that have one, nn of them). */
static double resampled_nested(const struct kb_nested *a, const size_t *nonempty, size_t nn, gsl_rng *rng,
			       double *g, double *tmp)
{
	for (size_t i = 0; i < nn; i++) {
		size_t grp = nonempty[gsl_rng_uniform_int(rng, nn)];
		const double *v = a->v + group_at(a, grp);
		size_t k = group_size(a, grp);

		for (size_t j = 0; j < k; j++)
			tmp[j] = v[k > 1 ? gsl_rng_uniform_int(rng, k) : 0];
		g[i] = small_median(tmp, k);
	}
	return small_median(g, nn);
}

static size_t *nonempty_groups(const struct kb_nested *a, size_t *nn)
{
	size_t *ne = kb_xmalloc((a->n + 1) * sizeof(*ne));

	*nn = 0;
	for (size_t i = 0; i < a->n; i++)
		if (group_size(a, i))
			ne[(*nn)++] = i;
	return ne;
}

int kb_stats_bootstrap_ratio_nested(const struct kb_nested *a, const struct kb_nested *b, gsl_rng *rng,
				    size_t resamples, double *dist)
{
	size_t na, nb, *ea = nonempty_groups(a, &na), *eb = nonempty_groups(b, &nb);
	size_t most = largest_group(a) > largest_group(b) ? largest_group(a) : largest_group(b);
	double *g = kb_xmalloc((na > nb ? na : nb) * sizeof(*g) + sizeof(*g));
	double *tmp = kb_xmalloc((most + 1) * sizeof(*tmp));
	int ret = 0;

	if (!na || !nb || !resamples) {
		ret = -EINVAL;
		goto out;
	}
	for (size_t r = 0; r < resamples; r++) {
		double x = resampled_nested(a, ea, na, rng, g, tmp);

		dist[r] = x / resampled_nested(b, eb, nb, rng, g, tmp);
	}
	gsl_sort(dist, 1, resamples);
out:
	free(ea);
	free(eb);
	free(g);
	free(tmp);
	return ret;
}

/* Whether every case of a side has the first one's groups, of the same
 * sizes. */
static int one_shape(const struct kb_nested *a, size_t ncases)
{
	for (size_t c = 1; c < ncases; c++) {
		if (a[c].n != a[0].n)
			return 0;
		for (size_t i = 0; i < a[0].n; i++)
			if (group_size(&a[c], i) != group_size(&a[0], i))
				return 0;
	}
	return 1;
}

/* One two-stage draw of a side of one shape, in resampled_nested's order
 * (a group, then its values): pick[] the groups, at[] each drawn value's
 * index within its group, in turn. */
static void draw_shape(const struct kb_nested *a, const size_t *nonempty, size_t nn, gsl_rng *rng,
		       size_t *pick, size_t *at)
{
	for (size_t i = 0, w = 0; i < nn; i++) {
		size_t k = group_size(a, pick[i] = nonempty[gsl_rng_uniform_int(rng, nn)]);

		for (size_t j = 0; j < k; j++)
			at[w++] = k > 1 ? gsl_rng_uniform_int(rng, k) : 0;
	}
}

/* The nested median of case a under a draw of draw_shape. */
static double shape_median(const struct kb_nested *a, const size_t *pick, const size_t *at, size_t nn,
			   double *g, double *tmp)
{
	for (size_t i = 0, w = 0; i < nn; i++) {
		const double *v = a->v + group_at(a, pick[i]);
		size_t k = group_size(a, pick[i]);

		for (size_t j = 0; j < k; j++)
			tmp[j] = v[at[w++]];
		g[i] = small_median(tmp, k);
	}
	return small_median(g, nn);
}

struct side {
	const struct kb_nested *v;
	size_t **nonempty, *nn;
	int shared;
	size_t *pick, *at;
};

static int side_init(struct side *s, const struct kb_nested *v, size_t ncases)
{
	size_t most = 1;

	s->v = v;
	s->nonempty = kb_xcalloc(ncases, sizeof(*s->nonempty));
	s->nn = kb_xcalloc(ncases, sizeof(*s->nn));
	for (size_t c = 0; c < ncases; c++) {
		s->nonempty[c] = nonempty_groups(&v[c], &s->nn[c]);
		if (!s->nn[c])
			return -EINVAL;
		if (v[c].n > most)
			most = v[c].n;
	}
	s->shared = one_shape(v, ncases);
	s->pick = kb_xmalloc(most * sizeof(*s->pick));
	/* a draw takes at most n groups of the largest size */
	s->at = kb_xmalloc(most * (largest_group(&v[0]) + 1) * sizeof(*s->at));
	return 0;
}

static void side_release(struct side *s, size_t ncases)
{
	for (size_t c = 0; s->nonempty && c < ncases; c++)
		free(s->nonempty[c]);
	free(s->nonempty);
	free(s->nn);
	free(s->pick);
	free(s->at);
}

/* Case c's resampled nested median: from the side's one draw where its
 * cases share a shape (drawn at case 0), else a draw of its own. */
static double side_resample(struct side *s, size_t c, gsl_rng *rng, double *g, double *tmp)
{
	if (!s->shared)
		return resampled_nested(&s->v[c], s->nonempty[c], s->nn[c], rng, g, tmp);
	if (c == 0)
		draw_shape(&s->v[0], s->nonempty[0], s->nn[0], rng, s->pick, s->at);
	return shape_median(&s->v[c], s->pick, s->at, s->nn[c], g, tmp);
}

double kb_stats_geomean_nested(const struct kb_nested *a, const struct kb_nested *b, size_t ncases)
{
	double sum = 0;

	if (!ncases)
		return NAN;
	for (size_t c = 0; c < ncases; c++) {
		double r = kb_stats_nested_median(&a[c]) / kb_stats_nested_median(&b[c]);

		if (!(r > 0) || !isfinite(r))
			return NAN;
		sum += log(r);
	}
	return exp(sum / ncases);
}

int kb_stats_bootstrap_geomean_nested(const struct kb_nested *a, const struct kb_nested *b, size_t ncases,
				      gsl_rng *rng, size_t resamples, double *dist)
{
	struct side sa = { 0 }, sb = { 0 };
	size_t most = 1, groups = 1;
	double *g = NULL, *tmp = NULL, *xa = NULL;
	int ret = -EINVAL;

	if (!ncases || !resamples || side_init(&sa, a, ncases) < 0 || side_init(&sb, b, ncases) < 0)
		goto out;
	for (size_t c = 0; c < ncases; c++) {
		if (largest_group(&a[c]) > most)
			most = largest_group(&a[c]);
		if (largest_group(&b[c]) > most)
			most = largest_group(&b[c]);
		if (a[c].n > groups)
			groups = a[c].n;
		if (b[c].n > groups)
			groups = b[c].n;
	}
	g = kb_xmalloc(groups * sizeof(*g));
	tmp = kb_xmalloc(most * sizeof(*tmp));
	xa = kb_xmalloc(ncases * sizeof(*xa));
	for (size_t r = 0; r < resamples; r++) {
		double sum = 0;

		/* side a of every case, then side b: one case draws as
		 * kb_stats_bootstrap_ratio_nested does */
		for (size_t c = 0; c < ncases; c++)
			xa[c] = side_resample(&sa, c, rng, g, tmp);
		for (size_t c = 0; c < ncases; c++)
			sum += log(xa[c] / side_resample(&sb, c, rng, g, tmp));
		dist[r] = exp(sum / ncases);
	}
	gsl_sort(dist, 1, resamples);
	ret = 0;
out:
	free(xa);
	free(g);
	free(tmp);
	side_release(&sa, ncases);
	side_release(&sb, ncases);
	return ret;
}

void kb_stats_percentile(const double *sorted, size_t n, double level, struct kb_interval *ci)
{
	double tail = (1.0 - level) / 2;

	ci->lo = gsl_stats_quantile_from_sorted_data(sorted, 1, n, tail);
	ci->hi = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 1.0 - tail);
}

int kb_stats_tails_init(struct kb_tails *t, const double *sorted, size_t n, double min_level)
{
	memset(t, 0, sizeof(*t));
	if (!n || !(min_level > 0 && min_level < 1))
		return -EINVAL;
	/* gsl's quantile at f reads order statistics floor((n - 1) f) and the
	 * next: keep both for every f up to the widest tail */
	t->keep = (size_t)ceil((double)(n - 1) * (1 - min_level) / 2) + 3;
	if (t->keep > n)
		t->keep = n;
	t->n = n;
	t->lo = kb_xmalloc(t->keep * sizeof(*t->lo));
	t->hi = kb_xmalloc(t->keep * sizeof(*t->hi));
	memcpy(t->lo, sorted, t->keep * sizeof(*t->lo));
	memcpy(t->hi, sorted + n - t->keep, t->keep * sizeof(*t->hi));
	return 0;
}

/* Order statistic i of the distribution t was made from, or NAN where it
 * was not kept. */
static double tails_at(const struct kb_tails *t, size_t i)
{
	if (i < t->keep)
		return t->lo[i];
	if (i >= t->n - t->keep && i < t->n)
		return t->hi[i - (t->n - t->keep)];
	return NAN;
}

/* gsl_stats_quantile_from_sorted_data's arithmetic on the kept tails */
static double tails_quantile(const struct kb_tails *t, double f)
{
	double index = f * (double)(t->n - 1);
	size_t lhs = (size_t)index;
	double delta = index - (double)lhs;

	if (lhs == t->n - 1)
		return tails_at(t, lhs);
	return (1 - delta) * tails_at(t, lhs) + delta * tails_at(t, lhs + 1);
}

int kb_stats_tails_interval(const struct kb_tails *t, double level, struct kb_interval *ci)
{
	double tail = (1.0 - level) / 2;

	ci->lo = ci->hi = NAN;
	if (!t->n || !(level > 0 && level < 1))
		return -EINVAL;
	ci->lo = tails_quantile(t, tail);
	ci->hi = tails_quantile(t, 1.0 - tail);
	return isnan(ci->lo) || isnan(ci->hi) ? -ERANGE : 0;
}

void kb_stats_tails_release(struct kb_tails *t)
{
	free(t->lo);
	free(t->hi);
	memset(t, 0, sizeof(*t));
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
