/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_RUN_H
#define KB_RUN_H

/*
 * The stages of `kbench run` that are not a module of their own: building
 * every variant into the run directory, the accelerator, and the backends
 * (the table in backend.h knows no configuration: each backend is told its
 * options here).  The plan (plan.h), the boots (boot.h) and the manifest
 * (manifest.h) have theirs; cmd-run.c strings them together.
 */

#include "build.h"
#include "conf.h"
#include "store.h"

/* A variant's layout replica in a run ([run] layouts; layout 0 is the
 * variant as configured, the only one when layouts = 1): its kernel once
 * built, and its boots so far. */
struct kb_run_variant {
	const struct kb_variant *v;
	size_t vi;		/* v's index in conf->variants */
	struct kb_layout layout;
	struct kb_kernel k;
	int built;
	int io_failed;		/* built, but its files could not be kept in the run
				 * directory (ENOSPC, EIO...): a resume copies them again */
	long boots_done;
	struct {			/* built just now beside others (kb_run_prebuild) */
		int built;
		long ccache_hits, ccache_misses;
		double seconds;
		int reported;	/* its build process said how it went */
	} pre;
	char *not_built;	/* set before kb_run_build: why not to build it here (its
				 * Slurm build job failed); owned */
};

/* conf's variants, each layouts times, replica r of variant i at
 * i * layouts + r (kb_run_n of them), nothing built yet
 * (kb_run_variants_free). */
struct kb_run_variant *kb_run_variants_new(const struct kb_conf *conf);
/* How many run variants: inline, so an executor needs no run.c for it. */
static inline size_t kb_run_n(const struct kb_conf *conf)
{
	return conf->n_variants * (size_t)(conf->layouts > 1 ? conf->layouts : 1);
}
/* The seed the replicas' padding is drawn from: [run] seed when the
 * configuration gives one, else 0, so that a replica is the same build in
 * every run and comes from the cache (the plan's seed from the clock does
 * not enter). */
unsigned long long kb_run_layout_seed(const struct kb_conf *conf);
void kb_run_variants_free(const struct kb_conf *conf, struct kb_run_variant *vs);

/* Build every variant's replicas, or take them from the cache; failures are
 * recorded and the others go on (a variant's padded replicas are not tried
 * when its layout 0 failed).  With a store, the manifest says how each went
 * and the run directory keeps its own vmlinux, .config and System.map
 * (results outlive the cache); logs go to logdir/<variant>/build.log
 * (logdir/<variant>/layout-R/build.log).  A replica with not_built is
 * recorded failed, not built.  Returns the number of failed
 * replicas, or -1 when the source cannot be prepared. */
int kb_run_build(const struct kb_conf *conf, struct kb_run_variant *vs, struct kb_store *store,
		 const char *logdir);

/* Build the variants' kernels into the cache up to [kernel] builds_at_once
 * at a time (0: up to [kernel] jobs), sharing one make jobserver; does
 * nothing where that is one.  kb_run_build then finds them cached and
 * reports each as built now (vs[i].pre); a failed one it builds again, and
 * says why. */
void kb_run_prebuild(const struct kb_conf *conf, struct kb_run_variant *vs, const char *logdir);

/* The pipeline (pipeline.c), for kbench run and kbench explain: the
 * configuration at path (relative paths in it resolved
 * against confdir; NULL: its own directory), or --resume of the run
 * directory path; the run directory in *run_dir (malloc'd; NULL before
 * one exists) when run_dir is not NULL.  The exit code. */
int kb_run_main(const char *path, const char *confdir, int resume, const char *executor,
		char **run_dir);
/* What kbench run's own options add (cmd-run.c): --set SECTION.KEY=VALUE
 * in order (kb_conf_load_set; on --resume, the run's own when none is
 * given, and else they must be those), and --dry-run (kb_run_dry). */
struct kb_run_opts {
	const char *const *sets;
	size_t n_sets;
	int dry_run;
};
int kb_run_main_opts(const char *path, const char *confdir, int resume, const char *executor,
		     char **run_dir, const struct kb_run_opts *opts);

/* kbench run --dry-run (dry-run.c): the plan of conf on f, nothing built,
 * booted or written: each variant's kernel found in the build cache or to
 * be built, the boots, and the time earlier runs under conf->output say it
 * takes.  The exit code. */
int kb_run_dry(const struct kb_conf *conf, FILE *f);

/*
 * Choose a run's backends for accel: the first primary (in table order)
 * that accepts, the first overlay that accepts, every stage that accepts,
 * each told its options from conf.  0; -1 when the configuration asks for
 * what this host cannot give, after a message (*failed_why, malloc'd, says
 * it for the manifest).
 */
struct kb_backends_chosen;
int kb_run_choose_backends(const struct kb_conf *conf, enum kb_accel accel,
			   struct kb_backends_chosen *c, char **failed_why);

/* The accelerator for [run] accel: KVM only if a guest really makes
 * progress under it and, given a built variant rv and the guest image, that
 * kernel boots the runner to its end under KVM (logs in logdir).  0 with
 * *accel KVM or TCG, or -1 when accel = kvm cannot be had; *why (malloc'd)
 * says why in each case. */
int kb_run_choose_accel(const struct kb_conf *conf, const struct kb_run_variant *rv,
			const char *image, const char *logdir, enum kb_accel *accel, char **why);

#endif
