// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench miss-o-meter: per-function instructions and L1i misses per
 * operation between two variants of a sim run (miss-o-meter.h). */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "miss-o-meter.h"
#include "model.h"
#include "util.h"

#define MANIFEST_MAX (16u << 20)

/* The manifest's entry of variant name, or NULL. */
static json_t *variant_entry(json_t *man, const char *name)
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(man, "variants"), i, v)
		if (!strcmp(json_string_value(json_object_get(v, "name")) ?: "", name))
			return v;
	return NULL;
}

/* The function table of a variant's kernel in the run directory (bloat-o-
 * meter's names and sizes), or NULL when its vmlinux is not there. */
static struct kb_bloat_named *functions_of(const char *dir, json_t *entry, size_t *n)
{
	const char *rel = json_string_value(json_object_get(entry, "vmlinux"));
	struct kb_bloat_syms syms;
	struct kb_bloat_named *tab = NULL;
	unsigned long long total;
	char *path;

	*n = 0;
	if (!rel || !*rel)
		return NULL;
	path = rel[0] == '/' ? kb_xstrdup(rel) : kb_xasprintf("%s/%s", dir, rel);
	kb_bloat_syms_init(&syms);
	if (access(path, R_OK) == 0 && kb_bloat_syms_read(path, &syms) == 0)
		tab = kb_bloat_merged(&syms, KB_BLOAT_FUNC, n, &total);
	else
		kb_warn("miss-o-meter: '%s' cannot be read: no sizes for its functions", path);
	/* the table borrows the names: keep them in a pool-less copy */
	for (size_t i = 0; tab && i < *n; i++)
		tab[i].name = kb_xstrdup(tab[i].name);
	kb_bloat_syms_release(&syms);
	free(path);
	return tab;
}

