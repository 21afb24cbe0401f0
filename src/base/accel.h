/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_ACCEL_H
#define KB_ACCEL_H

/*
 * QEMU's accelerator, one type for every module: [run] accel asks for one
 * (auto, kvm or tcg), a run chooses KVM or TCG before any backend, and the
 * name is written only where a string leaves kbench (QEMU's -accel, the
 * manifest, a sample's "accel").  A leaf: it includes nothing of kbench's.
 */

#include <string.h>

/* in the order of [run] accel's allowed values (conf.c) */
enum kb_accel { KB_ACCEL_AUTO, KB_ACCEL_KVM, KB_ACCEL_TCG };

static inline const char *kb_accel_name(enum kb_accel a)
{
	return a == KB_ACCEL_KVM ? "kvm" : a == KB_ACCEL_TCG ? "tcg" : "auto";
}

/* The accelerator s names: KVM for "kvm", TCG for "tcg", else (NULL
 * included) KB_ACCEL_AUTO, which no run chooses. */
static inline enum kb_accel kb_accel_from_name(const char *s)
{
	if (s && !strcmp(s, "kvm"))
		return KB_ACCEL_KVM;
	if (s && !strcmp(s, "tcg"))
		return KB_ACCEL_TCG;
	return KB_ACCEL_AUTO;
}

#endif
