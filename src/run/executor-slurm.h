/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_EXECUTOR_SLURM_H
#define KB_EXECUTOR_SLURM_H

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
 * No accounting database: squeue while jobs run, scontrol after.  The
 * driver's side is the executor's hooks (executor.h); this is the jobs'.
 */

#include <stddef.h>

struct kb_run_variant;

/* The jobs' side (kbench job): the kernel a build job made, for the boot
 * jobs (RUN/slurm/kernel-INDEX.json); 0 or -1 after a message. */
int kb_slurm_write_kernel(const char *run_dir, size_t index, const struct kb_run_variant *rv);
int kb_slurm_read_kernel(const char *run_dir, size_t index, struct kb_run_variant *rv);
/* The plan's boot seq: its variant's index and its boot number of that
 * variant, and the plan's total (RUN/slurm/plan.json). */
int kb_slurm_read_plan(const char *run_dir, long seq, size_t *variant, long *vboot, long *total);

#endif
