// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench explain VARIANTS.CONF A B: which code makes B's kernel smaller or
 * larger, faster or slower than A's.  Hybrid kernels (hybrid.h) take the
 * objects of one part of the tree from B and everything else from A; the
 * part's contribution is the hybrid's figure minus A's, beside the whole
 * (A with every object from B, "the B end") and what the parts leave over
 * (the interaction).  The hybrids are variants of an ordinary run
 * directory: built, booted, cached and resumed as kbench run does, and
 * explain.md, explain.html and explain.json are written from its model. */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "commands.h"
#include "conf.h"
#include "doc.h"
#include "executor.h"
#include "hybrid.h"
#include "miss-o-meter.h"
#include "model.h"
#include "plot.h"
#include "run.h"
#include "util.h"

/* The figures explained, per case: name in the model, words, and kind. */
static const struct {
	const char *metric, *words;
} figures[] = {
	{ "ins_k_per_op", "kernel instructions per operation" },
	{ "l1i_k_per_op", "kernel L1i misses per operation" },
	{ "model_cycles_per_op", "modeled cycles per operation" },
};

/* An explain by code or by flag: the command line, then what the builds of
 * A and B tell. */
struct explain_ctx {
	const char *path, *a, *b;			/* VARIANTS.CONF, A, B */
	const char *cases, *under, *only, *flags, *executor;
	int resume, by_flag;
	char *orig;					/* VARIANTS.CONF's text */
	struct kb_kernel ka, kb;			/* the builds of A and B */
	char **objs;					/* the objects they compile differently, sorted */
	size_t nobj, covered;				/* ... and how many the parts hold */
	char **nodes;					/* the parts (by flag: the paths) */
	size_t n;
	char **fnames;					/* the names of --flags */
	size_t nf;
};

/* ---- the configuration of the explain run ---- */

static void add_line(char **text, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_line(char **text, size_t *len, const char *fmt, ...)
{
	va_list ap;
	char *s;
	size_t n;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	n = strlen(s);
	*text = kb_xrealloc(*text, *len + n + 1);
	memcpy(*text + *len, s, n + 1);
	*len += n;
	free(s);
}

/* The section a header line opens ("kernel", "run", "variant NAME"), trimmed. */
static char *section_of(const char *line)
{
	const char *s = line + strspn(line, " \t"), *e;
	char *sec, *p;

	if (*s != '[' || !(e = strchr(s, ']')))
		return NULL;
	sec = kb_xstrndup(s + 1, (size_t)(e - s - 1));
	/* "variant   NAME" as "variant NAME" */
	p = sec + strspn(sec, " \t");
	memmove(sec, p, strlen(p) + 1);
	for (p = sec + strlen(sec); p > sec && (p[-1] == ' ' || p[-1] == '\t'); p--)
		p[-1] = 0;
	if (!strncmp(sec, "variant", 7) && (sec[7] == ' ' || sec[7] == '\t')) {
		p = sec + 7 + strspn(sec + 7, " \t");
		memmove(sec + 8, p, strlen(p) + 1);
		sec[7] = ' ';
	}
	return sec;
}

/* Whether line is a "key = value" line of key (not indented). */
static int line_key_is(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *s = line + strspn(line, " \t");

	return s == line && !strncmp(s, key, n) && (s[n] == ' ' || s[n] == '\t' || s[n] == '=');
}

/* Name of a hybrid variant for a node: B, '.', the path with '/' (and '+',
 * which paths may hold and variant names may not) as '-'. */
static char *node_variant(const char *b, const char *node)
{
	char *n = kb_xasprintf("%s.%s", b, *node ? node : "all");
	size_t len = strlen(n);

	if (len && n[len - 1] == '/')
		n[--len] = 0;
	for (char *p = n; *p; p++)
		if (*p == '/' || *p == '+')
			*p = '-';
	if (len > 64)
		n[64] = 0;
	return n;
}

/* The original's [kernel] and [run] (baseline A; workloads cases when
 * given) and variants A and B as they are, onto text. */
static void copy_base(char **text, size_t *len, const char *orig, const char *a, const char *b,
		      const char *cases)
{
	char *copy = kb_xstrdup(orig), *save = NULL, *sec = NULL;
	char *va = kb_xasprintf("variant %s", a), *vb = kb_xasprintf("variant %s", b);
	int keep = 1, had_run = 0, in_run = 0, skipping = 0;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *s = section_of(l);

		if (s) {
			free(sec);
			sec = s;
			keep = !strcmp(sec, "kernel") || !strcmp(sec, "run") || !strcmp(sec, va) ||
			       !strcmp(sec, vb);
			in_run = !strcmp(sec, "run");
			skipping = 0;
			if (keep)
				add_line(text, len, "%s\n", l);
			if (in_run) {
				had_run = 1;
				add_line(text, len, "baseline = %s\n", a);
				if (cases)
					add_line(text, len, "workloads = %s\n", cases);
			}
			continue;
		}
		if (!keep)
			continue;
		if (in_run) {
			/* a continuation line belongs to the key before it */
			if (skipping && (l[0] == ' ' || l[0] == '\t'))
				continue;
			skipping = line_key_is(l, "baseline") || (cases && line_key_is(l, "workloads"));
			if (skipping)
				continue;
		}
		add_line(text, len, "%s\n", l);
	}
	if (!had_run) {
		add_line(text, len, "[run]\nbaseline = %s\n", a);
		if (cases)
			add_line(text, len, "workloads = %s\n", cases);
	}
	free(copy);
	free(sec);
	free(va);
	free(vb);
}

/* The comment of the generated configuration that says how many objects A
 * and B compile differently and how many of them the parts hold: read back
 * from the run directory's copy. */
static const char coverage_tag[] = "# kbench explain: objects compiled differently, in the parts: ";

/* The configuration text of the explain run by code: the base, then the B
 * end and one hybrid per node. */
static char *explain_text(const struct explain_ctx *x)
{
	const char *a = x->a, *b = x->b;
	char *text = NULL;
	size_t len = 0;

	add_line(&text, &len, "# kbench explain %s %s: this configuration is generated\n", a, b);
	add_line(&text, &len, "%s%zu %zu\n", coverage_tag, x->nobj, x->covered);
	copy_base(&text, &len, x->orig, a, b, x->cases);
	for (size_t i = 0; i <= x->n; i++) {
		const char *node = i == x->n ? "" : x->nodes[i];
		char *name = node_variant(b, node);

		add_line(&text, &len, "\n[variant %s]\n", name);
		if (*node)
			add_line(&text, &len, "description = %s with %s compiled as in %s\nhybrid = %s %s %s\n",
				 a, node, b, a, b, node);
		else
			add_line(&text, &len, "description = %s with every object compiled as in %s (the "
				 "%s end)\nhybrid = %s %s .\n", a, b, b, a, b);
		free(name);
	}
	return text;
}

/* The paths of a hybrid as its key hybrid = A B PATH... lists them ("." for
 * the whole kernel), space-separated (malloc'd). */
static char *paths_line(char *const *paths, size_t n)
{
	char *pl = NULL;
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		add_line(&pl, &len, "%s%s", i ? " " : "", *paths[i] ? paths[i] : ".");
	return pl;
}

/* The hybrid that is B over the paths (the whole of the by-flag study). */
static char *flag_whole_variant(const char *b, char *const *paths, size_t n)
{
	return n == 1 ? node_variant(b, paths[0]) : kb_xasprintf("%s.parts", b);
}

