// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench build VARIANTS.CONF: the kernels only, into the cache;
 * --config-only: their configurations only. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "commands.h"
#include "run.h"
#include "size.h"
#include "util.h"

struct build_args {
	int config_only;
};

static int build_option(void *ctx, int key, const char *value)
{
	struct build_args *a = ctx;

	(void)value;
	switch (key) {
	case KB_LONG('C'):
		kb_conf_help(stdout);
		return KB_EXIT_OK;
	case KB_LONG('c'):
		a->config_only = 1;
		break;
	}
	return KB_GO_ON;
}

/* Each variant's kernel configured as a build would (base, kbench's guest
 * fragment, [kernel] fragment, the variant's options, olddefconfig, every
 * option asked for checked), nothing compiled: what Kconfig made of it in
 * a minute, where a build takes several (the allocator, say, which
 * tinyconfig picks by kernel version). */
static int config_only(const struct kb_conf *conf, const char *logdir)
{
	struct kb_source src;
	int failed = 0;

	if (kb_source_prepare(conf, &src) < 0)
		return KB_EXIT_FAILED;
	printf("%-16s %-12s %-10s %-8s  %s\n", "variant", "kernel", "allocator", "cached", ".config");
	for (size_t i = 0; i < conf->n_variants && !kb_interrupted; i++) {
		const struct kb_variant *v = &conf->variants[i];
		char *vdir = kb_xasprintf("%s/%s", logdir, v->name);
		char *log = kb_xasprintf("%s/configure.log", vdir);
		struct kb_kernel k = { 0 };
		const char *alloc;

		if (kb_mkdir_p(vdir, 0755) < 0 || kb_build_configure(conf, &src, v, log, &k) < 0) {
			if (k.failure && (v->hybrid || v->bzimage))
				kb_warn("variant '%s': %s", v->name, k.failure);
			else
				failed = 1;
			printf("%-16s %-12s %-10s %-8s  %s\n", v->name, src.version ? src.version : "-",
			       "-", "-", "-");
		} else {
			alloc = kb_config_allocator(k.dotconfig);
			printf("%-16s %-12s %-10s %-8s  %s\n", v->name, src.version,
			       alloc ? alloc : "none", k.cached < 0 ? "unknown" : k.cached ? "yes" : "no", k.dotconfig);
		}
		kb_kernel_release(&k);
		free(vdir);
		free(log);
	}
	kb_source_release(&src);
	return failed || kb_interrupted ? KB_EXIT_FAILED : KB_EXIT_OK;
}

static int cmd_build(int argc, char **argv)
{
	struct kb_conf conf;
	struct kb_run_variant *vs;
	struct build_args a = { 0 };
	const char *path;
	char *logdir;
	int failed, r = kb_command_parse(&kb_command_build, &argc, &argv, build_option, &a);

	if (r != KB_GO_ON)
		return r;
	if (argc != 1)
		return kb_command_usage_error(&kb_command_build, "one configuration file");
	path = argv[0];
	if (kb_conf_load(&conf, path) < 0 || kb_conf_check_paths(&conf) < 0) {
		kb_conf_release(&conf);
		return KB_EXIT_USAGE;
	}
	logdir = kb_xasprintf("%s/logs", conf.cache);
	if (a.config_only) {
		r = config_only(&conf, logdir);
		free(logdir);
		kb_conf_release(&conf);
		return r;
	}
	vs = kb_run_variants_new(&conf);
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

static const struct kb_command_option options[] = {
	{ "help-config", KB_LONG('C'), NULL, "every key of VARIANTS.CONF, with its default" },
	{ "config-only", KB_LONG('c'), NULL, "configure each variant's kernel and stop: its version,\n"
	  "slab allocator, whether the cache has it, the final .config" },
	{ 0 },
};

const struct kb_command kb_command_build = {
	.name = "build",
	.summary = "build the kernels of variants.conf only",
	.usage = "usage: kbench build [--help-config] [--config-only] VARIANTS.CONF\n\n"
		 "Build every variant's kernel, or find it in the cache, and print a table of them.\n",
	.options = options,
	.fn = cmd_build,
};
