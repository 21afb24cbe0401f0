// SPDX-License-Identifier: GPL-2.0-or-later
/* The prediction of an ordered kernel ([run] sim_virtual_placement =
 * order:FILE, backend/sim.h): each boot of a variant built without an
 * order also simulated its code where the build with FILE would put it,
 * and its samples carry those figures as pred_<field>.  Here they meet
 * the variant built with FILE from the same flags, where the run has one:
 * per case, the medians of the unordered kernel as built, as predicted,
 * and of the ordered kernel as built. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model-input.h"
#include "model.h"
#include "stats.h"
#include "util.h"

/* The predicted order of a run (manifest sim.prediction.order), or NULL. */
const char *kb_model_pred_order(json_t *manifest)
{
	return json_string_value(json_object_get(json_object_get(json_object_get(manifest, "sim"),
								 "prediction"), "order"));
}

/* The cycle field the verdicts are on (manifest sim.primary_metric). */
const char *kb_model_pred_cycles(json_t *manifest)
{
	const char *p = json_string_value(json_object_get(json_object_get(manifest, "sim"), "primary_metric"));

	return p ? p : "model_cycles";
}

/* Whether variants a and b of the manifest are built from the same
 * configuration, flags, compiler and kernel command line. */
static int same_build(json_t *a, json_t *b)
{
	static const char *const keys[] = { "config", "kcflags", "cc", "ld", "cmdline", "hybrid", "hybrid_cflags" };

	for (size_t i = 0; i < KB_ARRAY_SIZE(keys); i++) {
		json_t *x = json_object_get(a, keys[i]), *y = json_object_get(b, keys[i]);

		if (!json_equal(x ? x : json_null(), y ? y : json_null()))
			return 0;
	}
	return 1;
}

static json_t *manifest_variant(json_t *manifest, const char *name)
{
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(manifest, "variants"), i, v)
		if (!strcmp(json_string_value(json_object_get(v, "name")) ?: "", name))
			return v;
	return NULL;
}

/* The median of what the samples of (variant, case) have in slot k of
 * which (0: as built, 1: predicted), or NAN. */
static double median_of(const struct kb_pred_sample *s, size_t n, const char *variant, const char *cas,
			int which, int k, long long layout)
{
	double *v = kb_xmalloc((n + 1) * sizeof(*v)), r = NAN;
	size_t nv = 0;

	for (size_t i = 0; i < n; i++) {
		double x = which ? s[i].pred[k] : s[i].own[k];

		if (!strcmp(s[i].variant, variant) && !strcmp(s[i].cas, cas) && !isnan(x) &&
		    (layout < 0 || s[i].layout == layout))
			v[nv++] = x;
	}
	if (nv)
		r = kb_stats_median(v, nv);
	free(v);
	return r;
}

void kb_model_predict(struct kb_model *m, json_t *manifest, const struct kb_pred_sample *s, size_t n)
{
	const char *order = kb_model_pred_order(manifest);

	if (!order || !n)
		return;
	m->pred_order = kb_pool_strdup(&m->pool, order);
	m->pred_cycles = kb_pool_strdup(&m->pool, kb_model_pred_cycles(manifest));
	m->pred = kb_pool_array(&m->pool, m->nv * m->nc + 1, sizeof(*m->pred));
	for (size_t v = 0; v < m->nv; v++) {
		const struct kb_model_variant *mv = &m->variants[v];
		json_t *jv = manifest_variant(manifest, mv->name);
		long built = -1;

		if (mv->order)
			continue;
		/* the ordered variant of the same build, with this order */
		for (size_t w = 0; w < m->nv && jv; w++) {
			json_t *jw = manifest_variant(manifest, m->variants[w].name);

			if (m->variants[w].order && !strcmp(m->variants[w].order, order) && jw &&
			    same_build(jv, jw)) {
				built = (long)w;
				break;
			}
		}
		for (size_t c = 0; c < m->nc; c++) {
			struct kb_pred_row *r = &m->pred[m->npred];

			r->pred[0] = median_of(s, n, mv->name, m->cases[c], 1, 0, -1);
			if (isnan(r->pred[0]))
				continue;
			r->cas = m->cases[c];
			r->variant = v;
			r->built = built;
			for (int k = 0; k < 2; k++) {
				const char *b = built >= 0 ? m->variants[built].name : NULL;

				r->own[k] = median_of(s, n, mv->name, m->cases[c], 0, k, -1);
				if (k)
					r->pred[k] = median_of(s, n, mv->name, m->cases[c], 1, k, -1);
				r->ordered[k] = b ? median_of(s, n, b, m->cases[c], 0, k, -1) : NAN;
				r->pred0[k] = median_of(s, n, mv->name, m->cases[c], 1, k, 0);
				r->ordered0[k] = b ? median_of(s, n, b, m->cases[c], 0, k, 0) : NAN;
			}
			m->npred++;
		}
	}
}