/* The configuration text of the explain run by flag: the base, B over the
 * paths, then per flag A with it set as in B ("A.FLAG.B", hybrid A A) and
 * B over the paths with it set as in A ("B.FLAG.A"); flag_write reads the
 * flags back from these variants. */
static char *explain_flag_text(const struct explain_ctx *x, const struct kb_flag *flags, size_t nf)
{
	const char *a = x->a, *b = x->b;
	char *text = NULL, *whole = flag_whole_variant(b, x->nodes, x->n);
	char *pl = paths_line(x->nodes, x->n);
	size_t len = 0;

	add_line(&text, &len, "# kbench explain --by-flag %s %s: this configuration is generated\n", a, b);
	copy_base(&text, &len, x->orig, a, b, x->cases);
	add_line(&text, &len, "\n[variant %s]\ndescription = %s with %s compiled as in %s\n"
		 "hybrid = %s %s %s\n", whole, a, pl, b, a, b, pl);
	for (size_t f = 0; f < nf; f++) {
		add_line(&text, &len, "\n[variant %s.%s.%s]\ndescription = %s with %s (as in %s) over %s\n"
			 "hybrid = %s %s %s\nhybrid_cflags = %s\n", a, flags[f].name, b, a,
			 flags[f].b, b, pl, a, a, pl, flags[f].b);
		add_line(&text, &len, "\n[variant %s.%s.%s]\ndescription = %s with %s (as in %s) over %s\n"
			 "hybrid = %s %s %s\nhybrid_cflags = %s\n", b, flags[f].name, a, whole,
			 flags[f].a, a, pl, a, b, pl, flags[f].a);
	}
	free(whole);
	free(pl);
	return text;
}

/* The parts of the tree under `under` holding objects that A and B compile
 * differently: each child directory ("kernel/") or object ("init/main.o")
 * once, sorted. */
static char **nodes_of(char *const *objs, size_t nobj, const char *under, size_t *n)
{
	char **nodes = NULL;
	size_t ul = strlen(under);

	*n = 0;
	for (size_t i = 0; i < nobj; i++) {
		const char *rest, *slash;
		char *node;

		if (strncmp(objs[i], under, ul))
			continue;
		rest = objs[i] + ul;
		slash = strchr(rest, '/');
		node = slash ? kb_xstrndup(objs[i], (size_t)(slash - objs[i]) + 1) : kb_xstrdup(objs[i]);
		if (*n && !strcmp(nodes[*n - 1], node)) {
			free(node);	/* objs is sorted: a node's objects are together */
			continue;
		}
		nodes = kb_xrealloc(nodes, (*n + 1) * sizeof(*nodes));
		nodes[(*n)++] = node;
	}
	return nodes;
}

/* ---- the attribution, from the run's model ---- */

struct node {
	const char *variant;	/* the hybrid's name */
	char *path;		/* its part of the tree */
	size_t v;		/* index in the model */
};

/* Variant v's row of metric k in case c, or NULL (v or k not in the model). */
static const struct kb_row *row_of(const struct kb_model *m, size_t c, size_t k, size_t v)
{
	return k < m->nm && v < m->nv ? kb_model_row(m, c, k, v) : NULL;
}

/* The run's verdict on variant v against A (its baseline) in case c: under
 * layout control where the run has layouts; "" for none. */
static const char *verdict_of(const struct kb_model *m, size_t c, size_t k, size_t v)
{
	const struct kb_row *r = row_of(m, c, k, v);

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

/* A table header: words, then "(unit, kind)", the unit being the run's. */
static void head_with_unit(struct kb_doc_table *t, const char *words, const char *unit,
			   const char *kind)
{
	struct kb_inline *in = kb_doc_th(t, KB_ALIGN_RIGHT);

	kb_doc_fmt(in, "%s (", words);
	kb_doc_str(in, unit);
	kb_doc_fmt(in, ", %s)", kind);
}

static void cell_num(struct kb_doc_table *t, double x)
{
	struct kb_inline *in = kb_doc_td(t);

	if (isnan(x))
		kb_doc_fmt(in, "-");
	else
		kb_doc_fmt(in, "%+.6g", x);
}

static void cell_share(struct kb_doc_table *t, double part, double whole)
{
	struct kb_inline *in = kb_doc_td(t);

	if (isnan(part) || isnan(whole) || whole == 0)
		kb_doc_fmt(in, "-");
	else
		kb_doc_fmt(in, "%+.1f%%", 100 * part / whole);
}

/* A row under the parts: label, figure, share of the whole, the variant
 * (NULL: none), the verdict (NULL: the table has no such column). */
static void total_row(struct kb_doc_table *t, const char *label, double x, double whole,
		      const char *variant, const char *verdict)
{
	kb_doc_fmt(kb_doc_td(t), "%s", label);
	cell_num(t, x);
	cell_share(t, x, whole);
	if (variant)
		kb_doc_code(kb_doc_td(t), variant);
	else
		kb_doc_fmt(kb_doc_td(t), " ");
	if (verdict)
		kb_doc_fmt(kb_doc_td(t), "%s", *verdict ? verdict : " ");
}

/* A waterfall (explain.html): from A at 0, each part's change in the order
 * of the table, what the parts leave over, then the whole as one bar. */
static void waterfall(struct kb_doc *d, const struct node *nodes, const size_t *order,
		      const double *dv, size_t n, double whole, const char *unit, const char *kind,
		      const char *rest)
{
	static unsigned serial;
	char *script = NULL, *data = NULL, *u, *name;
	size_t slen = 0, dlen = 0;
	FILE *sf, *df;
	double cum = 0;
	struct kb_inline *caption;

	if (!isfinite(whole))
		return;
	sf = open_memstream(&script, &slen);
	df = open_memstream(&data, &dlen);
	if (!sf || !df)
		abort();
	u = kb_plot_label(unit);
	for (size_t i = 0; i < n; i++) {
		double x = dv[order[i]];
		char *l = kb_plot_label(nodes[order[i]].path);

		if (!isfinite(x))
			x = 0;
		fprintf(df, "%zu %s %.17g %.17g %d\n", i, l, cum, cum + x, x > 0 ? 0xcc6677 : 0x117733);
		cum += x;
		free(l);
	}
	fprintf(df, "%zu rest %.17g %.17g %d\n", n, cum, whole, 0x999999);
	fprintf(df, "%zu whole %.17g %.17g %d\n", n + 1, 0.0, whole, 0x4477aa);
	fprintf(sf, "set terminal svg size 760,380 dynamic noenhanced font 'sans,11' background '#ffffff'\n"
		"set output 'plot.svg'\nset grid ytics\nunset key\nset style fill solid 0.6 border -1\n"
		"set xtics rotate by -30\nset xrange [-0.7:%zu.7]\nset xzeroaxis lt -1\n"
		"set ylabel 'change (%s, %s)'\n"
		"plot 'plot.dat' using 1:(($3+$4)/2):(0.35):(abs($4-$3)/2):5:xtic(2) "
		"with boxxyerror lc rgb variable\n", n + 1, u, kind);
	fclose(sf);
	fclose(df);
	name = kb_xasprintf("waterfall-%u", serial++);
	caption = kb_doc_figure(d, name, script, data);
	kb_doc_fmt(caption, "From A (0) to the B end: each part's change in the order of the table "
		   "(red: up, green: down), then \"rest\" (%s), then the whole.", rest);
	free(name);
	free(script);
	free(data);
	free(u);
}

/* One table: a figure's contribution per node, the sum, the whole and the
 * interaction (or rest). */
static json_t *attribution(struct kb_doc *d, const struct kb_model *m, struct node *nodes, size_t n,
			   size_t a, size_t bend, size_t b, size_t c, size_t k, const char *unit,
			   const char *kind, const char *rest)
{
	struct kb_doc_table *t;
	double base = figure(m, c, k, a), whole = figure(m, c, k, bend) - base;
	double real = figure(m, c, k, b) - base;
	double sum = 0;
	int speed = c != (size_t)-1;
	json_t *parts = json_array(), *o = json_object();
	size_t *order = kb_xcalloc(n ? n : 1, sizeof(*order));
	double *dv = kb_xcalloc(n ? n : 1, sizeof(*dv));

	for (size_t i = 0; i < n; i++) {
		dv[i] = figure(m, c, k, nodes[i].v) - base;
		sum += dv[i];
		order[i] = i;
	}
	/* largest contribution first */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && fabs(dv[order[j]]) > fabs(dv[order[j - 1]]); j--) {
			size_t x = order[j];

			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	t = kb_doc_table(d, speed ? 5 : 4);
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_LEFT), "part of the tree (compiled as B)");
	head_with_unit(t, "change", unit, kind);
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_RIGHT), "share of the whole");
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_LEFT), "hybrid variant");
	if (speed)
		kb_doc_fmt(kb_doc_th(t, KB_ALIGN_LEFT), "verdict against A");
	for (size_t i = 0; i < n; i++) {
		const struct node *nd = &nodes[order[i]];
		json_t *p = json_object();

		kb_doc_code(kb_doc_td(t), nd->path);
		cell_num(t, dv[order[i]]);
		cell_share(t, dv[order[i]], whole);
		kb_doc_code(kb_doc_td(t), nd->variant);
		if (speed)
			kb_doc_fmt(kb_doc_td(t), "%s", verdict_of(m, c, k, nd->v));
		json_object_set_new(p, "path", json_string(nd->path));
		json_object_set_new(p, "variant", json_string(nd->variant));
		json_object_set_new(p, "change", kb_model_json_num(dv[order[i]]));
		if (speed)
			json_object_set_new(p, "verdict", json_string(verdict_of(m, c, k, nd->v)));
		json_array_append_new(parts, p);
	}
	total_row(t, "sum of the parts", sum, whole, NULL, speed ? "" : NULL);
	total_row(t, "whole: every object as B (B end)", whole, whole, m->variants[bend].name,
		  speed ? verdict_of(m, c, k, bend) : NULL);
	total_row(t, rest, whole - sum, whole, NULL, speed ? "" : NULL);
	total_row(t, "B as built (check: the B end's)", real, whole, m->variants[b].name,
		  speed ? verdict_of(m, c, k, b) : NULL);
	waterfall(d, nodes, order, dv, n, whole, unit, kind, rest);
	json_object_set_new(o, "base", kb_model_json_num(base));
	json_object_set_new(o, "parts", parts);
	json_object_set_new(o, "sum", kb_model_json_num(sum));
	json_object_set_new(o, "whole", kb_model_json_num(whole));
	json_object_set_new(o, "whole_minus_sum", kb_model_json_num(whole - sum));
	json_object_set_new(o, "b_as_built", kb_model_json_num(real));
	free(order);
	free(dv);
	return o;
}

