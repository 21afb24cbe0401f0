// SPDX-License-Identifier: GPL-2.0-or-later
/* The pipeline of kbench run and kbench explain (README.md, "How it
 * works"), stage by stage: build, image, accelerator and backends, the
 * measuring boots, the stages after them, the report. */
#include "config.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "boot.h"
#include "executor.h"
#include "image.h"
#include "manifest.h"
#include "plan.h"
#include "report.h"
#include "run.h"
#include "rundir.h"
#include "util.h"

/* The guest runner for arch: kbench-runner (i386) or kbench-runner-x86_64,
 * or $KBENCH_RUNNER / $KBENCH_RUNNER_X86_64. */
static char *find_runner(const char *arch)
{
	if (!strcmp(arch, "x86_64"))
		return kb_find_companion("KBENCH_RUNNER_X86_64", "../workloads/kbench-runner-x86_64",
					 PKGLIBEXECDIR "/kbench-runner-x86_64");
	return kb_find_companion("KBENCH_RUNNER", "../workloads/kbench-runner",
				 PKGLIBEXECDIR "/kbench-runner");
}

/* The run's executor, its options and the lines of its keys. */
static void executor_run_init(struct kb_executor_run *x, const struct kb_conf *conf)
{
	size_t i = 0;

	memset(x, 0, sizeof(*x));
	x->e = kb_executor_find(conf->executor);
	x->conf = conf;
	x->opts = kb_conf_executor_opts(conf, x->e);
	for (const struct kb_option *o = x->e->options; o && o->name; o++)
		x->key_line[i++] = kb_conf_key_line(conf, KB_SEC_RUN, o->name);
}

/* --executor over [run] executor, and what that executor needs of this
 * host and of dir, checked before a run directory is made.  0 or the exit
 * code. */
static int executor_check(struct kb_conf *conf, const char *executor, const char *dir)
{
	struct kb_executor_run x;
	int r;

	if (executor) {
		free(conf->executor);
		conf->executor = kb_xstrdup(executor);
	}
	executor_run_init(&x, conf);
	if (!x.e->check)
		return 0;
	r = x.e->check(&x, dir);
	return r == -ENOTSUP ? KB_EXIT_NOT_SUPPORTED : r < 0 ? KB_EXIT_USAGE : 0;
}

/* A new run: configuration, run directory, the manifest first (whatever
 * happens later, the run says what it was) and a copy of the configuration
 * for --resume. */
static int start_run(const char *path, const char *confdir, const char *executor,
		     const struct kb_run_opts *o, struct kb_conf *conf, struct kb_store *store,
		     int *lockfd)
{
	char *conftext = NULL, *copy;
	size_t len = 0;
	int r;

	if (kb_conf_load_set(conf, path, confdir, o->sets, o->n_sets) < 0 || kb_conf_check_paths(conf) < 0)
		return KB_EXIT_USAGE;
	r = executor_check(conf, executor, conf->output);
	if (r)
		return r;
	*lockfd = kb_store_lock(conf->output);
	if (*lockfd < 0 || kb_store_create(store, conf->output) < 0)
		return KB_EXIT_FAILED;
	if (!conf->seed) {
		conf->seed = ((unsigned long long)time(NULL) << 16) ^ (unsigned long long)getpid();
		conf->seed_drawn = 1;
	}
	kb_read_file(path, &conftext, &len);
	copy = kb_store_path(store, "variants.conf");
	r = kb_write_file_atomic(copy, conftext ? conftext : "", conftext ? len : 0);
	free(copy);
	free(conftext);
	if (r < 0 || kb_manifest_init(store, conf) < 0)
		return KB_EXIT_FAILED;
	return 0;
}

/* --resume: the run directory's own copy of the configuration, resolved as
 * the original was, with its --set options (o's, or the manifest's when o
 * gives none), and the seed of the original plan. */
static int resume_run(const char *dir, const char *executor, const struct kb_run_opts *o,
		      struct kb_conf *conf, struct kb_store *store, int *lockfd)
{
	const char *files[KB_BACKEND_MAX_FILES], **sets;
	json_t *was_set;
	char *copy, *real;
	size_t nfiles, nsets;
	int r;

