// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench probe: what this host can measure (probe.c), and which backends
 * can run here. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "commands.h"
#include "mca.h"
#include "probe.h"
#include "util.h"

#define MCA_MISSING "not found (package llvm): mca_cycles falls back to model_cycles"

static const char *yes_no(int b)
{
	return b < 0 ? "not probed" : b ? "yes" : "no";
}

/* --json sets [0], --no-kvm [1] */
static int option(void *ctx, int key, const char *value)
{
	int *flags = ctx;

	(void)value;
	flags[key == KB_LONG('n')] = 1;
	return KB_GO_ON;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The kernel compilers in $PATH a variant's cc may name: gcc and clang,
 * plain or with a version (gcc-12, clang-19), each once (the first in
 * $PATH order), with its --version's first line; as "NAME\tVERSION" lines
 * sorted by name. */
static char **compilers(size_t *n)
{
	const char *path = getenv("PATH");
	char *dirs = kb_xstrdup(path && *path ? path : "/usr/bin:/bin"), *save = NULL, **out = NULL;

	*n = 0;
	for (char *dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		DIR *d = opendir(*dir ? dir : ".");
		struct dirent *de;

		while (d && (de = readdir(d))) {
			const char *name = de->d_name, *v;
			size_t i;
			int dup = 0;

			v = !strncmp(name, "gcc", 3) ? name + 3 : !strncmp(name, "clang", 5) ? name + 5 : NULL;
			if (!v || (*v && (*v != '-' || !isdigit((unsigned char)v[1]))))
				continue;
			for (i = *v ? 2 : 0; v[i] && isdigit((unsigned char)v[i]); i++)
				;
			if (v[i])
				continue;
			for (i = 0; i < *n && !dup; i++)
				dup = !strncmp(out[i], name, strlen(name)) && out[i][strlen(name)] == '\t';
			if (!dup) {
				char *prog = kb_xasprintf("%s/%s", *dir ? dir : ".", name);
				char *argv[] = { prog, "--version", NULL };
				char *line = access(prog, X_OK) == 0 ? kb_capture_line(argv, 0) : NULL;

				if (line) {
					out = kb_xrealloc(out, (*n + 1) * sizeof(*out));
					out[(*n)++] = kb_xasprintf("%s\t%s", name, line);
				}
				free(line);
				free(prog);
			}
		}
		if (d)
			closedir(d);
	}
	free(dirs);
	qsort(out, *n, sizeof(*out), by_name);
	return out;
}

static int cmd_probe(int argc, char **argv)
{
	const struct kb_backend *const *bs;
	size_t nb;
	int flags[2] = { 0, 0 }, r = kb_command_parse(&kb_command_probe, &argc, &argv, option, flags);
	struct kb_host h;
	char *mca, *mca_ver, **cc;
	size_t ncc;

	if (r != KB_GO_ON)
		return r;
	if (argc != 0)
		return kb_command_usage_error(&kb_command_probe, "no operands, but '%s'", argv[0]);
	kb_probe_host(&h, !flags[1]);
	/* the default cycle model's tool, found as the sim backend finds it */
	mca = kb_mca_locate(&mca_ver);
	cc = compilers(&ncc);
	if (flags[0]) {
		json_t *j = kb_probe_host_json(&h);

		json_object_set_new(j, "llvm_mca", mca ? json_pack("{s:s,s:s?}", "path", mca, "version", mca_ver)
						       : json_pack("{s:n,s:s}", "path", "why", MCA_MISSING));
		free(mca);
		free(mca_ver);
		{
			json_t *ja = json_array();

			for (size_t i = 0; i < ncc; i++) {
				*strchr(cc[i], '\t') = 0;
				json_array_append_new(ja, json_pack("{s:s,s:s}", "name", cc[i], "version",
								    cc[i] + strlen(cc[i]) + 1));
				free(cc[i]);
			}
			free(cc);
			json_object_set_new(j, "kernel_compilers", ja);
		}
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(j);
		kb_probe_host_release(&h);
		return KB_EXIT_OK;
	}
	printf("cpu:                 %s\n", h.cpu.brand ?: h.cpu.error ?: "?");
	for (size_t i = 0; i < h.cpu.n_caches; i++)
		printf("  %-4s               %d KiB, %d-way, %d-byte lines\n", h.cpu.caches[i].name,
		       h.cpu.caches[i].size_kib, h.cpu.caches[i].ways, h.cpu.caches[i].line);
	printf("hypervisor:          %s\n", yes_no(h.cpu.hypervisor));
	printf("tcg usable:          %s (%s)\n", yes_no(h.tcg.usable), h.tcg.why);
	printf("kvm usable:          %s (%s)\n", yes_no(h.kvm.usable), h.kvm.why);
	printf("host pmu:            %s%s%s%s\n", yes_no(h.host_pmu.usable), h.host_pmu.why ? " (" : "",
	       h.host_pmu.why ?: "", h.host_pmu.why ? ")" : "");
	printf("perf_event_paranoid: %ld\n", h.has_paranoid ? h.paranoid : 0);
	printf("qemu:                %s\n", h.qemu.version ?: "not found");
	printf("qemu plugins:        %s\n", yes_no(h.qemu.plugins));
	for (size_t i = 0; i < KB_ARRAY_SIZE(h.arches); i++) {
		const struct kb_host_arch *a = &h.arches[i];

		if (!a->arch)
			continue;
		printf("arch %-7s         %s: %s; tcg %s, kvm %s%s%s%s, plugins %s\n", a->arch, a->path,
		       a->version ?: "not found", yes_no(a->tcg.usable), yes_no(a->kvm.usable),
		       a->kvm.usable >= 0 && a->kvm.why ? " (" : "",
		       a->kvm.usable >= 0 && a->kvm.why ? a->kvm.why : "",
		       a->kvm.usable >= 0 && a->kvm.why ? ")" : "", yes_no(a->plugins));
	}
	printf("compiler:            %s\n", h.compiler ?: "not found");
	if (mca)
		printf("llvm-mca:            %s (LLVM %s)\n", mca, mca_ver ?: "version unknown");
	else
		printf("llvm-mca:            %s\n", MCA_MISSING);
	free(mca);
	free(mca_ver);
	/* what a variant's cc may name (clang needs no LLVM=1 for i386 or
	 * x86_64: GNU ld links what it compiles) */
	printf("kernel compilers:   %s", ncc ? "" : " none found (gcc or clang)");
	for (size_t i = 0; i < ncc; i++) {
		*strchr(cc[i], '\t') = 0;
		printf("%s %s (%s)", i ? "," : "", cc[i], cc[i] + strlen(cc[i]) + 1);
		free(cc[i]);
	}
	printf("\n");
	free(cc);
	printf("backends:           ");
	bs = kb_backends(&nb);
	for (size_t i = 0, n = 0; i < nb; i++)
		if (bs[i]->usable(&h))
			printf("%s %s", n++ ? "," : "", bs[i]->name);
	printf("\n");
	kb_probe_host_release(&h);
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
		 "perf_event_paranoid, CPU and caches (libcpuid), QEMU and its plugin support\n"
		 "(for each guest architecture, i386 and x86_64: its QEMU, TCG, KVM),\n"
		 "the compiler, llvm-mca (the default model of cycles) and its version,\n"
		 "the kernel compilers a variant's cc may name (gcc, clang, gcc-N, clang-N),\n"
		 "and the backends that can run here.\n",
	.options = options,
	.fn = cmd_probe,
};