/* The miss-o-meter of case c, B against A (the run's baseline): the
 * functions behind B's change, as the run's report picked them. */
static json_t *functions(struct kb_doc *d, const struct kb_model *m, size_t c, size_t b)
{
	const struct kb_miss_model *mm = NULL;
	struct kb_doc_table *t;
	json_t *arr = json_array();

	for (size_t i = 0; i < m->nmiss && !mm; i++)
		if (m->miss[i].variant == b && !strcmp(m->miss[i].cas, m->cases[c]))
			mm = &m->miss[i];
	if (!mm || !mm->n)
		return arr;
	kb_doc_fmt(kb_doc_heading(d, 3), "functions behind B's change (miss-o-meter, simulated)");
	t = kb_doc_table(d, 5);
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_LEFT), "function");
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_RIGHT), "instructions/op A → B");
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_RIGHT), "L1i misses/op A → B");
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_RIGHT), "size Δ (bytes)");
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_RIGHT), "Δ instructions/op");
	for (size_t k = 0; k < mm->n; k++) {
		const struct kb_miss_row *r = &mm->rows[k];
		json_t *o = json_object();

		kb_doc_code(kb_doc_td(t), r->name);
		kb_doc_fmt(kb_doc_td(t), "%.1f → %.1f", r->ins[0], r->ins[1]);
		kb_doc_fmt(kb_doc_td(t), "%.3f → %.3f", r->miss[0], r->miss[1]);
		if (r->size[0] >= 0 && r->size[1] >= 0)
			kb_doc_fmt(kb_doc_td(t), "%+lld", r->size[1] - r->size[0]);
		else
			kb_doc_fmt(kb_doc_td(t), "%s", r->size[0] < 0 ? "new" : "gone");
		kb_doc_fmt(kb_doc_td(t), "%+.1f", r->d_ins);
		json_object_set_new(o, "function", json_string(r->name));
		json_object_set_new(o, "ins", json_pack("[ff]", r->ins[0], r->ins[1]));
		json_object_set_new(o, "l1i_misses", json_pack("[ff]", r->miss[0], r->miss[1]));
		json_object_set_new(o, "size", json_pack("[II]", (json_int_t)r->size[0],
							 (json_int_t)r->size[1]));
		json_array_append_new(arr, o);
	}
	kb_doc_fmt(kb_doc_para(d), "Per operation, summed over the samples' regions of sim.jsonl; "
		   "the %zu functions whose instructions or misses changed most (of %zu that changed); "
		   "every one: kbench miss-o-meter RUN_DIR.", mm->n, mm->changed);
	return arr;
}

static int write_doc(const char *dir, const char *name, const struct kb_doc *d,
		     const struct kb_doc_emitter *e)
{
	char *text = NULL, *path;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int r;

	if (!f)
		abort();
	kb_doc_emit(f, d, e);
	fclose(f);
	path = kb_xasprintf("%s/%s", dir, name);
	r = kb_write_file_atomic(path, text, len);
	free(path);
	free(text);
	return r;
}

