/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Function order program (t0280): each function in a section of its own
 * (.text.NAME, as gcc's -ffunction-sections names them), 64-byte aligned
 * and 64 bytes long, so that a linker script can lay them out in any
 * order.  In input order (order-plain.lds) _start, fa, cold1, cold2, fb,
 * cold3 lie 64 bytes apart: in a 256-byte direct-mapped L1i (4 sets of
 * 64 bytes) fb shares _start's set, and the loop that calls fa and fb
 * misses twice an iteration.  Ordered fa, fb first (order-hot.lds), they
 * share no set with _start: only the first iteration misses.
 *   region 1: 50 iterations of the loop (call fa; call fb)
 */
#include "oracle.h"

	.section .text.start, "ax"
	.globl _start
	.p2align 6
_start:
	mov $50, %esi
	BEGIN(1)
1:	call fa
	call fb
	dec %esi
	jnz 1b
	END(1)
	EXIT
	.p2align 6, 0xcc

.macro fn name
	.section .text.\name, "ax"
	.globl \name
	.p2align 6
\name:
	nopn 5
	ret
	.p2align 6, 0xcc
.endm
	fn fa
	fn cold1
	fn cold2
	fn fb
	fn cold3
