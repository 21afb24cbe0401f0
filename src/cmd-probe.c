// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench probe: what this host can measure (probe.c), and which backends
 * can run here. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "commands.h"
#include "probe.h"
#include "util.h"

static const char *yes_no(json_t *b)
{
	return json_is_null(b) ? "not probed" : json_is_true(b) ? "yes" : "no";
}

/* --json sets [0], --no-kvm [1] */
static int option(void *ctx, int key, const char *value)
{
	int *flags = ctx;

	(void)value;
	flags[key == KB_LONG('n')] = 1;
	return KB_GO_ON;
}

static int cmd_probe(int argc, char **argv)
{
	const struct kb_backend *const *bs;
	size_t nb;
	int flags[2] = { 0, 0 }, r = kb_command_parse(&kb_command_probe, &argc, &argv, option, flags);
	json_t *j, *cpu, *caches;
	const char *k;
	json_t *v;

	if (r != KB_GO_ON)
		return r;
	if (argc != 0)
		return kb_command_usage_error(&kb_command_probe, "no operands, but '%s'", argv[0]);
	j = kb_probe_host(!flags[1]);
	if (flags[0]) {
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(j);
		return KB_EXIT_OK;
	}
	cpu = json_object_get(j, "cpu");
	printf("cpu:                 %s\n", json_string_value(json_object_get(cpu, "brand")) ?:
	       json_string_value(json_object_get(cpu, "error")) ?: "?");
	caches = json_object_get(cpu, "caches");
	json_object_foreach(caches, k, v)
		printf("  %-4s               %lld KiB, %lld-way, %lld-byte lines\n", k,
		       json_integer_value(json_object_get(v, "size_kib")),
		       json_integer_value(json_object_get(v, "ways")),
		       json_integer_value(json_object_get(v, "line")));
	printf("hypervisor:          %s\n", yes_no(json_object_get(cpu, "hypervisor")));
	printf("tcg usable:          %s (%s)\n", yes_no(json_object_get(json_object_get(j, "tcg"), "usable")),
	       json_string_value(json_object_get(json_object_get(j, "tcg"), "why")));
	printf("kvm usable:          %s (%s)\n", yes_no(json_object_get(json_object_get(j, "kvm"), "usable")),
	       json_string_value(json_object_get(json_object_get(j, "kvm"), "why")));
	v = json_object_get(j, "host_pmu");
	printf("host pmu:            %s%s%s%s\n", yes_no(json_object_get(v, "usable")),
	       json_is_string(json_object_get(v, "why")) ? " (" : "",
	       json_string_value(json_object_get(v, "why")) ?: "",
	       json_is_string(json_object_get(v, "why")) ? ")" : "");
	printf("perf_event_paranoid: %lld\n",
	       json_integer_value(json_object_get(j, "perf_event_paranoid")));
	v = json_object_get(j, "qemu");
	printf("qemu:                %s\n", json_string_value(json_object_get(v, "version")) ?: "not found");
	printf("qemu plugins:        %s\n", yes_no(json_object_get(v, "plugins")));
	printf("compiler:            %s\n", json_string_value(json_object_get(j, "compiler")) ?: "not found");
	printf("backends:           ");
	bs = kb_backends(&nb);
	for (size_t i = 0, n = 0; i < nb; i++)
		if (bs[i]->usable(j))
			printf("%s %s", n++ ? "," : "", bs[i]->name);
	printf("\n");
	json_decref(j);
	return KB_EXIT_OK;
}

static const struct kb_command_option options[] = {
	{ "json", KB_LONG('j'), NULL, "print it as JSON" },
	{ "no-kvm", KB_LONG('n'), NULL, "skip the KVM boot probe (seconds)" },
	{ 0 },
};

const struct kb_command kb_command_probe = {
	.name = "probe",
	.summary = "what this host can measure (KVM, PMU, caches, QEMU)",
	.usage = "usage: kbench probe [--json] [--no-kvm]\n\n"
		 "What this host can measure: KVM (a guest really run), host PMU,\n"
		 "perf_event_paranoid, CPU and caches (libcpuid), QEMU and its plugin support,\n"
		 "the compiler, and the backends that can run here.\n",
	.options = options,
	.fn = cmd_probe,
};