/* explain.md and explain.html from d, explain.json from out. */
static int write_outputs(const char *dir, const struct kb_doc *d, json_t *out)
{
	char *text, *p;
	int ret;

	if (write_doc(dir, "explain.md", d, &kb_doc_markdown) < 0 ||
	    write_doc(dir, "explain.html", d, &kb_doc_html) < 0)
		return -1;
	text = json_dumps(out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	p = kb_xasprintf("%s/explain.json", dir);
	ret = text ? kb_write_file_atomic(p, text, strlen(text)) : -1;
	free(p);
	free(text);
	if (ret == 0)
		printf("%s/explain.md\n", dir);
	return ret;
}

/* One table of a figure: text size (c == -1) or metric k in case c. */
typedef json_t *figure_fn(struct kb_doc *d, const struct kb_model *m, size_t c, size_t k,
			  const char *unit, const char *kind, void *ctx);

/* The text size table, then per case a table per figure (and, with fv a
 * variant, the functions behind its change), into the document and out's
 * "text" and "cases". */
static void figure_tables(struct kb_doc *d, const struct kb_model *m, json_t *out, figure_fn *fn,
			  void *ctx, size_t fv)
{
	json_t *cases = json_array();

	kb_doc_fmt(kb_doc_heading(d, 2), "Text size");
	json_object_set_new(out, "text", fn(d, m, (size_t)-1, 0, "bytes", "measured", ctx));
	for (size_t c = 0; c < m->nc; c++) {
		json_t *jc = json_object();

		kb_doc_str(kb_doc_heading(d, 2), m->cases[c]);
		json_object_set_new(jc, "case", json_string(m->cases[c]));
		for (size_t f = 0; f < KB_ARRAY_SIZE(figures); f++) {
			size_t k = kb_model_metric(m, figures[f].metric);
			const char *kind;

			if (k >= m->nm)
				continue;
			kind = kb_figure_kind_name(m->metrics[k].source);
			kb_doc_fmt(kb_doc_heading(d, 3), "%s", figures[f].words);
			json_object_set_new(jc, figures[f].metric,
					    fn(d, m, c, k, m->metrics[k].unit, kind, ctx));
		}
		if (fv != (size_t)-1)
			json_object_set_new(jc, "functions", functions(d, m, c, fv));
		json_array_append_new(cases, jc);
	}
	json_object_set_new(out, "cases", cases);
}

/* By code: the parts, A, the B end, B and the remainder's words. */
struct code_ctx {
	struct node *nodes;
	size_t n, a, bend, b;
	const char *rest;
};

static json_t *code_fig(struct kb_doc *d, const struct kb_model *m, size_t c, size_t k,
			const char *unit, const char *kind, void *ctx)
{
	const struct code_ctx *x = ctx;
	json_t *o = attribution(d, m, x->nodes, x->n, x->a, x->bend, x->b, c, k, unit, kind, x->rest);

	json_object_set_new(o, "source", json_string(kind));
	return o;
}

/* ---- by flag ---- */

struct flagrow {
	char *name;			/* the flag's (malloc'd) */
	const char *a_set, *b_set;	/* its setting in A and in B (the variants' hybrid_cflags) */
	size_t toward, loo;		/* model variants: A with it as B; the whole with it as A */
};

/* One by-flag table (text when c == -1): per setting, one at a time from A
 * and leave-one-out from the whole; their sums, the whole and what no
 * setting explains. */
static json_t *flag_table(struct kb_doc *d, const struct kb_model *m, const struct flagrow *fr,
			  size_t nf, size_t a, size_t whole_v, size_t c, size_t k, const char *unit,
			  const char *kind)
{
	double base = figure(m, c, k, a), whole = figure(m, c, k, whole_v) - base;
	double sum1 = 0, sumloo = 0;
	int speed = c != (size_t)-1;
	struct kb_doc_table *t = kb_doc_table(d, speed ? 5 : 4);
	json_t *o = json_object(), *arr = json_array();

	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_LEFT), "setting (A → B)");
	head_with_unit(t, "one at a time: A with it as B, minus A", unit, kind);
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_RIGHT), "share of the whole");
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_RIGHT), "leave one out: whole minus whole with it as A");
	if (speed)
		kb_doc_fmt(kb_doc_th(t, KB_ALIGN_LEFT), "verdict (A with it as B, against A)");
	for (size_t f = 0; f < nf; f++) {
		double one = figure(m, c, k, fr[f].toward) - base;
		double loo = figure(m, c, k, whole_v) - figure(m, c, k, fr[f].loo);
		struct kb_inline *in = kb_doc_td(t);
		json_t *x = json_object();

		kb_doc_code(in, fr[f].name);
		kb_doc_fmt(in, " (");
		kb_doc_code(in, fr[f].a_set);
		kb_doc_fmt(in, " → ");
		kb_doc_code(in, fr[f].b_set);
		kb_doc_fmt(in, ")");
		cell_num(t, one);
		cell_share(t, one, whole);
		cell_num(t, loo);
		if (speed)
			kb_doc_fmt(kb_doc_td(t), "%s", verdict_of(m, c, k, fr[f].toward));
		sum1 += one;	/* a missing figure makes the sum missing too */
		sumloo += loo;
		json_object_set_new(x, "name", json_string(fr[f].name));
		json_object_set_new(x, "a", json_string(fr[f].a_set));
		json_object_set_new(x, "b", json_string(fr[f].b_set));
		json_object_set_new(x, "one_at_a_time", kb_model_json_num(one));
		json_object_set_new(x, "leave_one_out", kb_model_json_num(loo));
		if (speed)
			json_object_set_new(x, "verdict", json_string(verdict_of(m, c, k, fr[f].toward)));
		json_array_append_new(arr, x);
	}
	kb_doc_fmt(kb_doc_td(t), "sum over the settings");
	cell_num(t, sum1);
	cell_share(t, sum1, whole);
	cell_num(t, sumloo);
	if (speed)
		kb_doc_fmt(kb_doc_td(t), " ");
	kb_doc_fmt(kb_doc_td(t), "whole: the level itself (B over the parts, minus A)");
	cell_num(t, whole);
	cell_share(t, whole, whole);
	cell_num(t, whole);
	if (speed)
		kb_doc_fmt(kb_doc_td(t), "%s", verdict_of(m, c, k, whole_v));
	kb_doc_fmt(kb_doc_td(t), "explained by no setting: whole - sum");
	cell_num(t, whole - sum1);
	cell_share(t, whole - sum1, whole);
	cell_num(t, whole - sumloo);
	if (speed)
		kb_doc_fmt(kb_doc_td(t), " ");
	json_object_set_new(o, "base", kb_model_json_num(base));
	json_object_set_new(o, "flags", arr);
	json_object_set_new(o, "sum_one_at_a_time", kb_model_json_num(sum1));
	json_object_set_new(o, "sum_leave_one_out", kb_model_json_num(sumloo));
	json_object_set_new(o, "whole", kb_model_json_num(whole));
	json_object_set_new(o, "unexplained_one_at_a_time", kb_model_json_num(whole - sum1));
	json_object_set_new(o, "unexplained_leave_one_out", kb_model_json_num(whole - sumloo));
	json_object_set_new(o, "source", json_string(kind));
	return o;
}

struct flag_ctx {
	const struct flagrow *fr;
	size_t nf, a, whole_v;
};

static json_t *flag_fig(struct kb_doc *d, const struct kb_model *m, size_t c, size_t k,
			const char *unit, const char *kind, void *ctx)
{
	const struct flag_ctx *x = ctx;

	return flag_table(d, m, x->fr, x->nf, x->a, x->whole_v, c, k, unit, kind);
}

/* Whether conf is an explain run by flag: it has hybrids with flags. */
static int is_by_flag(const struct kb_conf *conf)
{
	for (size_t i = 0; i < conf->n_variants; i++)
		if (conf->variants[i].hy_cflags)
			return 1;
	return 0;
}

/* explain.md, .html and .json of a by-flag run, its variants as
 * explain_flag_text made them. */
