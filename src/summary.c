// SPDX-License-Identifier: GPL-2.0-or-later
/* The result model of a run: samples grouped by variant and case, reduced to
 * per-boot medians (the boot is the unit of replication), then intervals,
 * tests against the baseline, Holm across cases, verdicts and the rank
 * correlation between text size and cost.  Every writer reads this model. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "store.h"
#include "summary.h"
#include "util.h"

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

double kb_summary_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

double *kb_summary_array(json_t *arr, size_t *n)
{
	double *v = kb_xmalloc((json_array_size(arr) + 1) * sizeof(*v));
	json_t *x;
	size_t i;

	*n = 0;
	json_array_foreach(arr, i, x)
		if (json_is_number(x))
			v[(*n)++] = json_number_value(x);
	return v;
}

/* A number, or null where it does not exist (JSON has no NaN). */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *interval(const struct kb_interval *ci)
{
	return json_pack("[o,o]", num(ci->lo), num(ci->hi));
}

json_t *kb_summary_find(json_t *model, const char *cas, const char *metric, const char *variant)
{
	json_t *r;
	size_t i;

	json_array_foreach(json_object_get(model, "results"), i, r)
		if (!strcmp(str(r, "case"), cas) && !strcmp(str(r, "metric"), metric) &&
		    !strcmp(str(r, "variant"), variant))
			return r;
	return NULL;
}

json_t *kb_summary_lookup(json_t *arr, const char *key, const char *value)
{
	json_t *m;
	size_t i;

	json_array_foreach(arr, i, m)
		if (!strcmp(str(m, key), value))
			return m;
	return NULL;
}

json_t *kb_summary_metric(json_t *model, const char *metric)
{
	return kb_summary_lookup(json_object_get(model, "metrics"), "name", metric);
}

/* ---- names ---- */

static int in_list(json_t *arr, const char *s)
{
	json_t *x;
	size_t i;

	json_array_foreach(arr, i, x)
		if (!strcmp(json_string_value(x), s))
			return (int)i;
	return -1;
}

static void add_name(json_t *arr, const char *s)
{
	if (in_list(arr, s) < 0)
		json_array_append_new(arr, json_string(s));
}

static const char *sample_case(json_t *s)
{
	const char *c = json_string_value(json_object_get(s, "case"));

	return c ? c : str(s, "workload");
}

/* Workload parameters in "fields" are part of the case, not a metric. */
static int is_parameter(const char *field)
{
	return !strcmp(field, "k");
}

/* Cases in the report's order: the run's workloads in their order, each
 * workload's cases in the order the guest reported them, then any other. */
static json_t *case_list(json_t *manifest, json_t *samples)
{
	char *wls = kb_xstrdup(str(json_object_get(manifest, "run"), "workloads")), *save = NULL;
	json_t *cases = json_array(), *s;
	size_t i;

	for (char *wl = strtok_r(wls, ",", &save); wl; wl = strtok_r(NULL, ",", &save)) {
		int any = 0;

		json_array_foreach(samples, i, s)
			if (!strcmp(str(s, "workload"), wl)) {
				add_name(cases, sample_case(s));
				any = 1;
			}
		if (!any)
			add_name(cases, wl);
	}
	json_array_foreach(samples, i, s)
		add_name(cases, sample_case(s));
	free(wls);
	return cases;
}

/* ---- metrics ---- */

static const char *time_note(const char *backend, const char *accel)
{
	if (!strcmp(backend, "hyperfine"))
		return strcmp(accel, "tcg") ? "host wall time of the whole boot"
					    : "emulated time under TCG: host wall time of QEMU emulating "
					      "the whole boot";
	if (!strcmp(backend, "sim"))
		return "emulated time, paced by the instruction count";
	if (!strcmp(accel, "tcg"))
		return "emulated time under TCG: a property of QEMU's translation as much as of the kernel";
	return "wall time in the guest";
}

