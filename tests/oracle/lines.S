/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Oracle program: straight code, and instructions that span two lines.
 * Regions (t0225 checks each against reference.py, several geometries):
 *   1  a NOP sled of 3168 bytes (NOPs of 1 to 11 bytes), run once, cold
 *   2  the same sled four more times: hits where it fits, misses where not
 *   3  an 8-byte NOP across a 64-byte boundary, both lines cold: one miss,
 *      two fills (a fetch that spans two lines is one access)
 *   4  the same with its first line fetched by the NOPs before it: the
 *      NOPs miss once, the spanning one misses once (its second line)
 *   5  the same with its second line fetched first (by the loop after it):
 *      one miss there, one for the spanning NOP (its first line), then hits
 *   6  region 3's NOP again, both lines resident in a big enough cache
 *   7  a begin marker across a 64-byte boundary and an end marker across
 *      another, cold: the markers' fetches belong to no region, so the
 *      three instructions between them hit in the marker's line
 *   8  begin and end markers back to back: an empty region
 *   9, 10  two regions in one translation block, a NOP in each
 *   11 a system call (getppid) in the region: QEMU leaves the block at
 *      int $0x80 and goes on in a new one after it
 * Between regions 2 and 3 the sled runs once more outside any region.
 */
#include "oracle.h"

	.text
	.globl _start
_start:
	falign 16
	BEGIN(1); call sled3k; END(1)
	mov $4, %esi
	falign 16
	BEGIN(2)
1:	call sled3k
	dec %esi
	jnz 1b
	END(2)
	call sled3k
	falign 16
	BEGIN(3); call span_a; END(3)
	falign 16
	BEGIN(4); call span_b_in; END(4)
	mov $3, %edx
	falign 16
	BEGIN(5); call span_c_in; END(5)
	falign 16
	BEGIN(6); call span_a; END(6)
	jmp edge_begin
edge_back:
	falign 16
	BEGIN(8); END(8)
	BEGIN(9); nop; END(9); BEGIN(10); nopn 2; END(10)
	falign 16
	BEGIN(11)
	mov $64, %eax
	int $0x80
	nop
	END(11)
	EXIT

/* the sled in one page, starting on a page boundary: page crossings are pages.S's */
	.balign 4096, 0xcc
sled3k:
	sled 48
	ret

	.balign 4096, 0xcc
spans:
	at spans+60
span_a:			/* A+60 .. A+67 */
	nopn 8
	ret

	at spans+0x100+48
span_b_in:		/* B+48: 12 bytes of NOPs in the line before the spanning one */
	nopn 4
	nopn 8
span_b:			/* B+60 */
	nopn 8
	ret

	at spans+0x200+60
span_c:			/* C+60 */
	nopn 8
span_c_in:		/* C+68: %edx = 3 runs span_c twice */
	dec %edx
	jnz span_c
	ret

	at spans+0x300+58
edge_begin:		/* E+58 .. E+65 */
	BEGIN(7)
	nop
	nop
	jmp edge_end
	at spans+0x400+60
edge_end:		/* F+60 .. F+67 */
	END(7)
	jmp edge_back
