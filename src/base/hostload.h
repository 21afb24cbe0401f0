/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_HOSTLOAD_H
#define KB_HOSTLOAD_H

/*
 * Whether the machine was otherwise idle while kbench timed something: the
 * CPU time every process of the machine spent (/proc/stat) less what kbench
 * and its waited-for children spent (getrusage), as a share of the machine's
 * CPU time over the interval.  A timed boot is waited for before the
 * interval ends, so QEMU counts as kbench's own.  Measured, not modeled;
 * the kernel's tick accounting makes it good to about a tick per CPU.
 */

struct kb_hostload {
	unsigned long long busy, all;	/* /proc/stat ticks at the start */
	double own;			/* kbench's CPU seconds at the start */
	int ok;
};

void kb_hostload_begin(struct kb_hostload *h);
/* The share (0 to 1) of the machine's CPU time that other processes used
 * since kb_hostload_begin, or a negative value when it cannot be known. */
double kb_hostload_other(const struct kb_hostload *h);

#endif
