/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_PROBE_H
#define KB_PROBE_H

#include <jansson.h>

#include "accel.h"

/* A 64 KiB BIOS image in /tmp whose reset vector writes to isa-debug-exit
 * (which kb_vm_boot adds with a bios), so that QEMU exits with status
 * KB_PROBE_BIOS_STATUS: the smallest guest that proves QEMU ran.  The path,
 * malloc'd (the caller unlinks it), or NULL. */
char *kb_probe_bios(void);
#define KB_PROBE_BIOS_VALUE	0x2a	/* written to the port; QEMU exits (v << 1) | 1 */
#define KB_PROBE_BIOS_STATUS	((KB_PROBE_BIOS_VALUE << 1) | 1)

/* Does a guest really make progress under accel (KVM or TCG)?  A 64 KiB
 * BIOS whose reset vector writes to isa-debug-exit must end QEMU with the
 * expected status within timeout seconds.  1 yes, 0 no; *why (malloc'd) says
 * what was seen either way. */
int kb_probe_accel(const char *qemu, enum kb_accel accel, double timeout, char **why);

/* A capability of the host: usable or not, and what was seen. */
struct kb_host_check {
	int usable;			/* 1 yes, 0 no, -1 not probed */
	char *why;			/* or NULL */
};

/* One cache level as libcpuid reports it. */
struct kb_host_cache {
	const char *name;		/* "l1i", "l1d", "l2", "l3" */
	int size_kib, ways, line;
};

/* Everything this host can measure, probed once by kb_probe_host: cpu and
 * caches (libcpuid), KVM usable and why, TCG, host software events and
 * PMU, perf_event_paranoid, QEMU version and plugin support, compiler.
 * The backends' usable hooks and kbench probe read it; the manifest keeps
 * it as JSON (kb_probe_host_json). */
struct kb_host {
	struct {
		const char *error;	/* libcpuid's, when it could not identify the cpu
					 * (the rest unset), or NULL */
		char *vendor, *brand;
		int family, model, stepping, cores, logical_cpus, hypervisor;
		struct kb_host_cache caches[4];	/* those it reports, in that order */
		size_t n_caches;
	} cpu;
	struct kb_host_check kvm, tcg, host_pmu;
	int host_sw;			/* software events open */
	int has_paranoid;		/* perf_event_paranoid could be read */
	long paranoid;
	struct {
		const char *path;
		char *version;		/* its --version line, or NULL: not found */
		int plugins;
	} qemu;			/* i386's (kvm and tcg above are its too) */
	/* Per guest architecture ([kernel] arch): its QEMU and accelerators. */
	struct kb_host_arch {
		const char *arch;	/* "i386", "x86_64" */
		const char *path;
		char *version;		/* or NULL: not found */
		int plugins;
		struct kb_host_check kvm, tcg;
	} arches[2];
	char *compiler;			/* gcc --version's first line, or NULL */
};

/* Fill h; check_kvm=0 skips the (seconds-long) KVM boot probe (kvm.usable
 * -1).  kb_probe_host_release frees what it holds. */
void kb_probe_host(struct kb_host *h, int check_kvm);
void kb_probe_host_release(struct kb_host *h);
/* h as kbench probe --json and the manifest's "host" give it (new reference). */
json_t *kb_probe_host_json(const struct kb_host *h);

#endif
