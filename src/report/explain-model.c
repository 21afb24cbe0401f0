// SPDX-License-Identifier: GPL-2.0-or-later
/* The figures of an explain run directory (explain.h), from the run's model
 * and its configuration, which explain generated: by code, each part's
 * change, their sum, the whole and B as built; by flag, each setting one
 * at a time and left out.  Nothing here prints. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "util.h"

const char kb_explain_coverage_tag[] = "# kbench explain: objects compiled differently, in the parts: ";
const char kb_explain_order_tag[] = "# kbench explain: by order: ";
const char kb_explain_order_part_tag[] = "# kbench explain: order part: ";

/* The figures explained, per case: name in the model, and words. */
static const struct {
	const char *metric, *words;
} figures[] = {
	{ "ins_k_per_op", "kernel instructions per operation" },
	{ "l1i_k_per_op", "kernel L1i misses per operation" },
	{ "model_cycles_per_op", "modeled cycles per operation" },
};

char *kb_explain_paths_line(char *const *paths, size_t n)
{
	char *pl = kb_xstrdup("");

	for (size_t i = 0; i < n; i++) {
		char *s = kb_xasprintf("%s%s%s", pl, i ? " " : "", *paths[i] ? paths[i] : ".");

		free(pl);
		pl = s;
	}
	return pl;
}

/* Variant v's row of metric k in case c, or NULL (v or k not in the model). */
static const struct kb_row *row_of(const struct kb_model *m, size_t c, size_t k, size_t v)
{
	return k < m->nm && v < m->nv ? kb_model_row(m, c, k, v) : NULL;
}

/* The run's verdict on variant v against A (its baseline) in case c: under
 * layout control where the run has layouts; "" for none, and for the text
 * size (c == -1). */
static const char *verdict_of(const struct kb_model *m, size_t c, size_t k, size_t v)
{
	const struct kb_row *r = c == (size_t)-1 ? NULL : row_of(m, c, k, v);

	return r && r->t.done ? kb_verdict_name(r->t.verdict) : "";
}

/* Figure of variant v: its text size (c == -1, measured) or its median of
 * metric k in case c; NAN where there is none. */
static double figure(const struct kb_model *m, size_t c, size_t k, size_t v)
{
	const struct kb_row *r;

	if (c == (size_t)-1)
		return v < m->nv && m->variants[v].has_size ? (double)m->variants[v].text : NAN;
	r = row_of(m, c, k, v);
	return r && (r->boots || r->layouts) ? r->median : NAN;
}

/* What the tables are computed from: the model's variants of the study. */
struct study {
	const struct kb_model *m;
	size_t a, b, whole;		/* A, B, and the B end or B over the parts */
	struct {			/* by code: the parts' hybrids */
		const char *variant, *path;
		size_t v;
	} *nodes;
	size_t n;
	struct {			/* by flag: each setting, A with it as B, the whole with it as A */
		const char *name, *a_set, *b_set;
		size_t toward, loo;
	} *fv;
	size_t nf;
};

/* By code, one table: each part's change, largest first, their sum, the
 * whole and B as built. */
static void code_table(const struct study *s, size_t c, size_t k, struct kb_explain_table *t)
{
	const struct kb_model *m = s->m;
	double base = figure(m, c, k, s->a);

	t->base = base;
	t->whole = figure(m, c, k, s->whole) - base;
	t->real = figure(m, c, k, s->b) - base;
	t->whole_verdict = verdict_of(m, c, k, s->whole);
	t->real_verdict = verdict_of(m, c, k, s->b);
	t->parts = kb_xcalloc(s->n ? s->n : 1, sizeof(*t->parts));
	t->nparts = s->n;
	for (size_t i = 0; i < s->n; i++) {
		struct kb_explain_part *p = &t->parts[i];

		p->path = s->nodes[i].path;
		p->variant = s->nodes[i].variant;
		p->change = figure(m, c, k, s->nodes[i].v) - base;
		p->verdict = verdict_of(m, c, k, s->nodes[i].v);
		t->sum += p->change;	/* in the parts' order, before sorting */
	}
	/* largest contribution first */
	for (size_t i = 1; i < s->n; i++)
		for (size_t j = i; j > 0 && fabs(t->parts[j].change) > fabs(t->parts[j - 1].change); j--) {
			struct kb_explain_part x = t->parts[j];

			t->parts[j] = t->parts[j - 1];
			t->parts[j - 1] = x;
		}
}