static int flag_write(const char *dir, const struct kb_conf *conf, const struct kb_model *m)
{
	const struct kb_variant *va = NULL, *vb = NULL, *vw = NULL;
	struct flagrow *fr = NULL;
	size_t nf = 0, a, b, whole_v;
	char *parts = NULL;
	json_t *out = NULL;
	struct kb_doc d;
	int ret = -1;

	for (size_t i = 0; i < conf->n_variants; i++)
		if (conf->variants[i].hybrid && !conf->variants[i].hy_cflags) {
			vw = &conf->variants[i];
			va = &conf->variants[vw->hy_a];
			vb = &conf->variants[vw->hy_b];
		}
	a = va ? kb_model_variant(m, va->name) : (size_t)-1;
	b = vb ? kb_model_variant(m, vb->name) : (size_t)-1;
	whole_v = vw ? kb_model_variant(m, vw->name) : (size_t)-1;
	if (vw)
		parts = paths_line(vw->hy_paths, vw->n_hy_paths);
	/* per flag: "A.FLAG.B" (A with it as in B) and "B.FLAG.A" (the whole with it as in A) */
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
		fr = kb_xrealloc(fr, (nf + 1) * sizeof(*fr));
		fr[nf].name = name;
		fr[nf].a_set = loo->hy_cflags;
		fr[nf].b_set = v->hy_cflags;
		fr[nf].toward = kb_model_variant(m, v->name);
		fr[nf++].loo = kb_model_variant(m, loo->name);
	}
	if (a >= m->nv || b >= m->nv || whole_v >= m->nv || !nf) {
		kb_error("'%s': not a run of kbench explain --by-flag (no flags, or no figures of A, B "
			 "and B over the parts)", dir);
		goto out;
	}
	kb_doc_init(&d, "kbench explain --by-flag");
	{
		struct kb_inline *h = kb_doc_heading(&d, 1), *p;

		kb_doc_fmt(h, "Which flags make ");
		kb_doc_str(h, m->variants[b].name);
		kb_doc_fmt(h, " differ from ");
		kb_doc_str(h, m->variants[a].name);
		p = kb_doc_para(&d);
		kb_doc_fmt(p, "The optimizer settings in which the two variants' compilations differ, as "
			   "gcc states them for each compilation's own options (gcc -Q --help=optimizers "
			   "and --help=params), over ");
		kb_doc_code(p, parts);
		kb_doc_fmt(p, " (\".\": the whole kernel). One at a time: ");
		kb_doc_code(p, m->variants[a].name);
		kb_doc_fmt(p, " with one setting as in ");
		kb_doc_code(p, m->variants[b].name);
		kb_doc_fmt(p, ", minus A. Leave one out: the whole (");
		kb_doc_code(p, m->variants[whole_v].name);
		kb_doc_fmt(p, ", B over the parts) minus the whole with that setting as in A. What the "
			   "settings do not add up to is the level's own heuristics (inlining, "
			   "unrolling and costs that -Os changes inside passes, under no flag) and the "
			   "settings' interactions: it is stated as explained by no setting, never "
			   "spread over the flags. Text sizes are measured; per-operation figures are "
			   "the run's medians (instructions and L1i misses simulated, cycles modeled); "
			   "a verdict is the run's own test against A.");
	}
	out = json_object();
	json_object_set_new(out, "a", json_string(m->variants[a].name));
	json_object_set_new(out, "b", json_string(m->variants[b].name));
	json_object_set_new(out, "whole", json_string(m->variants[whole_v].name));
	json_object_set_new(out, "parts", json_string(parts));
	json_object_set_new(out, "backend", json_string(m->backend ? m->backend : ""));
	{
		struct flag_ctx fc = { fr, nf, a, whole_v };

		figure_tables(&d, m, out, flag_fig, &fc, (size_t)-1);
	}
	ret = write_outputs(dir, &d, out);
	kb_doc_release(&d);
out:
	for (size_t i = 0; i < nf; i++)
		free(fr[i].name);
	free(fr);
	free(parts);
	json_decref(out);
	return ret;
}

/* explain.md, explain.html and explain.json of an explain run directory. */
static int explain_write(const char *dir)
{
	struct kb_model_opts o = KB_MODEL_OPTS_INIT;
	struct kb_conf conf;
	struct kb_model *m = NULL;
	struct kb_doc d;
	struct node *nodes = NULL;
	size_t n = 0, a = (size_t)-1, b = (size_t)-1, bend = (size_t)-1;
	char *copy = kb_xasprintf("%s/variants.conf", dir), *mpath = kb_xasprintf("%s/manifest.json", dir);
	json_t *manifest = json_load_file(mpath, 0, NULL), *out = NULL;
	const char *cdir = manifest ? json_string_value(json_object_get(manifest, "config_dir")) : NULL;
	const char *rest;
	long differ = -1, covered = -1;
	int ret = -1, doc = 0;
	char *ctext = NULL, *tag;

	/* what the parts cover, from the comment explain_text wrote */
	if (kb_read_file(copy, &ctext, NULL) == 0 && (tag = strstr(ctext, coverage_tag)) &&
	    sscanf(tag + strlen(coverage_tag), "%ld %ld", &differ, &covered) != 2)
		differ = covered = -1;

	if (kb_conf_load_dir(&conf, copy, cdir) < 0)
		goto out;
	m = kb_model_load(dir, &o);
	if (!m)
		goto out;
	if (is_by_flag(&conf)) {
		ret = flag_write(dir, &conf, m);
		goto out;
	}
	for (size_t i = 0; i < conf.n_variants; i++) {
		const struct kb_variant *v = &conf.variants[i];
		size_t mv = kb_model_variant(m, v->name);

		if (!v->hybrid)
			continue;
		if (a == (size_t)-1) {
			a = kb_model_variant(m, conf.variants[v->hy_a].name);
			b = kb_model_variant(m, conf.variants[v->hy_b].name);
		}
		if (v->n_hy_paths == 1 && !*v->hy_paths[0]) {
			bend = mv;
			continue;
		}
		nodes = kb_xrealloc(nodes, (n + 1) * sizeof(*nodes));
		nodes[n].variant = v->name;
		nodes[n].path = kb_xstrdup(v->hy_paths[0]);
		nodes[n++].v = mv;
	}
	if (a >= m->nv || b >= m->nv || bend >= m->nv) {
		kb_error("'%s': not a run of kbench explain (no hybrids of two variants and their B "
			 "end with figures)", dir);
		goto out;
	}
	kb_doc_init(&d, "kbench explain");
	doc = 1;
	{
		struct kb_inline *h = kb_doc_heading(&d, 1);

		kb_doc_fmt(h, "Why ");
		kb_doc_str(h, m->variants[b].name);
		kb_doc_fmt(h, " differs from ");
		kb_doc_str(h, m->variants[a].name);
	}
	{
		struct kb_inline *p = kb_doc_para(&d);

		kb_doc_fmt(p, "Variant ");
		kb_doc_code(p, m->variants[b].name);
		kb_doc_fmt(p, " against ");
		kb_doc_code(p, m->variants[a].name);
		kb_doc_fmt(p, ", part by part: each hybrid kernel is ");
		kb_doc_code(p, m->variants[a].name);
		kb_doc_fmt(p, " built from its own .config with the objects of one part of the tree "
			   "compiled exactly as in ");
		kb_doc_code(p, m->variants[b].name);
		kb_doc_fmt(p, " (its recorded Kbuild commands); a part's change is the hybrid's figure "
			   "minus A's. The whole is the B end, A with every object compiled as in B; "
			   "what the parts do not add up to is their interaction (code of one part "
			   "inlined into, or sharing cache sets with, another). Text sizes are measured "
			   "(ELF section headers, as binutils size); per-operation figures are medians "
			   "of the %s backend: instructions and L1i misses simulated, cycles modeled. A "
			   "verdict is the run's own test of that variant against A, as in report.md "
			   "(under layout control where the run has layouts or virtual layouts; a "
			   "difference under min_effect or the layout spread is not distinguishable).",
			   m->backend ? m->backend : "run's");
	}
	{
		struct kb_inline *p = kb_doc_para(&d);

		if (differ < 0)
			kb_doc_fmt(p, "How many objects the parts hold is not recorded in this run "
				   "directory: the row \"whole - sum\" is the interaction and whatever "
				   "the parts leave out.");
		else if (covered == differ)
			kb_doc_fmt(p, "%ld objects are compiled differently, all of them in the parts: the "
				   "row \"whole - sum\" is the parts' interaction.", differ);
		else
			kb_doc_fmt(p, "%ld objects are compiled differently, %ld of them in the parts: the "
				   "row \"whole - sum\" is the other %ld objects' contribution together "
				   "with the interaction.", differ, covered, differ - covered);
	}
	rest = differ >= 0 && covered == differ ? "interaction: whole - sum"
						 : "rest: whole - sum (other objects, interaction)";
	out = json_object();
	json_object_set_new(out, "a", json_string(m->variants[a].name));
	json_object_set_new(out, "b", json_string(m->variants[b].name));
	json_object_set_new(out, "b_end", json_string(m->variants[bend].name));
	json_object_set_new(out, "backend", json_string(m->backend ? m->backend : ""));
	json_object_set_new(out, "objects_differ", differ < 0 ? json_null() : json_integer(differ));
	json_object_set_new(out, "objects_in_parts", differ < 0 ? json_null() : json_integer(covered));
	{
		struct code_ctx cc = { nodes, n, a, bend, b, rest };

		figure_tables(&d, m, out, code_fig, &cc, b);
	}
	ret = write_outputs(dir, &d, out);
out:
	if (doc)
		kb_doc_release(&d);
	for (size_t i = 0; i < n; i++)
		free(nodes[i].path);
	free(nodes);
	json_decref(out);
	json_decref(manifest);
	kb_model_free(m);
	kb_conf_release(&conf);
	free(copy);
	free(mpath);
	free(ctext);
	return ret;
}

