// SPDX-License-Identifier: GPL-2.0-or-later
/* The sections of explain.md and explain.html, from the figures
 * (explain.h), as the report's are (report-sections.c); and the writers of
 * explain's three files, as the report's writers[]. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "miss-o-meter.h"
#include "plot.h"
#include "util.h"

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
static void waterfall(struct kb_doc *d, const struct kb_explain_table *t, const char *rest)
{
	static unsigned serial;
	char *script = NULL, *data = NULL, *u, *name;
	size_t slen = 0, dlen = 0, n = t->nparts;
	FILE *sf, *df;
	double cum = 0, whole = t->whole;
	struct kb_inline *caption;

	if (!isfinite(whole))
		return;
	sf = open_memstream(&script, &slen);
	df = open_memstream(&data, &dlen);
	if (!sf || !df)
		abort();
	u = kb_plot_text(t->unit);
	for (size_t i = 0; i < n; i++) {
		double x = t->parts[i].change;
		char *l = kb_plot_label(t->parts[i].path);

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
		"with boxxyerror lc rgb variable\n", n + 1, u, t->kind);
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

/* By code, one table: a figure's contribution per part, the sum, the whole
 * and the interaction (or rest), and its waterfall. */
static void code_table(struct kb_doc *d, const struct kb_explain *x, const struct kb_explain_table *t)
{
	int speed = t->speed;
	struct kb_doc_table *dt = kb_doc_table(d, speed ? 5 : 4);

	kb_doc_fmt(kb_doc_th(dt, KB_ALIGN_LEFT), "%s", x->ordered ? "part of the tree (its functions in B's order)"
							    : "part of the tree (compiled as B)");
	head_with_unit(dt, "change", t->unit, t->kind);
	kb_doc_fmt(kb_doc_th(dt, KB_ALIGN_RIGHT), "share of the whole");
	kb_doc_fmt(kb_doc_th(dt, KB_ALIGN_LEFT), "%s", x->ordered ? "ordered variant" : "hybrid variant");
	if (speed)
		kb_doc_fmt(kb_doc_th(dt, KB_ALIGN_LEFT), "verdict against A");
	for (size_t i = 0; i < t->nparts; i++) {
		const struct kb_explain_part *p = &t->parts[i];

		kb_doc_code(kb_doc_td(dt), p->path);
		cell_num(dt, p->change);
		cell_share(dt, p->change, t->whole);
		kb_doc_code(kb_doc_td(dt), p->variant);
		if (speed)
			kb_doc_fmt(kb_doc_td(dt), "%s", p->verdict);
	}
	total_row(dt, "sum of the parts", t->sum, t->whole, NULL, speed ? "" : NULL);
	total_row(dt, x->ordered ? "whole: the whole order (B)" : "whole: every object as B (B end)", t->whole,
		  t->whole, x->whole, speed ? t->whole_verdict : NULL);
	total_row(dt, x->rest, t->whole - t->sum, t->whole, NULL, speed ? "" : NULL);
	if (!x->ordered)	/* by order, the whole is B */
		total_row(dt, "B as built (check: the B end's)", t->real, t->whole, x->b,
			  speed ? t->real_verdict : NULL);
	waterfall(d, t, x->rest);
}

/* By flag, one table: per setting, one at a time from A and leave one out
 * from the whole; their sums, the whole and what no setting explains. */
