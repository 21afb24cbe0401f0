// SPDX-License-Identifier: GPL-2.0-or-later
/* Backend "hyperfine": after the measuring boots, hyperfine times whole
 * boots of each variant (boottime.c), reported as workload "boot" with its
 * own statistics, never mixed into the per-operation verdicts. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "boottime.h"
#include "rundir.h"
#include "store.h"
#include "util.h"

struct hf_opts {
	long runs, warmup;
};

#define OFF(f) offsetof(struct hf_opts, f)
static const struct kb_option options[] = {
	{ .name = "boot_runs", .section = KB_SEC_RUN, .type = KB_OPT_LONG, .off = OFF(runs),
	  .def = "10", .min = 0, .max = 10000,
	  .help = "whole boots per variant timed by hyperfine (QEMU start to guest exit, no "
		  "workload), reported as workload 'boot'; 0: none" },
	{ .name = "boot_warmup", .section = KB_SEC_RUN, .type = KB_OPT_LONG, .off = OFF(warmup),
	  .def = "1", .min = 0, .max = 100,
	  .help = "untimed boots hyperfine runs before the timed ones (page cache, QEMU's files)" },
	{ NULL },
};

static int choose(const struct kb_backend_env *env, void **priv, char **why)
{
	const struct hf_opts *o = env->opts;

	if (!o->runs) {
		*why = kb_xstrdup("boot_runs = 0 in the configuration");
		return 0;
	}
	*priv = (void *)o;
	*why = kb_xasprintf("%ld whole boots per variant after %ld warm-up", o->runs, o->warmup);
	return 1;
}

static json_t *describe(const void *priv)
{
	const struct hf_opts *o = priv;

	return json_pack("{s:I,s:I}", "boot_runs", (json_int_t)o->runs, "boot_warmup",
			 (json_int_t)o->warmup);
}

/* The boot id of timed run 1 of variant vi: past every measuring boot, each
 * variant's runs in a block of their own, whichever order they run in (the
 * order is timing.jsonl's sequence). */
static long first_id(const struct kb_backend_stage *st, const struct hf_opts *o, size_t vi)
{
	return st->first_id + (long)vi * o->runs;
}

/* The variants' boots interleaved, in rounds (kb_boottime_rounds); returns
 * the number of variants whose timing failed. */
static long stage(void *priv, const struct kb_backend_stage *st)
{
	const struct hf_opts *o = priv;
	struct kb_boottime_params p = { o->runs, o->warmup, st->timeout, st->memory,
					st->arch ? st->arch : "i386" };
	json_t *done = kb_boottime_done(st->store);
	struct kb_boottime_job *jobs = kb_xcalloc(st->n + 1, sizeof(*jobs));
	long *drop = kb_xcalloc((size_t)o->runs * st->n + 1, sizeof(*drop));
	size_t n = 0, ndrop = 0;
	long bad = 0;

	for (size_t i = 0; i < st->n; i++) {
		const struct kb_stage_variant *v = &st->variants[i];

		if (!v->built || json_object_get(done, v->name))
			continue;
		jobs[n++] = (struct kb_boottime_job){ v->name, v->bzimage, v->cmdline, first_id(st, o, i) };
		for (long r = 0; r < o->runs; r++)
			drop[ndrop++] = first_id(st, o, i) + r;
	}
	/* a timing cut short left no timing.jsonl line: its samples go */
	if (st->resume && ndrop && kb_store_drop_lines(st->store, KB_RD_SAMPLES, KB_RD_BOOT, drop, ndrop) < 0) {
		bad = (long)n;
		n = 0;
	}
	if (n)
		bad += kb_boottime_rounds(&p, st->store, jobs, n, st->accel, st->image, st->seed);
	json_decref(done);
	free(jobs);
	free(drop);
	return bad;
}

static int usable(const struct kb_host *host)
{
	(void)host;
	return 1;	/* wherever QEMU runs; hyperfine's absence is said when it is missing */
}

static void metric(const char *field, enum kb_accel accel, const json_t *described,
		   struct kb_metric_desc *d)
{
	(void)described;
	(void)field;
	d->source = KB_FIG_MEASURED;
	d->label = "whole boot time";
	d->unit = "ns";
	d->note = accel != KB_ACCEL_TCG ? "host wall time of the whole boot"
				       : "emulated time under TCG: host wall time of QEMU emulating the whole boot";
}

const struct kb_backend kb_backend_hyperfine = {
	.name = KB_BOOTTIME_BACKEND,
	.api = KB_BACKEND_API,
	.role = KB_ROLE_STAGE,
	.source = KB_FIG_MEASURED,
	.flags = KB_BACKEND_TIMES,
	.help = "whole boots timed by hyperfine after the measuring boots (workload 'boot')",
	.options = options,
	.opts_size = sizeof(struct hf_opts),
	.usable = usable,
	.choose = choose,
	.describe = describe,
	.stage = stage,
	.stage_file = KB_RD_TIMING,
	.metric = metric,
};
