// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench build VARIANTS.CONF: the kernels only, into the cache. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "run.h"
#include "size.h"
#include "util.h"

static int cmd_build(int argc, char **argv)
{
	struct kb_conf conf;
	struct kb_run_variant *vs;
	const char *path;
	char *logdir;
	int resume, failed, r = kb_run_args(&kb_command_build, argc, argv, &path, &resume, NULL);

	if (r != KB_GO_ON)
		return r;
	if (kb_conf_load(&conf, path) < 0 || kb_conf_check_paths(&conf) < 0) {
		kb_conf_release(&conf);
		return KB_EXIT_USAGE;
	}
	vs = kb_run_variants_new(&conf);
	logdir = kb_xasprintf("%s/logs", conf.cache);
	kb_run_prebuild(&conf, vs, logdir);
	failed = kb_interrupted ? 0 : kb_run_build(&conf, vs, NULL, logdir);
	if (failed >= 0) {
		printf("%-16s %-8s %10s  %s\n", "variant", "status", "text", "bzImage");
		for (size_t i = 0; i < kb_run_n(&conf); i++) {
			struct kb_size sz = { 0 };
			char *name = vs[i].layout.layout ? kb_xasprintf("%s/layout-%d", vs[i].v->name,
									vs[i].layout.layout)
							 : kb_xstrdup(vs[i].v->name);

			if (vs[i].built)
				kb_size_read(vs[i].k.vmlinux, &sz);
			printf("%-16s %-8s %10llu  %s\n", name,
			       vs[i].built ? (vs[i].k.cached ? "cached" : "built") : "FAILED",
			       sz.text, vs[i].built ? vs[i].k.bzimage : "-");
			free(name);
		}
	}
	kb_run_variants_free(&conf, vs);
	free(logdir);
	kb_conf_release(&conf);
	return failed == 0 ? KB_EXIT_OK : KB_EXIT_FAILED;
}

static const struct kb_command_option options[] = {	/* kb_run_args's keys */
	{ "help-config", KB_LONG('C'), NULL, "every key of VARIANTS.CONF, with its default" },
	{ 0 },
};

const struct kb_command kb_command_build = {
	.name = "build",
	.summary = "build the kernels of variants.conf only",
	.usage = "usage: kbench build [--help-config] VARIANTS.CONF\n\n"
		 "Build every variant's kernel, or find it in the cache, and print a table of them.\n",
	.options = options,
	.fn = cmd_build,
};
