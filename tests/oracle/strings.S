/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Costs that the instruction count cannot see (issue 24, t0228):
 *   1  rep movsb of 16 bytes        2  rep movsb of 4096 bytes
 *   3  10000 dependent divl         4  10000 addl
 * Under TCG every iteration of rep movsb is one executed instruction; the
 * loops of regions 3 and 4 run the same number of instructions.
 */
#include "oracle.h"

	.text
	.globl _start
_start:
	BEGIN(1)
	mov $src, %esi
	mov $dst, %edi
	mov $16, %ecx
	rep movsb
	END(1)
	BEGIN(2)
	mov $src, %esi
	mov $dst, %edi
	mov $4096, %ecx
	rep movsb
	END(2)
	mov $7, %eax
	mov $1, %esi
	xor %edx, %edx
	mov $10000, %ecx
	falign 16
	BEGIN(3)
1:	divl %esi
	dec %ecx
	jnz 1b
	END(3)
	mov $10000, %ecx
	falign 16
	BEGIN(4)
2:	addl %eax, %ebx
	dec %ecx
	jnz 2b
	END(4)
	EXIT

	.bss
src:	.space 4096
dst:	.space 4096