	/* a run a newer kbench began is its to resume */
	if (kb_store_open(store, dir) < 0 || kb_rundir_format_check(store->manifest, dir) < 0)
		return KB_EXIT_USAGE;
	/* the lock of the results directory that holds the run, whichever
	 * way the run directory was named ("." included) */
	real = realpath(dir, NULL);
	if (!real)
		return kb_error_errno(errno, "'%s'", dir), KB_EXIT_FAILED;
	*lockfd = kb_store_lock(dirname(real));
	free(real);
	if (*lockfd < 0)
		return KB_EXIT_FAILED;
	if (!strcmp(kb_manifest_str(store, "state") ?: "", "complete")) {
		kb_error("'%s': the run is complete; nothing to resume", dir);
		return KB_EXIT_USAGE;
	}
	copy = kb_store_path(store, "variants.conf");
	/* killed before the copy, or between it and the manifest's first
	 * write (state still "starting": no seed, nothing to check it by) */
	if (access(copy, F_OK) < 0 || !strcmp(kb_manifest_str(store, "state") ?: "", "starting")) {
		kb_error("'%s': stopped before it started (%s); start a new run with kbench run "
			 "VARIANTS.CONF", dir, access(copy, F_OK) < 0 ? "no copy of its configuration"
			 : "its manifest never recorded the configuration");
		free(copy);
		return KB_EXIT_USAGE;
	}
	/* --set: the run's own unless given (kb_manifest_config_check then
	 * refuses others) */
	was_set = json_object_get(store->manifest, "overrides");
	nsets = o->n_sets ? o->n_sets : json_array_size(was_set);
	sets = kb_xcalloc(nsets + 1, sizeof(*sets));
	for (size_t i = 0; i < nsets; i++)
		sets[i] = o->n_sets ? o->sets[i] : json_string_value(json_array_get(was_set, i)) ?: "";
	r = kb_conf_load_set(conf, copy, kb_manifest_str(store, "config_dir"), sets, nsets);
	free(sets);
	free(copy);
	nfiles = kb_backend_run_files(files);
	/* samples of one design only: the copy must be what the run began with */
	if (r < 0 || kb_manifest_config_check(store, conf) < 0 || kb_store_repair(store, files, nfiles) < 0)
		return KB_EXIT_USAGE;
	r = executor_check(conf, executor, dir);
	if (r)
		return r;
	if (kb_json_u64_value(json_object_get(store->manifest, "seed"), &conf->seed) < 0) {
		kb_error("%s/manifest.json: 'seed' is not an unsigned 64-bit integer", dir);
		return KB_EXIT_USAGE;
	}
	return 0;
}

/* On --resume, what the run measured with must still be what this host
 * gives: samples of another accelerator or backend would not compare. */
static int same_as_before(const struct kb_store *store, int resume, const char *key,
			  const char *what, const char *now, const char *why)
{
	const char *was = resume ? kb_manifest_str(store, key) : NULL;

	if (!was || (now && !strcmp(was, now)))
		return 1;
	kb_error("'%s' was measured %s %s, but this host now gives %s (%s): samples would not be "
		 "comparable", store->dir, what, was, now ? now : "none", why);
	return 0;
}

/* Accelerator and backends; KB_EXIT_OK or the exit code, the manifest
 * saying which either way, but for a resume refused (*refused): that run
 * stays as it was, to be resumed where it can be. */
static int choose(const struct kb_conf *conf, struct kb_store *store, int resume,
		  const struct kb_run_variant *rv, const char *image, enum kb_accel *accel,
		  struct kb_backends_chosen *bc, int *refused)
{
	char *why = NULL, *logdir = kb_store_path(store, "boots");
	const char *name = NULL;	/* the accelerator's, NULL when none could be had */
	int ret = KB_EXIT_OK;

