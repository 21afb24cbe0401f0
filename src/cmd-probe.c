// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench probe: what this host can measure (probe.c), and which backends
 * can run here. */
#include "config.h"

#include <getopt.h>
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

static int cmd_probe(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' }, { "no-kvm", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const struct kb_backend *const *bs;
	size_t nb;
	int opt;
	int as_json = 0, check_kvm = 1;
	json_t *j, *cpu, *caches;
	const char *k;
	json_t *v;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (opt == 'j')
			as_json = 1;
		else if (opt == 'n')
			check_kvm = 0;
		else
			return kb_command_usage(&kb_command_probe, opt == 'h' ? KB_EXIT_OK : KB_EXIT_USAGE);
	}
	if (optind != argc)
		return kb_command_usage(&kb_command_probe, KB_EXIT_USAGE);
	j = kb_probe_host(check_kvm);
	if (as_json) {
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

const struct kb_command kb_command_probe = {
	.name = "probe",
	.summary = "what this host can measure (KVM, PMU, caches, QEMU)",
	.usage = "usage: kbench probe [--json] [--no-kvm]\n\n"
		 "What this host can measure: KVM (a guest really run), host PMU,\n"
		 "perf_event_paranoid, CPU and caches (libcpuid), QEMU and its plugin support,\n"
		 "the compiler, and the backends that can run here.\n\n"
		 "  --json    print it as JSON\n"
		 "  --no-kvm  skip the KVM boot probe (seconds)\n",
	.fn = cmd_probe,
};
