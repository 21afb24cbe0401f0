// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench blocks: a blocks file of the sim plugin, priced by LLVM's machine
 * model, per region and per kernel function (blocks.h, mca.h). */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "commands.h"
#include "mca.h"
#include "names.h"
#include "pool.h"
#include "util.h"

struct args {
	const char *cpu, *map, *arch;
	int json;
};

static int option(void *ctx, int key, const char *value)
{
	struct args *a = ctx;

	switch (key) {
	case KB_LONG('C'):
		a->cpu = value;
		break;
	case KB_LONG('m'):
		a->map = value;
		break;
	case KB_LONG('j'):
		a->json = 1;
		break;
	case KB_LONG('a'):
		if (strcmp(value, "i386") && strcmp(value, "x86_64"))
			return kb_command_unknown(&kb_command_blocks, "--arch", value,
						  (const char *const[]){ "i386", "x86_64" }, 2);
		a->arch = value;
		break;
	}
	return KB_GO_ON;
}

/* Per region: each function's cycles and instructions, and the user's. */
struct func {
	double cycles, insns;
};

struct region {
	uint64_t seq;
	struct kb_names names;
	struct func *f;
	size_t cap;
	double cycles, insns, unpriced;	/* over every unit */
};

struct acc {
	struct region *r;
	size_t n, cap;
	struct kb_pool pool;
};

static struct region *region_for(struct acc *a, uint64_t seq)
{
	if (a->n && a->r[a->n - 1].seq == seq)
		return &a->r[a->n - 1];
	if (a->n == a->cap)
		a->r = kb_xrealloc(a->r, (a->cap = a->cap ? 2 * a->cap : 64) * sizeof(*a->r));
	memset(&a->r[a->n], 0, sizeof(*a->r));
	a->r[a->n].seq = seq;
	return &a->r[a->n++];
}

static void unit(void *ctx, uint64_t seq, const struct kb_blocks_unit *u, uint64_t n)
{
	struct acc *a = ctx;
	struct region *r = region_for(a, seq);
	const char *name = u->function ? u->function : "(no map)";
	size_t before = r->names.n;
	uint32_t id = kb_names_add(&r->names, &a->pool, name);

	if (id >= r->cap) {
		r->f = kb_xrealloc(r->f, (r->cap = 2 * (id + 1)) * sizeof(*r->f));
		memset(r->f + before, 0, (r->cap - before) * sizeof(*r->f));
	}
	r->f[id].cycles += u->cycles * (double)n;
	r->f[id].insns += (double)n * (u->insn_k + u->insn_u);
	r->cycles += u->cycles * (double)n;
	r->insns += (double)n * (u->insn_k + u->insn_u);
	if (u->unpriced)
		r->unpriced += (double)n * (u->insn_k + u->insn_u);
}

static void region_end(void *ctx, uint64_t seq)
{
	region_for(ctx, seq);	/* a region none of whose units ran is still one */
}

static int by_cycles(const void *x, const void *y, void *ctx)
{
	const struct region *r = ctx;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	if (r->f[a].cycles != r->f[b].cycles)
		return r->f[a].cycles < r->f[b].cycles ? 1 : -1;
	return strcmp(r->names.v[a], r->names.v[b]);
}

