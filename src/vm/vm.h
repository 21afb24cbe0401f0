/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_VM_H
#define KB_VM_H

#include <stddef.h>
#include <sys/types.h>

#include "accel.h"

/* Called for every complete serial line (and for each cut piece of an
 * overlong one); the line has no newline and may hold any byte. */
typedef void (*kb_vm_line_fn)(void *ctx, const char *line, size_t len);

struct kb_vm_opts {
	const char *qemu;		/* qemu-system-i386 or -x86_64 */
	enum kb_accel accel;		/* KVM or TCG */
	const char *kernel;		/* -kernel, or NULL with bios */
	const char *initrd;
	const char *append;
	const char *bios;		/* -bios, for the KVM progress probe */
	long memory_mb;
	double timeout;			/* seconds, wall clock */
	const char *serial_log;		/* raw serial bytes, or NULL */
	const char *qemu_log;		/* QEMU's own stderr, or NULL */
	size_t max_bytes;		/* serial bytes before the guest is cut off */
	kb_vm_line_fn on_line;
	void *ctx;
	/* serial input: when set, QEMU's stdin (the serial port's input) is a
	 * Unix stream socket; on_start gets QEMU's pid and kbench's end (send
	 * with MSG_NOSIGNAL; closed after the boot), before the first line */
	void (*on_start)(void *ctx, pid_t pid, int serial_in);
	/* more QEMU arguments (the sim backend's -plugin, -icount), NULL-terminated,
	 * at most KB_VM_MAX_EXTRA; or NULL */
	const char *const *extra_argv;
};
#define KB_VM_MAX_EXTRA 16

/* The QEMU binary for a guest architecture ([kernel] arch; NULL: i386):
 * for i386 $KBENCH_QEMU, else the qemu-system-i386 configure found; for
 * x86_64 $KBENCH_QEMU_X86_64, else its qemu-system-x86_64. */
const char *kb_qemu_path(const char *arch);

/* The host's TSC rate in kHz, measured (the TSC against CLOCK_MONOTONIC_RAW
 * over 20 ms), for a TCG guest whose clock is read in the guest: without
 * -icount, QEMU's TCG hands the guest the host's TSC, and the guest's own
 * calibration of it against the emulated PIT fails when the host is busy
 * ("tsc: Unable to calibrate against PIT"): the kernel then keeps time with
 * the PIT, whose reads stall, and a region can take 0 ns.  0 where the host
 * is not x86 or its TSC is not constant (libcpuid's CPU_FEATURE_CONSTANT_TSC). */
long kb_vm_host_tsc_khz(void);

struct kb_vm_result {
	int exited;		/* QEMU exited by itself */
	int status;		/* its exit status when exited */
	int signal;		/* or the signal that ended it */
	int timed_out;		/* killed at the deadline */
	int flooded;		/* killed for printing more than max_bytes */
	size_t bytes;		/* serial bytes received */
	double seconds;
};

/* The part of a console line from "Kernel panic" on, printable ASCII only
 * (others as '?'), into out (size bytes, NUL-terminated).  1 when the line
 * has one, else 0 and out untouched. */
int kb_vm_panic_text(const char *line, size_t len, char *out, size_t size);

/* How a boot ended, from QEMU's result under o and what the guest said
 * (its hello, its done, a panic line or ""): "ok", "timeout", "flood",
 * "panic" or "crashed", with *reason malloc'd ("" when ok). */
const char *kb_vm_outcome(const struct kb_vm_result *res, const struct kb_vm_opts *o, int hello,
			  int done, const char *panic, char **reason);

/* Boot QEMU (argv only, its own process group), stream the serial port to
 * on_line and serial_log, and end it at the deadline.  0, or -errno when
 * QEMU could not be started at all (message printed). */
int kb_vm_boot(const struct kb_vm_opts *o, struct kb_vm_result *res);

/* One boot that counts only when the guest runner says done and QEMU exits
 * by itself (o's on_line and ctx are its own): kbench boot-check, and the
 * check that a kernel really boots under KVM.  0, or -1 with *reason
 * (malloc'd) saying why; the boot's result into *out unless out is NULL. */
int kb_vm_check(const struct kb_vm_opts *o, char **reason, struct kb_vm_result *out);

#endif