	if (kb_run_choose_accel(conf, rv, image, logdir, accel, &why) == 0)
		name = kb_accel_name(*accel);
	free(logdir);
	if (!same_as_before(store, resume, "accel.chosen", "under", name, why)) {
		*refused = 1;
		ret = KB_EXIT_NOT_SUPPORTED;
		goto out;
	}
	kb_manifest_accel(store, name, why);
	if (!name) {
		kb_error("accel = kvm, but %s", why);
		ret = KB_EXIT_NOT_SUPPORTED;
		goto out;
	}
	kb_info("accelerator %s: %s", name, why);
	free(why);
	why = NULL;
	if (kb_run_choose_backends(conf, *accel, bc, &why) < 0) {
		kb_manifest_backends(store, NULL, why);
		ret = KB_EXIT_NOT_SUPPORTED;
		goto out;
	}
	kb_info("backend %s: %s", bc->primary.b->name, bc->primary.why);
	kb_info("host counters %s: %s", bc->overlay.b ? bc->overlay.b->name : "off", bc->overlay_why);
	if (!same_as_before(store, resume, "backend", "with backend", kb_backends_name(bc),
			    bc->primary.why)) {
		*refused = 1;
		ret = KB_EXIT_NOT_SUPPORTED;
		goto out;
	}
	kb_manifest_backends(store, bc, NULL);
out:
	free(why);
	return ret;
}

/* Boots per variant: as configured, but one under a deterministic backend
 * when the configuration does not say (its boots only repeat the counts). */
static void boots_per_variant(struct kb_conf *conf, struct kb_store *store,
			      const struct kb_backends_chosen *bc)
{
	long at_once = kb_boots_concurrent(bc) ? conf->run_jobs : 1;
	const char *why;

	if (kb_conf_key_line(conf, KB_SEC_RUN, "boots")) {
		why = "boots in the configuration";
	} else if (bc->primary.b->flags & KB_BACKEND_DETERMINISTIC) {
		conf->boots = 1;
		why = "the backend is deterministic: every boot of a kernel gives the same counts, "
		      "so one boot per variant suffices (boots = N asks for more)";
		kb_info("boots: 1 per variant (backend %s is deterministic)", bc->primary.b->name);
	} else {
		why = "the default for a backend that measures time";
	}
	kb_manifest_boots(store, conf->boots, why, at_once);
}

/* The stages after the measuring boots (hyperfine's whole-boot timing);
 * returns how many of their parts failed. */
static long stages(const struct kb_conf *conf, const struct kb_boots *env, const struct kb_plan *plan,
		   const struct kb_run_variant *vs, int resume)
{
	struct kb_stage_variant *sv = kb_xcalloc(conf->n_variants + 1, sizeof(*sv));
	struct kb_backend_stage st = {
		.store = env->store, .variants = sv, .n = conf->n_variants, .first_id = plan->total + 1,
		.accel = env->accel, .image = env->image, .seed = conf->seed, .timeout = conf->timeout,
		.memory = conf->memory, .resume = resume, .arch = conf->arch,
	};
	long bad = 0;

	/* each variant as configured: its layout 0 */
	for (size_t i = 0; i < conf->n_variants; i++) {
		const struct kb_run_variant *rv = &vs[i * (kb_run_n(conf) / conf->n_variants)];

		sv[i] = (struct kb_stage_variant){ rv->v->name, rv->k.bzimage, rv->v->cmdline,
						   rv->built };
	}
	for (size_t i = 0; i < env->backends->n_stages && !kb_interrupted; i++)
		bad += env->backends->stages[i].b->stage(env->backends->stages[i].priv, &st);
	free(sv);
	return bad;
}

/* How a run ended, for finish. */
struct outcome {
	const char *incomplete;	/* why a resume is needed, or NULL */
	long ran, bad_boots, unfinished;
	size_t nbuilt;
	double t0;
};

/* The run's report and its last state in the manifest ("complete" only once
 * the report is written: a run killed while reporting resumes into its
 * report), then what it did and how to go on; the exit code, from ret. */