static void flag_table(struct kb_doc *d, const struct kb_explain_table *t)
{
	int speed = t->speed;
	struct kb_doc_table *dt = kb_doc_table(d, speed ? 5 : 4);

	kb_doc_fmt(kb_doc_th(dt, KB_ALIGN_LEFT), "setting (A → B)");
	head_with_unit(dt, "one at a time: A with it as B, minus A", t->unit, t->kind);
	kb_doc_fmt(kb_doc_th(dt, KB_ALIGN_RIGHT), "share of the whole");
	kb_doc_fmt(kb_doc_th(dt, KB_ALIGN_RIGHT), "leave one out: whole minus whole with it as A");
	if (speed)
		kb_doc_fmt(kb_doc_th(dt, KB_ALIGN_LEFT), "verdict (A with it as B, against A)");
	for (size_t f = 0; f < t->nflags; f++) {
		const struct kb_explain_flag *fl = &t->flags[f];
		struct kb_inline *in = kb_doc_td(dt);

		kb_doc_code(in, fl->name);
		kb_doc_fmt(in, " (");
		kb_doc_code(in, fl->a_set);
		kb_doc_fmt(in, " → ");
		kb_doc_code(in, fl->b_set);
		kb_doc_fmt(in, ")");
		cell_num(dt, fl->one);
		cell_share(dt, fl->one, t->whole);
		cell_num(dt, fl->loo);
		if (speed)
			kb_doc_fmt(kb_doc_td(dt), "%s", fl->verdict);
	}
	kb_doc_fmt(kb_doc_td(dt), "sum over the settings");
	cell_num(dt, t->sum1);
	cell_share(dt, t->sum1, t->whole);
	cell_num(dt, t->sumloo);
	if (speed)
		kb_doc_fmt(kb_doc_td(dt), " ");
	kb_doc_fmt(kb_doc_td(dt), "whole: the level itself (B over the parts, minus A)");
	cell_num(dt, t->whole);
	cell_share(dt, t->whole, t->whole);
	cell_num(dt, t->whole);
	if (speed)
		kb_doc_fmt(kb_doc_td(dt), "%s", t->whole_verdict);
	kb_doc_fmt(kb_doc_td(dt), "explained by no setting: whole - sum");
	cell_num(dt, t->whole - t->sum1);
	cell_share(dt, t->whole - t->sum1, t->whole);
	cell_num(dt, t->whole - t->sumloo);
	if (speed)
		kb_doc_fmt(kb_doc_td(dt), " ");
}

static void table(struct kb_doc *d, const struct kb_explain *x, const struct kb_explain_table *t)
{
	if (x->by == KB_EXPLAIN_BY_CODE)
		code_table(d, x, t);
	else
		flag_table(d, t);
}

/* The miss-o-meter of a case, B against A (the run's baseline): the
 * functions behind B's change, as the run's report picked them. */
static void functions(struct kb_doc *d, const struct kb_miss_model *mm)
{
	struct kb_doc_table *t;
	struct kb_inline *in;
	int moved = mm && mm->moved_n >= 0;	/* B is ordered: its order's functions marked */

	if (!mm || !mm->n)
		return;
	kb_doc_fmt(kb_doc_heading(d, 4), "functions behind B's change (miss-o-meter, simulated%s)",
		   mm->cycles_model ? "; cycles modeled" : "");
	t = kb_doc_table(d, (mm->cycles_model ? 6 : 5) + moved);
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_LEFT), "function");
	if (moved)
		kb_doc_fmt(kb_doc_th(t, KB_ALIGN_LEFT), "moved by B's order");
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_RIGHT), "instructions/op A → B");
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_RIGHT), "L1i misses/op A → B");
	if (mm->cycles_model)
		kb_doc_fmt(kb_doc_th(t, KB_ALIGN_RIGHT), "cycles/op A → B (modeled)");
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_RIGHT), "size Δ (bytes)");
	kb_doc_fmt(kb_doc_th(t, KB_ALIGN_RIGHT), "Δ instructions/op");
	for (size_t k = 0; k < mm->n; k++) {
		const struct kb_miss_row *r = &mm->rows[k];

		kb_doc_code(kb_doc_td(t), r->name);
		if (moved)
			kb_doc_fmt(kb_doc_td(t), "%s", r->moved ? "moved" : " ");
		kb_doc_fmt(kb_doc_td(t), "%.1f → %.1f", r->ins[0], r->ins[1]);
		kb_doc_fmt(kb_doc_td(t), "%.3f → %.3f", r->miss[0], r->miss[1]);
		if (mm->cycles_model && isfinite(r->cyc[0]) && isfinite(r->cyc[1]))
			kb_doc_fmt(kb_doc_td(t), "%.1f → %.1f", r->cyc[0], r->cyc[1]);
		else if (mm->cycles_model)
			kb_doc_fmt(kb_doc_td(t), "n/a");
		if (r->size[0] >= 0 && r->size[1] >= 0)
			kb_doc_fmt(kb_doc_td(t), "%+lld", r->size[1] - r->size[0]);
		else
			kb_doc_fmt(kb_doc_td(t), "%s", r->size[0] < 0 ? "new" : "gone");
		kb_doc_fmt(kb_doc_td(t), "%+.1f", r->d_ins);
	}
	in = kb_doc_para(d);
	kb_doc_fmt(in, "Per operation, summed over the samples' regions of sim.jsonl; "
		   "the %zu functions whose instructions or misses changed most (of %zu that changed); "
		   "every one: kbench miss-o-meter RUN_DIR.", mm->n, mm->changed);
	if (moved)
		kb_doc_fmt(in, " %ld functions B's order names ran in either kernel: together %+.1f "
			   "instructions and %+.3f L1i misses per operation%s; the other rows moved only "
			   "as the code before them did.", mm->moved_n, mm->moved_d_ins, mm->moved_d_miss,
			   isfinite(mm->moved_d_cyc) ? kb_pool_printf(in->pool, ", %+.1f cycles (modeled)",
								      mm->moved_d_cyc) : "");
	if (mm->cycles_model) {
		kb_doc_fmt(in, " Cycles are modeled: each block the sim plugin counted, priced by ");
		kb_doc_str(in, mm->cycles_model);
		kb_doc_fmt(in, ", times its executions, to the function holding its first instruction; no "
			   "cache misses, no branch mispredictions.");
	}
}

