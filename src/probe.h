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

/* Everything this host can measure, as JSON: cpu and caches (libcpuid), KVM
 * usable and why, host PMU, perf_event_paranoid, QEMU version and plugin
 * support, compiler.  check_kvm=0 skips the (seconds-long) KVM boot probe. */
json_t *kb_probe_host(int check_kvm);

#endif