/* measured, simulated or modeled: which the figure is, never blurred */
static json_t *metric_new(const char *name, const char *field, const char *backend, const char *accel)
{
	const char *source = "measured", *note = "";
	char *label, *unit;

	if (!field && !strcmp(backend, "hyperfine")) {
		label = kb_xstrdup("whole boot time");
		unit = kb_xstrdup("ns");
		note = time_note(backend, accel);
	} else if (!field) {
		label = kb_xstrdup("time per operation");
		unit = kb_xstrdup("ns/op");
		note = time_note(backend, accel);
		if (!strcmp(backend, "sim"))
			source = "modeled";
	} else {
		label = kb_xasprintf("%s per operation", field);
		unit = kb_xasprintf("%s/op", field);
		if (!strncmp(field, "host_", 5)) {
			note = !strcmp(backend, "pmu-host")
				? "guest-only hardware counters read on the host (exclude_host, QEMU vCPU thread)"
				: "host software events of the QEMU vCPU thread: what the region cost the host";
		} else if (!strcmp(backend, "sim")) {
			source = strstr(field, "cycles") ? "modeled" : "simulated";
			note = strstr(field, "cycles") ? "instructions and misses weighted by stated penalties"
						       : "counted by kbench's TCG plugin";
		} else if (!strncmp(backend, "pmu", 3)) {
			note = "hardware performance counters";
		}
	}
	json_t *m = json_pack("{s:s,s:s?,s:s,s:s,s:s,s:s}", "name", name, "field", field, "label", label,
			      "unit", unit, "source", source, "note", note);

	free(label);
	free(unit);
	return m;
}

static json_t *metric_list(json_t *samples, const char *backend, const char *accel)
{
	json_t *metrics = json_array(), *s, *v, *names = json_array();
	const char *key;
	size_t i;

	json_array_append_new(metrics, metric_new("ns_per_op", NULL, backend, accel));
	json_array_foreach(samples, i, s)
		json_object_foreach(json_object_get(s, "fields"), key, v)
			if (json_is_number(v) && !is_parameter(key))
				add_name(names, key);
	json_array_foreach(names, i, v) {
		char *name = kb_xasprintf("%s_per_op", json_string_value(v));

		json_array_append_new(metrics, metric_new(name, json_string_value(v), backend, accel));
		free(name);
	}
	json_decref(names);
	return metrics;
}

/* The figure a verdict is about: modeled cycles or simulated instructions
 * under sim (its time is only a model), else time per operation. */
static const char *primary_metric(json_t *metrics, const char *backend)
{
	const char *want[] = { "cycles", "instructions" };
	json_t *m;
	size_t i;

	if (strcmp(backend, "sim"))
		return "ns_per_op";
	for (size_t w = 0; w < KB_ARRAY_SIZE(want); w++)
		json_array_foreach(metrics, i, m)
			if (json_is_string(json_object_get(m, "field")) &&
			    strstr(str(m, "field"), want[w]))
				return str(m, "name");
	return "ns_per_op";
}

static double metric_value(json_t *s, json_t *metric)
{
	const char *field = json_string_value(json_object_get(metric, "field"));
	double it;

	if (!field)
		return kb_summary_num(s, "ns_per_op");
	it = kb_summary_num(s, "iterations");
	if (!(it > 0))
		return NAN;
	return kb_summary_num(json_object_get(s, "fields"), field) / it;
}

/* ---- one group: a variant's samples of one case ---- */

struct group {
	size_t *idx;
	size_t n, cap;
};

static void group_add(struct group *g, size_t i)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->idx = kb_xrealloc(g->idx, g->cap * sizeof(*g->idx));
	}
	g->idx[g->n++] = i;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Per-boot medians of one metric, boots in increasing order. */