static void title(struct kb_doc *d, const struct kb_explain *x)
{
	struct kb_inline *h = kb_doc_heading(d, 1);

	kb_doc_fmt(h, "%s", x->by == KB_EXPLAIN_BY_CODE ? "Why " : "Which flags make ");
	kb_doc_str(h, x->b);
	kb_doc_fmt(h, "%s", x->by == KB_EXPLAIN_BY_CODE ? " differs from " : " differ from ");
	kb_doc_str(h, x->a);
}

static void method(struct kb_doc *d, const struct kb_explain *x)
{
	struct kb_inline *p = kb_doc_para(d);

	if (x->by == KB_EXPLAIN_BY_FLAG) {
		kb_doc_fmt(p, "The optimizer settings in which the two variants' compilations differ, as "
			   "gcc states them for each compilation's own options (gcc -Q --help=optimizers "
			   "and --help=params), over ");
		kb_doc_code(p, x->parts);
		kb_doc_fmt(p, " (\".\": the whole kernel). One at a time: ");
		kb_doc_code(p, x->a);
		kb_doc_fmt(p, " with one setting as in ");
		kb_doc_code(p, x->b);
		kb_doc_fmt(p, ", minus A. Leave one out: the whole (");
		kb_doc_code(p, x->whole);
		kb_doc_fmt(p, ", B over the parts) minus the whole with that setting as in A. What the "
			   "settings do not add up to is the level's own heuristics (inlining, "
			   "unrolling and costs that -Os changes inside passes, under no flag) and the "
			   "settings' interactions: it is stated as explained by no setting, never "
			   "spread over the flags. Text sizes are measured; per-operation figures are "
			   "the run's medians (instructions and L1i misses simulated, cycles modeled); "
			   "a verdict is the run's own test against A.");
		return;
	}
	if (x->ordered) {
		kb_doc_fmt(p, "Variant ");
		kb_doc_code(p, x->b);
		kb_doc_fmt(p, ", which is ");
		kb_doc_code(p, x->a);
		kb_doc_fmt(p, " built with the function order ");
		kb_doc_code(p, x->order);
		kb_doc_fmt(p, ", against ");
		kb_doc_code(p, x->a);
		kb_doc_fmt(p, ", part by part: each part's kernel is ");
		kb_doc_code(p, x->a);
		kb_doc_fmt(p, " built with an order of its own, the functions of the order that objects "
			   "under that part of the tree define (in ");
		kb_doc_code(p, x->a);
		kb_doc_fmt(p, "'s build), in the order's order: those go first in the text, every other "
			   "function stays in the linker's order. A part's change is its kernel's figure "
			   "minus A's; the whole is B, every function of the order moved; what the parts do "
			   "not add up to is their interaction (moved functions of two parts that now "
			   "share, or no longer share, cache sets, and the code after them, which each "
			   "part's move shifts) and the functions no part holds. Text sizes are measured "
			   "(ELF section headers, as binutils size); per-operation figures are medians of "
			   "the %s backend: instructions and L1i misses simulated, cycles modeled. An "
			   "order changes no instruction of a function but the jumps a function's own "
			   "section makes longer; its instructions change with the boot. A verdict is the "
			   "run's own test of that variant against A, as in report.md.",
			   x->backend ? x->backend : "run's");
		return;
	}
	kb_doc_fmt(p, "Variant ");
	kb_doc_code(p, x->b);
	kb_doc_fmt(p, " against ");
	kb_doc_code(p, x->a);
	kb_doc_fmt(p, ", part by part: each hybrid kernel is ");
	kb_doc_code(p, x->a);
	kb_doc_fmt(p, " built from its own .config with the objects of one part of the tree "
		   "compiled exactly as in ");
	kb_doc_code(p, x->b);
	kb_doc_fmt(p, " (its recorded Kbuild commands); a part's change is the hybrid's figure "
		   "minus A's. The whole is the B end, A with every object compiled as in B; "
		   "what the parts do not add up to is their interaction (code of one part "
		   "inlined into, or sharing cache sets with, another). Text sizes are measured "
		   "(ELF section headers, as binutils size); per-operation figures are medians "
		   "of the %s backend: instructions and L1i misses simulated, cycles modeled. A "
		   "verdict is the run's own test of that variant against A, as in report.md "
		   "(under layout control where the run has layouts or virtual layouts; a "
		   "difference under min_effect or the layout spread is not distinguishable).",
		   x->backend ? x->backend : "run's");
}