/* By flag, one table: per setting, one at a time from A and leave one out
 * from the whole; their sums and the whole. */
static void flag_table(const struct study *s, size_t c, size_t k, struct kb_explain_table *t)
{
	const struct kb_model *m = s->m;
	double base = figure(m, c, k, s->a);

	t->base = base;
	t->whole = figure(m, c, k, s->whole) - base;
	t->whole_verdict = verdict_of(m, c, k, s->whole);
	t->flags = kb_xcalloc(s->nf ? s->nf : 1, sizeof(*t->flags));
	t->nflags = s->nf;
	for (size_t f = 0; f < s->nf; f++) {
		struct kb_explain_flag *fl = &t->flags[f];

		fl->name = s->fv[f].name;
		fl->a_set = s->fv[f].a_set;
		fl->b_set = s->fv[f].b_set;
		fl->one = figure(m, c, k, s->fv[f].toward) - base;
		fl->loo = figure(m, c, k, s->whole) - figure(m, c, k, s->fv[f].loo);
		fl->verdict = verdict_of(m, c, k, s->fv[f].toward);
		t->sum1 += fl->one;	/* a missing figure makes the sum missing too */
		t->sumloo += fl->loo;
	}
}

/* The text size table, then per case a table per figure the model has. */
static void tables(struct kb_explain *x, const struct study *s)
{
	const struct kb_model *m = s->m;
	struct kb_explain_table *t = &x->text;

	t->unit = "bytes";
	t->kind = "measured";
	if (x->by == KB_EXPLAIN_BY_CODE)
		code_table(s, (size_t)-1, 0, t);
	else
		flag_table(s, (size_t)-1, 0, t);
	x->cases = kb_xcalloc(m->nc ? m->nc : 1, sizeof(*x->cases));
	x->nc = m->nc;
	for (size_t c = 0; c < m->nc; c++) {
		struct kb_explain_case *xc = &x->cases[c];

		xc->name = m->cases[c];
		xc->tables = kb_xcalloc(KB_ARRAY_SIZE(figures), sizeof(*xc->tables));
		for (size_t f = 0; f < KB_ARRAY_SIZE(figures); f++) {
			size_t k = kb_model_metric(m, figures[f].metric);

			if (k >= m->nm)
				continue;
			t = &xc->tables[xc->nt++];
			t->metric = figures[f].metric;
			t->words = figures[f].words;
			t->unit = m->metrics[k].unit;
			t->kind = kb_figure_kind_name(m->metrics[k].source);
			t->speed = 1;
			if (x->by == KB_EXPLAIN_BY_CODE)
				code_table(s, c, k, t);
			else
				flag_table(s, c, k, t);
		}
		for (size_t i = 0; i < m->nmiss && x->by == KB_EXPLAIN_BY_CODE && !xc->functions; i++)
			if (m->miss[i].variant == s->b && !strcmp(m->miss[i].cas, m->cases[c]))
				xc->functions = &m->miss[i];
	}
}

/* Whether conf is an explain run by flag: it has hybrids with flags. */
static int is_by_flag(const struct kb_conf *conf)
{
	for (size_t i = 0; i < conf->n_variants; i++)
		if (conf->variants[i].hy_cflags)
			return 1;
	return 0;
}

/* By flag: the study of variants as explain's configuration made them, B
 * over the paths, then per flag "A.FLAG.B" (A with it as in B) and
 * "B.FLAG.A" (the whole with it as in A).  0, or -1 after a message. */