/* ---- the command ---- */

static void strs_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* A path of the kernel tree given on the command line: "dir" as "dir/". */
static char *tree_path(const char *s)
{
	size_t n = strlen(s);

	if (!n || s[0] == '/' || strstr(s, "..") || strstr(s, "//") || !strcmp(s, ".") ||
	    !strncmp(s, "./", 2) || strstr(s, "/./") || (n >= 2 && !strcmp(s + n - 2, "/.")) ||
	    s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+")])
		return NULL;
	if ((n > 2 && !strcmp(s + n - 2, ".o")) || s[n - 1] == '/')
		return kb_xstrdup(s);
	return kb_xasprintf("%s/", s);
}

/* The elements of option opt's comma-separated value (malloc'd, *n of
 * them): 0, or -1 after a message naming opt (an empty list or element). */
static int option_list(const char *opt, const char *value, char ***out, size_t *n)
{
	const char *s = value;

	*out = NULL;
	*n = 0;
	if (!*value)
		return kb_error("%s: empty list", opt);
	for (;;) {
		size_t len = strcspn(s, ",");

		if (!len) {
			strs_free(*out, *n);
			*out = NULL;
			*n = 0;
			return kb_error("%s '%s': empty element", opt, value);
		}
		*out = kb_xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = kb_xstrndup(s, len);
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

/* The paths of --only as tree paths, each once; as the parts of an
 * attribution (by code) none inside another, since their sum would count
 * its objects twice, and each hybrid's variant name its own.  0, or -1
 * after a message. */
static int only_paths(const char *only, const char *a, const char *b, int parts, char ***out,
		      size_t *n)
{
	char **w = NULL, **names = NULL;
	size_t nw = 0;
	int ret = -1;

	*out = NULL;
	*n = 0;
	if (option_list("--only", only, &w, &nw) < 0)
		return -1;
	*out = kb_xcalloc(nw, sizeof(**out));
	for (size_t i = 0; i < nw; i++) {
		char *p = tree_path(w[i]);

		if (!p) {
			kb_error("--only '%s': a directory or object of the kernel tree, relative, "
				 "without '.', '..' or '//'", w[i]);
			goto out;
		}
		(*out)[(*n)++] = p;
		for (size_t j = 0; j < i; j++) {
			if (!strcmp((*out)[j], p)) {
				kb_error("--only '%s': given twice", p);
				goto out;
			}
		}
	}
	if (!parts) {
		ret = 0;
		goto out;
	}
	for (size_t i = 0; i < *n; i++) {
		for (size_t j = 0; j < *n; j++) {
			if (i != j && kb_hybrid_match((*out)[i], &(*out)[j], 1)) {
				kb_error("--only '%s': inside '%s', another part (the parts must not "
					 "overlap: their sum would count its objects twice)", (*out)[i],
					 (*out)[j]);
				goto out;
			}
		}
	}
	/* A, B, the B end, then the parts' hybrids */
	names = kb_xcalloc(*n + 3, sizeof(*names));
	names[0] = kb_xstrdup(a);
	names[1] = kb_xstrdup(b);
	names[2] = node_variant(b, "");
	for (size_t i = 0; i < *n; i++) {
		names[i + 3] = node_variant(b, (*out)[i]);
		for (size_t j = 0; j < i + 3; j++) {
			if (!strcmp(names[j], names[i + 3])) {
				kb_error("--only '%s': its hybrid would be variant '%s', as %s%s%s is",
					 (*out)[i], names[j], j == 0 ? "A" : j == 1 ? "B" : j == 2 ?
					 "the B end" : "the hybrid of '", j > 2 ? (*out)[j - 3] : "",
					 j > 2 ? "'" : "");
				goto out;
			}
		}
	}
	ret = 0;
out:
	strs_free(w, nw);
	strs_free(names, names ? *n + 3 : 0);
	if (ret < 0) {
		strs_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return ret;
}

/* The settings of --flags, each once, by their names (as --by-flag lists
 * them).  0, or -1 after a message. */
static int flag_names(const char *flags, char ***out, size_t *n)
{
	if (option_list("--flags", flags, out, n) < 0)
		return -1;
	for (size_t i = 0; i < *n; i++) {
		const char *w = (*out)[i];
		const char *why = w[0] == '-' ? "a setting's name as --by-flag lists it "
						"('align-functions', not '-falign-functions')" : NULL;

		for (size_t j = 0; j < i && !why; j++)
			if (!strcmp((*out)[j], w))
				why = "given twice";
		if (why) {
			kb_error("--flags '%s': %s", w, why);
			strs_free(*out, *n);
			*out = NULL;
			*n = 0;
			return -1;
		}
	}
	return 0;
}

/* Whether path p of option opt is in the kernel source tree: the directory
 * itself, an object's directory (an object is known only to a build: some
 * are compiled from generated sources), or with dir_only p itself as a
 * directory.  0, or -1 after a message. */
static int in_tree(const char *tree, const char *opt, const char *p, int dir_only)
{
	size_t len = strlen(p), n = len;
	struct stat st;
	char *d;
	int there;

	if (!dir_only && p[len - 1] != '/')
		for (n = len; n && p[n - 1] != '/'; n--)
			;
	d = kb_xasprintf("%s/%.*s", tree, (int)n, p);
	there = stat(d, &st) == 0 && S_ISDIR(st.st_mode);
	free(d);
	if (there)
		return 0;
	if (n == len)
		return kb_error("%s '%s': not a directory of the kernel tree (%s)", opt, p, tree);
	return kb_error("%s '%s': no directory '%.*s' in the kernel tree (%s)", opt, p, (int)n, p,
			tree);
}

/* A part of --only that holds no object A and B compile differently: why,
 * from what the build of A has there.  -1 after the message. */
static int part_empty(const struct kb_kernel *ka, const char *a, const char *b, const char *part)
{
	char *path = kb_xasprintf("%s/%s", ka->objdir, part);
	struct stat st;
	int built = stat(path, &st) == 0;

	free(path);
	if (!built)
		return kb_error("--only '%s': matches no object of the build of '%s'", part, a);
	return kb_error("--only '%s': no object there is compiled differently by '%s' and '%s' "
			"(its hybrid would be '%s')", part, a, b, a);
}

/* The flags of an explain by flag: the optimizer settings in which A's and
 * B's compilations of one object under the paths differ (kernel/fork.o
 * where it is there, else the first), those of --flags when given.  0, or
 * -1 after a message. */
static int choose_flags(const struct explain_ctx *x, struct kb_flag **out, size_t *nout)
{
	char *const *only = x->fnames;
	size_t nonly = x->nf;
	const char *ref = NULL;
	struct kb_flag *fl = NULL;
	size_t nfl = 0;

	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < x->nobj; i++)
		if (kb_hybrid_match(x->objs[i], x->nodes, x->n) &&
		    (!ref || !strcmp(x->objs[i], "kernel/fork.o")))
			ref = x->objs[i];
	if (!ref)
		return kb_error("no object under the parts is compiled differently");
	if (kb_hybrid_flag_diff(&x->ka, &x->kb, ref, &fl, &nfl) < 0)
		return -1;
	kb_info("%s: %zu optimizer settings differ", ref, nfl);
	for (size_t i = 0; i < nfl; i++)
		kb_info("  %s: %s in A, %s in B", fl[i].name, fl[i].a, fl[i].b);
	if (nonly) {
		struct kb_flag *kept = NULL;
		size_t nk = 0;

		for (size_t o = 0; o < nonly; o++) {
			const char *w = only[o];
			size_t i;

			for (i = 0; i < nfl && strcmp(fl[i].name, w); i++)
				;
			if (i == nfl) {
				kb_error("--flags: '%s' is not a setting in which A and B differ (%s has %zu: "
					 "see the list above)", w, ref, nfl);
				kb_hybrid_flags_free(kept, nk);
				kb_hybrid_flags_free(fl, nfl);
				return -1;
			}
			kept = kb_xrealloc(kept, (nk + 1) * sizeof(*kept));
			kept[nk].name = kb_xstrdup(fl[i].name);
			kept[nk].a = kb_xstrdup(fl[i].a);
			kept[nk++].b = kb_xstrdup(fl[i].b);
		}
		kb_hybrid_flags_free(fl, nfl);
		fl = kept;
		nfl = nk;
	}
	if (!nfl) {
		kb_hybrid_flags_free(fl, nfl);
		return kb_error("%s: A and B differ in no optimizer setting gcc lists: nothing to "
				"attribute by flag (the difference is the level's own heuristics)", ref);
	}
	*out = fl;
	*nout = nfl;
	return 0;
}

static int start(struct explain_ctx *x)
{
	const char *path = x->path, *a = x->a, *b = x->b, *under = x->under, *only = x->only;
	const char *executor = x->executor;
	struct kb_conf conf;
	struct kb_source src = { 0 };
	struct kb_hybrid_counts cnt;
	const struct kb_variant *va, *vb;
	char *text = NULL, *gen = NULL, *log = NULL, *run_dir = NULL, *u = NULL;
	int ret = KB_EXIT_USAGE, have_src = 0, bad = 0;

	if (kb_conf_load(&conf, path) < 0 || kb_conf_check_paths(&conf) < 0)
		goto out;
	va = kb_conf_variant(&conf, a);
	vb = kb_conf_variant(&conf, b);
	if (!va || !vb || va == vb) {
		kb_error("'%s': %s", path, !va ? "A is not a variant of it" : !vb ?
			 "B is not a variant of it" : "A and B are the same variant");
		goto out;
	}
	if (va->hybrid || vb->hybrid || va->bzimage || vb->bzimage) {
		kb_error("'%s': A and B must be built from source as configured (not hybrids, not "
			 "prebuilt)", path);
		goto out;
	}
	/* every option checked before anything is built, as far as the source
	 * can tell; what only the builds of A and B know, before the hybrids */
	if (x->cases && kb_conf_check_workloads("--cases", x->cases) < 0)
		goto out;
	if (under && !*under) {
		kb_error("--under: empty path");
		goto out;
	}
	if (under && !(u = tree_path(under))) {
		kb_error("--under '%s': a directory of the kernel tree, relative, without '.', '..' "
			 "or '//'", under);
		goto out;
	}
	if (only && only_paths(only, a, b, !x->by_flag, &x->nodes, &x->n) < 0)
		goto out;
	if (x->flags && flag_names(x->flags, &x->fnames, &x->nf) < 0)
		goto out;
	ret = KB_EXIT_FAILED;
	if (kb_source_prepare(&conf, &src) < 0)
		goto out;
	have_src = 1;
	bad = u && in_tree(src.tree, "--under", u, 1) < 0;
	for (size_t i = 0; i < x->n && !bad; i++)
		bad = in_tree(src.tree, "--only", x->nodes[i], 0) < 0;
	if (bad) {
		ret = KB_EXIT_USAGE;
		goto out;
	}
	if (kb_mkdir_p(conf.output, 0755) < 0)
		goto out;
	log = kb_xasprintf("%s/explain-%s-%s.log", conf.output, a, b);
	kb_info("building (or finding in the cache) '%s' and '%s' to see which objects differ; "
		"log: %s", a, b, log);
	if (kb_build_variant(&conf, &src, va, NULL, log, &x->ka) < 0 ||
	    kb_build_variant(&conf, &src, vb, NULL, log, &x->kb) < 0)
		goto out;
	if (kb_hybrid_objects(b, &x->ka, &x->kb, &x->objs, &x->nobj, &cnt) < 0)
		goto out;
	kb_info("%zu objects in both kernels, %zu compiled differently", cnt.objects, cnt.differ);
	if (!x->nobj) {
		kb_error("'%s' and '%s' compile every object the same way: nothing to explain", a, b);
		goto out;
	}
	/* the parts of --only are in nodes already */
	if (!only && x->by_flag) {
		x->nodes = kb_xcalloc(1, sizeof(*x->nodes));
		x->nodes[x->n++] = kb_xstrdup("");
	} else if (!only) {
		x->nodes = nodes_of(x->objs, x->nobj, u ? u : "", &x->n);
		if (!x->n) {
			kb_error("--under '%s': no object there is compiled differently", under);
			ret = KB_EXIT_USAGE;
			goto out;
		}
	}
	for (size_t i = 0; i < x->n; i++) {
		size_t k = 0;

		for (size_t j = 0; j < x->nobj; j++)
			k += kb_hybrid_match(x->objs[j], &x->nodes[i], 1);
		kb_info("part %s: %zu objects compiled differently", x->nodes[i], k);
		if (only && !k)
			bad = part_empty(&x->ka, a, b, x->nodes[i]);
	}
	if (bad) {
		ret = KB_EXIT_USAGE;
		goto out;
	}
	for (size_t j = 0; j < x->nobj; j++)
		x->covered += kb_hybrid_match(x->objs[j], x->nodes, x->n);
	if (x->covered < x->nobj)
		kb_info("the parts hold %zu of the %zu objects compiled differently; the rest is in "
			"the whole, not in any part", x->covered, x->nobj);
	if (kb_read_file(path, &x->orig, NULL) < 0) {
		kb_error_errno(errno, "cannot read '%s'", path);
		goto out;
	}
	if (x->by_flag) {
		struct kb_flag *fl = NULL;
		size_t nfl = 0;

		if (choose_flags(x, &fl, &nfl) < 0) {
			ret = x->flags ? KB_EXIT_USAGE : KB_EXIT_FAILED;
			goto out;
		}
		text = explain_flag_text(x, fl, nfl);
		kb_info("%zu flags, each set as in '%s' in '%s' and as in '%s' in '%s': %zu variants",
			nfl, b, a, a, b, 2 * nfl + 1);
		kb_hybrid_flags_free(fl, nfl);
	} else {
		text = explain_text(x);
	}
	gen = kb_xasprintf("%s/.explain-%s-%s-%ld.conf", conf.output, a, b, (long)getpid());
	if (kb_write_file_atomic(gen, text, strlen(text)) < 0)
		goto out;
	kb_info("%zu hybrid kernels and the B end, as variants of one run", x->n);
	ret = kb_run_main(gen, conf.dir, 0, executor, &run_dir);
	unlink(gen);
	if (run_dir && !kb_interrupted && explain_write(run_dir) < 0 && ret == KB_EXIT_OK)
		ret = KB_EXIT_FAILED;
	if (run_dir && kb_interrupted)
		kb_info("resume with: kbench explain --resume %s", run_dir);
out:
	for (size_t i = 0; i < x->nobj; i++)
		free(x->objs[i]);
	free(x->objs);
	strs_free(x->nodes, x->n);
	strs_free(x->fnames, x->nf);
	kb_kernel_release(&x->ka);
	kb_kernel_release(&x->kb);
	if (have_src)
		kb_source_release(&src);
	kb_conf_release(&conf);
	free(x->orig);
	free(text);
	free(gen);
	free(log);
	free(run_dir);
	free(u);
	return ret;
}

static int option(void *ctx, int key, const char *value)
{
	struct explain_ctx *a = ctx;

	switch (key) {
	case KB_LONG('c'): a->cases = value; break;
	case KB_LONG('u'): a->under = value; break;
	case KB_LONG('o'): a->only = value; break;
	case KB_LONG('r'): a->resume = 1; break;
	case KB_LONG('f'): a->by_flag = 1; break;
	case KB_LONG('F'): a->flags = value; break;
	case KB_LONG('e'):
		if (!kb_executor_find(value))
			return kb_command_usage_error(&kb_command_explain, "--executor '%s': %s", value,
						      kb_executor_names());
		a->executor = value;
		break;
	}
	return KB_GO_ON;
}

static int cmd_explain(int argc, char **argv)
{
	const struct kb_command *c = &kb_command_explain;
	struct explain_ctx a = { 0 };
	int r = kb_command_parse(c, &argc, &argv, option, &a);

	if (r != KB_GO_ON)
		return r;
	if (a.resume) {
		char *state = NULL, *mpath;
		json_t *mf;

		if (a.cases || a.under || a.only || a.by_flag || a.flags)
			return kb_command_usage_error(c, "--resume takes no option but --executor");
		if (argc != 1)
			return kb_command_usage_error(c, "--resume: one run directory, RUN_DIR");
		mpath = kb_xasprintf("%s/manifest.json", argv[0]);
		mf = json_load_file(mpath, 0, NULL);
		free(mpath);
		if (mf && json_string_value(json_object_get(mf, "state")))
			state = kb_xstrdup(json_string_value(json_object_get(mf, "state")));
		json_decref(mf);
		r = state && !strcmp(state, "complete") ? KB_EXIT_OK
			: kb_run_main(argv[0], NULL, 1, a.executor, NULL);
		free(state);
		if (kb_interrupted)
			return r;
		return explain_write(argv[0]) < 0 && r == KB_EXIT_OK ? KB_EXIT_FAILED : r;
	}
	if (argc != 3)
		return kb_command_usage_error(c, "three operands, VARIANTS.CONF, A and B");
	if (a.under && a.only)
		return kb_command_usage_error(c, "--under or --only, not both");
	if (a.flags && !a.by_flag)
		return kb_command_usage_error(c, "--flags goes with --by-flag");
	if (a.by_flag && a.under)
		return kb_command_usage_error(c, "--by-flag does not take --under");
	a.path = argv[0];
	a.a = argv[1];
	a.b = argv[2];
	return start(&a);
}

static const struct kb_command_option options[] = {
	{ "cases", KB_LONG('c'), "LIST", "the run's workloads (default: the configuration's)" },
	{ "under", KB_LONG('u'), "DIR", "the parts: DIR's children (default: the top-level directories)" },
	{ "only", KB_LONG('o'), "PATHS", "the parts: these directories or objects, comma-separated,\n"
	  "none inside another" },
	{ "by-flag", KB_LONG('f'), NULL, "attribute by optimizer setting instead of by part" },
	{ "flags", KB_LONG('F'), "NAMES", "only these settings (names as --by-flag lists them)" },
	{ "resume", KB_LONG('r'), NULL, "finish an explain run that was stopped, then write its files" },
	{ "executor", KB_LONG('e'), "E", "local or slurm, as kbench run" },
	{ 0 },
};

const struct kb_command kb_command_explain = {
	.name = "explain",
	.summary = "which parts of the kernel make variant B smaller or larger, faster or slower than A",
	.usage = "usage: kbench explain [--cases LIST] [--under DIR | --only PATH,...]\n"
		 "                      [--executor local|slurm] VARIANTS.CONF A B\n"
		 "       kbench explain --by-flag [--flags NAME,...] [--only PATH,...]\n"
		 "                      [--cases LIST] [--executor local|slurm] VARIANTS.CONF A B\n"
		 "       kbench explain [--executor local|slurm] --resume RUN_DIR\n\n"
		 "Build hybrid kernels, A with the objects of one part of the tree compiled\n"
		 "as in B, boot them with A, B and the B end (A with every object as in B) in\n"
		 "one run, and write explain.md, explain.html and explain.json into the run\n"
		 "directory: each part's change in text size and, per case, in kernel\n"
		 "instructions, L1i misses and modeled cycles per operation, their sum, the\n"
		 "whole and the interaction.  A and B's .configs may differ only in the\n"
		 "optimization level.\n\n"
		 "With --by-flag: the optimizer settings (gcc -Q --help=optimizers and\n"
		 "--help=params, asked with the options of one object's two compilations)\n"
		 "in which A and B differ; per setting, A with it as in B (one at a time)\n"
		 "and B with it as in A (leave one out), over the whole kernel or the\n"
		 "parts of --only; what no setting explains is said as such.\n\n"
		 "The options are checked before anything is built (exit status 2, naming\n"
		 "the option): an empty list or element, a name or path given twice, parts\n"
		 "that overlap, an unknown workload, a path not in the kernel tree; and,\n"
		 "once A and B are built, before any hybrid is, a part of --only that holds\n"
		 "no object they compile differently.\n",
	.options = options,
	.fn = cmd_explain,
};
