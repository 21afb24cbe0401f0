// SPDX-License-Identifier: GPL-2.0-or-later
/* Backend "clock": the guest's own clock_gettime around each region, and
 * whatever counters the guest's PMU gives (counters.c, in the runner).  The
 * fallback primary: it works everywhere, and means speed under KVM only. */
#include "config.h"

#include <string.h>

#include "backend.h"
#include "util.h"

static int choose(const struct kb_backend_env *env, void **priv, char **why)
{
	(void)priv;
	if (!strcmp(env->want_primary, kb_backend_clock.name))
		*why = kb_xasprintf("backend = %s in the configuration", kb_backend_clock.name);
	else
		*why = kb_xstrdup(env->declined ? env->declined : "no other backend accepted");
	return 1;
}

static int usable(const struct kb_host *host)
{
	(void)host;
	return 1;
}

static void metric(const char *field, enum kb_accel accel, const json_t *described,
		   struct kb_metric_desc *d)
{
	(void)described;
	d->source = KB_FIG_MEASURED;
	if (field)
		d->note = "hardware performance counters read in the guest (perf_event_open)";
	else if (accel == KB_ACCEL_TCG)
		d->note = "emulated time under TCG: a property of QEMU's translation as much as of the kernel";
	else
		d->note = "wall time in the guest";
}

const struct kb_backend kb_backend_clock = {
	.name = "clock",
	.api = KB_BACKEND_API,
	.role = KB_ROLE_PRIMARY,
	.source = KB_FIG_MEASURED,
	.flags = KB_BACKEND_TIMES,
	.help = "wall time per operation in the guest (clock_gettime), and the guest's own "
		"counters where it has a PMU; speed under KVM only",
	.usable = usable,
	.choose = choose,
	.metric = metric,
};
