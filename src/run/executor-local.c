// SPDX-License-Identifier: GPL-2.0-or-later
/* executor = local (executor.h): builds and boots here, the builds at most
 * [run] jobs at a time, the boots as kb_boots_concurrent allows. */
#include "config.h"

#include "boot.h"
#include "executor.h"
#include "run.h"

static int local_builds(struct kb_executor_run *x, struct kb_run_variant *vs)
{
	kb_run_prebuild(x->conf, vs, x->logdir);
	return 0;
}

static long local_boots(struct kb_executor_run *x, const struct kb_plan *plan,
			struct kb_run_variant *vs)
{
	return kb_boots_run(x->env, plan, vs, x->t0, &x->ran);
}

const struct kb_executor kb_executor_local = {
	.name = "local", .api = KB_EXECUTOR_API, .builds = local_builds, .boots = local_boots,
};