static json_t *group_result(json_t *samples, const struct group *g, json_t *metric,
			    const struct kb_summary_opts *o)
{
	long long *boots = kb_xmalloc((g->n + 1) * sizeof(*boots));
	double *v = kb_xmalloc((g->n + 1) * sizeof(*v)), *med;
	json_t *ids = json_array(), *meds = json_array(), *outl = json_array(), *r;
	size_t nb = 0, nsamples = 0, sample_outliers = 0, nm;
	unsigned char *flag;
	int sim = g->n > 0;

	for (size_t i = 0; i < g->n; i++) {
		json_t *s = json_array_get(samples, g->idx[i]);

		boots[i] = json_integer_value(json_object_get(s, "boot"));
		sim &= !strcmp(str(s, "backend"), "sim");
	}
	qsort(boots, g->n, sizeof(*boots), cmp_ll);
	for (size_t i = 0; i < g->n; i++)
		if (!i || boots[i] != boots[nb - 1])
			boots[nb++] = boots[i];
	for (size_t b = 0; b < nb; b++) {
		size_t m = 0;

		for (size_t i = 0; i < g->n; i++) {
			json_t *s = json_array_get(samples, g->idx[i]);
			double x = metric_value(s, metric);

			if (json_integer_value(json_object_get(s, "boot")) == boots[b] && isfinite(x))
				v[m++] = x;
		}
		if (!m)
			continue;
		flag = kb_xmalloc(m);
		sample_outliers += kb_stats_outliers(v, m, o->outlier_z, flag);
		free(flag);
		nsamples += m;
		json_array_append_new(ids, json_integer(boots[b]));
		json_array_append_new(meds, json_real(kb_stats_median(v, m)));
	}
	med = kb_summary_array(meds, &nm);
	flag = kb_xmalloc(nm + 1);
	kb_stats_outliers(med, nm, o->outlier_z, flag);
	for (size_t i = 0; i < nm; i++)
		if (flag[i])
			json_array_append(outl, json_array_get(ids, i));
	r = json_pack("{s:I,s:I,s:o,s:o,s:o,s:I,s:o,s:b}", "boots", (json_int_t)nm,
		      "samples", (json_int_t)nsamples, "boot_ids", ids, "boot_medians", meds,
		      "outlier_boots", outl, "outlier_samples", (json_int_t)sample_outliers,
		      "median", num(kb_stats_median(med, nm)), "deterministic", sim);
	free(flag);
	free(med);
	free(v);
	free(boots);
	return r;
}

static int constant(const double *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i] != v[0])
			return 0;
	return 1;
}

void kb_summary_versus(json_t *row, const double *x, size_t nx, const double *base, size_t nb,
		       gsl_rng *rng, const struct kb_summary_opts *o)
{
	struct kb_interval ci = { NAN, NAN };
	struct kb_mwu mwu;
	double d;

	if (!nx || !nb)
		return;
	json_object_set_new(row, "ratio", num(kb_stats_median(x, nx) / kb_stats_median(base, nb)));
	if (nx > 1 || nb > 1)
		kb_stats_bootstrap_ratio(x, nx, base, nb, rng, o->resamples, o->level, &ci);
	json_object_set_new(row, "ratio_ci", interval(&ci));
	kb_stats_mann_whitney(x, nx, base, nb, &mwu);
	d = kb_stats_cliffs_delta(x, nx, base, nb);
	json_object_set_new(row, "u", json_real(mwu.u));
	json_object_set_new(row, "p", num(mwu.p));
	json_object_set_new(row, "p_exact", json_boolean(mwu.exact));
	json_object_set_new(row, "p_min", num(kb_stats_mwu_min_p(nx, nb)));
	json_object_set_new(row, "cliffs_delta", num(d));
	json_object_set_new(row, "effect", json_string(kb_stats_effect_label(d)));
	/* Deterministic counts that are the same in every boot need no test:
	 * the difference is the difference. */
	json_object_set_new(row, "identical_counts",
			    json_boolean(constant(x, nx) && constant(base, nb)));
}

