// SPDX-License-Identifier: GPL-2.0-or-later
/* Backend "pmu-host": guest-only (exclude_host) hardware counters that
 * kbench reads on the QEMU vCPU thread around each region (pmuhost.c): real
 * cycles, instructions, L1i, iTLB and branch misses of the guest.  Needs KVM
 * and a host PMU; none of the development machines has either, so this path
 * is checked only as far as its software twin (host-sw) reaches. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "pmuhost.h"
#include "probe.h"
#include "util.h"

static int choose(const struct kb_backend_env *env, void **priv, char **why)
{
	int asked = !strcmp(env->want_host, "hardware");
	int clock = env->primary == &kb_backend_clock, kvm = env->accel == KB_ACCEL_KVM;
	char *hw = NULL;

	(void)priv;
	if (!asked && strcmp(env->want_host, "auto")) {
		*why = kb_xasprintf("host_counters = %s in the configuration", env->want_host);
		return 0;
	}
	if (asked && !clock) {
		*why = kb_xasprintf("host_counters = hardware needs backend = clock (the %s backend "
				    "measures on its own)", env->primary->name);
		return -1;
	}
	if (asked && !kvm) {
		*why = kb_xasprintf("host_counters = hardware counts guest-only events, which needs "
				    "KVM; this run uses %s", kb_accel_name(env->accel));
		return -1;
	}
	if (!clock || !kvm) {
		*why = kb_xasprintf("host_counters = auto: guest-only host counters need KVM and "
				    "backend clock (this run: %s, %s)", kb_accel_name(env->accel),
				    env->primary->name);
		return 0;
	}
	if (!kb_pmuhost_hardware_usable(&hw)) {
		*why = asked ? hw : kb_xasprintf("host_counters = auto: %s", hw);
		if (!asked)
			free(hw);
		return asked ? -1 : 0;
	}
	*why = kb_xstrdup("guest-only (exclude_host) cycles, instructions, L1i, iTLB and branch "
			  "misses on the QEMU vCPU thread per region");
	return 1;
}

static void *boot_new(void *priv, const struct kb_backend_boot *b)
{
	(void)priv;
	return kb_pmuhost_boot_new(KB_PMUHOST_HARDWARE, kb_backend_pmu_host.name, b);
}

static int usable(const struct kb_host *host)
{
	return host->host_pmu.usable == 1 && host->kvm.usable == 1;
}

static void metric(const char *field, enum kb_accel accel, const json_t *described,
		   struct kb_metric_desc *d)
{
	(void)described;
	kb_pmuhost_metric(field, accel, "guest-only hardware counters read on the host "
			  "(exclude_host, QEMU vCPU thread)", d);
}

const struct kb_backend kb_backend_pmu_host = {
	.name = "pmu-host",
	.api = KB_BACKEND_API,
	.role = KB_ROLE_OVERLAY,
	.source = KB_FIG_MEASURED,
	.flags = KB_BACKEND_TIMES,
	.help = "guest-only hardware counters on the QEMU vCPU thread per region (KVM and a host PMU)",
	.usable = usable,
	.choose = choose,
	.boot_new = boot_new,
	KB_PMUHOST_HOOKS,
	.metric = metric,
};
