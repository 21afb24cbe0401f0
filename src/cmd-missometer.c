// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench miss-o-meter: per-function instructions and L1i misses per
 * operation between two variants of a sim run (missometer.h). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "missometer.h"
#include "model.h"
#include "util.h"

#define MANIFEST_MAX (16u << 20)

static int usage_error(void)
{
	fputs(kb_command_miss_o_meter.usage, stderr);
	return KB_EXIT_USAGE;
}

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

/* One pair of variants, every case (or the one asked for). */
static int pair(const struct kb_miss *m, json_t *man, const char *dir, const char *old, const char *new,
		const char *only, double min, size_t top)
{
	json_t *eo = variant_entry(man, old), *en = variant_entry(man, new);
	size_t n_old = 0, n_new = 0, shown = 0;
	struct kb_bloat_named *t_old, *t_new;
	int ret = 0;

	if (!eo || !en) {
		kb_error("miss-o-meter: no variant '%s' in '%s/manifest.json'", eo ? new : old, dir);
		return -1;
	}
	t_old = functions_of(dir, eo, &n_old);
	t_new = functions_of(dir, en, &n_new);
	for (size_t c = 0; c < m->cases.n; c++) {
		struct kb_pool p = KB_POOL_INIT;
		struct kb_miss_case mc;

		if (only && strcmp(only, m->cases.v[c]))
			continue;
		if (kb_miss_case(m, m->cases.v[c], old, new, t_old, n_old, t_new, n_new, &p, &mc) == 0) {
			if (shown++)
				putchar('\n');
			kb_miss_print(stdout, &mc, old, new, min, top);
		}
		kb_pool_release(&p);
	}
	if (!shown) {
		kb_error("miss-o-meter: no case %s%s%swith sim samples of both '%s' and '%s' in '%s'",
			 only ? "'" : "", only ? only : "", only ? "' " : "", old, new, dir);
		ret = -1;
	}
	free_functions(t_old, n_old);
	free_functions(t_new, n_new);
	return ret;
}

static int cmd_miss_o_meter(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "case", required_argument, NULL, 'c' },
		{ "top", required_argument, NULL, 't' },
		{ "min", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *only = NULL, *dir, *base;
	struct kb_miss m = { 0 };
	char *text = NULL, *path, *end;
	double min = 0;
	long top = 0;
	size_t len;
	json_t *man;
	int c, r, ret = KB_EXIT_OK;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:t:m:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			only = optarg;
			break;
		case 't':
			errno = 0;
			top = strtol(optarg, &end, 10);
			if (errno || *end || top < 0) {
				kb_error("miss-o-meter: --top '%s' is not a count", optarg);
				return usage_error();
			}
			break;
		case 'm':
			errno = 0;
			min = strtod(optarg, &end);
			if (errno || *end || !(min >= 0)) {
				kb_error("miss-o-meter: --min '%s' is not a number >= 0", optarg);
				return usage_error();
			}
			break;
		case 'h':
			return kb_command_usage(&kb_command_miss_o_meter, KB_EXIT_OK);
		case ':':
			kb_error("miss-o-meter: option '%s' needs a value", argv[optind - 1]);
			return usage_error();
		default:
			kb_error("miss-o-meter: unknown option '%s'", argv[optind - 1]);
			return usage_error();
		}
	}
	if (argc - optind != 1 && argc - optind != 3) {
		kb_error("miss-o-meter: a run directory, and either no variants or two");
		return usage_error();
	}
	dir = argv[optind];
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
	if (kb_miss_read(&m, dir) < 0) {
		ret = KB_EXIT_FAILED;
	} else if (argc - optind == 3) {
		if (pair(&m, man, dir, argv[optind + 1], argv[optind + 2], only, min, (size_t)top) < 0)
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
			if (pair(&m, man, dir, base, name, only, min, (size_t)top) < 0)
				ret = KB_EXIT_FAILED;
		}
	}
	if (m.names)
		kb_warn("miss-o-meter: %ld variant, case or function names in sim.jsonl that are not plain "
			"names were left out", m.names);
	if (m.unmatched)
		kb_warn("miss-o-meter: %ld sim.jsonl lines without their sample in samples.jsonl were "
			"left out", m.unmatched);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		kb_error_errno(errno, "miss-o-meter: cannot write the output");
		ret = KB_EXIT_FAILED;
	}
	kb_miss_release(&m);
	json_decref(man);
	return ret;
}

const struct kb_command kb_command_miss_o_meter = {
	.name = "miss-o-meter",
	.summary = "per function: the instructions and L1i misses per operation two variants of a sim run differ by",
	.usage = "usage: kbench miss-o-meter [--case CASE] [--top N] [--min X] RUN_DIR [OLD NEW]\n\n"
		 "For each case of a run measured with the sim backend, the kernel functions\n"
		 "whose instructions or simulated L1i misses per operation differ between\n"
		 "variants OLD and NEW (default: the baseline against each other variant), in\n"
		 "scripts/bloat-o-meter's layout, with each function's size in both kernels\n"
		 "under bloat-o-meter's names.  Simulated figures, from sim.jsonl.\n\n"
		 "  --case CASE  only this case (a name of the report: getppid, icache/k=16)\n"
		 "  --top N      at most N functions each way (growing, shrinking)\n"
		 "  --min X      leave out functions whose changes are all at most X\n",
	.fn = cmd_miss_o_meter,
};