static const char *verdict_of(json_t *row, double alpha)
{
	double p = kb_summary_num(row, "p_holm"), d = kb_summary_num(row, "cliffs_delta");
	double ratio = kb_summary_num(row, "ratio");

	if (json_is_true(json_object_get(row, "deterministic")) &&
	    json_is_true(json_object_get(row, "identical_counts")))
		return ratio < 1 ? "faster" : ratio > 1 ? "slower" : "same";
	if (p < alpha && d != 0)
		return d < 0 ? "faster" : "slower";
	return "not distinguishable";
}

void kb_summary_decide(json_t *results, const struct kb_summary_opts *o)
{
	size_t n = json_array_size(results), i, j;
	unsigned char *done = kb_xcalloc(n + 1, 1);
	double *p = kb_xmalloc((n + 1) * sizeof(*p)), *adj = kb_xmalloc((n + 1) * sizeof(*adj));
	size_t *member = kb_xmalloc((n + 1) * sizeof(*member));
	json_t *r, *q;

	json_array_foreach(results, i, r) {
		size_t k = 0;

		if (done[i] || !json_is_number(json_object_get(r, "p")))
			continue;
		/* the family: same metric and variant, one row per case */
		json_array_foreach(results, j, q) {
			if (j < i || done[j] || !json_is_number(json_object_get(q, "p")) ||
			    strcmp(str(q, "metric"), str(r, "metric")) ||
			    strcmp(str(q, "variant"), str(r, "variant")))
				continue;
			done[j] = 1;
			member[k] = j;
			p[k++] = kb_summary_num(q, "p");
		}
		kb_stats_holm(p, k, adj);
		for (size_t m = 0; m < k; m++) {
			q = json_array_get(results, member[m]);
			json_object_set_new(q, "p_holm", json_real(adj[m]));
			json_object_set_new(q, "family", json_integer((json_int_t)k));
			json_object_set_new(q, "verdict", json_string(verdict_of(q, o->alpha)));
		}
	}
	free(done);
	free(p);
	free(adj);
	free(member);
}

static json_t *size_of(json_t *sz, const char *key)
{
	json_t *v = json_object_get(sz, key);

	return json_is_integer(v) ? json_integer(json_integer_value(v)) : json_null();
}

/* Variants: the manifest's, in its order, then any only the samples name. */
static json_t *variant_list(json_t *manifest, json_t *samples, json_t *boots, const char *baseline)
{
	json_t *out = json_array(), *v, *s, *base = NULL;
	double bt = NAN;
	size_t i, k;

	json_array_foreach(json_object_get(manifest, "variants"), i, v) {
		json_t *sz = json_object_get(v, "size");

		json_array_append_new(out, json_pack("{s:s,s:s,s:s,s:o,s:o,s:o}", "name", str(v, "name"),
						     "status", str(v, "status"), "flags", str(v, "flags"),
						     "text", size_of(sz, "text"), "data", size_of(sz, "data"),
						     "bss", size_of(sz, "bss")));
	}
	json_array_foreach(samples, i, s) {
		int seen = 0;

		json_array_foreach(out, k, v)
			seen |= !strcmp(str(v, "name"), str(s, "variant"));
		if (!seen)
			json_array_append_new(out, json_pack("{s:s,s:s,s:s,s:n,s:n,s:n}", "name",
							     str(s, "variant"), "status", "unknown",
							     "flags", "", "text", "data", "bss"));
	}
	json_array_foreach(out, i, v)
		if (!strcmp(str(v, "name"), baseline))
			base = v;
	bt = kb_summary_num(base, "text");
	json_array_foreach(out, i, v) {
		double t = kb_summary_num(v, "text");
		long long ok = 0;

		json_object_set_new(v, "text_change", num(t / bt - 1));
		json_array_foreach(boots, k, s)
			ok += !strcmp(str(s, "variant"), str(v, "name")) && !strcmp(str(s, "status"), "ok");
		json_object_set_new(v, "boots_ok", json_integer(ok));
	}
	return out;
}

