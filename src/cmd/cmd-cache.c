// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench cache [prune]: what the build cache holds, and pruning what no run
 * refers to (cache.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "commands.h"
#include "conf.h"
#include "util.h"

struct cache_args {
	double older_than;	/* days; < 0: not given */
	int keep_runs;
	int dry_run;
	const char **outputs;
	size_t n_outputs;
};

static int option(void *ctx, int key, const char *value)
{
	struct cache_args *a = ctx;
	char *end;

	switch (key) {
	case KB_LONG('o'):
		errno = 0;
		a->older_than = strtod(value, &end);
		if (!*value || *end || errno || a->older_than < 0 || a->older_than > 36500)
			return kb_command_usage_error(&kb_command_cache,
						      "--older-than '%s': a number of days, 0 to 36500", value);
		break;
	case KB_LONG('k'):
		a->keep_runs = 1;
		break;
	case 'n':
		a->dry_run = 1;
		break;
	case 'O':
		a->outputs = kb_xrealloc(a->outputs, (a->n_outputs + 1) * sizeof(*a->outputs));
		a->outputs[a->n_outputs++] = value;
		break;
	}
	return KB_GO_ON;
}

static void human(char *buf, size_t size, unsigned long long b)
{
	if (b >= 1ULL << 30)
		snprintf(buf, size, "%.2f GiB", b / (double)(1ULL << 30));
	else if (b >= 1ULL << 20)
		snprintf(buf, size, "%.1f MiB", b / (double)(1ULL << 20));
	else
		snprintf(buf, size, "%.0f KiB", b / 1024.0);
}

static void when(char *buf, size_t size, double t)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (t <= 0 || !localtime_r(&s, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, size, "?");
}

/* An entry's line: its name and label come from the cache's directory
 * names and files (a git copy's origin, a kernel's .config), shown inert. */
static void row(FILE *f, const struct kb_cache_entry *e, const char *mark)
{
	char b[32], w[32], rel[512], what[512];

	human(b, sizeof(b), e->bytes);
	when(w, sizeof(w), e->last_use);
	fprintf(f, "%s%-10s  %10s  %s  %5zu  %s (%s)%s\n", mark, kb_cache_kind_name(e->kind), b, w,
		e->runs, kb_term_inert(rel, sizeof(rel), e->rel), kb_term_inert(what, sizeof(what), e->what),
		e->busy ? ", in use now" : "");
}

static void totals(FILE *f, const struct kb_cache *c)
{
	unsigned long long by[KB_CACHE_OTHER + 1] = { 0 }, all = 0;
	char b[32];

	for (size_t i = 0; i < c->n; i++) {
		by[c->e[i].kind] += c->e[i].bytes;
		all += c->e[i].bytes;
	}
	fprintf(f, "total:");
	for (int k = 0; k <= KB_CACHE_OTHER; k++) {
		human(b, sizeof(b), by[k]);
		fprintf(f, " %s %s,", kb_cache_kind_name((enum kb_cache_kind)k), b);
	}
	human(b, sizeof(b), all);
	fprintf(f, " all %s (%llu bytes of disk blocks; a file hard-linked into several copies "
		"counted once)\n", b, all);
}

static int list(const struct kb_cache *c)
{
	printf("build cache %s: %zu entries; %zu run%s read\n", c->dir, c->n, c->n_runs,
	       c->n_runs == 1 ? "" : "s");
	printf("%-10s  %10s  %-16s  %5s  %s\n", "kind", "bytes", "last use", "runs", "entry");
	for (size_t i = 0; i < c->n; i++)
		row(stdout, &c->e[i], "");
	totals(stdout, c);
	return KB_EXIT_OK;
}

static int prune(const struct kb_cache *c, const struct cache_args *a)
{
	unsigned long long freed = 0, kept = 0;
	size_t n = 0, failed = 0;
	double now = (double)time(NULL);	/* the entries' times are the wall clock's */
	char b[32];

	for (size_t i = 0; i < c->n; i++) {
		const struct kb_cache_entry *e = &c->e[i];

		if (!kb_cache_prunable(e, a->older_than, a->keep_runs, now)) {
			kept += e->bytes;
			continue;
		}
		row(stdout, e, a->dry_run ? "would remove: " : "removed: ");
		if (!a->dry_run) {
			char *lock = kb_xasprintf("%s.lock", e->path);

			if (kb_remove_tree(e->path) != 0 || access(e->path, F_OK) == 0) {
				kb_error("cannot remove '%s'", e->path);
				failed++;
				free(lock);
				continue;
			}
			if (e->kind == KB_CACHE_OBJECTS)
				unlink(lock);
			free(lock);
		}
		freed += e->bytes;
		n++;
	}
	human(b, sizeof(b), freed);
	printf("%s %zu of %zu entries, %s", a->dry_run ? "would remove" : "removed", n, c->n, b);
	human(b, sizeof(b), kept);
	printf("; %s kept (%zu run%s read", b, c->n_runs, c->n_runs == 1 ? "" : "s");
	if (a->older_than >= 0)
		printf("; unused for more than %g days%s", a->older_than,
		       a->keep_runs ? ", and no run refers to it" : "");
	else
		printf("; what no run refers to; ccache and llvm-mca's prices stay (--older-than)");
	printf(")\n");
	return failed ? KB_EXIT_FAILED : KB_EXIT_OK;
}

static int cmd_cache(int argc, char **argv)
{
	struct cache_args a = { .older_than = -1 };
	struct kb_conf conf;
	const char *path = NULL, **outputs;
	int do_prune = 0, ret = kb_command_parse(&kb_command_cache, &argc, &argv, option, &a), have_conf = 0;
	struct kb_cache c;
	char *cache = NULL;

	if (ret != KB_GO_ON)
		goto out_args;
	if (argc > 0 && (!strcmp(argv[0], "prune") || !strcmp(argv[0], "list"))) {
		do_prune = !strcmp(argv[0], "prune");
		argc--, argv++;
	} else if (argc > 0 && access(argv[0], F_OK) != 0 && !strchr(argv[0], '/') &&
		   !strchr(argv[0], '.')) {
		ret = kb_command_unknown(&kb_command_cache, "action", argv[0],
					 (const char *const[]){ "list", "prune" }, 2);
		goto out_args;
	}
	if (argc > 1) {
		ret = kb_command_usage_error(&kb_command_cache, "one configuration at most");
		goto out_args;
	}
	if (!do_prune && (a.older_than >= 0 || a.keep_runs || a.dry_run)) {
		ret = kb_command_usage_error(&kb_command_cache, "--older-than, --keep-runs and --dry-run are prune's");
		goto out_args;
	}
	path = argc ? argv[0] : access("variants.conf", F_OK) == 0 ? "variants.conf" : NULL;
	ret = KB_EXIT_USAGE;
	if (path) {
		if (kb_conf_load(&conf, path) < 0)
			goto out_args;
		have_conf = 1;
		cache = kb_xstrdup(conf.cache);
	} else {
		cache = kb_default_cache_dir();
	}
	outputs = kb_xcalloc(a.n_outputs + 1, sizeof(*outputs));
	for (size_t i = 0; i < a.n_outputs; i++)
		outputs[i] = a.outputs[i];
	outputs[a.n_outputs] = have_conf ? conf.output : "results";
	if (kb_cache_scan(&c, cache, outputs, a.n_outputs + 1) < 0) {
		ret = KB_EXIT_FAILED;
	} else {
		printf("runs under: ");
		for (size_t i = 0; i <= a.n_outputs; i++)
			printf("%s%s", i ? ", " : "", outputs[i]);
		printf("\n");
		ret = do_prune ? prune(&c, &a) : list(&c);
		kb_cache_release(&c);
	}
	free(outputs);
	free(cache);
	if (have_conf)
		kb_conf_release(&conf);
out_args:
	free(a.outputs);
	return ret;
}

static const struct kb_command_option options[] = {
	{ "output", 'O', "DIR", "also the run directories under DIR (repeatable); the\n"
				"configuration's output always" },
	{ "older-than", KB_LONG('o'), "DAYS", "prune: what kbench has not used for DAYS days, whether\n"
					      "a run refers to it or not (ccache and prices too)" },
	{ "keep-runs", KB_LONG('k'), NULL, "prune with --older-than: never what a run refers to" },
	{ "dry-run", 'n', NULL, "prune: say what would go, remove nothing" },
	{ 0 },
};

const struct kb_command kb_command_cache = {
	.name = "cache",
	.summary = "what the build cache holds; prune what no run refers to",
	.usage = "usage: kbench cache [list] [--output DIR]... [VARIANTS.CONF]\n"
		 "       kbench cache prune [--older-than DAYS [--keep-runs]] [--dry-run]\n"
		 "                          [--output DIR]... [VARIANTS.CONF]\n\n"
		 "List the build cache of VARIANTS.CONF (default ./variants.conf where there\n"
		 "is one, else $KBENCH_CACHE, $XDG_CACHE_HOME/kbench or ~/.cache/kbench): each\n"
		 "source, object directory, kernel, ccache's store and llvm-mca's prices, with\n"
		 "its bytes on disk, when kbench last used it and how many run directories\n"
		 "under the configuration's output (and each --output) refer to it.\n\n"
		 "prune removes the sources, objects and kernels no run refers to; with\n"
		 "--older-than, what has not been used for that many days instead (with\n"
		 "--keep-runs, not if a run refers to it).  What a run now building may use\n"
		 "(locked, or used in the last ten minutes) always stays.  A pruned kernel is\n"
		 "built again (from ccache, where it kept the objects) when a run needs it.\n",
	.options = options,
	.footer = "Exit status: 0, 1 if the cache cannot be read or an entry not removed, 2 on a\n"
		  "usage error.\n",
	.fn = cmd_cache,
};