static void free_functions(struct kb_bloat_named *tab, size_t n)
{
	for (size_t i = 0; tab && i < n; i++)
		free((char *)tab[i].name);
	free(tab);
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *pair_num(const double *x)
{
	return json_pack("[o,o]", num(x[0]), num(x[1]));
}

static json_t *size_json(const long long *s)
{
	return json_pack("[o,o]", s[0] < 0 ? json_null() : json_integer(s[0]),
			 s[1] < 0 ? json_null() : json_integer(s[1]));
}

/* A case's figures in --json: every function that ran, none left out. */
static json_t *case_json(const struct kb_miss_case *c)
{
	json_t *rows = json_array();

	for (size_t i = 0; i < c->n; i++) {
		const struct kb_miss_row *r = &c->rows[i];

		json_array_append_new(rows, json_pack("{s:s,s:o,s:o,s:o,s:o,s:b}", "function", r->name, "ins",
						      pair_num(r->ins), "l1i_misses", pair_num(r->miss), "cycles",
						      pair_num(r->cyc), "size", size_json(r->size), "moved",
						      r->moved));
	}
	return json_pack("{s:s,s:o,s:o,s:o,s:o,s:[I,I],s:o,s:o}", "case", c->cas, "ins_k", pair_num(c->ins_k),
			 "l1i_misses_k", pair_num(c->miss_k), "cycles_k", pair_num(c->cyc_k), "cycles_u",
			 pair_num(c->cyc_u), "samples", (json_int_t)c->samples[0], (json_int_t)c->samples[1],
			 "iterations", pair_num(c->iters), "functions", rows);
}

static json_t *cycles_json(const struct kb_miss_cyc *c, size_t n)
{
	json_t *rows = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(rows, json_pack("{s:s,s:s,s:o,s:o,s:I,s:o}", "function", c[i].name, "case",
						      c[i].cas, "ins", pair_num(c[i].ins), "cycles",
						      pair_num(c[i].cyc), "cases", (json_int_t)c[i].cases, "because",
						      c[i].why ? json_pack("{s:s,s:f,s:f}", "instruction", c[i].why,
									   "executed", c[i].why_n, "cycles",
									   c[i].why_cyc) : json_null()));
	return rows;
}

/* One pair of variants, every case (or the one asked for); with js, into
 * js's array of pairs instead of printed. */
static int pair(struct kb_miss *m, json_t *man, const char *dir, const char *old, const char *new,
		const char *only, double min, size_t top, json_t *js)
{
	json_t *eo = variant_entry(man, old), *en = variant_entry(man, new);
	size_t n_old = 0, n_new = 0, shown = 0, ncyc = 0;
	struct kb_bloat_named *t_old, *t_new;
	struct kb_pool cp = KB_POOL_INIT;
	struct kb_miss_cyc *cyc = NULL;
	json_t *jcases = json_array();
	struct kb_names moved = { 0 };
	struct kb_pool mpool = KB_POOL_INIT;
	int ret = 0, ordered;

	if (!eo || !en) {
		kb_error("miss-o-meter: no variant '%s' in '%s/manifest.json'", eo ? new : old, dir);
		return -1;
	}
	t_old = functions_of(dir, eo, &n_old);
	t_new = functions_of(dir, en, &n_new);
	/* an ordered new variant: the functions its order names (the run's
	 * copy of the order) are marked moved */
	ordered = json_is_object(json_object_get(en, "order")) &&
		  kb_miss_order_names(dir, new, &moved, &mpool);
	for (size_t c = 0; c < m->cases.n; c++) {
		struct kb_pool p = KB_POOL_INIT;
		struct kb_miss_case mc;

		if (only && strcmp(only, m->cases.v[c]))
			continue;
		if (kb_miss_case(m, m->cases.v[c], old, new, t_old, n_old, t_new, n_new, &p, &mc) == 0) {
			if (ordered)
				kb_miss_mark_moved(&mc, &moved);
			if (js)
				json_array_append_new(jcases, case_json(&mc));
			else if (shown)
				putchar('\n');
			if (!js)
				kb_miss_print(stdout, &mc, old, new, min, top, m->cycles_model);
			shown++;
		}
		kb_pool_release(&p);
	}
	if (!shown) {
		kb_error("miss-o-meter: no case %s%s%swith sim samples of both '%s' and '%s' in '%s'",
			 only ? "'" : "", only ? only : "", only ? "' " : "", old, new, dir);
		ret = -1;
	} else if (!only && m->cycles_model) {
		/* over every case: the functions whose cycles grow, instructions not */
		if (kb_miss_cycles_top(m, old, new, KB_MISS_TOP_CYC, &cp, &cyc, &ncyc) < 0)
			ret = -1;
		else if (!js) {
			putchar('\n');
			kb_miss_cycles_print(stdout, cyc, ncyc, old, new, m->cycles_model);
		}
	}
	if (js)
		json_array_append_new(js, json_pack("{s:s,s:s,s:o,s:o}", "old", old, "new", new, "cases", jcases,
						    "cycles_grow_instructions_not",
						    m->cycles_model && !only ? cycles_json(cyc, ncyc) : json_null()));
	else
		json_decref(jcases);
	kb_pool_release(&cp);
	kb_names_release(&moved);
	kb_pool_release(&mpool);
	free_functions(t_old, n_old);
	free_functions(t_new, n_new);
	return ret;
}

/* --case and OLD NEW among the run's names (its sim.jsonl's cases, its
 * manifest's variants): KB_EXIT_OK, or the usage error naming the nearest. */
static int names_known(const struct kb_miss *m, json_t *man, const char *only, char *const *pair)
{
	const char **vs;
	size_t i, nv = 0;
	json_t *v;
	int ret = KB_EXIT_OK;

	if (only && kb_names_find(&m->cases, only) == m->cases.n)
		return kb_command_unknown(&kb_command_miss_o_meter, "case", only, m->cases.v, m->cases.n);
	if (!pair)
		return KB_EXIT_OK;
	vs = kb_xcalloc(json_array_size(json_object_get(man, "variants")) + 1, sizeof(*vs));
	json_array_foreach(json_object_get(man, "variants"), i, v)
		if (json_string_value(json_object_get(v, "name")))
			vs[nv++] = json_string_value(json_object_get(v, "name"));
	for (int k = 0; k < 2 && ret == KB_EXIT_OK; k++)
		if (!variant_entry(man, pair[k]))
			ret = kb_command_unknown(&kb_command_miss_o_meter, "variant", pair[k], vs, nv);
	free(vs);
	return ret;
}

struct args {
	const char *only, *cpu;
	long top;
	double min;
	int json;
};

static int option(void *ctx, int key, const char *value)
{
	struct args *a = ctx;
	char *end;

	errno = 0;
	switch (key) {
	case KB_LONG('c'):
		a->only = value;
		break;
	case KB_LONG('t'):
		a->top = strtol(value, &end, 10);
		if (errno || *end || a->top < 0)
			return kb_command_usage_error(&kb_command_miss_o_meter, "--top '%s' is not a count",
						      value);
		break;
	case KB_LONG('C'):
		a->cpu = value;
		break;
	case KB_LONG('j'):
		a->json = 1;
		break;
	case KB_LONG('m'):
		a->min = strtod(value, &end);
		if (errno || *end || !(a->min >= 0))
			return kb_command_usage_error(&kb_command_miss_o_meter,
						      "--min '%s' is not a number >= 0", value);
		break;
	}
	return KB_GO_ON;
}

static int cmd_miss_o_meter(int argc, char **argv)
{
	struct args a = { 0 };
	const char *dir, *base;
	struct kb_miss m = { 0 };
	char *text = NULL, *path;
	size_t len;
	json_t *man, *js;
	int r, ret = kb_command_parse(&kb_command_miss_o_meter, &argc, &argv, option, &a);

	if (ret != KB_GO_ON)
		return ret;
	if (argc != 1 && argc != 3)
		return kb_command_usage_error(&kb_command_miss_o_meter,
					      "a run directory, and either no variants or two");
	ret = KB_EXIT_OK;
	dir = argv[0];
	path = kb_xasprintf("%s/manifest.json", dir);
	r = kb_read_file_max(path, &text, &len, MANIFEST_MAX);
	man = r < 0 ? NULL : json_loadb(text, len, 0, NULL);
	if (r < 0 || !json_is_object(man)) {
		kb_error("miss-o-meter: '%s': %s", path, r < 0 ? kb_file_strerror(r) : "not a JSON object");
		free(path);
		free(text);
		json_decref(man);
		return KB_EXIT_FAILED;
	}
	free(path);
	free(text);
	m.cpu = a.cpu;
	js = a.json ? json_array() : NULL;
	if (kb_miss_read(&m, dir) < 0) {
		ret = KB_EXIT_FAILED;
	} else if ((ret = names_known(&m, man, a.only, argc == 3 ? argv + 1 : NULL)) != KB_EXIT_OK) {
		json_decref(js);
		js = NULL;
	} else if (argc == 3) {
		if (pair(&m, man, dir, argv[1], argv[2], a.only, a.min, (size_t)a.top, js) < 0)
			ret = KB_EXIT_FAILED;
	} else {
		size_t i;
		json_t *v;

		base = json_string_value(json_object_get(man, "baseline"));
		if (!base || !*base)
			base = json_string_value(json_object_get(json_array_get(json_object_get(man, "variants"),
									      0), "name"));
		json_array_foreach(json_object_get(man, "variants"), i, v) {
			const char *name = json_string_value(json_object_get(v, "name"));

			if (!base || !name || !strcmp(name, base) ||
			    !kb_model_name_ok(KB_NAME_VARIANT, name))
				continue;
			if (pair(&m, man, dir, base, name, a.only, a.min, (size_t)a.top, js) < 0)
				ret = KB_EXIT_FAILED;
		}
	}
	if (m.cycles_why)
		kb_warn("miss-o-meter: modeled cycles: %s", m.cycles_why);
	if (js) {
		json_t *o = json_pack("{s:s,s:o,s:s,s:s,s:o}", "run", dir, "cycles_model",
				      m.cycles_model ? json_string(m.cycles_model) : json_null(), "instructions",
				      "simulated (the sim plugin's counts, per operation)", "cycles",
				      "modeled: each block the plugin counted priced by LLVM's machine model "
				      "(llvm-mca's steady state), times its executions, to the function holding "
				      "its first instruction; no cache misses, no branch mispredictions", "pairs", js);

		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(o);
	}
	if (m.names)
		kb_warn("miss-o-meter: %ld variant, case or function names in sim.jsonl that are not plain "
			"names were left out", m.names);
	if (m.unmatched)
		kb_warn("miss-o-meter: %ld sim.jsonl lines without their sample in samples.jsonl were "
			"left out", m.unmatched);
	kb_miss_release(&m);
	json_decref(man);
	return ret;
}

static const struct kb_command_option options[] = {
	{ "case", KB_LONG('c'), "CASE", "only this case (a name of the report: getppid, icache/k=16)" },
	{ "top", KB_LONG('t'), "N", "at most N functions each way (growing, shrinking)" },
	{ "min", KB_LONG('m'), "X", "leave out functions whose changes are all at most X" },
	{ "cpu", KB_LONG('C'), "CPU", "model cycles with llvm-mca -mcpu=CPU (default: the run's [run]\n"
				      "sim_cpu, else skylake)" },
	{ "json", KB_LONG('j'), NULL, "JSON: every function of every case, and the functions whose\n"
				      "modeled cycles grow while their instructions do not" },
	{ 0 },
};

const struct kb_command kb_command_miss_o_meter = {
	.name = "miss-o-meter",
	.summary = "per function: the instructions, L1i misses and modeled cycles per operation two variants of a sim run differ by",
	.usage = "usage: kbench miss-o-meter [--case CASE] [--top N] [--min X] [--cpu CPU] [--json]\n"
		 "                           RUN_DIR [OLD NEW]\n\n"
		 "For each case of a run measured with the sim backend, the kernel functions\n"
		 "whose instructions, simulated L1i misses or modeled cycles per operation\n"
		 "differ between variants OLD and NEW (default: the baseline against each\n"
		 "other variant), in scripts/bloat-o-meter's layout, with each function's size\n"
		 "in both kernels under bloat-o-meter's names.  Instructions and misses are\n"
		 "simulated (sim.jsonl); cycles are modeled: each block the plugin counted\n"
		 "(boots/*.blocks) priced by LLVM's machine model (llvm-mca's steady state for\n"
		 "the CPU), times its executions, to the function that holds its first\n"
		 "instruction (System.map); no cache misses, no branch mispredictions.  Then,\n"
		 "over every case, the ten functions whose modeled cycles grow most while their\n"
		 "instructions do not, each with the instruction that explains at least half\n"
		 "of its growth where one does (priced without it, llvm-mca says so).\n",
	.options = options,
	.fn = cmd_miss_o_meter,
};