static void correlations(json_t *model, gsl_rng *rng, unsigned long long seed,
			 const struct kb_summary_opts *o)
{
	json_t *variants = json_object_get(model, "variants"), *out = json_array(), *c, *m, *v;
	size_t nv = json_array_size(variants), ic, im, iv;
	double *x = kb_xmalloc((nv + 1) * sizeof(*x)), *y = kb_xmalloc((nv + 1) * sizeof(*y));

	json_array_foreach(json_object_get(model, "metrics"), im, m)
		json_array_foreach(json_object_get(model, "cases"), ic, c) {
			const char *smallest = NULL, *fastest = NULL;
			double small = INFINITY, fast = INFINITY, rho, p;
			size_t n = 0;

			json_array_foreach(variants, iv, v) {
				json_t *r = kb_summary_find(model, json_string_value(c), str(m, "name"),
							    str(v, "name"));
				double t = kb_summary_num(v, "text"), med = kb_summary_num(r, "median");

				if (!isfinite(t) || !isfinite(med))
					continue;
				x[n] = t;
				y[n++] = med;
				if (t < small) {
					small = t;
					smallest = str(v, "name");
				}
				if (med < fast) {
					fast = med;
					fastest = str(v, "name");
				}
			}
			if (n < 2)
				continue;
			gsl_rng_set(rng, kb_stats_seed(seed, "spearman", str(m, "name"), json_string_value(c)));
			rho = kb_stats_spearman(x, y, n);
			p = kb_stats_spearman_p(x, y, n, rng, o->resamples);
			json_array_append_new(out, json_pack("{s:s,s:s,s:I,s:o,s:o,s:s,s:s,s:b}",
							     "metric", str(m, "name"), "case",
							     json_string_value(c), "n", (json_int_t)n,
							     "rho", num(rho), "p", num(p), "smallest", smallest,
							     "fastest", fastest, "smallest_is_fastest",
							     !strcmp(smallest, fastest)));
		}
	json_object_set_new(model, "correlation", out);
	free(x);
	free(y);
}

/* Per non-baseline variant: its size change and its verdicts on the
 * primary metric over every case. */
static void claim(json_t *model)
{
	const char *primary = str(model, "primary_metric"), *baseline = str(model, "baseline");
	json_t *out = json_array(), *v, *r;
	size_t i, k;

	json_array_foreach(json_object_get(model, "variants"), i, v) {
		long long faster = 0, slower = 0, same = 0, undecided = 0;
		double tc = kb_summary_num(v, "text_change");

		if (!strcmp(str(v, "name"), baseline))
			continue;
		json_array_foreach(json_object_get(model, "results"), k, r) {
			const char *vd = str(r, "verdict");

			if (strcmp(str(r, "variant"), str(v, "name")) || strcmp(str(r, "metric"), primary) ||
			    !*vd)
				continue;
			faster += !strcmp(vd, "faster");
			slower += !strcmp(vd, "slower");
			same += !strcmp(vd, "same");
			undecided += !strcmp(vd, "not distinguishable");
		}
		json_array_append_new(out, json_pack("{s:s,s:o,s:o,s:I,s:I,s:I,s:I}", "variant",
						     str(v, "name"), "text_change", num(tc), "smaller",
						     isfinite(tc) ? json_boolean(tc < 0) : json_null(),
						     "faster", (json_int_t)faster, "slower", (json_int_t)slower,
						     "same", (json_int_t)same, "undecided", (json_int_t)undecided));
	}
	json_object_set_new(model, "claim", out);
}

