// SPDX-License-Identifier: GPL-2.0-or-later
/* The variants' builds and the accelerator, for `kbench run` and `kbench
 * build` (run.h); the shape of the whole is in README.md, "How it works". */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "commands.h"
#include "manifest.h"
#include "probe.h"
#include "run.h"
#include "size.h"
#include "util.h"
#include "vm.h"

struct kb_run_variant *kb_run_variants_new(const struct kb_conf *conf)
{
	struct kb_run_variant *vs = kb_xcalloc(conf->n_variants, sizeof(*vs));

	for (size_t i = 0; i < conf->n_variants; i++)
		vs[i].v = &conf->variants[i];
	return vs;
}

void kb_run_variants_free(const struct kb_conf *conf, struct kb_run_variant *vs)
{
	for (size_t i = 0; vs && i < conf->n_variants; i++)
		kb_kernel_release(&vs[i].k);
	free(vs);
}

/* The run directory's own copies of a built kernel's files. */
static int keep_copies(const struct kb_run_variant *rv, const char *vdir)
{
	const char *const src[] = { rv->k.vmlinux, rv->k.dotconfig, rv->k.system_map };
	const char *const name[] = { "vmlinux", "config", "System.map" };
	int r = 0;

	for (size_t i = 0; i < KB_ARRAY_SIZE(src) && r == 0; i++) {
		char *dst;

		if (!src[i])
			continue;
		dst = kb_xasprintf("%s/%s", vdir, name[i]);
		r = kb_copy_file(src[i], dst);
		free(dst);
	}
	return r;
}

int kb_run_build(const struct kb_conf *conf, struct kb_run_variant *vs, struct kb_store *store,
		 const char *logdir)
{
	struct kb_source src;
	int failed = 0;

	if (kb_source_prepare(conf, &src) < 0)
		return -1;
	if (store)
		kb_manifest_kernel(store, conf, &src);
	for (size_t i = 0; i < conf->n_variants && !kb_interrupted; i++) {
		struct kb_run_variant *rv = &vs[i];
		char *vdir = kb_xasprintf("%s/%s", logdir, rv->v->name);
		char *log = kb_xasprintf("%s/build.log", vdir);
		struct kb_size sz;
		int ok, have_size = 0;

		if (kb_mkdir_p(vdir, 0755) < 0) {
			free(vdir);
			free(log);
			kb_source_release(&src);
			return -1;
		}
		kb_info("variant %zu/%zu '%s': configuring", i + 1, conf->n_variants, rv->v->name);
		ok = kb_build_variant(conf, &src, rv->v, log, &rv->k) == 0;
		if (ok) {
			rv->built = 1;
			kb_info("variant '%s': %s in %.1f s (%s)", rv->v->name,
				rv->k.cached ? "cached" : "built", rv->k.seconds,
				rv->k.dir ? rv->k.dir : rv->k.bzimage);
			/* results outlive the cache */
			if (store && keep_copies(rv, vdir) < 0)
				rv->built = 0;
			have_size = rv->built && kb_size_read(rv->k.vmlinux, &sz) == 0;
		}
		failed += !rv->built;
		if (store)
			kb_manifest_variant(store, i, rv, ok, have_size ? &sz : NULL);
		free(vdir);
		free(log);
	}
	kb_source_release(&src);
	return failed;
}

const char *kb_run_choose_accel(const struct kb_conf *conf, char **why)
{
	const struct kb_backend *want = kb_backend_find(conf->backend);
	char *k;

	if (conf->accel == KB_ACCEL_AUTO && want && (want->flags & KB_BACKEND_NEEDS_TCG)) {
		*why = kb_xasprintf("backend = %s: it runs under TCG only", want->name);
		return "tcg";
	}
	if (conf->accel == KB_ACCEL_TCG) {
		*why = kb_xstrdup("accel = tcg in the configuration");
		return "tcg";
	}
	if (kb_probe_accel(kb_qemu_path(), "kvm", 5, why))
		return "kvm";
	if (conf->accel == KB_ACCEL_KVM)
		return NULL;
	k = *why;
	*why = kb_xasprintf("KVM not usable: %s; using TCG", k);
	free(k);
	return "tcg";
}

int kb_run_args(const struct kb_command *c, int argc, char **argv, int allow_resume,
		const char **path, int *resume)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "help-config", no_argument, NULL, 'C' },
		{ "resume", no_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	*path = NULL;
	*resume = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			return kb_command_usage(c, KB_EXIT_OK);
		case 'C':
			kb_conf_help(stdout);
			return KB_EXIT_OK;
		case 'r':
			if (allow_resume) {
				*resume = 1;
				break;
			}
			/* fall through */
		default:
			return kb_command_usage(c, KB_EXIT_USAGE);
		}
	}
	if (argc - optind != 1)
		return kb_command_usage(c, KB_EXIT_USAGE);
	*path = argv[optind];
	return -1;
}
