/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_EXECUTOR_H
#define KB_EXECUTOR_H

/*
 * [run] executor = slurm: each build and each boot of a run is a Slurm job
 * that runs `kbench job build|boot` on the run directory.  The builds are one
 * job array (task u builds run variant u, a variant's layout replica, into
 * the shared cache and says so in RUN/slurm/kernel-u.json); the boots a
 * second array (task id = the boot's seq in the plan) that depends on it,
 * submitted once the driver has recorded the builds and chosen the
 * accelerator and backends with a built kernel.  Boot jobs append whole lines to
 * samples.jsonl and boots.jsonl as local boots do; what finished is what
 * boots.jsonl says, as for --resume.  Only the driver writes the manifest.
 * No accounting database: squeue while jobs run, scontrol after.
 */

#include "boot.h"
#include "plan.h"
#include "run.h"

struct kb_slurm {
	const struct kb_conf *conf;
	struct kb_store *store;
	char *dir;		/* RUN/slurm: scripts, plan, kernels, Slurm's output */
	char *self;		/* this kbench, which the jobs run */
	char builds[32];	/* the arrays' job ids; "" none */
	char boots[32];
	int exclusive;		/* timed boots: whole nodes */
	double t0;
};

/* Before a run directory is made: sbatch, squeue, scontrol, scancel and
 * sinfo at hand and a controller that answers (else -ENOTSUP), the
 * partition has nodes, and dir (the results directory, or the run
 * directory on --resume) and the build cache are not local to this
 * machine when it has more than one (else -EINVAL); each after a message
 * naming the key or the path.  0 when all is well. */
int kb_slurm_check(const struct kb_conf *conf, const char *dir);
/* RUN/slurm with the probe every job looks for.  0, or -1 after a message. */
int kb_slurm_init(struct kb_slurm *s, const struct kb_conf *conf, struct kb_store *store);
void kb_slurm_release(struct kb_slurm *s);

/* One build job per run variant (kb_run_n) that is not a prebuilt pair
 * (for those, the driver writes kernel-u.json itself).  0, or -1 after a
 * message. */
int kb_slurm_submit_builds(struct kb_slurm *s, const struct kb_run_variant *vs);
/* The plan's unfinished boots as one array (whole nodes when exclusive),
 * after the build array (afterok) when after_builds and there was one.
 * 0 (also with nothing to do), or -1 after a message. */
int kb_slurm_submit_boots(struct kb_slurm *s, const struct kb_plan *plan,
			  const struct kb_run_variant *vs, int exclusive, int after_builds);
/* Wait for the build array with a progress line; a replica whose job
 * failed gets vs[u].not_built (its job's state and log), one its job built
 * now vs[u].pre.  0, or -1 when interrupted (the jobs are cancelled). */
int kb_slurm_wait_builds(struct kb_slurm *s, struct kb_run_variant *vs);
/* Wait for the boot array with a progress line; every boot that did not end
 * ok is reported (an unfinished one with its job's state and log tail).
 * Returns the failed boots, as kb_boots_run does; *ran, the boots submitted;
 * *unfinished, those of them with no outcome (--resume runs them);
 * the variants' boots_done count the plan's boots.  When interrupted, the
 * jobs are cancelled first. */
long kb_slurm_wait_boots(struct kb_slurm *s, const struct kb_plan *plan, struct kb_run_variant *vs,
			 long *ran, long *unfinished);
/* scancel every array of the run still queued or running; it is then
 * forgotten. */
void kb_slurm_cancel(struct kb_slurm *s);

/* The jobs' side (kbench job): the kernel a build job made, for the boot
 * jobs (RUN/slurm/kernel-INDEX.json); 0 or -1 after a message. */
int kb_slurm_write_kernel(const char *run_dir, size_t index, const struct kb_run_variant *rv);
int kb_slurm_read_kernel(const char *run_dir, size_t index, struct kb_run_variant *rv);
/* The plan's boot seq: its variant's index and its boot number of that
 * variant, and the plan's total (RUN/slurm/plan.json). */
int kb_slurm_read_plan(const char *run_dir, long seq, size_t *variant, long *vboot, long *total);

#endif