static int finish(struct kb_store *store, const struct kb_conf *conf, int ret, struct outcome *o)
{
	char write_why[PATH_MAX + 128];
	const char *first_write;

	kb_manifest_state(store, kb_interrupted ? "interrupted" : ret == KB_EXIT_NOT_SUPPORTED ?
			  "stopped" : "reporting", kb_now() - o->t0);
	if (kb_report_write_term(store->dir, &(struct kb_model_opts)KB_MODEL_OPTS_INIT, stdout) < 0) {
		ret = KB_EXIT_FAILED;
		if (!o->incomplete)
			o->incomplete = "the report's files could not all be written";
	}
	if (!o->incomplete && kb_store_write_errors(&first_write)) {
		snprintf(write_why, sizeof(write_why), "%ld write%s to the run directory failed (the "
			 "first to '%s')", kb_store_write_errors(NULL),
			 kb_store_write_errors(NULL) == 1 ? "" : "s", first_write);
		o->incomplete = write_why;
	}
	/* complete: everything measured, or failed for a reason a resume
	 * cannot change (a kernel that does not build); boots whose jobs
	 * ended without an outcome, or a step that failed otherwise: --resume */
	if (!kb_interrupted && ret != KB_EXIT_NOT_SUPPORTED) {
		if (o->incomplete)
			ret = KB_EXIT_FAILED;
		kb_manifest_state(store, o->incomplete ? "incomplete" : o->unfinished ? "unfinished" :
				  "complete", kb_now() - o->t0);
	}
	if (o->incomplete && !kb_interrupted && ret != KB_EXIT_NOT_SUPPORTED)
		kb_error("the run is incomplete: %s; once the cause is fixed, resume it with: kbench run "
			 "--resume %s", o->incomplete, store->dir);
	if (kb_interrupted)
		kb_info("interrupted: finished samples are kept; resume with: kbench run --resume %s",
			store->dir);
	else if (o->unfinished)
		kb_info("%ld boot%s did not finish; run %s with: kbench run --resume %s", o->unfinished,
			o->unfinished == 1 ? "" : "s", o->unfinished == 1 ? "it" : "them", store->dir);
	if (!kb_interrupted)
		kb_info("%ld boots, %ld failed; %zu of %zu %s built; %.0f s", o->ran, o->bad_boots,
			o->nbuilt, kb_run_n(conf), conf->layouts > 1 ? "layout replicas" : "variants",
			kb_now() - o->t0);
	return ret;
}

int kb_run_main(const char *path, const char *confdir, int resume, const char *executor,
		char **run_dir)
{
	return kb_run_main_opts(path, confdir, resume, executor, run_dir, NULL);
}

/* --dry-run: the configuration checked as for a run, then the plan. */
static int dry_run(const char *path, const char *confdir, const char *executor,
		   const struct kb_run_opts *o)
{
	struct kb_conf conf = { 0 };
	int r = KB_EXIT_USAGE;

	if (kb_conf_load_set(&conf, path, confdir, o->sets, o->n_sets) == 0 &&
	    kb_conf_check_paths(&conf) == 0) {
		if (executor) {
			free(conf.executor);
			conf.executor = kb_xstrdup(executor);
		}
		r = kb_run_dry(&conf, stdout);
	}
	kb_conf_release(&conf);
	return r;
}

