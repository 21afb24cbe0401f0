/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_PMUHOST_H
#define KB_PMUHOST_H

#include <jansson.h>
#include <sys/types.h>

#include "backend.h"
#include "counters.h"
#include "record.h"

/*
 * Counters kbench reads on the host, on the QEMU vCPU thread, around each
 * measured region.  The guest runner (kb_sync=1) sends a mark record before
 * and after each region and waits for one byte on the serial port; between
 * the two, the host's counter group on the vCPU thread is enabled.  So the
 * host's count also holds the handshake's tail: the answer's delivery to the
 * runner and the end mark's output (under TCG, 0.2 to 0.55 ms a region;
 * t0360).
 *
 * hardware ("pmu-host"): cycles, instructions, L1i, iTLB and branch misses
 * with exclude_host, i.e. only while the thread runs the KVM guest; kernel
 * and user are the guest's.  software ("host-sw"): page faults, context
 * switches and task-clock of the vCPU thread, kernel and user of the host:
 * what running the region cost the host (under TCG, the emulation).  The
 * kernel ignores exclude_kernel/exclude_user for task-clock: host_tclk_k and
 * host_tclk_u are each the thread's whole time in the region.
 *
 * Each region's values go into the guest's sample record of that region as
 * fields host_<key>_k and host_<key>_u (host_mux_k/_u: per mille of the
 * region counted), and the sample's backend becomes the mode's name.
 */
enum kb_pmuhost_mode { KB_PMUHOST_OFF, KB_PMUHOST_HARDWARE, KB_PMUHOST_SOFTWARE };


/* Can this host count guest-only hardware events?  1, or 0 with *why
 * (malloc'd). */
int kb_pmuhost_hardware_usable(char **why);


/* The per-boot hooks of backends pmu-host and host-sw (backend.h): the
 * counters above, one struct kb_pmuhost per boot. */
void *kb_pmuhost_boot_new(enum kb_pmuhost_mode mode, const char *name,
			  const struct kb_backend_boot *b);
void kb_pmuhost_boot_started(void *bs, pid_t qemu, int serial_in);
void kb_pmuhost_boot_record(void *bs, const struct kb_record *r);
int kb_pmuhost_boot_sample(void *bs, const struct kb_backend_sample *s, json_t *fields,
			   const char **why);
int kb_pmuhost_boot_end(void *bs, json_t *rec);
void kb_pmuhost_boot_free(void *bs);
/* What both backends' struct kb_backend share: the guest's sync argument
 * and the per-boot hooks above (boot_new says which counters). */
#define KB_PMUHOST_HOOKS							\
	.guest_args = "kb_sync=1", .boot_started = kb_pmuhost_boot_started,	\
	.on_record = kb_pmuhost_boot_record, .on_sample = kb_pmuhost_boot_sample, \
	.boot_end = kb_pmuhost_boot_end, .boot_free = kb_pmuhost_boot_free
/* A metric of theirs: the host's fields (host_*) are measured and noted
 * host_note; the others are the guest's own, as backend clock says. */
void kb_pmuhost_metric(const char *field, enum kb_accel accel, const char *host_note,
		       struct kb_metric_desc *d);

#endif