/* By code: how many objects the parts hold, so what "whole - sum" is. */
static void coverage(struct kb_doc *d, const struct kb_explain *x)
{
	struct kb_inline *p;

	if (x->by != KB_EXPLAIN_BY_CODE)
		return;
	p = kb_doc_para(d);
	if (x->ordered && x->differ >= 0) {
		kb_doc_fmt(p, "%ld of the order's functions are in the main text of an object of ", x->differ);
		kb_doc_code(p, x->a);
		if (x->covered == x->differ)
			kb_doc_fmt(p, ", all of them in the parts: the row \"whole - sum\" is the parts' "
				   "interaction.");
		else
			kb_doc_fmt(p, ", %ld of them in the parts: the row \"whole - sum\" is the other %ld "
				   "functions' contribution together with the interaction.", x->covered,
				   x->differ - x->covered);
		kb_doc_fmt(p, " The order's other names (assembly, or code in a section an order cannot "
			   "move: .entry.text, .noinstr.text) stay where the linker puts them.");
		return;
	}
	if (x->differ < 0)
		kb_doc_fmt(p, "How many objects the parts hold is not recorded in this run "
			   "directory: the row \"whole - sum\" is the interaction and whatever "
			   "the parts leave out.");
	else if (x->covered == x->differ)
		kb_doc_fmt(p, "%ld objects are compiled differently, all of them in the parts: the "
			   "row \"whole - sum\" is the parts' interaction.", x->differ);
	else
		kb_doc_fmt(p, "%ld objects are compiled differently, %ld of them in the parts: the "
			   "row \"whole - sum\" is the other %ld objects' contribution together "
			   "with the interaction.", x->differ, x->covered, x->differ - x->covered);
}

static void text_size(struct kb_doc *d, const struct kb_explain *x)
{
	kb_doc_fmt(kb_doc_heading(d, 2), "Text size");
	table(d, x, &x->text);
}

/* The table of case xc on the run's primary metric, else its last (the
 * modeled cycles); NULL where it has none. */
static const struct kb_explain_table *primary_table(const struct kb_explain *x,
						    const struct kb_explain_case *xc)
{
	const char *name = x->model && x->model->primary < x->model->nm ?
			   x->model->metrics[x->model->primary].name : NULL;

	for (size_t i = 0; name && i < xc->nt; i++)
		if (xc->tables[i].metric && !strcmp(xc->tables[i].metric, name))
			return &xc->tables[i];
	return xc->nt ? &xc->tables[xc->nt - 1] : NULL;
}

/* The part (by code) or setting (by flag) with the largest change in t, by
 * size; its name in *name, its change returned (NAN: none). */
static double largest(const struct kb_explain *x, const struct kb_explain_table *t, const char **name,
		      const char **a_set, const char **b_set)
{
	double best = NAN;

	*name = *a_set = *b_set = NULL;
	if (x->by == KB_EXPLAIN_BY_CODE) {
		for (size_t i = 0; i < t->nparts; i++)
			if (isfinite(t->parts[i].change) &&
			    (!isfinite(best) || fabs(t->parts[i].change) > fabs(best))) {
				best = t->parts[i].change;
				*name = t->parts[i].path;
			}
	} else {
		for (size_t i = 0; i < t->nflags; i++)
			if (isfinite(t->flags[i].one) &&
			    (!isfinite(best) || fabs(t->flags[i].one) > fabs(best))) {
				best = t->flags[i].one;
				*name = t->flags[i].name;
				*a_set = t->flags[i].a_set;
				*b_set = t->flags[i].b_set;
			}
	}
	return best;
}