static void caveat(json_t *model, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void caveat(json_t *model, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	json_array_append_new(json_object_get(model, "caveats"), json_string(s));
	free(s);
}

static void caveats(json_t *model, json_t *boots, const struct kb_summary_opts *o)
{
	const char *primary = str(model, "primary_metric");
	double worst_min_p = 0;
	long long outl = 0, failed = 0, nb_min = -1;
	json_t *r;
	size_t i;

	json_array_foreach(json_object_get(model, "results"), i, r) {
		double pm = kb_summary_num(r, "p_min");

		if (!strcmp(str(r, "metric"), primary)) {
			outl += (long long)json_array_size(json_object_get(r, "outlier_boots"));
			if (json_integer_value(json_object_get(r, "boots")) > 0 &&
			    (nb_min < 0 || json_integer_value(json_object_get(r, "boots")) < nb_min))
				nb_min = json_integer_value(json_object_get(r, "boots"));
		}
		if (pm > worst_min_p && !(json_is_true(json_object_get(r, "deterministic")) &&
					  json_is_true(json_object_get(r, "identical_counts"))))
			worst_min_p = pm;
	}
	json_array_foreach(boots, i, r)
		failed += strcmp(str(r, "status"), "ok") != 0;
	if (!strcmp(str(model, "accel"), "tcg") && !strcmp(str(model, "backend"), "clock"))
		caveat(model, "Time is emulated time: under TCG the clock backend times QEMU's "
		       "translation of the kernel, not a CPU running it; it is meaningful for speed "
		       "under KVM only.");
	if (json_is_true(json_object_get(model, "deterministic")))
		caveat(model, "The sim backend is deterministic: the same kernel gives the same counts "
		       "in every boot, so one boot per variant suffices; more boots only repeat them.");
	if (worst_min_p > o->alpha)
		caveat(model, "With %lld boot(s) of a variant, the smallest p-value the exact rank test "
		       "can give is %.3g, above %.3g: no difference can be called at this confidence. "
		       "Use 5 or more boots per variant (boots = 5 in [run]).", nb_min, worst_min_p,
		       o->alpha);
	if (outl)
		caveat(model, "%lld per-boot median%s %s outlier%s (modified z-score above %.1f), "
		       "marked in the tables and kept in every statistic.", outl, outl > 1 ? "s" : "",
		       outl > 1 ? "are" : "is an", outl > 1 ? "s" : "", o->outlier_z);
	if (failed)
		caveat(model, "%lld boots did not complete; their samples, if any, are not used.", failed);
	{
		json_t *c;
		long long two = 0;

		json_array_foreach(json_object_get(model, "correlation"), i, c)
			two |= json_integer_value(json_object_get(c, "n")) < 3;
		if (two)
			caveat(model, "With fewer than 3 variants, the rank correlation between size and "
			       "cost is +1 or -1 by construction and its permutation p-value cannot be "
			       "small: compare at least 3 variants to test it.");
	}
}

static json_t *build_model(json_t *manifest, json_t *samples, json_t *boots,
			   const struct kb_summary_opts *o)
{
	const char *baseline = str(manifest, "baseline");
	const char *backend = str(manifest, "backend"), *accel;
	unsigned long long seed = (unsigned long long)json_integer_value(json_object_get(manifest, "seed"));
	json_t *model, *variants, *cases, *metrics, *results = json_array(), *c, *m, *v, *s;
	size_t nv, nc, i, ic, im, iv;
	struct group *g;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int all_sim = json_array_size(samples) > 0;

	if (!*backend && json_array_size(samples))
		backend = str(json_array_get(samples, 0), "backend");
	if (!*backend)
		backend = "clock";
	accel = str(json_object_get(manifest, "accel"), "chosen");
	if (!*baseline && json_array_size(json_object_get(manifest, "variants")))
		baseline = str(json_array_get(json_object_get(manifest, "variants"), 0), "name");
	variants = variant_list(manifest, samples, boots, baseline);
	cases = case_list(manifest, samples);
	metrics = metric_list(samples, backend, accel);
	nv = json_array_size(variants);
	nc = json_array_size(cases);
	g = kb_xcalloc(nv * nc + 1, sizeof(*g));
	json_array_foreach(samples, i, s) {
		int vi = -1, ci = in_list(cases, sample_case(s));

		json_array_foreach(variants, iv, v)
			if (!strcmp(str(v, "name"), str(s, "variant")))
				vi = (int)iv;
		all_sim &= !strcmp(str(s, "backend"), "sim");
		if (vi >= 0 && ci >= 0)
			group_add(&g[(size_t)vi * nc + (size_t)ci], i);
	}
	model = json_pack("{s:s,s:O,s:s,s:s,s:I,s:s,s:f,s:f,s:I,s:f,s:b,s:s}",
			  "run_id", str(manifest, "run_id"),
			  "kernel", json_object_get(manifest, "kernel") ?: json_null(),
			  "backend", backend, "accel", accel, "seed", (json_int_t)seed,
			  "baseline", baseline, "confidence", o->level, "alpha", o->alpha,
			  "resamples", (json_int_t)o->resamples, "outlier_z", o->outlier_z,
			  "deterministic", all_sim, "primary_metric", primary_metric(metrics, backend));
	json_object_set_new(model, "variants", variants);
	json_object_set_new(model, "cases", cases);
	json_object_set_new(model, "metrics", metrics);
	json_object_set_new(model, "results", results);
	json_object_set_new(model, "caveats", json_array());

	json_array_foreach(cases, ic, c)
		json_array_foreach(metrics, im, m) {
			json_t *base = NULL;
			double *bv = NULL;
			size_t nb = 0;

			json_array_foreach(variants, iv, v) {
				json_t *row = json_pack("{s:s,s:s,s:s,s:s}", "case", json_string_value(c),
							"metric", str(m, "name"), "variant", str(v, "name"),
							"backend", backend);
				json_t *gr = group_result(samples, &g[iv * nc + ic], m, o);
				struct kb_interval ci = { NAN, NAN };
				double *x;
				size_t nx;

				json_object_update(row, gr);
				json_decref(gr);
				x = kb_summary_array(json_object_get(row, "boot_medians"), &nx);
				if (nx > 1) {
					gsl_rng_set(rng, kb_stats_seed(seed, json_string_value(c), str(m, "name"),
								       str(v, "name")));
					kb_stats_bootstrap_median(x, nx, rng, o->resamples, o->level, &ci);
				} else if (nx == 1) {
					ci.lo = ci.hi = x[0];
				}
				json_object_set_new(row, "ci", interval(&ci));
				free(x);
				if (!strcmp(str(v, "name"), baseline))
					base = row;
				json_array_append_new(results, row);
			}
			if (!base)
				continue;
			bv = kb_summary_array(json_object_get(base, "boot_medians"), &nb);
			json_array_foreach(results, iv, v) {
				double *x;
				size_t nx;

				if (strcmp(str(v, "case"), json_string_value(c)) ||
				    strcmp(str(v, "metric"), str(m, "name")))
					continue;
				if (v == base) {
					json_object_set_new(v, "ratio", nb ? json_real(1) : json_null());
					continue;
				}
				x = kb_summary_array(json_object_get(v, "boot_medians"), &nx);
				gsl_rng_set(rng, kb_stats_seed(seed + 1, json_string_value(c), str(m, "name"),
							       str(v, "variant")));
				kb_summary_versus(v, x, nx, bv, nb, rng, o);
				json_object_set_new(v, "deterministic",
						    json_boolean(json_is_true(json_object_get(v, "deterministic")) &&
								 json_is_true(json_object_get(base, "deterministic"))));
				free(x);
			}
			free(bv);
		}
	kb_summary_decide(results, o);
	correlations(model, rng, seed, o);
	claim(model);
	caveats(model, boots, o);
	for (i = 0; i < nv * nc; i++)
		free(g[i].idx);
	free(g);
	gsl_rng_free(rng);
	return model;
}

static int is_boot_timing(json_t *s)
{
	return !strcmp(str(s, "workload"), "boot") && !strcmp(str(s, "backend"), "hyperfine");
}

/* The measuring boots' samples make the model; the whole-boot timings
 * (hyperfine) make a model of their own under "boot_timing", one case
 * "boot" whose replicate is one timed boot: the two kinds of figure are
 * never tested in one family nor summed into one claim. */
json_t *kb_summary_build(json_t *manifest, json_t *samples, json_t *boots,
			 const struct kb_summary_opts *o)
{
	json_t *wl = json_array(), *bt = json_array(), *s, *model;
	size_t i;

	json_array_foreach(samples, i, s)
		json_array_append(is_boot_timing(s) ? bt : wl, s);
	model = build_model(manifest, wl, boots, o);
	if (json_array_size(bt)) {
		json_t *m = json_deep_copy(manifest), *none = json_array(), *sub;

		json_object_set_new(m, "backend", json_string("hyperfine"));
		json_object_set_new(json_object_get(m, "run"), "workloads", json_string("boot"));
		sub = build_model(m, bt, none, o);
		json_object_del(sub, "kernel");
		json_object_set_new(model, "boot_timing", sub);
		json_decref(none);
		json_decref(m);
	}
	json_decref(wl);
	json_decref(bt);
	return model;
}

/* timing.jsonl: how each variant's whole-boot timing went; a failed or
 * partial one is a caveat of the boot_timing model (made if no boot was
 * timed at all, so the report still says why). */
static void timing_outcome(json_t *model, json_t *timing)
{
	json_t *bt = json_object_get(model, "boot_timing"), *t;
	size_t i;

	if (!bt) {
		bt = json_pack("{s:[],s:[],s:[]}", "results", "caveats", "variants");
		json_object_set_new(model, "boot_timing", bt);
	}
	json_object_set(bt, "timing", timing);
	json_array_foreach(timing, i, t) {
		if (!strcmp(str(t, "status"), "ok"))
			continue;
		if (json_integer_value(json_object_get(t, "ok")))
			caveat(bt, "Variant %s: %lld of %lld timed boots failed (%s); the others are used.",
			       str(t, "variant"), (long long)json_integer_value(json_object_get(t, "failed")),
			       (long long)json_integer_value(json_object_get(t, "runs")), str(t, "log"));
		else
			caveat(bt, "Variant %s: no boot timed: %s (%s).", str(t, "variant"),
			       *str(t, "reason") ? str(t, "reason") : str(t, "status"), str(t, "log"));
	}
}

json_t *kb_summary_load(const char *run_dir, const struct kb_summary_opts *o, int *bad_lines)
{
	char *mpath = kb_xasprintf("%s/manifest.json", run_dir);
	char *spath = kb_xasprintf("%s/samples.jsonl", run_dir);
	char *bpath = kb_xasprintf("%s/boots.jsonl", run_dir);
	char *tpath = kb_xasprintf("%s/timing.jsonl", run_dir);
	json_t *m, *samples, *boots, *timing, *model = NULL;
	json_error_t jerr;
	int bs = 0, bb = 0, bt = 0;

	m = json_load_file(mpath, 0, &jerr);
	if (!json_is_object(m)) {
		kb_error("%s:%d: %s", mpath, jerr.line, m ? "not a JSON object" : jerr.text);
		goto out;
	}
	samples = kb_store_read_lines(spath, &bs);
	boots = kb_store_read_lines(bpath, &bb);
	timing = kb_store_read_lines(tpath, &bt);
	model = kb_summary_build(m, samples, boots, o);
	if (json_array_size(timing))
		timing_outcome(model, timing);
	json_decref(samples);
	json_decref(boots);
	json_decref(timing);
	if (bad_lines)
		*bad_lines = bs + bb + bt;
out:
	json_decref(m);
	free(mpath);
	free(spath);
	free(bpath);
	free(tpath);
	return model;
}
