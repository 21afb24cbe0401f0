/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Call graph program (t0280): calls whose counts follow from the code.
 *   region 1: the loop in _start calls fa 100 times; fa calls fb from two
 *             sites, fb calls fc from one: so 100 calls from the loop's
 *             site to fa, 100 from each of fa's sites to fb, 200 from fb's
 *             site to fc; fc calls nothing
 *   region 2: 7 indirect calls (call *%eax) to fc from one site
 *   region 3: fd called once, and a call to fe, whose entry is at the
 *             start of a page (a block of its own)
 * Outside regions: one call to fa before region 1 (not counted in any).
 * The call sites are labelled (site_*) so that the test finds their
 * addresses with nm.
 */
#include "oracle.h"

	.text
	.globl _start
_start:
site_pre:
	call fa
	mov $100, %esi
	falign 16
	BEGIN(1)
1:
site_loop:
	call fa
	dec %esi
	jnz 1b
	END(1)
	mov $7, %esi
	falign 16
	BEGIN(2)
2:	mov $fc, %eax
site_ind:
	call *%eax
	dec %esi
	jnz 2b
	END(2)
	falign 16
	BEGIN(3)
site_d:
	call fd
	END(3)
	EXIT

	falign 64
	.globl fa
fa:
site_a1:
	call fb
site_a2:
	call fb
	ret
	falign 64
	.globl fb
fb:	nop
site_b:
	call fc
	ret
	falign 64
	.globl fc
fc:	ret
	falign 64
	.globl fd
fd:
site_d2:
	call fe
	ret
	.balign 4096, 0xcc
	.globl fe
fe:	nop
	ret