static int by_flag(struct kb_explain *x, struct study *s, const char *dir)
{
	const struct kb_conf *conf = &x->conf;
	const struct kb_model *m = x->model;
	const struct kb_variant *va = NULL, *vb = NULL, *vw = NULL;
	size_t nf = 0;

	for (size_t i = 0; i < conf->n_variants; i++)
		if (conf->variants[i].hybrid && !conf->variants[i].hy_cflags) {
			vw = &conf->variants[i];
			va = &conf->variants[vw->hy_a];
			vb = &conf->variants[vw->hy_b];
		}
	s->a = va ? kb_model_variant(m, va->name) : (size_t)-1;
	s->b = vb ? kb_model_variant(m, vb->name) : (size_t)-1;
	s->whole = vw ? kb_model_variant(m, vw->name) : (size_t)-1;
	if (vw) {
		char *pl = kb_explain_paths_line(vw->hy_paths, vw->n_hy_paths);

		x->parts = kb_pool_strdup(&x->model->pool, pl);
		free(pl);
	}
	for (size_t i = 0; va && i < conf->n_variants; i++) {
		const struct kb_variant *v = &conf->variants[i], *loo;
		size_t la = strlen(va->name), lb = strlen(vb->name), ln = strlen(v->name);
		char *name, *lname;

		if (!v->hy_cflags || v->hy_a != v->hy_b || &conf->variants[v->hy_a] != va ||
		    ln <= la + lb + 2 || strncmp(v->name, va->name, la) || v->name[la] != '.' ||
		    strcmp(v->name + ln - lb, vb->name) || v->name[ln - lb - 1] != '.')
			continue;
		name = kb_xstrndup(v->name + la + 1, ln - la - lb - 2);
		lname = kb_xasprintf("%s.%s.%s", vb->name, name, va->name);
		loo = kb_conf_variant(conf, lname);
		free(lname);
		if (!loo || !loo->hy_cflags) {
			free(name);
			continue;
		}
		s->fv = kb_xrealloc(s->fv, (nf + 1) * sizeof(*s->fv));
		s->fv[nf].name = kb_pool_strdup(&x->model->pool, name);
		s->fv[nf].a_set = loo->hy_cflags;
		s->fv[nf].b_set = v->hy_cflags;
		s->fv[nf].toward = kb_model_variant(m, v->name);
		s->fv[nf++].loo = kb_model_variant(m, loo->name);
		free(name);
	}
	s->nf = nf;
	if (s->a >= m->nv || s->b >= m->nv || s->whole >= m->nv || !nf)
		return kb_error("'%s': not a run of kbench explain --by-flag (no flags, or no figures of "
				"A, B and B over the parts)", dir);
	return 0;
}

/* By code: the study of variants as explain's configuration made them, the
 * parts' hybrids and the B end.  0, or -1 after a message. */
static int by_code(struct kb_explain *x, struct study *s, const char *dir)
{
	const struct kb_conf *conf = &x->conf;
	const struct kb_model *m = x->model;

	s->a = s->b = s->whole = (size_t)-1;
	for (size_t i = 0; i < conf->n_variants; i++) {
		const struct kb_variant *v = &conf->variants[i];
		size_t mv = kb_model_variant(m, v->name);

		if (!v->hybrid)
			continue;
		if (s->a == (size_t)-1) {
			s->a = kb_model_variant(m, conf->variants[v->hy_a].name);
			s->b = kb_model_variant(m, conf->variants[v->hy_b].name);
		}
		if (v->n_hy_paths == 1 && !*v->hy_paths[0]) {
			s->whole = mv;
			continue;
		}
		s->nodes = kb_xrealloc(s->nodes, (s->n + 1) * sizeof(*s->nodes));
		s->nodes[s->n].variant = v->name;
		s->nodes[s->n].path = v->hy_paths[0];
		s->nodes[s->n++].v = mv;
	}
	if (s->a >= m->nv || s->b >= m->nv || s->whole >= m->nv)
		return kb_error("'%s': not a run of kbench explain (no hybrids of two variants and their "
				"B end with figures)", dir);
	x->rest = x->differ >= 0 && x->covered == x->differ ? "interaction: whole - sum"
		  : "rest: whole - sum (other objects, interaction)";
	return 0;
}

/* By order: A and B from the tag (B is A with its order, and the whole),
 * and a part per part tag, its variant with the order's functions of the
 * part.  0, or -1 after a message. */
