// SPDX-License-Identifier: GPL-2.0-or-later
/* explain.json: the figures of an explain run (explain.h), as the tables
 * of explain.md show them. */
#include "config.h"

#include <jansson.h>

#include "explain.h"
#include "miss-o-meter.h"
#include "util.h"

static json_t *code_json(const struct kb_explain_table *t)
{
	json_t *o = json_object(), *parts = json_array();

	for (size_t i = 0; i < t->nparts; i++) {
		const struct kb_explain_part *p = &t->parts[i];
		json_t *x = json_object();

		json_object_set_new(x, "path", json_string(p->path));
		json_object_set_new(x, "variant", json_string(p->variant));
		json_object_set_new(x, "change", kb_model_json_num(p->change));
		if (t->speed)
			json_object_set_new(x, "verdict", json_string(p->verdict));
		json_array_append_new(parts, x);
	}
	json_object_set_new(o, "base", kb_model_json_num(t->base));
	json_object_set_new(o, "parts", parts);
	json_object_set_new(o, "sum", kb_model_json_num(t->sum));
	json_object_set_new(o, "whole", kb_model_json_num(t->whole));
	json_object_set_new(o, "whole_minus_sum", kb_model_json_num(t->whole - t->sum));
	json_object_set_new(o, "b_as_built", kb_model_json_num(t->real));
	json_object_set_new(o, "source", json_string(t->kind));
	return o;
}

static json_t *flag_json(const struct kb_explain_table *t)
{
	json_t *o = json_object(), *arr = json_array();

	for (size_t f = 0; f < t->nflags; f++) {
		const struct kb_explain_flag *fl = &t->flags[f];
		json_t *x = json_object();

		json_object_set_new(x, "name", json_string(fl->name));
		json_object_set_new(x, "a", json_string(fl->a_set));
		json_object_set_new(x, "b", json_string(fl->b_set));
		json_object_set_new(x, "one_at_a_time", kb_model_json_num(fl->one));
		json_object_set_new(x, "leave_one_out", kb_model_json_num(fl->loo));
		if (t->speed)
			json_object_set_new(x, "verdict", json_string(fl->verdict));
		json_array_append_new(arr, x);
	}
	json_object_set_new(o, "base", kb_model_json_num(t->base));
	json_object_set_new(o, "flags", arr);
	json_object_set_new(o, "sum_one_at_a_time", kb_model_json_num(t->sum1));
	json_object_set_new(o, "sum_leave_one_out", kb_model_json_num(t->sumloo));
	json_object_set_new(o, "whole", kb_model_json_num(t->whole));
	json_object_set_new(o, "unexplained_one_at_a_time", kb_model_json_num(t->whole - t->sum1));
	json_object_set_new(o, "unexplained_leave_one_out", kb_model_json_num(t->whole - t->sumloo));
	json_object_set_new(o, "source", json_string(t->kind));
	return o;
}

static json_t *table_json(const struct kb_explain *x, const struct kb_explain_table *t)
{
	return x->by == KB_EXPLAIN_BY_CODE ? code_json(t) : flag_json(t);
}

/* B's miss-o-meter of a case: the functions behind its change. */
static json_t *functions_json(const struct kb_miss_model *mm)
{
	json_t *arr = json_array();

	for (size_t k = 0; mm && k < mm->n; k++) {
		const struct kb_miss_row *r = &mm->rows[k];
		json_t *o = json_object();

		json_object_set_new(o, "function", json_string(r->name));
		if (mm->moved_n >= 0)	/* B is ordered: does its order name it */
			json_object_set_new(o, "moved", json_boolean(r->moved));
		json_object_set_new(o, "ins", json_pack("[ff]", r->ins[0], r->ins[1]));
		json_object_set_new(o, "l1i_misses", json_pack("[ff]", r->miss[0], r->miss[1]));
		json_object_set_new(o, "size", json_pack("[II]", (json_int_t)r->size[0],
							 (json_int_t)r->size[1]));
		if (mm->cycles_model)	/* modeled, as "cycles_model" says */
			json_object_set_new(o, "cycles", json_pack("[oo]", kb_model_json_num(r->cyc[0]),
								  kb_model_json_num(r->cyc[1])));
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *explain_json(const struct kb_explain *x)
{
	json_t *out = json_object(), *cases = json_array();
	long differ = x->differ, covered = x->covered;

	json_object_set_new(out, "a", json_string(x->a));
	json_object_set_new(out, "b", json_string(x->b));
	if (x->by == KB_EXPLAIN_BY_CODE) {
		json_object_set_new(out, "b_end", json_string(x->whole));
		json_object_set_new(out, "backend", json_string(x->backend ? x->backend : ""));
		json_object_set_new(out, "objects_differ", differ < 0 ? json_null() : json_integer(differ));
		json_object_set_new(out, "objects_in_parts",
				    differ < 0 ? json_null() : json_integer(covered));
		/* by order: the parts are those of B's order; the counts are
		 * of its functions, not of objects */
		if (x->ordered) {
			json_object_set_new(out, "by", json_string("order"));
			json_object_set_new(out, "order", json_string(x->order));
			json_object_set_new(out, "order_functions", differ < 0 ? json_null() : json_integer(differ));
			json_object_set_new(out, "order_functions_in_parts",
					    differ < 0 ? json_null() : json_integer(covered));
			json_object_del(out, "objects_differ");
			json_object_del(out, "objects_in_parts");
		}
	} else {
		json_object_set_new(out, "whole", json_string(x->whole));
		json_object_set_new(out, "parts", json_string(x->parts));
		json_object_set_new(out, "backend", json_string(x->backend ? x->backend : ""));
	}
	json_object_set_new(out, "text", table_json(x, &x->text));
	for (size_t c = 0; c < x->nc; c++) {
		const struct kb_explain_case *xc = &x->cases[c];
		json_t *jc = json_object();

		json_object_set_new(jc, "case", json_string(xc->name));
		for (size_t i = 0; i < xc->nt; i++)
			json_object_set_new(jc, xc->tables[i].metric, table_json(x, &xc->tables[i]));
		if (x->by == KB_EXPLAIN_BY_CODE)
			json_object_set_new(jc, "functions", functions_json(xc->functions));
		if (x->by == KB_EXPLAIN_BY_CODE && xc->functions && xc->functions->cycles_model)
			json_object_set_new(jc, "functions_cycles_model",
					    json_string(xc->functions->cycles_model));
		json_array_append_new(cases, jc);
	}
	json_object_set_new(out, "cases", cases);
	return out;
}

static int write_json(FILE *f, const struct kb_report_ctx *ctx)
{
	json_t *j = explain_json(ctx->explain);
	int r = json_dumpf(j, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER);

	json_decref(j);
	if (r < 0)
		return kb_error("cannot serialize the explanation");
	return 0;
}

const struct kb_report_writer kb_explain_json = { "JSON explanation", "explain.json", write_json };
