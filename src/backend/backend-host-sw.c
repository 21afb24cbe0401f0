// SPDX-License-Identifier: GPL-2.0-or-later
/* Backend "host-sw": the QEMU vCPU thread's software events (page faults,
 * context switches, task-clock) around each region, read on the host by the
 * same code as pmu-host (pmuhost.c): what running the region cost the host;
 * under TCG, the cost of emulating it. */
#include "config.h"

#include <string.h>

#include "backend.h"
#include "pmuhost.h"
#include "probe.h"
#include "util.h"

static int choose(const struct kb_backend_env *env, void **priv, char **why)
{
	(void)priv;
	if (strcmp(env->want_host, "software")) {
		*why = kb_xasprintf("host_counters = %s in the configuration", env->want_host);
		return 0;
	}
	if (env->primary != &kb_backend_clock) {
		*why = kb_xasprintf("host_counters = software needs backend = clock (the %s backend "
				    "measures on its own)", env->primary->name);
		return -1;
	}
	*why = kb_xasprintf("host_counters = software: page faults, context switches and "
			    "task-clock of the QEMU vCPU thread per region (%s)",
			    env->accel != KB_ACCEL_TCG ? "the host's share of running the guest"
						      : "the cost of emulating it under TCG");
	return 1;
}

static void *boot_new(void *priv, const struct kb_backend_boot *b)
{
	(void)priv;
	return kb_pmuhost_boot_new(KB_PMUHOST_SOFTWARE, kb_backend_host_sw.name, b);
}

static int usable(const struct kb_host *host)
{
	return host->host_sw;
}

static void metric(const char *field, enum kb_accel accel, const json_t *described,
		   struct kb_metric_desc *d)
{
	(void)described;
	kb_pmuhost_metric(field, accel, "host software events of the QEMU vCPU thread: what the "
			  "region cost the host", d);
}

const struct kb_backend kb_backend_host_sw = {
	.name = "host-sw",
	.api = KB_BACKEND_API,
	.role = KB_ROLE_OVERLAY,
	.source = KB_FIG_MEASURED,
	.flags = KB_BACKEND_TIMES,
	.help = "the QEMU vCPU thread's page faults, context switches and task-clock per region",
	.usable = usable,
	.choose = choose,
	.boot_new = boot_new,
	KB_PMUHOST_HOOKS,
	.metric = metric,
};
