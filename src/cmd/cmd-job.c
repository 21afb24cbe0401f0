// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench job build|boot RUN_DIR ID: one task of a run's Slurm job arrays
 * (executor-slurm.h), run by the job script kbench submitted.  A build job only
 * fills the shared cache; a boot job only appends lines to the run's files:
 * the manifest is the driver's alone. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "boot.h"
#include "commands.h"
#include "executor-slurm.h"
#include "manifest.h"
#include "run.h"
#include "rundir.h"
#include "util.h"

/* The run directory as the driver saw it: the job's node must see the
 * probe the driver wrote (a directory of the same name that is not the
 * same would silently collect nothing). */
static int see_run(const char *dir, struct kb_store *store, struct kb_conf *conf)
{
	char *probe = kb_xasprintf("%s/slurm/probe", dir), *text = NULL, *copy;
	const char *node = getenv("SLURMD_NODENAME") ?: "this node";
	int r;

	if (kb_read_file(probe, &text, NULL) < 0) {
		kb_error("'%s': not seen on %s: the run directory must be on a filesystem every "
			 "node sees", probe, node);
		free(probe);
		return -1;
	}
	free(probe);
	if (kb_store_open(store, dir) < 0 || kb_rundir_format_check(store->manifest, dir) < 0) {
		free(text);
		return -1;
	}
	if (strncmp(text, store->id, strlen(store->id))) {
		kb_error("'%s': on %s it holds another run than the one submitted", dir, node);
		free(text);
		return -1;
	}
	free(text);
	copy = kb_store_path(store, "variants.conf");
	r = kb_conf_load_dir(conf, copy, kb_manifest_str(store, "config_dir"));
	free(copy);
	if (r < 0)
		return -1;
	if (access(conf->cache, W_OK) < 0)
		return kb_error_errno(errno, "the build cache '%s' on %s", conf->cache, node);
	return 0;
}

static long number(const char *s, const char *what)
{
	char *end;
	long v = strtol(s ? s : "", &end, 10);

	if (!s || !*s || *end || v < 0)
		return kb_error("%s '%s': not a number (run by kbench's job script, which gives "
				"$SLURM_ARRAY_TASK_ID)", what, s ? s : ""), -1;
	return v;
}

/* Build run variant index (a variant's layout replica) into the cache; its
 * kernel's paths for the driver and the boots. */
static int job_build(struct kb_conf *conf, struct kb_store *store, long index)
{
	struct kb_run_variant *vs = kb_run_variants_new(conf);
	struct kb_run_variant *rv = &vs[index < 0 ? 0 : index];
	struct kb_source src;
	char *rel, *vdir, *log;
	int r = -1;

	if ((size_t)index >= kb_run_n(conf)) {
		kb_error("variant index %ld: the run has %zu variants and layout replicas", index,
			 kb_run_n(conf));
		goto out_vs;
	}
	if (kb_source_prepare(conf, &src) < 0)
		goto out_vs;
	rel = kb_store_variant_dir(rv->v->name, rv->layout.layout);
	vdir = kb_store_path(store, "%s", rel);
	log = kb_xasprintf("%s/build.log", vdir);
	if (kb_mkdir_p(vdir, 0755) == 0) {
		kb_info("variant '%s' layout %d: building on %s", rv->v->name, rv->layout.layout,
			getenv("SLURMD_NODENAME") ?: "this node");
		if (kb_build_variant(conf, &src, rv->v, &rv->layout, log, &rv->k) == 0) {
			kb_info("variant '%s' layout %d: %s in %.1f s (%s)", rv->v->name,
				rv->layout.layout, rv->k.cached ? "cached" : "built", rv->k.seconds,
				rv->k.dir);
			r = kb_slurm_write_kernel(store->dir, (size_t)index, rv);
		}
	}
	free(rel);
	free(vdir);
	free(log);
	kb_source_release(&src);
out_vs:
	kb_run_variants_free(conf, vs);
	return r;
}

/* Boot seq of the plan with the backends and accelerator the driver chose. */
static int job_boot(struct kb_conf *conf, struct kb_store *store, long seq)
{
	struct kb_backends_chosen bc = { 0 };
	struct kb_boots env = { .conf = conf, .store = store, .backends = &bc, .jobs = 1 };
	struct kb_run_variant *vs = kb_run_variants_new(conf);
	const char *was = kb_manifest_str(store, "backend");
	char *why = NULL, *image = kb_store_path(store, "initramfs.cpio");
	long vboot, total;
	size_t vi;
	int r = -1;

	env.accel = kb_accel_from_name(kb_manifest_str(store, "accel.chosen"));
	env.image = image;
	if (env.accel == KB_ACCEL_AUTO) {
		kb_error("'%s': the manifest names no accelerator", store->dir);
		goto out;
	}
	if (kb_slurm_read_plan(store->dir, seq, &vi, &vboot, &total) < 0)
		goto out;
	if (vi >= kb_run_n(conf)) {
		kb_error("boot %ld: variant index %zu out of range", seq, vi);
		goto out;
	}
	if (kb_slurm_read_kernel(store->dir, vi, &vs[vi]) < 0)
		goto out;
	if (kb_run_choose_backends(conf, env.accel, &bc, &why) < 0)
		goto out;
	/* the node must measure as the driver's choice said */
	if (!was || strcmp(was, kb_backends_name(&bc))) {
		kb_error("backends on %s are %s, but the run measures with %s: samples would not "
			 "be comparable", getenv("SLURMD_NODENAME") ?: "this node",
			 kb_backends_name(&bc), was ? was : "none");
		goto out;
	}
	kb_install_signal_handlers();	/* scancel: no boots.jsonl line, it runs again */
	r = kb_boots_one(&env, &vs[vi], seq, vboot, total);
out:
	kb_backends_release(&bc);
	kb_run_variants_free(conf, vs);
	free(image);
	free(why);
	return r;
}

static int cmd_job(int argc, char **argv)
{
	struct kb_conf conf = { 0 };
	struct kb_store store = { 0 };
	long id;
	int r = kb_command_parse(&kb_command_job, &argc, &argv, NULL, NULL);

	if (r != KB_GO_ON)
		return r;
	if (argc != 3 || (strcmp(argv[0], "build") && strcmp(argv[0], "boot")))
		return kb_command_usage_error(&kb_command_job, "build or boot, RUN_DIR and a number");
	id = number(argv[2], !strcmp(argv[0], "build") ? "variant index" : "boot");
	if (id < 0)
		return KB_EXIT_USAGE;
	if (see_run(argv[1], &store, &conf) == 0)
		r = !strcmp(argv[0], "build") ? job_build(&conf, &store, id)
					       : job_boot(&conf, &store, id);
	else
		r = -1;
	kb_store_release(&store);
	kb_conf_release(&conf);
	if (kb_interrupted)
		return 128 + (int)kb_interrupted;
	return r < 0 ? KB_EXIT_FAILED : KB_EXIT_OK;
}

const struct kb_command kb_command_job = {
	.name = "job",
	.summary = "one build or one boot of a run, as a Slurm job ([run] executor = slurm)",
	.usage = "usage: kbench job build RUN_DIR VARIANT_INDEX\n"
		 "       kbench job boot RUN_DIR BOOT\n\n"
		 "One task of a run's Slurm job arrays, run by the job script `kbench run`\n"
		 "submitted (RUN_DIR/slurm/*.sh): build one variant into the shared build cache,\n"
		 "or boot the run's boot BOOT (its number in the plan) and append its samples.\n",
	.fn = cmd_job,
	.hidden = 1,
	.options_first = 1,
};
