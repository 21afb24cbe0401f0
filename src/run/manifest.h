/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_MANIFEST_H
#define KB_MANIFEST_H

/*
 * manifest.json: what a run was (configuration, host, kernel, variants and
 * how each built, accelerator and backends with the reasons for each
 * choice, state).  Every write goes through here and is saved at once
 * (atomically), so that whatever happens later the run says what it was.
 */

#include "backend.h"
#include "build.h"
#include "run.h"
#include "size.h"
#include "store.h"

/* A new run's manifest: the configuration (its --set options as given, in
 * "overrides"), the host, every variant pending. */
int kb_manifest_init(struct kb_store *s, const struct kb_conf *conf);
/* The kernel source all variants are built from. */
int kb_manifest_kernel(struct kb_store *s, const struct kb_conf *conf, const struct kb_source *src);
/* A variant's replica: how its build went (build_ok; rv->built says whether
 * the run directory has its copies too), its size (or NULL), where the run
 * keeps it, as entry rv->layout.layout of the variant's "replicas" ({layout,
 * seed, pad, text, key, cached, status...}); layout 0's also as the
 * variant's own fields. */
int kb_manifest_variant(struct kb_store *s, const struct kb_run_variant *rv, int build_ok,
			const struct kb_size *size);
/* The accelerator chosen (NULL: none could be had) and why. */
int kb_manifest_accel(struct kb_store *s, const char *accel, const char *why);
/* The backends chosen, each with why; c NULL when none could be had
 * (failed_why says why). */
int kb_manifest_backends(struct kb_store *s, const struct kb_backends_chosen *c,
			 const char *failed_why);
/* Boots per variant as the run does them, and why (a deterministic
 * backend's one boot where the configuration did not say); at_once, how
 * many boots run at the same time (1 for a backend that measures time). */
int kb_manifest_boots(struct kb_store *s, long boots, const char *why, long at_once);
/* Who runs the builds and boots ("local", "slurm"): a resume may change it. */
int kb_manifest_executor(struct kb_store *s, const char *executor);
/* "starting", "running", "reporting", "complete", "interrupted" or
 * "stopped", with the run's seconds. */
int kb_manifest_state(struct kb_store *s, const char *state, double seconds);

/* On --resume: the run directory's variants.conf (conf, loaded from it
 * with its --set options) is still the one the run began with, by its
 * SHA-256, and its --set options ("overrides") the same; where not, -1
 * after a message naming each key changed, added or taken out.  0 where
 * only comments or blanks changed (a warning), and for a run from before
 * the manifest recorded it (a warning that it cannot be checked). */
int kb_manifest_config_check(const struct kb_store *s, const struct kb_conf *conf);

/* A string of the manifest by path ("accel.chosen"), or NULL. */
const char *kb_manifest_str(const struct kb_store *s, const char *path);

#endif