static int by_order(struct kb_explain *x, struct study *s, const char *dir, const char *ctext)
{
	const struct kb_model *m = x->model;
	const char *t = strstr(ctext, kb_explain_order_tag) + strlen(kb_explain_order_tag);
	size_t la = strcspn(t, " \n"), lb = strcspn(t + la + 1, " \n");
	char *a = kb_xstrndup(t, la), *b = kb_xstrndup(t + la + 1, lb);
	const struct kb_variant *vb = kb_conf_variant(&x->conf, b);

	s->a = kb_model_variant(m, a);
	s->b = s->whole = kb_model_variant(m, b);
	free(a);
	free(b);
	for (const char *p = ctext; (p = strstr(p, kb_explain_order_part_tag)); ) {
		const char *v, *path;
		char *name, *node;
		size_t ln;

		p += strlen(kb_explain_order_part_tag);
		ln = strcspn(p, " \n");
		name = kb_xstrndup(p, ln);
		node = p[ln] == ' ' ? kb_xstrndup(p + ln + 1, strcspn(p + ln + 1, "\n")) : kb_xstrdup("");
		v = kb_pool_strdup(&x->model->pool, name);
		path = kb_pool_strdup(&x->model->pool, node);
		free(name);
		free(node);
		s->nodes = kb_xrealloc(s->nodes, (s->n + 1) * sizeof(*s->nodes));
		s->nodes[s->n].variant = v;
		s->nodes[s->n].path = path;
		s->nodes[s->n++].v = kb_model_variant(m, v);
	}
	if (s->a >= m->nv || s->b >= m->nv || !vb || !vb->order)
		return kb_error("'%s': not a run of kbench explain of an ordered variant (no figures of A "
				"and of B, A with its order)", dir);
	x->ordered = 1;
	x->order = kb_pool_strdup(&x->model->pool, vb->order);
	x->rest = x->differ >= 0 && x->covered == x->differ ? "interaction: whole - sum"
		  : "rest: whole - sum (other functions, interaction)";
	return 0;
}

struct kb_explain *kb_explain_load(const char *dir)
{
	struct kb_model_opts o = KB_MODEL_OPTS_INIT;
	struct kb_explain *x = kb_xcalloc(1, sizeof(*x));
	struct study s = { 0 };
	char *copy = kb_xasprintf("%s/variants.conf", dir), *mpath = kb_xasprintf("%s/manifest.json", dir);
	json_t *manifest = json_load_file(mpath, 0, NULL);
	const char *cdir = manifest ? json_string_value(json_object_get(manifest, "config_dir")) : NULL;
	char *ctext = NULL, *tag;
	int ok = 0;

	/* what the parts cover, from the comment the configuration begins with */
	x->differ = x->covered = -1;
	if (kb_read_file(copy, &ctext, NULL) == 0 && (tag = strstr(ctext, kb_explain_coverage_tag)) &&
	    sscanf(tag + strlen(kb_explain_coverage_tag), "%ld %ld", &x->differ, &x->covered) != 2)
		x->differ = x->covered = -1;
	if (kb_conf_load_dir(&x->conf, copy, cdir) < 0)
		goto out;
	x->model = kb_model_load(dir, &o);
	if (!x->model)
		goto out;
	s.m = x->model;
	x->by = is_by_flag(&x->conf) ? KB_EXPLAIN_BY_FLAG : KB_EXPLAIN_BY_CODE;
	if ((x->by == KB_EXPLAIN_BY_FLAG ? by_flag(x, &s, dir)
	     : ctext && strstr(ctext, kb_explain_order_tag) ? by_order(x, &s, dir, ctext)
	     : by_code(x, &s, dir)) < 0)
		goto out;
	x->a = x->model->variants[s.a].name;
	x->b = x->model->variants[s.b].name;
	x->whole = x->model->variants[s.whole].name;
	x->backend = x->model->backend;
	tables(x, &s);
	ok = 1;
out:
	free(s.nodes);
	free(s.fv);
	free(copy);
	free(mpath);
	free(ctext);
	json_decref(manifest);
	if (!ok) {
		kb_explain_free(x);
		return NULL;
	}
	return x;
}

static void table_release(struct kb_explain_table *t)
{
	free(t->parts);
	free(t->flags);
}

void kb_explain_free(struct kb_explain *x)
{
	if (!x)
		return;
	table_release(&x->text);
	for (size_t c = 0; c < x->nc; c++) {
		for (size_t i = 0; i < x->cases[c].nt; i++)
			table_release(&x->cases[c].tables[i]);
		free(x->cases[c].tables);
	}
	free(x->cases);
	kb_model_free(x->model);
	kb_conf_release(&x->conf);
	free(x);
}