/* The part or setting named, as the tables show it. */
static void part_name(struct kb_inline *in, const char *name, const char *a_set, const char *b_set)
{
	kb_doc_code(in, *name ? name : ".");
	if (a_set && b_set) {
		kb_doc_fmt(in, " (");
		kb_doc_code(in, a_set);
		kb_doc_fmt(in, " → ");
		kb_doc_code(in, b_set);
		kb_doc_fmt(in, ")");
	}
}

/* The first screen's answer, in two sentences: the text size B's change
 * comes to and how much of it the parts (settings) explain; on the primary
 * figure, how the whole's verdicts fall and which part moves it most. */
static void headline(struct kb_doc *d, const struct kb_explain *x)
{
	const struct kb_explain_table *t = &x->text;
	struct kb_inline *p = kb_doc_para(d);
	double sum = x->by == KB_EXPLAIN_BY_CODE ? t->sum : t->sum1;
	size_t faster = 0, slower = 0, other = 0;
	const struct kb_explain_table *pt = NULL;

	if (isfinite(t->whole)) {
		kb_doc_code(p, x->b);
		kb_doc_fmt(p, "'s text is %.0f bytes %s than ", fabs(t->whole),
			   t->whole <= 0 ? "smaller" : "larger");
		kb_doc_code(p, x->a);
		kb_doc_fmt(p, "'s (measured)");
		if (t->whole != 0 && isfinite(sum))
			kb_doc_fmt(p, "; the %s explain %+.0f bytes of it (%.1f%%), and %+.0f bytes are %s",
				   x->by == KB_EXPLAIN_BY_CODE ? "parts" : "settings one at a time",
				   sum, 100.0 * sum / t->whole, t->whole - sum,
				   x->by == KB_EXPLAIN_BY_CODE ? "their interaction or outside them" :
				   "explained by no setting");
		kb_doc_fmt(p, ". ");
	}
	for (size_t c = 0; c < x->nc; c++) {
		const struct kb_explain_table *ct = primary_table(x, &x->cases[c]);
		const char *v = ct && ct->whole_verdict ? ct->whole_verdict : "";

		if (!ct)
			continue;
		pt = ct;
		if (!strncmp(v, "faster", 6))
			faster++;
		else if (!strncmp(v, "slower", 6))
			slower++;
		else
			other++;
	}
	if (pt) {
		kb_doc_fmt(p, "On %s", pt->words);
		if (!strstr(pt->words, pt->kind))
			kb_doc_fmt(p, " (%s)", pt->kind);
		kb_doc_fmt(p, ", %s is faster than A in %zu of %zu cases, slower in %zu, neither in "
			   "%zu (", x->ordered ? "the whole order" : x->by == KB_EXPLAIN_BY_CODE ? "the B end"
			   : "B over the parts",
			   faster, x->nc, slower, other);
		kb_doc_anchor(p, "by case", "by-case");
		kb_doc_fmt(p, ").");
	}
}

/* One row a case: the whole's change on the primary figure, its verdict,
 * and the part (setting) that moves it most, with its share. */