static int cmd_blocks(int argc, char **argv)
{
	struct args a = { "skylake", NULL, "i386", 0 };
	struct kb_mca *mca;
	struct kb_symmap *map = NULL;
	struct kb_mca_region *mr = NULL;
	struct acc acc = { .pool = KB_POOL_INIT };
	size_t n_mr = 0;
	char *why = NULL;
	int ret = kb_command_parse(&kb_command_blocks, &argc, &argv, option, &a);

	if (ret != KB_GO_ON)
		return ret;
	if (argc != 1)
		return kb_command_usage_error(&kb_command_blocks, "one blocks file");
	mca = kb_mca_new(a.cpu, NULL, &why);
	if (!mca) {
		kb_error("%s", why);
		free(why);
		return KB_EXIT_FAILED;
	}
	ret = KB_EXIT_FAILED;
	if (kb_mca_set_arch(mca, a.arch) < 0)
		goto out;
	if (a.map && !(map = kb_symmap_load(a.map)))
		goto out;
	/* the regions' totals as the sim backend prices them, then unit by unit */
	if (kb_mca_blocks_file(mca, argv[0], &mr, &n_mr) < 0 ||
	    kb_blocks_read(argv[0], mca, map, NULL, unit, region_end, &acc, NULL) < 0)
		goto out;
	if (n_mr != acc.n) {
		kb_error("'%s': %zu regions read one way, %zu the other", argv[0], n_mr, acc.n);
		goto out;
	}
	if (a.json) {
		json_t *j = json_object(), *regs = json_array();
		const struct kb_mca_stats *st = kb_mca_stats(mca);

		json_object_set_new(j, "file", json_string(argv[0]));
		json_object_set_new(j, "model", json_string(kb_mca_model(mca)));
		json_object_set_new(j, "map", a.map ? json_string(a.map) : json_null());
		for (size_t i = 0; i < acc.n; i++) {
			struct region *r = &acc.r[i];
			json_t *fs = json_array();

			for (size_t k = 0; k < r->names.n; k++)
				json_array_append_new(fs, json_pack("[s,f,f]", r->names.v[k], r->f[k].insns,
								    r->f[k].cycles));
			json_array_append_new(regs, json_pack("{s:I,s:f,s:f,s:f,s:f,s:o}", "seq", (json_int_t)r->seq,
							      "block_cycles", mr[i].cycles, "cycles", r->cycles,
							      "insns", r->insns, "unpriced_insns", r->unpriced,
							      "functions", fs));
		}
		json_object_set_new(j, "regions", regs);
		json_object_set_new(j, "mca", json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:f,s:f}", "calls",
							(json_int_t)st->calls, "priced", (json_int_t)st->priced,
							"cache_hits", (json_int_t)st->hits, "unpriced",
							(json_int_t)st->unpriced, "same_text", (json_int_t)st->shared,
							"unmodeled", (json_int_t)st->unmodeled, "rare",
							(json_int_t)st->rare, "seconds",
							st->seconds, "cpu_seconds", st->cpu_seconds));
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(j);
	} else {
		printf("modeled cycles: each block's by %s, times its executions; no cache misses\n",
		       kb_mca_model(mca));
		for (size_t i = 0; i < acc.n; i++) {
			struct region *r = &acc.r[i];
			uint32_t *o = kb_xcalloc(r->names.n + 1, sizeof(*o));

			printf("\nregion %llu: %.0f instructions, %.1f cycles\n", (unsigned long long)r->seq, r->insns,
			       mr[i].cycles);
			for (size_t k = 0; k < r->names.n; k++)
				o[k] = (uint32_t)k;
			if (r->names.n)
				qsort_r(o, r->names.n, sizeof(*o), by_cycles, r);
			if (map)
				for (size_t k = 0; k < r->names.n; k++)
					printf("  %-40s %14.0f %16.1f\n", r->names.v[o[k]], r->f[o[k]].insns,
					       r->f[o[k]].cycles);
			free(o);
		}
	}
	ret = KB_EXIT_OK;
out:
	for (size_t i = 0; i < acc.n; i++) {
		kb_names_release(&acc.r[i].names);
		free(acc.r[i].f);
	}
	free(acc.r);
	kb_pool_release(&acc.pool);
	free(mr);
	kb_symmap_free(map);
	kb_mca_free(mca);
	return ret;
}

static const struct kb_command_option options[] = {
	{ "cpu", KB_LONG('C'), "CPU", "llvm-mca -mcpu=CPU (default skylake)" },
	{ "map", KB_LONG('m'), "FILE", "a System.map (or `nm` output): cycles per function" },
	{ "json", KB_LONG('j'), NULL, "JSON: every region, and every function in it" },
	{ "arch", KB_LONG('a'), "ARCH", "the guest's mode: i386 (default) or x86_64, as its [kernel] arch" },
	{ 0 },
};

const struct kb_command kb_command_blocks = {
	.name = "blocks",
	.summary = "a sim blocks file priced by LLVM's machine model, per region and function",
	.usage = "usage: kbench blocks [--cpu CPU] [--arch ARCH] [--map FILE] [--json] BLOCKS_FILE\n\n"
		 "Price the units of code the sim plugin counted (a run's boots/<variant>-<n>.blocks,\n"
		 "or kbench sim --blocks FILE) with llvm-mca for CPU, as the sim backend does,\n"
		 "from kbench's cache where they were priced before: per measured region, the\n"
		 "modeled cycles of its blocks (each block's cost times its executions; no cache\n"
		 "misses, no branch mispredictions), and with --map, per function, the cycles\n"
		 "and instructions of the blocks whose first instruction it holds (as the plugin\n"
		 "finds an instruction's function: the last text symbol at or below it).\n",
	.options = options,
	.footer = "Exit status: 0, 1 if the file, the map or llvm-mca failed, 2 on a usage error.\n",
	.fn = cmd_blocks,
};
