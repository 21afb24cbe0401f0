/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_PROBE_H
#define KB_PROBE_H

#include <jansson.h>

/* Does a guest really make progress under accel ("kvm" or "tcg")?  A 64 KiB
 * BIOS whose reset vector writes to isa-debug-exit must end QEMU with the
 * expected status within timeout seconds.  1 yes, 0 no; *why (malloc'd) says
 * what was seen either way. */
int kb_probe_accel(const char *qemu, const char *accel, double timeout, char **why);

/* Everything this host can measure, as JSON: cpu and caches (libcpuid), KVM
 * usable and why, host PMU, perf_event_paranoid, QEMU version and plugin
 * support, compiler.  check_kvm=0 skips the (seconds-long) KVM boot probe. */
json_t *kb_probe_host(int check_kvm);

#endif