static void by_case(struct kb_doc *d, const struct kb_explain *x)
{
	struct kb_doc_table *dt;
	const struct kb_explain_table *t0 = x->nc ? primary_table(x, &x->cases[0]) : NULL;

	if (!t0)
		return;
	kb_doc_fmt(kb_doc_heading_id(d, 2, "by-case", 0), "By case: %s", t0->words);
	dt = kb_doc_table(d, 5);
	kb_doc_fmt(kb_doc_th(dt, KB_ALIGN_LEFT), "case");
	head_with_unit(dt, x->ordered ? "whole: B minus A" : x->by == KB_EXPLAIN_BY_CODE ?
		       "whole: B end minus A" : "whole: B over the parts minus A", t0->unit, t0->kind);
	kb_doc_fmt(kb_doc_th(dt, KB_ALIGN_LEFT), "verdict (the whole against A)");
	kb_doc_fmt(kb_doc_th(dt, KB_ALIGN_LEFT), x->by == KB_EXPLAIN_BY_CODE ?
		   "part that moves it most" : "setting that moves it most (one at a time)");
	kb_doc_fmt(kb_doc_th(dt, KB_ALIGN_RIGHT), "its change (share of the whole)");
	for (size_t c = 0; c < x->nc; c++) {
		const struct kb_explain_table *t = primary_table(x, &x->cases[c]);
		const char *name, *a_set, *b_set;
		double big;

		if (!t)
			continue;
		big = largest(x, t, &name, &a_set, &b_set);
		kb_doc_str(kb_doc_td(dt), x->cases[c].name);
		cell_num(dt, t->whole);
		kb_doc_fmt(kb_doc_td(dt), "%s", t->whole_verdict && *t->whole_verdict ?
			   t->whole_verdict : " ");
		if (name) {
			part_name(kb_doc_td(dt), name, a_set, b_set);
			if (isfinite(t->whole) && t->whole != 0)
				kb_doc_fmt(kb_doc_td(dt), "%+.4g (%.1f%%)", big, 100.0 * big / t->whole);
			else
				kb_doc_fmt(kb_doc_td(dt), "%+.4g", big);
		} else {
			kb_doc_fmt(kb_doc_td(dt), " ");
			kb_doc_fmt(kb_doc_td(dt), " ");
		}
	}
}

/* Per case, folded under "Details": a table per figure, then the functions
 * behind B's change. */
static void cases(struct kb_doc *d, const struct kb_explain *x)
{
	if (!x->nc)
		return;
	kb_doc_fmt(kb_doc_heading_id(d, 2, "details", 0), "Details");
	for (size_t c = 0; c < x->nc; c++) {
		const struct kb_explain_case *xc = &x->cases[c];
		char *id = kb_xasprintf("case-%zu", c);

		kb_doc_str(kb_doc_heading_id(d, 3, id, 1), xc->name);
		free(id);
		for (size_t i = 0; i < xc->nt; i++) {
			kb_doc_fmt(kb_doc_heading(d, 4), "%s", xc->tables[i].words);
			table(d, x, &xc->tables[i]);
		}
		functions(d, xc->functions);
	}
}

/* How the figures were made: the method, and by code what "whole - sum"
 * holds. */
static void how(struct kb_doc *d, const struct kb_explain *x)
{
	kb_doc_fmt(kb_doc_heading_id(d, 2, "how-these-figures-were-made", 0),
		   "How these figures were made");
	method(d, x);
	coverage(d, x);
}

/* explain's sections, in order: each is the one definition of what
 * explain.md and explain.html show there.  The first screen is the answer,
 * the text size's attribution (its waterfall) and one row a case; each
 * case's tables follow, folded, then the method. */
static const struct {
	const char *name;
	void (*build)(struct kb_doc *d, const struct kb_explain *x);
} sections[] = {
	{ "title", title },
	{ "headline", headline },
	{ "text size", text_size },
	{ "by case", by_case },
	{ "cases", cases },
	{ "how", how },
};

/* Every section of explain.md and explain.html, in order, into d. */
static void kb_explain_document(struct kb_doc *d, const struct kb_explain *x)
{
	for (size_t i = 0; i < KB_ARRAY_SIZE(sections); i++)
		sections[i].build(d, x);
}

const struct kb_report_writer kb_explain_md = { "markdown explanation", "explain.md", kb_report_doc_md };
const struct kb_report_writer kb_explain_html = { "HTML explanation", "explain.html", kb_report_doc_html };

static const struct kb_report_writer *const writers[] = {
	&kb_explain_md, &kb_explain_html, &kb_explain_json,
};

int kb_explain_write(const char *dir)
{
	struct kb_explain *x = kb_explain_load(dir);
	struct kb_report_ctx ctx = { dir, NULL, NULL, x };
	struct kb_doc doc;
	int ret;

	if (!x)
		return -1;
	ctx.model = x->model;
	kb_doc_init(&doc, x->by == KB_EXPLAIN_BY_CODE ? "kbench explain" : "kbench explain --by-flag");
	kb_explain_document(&doc, x);
	ctx.doc = &doc;
	ret = kb_report_write_files(writers, KB_ARRAY_SIZE(writers), &ctx);
	kb_doc_release(&doc);
	kb_explain_free(x);
	return ret;
}