int kb_run_main_opts(const char *path, const char *confdir, int resume, const char *executor,
		     char **run_dir, const struct kb_run_opts *opts)
{
	static const struct kb_run_opts none;
	const struct kb_run_opts *o = opts ? opts : &none;
	struct kb_conf conf = { 0 };
	struct kb_store store = { 0 };
	struct kb_backends_chosen bc = { 0 };
	struct kb_plan plan = { 0 };
	struct kb_run_variant *vs = NULL;
	struct kb_boots env = { .conf = &conf, .store = &store, .backends = &bc };
	struct kb_executor_run ex = { 0 };
	char *runner = NULL, *image = NULL, *logdir = NULL;
	long bad_boots = 0, bad_stages = 0, ran = 0, unfinished = 0, io_failed = 0;
	/* a step that failed for a reason a resume can change (no space, an
	 * I/O error, Slurm refusing a job): the run is not complete */
	const char *incomplete = NULL;
	size_t nbuilt = 0, first;
	int lockfd = -1, failed = 0, refused = 0, ret = KB_EXIT_FAILED, r;
	double t0 = kb_now();

	if (run_dir)
		*run_dir = NULL;
	if (o->dry_run)
		return dry_run(path, confdir, executor, o);
	r = resume ? resume_run(path, executor, o, &conf, &store, &lockfd)
		   : start_run(path, confdir, executor, o, &conf, &store, &lockfd);
	if (r) {
		if (lockfd >= 0)
			close(lockfd);
		kb_store_release(&store);
		kb_conf_release(&conf);
		return r;
	}
	kb_install_signal_handlers();
	kb_info("%s run directory %s", resume ? "resuming" : "new", store.dir);
	if (run_dir)
		*run_dir = kb_xstrdup(store.dir);

	vs = kb_run_variants_new(&conf);
	logdir = kb_store_path(&store, "variants");
	kb_manifest_executor(&store, conf.executor);
	executor_run_init(&ex, &conf);
	ex.store = &store;
	ex.logdir = logdir;
	ex.env = &env;
	ex.t0 = t0;
	/* what it builds, the pass below finds cached */
	if ((ex.e->init && ex.e->init(&ex) < 0) || ex.e->builds(&ex, vs) < 0) {
		incomplete = ex.why;
		goto report;
	}
	failed = kb_interrupted ? 0 : kb_run_build(&conf, vs, &store, logdir);
	if (failed < 0)
		incomplete = "the kernel source or the run directory could not be prepared";
	if (failed < 0 || kb_interrupted)
		goto report;	/* the manifest and report say what was tried */
	for (size_t i = 0; i < kb_run_n(&conf); i++) {
		nbuilt += vs[i].built != 0;
		io_failed += vs[i].io_failed;
	}
	if (io_failed)
		incomplete = "a built kernel's files could not be copied into the run directory";
	if (!nbuilt) {
		kb_error("no variant built: nothing to boot");
		goto report;
	}
	runner = find_runner(conf.arch);
	image = kb_store_path(&store, "initramfs.cpio");
	if (kb_image_write(image, runner, conf.arch) < 0) {
		incomplete = "the guest's initramfs could not be written";
		goto report;
	}
	env.image = image;
	for (first = 0; !vs[first].built; first++)
		;	/* one was built (nbuilt) */
	r = choose(&conf, &store, resume, &vs[first], image, &env.accel, &bc, &refused);
	if (r) {
		ret = r;
		goto report;
	}
	kb_manifest_state(&store, "running", kb_now() - t0);
	boots_per_variant(&conf, &store, &bc);
	env.jobs = conf.run_jobs;

	kb_plan_make(&plan, vs, kb_run_n(&conf), conf.boots, conf.seed);
	kb_plan_read_done(&plan, &store);
	if (resume) {
		/* Samples of a boot that never finished are dropped: it runs again. */
		if (kb_boots_drop_partial(&env, &plan) < 0) {
			incomplete = "the samples of unfinished boots could not be dropped";
			goto report;
		}
		kb_info("%ld of %ld boots finished before; %zu to go", plan.total - (long)plan.n_todo,
			plan.total, plan.n_todo);
	}
	ex.builds_failed = failed;
	bad_boots = ex.e->boots(&ex, &plan, vs);
	ran = ex.ran;
	unfinished = ex.unfinished;
	if (bad_boots < 0) {
		bad_boots = 0;
		incomplete = ex.why;
		goto report;
	}
	if (!kb_interrupted)
		bad_stages = stages(&conf, &env, &plan, vs, resume);
	ret = failed || bad_boots || bad_stages ? KB_EXIT_FAILED : KB_EXIT_OK;
report:
	if (ex.e && ex.e->cancel)
		ex.e->cancel(&ex);	/* whatever is still queued: the run stops here */
	if (kb_interrupted)
		ret = 128 + (int)kb_interrupted;
	if (refused)
		goto out;
	ret = finish(&store, &conf, ret,
		     &(struct outcome){ incomplete, ran, bad_boots, unfinished, nbuilt, t0 });
out:
	kb_run_variants_free(&conf, vs);
	kb_plan_release(&plan);
	kb_backends_release(&bc);
	if (ex.e && ex.e->release)
		ex.e->release(&ex);
	free(runner);
	free(image);
	free(logdir);
	kb_store_release(&store);
	kb_conf_release(&conf);
	if (lockfd >= 0)
		close(lockfd);
	return ret;
}
