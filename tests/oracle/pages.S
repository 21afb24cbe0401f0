/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Oracle program: instructions across 4 KiB page boundaries, where QEMU ends
 * a translation block and the plugin has to count the instruction that spans
 * the boundary once (kbench-sim.c, struct tbd's tail).
 * Regions (t0225 checks each against reference.py, several geometries):
 *   40  NOPs up to a page boundary, then an 8-byte NOP across it, cold:
 *      QEMU lists the spanning NOP cut short at the end of the first block
 *      and whole at the start of the next; it runs once, and misses once,
 *      for its second line (its first came with the NOPs before it)
 *   41  a call straight to an 8-byte NOP across a boundary, cold: both of
 *      its lines miss, one access and one miss (two fills)
 *   42  region 41 again: hits where the lines stayed
 *   43  a call straight to a 5-byte jmp across a boundary, cold
 *   44  a NOP that ends exactly at a page's end, then one on the next page
 *   45  a 40 KiB NOP sled (NOPs of 1 to 11 bytes) over 11 pages, run
 *      3 times: straight code above the largest cache, page crossings, and
 *      translation blocks cut at QEMU's instruction limit
 *   46  a begin marker across a page boundary, two NOPs and a jmp, and an
 *      end marker across another: listed twice like region 40's NOP, each
 *      marker must act once (three instructions, no misses: their line came
 *      with the begin marker)
 */
#include "oracle.h"

	.text
	.globl _start
_start:
	falign 16
	BEGIN(40); call cross_warm; END(40)
	falign 16
	BEGIN(41); call cross_cold; END(41)
	falign 16
	BEGIN(42); call cross_cold; END(42)
	falign 16
	BEGIN(43); call cross_jmp; END(43)
	falign 16
	BEGIN(44); call page_end; END(44)
	mov $3, %esi
	falign 16
	BEGIN(45)
1:	call sled40k
	dec %esi
	jnz 1b
	END(45)
	call marker_cross
	EXIT

	.balign 4096, 0xcc
p0:
	at p0+4096-35
cross_warm:		/* 32 bytes of NOPs, then p1-3 .. p1+4 */
	nopn 8; nopn 8; nopn 8; nopn 8
	nopn 8
	ret
	at p0+2*4096-3
cross_cold:		/* p2-3 .. p2+4 */
	nopn 8
	ret
	at p0+3*4096-2
cross_jmp:		/* p3-2 .. p3+2: jmp rel32, which gas would shorten */
	.byte 0xe9; .long 1f-(.+4)
	nop
1:	ret
	at p0+4*4096-5
page_end:		/* p4-5 .. p4-1 */
	nopn 5
	nop
	ret

	at p0+5*4096-4
marker_cross:		/* p5-4 .. p5+4 */
	BEGIN(46)
	nop
	nop
	jmp 1f
	at p0+6*4096-3
1:	END(46)		/* p6-3 .. p6+5 */
	ret

	.balign 4096, 0xcc
sled40k:
	sled 620
	ret
