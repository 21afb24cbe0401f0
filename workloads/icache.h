/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The icache sweep's straight-line code, generated at build time by
 * gen-icache into icache-block.c: KB_ICACHE_MAX_KIB chunks of exactly 1 KiB
 * of register-only instructions (no branches, no memory operands), then one
 * ret.  Entering k KiB before the ret executes exactly k KiB of code; the
 * block is page aligned, so k a multiple of 4 is that many whole pages.
 */
#ifndef KB_ICACHE_H
#define KB_ICACHE_H

#include <stdint.h>

#define KB_ICACHE_MAX_KIB	256
/* Most values one sweep may take (kb_sweep, the [run] key sweep). */
#define KB_SWEEP_MAX_POINTS	32

/* The ret at the block's end (a label in the generated code). */
extern const char kb_icache_ret[];

/* Execute the last k KiB of the block (k <= KB_ICACHE_MAX_KIB).  The code
 * writes only eax, ecx, edx and the flags, which a call may clobber. */
static inline void kb_icache_exec(unsigned long k)
{
	void (*fn)(void) = (void (*)(void))(uintptr_t)(kb_icache_ret - k * 1024);

	fn();
}

#endif
